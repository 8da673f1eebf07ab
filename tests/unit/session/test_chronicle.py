"""The game's log (game.session.narrate.Chronicle): each command told once, when played, with
the names things had then; undone with its command; kept in saves, and told again for saves
that kept none."""

from __future__ import annotations

import json

from game.commands import Attack, EndTurn
from game.session.match import make_seats
from game.session.narrate import Chronicle, sentences
from game.session.replay import read_record, rebuild
from game.session.saves import save_game, told_of
from tests.helpers import engine_for

# a red sage beside a blue duelist and a blue bulwark; a red bulwark far off plays on
ROWS = ["Sd.....", "b......", ".......", ".......", "Q.B...q"]


def sage_killed(tmp_path):
    engine = engine_for(tmp_path, ROWS)
    log = Chronicle(engine)
    sage, duelist, bulwark = (engine.world.at(*cell)[0] for cell in ((0, 0), (1, 0), (0, 1)))
    for command in (EndTurn(), Attack(duelist, sage), Attack(bulwark, sage)):
        assert engine.submit(command).ok
        log.follow()
    assert not engine.world.alive(sage)
    return engine, log


def test_the_line_written_when_the_sage_is_hit_keeps_its_name_after_the_sage_dies(tmp_path):
    engine, log = sage_killed(tmp_path)
    lines = [text for kind, text in log.rows() if kind == "line"]
    assert lines[1] == "blue duelist hits red sage for 5 (2 left)"
    assert lines[2:] == ["blue bulwark hits red sage for 3 (0 left)", "red sage dies"]
    # told again from the world as it is now, as the panel used to, the sage has lost its name
    told_now = sentences(engine.world, engine.history[1].events)
    assert "red sage" not in told_now[0]


def test_rounds_are_headings_and_an_undone_command_leaves_the_log(tmp_path):
    engine, log = sage_killed(tmp_path)
    assert [text for kind, text in log.rows() if kind == "heading"] == \
        ["Round 1 - red", "Round 1 - blue"]
    engine.undo()
    assert log.follow() and log.cuts == 1
    assert log.rows()[-1] == ("line", "blue duelist hits red sage for 5 (2 left)")
    engine.redo()
    log.follow()
    assert log.rows()[-1] == ("line", "red sage dies")


def test_a_save_keeps_the_log_and_resuming_it_shows_the_same_lines(tmp_path):
    engine, log = sage_killed(tmp_path)
    seats = make_seats(engine, {"red": "human", "blue": "human"}, 0)
    save_game(tmp_path / "save.json", engine, seats, 0, log=log.told())
    record = read_record(tmp_path / "save.json")
    told = told_of(record)
    assert told is not None and len(told) == 3
    resumed = rebuild(record)
    assert Chronicle(resumed, told).rows() == log.rows()


def test_the_save_keeps_what_was_told_even_where_telling_it_again_would_differ(tmp_path):
    engine, log = sage_killed(tmp_path)
    seats = make_seats(engine, {"red": "human", "blue": "human"}, 0)
    save_game(tmp_path / "save.json", engine, seats, 0, log=log.told())
    raw = json.loads((tmp_path / "save.json").read_text())
    raw["log"][1]["lines"] = ["as it was told then"]
    (tmp_path / "save.json").write_text(json.dumps(raw))
    record = read_record(tmp_path / "save.json")
    rows = Chronicle(rebuild(record), told_of(record)).rows()
    assert ("line", "as it was told then") in rows


def test_an_older_save_without_a_log_is_told_again_with_the_names_of_the_time(tmp_path):
    engine, log = sage_killed(tmp_path)
    seats = make_seats(engine, {"red": "human", "blue": "human"}, 0)
    save_game(tmp_path / "save.json", engine, seats, 0)  # no log: as saves were before it
    raw = json.loads((tmp_path / "save.json").read_text())
    assert "log" not in raw
    record = read_record(tmp_path / "save.json")
    assert told_of(record) is None
    resumed = rebuild(record)
    key = resumed.world.state_key()
    assert Chronicle(resumed, None).rows() == log.rows()
    assert resumed.world.state_key() == key and len(resumed.history) == 3
