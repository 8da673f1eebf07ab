"""Fuzzing the command line over the families of issue 25: hostile seat options and numbers on
flags, hostile sidecars, replays and saves mutated from a real one, and output names. The real
command runs in-process (tests.helpers.run_cli) in a fresh folder; whatever comes in, it exits
0, 1 or 2, never with a traceback, and a refusal (2) is one line on stderr.

Every case is bounded: valid seats play a tiny map, and generated numbers are drawn so that a
value that parses is small. The default run keeps to about 15 s (cases(N) per property);
RULEFRONT_FUZZ_EXAMPLES=N runs N per property instead.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.helpers import draw_map, run_cli

DEEPER = os.environ.get("RULEFRONT_FUZZ_EXAMPLES")
TINY = ["Q..h", "....", "H..q"]  # heroes a step from the enemy: random games end fast


def cases(default: int) -> settings:
    return settings(max_examples=int(DEEPER or default), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    """A fresh working folder two levels deep (names with '..' stay inside it), with the data
    folder inside, and stdin answering 'q'."""
    old_cwd, old_data = os.getcwd(), os.environ.get("XDG_DATA_HOME")
    old_input = builtins.input
    with tempfile.TemporaryDirectory() as top:
        work = Path(top) / "a" / "b"
        work.mkdir(parents=True)
        os.chdir(work)
        os.environ["XDG_DATA_HOME"] = str(Path(top) / "data")
        builtins.input = lambda _prompt="": "q"
        try:
            yield work
        finally:
            os.chdir(old_cwd)
            builtins.input = old_input
            if old_data is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = old_data


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> int:
    code, _, err = run_cli(capsys, *argv)
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("rulefront"), (argv, err)
    event(f"{argv[0]} exit {code}")  # --hypothesis-show-statistics counts them
    return code


# -- numbers: seat options and flags --------------------------------------------------------------

HOSTILE_NUMBERS = ["nan", "NaN", "inf", "-inf", "1e999", "-1e999", "-1", "0", "-0", "1e30",
                   "1" + "0" * 30, "9" * 5000, "", " ", "1.5", "0x10", "١٢", "3600.0001",
                   "100000001", "1e-320", "two", "=", "1,2", "\x00"]


def big(text: str, limit: float = 4) -> bool:
    """Whether `text` reads as a valid number over `limit`: a budget that large would make a
    case slow, not hostile (a tournament of `think=9` seats took ten minutes; the bounds
    themselves are tested in tests/unit/cli). Numbers past every bound stay: they are
    refused at once."""
    try:
        return limit < float(text) <= 3600
    except (ValueError, OverflowError):
        return False


SMALL = st.integers(1, 3).map(str)
NUMBER = st.one_of(st.sampled_from(HOSTILE_NUMBERS),
                   st.text(max_size=6).filter(lambda text: not big(text)))
SECONDS = st.one_of(  # think: seconds per action, so every valid one is tiny
    st.sampled_from([text for text in HOSTILE_NUMBERS if not big(text, 0.05)]),
    st.text(max_size=6).filter(lambda text: not big(text, 0.05)))
OPTIONS = {"minimax": ["think", "nodes", "depth", "width", "turns"],
           "mcts": ["think", "sims", "c", "widen", "turns"]}


@st.composite
def seats(draw: st.DrawFn) -> str:
    """A seat with one hostile option, or a cheap valid one."""
    if draw(st.booleans()):
        return draw(st.sampled_from(["random", "heuristic", "minimax:nodes=20",
                                     "mcts:sims=5", "minimax:depth=1;width=2"]))
    ai = draw(st.sampled_from(sorted(OPTIONS)))
    option = draw(st.sampled_from(OPTIONS[ai] + ["bogus", ""]))
    return f"{ai}:{option}={draw(SECONDS if option == 'think' else NUMBER)}"


@cases(40)
@given(red=seats(), blue=seats(), flag=st.sampled_from(["--games", "--think", "--nodes",
                                                        "--seed", "--workers", None]),
       value=st.one_of(SECONDS, SMALL))
def test_seats_and_numbers_on_the_command_line(capsys, red, blue, flag, value):
    with folder() as work:
        draw_map(work / "tiny.png", TINY)
        extra = [flag, value] if flag else []
        check(capsys, "match", "tiny.png", "--red", red.replace(";", ","),
              "--blue", blue.replace(";", ","), *extra)


@cases(8)
@given(ais=st.lists(seats(), min_size=2, max_size=3), games=st.one_of(NUMBER, SMALL))
def test_tournament_seats_and_counts(capsys, ais, games):
    with folder() as work:
        draw_map(work / "tiny.png", TINY)
        check(capsys, "tournament", "--maps", "tiny.png", "--ais", ",".join(ais),
              "--games", games, "--results", "r.jsonl")


# -- sidecars -----------------------------------------------------------------------------------

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                   st.sampled_from(["skirmish", "octal", "puzzle", "descent", "0.137:misere",
                                    ".inf", "!!python/object:os.system", "*a", "&a x"]),
                   st.lists(st.integers(-3, 3), max_size=3))
KEYS = st.sampled_from(["ruleset", "name", "turn_limit", "rules", "units", "code", "misere",
                        "description", "first", "size", "heaps", "bogus"])


@cases(40)
@given(sidecar=st.dictionaries(KEYS, VALUES, max_size=4), raw=st.sampled_from(
    ["", "a: 1\na: 2\n", "turn_limit: " + "9" * 40 + "\n", "- [\n", "x: !!binary AAAA\n",
     "turn_limit: 1000000000\n", "name: &a [*a]\n", None]))
def test_hostile_sidecars(capsys, sidecar, raw):
    with folder() as work:
        draw_map(work / "tiny.png", TINY)
        if raw is None:
            text = "".join(f"{key}: {json.dumps(value)}\n" for key, value in sidecar.items())
        else:
            text = raw
        (work / "tiny.yaml").write_text(text)
        check(capsys, "map", "check", "tiny.png")
        if check(capsys, "match", "tiny.png", "--red", "random", "--blue", "random") == 0:
            check(capsys, "tournament", "--maps", "tiny.png", "--ais", "random,heuristic",
                  "--games", "2")


# -- replays and saves ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def a_save(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real save on the tiny map: red (human) moved, undid, so the redo stack holds a move."""
    from game.levels.loader import load_engine
    from game.session.match import make_seats
    from game.session.saves import game_record

    work = tmp_path_factory.mktemp("save")
    engine = load_engine(draw_map(work / "tiny.png", TINY), seed=3)
    seats = make_seats(engine, {"red": "human", "blue": "random"}, 3)
    engine.submit(engine.legal_actions()[0])
    engine.undo()
    engine.submit(engine.legal_actions()[-1])
    record = game_record(engine, seats, 3).to_json()
    record["map"] = "tiny.png"
    return record


