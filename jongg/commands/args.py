"""Arguments several commands share, read in one place."""

from __future__ import annotations

from jongg.api import Diagnostic, UsageError
from jongg.runtime.agents.registry import SHIPPED, UnknownAgent, agent_maker


def agents_arg(text: str) -> tuple[str, ...]:
    """Agents by seat from --agents: shipped names or module:Class."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise UsageError([Diagnostic(None, f"--agents: no agent named in {text!r}",
                                     hint=f"agents: {', '.join(SHIPPED)}, or module:Class")])
    for name in names:
        try:
            agent_maker(name)
        except UnknownAgent as error:
            raise UsageError(f"--agents: {error}") from None
    return names
