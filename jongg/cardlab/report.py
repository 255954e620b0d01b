"""`jongg card report`: is a card any good? Rounds of it played by bots,
counted per line, with the card's exact flags, written as report.html
(plots embedded), lines.csv and report.json in one folder.

The rounds of each player count are a run of jongg.runs.scale with a journal in
the folder (rounds-4p.jsonl): every chunk finished is on disk at once, so a
report stopped any way is continued by giving the same command again (more
--rounds extend it), and the report always says how many rounds it covers.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from jongg import __version__
from jongg.api import Diagnostic, UsageError, compile_variant, registry
from jongg.cardlab.exact import exact
from jongg.cardlab.figures import Figures, figures
from jongg.cardlab.tally import (
    CardSource,
    ReportSetup,
    Tally,
    decode,
    encode,
    merge,
    play_rounds,
    table_game,
)
from jongg.runs import scale
from jongg.runtime.matching.matcher import Matcher

CHUNK = 10  # rounds a worker plays per task, at most
OUTPUTS = ("report.html", "lines.csv", "report.json")
JOURNAL = "rounds-{players}p.jsonl"


@dataclass(frozen=True)
class Request:
    card: str  # as given: a shipped name or a path
    variant: str
    players: tuple[int | None, ...]  # None: the variant's count
    rounds: int
    agents: tuple[str, ...]
    seed: int
    out: Path
    jobs: int = 1
    cluster: str | None = None
    force: bool = False


@dataclass
class Result:
    figures: list[Figures]
    asked: int  # rounds asked per player count
    resumed: list[int]  # rounds read back from each journal
    seconds: float

    @property
    def partial(self) -> bool:
        return any(f.tally.rounds < self.asked for f in self.figures)


def card_source(name: str) -> CardSource:
    """The card as every worker finds it: a shipped name, or a file's
    absolute path with its text."""
    entry = registry.locate("card", name)
    if registry.is_shipped(entry):
        return CardSource(registry.reference(entry))
    path = Path(str(entry)).resolve()
    try:
        return CardSource(str(path), path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"CARD: cannot read {name}: {error}") from None


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()[:24]


def journal_key(table: ReportSetup, variant_bytes: bytes) -> dict[str, Any]:
    """What decides a report's rounds: the card's and the variant's text, the
    player count, the agents and the version of jongg."""
    card_bytes = (table.card.text.encode() if table.card.text is not None else
                  registry.locate("card", table.card.name).read_bytes())
    return {"report": "card", "jongg": __version__, "players": table.players,
            "agents": list(table.agents), "rules": _digest(card_bytes, variant_bytes)}


def check_folder(out: Path, force: bool) -> None:
    """A folder the report may write: new, one of its own (a journal there),
    or --force; a file of the user's is never replaced unasked."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out: {out} is a file; give a folder")
    ours = out.is_dir() and any(out.glob(JOURNAL.format(players="*")))
    there = [name for name in OUTPUTS if (out / name).exists()]
    if there and not ours and not force:
        raise UsageError([Diagnostic(None, f"--out: {out} holds {', '.join(there)}, not written "
                                           "by a card report",
                                     hint="give another folder, or --force to replace them")])


def run_report(request: Request, progress: Callable[[int, int], None] | None = None
               ) -> Result:
    """Play (or continue) the report's rounds at each player count, and its
    figures. `progress(players, rounds)` is told of rounds as they finish."""
    source = card_source(request.card)
    specs = [compile_variant(request.variant, p, source.local()) for p in request.players]
    check_folder(request.out, request.force)
    request.out.mkdir(parents=True, exist_ok=True)
    entry = registry.locate("variant", request.variant)
    variant = registry.reference(entry) if registry.is_shipped(entry) else \
        str(Path(str(entry)).resolve())  # workers may start elsewhere
    found, resumed, seconds = [], [], 0.0
    seeds = range(request.seed, request.seed + request.rounds)
    for spec in specs:
        table = ReportSetup(variant, source, spec.players, request.agents)
        game = table_game(table)  # the matcher compiled once, into the cache, before workers
        journal = scale.Journal(request.out / JOURNAL.format(players=spec.players),
                                journal_key(table, entry.read_bytes()), seeds, encode, decode)
        tell = (lambda n, p=spec.players: progress(p, n)) if progress else None
        outcome = scale.gather(partial(play_rounds, table), seeds, merge, jobs=request.jobs,
                               cluster=request.cluster, size=CHUNK, progress=tell,
                               journal=journal)
        seconds += outcome.seconds
        resumed.append(outcome.resumed)
        assert isinstance(game.matcher, Matcher)  # load_game plays the compiled matcher
        found.append(figures(game.matcher.card, spec.players, outcome.result or Tally(),
                             exact(game.matcher)))
        if outcome.partial:
            break  # stopped: the counts not begun are not reported
    result = Result(found, request.rounds, resumed, seconds)
    write(request, result)
    return result


# -- the files ------------------------------------------------------------------------
CSV_COLUMNS = ("players", "line", "section", "value", "concealed", "wins", "share_of_rounds",
               "share_of_rounds_low", "share_of_rounds_high", "share_of_wins",
               "share_of_wins_low", "share_of_wins_high", "never_won_bound95", "aimed",
               "aimed_share", "mean_turns_to_win", "self_drawn_share", "exposed_share",
               "with_jokers_share", "mean_jokers", "difficulty", "suggested_value", "flags")


def report_json(request: Request, result: Result) -> dict[str, Any]:
    return {
        "card": request.card, "variant": request.variant, "agents": list(request.agents),
        "seed": request.seed, "rounds_asked": request.rounds, "partial": result.partial,
        "value_model": "suggested = a + b * difficulty, difficulty = -log10((wins + 0.5) / "
                       "(rounds + 1)), a and b the least-squares fit to the printed values, "
                       "kept within the card's values and rounded to 5",
        "tables": [{**f.card_json(), "resumed_rounds": r, "sections": f.sections(),
                    "lines": [row.json() for row in f.rows],
                    "dominated": [list(p) for p in f.exact.dominated],
                    "overlaps": [list(p) for p in f.exact.overlaps],
                    "jokers_only": f.exact.joker_only,
                    "structural": f.exact.structural,
                    "unsettled": [list(p) for p in f.exact.unsettled]}
                   for f, r in zip(result.figures, result.resumed, strict=True)]}


def lines_csv(data: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for table in data["tables"]:
        for line in table["lines"]:
            row = {**line, "players": table["players"],
                   "share_of_rounds_low": line["share_of_rounds_ci95"][0],
                   "share_of_rounds_high": line["share_of_rounds_ci95"][1],
                   "share_of_wins_low": line["share_of_wins_ci95"][0],
                   "share_of_wins_high": line["share_of_wins_ci95"][1],
                   "flags": " ".join(line["flags"])}
            writer.writerow(["" if row[c] is None else
                             f"{row[c]:.6g}" if isinstance(row[c], float) else row[c]
                             for c in CSV_COLUMNS])
    return out.getvalue()


def _replace(path: Path, text: str) -> None:
    """Write whole or not at all: a report stopped while writing keeps the last one."""
    part = path.with_name(path.name + ".part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, path)
    except OSError as error:
        raise UsageError(f"--out: cannot write {path}: {error.strerror or error}") from None


def write(request: Request, result: Result) -> None:
    from jongg.cardlab.html import report_html  # matplotlib only here

    data = report_json(request, result)
    _replace(request.out / "report.json", json.dumps(data, indent=1))
    _replace(request.out / "lines.csv", lines_csv(data))
    _replace(request.out / "report.html", report_html(data, result.figures))