HOSTILE_VALUES: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, -1, 0, 999, 10**18, -(10**18), 1.5, "x", "", [], {}, True,
                     "os:system", "this:X", "minimax:think=nan", "mcts:c=inf", "human"]),
    st.integers(-20, 20), st.text(max_size=6))


@st.composite
def mutated(draw: st.DrawFn, record: dict[str, Any]) -> dict[str, Any]:
    """The save with up to three of its values replaced by hostile ones."""
    data = json.loads(json.dumps(record))
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["top", "seat", "command", "redo", "rng"]))
        value = draw(HOSTILE_VALUES)
        if where == "top":
            data[draw(st.sampled_from(sorted(data) + ["extra"]))] = value
        elif where == "seat":  # an earlier draw may have made "seats" itself hostile
            seats = data["seats"] if isinstance(data.get("seats"), dict) else {}
            seats[draw(st.sampled_from(["red", "blue"]))] = value
            data["seats"] = seats
        elif where in ("command", "redo"):
            key = "commands" if where == "command" else "redo"
            listed = data.setdefault(key, [])
            if not isinstance(listed, list) or not listed:
                data[key] = [{"type": "Move", "unit": value, "x": 1, "y": 1}]
            else:
                entry = listed[draw(st.integers(0, len(listed) - 1))]
                if isinstance(entry, dict) and entry:
                    entry[draw(st.sampled_from(sorted(entry)))] = value
        else:
            data["rng_states"] = {"red": value, "blue": value}
    return data


@cases(40)
@given(data=st.data(), text_mutation=st.sampled_from(
    [None, "dup", "bigint", "nan", "truncate"]))
def test_hostile_replays_and_saves(capsys, a_save, data, text_mutation):
    record = data.draw(mutated(a_save))
    with folder() as work:
        draw_map(work / "tiny.png", TINY)
        text = json.dumps(record)
        if text_mutation == "dup":
            text = text.replace('"seed":', '"seed": 1, "seed":', 1)
        elif text_mutation == "bigint":
            text = text.replace('"seed":', '"seed": 1' + "0" * 5000 + ', "x":', 1)
        elif text_mutation == "nan":
            text = text.replace('"seed":', '"seed": NaN, "x":', 1)
        elif text_mutation == "truncate":
            text = text[: len(text) // 2]
        (work / "save.json").write_text(text)
        check(capsys, "replay", "save.json")
        check(capsys, "play", "--text", "--plain", "--resume", "save.json")


# -- names we write ---------------------------------------------------------------------------

NAMES = st.one_of(
    st.sampled_from(["", " ", "/", ".", "..", "../..", "/dev/null", "/dev/full", "fifo",
                     "link-to-null", "x" * 300, "deep/" * 5 + "r.json", "a\x00b", "file/x.json",
                     "-", "~", "r.json"]),
    st.text(st.characters(blacklist_characters="\x00/"), min_size=1, max_size=12))


@cases(40)
@given(name=NAMES, flag=st.sampled_from(["--replay", "--save-csv"]))
def test_hostile_output_names(capsys, name, flag):
    with folder() as work:
        draw_map(work / "tiny.png", TINY)
        os.mkfifo(work / "fifo")
        (work / "file").write_text("a file, not a folder")
        (work / "link-to-null").symlink_to("/dev/null")
        if flag == "--replay":
            check(capsys, "match", "tiny.png", "--red", "random", "--blue", "random",
                  "--replay", name)
        else:
            check(capsys, "tournament", "--maps", "tiny.png", "--ais", "random,heuristic",
                  "--games", "2", "--csv", name)
        assert not Path("/dev/null").is_file() and Path("/dev/null").is_char_device()
