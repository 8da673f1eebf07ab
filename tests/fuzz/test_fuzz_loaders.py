"""Fuzzing the doors: generated images, sidecars, levels, replays and saves go through the same
loaders the commands use, and the only exception allowed out is UserError, one line long.

The default run keeps to about 20 seconds (cases(N) per property); RULEFRONT_FUZZ_EXAMPLES=N
runs N per property instead. `python -m pytest tests/fuzz --hypothesis-show-statistics` counts the cases.
A coverage-guided run of the same loaders is tests/fuzz/atheris_loaders.py (docs/formats.md).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from game import MAPS, registry
from game.data import palette, units, words
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_engine
from game.schemas import DescentSidecar, OctalSidecar, PuzzleSidecar, Sidecar, SkirmishSidecar
from game.session.match import make_seats
from game.session.replay import read_record, verify
from game.session.saves import resumed_seats
from systems.ai import Budget

# RULEFRONT_FUZZ_EXAMPLES=N runs N cases of every property (a deeper run: minutes).
DEEPER = os.environ.get("RULEFRONT_FUZZ_EXAMPLES")


def cases(default: int) -> settings:
    """`default` cases per run (sized so the file takes about 20 s on a busy 2-core machine)."""
    return settings(max_examples=int(DEEPER or default), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def only_user_errors(load: Callable[[], Any], where: str) -> None:
    """Run `load`; any exception but a one-line UserError naming `where` fails the test."""
    try:
        load()
    except UserError as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        assert where in message or not where, message
        assert "<_io." not in message and "Traceback" not in message, message


def in_tmp(files: dict[str, bytes], load: Callable[[Path], Any], name: str) -> None:
    """Write `files` into a fresh folder, then load `name` from it through `load`."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for file, data in files.items():
            (root / file).write_bytes(data)
        only_user_errors(lambda: load(root / name), folder)


# -- images -------------------------------------------------------------------------------

COLOURS = [c for c in palette()]
MODES = ["1", "L", "LA", "P", "RGB", "RGBA", "I;16"]  # what PNG can hold


@st.composite
def images(draw: st.DrawFn) -> bytes:
    """PNG bytes of random size, mode and colours (palette colours often, others sometimes)."""
    width = draw(st.integers(1, 140))
    height = draw(st.integers(1, 140))
    mode = draw(st.sampled_from(MODES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    share = draw(st.floats(0, 1))
    pixels = np.zeros((height, width, 4), np.uint8)
    chosen = rng.random((height, width)) < share
    picks = np.array(COLOURS, np.uint8)[rng.integers(0, len(COLOURS), (height, width))]
    pixels[..., :3] = np.where(chosen[..., None], picks,
                               rng.integers(0, 256, (height, width, 3), np.uint8))
    pixels[..., 3] = draw(st.sampled_from([0, 255, 128])) if draw(st.booleans()) else 255
    image = Image.fromarray(pixels, "RGBA")
    if mode == "I;16":
        image = Image.fromarray(pixels[..., 0].astype(np.uint16) * 257)
    elif mode != "RGBA":
        image = image.convert(mode)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@st.composite
def damaged_pngs(draw: st.DrawFn) -> bytes:
    """A shipped map's PNG with bytes overwritten, cut or inserted."""
    data = bytearray((MAPS / "outpost.png").read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["write", "cut", "insert"]))
        chunk = draw(st.binary(min_size=1, max_size=16))
        if action == "write":
            data[where:where + len(chunk)] = chunk
        elif action == "cut":
            del data[where:]
        else:
            data[where:where] = chunk
    return bytes(data)


def sidecar_for(ruleset: str) -> bytes:
    return f"ruleset: {ruleset}\n".encode()


@cases(100)
@given(png=images(), ruleset=st.sampled_from(["skirmish", "puzzle", "descent", None]))
def test_generated_images_are_loaded_or_refused_in_one_sentence(png, ruleset):
    files = {"m.png": png} | ({"m.yaml": sidecar_for(ruleset)} if ruleset else {})
    in_tmp(files, load_engine, "m.png")


@cases(150)
@given(png=damaged_pngs())
def test_damaged_pngs_are_refused_in_one_sentence(png):
    in_tmp({"m.png": png}, load_engine, "m.png")


# -- sidecars -----------------------------------------------------------------------------

trees = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8) | st.integers(-3, 5), inner, max_size=4),
    max_leaves=12,
)
word_texts = sorted(words()) + ["BANANA", "is", ""]
rules = st.builds(lambda a, b, c: f"{a} {b} {c}", st.sampled_from(word_texts),
                  st.sampled_from(["IS", "IS", "AND", "HAS"]), st.sampled_from(word_texts))
