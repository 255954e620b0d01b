"""`jongg card report`: rounds of a card counted per line, on the shipped
sample card and on cards whose answer is known (a dominated line, a line
only jokers make, one shape in three suits); a report stopped and given
again goes on to the same answer; its folder never takes a user's files."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from jongg.cardlab.exact import exact
from jongg.cardlab.html import pct
from jongg.cardlab.report import OUTPUTS
from jongg.cardlab.tally import CardSource, ReportSetup, Tally, encode, play_rounds, table_game
from jongg.runs.scale import gather
from jongg.runtime.hand import Hand
from jongg.runtime.tiles import parse_tiles

from .conftest import TEST_CARDS, interruptible, run_cli

SAMPLE = ReportSetup("mjcg-card", CardSource("sample"), 4, ("greedy",))


def check_adds_up(tally: Tally, rounds: int, players: int) -> None:
    """Every round is won by one line, a wall game or unfinished; every
    seat-round aims at one line at most; every win has its turns."""
    assert tally.rounds == rounds
    assert sum(t.wins for t in tally.lines.values()) + tally.walls + tally.unfinished == rounds
    assert sum(t.aimed for t in tally.lines.values()) == tally.seats <= players * rounds
    for t in tally.lines.values():
        assert sum(t.turns.values()) == t.wins
        assert t.self_drawn <= t.wins and t.exposed <= t.wins and t.with_jokers <= t.wins
        assert t.with_jokers <= t.jokers and t.aimed_walls <= t.aimed


def test_the_sample_cards_tallies_add_up_and_do_not_depend_on_the_workers() -> None:
    alone = gather(lambda seeds: play_rounds(SAMPLE, seeds), range(0, 12), Tally.merge)
    pooled = gather(_sample_rounds, range(0, 12), Tally.merge, jobs=2, size=3)
    assert alone.result is not None and pooled.result is not None
    check_adds_up(alone.result, 12, 4)
    assert encode(alone.result) == encode(pooled.result)
    assert alone.result.walls < 12  # the bots do win rounds
    names = {line.id for line in table_game(SAMPLE).matcher.card.lines}
    assert set(alone.result.lines) <= names


def _sample_rounds(seeds: range) -> Tally:
    return play_rounds(SAMPLE, seeds)


def test_the_sample_card_has_only_joker_made_quints_and_no_dominated_line() -> None:
    """The sample's quint and sextet lines need five or six of a tile, and
    the deck holds four: only jokers make them (MJCG-29)."""
    found = exact(table_game(SAMPLE).matcher)
    assert found.joker_only and all(name.startswith(("quint", "sextet"))
                                     for name in found.joker_only)
    assert found.dominated == []


def test_every_overlap_is_shown_by_a_hand_that_completes_both_lines() -> None:
    """The hand the report shows for an overlapping pair completes each of
    the two lines, as the matcher scores it (and so is a hand of the deck)."""
    matcher = table_game(SAMPLE).matcher
    card = matcher.card
    index = {line.id: i for i, line in enumerate(card.lines)}
    found = exact(matcher)
    assert found.overlaps
    for a, b, shown in found.overlaps:
        held = Hand(tuple(sorted(parse_tiles(card.deck, shown))), ())
        assert held.size == card.hand_size
        complete = {li for li, score, _ in matcher.scores(held)
                    if score == card.lines[li].size}
        assert {index[a], index[b]} <= complete, (a, b, shown)


class Tables(HTMLParser):
    """The cells of every table of a page, by its class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.current: list[list[str]] | None = None
        self.images = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.current = self.tables.setdefault(dict(attrs).get("class") or "", [])
        elif tag == "tr" and self.current is not None:
            self.current.append([])
        elif tag in ("td", "th") and self.current is not None:
            self.current[-1].append("")
        elif tag == "img" and (dict(attrs).get("src") or "").startswith("data:image/png"):
            self.images += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current and self.current[-1]:
            self.current[-1][-1] += data


