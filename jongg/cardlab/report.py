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
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from jongg import __version__
from jongg.api import Diagnostic, UsageError, compile_variant, registry
from jongg.cardlab import committed as commit
from jongg.cardlab.difficulty import Committed, agreement, committed_figures
from jongg.cardlab.exact import exact
from jongg.cardlab.figures import Figures, figures, free_agreement, free_json
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
from jongg.runs.simulate import file_stem
from jongg.runtime.matching.matcher import Matcher

CHUNK = 10  # rounds a worker plays per task, at most
OUTPUTS = ("report.html", "lines.csv", "committed.csv", "report.json")
JOURNAL = "rounds-{players}p.jsonl"  # the first agent's free play
FREE = "rounds-{agent}-{players}p.jsonl"  # another agent's
COMMITTED = "committed-{agent}-{players}p.jsonl"
AGAINST = "against"  # the folder, inside the report's, of the card it is compared with


@dataclass(frozen=True)
class Request:
    card: str  # as given: a shipped name or a path
    variant: str
    players: tuple[int | None, ...]  # None: the variant's count
    rounds: int  # free-play rounds of the first agent (every seat it)
    agents: tuple[str, ...]  # the agents measured, each committed to every line in turn
    seed: int
    out: Path
    jobs: int = 1
    cluster: str | None = None
    force: bool = False
    committed: tuple[int, ...] = ()  # committed rounds per line, by agent (the last repeats)
    against: str | None = None  # a card played on the same seeds, to compare with
    free: tuple[int, ...] = ()  # free-play rounds by agent, the last repeating (the first's
    # is `rounds`); () : the first agent's free play alone

    def per_line(self, agent: int) -> int:
        """The committed rounds per line of the agent'th agent."""
        return self.committed[min(agent, len(self.committed) - 1)] if self.committed else 0

    def free_rounds(self, agent: int) -> int:
        """The free-play rounds of the agent'th agent."""
        if agent == 0:
            return self.rounds
        return self.free[min(agent, len(self.free) - 1)] if self.free else 0


@dataclass
class Result:
    free: list[list[Figures]]  # per player count, per agent played freely (the first first)
    asked: int  # rounds asked per player count
    resumed: list[int]  # rounds read back from each journal
    seconds: float
    committed: list[list[Committed]]  # per player count, per agent
    stopped: bool = False  # a run stopped before all its rounds
    title: str = ""  # the card's
    against: Result | None = None

    @property
    def figures(self) -> list[Figures]:
        """The first agent's free play, per player count."""
        return [agents[0] for agents in self.free]

    @property
    def partial(self) -> bool:
        return self.stopped or any(f.tally.rounds < self.asked for f in self.figures)


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


Progress = Callable[[str, int, int], None]  # (what, of how many rounds, rounds just done)


def run_report(request: Request, progress: Progress | None = None) -> Result:
    """Play (or continue) the report's rounds at each player count, and its
    figures: free play, then each agent committed to each line; with
    `against`, the same for that card, in the folder's `against` folder.
    `progress` is told of rounds as they finish."""
    source = card_source(request.card)
    specs = [compile_variant(request.variant, p, source.local()) for p in request.players]
    rival = None
    if request.against is not None:
        rival = card_source(request.against)
        for p in request.players:
            compile_variant(request.variant, p, rival.local())  # refused before any round
    if any(request.committed) and any(spec.racks > 1 for spec in specs):
        raise UsageError([Diagnostic(None, f"--committed: {request.variant} plays several "
                                           "racks a seat, and a committed line is played on "
                                           "one", hint="give --committed 0: free play alone")])
    check_folder(request.out, request.force)
    request.out.mkdir(parents=True, exist_ok=True)
    result = _play(request, source, specs, progress)
    if rival is not None and not result.partial:
        other = replace(request, card=str(request.against), out=request.out / AGAINST,
                        against=None, force=True)
        other.out.mkdir(exist_ok=True)
        specs = [compile_variant(request.variant, p, rival.local()) for p in request.players]
        result.against = _play(other, rival, specs, progress, "against: ")
        write(other, result.against)
    write(request, result)
    return result


