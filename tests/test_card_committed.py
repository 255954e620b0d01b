"""The card report's committed rounds, on a card whose answers are known
(tests/cards/report-truth.yaml): lines alike up to a permutation of suits
are alike; a line whose hands are a part of another's is at least as hard;
a line no deal can complete is refused, never called hard; an agent that cannot
win concludes nothing; the fair value comes from difficulty alone; and the
rounds are exact however they are played, resumed or extended."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from jongg.cardlab.committed import (
    CommitSetup,
    CommitTally,
    assignment,
    committed_agent,
    line_ids,
)
from jongg.cardlab.difficulty import (
    FEW,
    Measure,
    agreement,
    committed_figures,
    rank_agreement,
    ranks,
    spearman,
)
from jongg.cardlab.exact import Exact
from jongg.cardlab.html import pct, share
from jongg.cardlab.tally import CardSource, ReportSetup, table_game
from jongg.runs.intervals import wilson
from jongg.runtime.card import Card

from .conftest import TEST_CARDS, run_cli

TRUTH = TEST_CARDS / "report-truth.yaml"
IMPOSSIBLE = TEST_CARDS / "report-impossible.yaml"
TWINS = ("bams", "craks", "dots")


def _report(capsys: pytest.CaptureFixture[str], out: Path, *args: str,
            card: Path = TRUTH) -> dict:  # type: ignore[type-arg]
    status, _, err = run_cli(capsys, "card", "report", str(card), "--quiet", "-o", str(out),
                             *args)
    assert status == 0, err
    return json.loads((out / "report.json").read_text())  # type: ignore[no-any-return]


def _lines(data: dict, agent: int = 0) -> dict[str, dict]:  # type: ignore[type-arg]
    return {c["line"]: c for c in data["tables"][0]["committed"][agent]["lines"]}


def _within(x: float, ci: list[float]) -> bool:
    return ci[0] <= x <= ci[1]


@pytest.mark.parametrize("per_line", [pytest.param(16, id="16"),
                                      pytest.param(150, id="150", marks=pytest.mark.slow)])
def test_suit_twins_agree_and_a_narrower_line_is_no_easier(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, per_line: int) -> None:
    """bams, craks and dots are one line up to a permutation of suits: each
    one's committed rate lies in the others' 95% intervals. any-suit's hands
    hold every one of theirs, so none of them is easier than it: its rate is
    never above any-suit's interval, nor any-suit's below its."""
    data = _report(capsys, tmp_path / "r", "--rounds", "2", "--agents", "expert",
                   "--committed", str(per_line))
    lines = _lines(data)
    assert all(lines[t]["rounds"] == per_line for t in TWINS)
    assert sum(lines[t]["completed"] for t in TWINS) > 0  # the seats do complete them
    for a in TWINS:
        for b in TWINS:
            assert _within(lines[a]["rate"], lines[b]["rate_ci95"]), (a, b)
        wider = lines["any-suit"]
        assert lines[a]["rate"] <= wider["rate_ci95"][1], a
        assert wider["rate"] >= lines[a]["rate_ci95"][0], a


def test_a_line_no_deal_can_complete_is_refused_not_reported_hard(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """norths needs three pungs and a pair of North: five naturals at least
    (a pair takes no joker; with all_joker_groups false a pung keeps one
    natural) where the deck holds four. The compiler refuses such a line, as
    it refuses any line no deal can build, at its place in the file: `card
    check` and `card report` both exit 1 and no round is played. The same
    line with all_joker_groups true can be made (jokers-only, a warning)."""
    status, out, err = run_cli(capsys, "card", "check", str(IMPOSSIBLE))
    assert status == 1
    assert (f"{IMPOSSIBLE}:18:12: error: line 'norths' cannot be built from american-152: "
            "needs 5 N where no joker may go or a group keeps one natural, but american-152 "
            "holds 4 (all_joker_groups: true would let a group be jokers alone)") in out + err
    status, _, err = run_cli(capsys, "card", "report", str(IMPOSSIBLE), "--quiet", "-o",
                             str(tmp_path / "r"), "--rounds", "2", "--agents", "expert",
                             "--committed", "1")
    assert status == 1 and "line 'norths' cannot be built" in err
    assert "Traceback" not in err and not (tmp_path / "r").exists()
    allowed = tmp_path / "allowed.yaml"
    allowed.write_text(IMPOSSIBLE.read_text().replace("all_joker_groups: false",
                                                      "all_joker_groups: true"))
    status, out, err = run_cli(capsys, "card", "check", str(allowed))
    assert status == 0 and "line 'norths': every one of its 3 variations can be made only " \
        "with jokers" in out + err


def test_the_report_still_calls_a_line_impossible_that_the_exact_flags_do() -> None:
    """Were a line no hand of the deck completes ever played (the compiler
    refuses them), the committed figures call it impossible, with no fair
    value and no part in the level."""
    card = _truth_card()
    found = committed_figures(card, "expert", _tallies({"any-suit": (200, 400),
                                                        "dots": (50, 400)}),
                              Exact(impossible=["dots"]))
    rows = {r.id: r for r in found.rows}
    assert rows["dots"].status == rows["dots"].flag == "impossible"
    assert rows["dots"].fair is None and rows["any-suit"].fair == pytest.approx(25)


def test_an_agent_that_cannot_win_yields_too_few_rounds_never_a_value(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = _report(capsys, tmp_path / "r", "--rounds", "2", "--agents", "random",
                   "--committed", "3")
    agent = data["tables"][0]["committed"][0]
    assert agent["factor"] is None and agent["mispriced"] == []
    for line in agent["lines"]:
        assert line["fair_value"] is None and line["fair_value_ci95"] is None
        assert line["status"] == FEW
    page = (tmp_path / "r" / "report.html").read_text()
    assert page.count(FEW) >= 4 and "0 of 4 lines valued" in page


def _truth_card() -> Card:
    return table_game(ReportSetup("mjcg-card", CardSource(str(TRUTH), TRUTH.read_text()), 4,
                                  ("expert",))).matcher.card


def _tallies(counts: dict[str, tuple[int, int]]) -> dict[str, CommitTally]:
    return {line: CommitTally(rounds=n, completed=k, turns=Counter({20: k}))
            for line, (k, n) in counts.items()}


def test_the_fair_value_follows_difficulty_alone_and_keeps_the_cards_level() -> None:
    """Fair value = k * -ln(rate), k setting the valued lines' mean to their
    mean printed value: any-suit, completed half the time, and dots, an
    eighth, are worth 1 : 3 whatever the card prints; any-suit, printed 25,
    is valued below its print only as far as the rates say; a line seen
    complete fewer than five times has no value."""
    card = _truth_card()
    found = committed_figures(card, "expert", _tallies(
        {"any-suit": (200, 400), "bams": (100, 400), "craks": (4, 400), "dots": (50, 400)}),
        Exact())
    rows = {r.id: r for r in found.rows}
    assert rows["craks"].status == FEW and rows["craks"].fair is None
    valued = [rows[x] for x in ("any-suit", "bams", "dots")]
    assert sum(r.fair or 0 for r in valued) / 3 == pytest.approx((25 + 50 + 50) / 3)
    assert (rows["dots"].fair or 0) / (rows["any-suit"].fair or 1) == pytest.approx(3)
    assert (rows["bams"].fair or 0) / (rows["any-suit"].fair or 1) == pytest.approx(2)
    low, high = rows["any-suit"].fair_ci or (0, 0)
    assert low < (rows["any-suit"].fair or 0) < high
    # the level is 125/3, so the fair values are 20.8, 41.7 and 62.5: dots (50) lies
    # below its interval, bams (50) and any-suit (25) above theirs
    assert [r.id for r in found.mispriced()] == ["dots", "bams", "any-suit"]
    assert rows["dots"].flag == "underpriced" and rows["any-suit"].flag == "overpriced"
    assert (rows["dots"].priced or 0) < 0 < (rows["bams"].priced or 0)
    # the printed values set the level only: doubling one changes no ratio
    doubled = replace(card, lines=tuple(replace(line, value=100) if line.id == "bams" else line
                                        for line in card.lines))
    again = committed_figures(doubled, "expert", _tallies(
        {"any-suit": (200, 400), "bams": (100, 400), "dots": (50, 400)}),
        Exact())
    fair = {r.id: r.fair for r in again.rows}
    assert (fair["dots"] or 0) / (fair["any-suit"] or 1) == pytest.approx(3)
    assert (fair["dots"] or 0) > (rows["dots"].fair or 0)  # a higher level


def test_rank_correlation_and_flips() -> None:
    assert ranks([0.3, 0.1, 0.2, 0.1]) == [4.0, 1.5, 3.0, 1.5]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1)
    assert spearman([1, 1, 1], [1, 2, 3]) is None
    card = _truth_card()
    rates = {"any-suit": (200, 400), "bams": (100, 400), "craks": (60, 400), "dots": (20, 400)}
    a = committed_figures(card, "expert", _tallies(rates), Exact())
    b = committed_figures(card, "search", _tallies({**rates, "any-suit": (10, 400),
                                                    "dots": (210, 400)}),
                          Exact())
    same = agreement(a, a)
    assert same["spearman"] == pytest.approx(1) and not same["warn"] and same["flips"] == []
    moved = agreement(a, b)
    assert moved["warn"] and moved["spearman"] < 0.8
    assert {f["line"] for f in moved["flips"] if f["rank_moved"]} == {"any-suit", "dots"}


def test_shares_print_to_the_precision_of_their_interval() -> None:
    """A share wide open prints whole percents, a narrow one a decimal or
    two; nothing observed prints blank."""
    assert pct(0.175, wilson(7, 40)) == "18% (9-32)"
    assert pct(0.02, wilson(200, 10_000)) == "2.0% (1.7-2.3)"
    assert pct(0.0004, wilson(40, 100_000)) == "0.04% (0.03-0.05)"
    assert pct(None) == "" and share(None, 0) == ""


def test_committed_rounds_rotate_lines_and_seats() -> None:
    table = ReportSetup("mjcg-card", CardSource(str(TRUTH), TRUTH.read_text()), 4, ("expert",))
    setup = CommitSetup(table, "expert", 100)
    lines = line_ids(table)
    seen = [assignment(setup, seed) for seed in range(100, 100 + 4 * len(lines))]
    assert Counter(line for line, _ in seen) == {line: 4 for line in lines}
    assert {seat for line, seat in seen if line == "bams"} == {0, 1, 2, 3}
    assert committed_agent("search:rollouts=4", "bams") == "search:rollouts=4:line=bams"
    assert committed_agent("greedy", "bams") == "greedy"  # takes no line: plays as itself


def test_committed_rounds_are_the_same_on_any_workers_and_when_extended(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    quick = ("--rounds", "2", "--agents", "greedy,expert")
    _report(capsys, tmp_path / "one", *quick, "--committed", "0,2")
    _report(capsys, tmp_path / "two", *quick, "--committed", "0,2", "--jobs", "2")
    _report(capsys, tmp_path / "grown", *quick, "--committed", "0,1")
    _report(capsys, tmp_path / "grown", *quick, "--committed", "0,2")
    made = [(tmp_path / name / "committed.csv").read_text() for name in ("one", "two", "grown")]
    assert made[0] == made[1] == made[2]
    assert len(made[0].splitlines()) == 1 + 4


def test_a_draft_against_last_years_card(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    """--against plays the other card on the same seeds and matches its
    lines by id, else by hand: any-suit renamed 'loose' is the same line;
    it compares under each agent."""
    last = tmp_path / "last.yaml"
    last.write_text(TRUTH.read_text().replace("id: any-suit", "id: loose")
                    .replace("value: 25", "value: 20"))
    data = _report(capsys, tmp_path / "r", "--rounds", "2", "--agents", "greedy,expert",
                   "--committed", "1", "--against", str(last))
    lines = {(ln["new"], ln["old"]): ln for ln in data["against"]["tables"][0]["lines"]}
    assert set(lines) == {("any-suit", "loose"), ("bams", "bams"), ("craks", "craks"),
                          ("dots", "dots")}
    assert (lines["any-suit", "loose"]["value_old"], lines["any-suit", "loose"]["value_new"]) \
        == (20, 25)
    other = json.loads((tmp_path / "r" / "against" / "report.json").read_text())
    assert other["tables"][0]["rounds"] == data["tables"][0]["rounds"] == 2
    page = (tmp_path / "r" / "report.html").read_text()
    assert "Against lines whose difficulties are known" in page
    # under each agent: its committed lines and its free-play sections
    moved = data["against"]["tables"][0]
    assert [a["agent"] for a in moved["committed"]] == ["greedy", "expert"]
    assert [a["agent"] for a in moved["free"]] == ["greedy", "expert"]
    assert all(len(a["lines"]) == 4 for a in moved["committed"])
    for agent in ("greedy", "expert"):
        assert f"lines, committed under {agent}" in page
        assert f"sections, free play under {agent}" in page


def test_free_play_is_reported_under_every_agent_with_their_agreement(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Free play runs under each agent of --agents (every seat that agent,
    the same seeds): the second agent's figures are those a report of that
    agent alone gives, the rank correlation of the shares of wins and the
    flips are reported as the committed ones are, and --against compares
    under each agent."""
    data = _report(capsys, tmp_path / "two", "--rounds", "12,8", "--agents", "greedy,expert",
                   "--committed", "0,1")
    alone = _report(capsys, tmp_path / "alone", "--rounds", "8", "--agents", "expert",
                    "--committed", "0")
    table = data["tables"][0]
    assert data["free_rounds"] == [12, 8]
    assert [(g["agent"], g["rounds"]) for g in table["free"]] == [("greedy", 12), ("expert", 8)]
    assert table["free"][0]["lines"] == table["lines"]  # the first agent's, as before
    assert table["free"][1]["lines"] == alone["tables"][0]["lines"]
    assert table["free"][1]["sections"] == alone["tables"][0]["sections"]
    [pair] = table["free_agreement"]
    assert pair["agents"] == ["greedy", "expert"] and pair["lines"] == 4
    assert "spearman" in pair and isinstance(pair["flips"], list)
    page = (tmp_path / "two" / "report.html").read_text()
    assert "Free play under each agent" in page
    assert "Robust to the agent? (free-play shares of wins)" in page
    assert "greedy and expert: rank correlation of the free-play shares of wins" in page
    assert "Spearman rank correlation of the lines&#x27; free-play shares of wins" in page
    rows = (tmp_path / "two" / "lines.csv").read_text().splitlines()[1:]
    assert [r.split(",")[1] for r in rows] == ["greedy"] * 4 + ["expert"] * 4
    assert (tmp_path / "two" / "rounds-expert-4p.jsonl").exists()


def test_free_play_flips_are_warned_as_committed_ones_are() -> None:
    """Two agents' shares of wins ranked: a line whose rank moves far with
    intervals apart, or whose drift flag differs, flips; the card is warned
    when the correlation is low."""
    def m(line: str, rate: float, flag: str = "") -> Measure:
        return Measure(line, rate, (rate - 0.02, rate + 0.02), flag, True)

    a = [m("w", 0.1), m("x", 0.2), m("y", 0.3), m("z", 0.4, "drift")]
    same = rank_agreement(("greedy", "expert"), a, a)
    assert same["spearman"] == pytest.approx(1) and same["flips"] == [] and not same["warn"]
    b = [m("w", 0.4), m("x", 0.2), m("y", 0.3), m("z", 0.1)]
    moved = rank_agreement(("greedy", "expert"), a, b)
    assert moved["warn"]
    assert {f["line"]: f["rank_moved"] for f in moved["flips"]} == {"w": True, "z": True}
    assert [f["flags"] for f in moved["flips"] if f["line"] == "z"] == [["drift", ""]]
