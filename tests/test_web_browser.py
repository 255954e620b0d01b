"""The web table in a real browser (headless Chromium, selenium): a table
opened from the lobby with a user's card, a reconnect and a server restart
mid-round, and a replay, in the default suite; a full
round of mjcg with its Charleston played by clicking, a nymj round, and a
Siamese Mah Jongg declared on a rack under @slow. Screenshots are kept as
artifacts (tests/conftest.py: $JONGG_TEST_ARTIFACTS); the README's picture
is the slow mjcg test's mjcg-play.png."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from jongg.compiler.game import load_game
from jongg.runtime.agents.bots import GreedyAgent
from jongg.runtime.game.actions import parse_action
from jongg.runtime.game.log import read_log
from jongg.runtime.game.state import State

from .browser import (
    browser,
    click_action,
    needs_browser,
    open_table,
    play_by_clicking,
    seat_url,
    server,
    wait,
)
from .test_web import CARD

pytestmark = needs_browser  # selenium comes with the test extras; Chromium from Debian


def test_a_browser_keeps_its_seat_across_a_reload_and_a_server_restart(tmp_path: Path,
                                                                       artifacts: Path) -> None:
    from selenium.webdriver.common.by import By

    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        made = open_table(running, "mjcg", ["human", "greedy"], seed=11)
        url = seat_url(running, made)
        driver.get(url)
        now = wait(driver, lambda s: s["deciding"], "the first pass")
        assert now["step"] == "passing"
        tile = now["legal"][0]
        click_action(driver, tile)  # one tile of the first pass chosen, by clicking
        chosen = wait(driver, lambda s: s["passing"], "the tile to be passing")
        driver.get(url)  # a reload: a new socket, the same seat
        again = wait(driver, lambda s: s["deciding"], "the seat again")
        assert (again["hand"], again["passing"]) == (chosen["hand"], chosen["passing"])
        driver.save_screenshot(str(artifacts / "reloaded.png"))
        port = running.port
    with server(tmp_path / "data", port) as running, browser(tmp_path / "profile2") as driver:
        driver.get(url)  # the same link, after the server restarted on its folder
        back = wait(driver, lambda s: s["deciding"], "the seat after the restart")
        assert (back["hand"], back["passing"]) == (chosen["hand"], chosen["passing"])
        assert "2 more" in driver.find_element(By.ID, "prompt").text  # the pass half chosen
        driver.save_screenshot(str(artifacts / "restarted.png"))


def test_the_lobby_opens_a_table_with_a_users_card_and_a_link_a_person(
        tmp_path: Path, artifacts: Path) -> None:
    """By clicking: a card uploaded, mjcg chosen with it for four players,
    two people and two bots; each person's link opens that person's seat."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    card = tmp_path / "mine.yaml"
    card.write_text(CARD)
    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        driver.get(running.url)
        _until(lambda: bool(driver.find_elements(By.CSS_SELECTOR, "#variant option")))
        _until(lambda: "None yet" in driver.find_element(By.ID, "table-list").text)
        Select(driver.find_element(By.ID, "variant")).select_by_value("mjcg")
        Select(driver.find_element(By.ID, "players")).select_by_value("4")
        Select(driver.find_element(By.ID, "seat-3")).select_by_value("human")
        # an upload reloads the lists: what was chosen before it stays chosen
        driver.find_element(By.ID, "ruleset-file").send_keys(str(card))
        _until(lambda: "mine.yaml: ok (card)" in driver.find_element(By.ID, "ruleset-result").text)
        assert Select(driver.find_element(By.ID, "seat-3")).first_selected_option \
            .get_attribute("value") == "human"
        assert Select(driver.find_element(By.ID, "card")).first_selected_option \
            .get_attribute("value") == "mine.yaml"
        Select(driver.find_element(By.ID, "seat-4")).select_by_value("random")
        driver.find_element(By.ID, "timer-claim").send_keys("20")  # two people: timed
        driver.find_element(By.ID, "timer-turn").send_keys("90")
        driver.find_element(By.ID, "timer-phase").send_keys("120")
        driver.find_element(By.ID, "open-table").click()
        _until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "a.seat-link")) == 2)
        links = {a.get_attribute("data-seat"): a.get_attribute("href")
                 for a in driver.find_elements(By.CSS_SELECTOR, "a.seat-link")}
        assert set(links) == {"0", "2"}
        table = links["0"].split("/table/")[1].split("#")[0]
        _until(lambda: table in driver.find_element(By.ID, "table-list").text)
        assert "None yet" not in driver.find_element(By.ID, "table-list").text
        driver.save_screenshot(str(artifacts / "lobby.png"))
        driver.get(links["2"])
        wait(driver, lambda s: s["step"] is not None, "the seat's table")
        head = driver.find_element(By.ID, "head").text
        assert "you are West" in head, head
        assert driver.find_element(By.ID, "card-name").text == "mine"
        tables = running.api("/api/tables")["tables"]
        assert [t["agents"] for t in tables] == [["human", "greedy", "human", "random"]]
        assert [t["timers"] for t in tables] == [{"claim": 20.0, "turn": 90.0, "phase": 120.0}]


