"""The web table's page in a real browser (headless Chromium, selenium), at
a desktop's size and at a phone's (390 x 844): its layout asserted at every
decision (nothing scrolls sideways; the hand, the prompt and the actions on
screen; the latest discard ringed), a discard and a pass played only by a
second click or after an undo window, a choice from an earlier state never
played, and the round's end held on the frozen table until "next round".
A short round of nymj by clicking at a phone's size is in the default suite;
whole rounds of mjcg-card and of siamese at both sizes are @slow. Screenshots
go to the artifacts (tests/conftest.py: $JONGG_TEST_ARTIFACTS)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import (
    browser,
    click,
    click_action,
    needs_browser,
    open_table,
    seat_url,
    server,
    status,
    wait,
)

pytestmark = needs_browser

@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    """One server and one browser for the default suite's tests (each opens
    its own table): a browser and a server start in seconds, not for free."""
    folder = tmp_path_factory.mktemp("table")
    with server(folder / "data") as running, browser(folder / "profile") as driver:
        yield running, driver


DESKTOP = (1400, 900)
PHONE = (390, 844)

# where the page's parts are, in the viewport's pixels (None: not shown)
LAYOUT = """
const box = (el) => { if (!el || el.closest('[hidden]')) return null;
  const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
const $ = (id) => document.getElementById(id);
return {scroll: document.documentElement.scrollWidth, width: window.innerWidth,
        height: window.innerHeight, hand: box($('hand')), prompt: box($('prompt')),
        actions: box($('actions')), end: box($('round-end')), next: box($('next-round')),
        latest: document.querySelectorAll('#seats .pond svg.tile.latest').length,
        discards: document.querySelectorAll('#seats .pond svg.tile').length,
        smallest: Math.min(...[...document.querySelectorAll(
          '#seats .pond svg.tile, #story svg.tile')].map((t) => t.getBoundingClientRect().height),
          999)};
"""


def screen(driver: Any, size: tuple[int, int]) -> None:
    """The page's viewport at exactly this size (a phone's: a mobile one)."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})


def layout(driver: Any) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(LAYOUT)
    return found


def inside(found: dict[str, Any], part: str) -> bool:
    where = found[part]
    return where is not None and where[0] >= 0 and where[1] >= 0 \
        and where[2] <= found["width"] + 0.5 and where[3] <= found["height"] + 0.5


def check_layout(driver: Any, where: str) -> dict[str, Any]:
    """No sideways scrolling; the hand, the prompt and the actions (or, on a
    frozen table, the round's end and its "next round") inside the viewport."""
    found = layout(driver)
    assert found["scroll"] <= found["width"], f"{where}: the page scrolls sideways: {found}"
    parts = ("end", "next") if status(driver)["frozen"] else ("hand", "prompt", "actions")
    for part in parts:
        assert inside(found, part), f"{where}: {part} is not on screen: {found}"
    return found


def passing_now(driver: Any) -> list[str]:
    return list(status(driver)["passing"])


def round_trip(driver: Any) -> None:
    """Wait until the server has answered one more message (a hint): what the
    page sent before it has been taken, or not, by then."""
    driver.execute_script("document.getElementById('hints').replaceChildren();"
                          "document.getElementById('hint').click()")  # in the drawer on a phone
    wait(driver, lambda s: bool(driver.execute_script(
        "return document.getElementById('hints').childNodes.length")), "the hint's answer", 30)


def choose_action(now: dict[str, Any], rng: random.Random) -> str:
    """A claim now and then (a claimed discard shows as taken), mostly a pass
    of the claim window, else any legal action."""
    legal: list[str] = now["legal"]
    if now["step"] == "claims":
        claims = [a for a in legal if a.startswith("claim")]
        if claims and rng.random() < 0.3:
            return rng.choice(claims)
        if "pass" in legal:
            return "pass"
    return rng.choice(legal)


def click_tile(driver: Any, code: str) -> None:
    click(driver, f"#hand svg.tile.playable[data-code='{code}']")


def play_round(driver: Any, rng: random.Random, where: str, *, limit: int = 600,
               mid: Path | None = None, choose: Callable[[dict[str, Any]], str] | None = None
               ) -> dict[str, Any]:
    """Click the seat's way through one round, the layout checked at each
    decision; returns what the page showed once the round had ended (the
    table frozen). `mid`: a screenshot there once some tiles are discarded."""
    seen_latest = False
    for _ in range(limit):
        now = wait(driver, lambda s: s["deciding"] or s["frozen"] or s["over"],
                   "the seat to decide")
        found = check_layout(driver, where)
        if now["frozen"] or now["over"]:
            assert seen_latest, f"{where}: no discard was ever ringed as the latest"
            return now
        if found["discards"]:
            assert found["latest"] == 1, f"{where}: {found['latest']} latest discards ringed"
            assert found["smallest"] >= (32 if found["width"] >= 700 else 24), found
            seen_latest = True
            if mid is not None and now["step"] == "turn":
                driver.save_screenshot(str(mid))
                mid = None
        before = now["decisions"]
        action = choose(now) if choose else choose_action(now, rng)
        click_action(driver, action)
        wait(driver, lambda s, b=before: s["decisions"] > b or s["frozen"], f"{action!r} taken")
    raise AssertionError(f"{where}: {limit} decisions and the round goes on")