def _play(request: Request, source: CardSource, specs: list[Any],
          progress: Progress | None, said: str = "") -> Result:
    entry = registry.locate("variant", request.variant)
    variant = registry.reference(entry) if registry.is_shipped(entry) else \
        str(Path(str(entry)).resolve())  # workers may start elsewhere
    found, resumed, seconds, committed, title = [], [], 0.0, [], ""
    stopped = False
    for spec in specs:
        table = ReportSetup(variant, source, spec.players, request.agents[:1])
        game = table_game(table)  # the matcher compiled once, into the cache, before workers
        key = journal_key(table, entry.read_bytes())
        assert isinstance(game.matcher, Matcher)  # load_game plays the compiled matcher
        flags = exact(game.matcher)
        title = game.matcher.card.title
        free: list[Figures] = []
        for k, agent in enumerate(request.agents):
            count = request.free_rounds(k)
            if (k and not count) or stopped:
                continue  # the first agent's free play is always reported
            freely = replace(table, agents=(agent,))
            name = JOURNAL.format(players=spec.players) if not k else \
                FREE.format(agent=file_stem(agent), players=spec.players)
            played = range(request.seed, request.seed + count)
            journal = scale.Journal(request.out / name, journal_key(freely, entry.read_bytes()),
                                    played, encode, decode)
            label = f"{said}{spec.players} players, free play" + (f", {agent}" if k else "")
            outcome = scale.gather(partial(play_rounds, freely), played, merge,
                                   jobs=request.jobs, cluster=request.cluster, size=CHUNK,
                                   progress=_told(progress, label, len(played)),
                                   journal=journal)
            seconds += outcome.seconds
            if not k:
                resumed.append(outcome.resumed)
            free.append(figures(game.matcher.card, spec.players, outcome.result or Tally(),
                                flags, agent))
            stopped = outcome.partial
        found.append(free)
        agents: list[Committed] = []
        lines = len(game.matcher.card.lines)
        for k, agent in enumerate(request.agents if not stopped else ()):
            if not request.per_line(k):
                continue  # this agent is not committed: free play only
            played = range(request.seed, request.seed + request.per_line(k) * lines)
            setup = commit.CommitSetup(table, agent, request.seed)
            journal_c = scale.Journal(
                request.out / COMMITTED.format(agent=file_stem(agent), players=spec.players),
                {**key, "committed": agent}, played, commit.encode, commit.decode)
            label = f"{said}{spec.players} players, {agent} committed"
            done = scale.gather(partial(commit.play_committed, setup), played, commit.merge,
                                jobs=request.jobs, cluster=request.cluster, size=CHUNK,
                                progress=_told(progress, label, len(played)),
                                journal=journal_c)
            seconds += done.seconds
            agents.append(committed_figures(game.matcher.card, agent, done.result or {},
                                            flags))
            stopped = done.partial
            if stopped:
                break
        committed.append(agents)
        if stopped:
            break  # stopped: the counts not begun are not reported
    return Result(found, request.rounds, resumed, seconds, committed, stopped, title)


def _told(progress: Progress | None, label: str, total: int) -> Callable[[int], None] | None:
    return None if progress is None else partial(progress, label, total)


# -- the files ------------------------------------------------------------------------
CSV_COLUMNS = ("players", "agent", "line", "section", "value", "concealed", "wins",
               "share_of_rounds", "share_of_rounds_low", "share_of_rounds_high", "share_of_wins",
               "share_of_wins_low", "share_of_wins_high", "never_won_bound95", "aimed",
               "aimed_share", "aimed_win_rate", "mean_turns_to_win", "self_drawn_share",
               "exposed_share", "with_jokers_share", "mean_jokers", "dealt_complete",
               "dealt_rate", "dealt_rate_low", "dealt_rate_high", "flags")
COMMITTED_COLUMNS = ("players", "agent", "line", "section", "value", "rounds", "completed",
                     "rate", "rate_low", "rate_high", "status", "mean_turns", "claim_share",
                     "exposed_share", "joker_share", "mean_jokers", "exchange_share",
                     "fair_value", "fair_value_low", "fair_value_high", "printed_outside_by",
                     "flag")