def test_a_finished_game_replays_step_by_step(tmp_path: Path, artifacts: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        made = open_table(running, "nymj", ["greedy"], seed=4, players=3)
        for _ in range(600):  # the bots play it to its end
            if any(t["id"] == made["id"] and t["finished"]
                   for t in running.api("/api/tables")["tables"]):
                break
            time.sleep(0.1)
        driver.get(running.url.rstrip("/") + f"/replay/{made['id']}")
        where = driver.find_element(By.ID, "where")
        _until(lambda: where.text.startswith("decision 0 of"))
        # five clicks faster than the server answers: every one counts
        driver.execute_script(
            "for (let i = 0; i < 5; i++) document.getElementById('forward').click();")
        _until(lambda: where.text.startswith("decision 5 of"))
        driver.find_element(By.ID, "back").click()
        _until(lambda: where.text.startswith("decision 4 of"))
        seats = driver.find_elements(By.CSS_SELECTOR, "#seats .seat svg.tile.open")
        assert seats, "all hands open: every seat's tiles shown"
        Select(driver.find_element(By.ID, "view")).select_by_value("2")
        _until(lambda: "Seat 2's hand" in driver.find_element(By.ID, "hand").text)
        assert not driver.find_elements(By.CSS_SELECTOR, "#seats svg.tile.open")
        driver.find_element(By.ID, "last").click()
        _until(lambda: where.text.split()[1] == where.text.split()[3])
        assert "match is over" in driver.find_element(By.ID, "story").text
        # the last round's winning hand, in the groups of its line
        final = running.api(f"/api/replays/{made['id']}?view=all&step={10**6}")
        won = [e for e in final["events"] if e["kind"] == "round_ended"][-1]
        assert won["winner"] is not None and won["filled"], "seed 4: the last round is won"
        groups = driver.find_elements(By.CSS_SELECTOR, "#story .winning-hand .filled .group")
        assert [len(g.find_elements(By.CSS_SELECTOR, "svg.tile")) for g in groups] == \
            [len(g) for g in won["filled"]]
        driver.save_screenshot(str(artifacts / "replay.png"))


def _until(ready: Any, seconds: float = 90) -> None:
    """Wait for what a page should show; generous, since a loaded machine
    can keep a headless browser waiting for a core; it returns as soon as
    the page shows it."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if ready():
                return
        except (StaleElementReferenceException, NoSuchElementException):
            pass  # the page was redrawing what the test reads: read it again
        time.sleep(0.05)
    raise AssertionError("the page never showed it")


@pytest.mark.slow
@pytest.mark.clause("MJCG-04")
def test_a_round_of_mjcg_with_its_charleston_played_by_clicking(tmp_path: Path,
                                                                artifacts: Path) -> None:
    rng = random.Random(3)
    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        made = open_table(running, "mjcg", ["human", "greedy"], seed=21)
        driver.get(seat_url(running, made))
        played = play_by_clicking(driver, rng, rounds=1, shot=(24, artifacts / "mjcg-play.png"),
                                  frozen=artifacts / "mjcg-round-end.png")
        assert sum(a.startswith("pass ") for a in played) >= 6  # two passes of the Charleston
        assert any(a.startswith(("vote", "offer", "blind")) for a in played)
        assert any(a.startswith("discard") for a in played)
        wait(driver, lambda s: s["rounds"] >= 1, "the round's end")
        assert (artifacts / "mjcg-round-end.png").exists(), "the round's end was frozen"
        # "next round" clicked: the server lets the next round be played
        wait(driver, lambda s: not s["frozen"] and s["deciding"], "the next round")
        driver.save_screenshot(str(artifacts / "mjcg.png"))
    log = read_log(tmp_path / "data" / "tables" / f"{made['id']}.jsonl")
    assert any(r.data.get("event") == "round" for r in log.records)


@pytest.mark.slow
def test_a_round_of_nymj_played_by_clicking(tmp_path: Path, artifacts: Path) -> None:
    rng = random.Random(5)
    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        made = open_table(running, "nymj", ["human", "greedy"], seed=8)
        driver.get(seat_url(running, made))
        play_by_clicking(driver, rng, rounds=1)
        driver.save_screenshot(str(artifacts / "nymj.png"))


@pytest.mark.slow
@pytest.mark.clause("SMJ-12")
def test_a_siamese_mahjong_declared_on_a_rack_by_clicking(tmp_path: Path, artifacts: Path) -> None:
    """The seat is played as the greedy agent would play it, on a copy of
    the game kept from the table's log; its first Mah Jongg is declared on
    its rack by clicking, and the page shows it on that rack."""
    from selenium.webdriver.common.by import By

    seed = 7
    game = load_game("siamese", 2)
    mirror = game.new_match(seed)
    me = GreedyAgent(seed, 0)
    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        made = open_table(running, "siamese", ["human", "greedy"], seed=seed)
        log = tmp_path / "data" / "tables" / f"{made['id']}.jsonl"
        driver.get(seat_url(running, made))
        applied = 0

        def choose(now: dict[str, Any]) -> str:
            nonlocal applied
            applied = catch_up(mirror, log, applied)
            legal = mirror.legal_actions(0)
            assert sorted(a.text(game.spec.deck) for a in legal) == sorted(now["legal"])
            return me.act(mirror.observe(0), legal).text(game.spec.deck)

        for _ in range(400):
            now = wait(driver, lambda s: s["deciding"] or s["over"] or s["rounds"],
                       "the seat to decide")
            assert not now["rounds"], "the round ended before a Mah Jongg of seat 1"
            action = choose(now)
            click_action(driver, action)
            if action.startswith("declare"):
                rack = int(action.split()[1]) if len(action.split()) > 1 else 1
                wait(driver, lambda s, b=now["decisions"]: s["decisions"] > b, "the declaration")
                shown = driver.find_elements(
                    By.CSS_SELECTOR, "#seats .seat.me .rack .won")
                assert shown, "the Mah Jongg is shown on its rack"
                racks = driver.find_elements(By.CSS_SELECTOR, "#seats .seat.me .rack")
                assert "Mah Jongg" in racks[rack - 1].text
                told = [line for line in driver.find_elements(By.CSS_SELECTOR, "#story .said")
                        if "declare" in line.text and line.find_elements(By.CSS_SELECTOR,
                                                                         "svg.tile")]
                assert told, "the declaration told with the tiles of its line"
                driver.save_screenshot(str(artifacts / "siamese.png"))
                return
            wait(driver, lambda s, b=now["decisions"]: s["decisions"] > b or s["rounds"],
                 "the table to take it")
        raise AssertionError("no Mah Jongg declared in 400 decisions")


def catch_up(state: State, log: Path, applied: int) -> int:
    """Apply the log's actions not yet applied to the copy of the game."""
    records = [r.data for r in read_log(log).records if "action" in r.data]
    for data in records[applied:]:
        state.apply(int(data["seat"]), parse_action(state.spec.deck, str(data["action"])))
    return len(records)