def frozen_until_next_round(driver: Any, where: str, shot: Path, reload: bool = False) -> None:
    """The round's end stays on the frozen table, whatever the server sends
    meanwhile, until "next round" is pressed; then the next round is drawn.
    `reload`: the page reloaded while it holds is shown the same table, its
    discards and all."""
    from selenium.webdriver.common.by import By

    end = wait(driver, lambda s: s["frozen"], "the round's end")
    round_trip(driver)  # the server has gone on meanwhile; the page has not
    still = wait(driver, lambda s: s["frozen"], "the round's end, still")
    assert still["rounds"] >= 1 and still["legal"] == [] and not still["deciding"]
    check_layout(driver, f"{where}, frozen")
    frozen_felt = driver.find_element(By.ID, "seats").text
    assert "round 1 over" in driver.find_element(By.ID, "round-end").text.lower()
    assert driver.find_elements(By.CSS_SELECTOR, "#seats.frozen .pond svg.tile")
    driver.save_screenshot(str(shot))
    assert driver.find_element(By.ID, "seats").text == frozen_felt, "the frozen table moved"
    if reload:
        ponds = len(driver.find_elements(By.CSS_SELECTOR, "#seats.frozen .pond svg.tile"))
        driver.refresh()
        wait(driver, lambda s: s["frozen"], "the round's end after a reload")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#seats.frozen .pond svg.tile")) \
            == ponds, "the reloaded page lost the round's discards"
        head = driver.find_element(By.ID, "head").text
        assert "round 1 ·" in head, f"the reloaded page's table is not the round that ended: {head}"
        driver.save_screenshot(str(shot.with_name(shot.stem + "-reloaded.png")))
    click(driver, "#next-round")
    after = wait(driver, lambda s: not s["frozen"], "the next round")
    assert after["over"] or "round 2" in driver.find_element(By.ID, "head").text, end
    assert driver.find_element(By.ID, "round-end").get_attribute("hidden") is not None \
        or after["over"]


def test_a_short_round_of_nymj_on_a_phone_frozen_until_next_round(
        table: tuple[Any, Any], artifacts: Path) -> None:
    running, driver = table
    screen(driver, PHONE)
    made = open_table(running, "nymj", ["human", "greedy"], seed=3, players=3)
    driver.get(seat_url(running, made))
    play_round(driver, random.Random(2), "nymj phone", mid=artifacts / "nymj-phone-play.png")
    frozen_until_next_round(driver, "nymj phone", artifacts / "nymj-phone-end.png", reload=True)