MODELS = {
    "committed": "committed rate: of the rounds one seat played for the line from the deal "
                 "(the other seats the first agent, playing normally), those it won with a "
                 "hand completing the line; 95% Wilson score interval",
    "fair": "fair value = k * -ln(committed rate), k making the mean fair value of the "
            "lines valued their mean printed value; its interval: k * -ln at each end of "
            "the rate's interval; fewer than 5 completions: too few rounds",
    "free": "free play: every seat one agent (each agent of --agents in turn, on the same "
            "seeds), playing for whatever it likes; share of wins mixes difficulty with how "
            "often the agent aims at a line; aimed at: the line a seat was nearest when the "
            "round ended (the winner's: the line won); won when aimed at: of those seats, the "
            "ones that won with it (95% Wilson)",
    "dealt": "dealt complete: rounds whose dealer's hand, as dealt (before any pass or "
             "draw), completes the line (the card: some line), of all rounds; 95% Wilson "
             "score interval; the deal alone, the same under any agent",
    "free_agreement": "Spearman rank correlation of the lines' free-play shares of wins "
                      "under two agents; a flip: a line whose rank moves by more than a "
                      "quarter of the lines while its two intervals (of its share of rounds) "
                      "do not overlap, or a line drift under one agent and not the other "
                      "where both agents' seats aimed at it",
    "agreement": "Spearman rank correlation of the lines' committed rates under two "
                 "agents; a flip: a line whose rank moves by more than a quarter of the "
                 "lines while its two intervals do not overlap, or a line valued under both "
                 "whose flag differs",
}


def report_json(request: Request, result: Result) -> dict[str, Any]:
    tables = []
    for free, r, agents in zip(result.free, result.resumed, result.committed, strict=True):
        f = free[0]
        pairs = [agreement(agents[0], other) for other in agents[1:]]
        tables.append({**f.card_json(), "resumed_rounds": r, "sections": f.sections(),
                       "lines": [row.json() for row in f.rows],
                       "free": [free_json(g) for g in free],
                       "free_agreement": [free_agreement(f, g) for g in free[1:]],
                       "committed": [a.json() for a in agents], "agreement": pairs,
                       "dominated": [list(p) for p in f.exact.dominated],
                       "overlaps": [list(p) for p in f.exact.overlaps],
                       "jokers_only": f.exact.joker_only,
                       "impossible": f.exact.impossible,
                       "structural": f.exact.structural,
                       "unsettled": [list(p) for p in f.exact.unsettled]})
    data = {"card": request.card, "title": result.title, "variant": request.variant,
            "agents": list(request.agents),
            "seed": request.seed, "rounds_asked": request.rounds,
            "committed_per_line": [request.per_line(k) for k in range(len(request.agents))],
            "free_rounds": [request.free_rounds(k) for k in range(len(request.agents))],
            "partial": result.partial,
            "jongg": __version__, "models": MODELS, "tables": tables}
    if result.against is not None:
        from jongg.cardlab.compare import compare

        data["against"] = compare(report_json(replace(request, card=str(request.against),
                                                      against=None), result.against), data)
    return data


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row[c] is None else
                         f"{row[c]:.6g}" if isinstance(row[c], float) else row[c]
                         for c in columns])
    return out.getvalue()


def _ends(row: dict[str, Any], name: str) -> dict[str, Any]:
    ends = row[f"{name}_ci95"] or [None, None]
    return {f"{name}_low": ends[0], f"{name}_high": ends[1]}


def lines_csv(data: dict[str, Any]) -> str:
    return _csv(CSV_COLUMNS, [{**line, "players": table["players"], "agent": free["agent"],
                               **_ends(line, "share_of_rounds"), **_ends(line, "share_of_wins"),
                               **_ends(line, "dealt_rate"),
                               "flags": " ".join(line["flags"])}
                              for table in data["tables"] for free in table["free"]
                              for line in free["lines"]])


def committed_csv(data: dict[str, Any]) -> str:
    return _csv(COMMITTED_COLUMNS, [{**line, "players": table["players"], "agent": a["agent"],
                                     **_ends(line, "rate"), **_ends(line, "fair_value")}
                                    for table in data["tables"] for a in table["committed"]
                                    for line in a["lines"]])


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
    _replace(request.out / "committed.csv", committed_csv(data))
    _replace(request.out / "report.html", report_html(data, result.figures))