def report(folder: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((folder / "report.json").read_text())


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of the sample card (6 rounds of free play, a committed round a
    line under each of two agents), written once for the module."""
    from jongg.cli import main

    out = tmp_path_factory.mktemp("sample") / "report"
    assert main(["card", "report", "sample", "--rounds", "6", "--agents", "greedy,expert",
                 "--committed", "1", "--quiet", "-o", str(out)]) == 0
    return out


def check_page(html: str, data: dict) -> None:  # type: ignore[type-arg]
    """The page's tables say what report.json says."""
    lines = data["tables"][0]["lines"]
    page = Tables()
    page.feed(html)
    assert [row[0] for row in page.tables["lines"][1:]] == [ln["line"] for ln in lines]
    assert [row[3] for row in page.tables["lines"][1:]] == [str(ln["wins"]) for ln in lines]
    assert page.tables["card"][1][:2] == ["4", "6"]
    committed = data["tables"][0]["committed"]
    assert [row[0] for row in page.tables["committed"][1:]] == [ln["line"] for ln in lines]
    for k, agent in enumerate(committed):  # each agent's completed/rounds column
        assert [row[3 + 4 * k] for row in page.tables["committed"][1:]] == \
            [f"{c['completed']}/{c['rounds']}" for c in agent["lines"]]
    free = data["tables"][0]["free"]
    assert [g["agent"] for g in free] == data["agents"]
    for k, g in enumerate(free):  # each agent's free-play share of wins, side by side
        assert [row[2 + 4 * k] for row in page.tables["free-agents"][1:]] == \
            [pct(c["share_of_wins"], c["share_of_wins_ci95"]) if c["wins"] else ""
             for c in g["lines"]]
    assert page.images == 4  # committed rates, fair values, balance, turns to complete


def test_a_report_of_the_sample_card_writes_its_three_files_and_they_agree(
        sample: Path) -> None:
    data = report(sample)
    table = data["tables"][0]
    lines = table["lines"]
    assert table["rounds"] == 6 and not data["partial"]
    assert sum(ln["wins"] for ln in lines) + table["walls"] + table["unfinished"] == 6
    assert sum(s["wins"] for s in table["sections"]) == table["wins"]
    never = [ln for ln in lines if not ln["wins"]]
    assert all(ln["never_won_bound95"] == pytest.approx(1 - 0.05 ** (1 / 6)) for ln in never)
    assert all("never-won" in ln["flags"] for ln in never)
    assert all(ln[k] is None for ln in never for k in ("with_jokers_share", "mean_jokers",
                                                       "exposed_share", "self_drawn_share"))
    committed = table["committed"]
    assert [a["agent"] for a in committed] == ["greedy", "expert"]
    assert [a["committed"] for a in committed] == [False, True]  # greedy takes no line
    assert all(c["rounds"] == 1 for a in committed for c in a["lines"])
    assert len(table["agreement"]) == 1
    rows = (sample / "lines.csv").read_text().splitlines()
    assert len(rows) == 1 + 2 * len(lines) and rows[0].startswith("players,agent,line,")
    assert [r.split(",")[2] for r in rows[1:]] == [ln["line"] for ln in lines] * 2
    assert [r.split(",")[1] for r in rows[1::len(lines)]] == ["greedy", "expert"]
    check_page((sample / "report.html").read_text(), data)
    committed_rows = (sample / "committed.csv").read_text().splitlines()
    assert len(committed_rows) == 1 + 2 * len(lines)


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                    reason="/usr/bin/chromium is missing (Debian's 'chromium' package)")
def test_the_report_page_reads_the_same_in_a_browser(sample: Path, tmp_path: Path) -> None:
    """Headless Chromium loads the page (nothing fetched) and its DOM holds
    the same tables and the three plots."""
    shown = subprocess.run(
        ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         (sample / "report.html").as_uri()],
        check=True, capture_output=True, text=True, timeout=120)
    check_page(shown.stdout, report(sample))


