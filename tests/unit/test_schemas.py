"""The file schemas: docs/formats.md is generated from them, `import game.cli` does not load
the validation library, and the shipped files all pass them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from game import DATA, MAPS, ROOT, registry
from game.data import load_yaml
from game.errors import UserError
from game.levels.maps import check_sidecar
from game.schemas import (
    MARKER,
    REPLAY_FORMAT,
    PaletteFile,
    Sidecar,
    UnitsFile,
    WordsFile,
    markdown,
    quoted,
    validate,
)
from game.session.replay import FORMAT


def test_docs_formats_holds_the_tables_the_schemas_generate():
    page = (ROOT / "docs" / "formats.md").read_text()
    assert page.split(MARKER, 1)[1].strip() == markdown().strip(), (
        "docs/formats.md is out of date: python -m game.schemas --write docs/formats.md")


def test_import_game_cli_loads_no_validation_library():
    code = ("import sys, game.cli; "
            "print(sorted(m for m in ('msgspec', 'pydantic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


def test_the_writers_and_the_schema_agree_on_the_format_number():
    assert FORMAT == REPLAY_FORMAT


@pytest.mark.parametrize("sidecar", sorted(MAPS.rglob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_sidecar_passes_the_schema(sidecar):
    check_sidecar(load_yaml(sidecar), sidecar, registry.sidecar_schemas())


@pytest.mark.parametrize(("name", "schema"), [("units.yaml", UnitsFile),
                                              ("words.yaml", WordsFile),
                                              ("palette.yaml", PaletteFile)])
def test_the_shipped_data_files_pass_their_schemas(name, schema):
    validate(load_yaml(DATA / name), schema, DATA / name)


@pytest.mark.parametrize(("raw", "says"), [
    ({"heroes": {"bulwark": {"hp": 0, "damage": 1, "range": 1, "moves": 1, "glyph": "B"}},
      "minion": {}, "buildings": {}}, "'heroes[...].hp' must be a whole number >= 1"),
    ({"heroes": {}, "minion": {}, "buildings": {}}, "'heroes' must be a mapping of length >= 1"),
])
def test_a_broken_units_file_is_one_sentence(raw, says):
    with pytest.raises(UserError, match=r"^data/units.yaml: ") as info:
        validate(raw, UnitsFile, "data/units.yaml")
    assert says in str(info.value)


def test_unknown_nested_keys_list_the_keys_of_their_own_level():
    with pytest.raises(UserError) as info:
        check_sidecar({"ruleset": "descent", "costs": {"jump": 1}}, "x.yaml",
                      registry.sidecar_schemas())
    assert str(info.value) == "x.yaml: unknown key 'jump' in 'costs'; known keys: move, push."


def test_names_from_a_file_are_quoted_on_one_line():
    assert quoted("red") == "'red'"
    assert quoted("re\nd") == "'re\\nd'"
    assert quoted("x" * 50).endswith("...") and len(quoted("x" * 50)) < 50


def test_each_ruleset_declares_the_sidecar_keys_it_reads():
    keys = {name: set(schema.__struct_fields__)
            for name, schema in registry.sidecar_schemas().items()}
    shared = set(Sidecar.__struct_fields__)
    assert {"name", "ruleset", "base_rules"} <= shared
    assert {"heroes", "turn_limit", "spawn", "units"} <= keys["skirmish"]
    assert {"code", "misere"} <= keys["octal"] and {"start", "exit", "stars"} <= keys["descent"]
    assert all(shared <= found for found in keys.values())


@pytest.mark.parametrize(("ruleset", "key"), [("puzzle", "turn_limit"), ("octal", "heroes"),
                                               ("skirmish", "stars")])
def test_a_key_of_another_ruleset_is_refused_naming_the_known_ones(ruleset, key):
    with pytest.raises(UserError, match=rf"x.yaml: unknown key '{key}'; known keys: ") as info:
        check_sidecar({"ruleset": ruleset, key: 1}, "x.yaml", registry.sidecar_schemas())
    assert "base_rules" in str(info.value)


def test_a_sidecar_read_without_the_registry_checks_the_shared_keys():
    assert check_sidecar({"name": "m", "turn_limit": 3}, "x.yaml") == {"name": "m",
                                                                        "turn_limit": 3}
    with pytest.raises(UserError, match="'name' must be text"):
        check_sidecar({"name": 3}, "x.yaml")


def test_a_results_line_of_the_wrong_shape_is_refused(tmp_path):
    from game.tournament.results import recorded

    path = tmp_path / "r.jsonl"
    path.write_text('{"index": "zero", "map": "m", "red": "a", "blue": "b", "seed": 0, '
                    '"winner": "red", "reason": "", "rounds": 1, "commands": 1, "think": {}, '
                    '"actions": {}}\n{}\n')
    with pytest.raises(UserError, match="line 1 is not a recorded game"):
        recorded(path, [])


def test_a_weights_file_with_a_word_for_a_number_is_one_sentence_naming_file_and_key(tmp_path):
    from systems.ai.evaluate import heuristic_weights_file

    good = load_yaml(DATA / "ai.yaml")
    bad = tmp_path / "w.yaml"
    bad.write_text("evaluation: {win: 1}\nheuristic: {attack: lots}\n")
    with pytest.raises(UserError, match=r"w\.yaml.*heuristic.*attack") as refused:
        heuristic_weights_file(str(bad))
    assert "\n" not in str(refused.value)
    missing = tmp_path / "m.yaml"
    heuristic = dict(good["heuristic"])
    heuristic.pop("kill")
    missing.write_text(f"evaluation: {good['evaluation']}\nheuristic: {heuristic}\n")
    with pytest.raises(UserError, match="'kill' is missing"):
        heuristic_weights_file(str(missing))


def test_client_settings_are_checked_by_their_schema(tmp_path, monkeypatch):
    import game
    from game.render.app import animation_setting

    monkeypatch.setattr(game, "DATA", tmp_path)
    assert animation_setting() is True  # no file: the default
    (tmp_path / "client.yaml").write_text("animate: false\n")
    assert animation_setting() is False
    (tmp_path / "client.yaml").write_text("animate: sometimes\n")
    with pytest.raises(UserError, match=r"client\.yaml.*animate"):
        animation_setting()