classes = st.sampled_from([*units().heroes, "wizard"])
small = st.integers(-2, 12)
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "name": st.text(max_size=10),
    "ruleset": st.sampled_from([*registry.names(), "chess"]),
    "description": st.text(max_size=10),
    "heroes": st.dictionaries(st.sampled_from(["red", "blue", "green"]),
                              st.lists(classes, max_size=4), max_size=3),
    "turn_limit": small,
    "spawn": st.dictionaries(st.sampled_from(["every", "cap", "respawn_after", "rate"]), small,
                             max_size=3),
    "units": st.dictionaries(
        st.sampled_from(["heroes", "minion", "buildings"]),
        st.dictionaries(st.sampled_from([*units().heroes, "hq", "tower", "hp", "damage"]),
                        st.dictionaries(st.sampled_from(["hp", "damage", "range", "moves",
                                                         "glyph"]), small | st.text(max_size=2),
                                        max_size=3) | small, max_size=2), max_size=2),
    "base_rules": st.lists(rules, max_size=4),
    "code": st.sampled_from(["0.137", "0.77", "nim", "0.9", "x", "0.", ""]),
    "misere": st.booleans(),
    "start": st.lists(small, max_size=3),
    "exit": st.lists(small, max_size=3),
    "costs": st.dictionaries(st.sampled_from(["move", "push", "jump"]), small, max_size=2),
    "stars": st.dictionaries(st.integers(0, 4), small, max_size=3),
    "optimal": small,
    "needs_push": st.booleans(),
    "solution": st.text("udlrs", max_size=8),
}


@st.composite
def sidecars(draw: st.DrawFn) -> Any:
    """Random YAML trees over the schema's keys: plausible values, often of the wrong type."""
    if draw(st.integers(0, 20)) == 0:
        return draw(trees)  # not even a mapping, sometimes
    every = sorted({key for schema in (Sidecar, SkirmishSidecar, PuzzleSidecar, DescentSidecar,
                                       OctalSidecar) for key in schema.__struct_fields__})
    keys = draw(st.lists(st.sampled_from([*every, "colour"]), max_size=5, unique=True))
    raw = {}
    for key in keys:
        wrong = draw(st.booleans()) and draw(st.booleans())
        raw[key] = draw(trees) if wrong or key not in PLAUSIBLE else draw(PLAUSIBLE[key])
    return raw


MAP_FOR = {"skirmish": "outpost.png", "puzzle": "outpost.png", "octal": "octal/kayles.png",
           "descent": "descent/tower.png"}


@cases(100)
@given(raw=sidecars())
def test_generated_sidecars_are_loaded_or_refused_in_one_sentence(raw):
    ruleset = raw.get("ruleset") if isinstance(raw, dict) else None
    base = MAP_FOR.get(ruleset if isinstance(ruleset, str) else "", "outpost.png")
    text = yaml.safe_dump(raw).encode()

    def load(path: Path) -> None:
        engine = load_engine(path)
        engine.legal_actions()

    in_tmp({"m.png": (MAPS / base).read_bytes(), "m.yaml": text}, load, "m.png")


# -- levels -------------------------------------------------------------------------------

keke_text = st.text(alphabet="_.\n bfrwksBFRWK1234567890&[]%$zZ#", max_size=400)
descent_text = st.text(alphabet="0123456789 \n#-x", max_size=300)


@cases(200)
@given(text=keke_text)
def test_generated_keke_levels_are_loaded_or_refused_in_one_sentence(text):
    in_tmp({"l.keke": text.encode()}, lambda p: load_engine(p).legal_actions(), "l.keke")


@cases(200)
@given(text=descent_text, sidecar=st.none() | sidecars())
def test_generated_descent_levels_are_loaded_or_refused_in_one_sentence(text, sidecar):
    files = {"l.txt": text.encode()}
    if sidecar is not None:
        files["l.yaml"] = yaml.safe_dump(sidecar).encode()
    in_tmp(files, lambda p: load_engine(p).legal_actions(), "l.txt")


# -- replays and saves --------------------------------------------------------------------


def recorded_save() -> dict[str, Any]:
    """A save of a short game on outpost (map path absolute, so any folder can read it)."""
    from game.session.saves import game_record

    engine = load_engine(MAPS / "outpost.png", seed=4)
    seats = make_seats(engine, {"red": "random", "blue": "heuristic"}, 4)
    for _ in range(12):
        side = engine.side
        engine.submit(seats[side].ai.choose(engine, seats[side].rng, Budget()))
    record = game_record(engine, seats, 4)
    record.map_path = str(MAPS / "outpost.png")
    return record.to_json()


SAVE = recorded_save()
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)


@st.composite
def mutated_saves(draw: st.DrawFn) -> dict[str, Any]:
    """The save with a few values replaced (anywhere in the tree), keys dropped or added."""
    data = json.loads(json.dumps(SAVE))
    for _ in range(draw(st.integers(1, 3))):
        node: Any = data
        path = []
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                       else list(range(len(node)))))
            path.append((node, key))
            node = node[key]
        if not path:
            key = draw(st.sampled_from(sorted(data)))
            path.append((data, key))
        parent, key = path[-1]
        action = draw(st.sampled_from(["replace", "replace", "drop"]))
        if action == "drop" and isinstance(parent, dict):
            del parent[key]
        else:
            parent[key] = draw(json_values)
    return data


def resume(path: Path) -> None:
    """What `play --resume` and `replay` do with the file."""
    record = read_record(path)
    verify(record, path)
    from game.session.replay import rebuild

    engine: Engine = rebuild(record, path)
    resumed_seats(engine, record, path)


@cases(200)
@given(data=mutated_saves())
def test_mutated_saves_and_replays_are_resumed_or_refused_in_one_sentence(data):
    in_tmp({"s.json": json.dumps(data).encode()}, resume, "s.json")


def test_the_unmutated_save_resumes() -> None:
    """The fuzzed saves start from one that works, so a refusal above means a mutation."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.json"
        path.write_text(json.dumps(SAVE))
        resume(path)