def test_a_dominated_line_is_never_won_and_a_quint_line_needs_jokers(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """'shadowed' (bams only, 25) is every hand of 'shadowing' (any suit, 50)
    in bams: exactly, no hand declares it, and 20 rounds agree."""
    out = tmp_path / "shadow"
    status, _, _ = run_cli(capsys, "card", "report", str(TEST_CARDS / "report-shadow.yaml"),
                           "--rounds", "20", "--agents", "greedy", "--committed", "0",
                           "--quiet", "-o", str(out))
    assert status == 0
    table = report(out)["tables"][0]
    assert table["dominated"] == [["shadowed", "shadowing"]]
    assert table["jokers_only"] == ["quints"]
    by_line = {ln["line"]: ln for ln in table["lines"]}
    assert by_line["shadowed"]["wins"] == 0
    assert {"never-won", "dominated"} <= set(by_line["shadowed"]["flags"])
    assert by_line["shadowing"]["wins"] > 0  # the rounds did reach that hand


def _agree(a: dict, b: dict, rounds: int, z: float) -> bool:  # type: ignore[type-arg]
    """Two lines' shares of the same rounds are within z standard errors."""
    pa, pb = a["wins"] / rounds, b["wins"] / rounds
    pooled = (a["wins"] + b["wins"]) / (2 * rounds)
    spread = math.sqrt(max(pooled * (1 - pooled), 1 / rounds) * 2 / rounds)
    return abs(pa - pb) <= z * spread


@pytest.mark.parametrize("rounds", [pytest.param(24, id="24"),
                                    pytest.param(400, id="400", marks=pytest.mark.slow)])
def test_one_shape_in_three_suits_wins_alike(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path, rounds: int) -> None:
    """The suits are alike to the deck and the bots: the lines' shares agree
    within 3.29 standard errors of their difference (a 99.9% test)."""
    out = tmp_path / "suits"
    status, _, _ = run_cli(capsys, "card", "report", str(TEST_CARDS / "report-suits.yaml"),
                           "--rounds", str(rounds), "--agents", "greedy", "--committed", "0",
                           "--jobs", "2", "--quiet", "-o", str(out))
    assert status == 0
    table = report(out)["tables"][0]
    lines = table["lines"]
    assert table["wins"] > 0
    for a in lines:
        for b in lines:
            assert _agree(a, b, rounds, 3.29), (a["line"], a["wins"], b["line"], b["wins"])


STOPPED_ROUNDS = 30  # enough that a report is still playing when it is killed


def _report(out: Path, *more: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "jongg", "card", "report", "sample",
                             "--rounds", str(STOPPED_ROUNDS), "--agents", "greedy",
                             "--committed", "0", "--quiet", "-o", str(out), *more],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=interruptible)


def _chunks_written(run: subprocess.Popen[str], out: Path, count: int) -> Path:
    """The journal of a running report, once it holds `count` chunks."""
    journal = out / "rounds-4p.jsonl"
    deadline = time.monotonic() + 600
    while not (journal.exists() and len(journal.read_text().splitlines()) > count):
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)
    return journal


@pytest.mark.slow  # the default suite resumes committed rounds: test_card_committed.py
def test_a_report_stopped_and_given_again_goes_on_to_the_same_answer(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    assert _report(whole).wait(timeout=600) == 0
    stopped = tmp_path / "stopped"
    run = _report(stopped)
    journal = _chunks_written(run, stopped, 3)
    run.send_signal(signal.SIGKILL)  # no chance to tidy up: only the journal is left
    run.wait()
    kept = len(journal.read_text().splitlines()) - 1
    assert 3 <= kept < STOPPED_ROUNDS
    again = _report(stopped)
    out, _ = again.communicate(timeout=600)
    assert again.returncode == 0
    assert f"({kept} of them from an earlier run)" in out
    assert tables(stopped) == tables(whole)


def test_ctrl_c_writes_a_report_of_the_rounds_finished_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "stopped"
    run = _report(out)
    journal = _chunks_written(run, out, 2)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=600)
    assert run.returncode == 130
    assert f"interrupted: the report covers the rounds above of {STOPPED_ROUNDS} asked" in err
    data = report(out)
    assert data["partial"] and 2 <= data["tables"][0]["rounds"] < STOPPED_ROUNDS
    assert data["tables"][0]["rounds"] == len(journal.read_text().splitlines()) - 1
    assert "Partial: the run was stopped" in (out / "report.html").read_text()


