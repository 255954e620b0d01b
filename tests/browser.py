"""The web table in a real browser: `jongg serve` as a subprocess on a free
local port, driven through Debian's headless Chromium and ChromeDriver with
selenium (nothing downloads a browser). Screenshots go to the test's
temporary folder."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

# Debian's chromium and chromium-driver packages (found on PATH first)
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
DRIVER = Path(shutil.which("chromedriver") or "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")
needs_browser = pytest.mark.skipif(
    not CHROMIUM.exists() or not DRIVER.exists(),
    reason=f"no browser here: {CHROMIUM} or {DRIVER} is missing (Debian's chromium and "
           "chromium-driver packages; .ci/run installs them)")


class Server:
    """`jongg serve` running in a subprocess."""

    def __init__(self, data: Path, port: int = 0, *, flags: Sequence[str] = (),
                 limit: Callable[[], None] | None = None):
        """`flags`: more of serve's options; `limit`: run in the child before
        it starts (resource limits: ulimit -n, a file-size limit)."""
        self.data = data
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if limit is not None:  # a limited child writes no bytecode: a file cut short would stay
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jongg", "serve", "--port", str(port), "--data", str(data),
             "--pace", "0", *flags], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=env, preexec_fn=limit)
        assert self.process.stdout is not None
        self.said: list[str] = []  # what the server printed, for a failing test's message
        for line in self.process.stdout:
            self.said.append(line)
            if line.startswith("jongg serve: http://"):
                break
        else:
            raise AssertionError(f"jongg serve did not start: {''.join(self.said)[-2000:]}")
        self.url = self.said[-1].split()[2]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))
        # keep reading what it prints, so a full pipe never stops the server
        threading.Thread(target=self.said.extend, args=(self.process.stdout,),
                         daemon=True).start()

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextmanager
def server(data: Path, port: int = 0, *, flags: Sequence[str] = (),
           limit: Callable[[], None] | None = None) -> Iterator[Server]:
    running = Server(data, port, flags=flags, limit=limit)
    try:
        yield running
    finally:
        running.stop()


@contextmanager
def browser(profile: Path) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # selenium never fetches a driver or a browser
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def status(driver: Any) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(
        "return window.jongg ? window.jongg.status() : {ready: false}")
    return found


def wait(driver: Any, ready: Callable[[dict[str, Any]], bool], what: str,
         seconds: float = 90) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = status(driver)
        if now.get("ready") and ready(now):
            return now
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds:g} s for {what}; the page: {status(driver)}")


def result_shown(driver: Any) -> bool:
    """The round's end shown on the table it froze (until "next round")."""
    return bool(driver.execute_script("return !document.getElementById('round-end').hidden"))


def click(driver: Any, selector: str) -> None:
    """Click what the selector finds; the page redraws as the table moves, so
    an element gone stale is looked up again."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.02)
    raise AssertionError(f"{selector} kept changing under the click")


def click_action(driver: Any, action: str) -> None:
    """Do an action as a person would: a tile of the hand is clicked twice
    (chosen, then played); any other choice is its button."""
    verb, _, rest = action.partition(" ")
    if verb in ("discard", "pass") and rest and " " not in rest:
        click(driver, f"#hand svg.tile.playable[data-code='{rest}']")
        click(driver, f"#hand svg.tile.selected[data-code='{rest}']")
        return
    click(driver, f"#actions button[data-action='{action}']")


def play_by_clicking(driver: Any, rng: random.Random, *, rounds: int = 1,
                     choose: Callable[[dict[str, Any]], str] | None = None,
                     limit: int = 2000, shot: tuple[int, Path] | None = None,
                     frozen: Path | None = None) -> list[str]:
    """Play the seat by clicking until `rounds` rounds have ended, going on
    from each round's frozen end by "next round"; returns the actions
    clicked. `shot`: a screenshot into this file once the seat has made that
    many moves, on its turn; `frozen`: one of the first round's end, the
    table frozen."""
    from selenium.webdriver.common.by import By

    done: list[str] = []
    for _ in range(limit):
        now = wait(driver, lambda s: s["deciding"] or s["over"] or s["rounds"] >= rounds
                   or s["frozen"], "the seat to decide")
        if now["frozen"]:  # the round's end, frozen until "next round"
            if frozen is not None:
                driver.save_screenshot(str(frozen))
                frozen = None
            driver.find_element(By.ID, "next-round").click()
            now = wait(driver, lambda s: not s["frozen"], "the next round")
        if now["rounds"] >= rounds or now["over"]:
            return done
        if not now["deciding"]:
            continue
        if shot is not None and len(done) >= shot[0] and now["step"] == "turn":
            driver.save_screenshot(str(shot[1]))
            shot = None
        before = now["decisions"]
        action = choose(now) if choose is not None else random_choice(now, rng)
        click_action(driver, action)
        done.append(action)
        wait(driver, lambda s, b=before: s["decisions"] > b or s["rounds"] >= rounds,
             f"the table to take {action!r}")
    raise AssertionError(f"{limit} decisions and the round goes on")


def random_choice(now: dict[str, Any], rng: random.Random) -> str:
    """Mostly let discards go (a round ends sooner), else any legal action."""
    legal: list[str] = now["legal"]
    if now["step"] == "claims" and "pass" in legal and rng.random() < 0.8:
        return "pass"
    return rng.choice(legal)


def open_table(running: Server, variant: str, seats: list[str], seed: int,
               players: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"variant": variant, "seats": seats, "seed": seed}
    if players is not None:
        body["players"] = players
    made: dict[str, Any] = running.api("/api/tables", body)
    return made


def seat_url(running: Server, made: dict[str, Any], seat: int = 0) -> str:
    link = next(link for link in made["links"] if link["seat"] == seat)
    return running.url.rstrip("/") + str(link["url"])