def test_a_pass_is_played_by_a_second_click_and_a_stale_choice_never(
        table: tuple[Any, Any]) -> None:
    """The Charleston's first pass of mjcg-card, at a phone's size: one click
    chooses a tile and sends nothing; a choice made before the seat's state
    changed (a pass typed meanwhile) is not played by the next click, which
    only chooses; Enter twice on a focused tile passes it; with "one click"
    set, undo takes a pass back, and a pass left alone is played once its
    undo window has passed."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    running, driver = table
    screen(driver, PHONE)
    made = open_table(running, "mjcg-card", ["human", "greedy"], seed=11)
    driver.get(seat_url(running, made))
    now = wait(driver, lambda s: s["deciding"] and s["step"] == "passing", "the first pass")
    tiles = [a.split()[1] for a in now["legal"] if a.startswith("pass ")]
    first, typed = tiles[0], next(t for t in tiles if t != tiles[0])
    click_tile(driver, first)
    round_trip(driver)
    assert passing_now(driver) == [], "one click passed a tile"
    assert driver.find_elements(By.CSS_SELECTOR, f"#hand svg.tile.selected[data-code='{first}']")
    field = driver.find_element(By.ID, "typed-action")
    field.send_keys(f"pass {typed}", Keys.ENTER)
    wait(driver, lambda s: s["passing"] == [typed], "the typed pass")
    assert not driver.find_elements(By.CSS_SELECTOR, "#hand svg.tile.selected"), \
        "the choice from before the typed pass is still shown"
    click_tile(driver, first)  # chooses it again; the stale choice is not played
    round_trip(driver)
    assert passing_now(driver) == [typed]
    click(driver, "#actions button.undo")
    assert passing_now(driver) == [typed] and not driver.find_elements(
        By.CSS_SELECTOR, "#hand svg.tile.selected")
    # the keyboard: Enter on a focused tile chooses it, Enter again passes it
    code = next(c for c in status(driver)["hand"] if c != typed
                and f"pass {c}" in status(driver)["legal"])
    target = driver.find_element(By.CSS_SELECTOR, f"#hand svg.tile.playable[data-code='{code}']")
    driver.execute_script("arguments[0].focus()", target)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    round_trip(driver)
    assert passing_now(driver) == [typed]
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    now = wait(driver, lambda s: s["passing"] == [typed, code], "the pass by the keyboard")
    # one click: undone, nothing is sent even once the window has passed
    last = next(c for c in now["hand"] if f"pass {c}" in now["legal"])
    driver.find_element(By.ID, "one-click").click()
    click_tile(driver, last)
    assert "passing" in driver.find_element(By.ID, "actions").text
    click(driver, "#actions button.undo")
    driver.execute_async_script("setTimeout(arguments[0], UNDO_MS + 200)")
    round_trip(driver)
    assert passing_now(driver) == [typed, code], "an undone pass was played"
    before = status(driver)["decisions"]
    click_tile(driver, last)  # left alone: played when its window ends
    wait(driver, lambda s: s["decisions"] > before, "the one-click pass")
    check_layout(driver, "after one click, phone")


@pytest.mark.slow
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("variant,seed", [("mjcg-card", 21), ("siamese", 7)])
def test_a_whole_round_by_clicking(variant: str, seed: int, size: tuple[int, int],
                                   tmp_path: Path, artifacts: Path) -> None:
    """Every decision of a round clicked, the layout checked at each; the
    round's end frozen until "next round"; screenshots mid-round and at the
    end."""
    name = f"{variant}-{'phone' if size == PHONE else 'desktop'}"
    with server(tmp_path / "data") as running, browser(tmp_path / "profile") as driver:
        screen(driver, size)
        made = open_table(running, variant, ["human", "greedy"], seed=seed)
        driver.get(seat_url(running, made))
        play_round(driver, random.Random(seed), name, mid=artifacts / f"{name}-play.png")
        frozen_until_next_round(driver, name, artifacts / f"{name}-end.png")


@pytest.mark.slow
def test_two_people_each_say_next_round(tmp_path: Path, artifacts: Path) -> None:
    """A table of two people and a bot: the round played by clicking in two
    browsers; at its end each page is frozen, the first to press "next
    round" waits (its page names the other), and the next round is drawn on
    both only once the second has pressed it too."""
    from selenium.webdriver.common.by import By

    rng = random.Random(4)
    with server(tmp_path / "data") as running, browser(tmp_path / "one") as one, \
            browser(tmp_path / "two") as two:
        # unseeded: a seeded table seats one person at most (the seed tells every hand)
        made = running.api("/api/tables", {"variant": "nymj", "players": 3,
                                           "seats": ["human", "human", "greedy"]})
        pages = [one, two]
        for seat, driver in enumerate(pages):
            screen(driver, PHONE if seat else DESKTOP)
            driver.get(seat_url(running, made, seat))
        for _ in range(400):
            states = [wait(d, lambda s: s["ready"], "the page") for d in pages]
            if all(s["frozen"] for s in states):
                break
            for driver, now in zip(pages, states, strict=True):
                if now["deciding"] and not now["frozen"]:
                    click_action(driver, choose_action(now, rng))
                    wait(driver, lambda s, b=now["decisions"]: s["decisions"] > b or s["frozen"],
                         "the move taken")
        else:
            raise AssertionError("the round did not end")
        for seat, driver in enumerate(pages):
            check_layout(driver, f"seat {seat}, frozen")
        click(one, "#next-round")
        wait(one, lambda s: s["frozen"], "still frozen")
        other = two.execute_script("return info.seats[info.seat]")
        _wait_text(one, "#round-end", f"waiting for {other.lower()}")  # the other person
        assert one.find_element(By.ID, "next-round").get_attribute("disabled") is not None
        assert status(two)["frozen"], "the second page went on before its person said so"
        one.save_screenshot(str(artifacts / "two-people-waiting.png"))
        click(two, "#next-round")
        for driver in pages:
            wait(driver, lambda s: not s["frozen"], "the next round")
            assert "round 2" in driver.find_element(By.ID, "head").text


def _wait_text(driver: Any, selector: str, text: str) -> None:
    from selenium.webdriver.common.by import By

    wait(driver, lambda s: text in driver.find_element(By.CSS_SELECTOR, selector).text.lower(),
         f"{text!r} in {selector}", 30)


def test_a_riichi_table_shows_its_indicators_counters_and_winds(
        table: tuple[Any, Any], artifacts: Path) -> None:
    """A scored game's table on the felt: the dora indicators face up, the
    round's wind, honba and sticks, each seat's own wind."""
    from selenium.webdriver.common.by import By

    running, driver = table
    screen(driver, DESKTOP)
    made = open_table(running, "riichi", ["human", "greedy"], seed=5, players=4)
    driver.get(seat_url(running, made))
    _wait_text(driver, ".scored-table", "dora indicators")
    box = driver.find_element(By.CSS_SELECTOR, ".scored-table")
    assert len(box.find_elements(By.CSS_SELECTOR, ".indicators svg.tile")) == 1
    assert "round wind e" in box.text.lower() and "honba 0" in box.text.lower()
    winds = [w.text for w in driver.find_elements(By.CSS_SELECTOR, "#seats .seat-wind")]
    assert sorted(winds) == ["wind E", "wind N", "wind S", "wind W"]
    driver.save_screenshot(str(artifacts / "riichi-desktop.png"))
