"""The title menu's controller (no window, no terminal): entries from data/menu.yaml, the new
game page's seats, level select with stars, challenges scored, settings kept, new pages."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest
import yaml

import game
from game import DATA, MAPS, registry
from game.commands import EndTurn
from game.data import find_shipped
from game.levels.loader import load_game_map
from game.menu.model import Launch, stars_for
from game.menu.pages import PAGES, new_menu, register_page
from game.session.scores import record_score
from game.session.settings import Settings, difficulties, load_settings


@pytest.fixture
def home(tmp_path, monkeypatch):
    """Settings and scores in folders of the test's own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def labels(menu) -> list[str]:
    return [row.label for row in menu.view().rows]


def press(menu, *keys: str) -> None:
    for key in keys:
        menu.key(key)


def open_entry(menu, label: str) -> None:
    index = labels(menu).index(label)
    menu.click(index)


def test_the_entries_are_data_menu_yaml_s_in_order(home):
    menu = new_menu()
    listed = [entry["label"] for entry in yaml.safe_load((DATA / "menu.yaml").read_text())[
        "entries"]]
    assert labels(menu) == listed
    assert listed[:3] == ["New game", "Continue", "Challenges"]
    assert menu.view().about  # the chosen entry says what it is


def test_new_game_defaults_to_duel_human_against_normal_and_launches_it(home):
    menu = new_menu()
    open_entry(menu, "New game")
    rows = menu.view().rows
    assert [r.label for r in rows] == ["Map", "Red", "Blue", "Start"]
    assert "Duel" in rows[0].detail and "Human" in rows[1].detail and "Normal" in rows[2].detail
    assert rows[0].preview is not None and rows[0].preview.name == "duel.png"  # a thumbnail
    press(menu, "DOWN", "DOWN", "DOWN", "RETURN")
    launch = menu.take_launch()
    assert launch == Launch("match", find_shipped("duel"),
                            {"red": "human", "blue": difficulties()["Normal"]})
    assert menu.take_launch() is None  # taken once


def test_seats_cycle_through_human_the_difficulties_and_every_ai_that_can_play(home):
    menu = new_menu()
    open_entry(menu, "New game")
    choices = menu.seat_choices("skirmish")
    assert choices[:4] == ["Human", "Easy", "Normal", "Hard"]
    assert {"random", "heuristic", "minimax", "mcts"} <= set(choices)
    assert "perfect" not in choices  # it needs an impartial game: skirmish is not one
    press(menu, "DOWN", "DOWN", "RIGHT")  # Blue: Normal -> Hard
    assert "Hard" in menu.view().rows[2].detail
    press(menu, "LEFT", "LEFT")
    assert "Easy" in menu.view().rows[2].detail
    press(menu, "UP", "UP", "RIGHT")  # the next map
    assert "Duel" not in menu.view().rows[0].detail


def test_the_octal_entry_lists_only_games_of_that_ruleset(home):
    menu = new_menu()
    open_entry(menu, "Octal")
    seen = set()
    for _ in range(4):
        preview = menu.view().rows[0].preview
        seen.add(registry.spec(game.levels.loader.load_game_map(preview).ruleset).name)
        press(menu, "RIGHT")
    assert seen == {"octal"}
    assert "perfect" in menu.seat_choices("octal")


def test_level_select_shows_the_stars_a_best_score_won(home):
    menu = new_menu(settings=Settings(player="ann"))
    open_entry(menu, "Descent")
    rows = menu.view().rows
    assert rows and all(r.detail == "not won yet" for r in rows) and rows[0].stars == 0
    first = rows[0].preview
    thresholds = game.levels.loader.load_game_map(first).sidecar["stars"]
    record_score(str(first), "ann", int(thresholds[3]))
    record_score(str(first), "bob", 1)  # another player's best is not ann's
    menu.refresh_page()
    assert menu.view().rows[0].stars == 3
    assert menu.view().rows[0].detail == f"{thresholds[3]} moves"
    press(menu, "RETURN")
    assert menu.take_launch() == Launch("level", first)