def test_each_player_count_asked_has_its_table(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    out = tmp_path / "counts"
    status, printed, _ = run_cli(capsys, "card", "report", "sample", "--players", "3,4",
                                 "--rounds", "3", "--agents", "greedy", "--committed", "0",
                                 "--quiet", "-o", str(out))
    assert status == 0 and "3 players: 3 rounds" in printed and "4 players: 3 rounds" in printed
    data = report(out)
    assert [t["players"] for t in data["tables"]] == [3, 4]
    for t in data["tables"]:
        assert sum(ln["wins"] for ln in t["lines"]) + t["walls"] + t["unfinished"] == 3
    rows = (out / "lines.csv").read_text().splitlines()[1:]
    assert len(rows) == sum(len(t["lines"]) for t in data["tables"])
    assert {r.split(",")[0] for r in rows} == {"3", "4"}
    assert sorted(p.name for p in out.glob("rounds-*.jsonl")) == ["rounds-3p.jsonl",
                                                                  "rounds-4p.jsonl"]


def tables(folder: Path) -> list[dict]:  # type: ignore[type-arg]
    """A report's tables, less how many of their rounds were read back."""
    return [{k: v for k, v in t.items() if k != "resumed_rounds"}
            for t in report(folder)["tables"]]


def test_a_folder_of_the_users_files_is_refused(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    (tmp_path / "report.html").write_text("mine")
    status, _, err = run_cli(capsys, "card", "report", "sample", "--rounds", "1", "-o",
                             str(tmp_path))
    assert status == 1 and "holds report.html, not written by a card report" in err
    assert (tmp_path / "report.html").read_text() == "mine"
    a_file = tmp_path / "report.html"
    status, _, err = run_cli(capsys, "card", "report", "sample", "--rounds", "1", "-o",
                             str(a_file))
    assert status == 1 and "is a file; give a folder" in err


def test_without_a_folder_the_report_goes_to_the_cards_name_and_report_here(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`jongg card report sample`, as the simulate summary suggests it, needs
    no -o: the report goes to ./sample-report (a card file's stem for a path),
    and the same command again continues it."""
    monkeypatch.chdir(tmp_path)
    shadow = str(TEST_CARDS / "report-shadow.yaml")
    quick = ("--agents", "greedy", "--committed", "0")
    status, printed, _ = run_cli(capsys, "card", "report", shadow, "--rounds", "2", *quick,
                                 "--quiet")
    assert status == 0
    assert "report: report-shadow-report/report.html" in printed
    assert report(tmp_path / "report-shadow-report")["tables"][0]["rounds"] == 2
    status, printed, _ = run_cli(capsys, "card", "report", shadow, "--rounds", "2", *quick,
                                 "--quiet")
    assert status == 0 and "(2 of them from an earlier run)" in printed


@pytest.mark.parametrize(("args", "says"), [
    (["--players", "4,x"], "--players: 'x' is not a count"),
    (["--rounds", "0"], "--rounds: give at least 1"),
    (["--committed", "40,x"], "--committed: 'x' is not a count"),
    (["--against", "nosuchcard"], "nosuchcard"),
    (["--variant", "siamese"], "a committed line is played on one"),
    (["--agents", "clever"], "unknown agent 'clever'"),
    (["--variant", "nymj", "--players", "9"], "not 9"),
    (["--variant", "nymj"], "rulesets/cards/sample.yaml:18:12: error: line 'year-1': 'F' in "
                            "'FFF': nymj-75 has no such tile"),
])
def test_bad_arguments_are_refused_before_any_round(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, args: list[str],
                                                    says: str) -> None:
    status, _, err = run_cli(capsys, "card", "report", "sample", *args, "-o",
                             str(tmp_path / "r"))
    assert status == 1 and says in err
    assert not any((tmp_path / "r" / name).exists() for name in OUTPUTS)


def test_a_worker_without_the_card_file_plays_a_copy_of_its_text(tmp_path: Path) -> None:
    """A card given by path travels as its text: a machine where the path is
    missing (or holds another file) plays a copy kept in its cache."""
    text = (TEST_CARDS / "report-shadow.yaml").read_text()
    here = CardSource(str(TEST_CARDS / "report-shadow.yaml"), text)
    assert here.local() == here.name  # the file is there, and is the same
    elsewhere = CardSource(str(tmp_path / "gone" / "mine.yaml"), text)
    copy = Path(elsewhere.local())
    assert copy.read_text() == text and copy.name.endswith("-mine.yaml")
    changed = tmp_path / "mine.yaml"
    changed.write_text(text.replace("value: 25", "value: 30"))
    assert Path(CardSource(str(changed), text).local()).read_text() == text
    game = table_game(ReportSetup("mjcg-card", elsewhere, 4, ("greedy",)))
    assert [line.id for line in game.matcher.card.lines] == ["shadowed", "shadowing",
                                                             "quints", "pairs"]
