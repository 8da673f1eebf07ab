"""Shipped maps named without a path, and `rulefront maps` listing them."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from game import DATA, MAPS, ROOT
from game.cli import main
from game.data import LEVEL_SUFFIXES, find_shipped, map_argument, shipped_levels
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_game_map
from game.levels.maps import DEFAULT_MAP, load_map
from game.render.controllers.level import LevelController
from tests.helpers import draw_map


def test_in_a_checkout_data_and_maps_are_the_top_level_folders():
    assert DATA == ROOT / "data" and MAPS == ROOT / "maps"
    assert (DATA / "palette.yaml").is_file() and (MAPS / "duel.png").is_file()


@pytest.mark.parametrize("shipped", shipped_levels(), ids=lambda s: s.name)
def test_every_shipped_name_opens_its_own_file(shipped):
    assert map_argument(shipped.name) == shipped.path
    assert load_game_map(shipped.name).path == shipped.path


@pytest.mark.parametrize("name, relative", [
    ("duel", "duel.png"),
    ("duel.png", "duel.png"),
    ("first-steps", "puzzles/first-steps.keke"),
    ("level-03", "descent/level-03.txt"),
    ("kayles", "octal/kayles.png"),
    ("tower.txt", "descent/tower.txt"),
])
def test_a_bare_name_with_or_without_its_suffix_finds_the_shipped_file(name, relative):
    assert find_shipped(name) == MAPS / relative


def test_names_are_unique_and_no_name_is_shared_by_two_folders():
    names = [s.name for s in shipped_levels()]
    assert len(names) == len(set(names))
    folders = defaultdict(set)
    for shipped in shipped_levels():
        folders[shipped.path.stem].add(shipped.path.parent)
    assert {stem: dirs for stem, dirs in folders.items() if len(dirs) > 1} == {}


def test_a_stem_shared_by_two_formats_of_one_level_needs_its_suffix():
    with pytest.raises(UserError) as info:
        map_argument("tower")
    assert "tower.png" in str(info.value) and "tower.txt" in str(info.value)


def test_an_unknown_name_is_one_sentence_naming_it_and_pointing_to_rulefront_maps(capsys):
    with pytest.raises(UserError) as info:
        map_argument("no-such-map")
    assert "no-such-map" in str(info.value) and "`rulefront maps`" in str(info.value)
    assert main(["play", "no-such-map", "--text"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "rulefront maps" in err


def test_an_existing_file_wins_over_a_shipped_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    draw_map(tmp_path / "duel.png", ["Q.....b", "B.....q"])
    assert map_argument("duel.png") == Path("duel.png")
    assert (load_map("duel.png").width, load_map("duel").width) == (7, 24)


def test_a_path_with_a_folder_is_left_for_the_loader_to_refuse(tmp_path):
    missing = tmp_path / "duel.png"
    assert map_argument(missing) == missing
    with pytest.raises(UserError, match="no such map file"):
        load_map(missing)


def test_the_default_map_is_the_shipped_duel_from_any_folder(tmp_path, monkeypatch, capsys):
    assert DEFAULT_MAP.is_absolute() and find_shipped("duel") == DEFAULT_MAP
    monkeypatch.chdir(tmp_path)
    assert main(["match", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 1


def test_match_and_play_take_shipped_names(capsys, monkeypatch, tmp_path):
    assert main(["match", "outpost", "--seed", "3", "--json"]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert main(["match", str(MAPS / "outpost.png"), "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_name
    assert main(["play", "--text", "first-steps", "--moves", "rrrrr", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "won"
    assert main(["play", "--text", "level-03", "--moves", "d", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == 1
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    save = tmp_path / "save.json"
    assert main(["play", "--text", "outpost", "--save", str(save)]) == 0
    assert Path(json.loads(save.read_text())["map"]).resolve() == MAPS / "outpost.png"


def test_a_level_opened_by_name_walks_its_shipped_folder():
    engine = Engine.from_game_map(load_game_map("first-steps"))
    ctrl = LevelController(engine, "first-steps")
    neighbours = [path for path, _level in ctrl.neighbours(1)]
    assert neighbours and {p.parent for p in neighbours} == {MAPS / "puzzles"}


def maps_json(capsys) -> list[dict]:
    assert main(["maps", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rulefront_maps_lists_every_level_file_under_maps(capsys):
    on_disk = {p.relative_to(MAPS).as_posix() for p in MAPS.rglob("*")
               if p.suffix in LEVEL_SUFFIXES}
    rows = maps_json(capsys)
    assert sorted(row["path"] for row in rows) == sorted(on_disk)
    for row in rows:
        assert map_argument(row["name"]) == MAPS / row["path"]


@pytest.mark.parametrize("name, ruleset, size, title", [
    ("duel", "skirmish", "24x24", "Duel"),
    ("outpost", "skirmish", "12x12", "Outpost"),
    ("first-steps", "puzzle", "8x5", None),
    ("level-01", "descent", "4x4", "level 1"),
    ("kayles", "octal", "9x5", "Kayles"),
])
def test_rulefront_maps_gives_each_ruleset_size_and_sidecar_title(capsys, name, ruleset, size,
                                                                  title):
    row = {r["name"]: r for r in maps_json(capsys)}[name]
    assert (row["ruleset"], row["size"], row["title"]) == (ruleset, size, title)


def test_rulefront_maps_prints_a_table_with_a_line_per_level(capsys):
    assert main(["maps"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["name", "kind", "ruleset", "size", "path", "title"]
    assert len(lines) == len(shipped_levels()) + 2
    assert any(line.split()[:5] == ["kayles", "match", "octal", "9x5", "octal/kayles.png"]
               for line in lines)