def test_a_challenge_won_is_scored_by_rounds_and_shows_its_stars(home):
    menu = new_menu(settings=Settings(player="ann"))
    open_entry(menu, "Challenges")
    assert menu.view().rows[0].stars == 0
    press(menu, "RETURN")
    launch = menu.take_launch()
    challenge = menu.challenges[0]
    assert launch.challenge == challenge.title
    assert launch.specs[challenge.side] == "human"
    won = SimpleNamespace(outcome=SimpleNamespace(winner=challenge.side),
                          ruleset=SimpleNamespace(report=lambda world: {"round": 9}), world=None,
                          history=[])
    menu.returned(won, launch)
    rounds_for_two = sorted(challenge.stars.items())[1][1]
    assert menu.view().rows[0].stars == stars_for(challenge.stars, 9)
    assert "9 rounds" in menu.view().message
    lost = SimpleNamespace(outcome=SimpleNamespace(winner="nobody"), ruleset=won.ruleset,
                           world=None, history=[])
    menu.returned(lost, launch)  # a loss changes nothing
    assert menu.view().rows[0].stars == stars_for(challenge.stars, 9)
    assert rounds_for_two >= 1


def test_continue_resumes_the_autosave_or_says_there_is_none(home):
    menu = new_menu()
    open_entry(menu, "Continue")
    assert menu.take_launch() is None and "no saved game" in menu.view().message
    menu.save_path.parent.mkdir(parents=True)
    menu.save_path.write_text(json.dumps({"map": "maps/duel.png", "commands": [{}] * 5,
                                          "seats": {"red": "human",
                                                    "blue": difficulties()["Normal"]}}))
    menu.refresh_page()
    open_entry(menu, "Continue")
    assert menu.take_launch() == Launch("resume", menu.save_path)
    row = menu.view().rows[menu.view().cursor]
    assert row.preview is not None and row.preview.name == "duel.png"  # its thumbnail
    assert "duel: 5 commands played; red Human, blue Normal." in menu.view().about


def test_settings_change_on_the_page_and_are_written_at_once(home):
    menu = new_menu()
    open_entry(menu, "Settings")
    press(menu, "RETURN")  # Animation: on -> off
    press(menu, "DOWN", "RIGHT")  # Speed 1 -> 2
    press(menu, "DOWN", "RETURN")  # Sound off
    press(menu, "DOWN", "RIGHT")  # the colour-blind palette
    press(menu, "DOWN", "RETURN", "Z")  # undo is Z now
    press(menu, "DOWN", "DOWN", "RETURN", "Z")  # end turn takes Z: undo gets E (a swap)
    assert load_settings() == Settings(animate=False, speed=2.0, sound=False,
                                       palette="colour-blind", keys={"undo": "E",
                                                                     "end_turn": "Z"})
    assert menu.settings == load_settings()
    assert [r.detail for r in menu.view().rows[:4]] == ["off", "2x", "off", "colour-blind"]


def test_escape_goes_back_a_page_and_quits_from_the_title(home):
    menu = new_menu()
    open_entry(menu, "How to play")
    assert menu.view().text and not menu.view().rows
    press(menu, "ESCAPE")
    assert menu.view().title == "Rulefront" and not menu.quit
    press(menu, "ESCAPE")
    assert menu.quit


def test_a_new_kind_of_page_is_a_line_of_data_and_one_registered_function(home, monkeypatch):
    data = home / "datacopy"
    shutil.copytree(DATA, data)
    text = yaml.safe_load((data / "menu.yaml").read_text())
    text["entries"].insert(2, {"page": "host", "label": "Host a game"})
    (data / "menu.yaml").write_text(yaml.safe_dump(text))
    monkeypatch.setattr(game, "DATA", data)
    monkeypatch.setitem(PAGES, "host", PAGES["quit"])
    with pytest.raises(game.errors.UserError, match="page 'host' is not one the menu knows"):
        monkeypatch.delitem(PAGES, "host")
        new_menu()

    def host(menu, entry):
        menu.message = f"hosting: {entry.label}"

    register_page("host", host)
    try:
        menu = new_menu()
        assert labels(menu)[2] == "Host a game"
        open_entry(menu, "Host a game")
        assert menu.view().message == "hosting: Host a game"
    finally:
        del PAGES["host"]


