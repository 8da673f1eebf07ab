"""The spectator page's frames: a game's start scene plus each command's changes rebuild the
scene the game ends in, with the log in sentences, whatever ruleset it plays."""

from __future__ import annotations

import random

import pytest

from game.net.scenes import Frames, scene
from tests.helpers import OUTPOST, load_engine


def played(source: str, commands: int, seed: int = 4):
    engine = load_engine(source, seed=seed)
    rng = random.Random(seed)
    for _ in range(commands):
        if engine.over:
            break
        engine.apply(rng.choice(engine.legal_actions()))
    return engine


def rebuilt(frames: list[dict]) -> dict:
    """What the page's Board does: the start scene, then each frame's set and gone."""
    things = {thing["id"]: thing for thing in frames[0]["scene"]["things"]}
    status = {k: v for k, v in frames[0]["scene"].items() if k != "things"}
    for frame in frames[1:]:
        things.update((thing["id"], thing) for thing in frame["set"])
        for gone in frame["gone"]:
            del things[gone]
        status = frame["status"]
    return {**status, "things": [things[key] for key in sorted(things)]}


@pytest.mark.parametrize("source", [OUTPOST, "octal:0.137:5,7"])
def test_the_start_and_every_change_rebuild_the_scene_the_game_is_in(source):
    engine = played(source, 80)
    frames = Frames(load_engine(source, seed=4))
    frames.follow(engine.commands())
    assert len(frames.frames) == len(engine.history) + 1
    assert rebuilt(frames.since(0)) == scene(engine)


def test_a_frame_tells_its_command_and_events_in_sentences_and_who_played():
    engine = played(OUTPOST, 30)
    frames = Frames(load_engine(OUTPOST, seed=4))
    frames.follow(engine.commands()[:10])
    frames.follow(engine.commands())  # what it has already followed is not applied again
    assert [f["n"] for f in frames.since(25)] == list(range(25, 31))
    ended = next(f for f in frames.frames[1:] if f["command"] == "end turn")
    assert ended["side"] == "red"
    assert any(line.startswith("red ends the turn") for line in ended["lines"])
    moved = frames.frames[1]
    assert moved["set"] and moved["lines"][0].startswith("red ")


def test_a_scene_names_rules_and_who_is_to_play():
    shown = scene(load_engine(OUTPOST))
    assert shown["side"] == "red" and shown["outcome"] is None
    assert "WATER IS STOP" in shown["rules"]
    heroes = [t for t in shown["things"] if t["kind"] == "hero"]
    assert heroes and all({"class", "side", "hp", "max_hp"} <= set(t) for t in heroes)


def test_frames_start_from_a_fresh_engine():
    with pytest.raises(ValueError):
        Frames(played(OUTPOST, 3))


def test_a_long_game_comes_in_pieces_that_join_up():
    from game.net.spectate import FRAMES_PER_ANSWER, Spectate

    # the first random game long enough for three pieces (seed 1 plays 272 commands today)
    engine = next(e for seed in range(1, 40) if len(
        (e := played(OUTPOST, FRAMES_PER_ANSWER * 2 + 30, seed=seed)).history)
        > FRAMES_PER_ANSWER * 2)
    spectate = Spectate()
    got: list[dict] = []
    while len(got) < len(engine.history) + 1:
        piece = spectate.frames("g" * 12, engine, len(got))["frames"]
        assert 0 < len(piece) <= FRAMES_PER_ANSWER
        got += piece
    assert [frame["n"] for frame in got] == list(range(len(engine.history) + 1))
    assert rebuilt(got) == scene(engine)
