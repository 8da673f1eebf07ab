"""The spectator page in a real browser (Debian's headless Chromium through selenium): a live
bot game shows on it move by move, in sentences and on the board, and once it is over the page
replays it from the start. The games list links to it.

RULEFRONT_SCREENSHOT=FILE.png saves the page as the README shows it."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from tests.helpers import until
from tests.unit.net.running import Served, bot, finish, new_game

pytestmark = pytest.mark.integration

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1200,860"]


@pytest.fixture
def browser():
    """Headless Chromium with a profile of its own, quit after the test."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(program):
            pytest.fail(f"{program} is needed (Debian's chromium and chromium-driver; .ci/run "
                        "installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rulefront-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def lines(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#log li.line')].map(li => li.textContent)")


def board(driver) -> tuple[str, str]:
    """The board canvas: the action it shows and its pixels (as a data URL)."""
    return driver.execute_script(
        "const b = document.getElementById('board');"
        "return [b.dataset.actions || '', b.toDataURL()]")


def test_the_page_shows_a_live_bot_game_and_replays_it(tmp_path, browser):
    server = Served(tmp_path / "games")
    try:
        url = server.url
        game = new_game(url, "outpost", 3)
        browser.get(f"{url}watch/{game['game']}")
        until(lambda: board(browser)[0] == "0", "the empty board")
        start = board(browser)
        assert lines(browser) == []
        assert "red to play" in browser.find_element("id", "turn").text
        rules = browser.find_element("id", "rules").text
        assert "WATER IS STOP" in rules
        players = [bot(url, game, "red", "heuristic"), bot(url, game, "blue", "random")]
        try:
            until(lambda: len(lines(browser)) >= 12, "twelve lines of the log")
            live = board(browser)
            assert live[0] != "0" and live[1] != start[1]  # the board follows the game
            said = lines(browser)
            assert any(line.startswith("red ") and " moves to " in line for line in said)
            assert "red ends the turn (round 1)" in said
            until(lambda: browser.find_element("id", "outcome").text, "the outcome")
        finally:
            for player in players:
                finish(player)
        assert " wins" in browser.find_element("id", "outcome").text
        if os.environ.get("RULEFRONT_SCREENSHOT"):
            browser.find_element("id", "back").click()  # a position with the last move shown
            browser.save_screenshot(os.environ["RULEFRONT_SCREENSHOT"])
        browser.find_element("id", "first").click()
        assert board(browser) == start  # the replay starts from the very first position
        browser.find_element("id", "forward").click()
        assert board(browser)[0] == "1"
        assert browser.execute_script(
            "return document.querySelectorAll('#log li.line:not(.future)').length") >= 1

        browser.get(url)
        until(lambda: browser.find_elements("css selector", "a.game-link"), "the games list")
        link = browser.find_elements("css selector", "a.game-link")
        assert [a.text for a in link] == [game["game"]]
        link[0].click()
        until(lambda: board(browser)[0] not in ("", "0"), "the replayed board")
    finally:
        server.stop()