def test_the_cursor_follows_the_mouse_and_a_click_opens(home):
    menu = new_menu()
    menu.point(2)
    assert menu.view().cursor == 2 and not menu.stack[1:]
    menu.point(None)
    menu.point(99)
    assert menu.view().cursor == 2
    menu.click(2)
    assert menu.view().title == "Challenges"


def test_without_a_display_rulefront_play_says_so_in_one_sentence(tmp_path):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "RULEFRONT_HEADLESS",
                                                            "WAYLAND_DISPLAY")}
    env.update(XDG_CONFIG_HOME=str(tmp_path), PYTHONPATH=str(game.ROOT))
    done = subprocess.run([sys.executable, "-m", "game", "play"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    [line] = done.stderr.splitlines()  # one sentence, saying why pyglet could not open one
    assert line.startswith("rulefront: no display could be opened here (")
    assert line.endswith("); play in the terminal with --text."), line


def test_the_editor_page_lists_a_map_saved_in_the_editor_and_never_reuses_its_name(home):
    """The editor has no engine: leaving it still rebuilds its page, and a New map chosen on a
    page built before a save gets a name of its own (a stale page once reopened map-1.png
    blank, and S painted over the map just saved)."""
    menu = new_menu()
    open_entry(menu, "Map editor")
    assert labels(menu) == ["New map"]
    press(menu, "RETURN")
    launch = menu.take_launch()
    assert launch.kind == "edit" and launch.path.name == "map-1.png"
    launch.path.parent.mkdir(parents=True)
    shutil.copy(find_shipped("outpost"), launch.path)  # the editor saved it
    press(menu, "RETURN")  # the page as it was built, before the save
    assert menu.take_launch().path.name == "map-2.png"
    menu.returned(None, launch)  # the editor closed
    assert labels(menu) == ["New map", "map-1"]
    assert "map-2.png" in " ".join(menu.view().about)
    press(menu, "DOWN", "RETURN")
    assert menu.take_launch() == Launch("edit", launch.path)


def test_the_challenges_page_lists_the_shipped_challenge_maps_after_menu_yaml_s(home):
    from game.session.challenge import goal_of

    menu = new_menu()
    open_entry(menu, "Challenges")
    rows = menu.view().rows
    shipped = sorted((MAPS / "challenges").glob("*.png"))
    titles = [load_game_map(path).name for path in shipped]
    assert [row.label for row in rows] == [c.title for c in menu.challenges] + titles
    index = len(menu.challenges) + titles.index("The brittle keep")
    menu.point(index)
    about = menu.view().about
    assert about[0] == goal_of(load_game_map("brittle-keep")).brief
    assert about[1] == "You play red against heuristic."
    press(menu, "ESCAPE")
    open_entry(menu, "New game")  # the challenge maps are not offered as plain matches
    for _ in range(12):
        assert "challenges" not in str(menu.view().rows[0].preview)
        press(menu, "RIGHT")


def test_a_shipped_challenge_won_is_scored_by_commands_with_its_stars(home):
    from game.levels.loader import load_engine
    from game.session.challenge import goal_of, solve

    menu = new_menu(settings=Settings(player="ann"))
    open_entry(menu, "Challenges")
    index = labels(menu).index("The brittle keep")
    menu.click(index)
    launch = menu.take_launch()
    assert (launch.kind, launch.counts, launch.seed, launch.challenge) == (
        "match", "actions", 0, "The brittle keep")
    assert launch.specs == {"red": "human", "blue": "heuristic"}
    engine = load_engine(launch.path, seed=launch.seed)
    for command in solve(engine, goal_of(engine.map)).commands:
        engine.apply(command)
    menu.returned(engine, launch)
    assert menu.view().message == "Challenge won in 4 commands: 3 stars (a new best)."
    row = menu.view().rows[index]
    assert (row.stars, row.detail) == (3, "4 commands")
    lost = load_engine(launch.path)
    lost.apply(EndTurn())
    menu.returned(lost, launch)
    assert menu.view().message == "Challenge lost: red did not win within 1 turn."
    assert menu.view().rows[index].stars == 3
