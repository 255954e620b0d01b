"""A shipped agent's options, written after its name: `search:rollouts=200`,
`search:ms=300:line=run-6`, `expert:line=run-6`. Each option is read and
checked here, before any match starts; a line's id is checked against the
card when the agent first sees it (the name alone does not say which card).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from jongg.runtime.errors import JonggError


class BadOption(JonggError, ValueError):
    """An agent option that is unknown, repeated or has a bad value."""


def _count(key: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BadOption(f"{key}={text!r}: give a whole number, e.g. {key}=64") from None
    if value < 1:
        raise BadOption(f"{key}={text!r}: give at least 1")
    return value


def _line(key: str, text: str) -> str:
    if not text:
        raise BadOption(f"{key}=: name a line of the card, e.g. {key}=run-6")
    return text


# the playout policies: greedy or expert at every seat, or mixed (the expert at
# the searching seat, as it will go on playing, greedy at the others)
POLICIES = ("greedy", "expert", "mixed")


def _policy(key: str, text: str) -> str:
    if text not in POLICIES:
        raise BadOption(f"{key}={text!r}: the playout policy is " + ", ".join(POLICIES[:-1])
                        + f" or {POLICIES[-1]}")
    return text


def _worlds(key: str, text: str) -> str:
    if text not in ("kept", "uniform"):
        raise BadOption(f"{key}={text!r}: the other hands are dealt kept or uniform")
    return text


def _styles(key: str, text: str) -> int:
    from jongg.runtime.agents.expert import STYLES  # the expert's: read when asked

    count = _count(key, text)
    others = list(STYLES)[1:]
    if count > len(others):
        raise BadOption(f"{key}={text!r}: there are {len(others)} other styles ("
                        + ", ".join(others) + f"); give at most {len(others)}")
    return count


Reader = Callable[[str, str], Any]

# the options each shipped agent takes: key -> its reader (the keyword is the key)
OPTIONS: dict[str, dict[str, Reader]] = {
    "search": {"rollouts": _count, "ms": _count, "line": _line, "policy": _policy,
               "top": _count, "worlds": _worlds, "plans": _count, "styles": _styles},
    "expert": {"line": _line},
}


def read_options(agent: str, text: str) -> dict[str, Any]:
    """`key=value:key=value` for this agent, read and checked."""
    known = OPTIONS.get(agent, {})
    if not known:
        raise BadOption(f"{agent!r} takes no options")
    out: dict[str, Any] = {}
    for part in text.split(":"):
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals:
            raise BadOption(f"option {part!r} has no value; write key=value, e.g. "
                            f"{next(iter(known))}=...")
        if key not in known:
            raise BadOption(f"unknown option {key!r}; {agent} takes "
                            + ", ".join(known))
        if key in out:
            raise BadOption(f"option {key!r} given twice")
        out[key] = known[key](key, value.strip())
    return out


def with_options(name: str, maker: Callable[..., Any], agent: str, text: str
                 ) -> Callable[[int, int], Any]:
    """A maker of this agent with these options, named by the whole name."""
    options = read_options(agent, text)
    made = partial(maker, **options)

    def make(seed: int, seat: int) -> Any:
        chosen = made(seed, seat)
        chosen.name = name  # logs and standings name it with its options
        return chosen

    return make
