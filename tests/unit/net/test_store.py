"""The server's store: the journal makes a batch durable with one fsync, and what a crash
left only in the journal reaches the game's log on the next start."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.errors import UserError
from game.net.store import STORE_FORMAT, GameMeta, Line, Store


def _meta(game: str) -> GameMeta:
    return GameMeta(STORE_FORMAT, game, "maps/duel.png", "0" * 64, "skirmish", 1,
                    ["red", "blue"], {}, 0.0)


def _commands(store: Store, game: str, count: int, first: int = 1) -> None:
    store.commit([(game, Line(n, f"c{n}", "red", {"type": "EndTurn"}))
                  for n in range(first, first + count)])


def test_lines_only_the_journal_holds_are_written_into_the_log_on_the_next_start(
        tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.create(_meta("A" * 12))
    store.create(_meta("B" * 12))
    _commands(store, "A" * 12, 3)
    _commands(store, "B" * 12, 2)
    log = tmp_path / "games" / ("A" * 12) / "log.jsonl"
    log.write_text(log.read_text().splitlines(keepends=True)[0])  # a crash before the logs
    store.close()

    loaded = {stored.meta.game: stored for stored in Store(tmp_path).load()
              if not isinstance(stored, str)}

    assert [line.n for line in loaded["A" * 12].lines] == [1, 2, 3]
    assert [line.n for line in loaded["B" * 12].lines] == [1, 2]
    assert len(log.read_text().splitlines()) == 3
    assert (tmp_path / "journal.jsonl").read_bytes() == b""  # checkpointed


def test_a_torn_last_line_is_cut_and_a_log_out_of_order_leaves_only_its_game_out(
        tmp_path: Path, capsys) -> None:
    store = Store(tmp_path)
    store.create(_meta("A" * 12))
    store.create(_meta("B" * 12))
    _commands(store, "A" * 12, 2)
    _commands(store, "B" * 12, 2)
    store.checkpoint()
    with open(tmp_path / "journal.jsonl", "ab") as journal:
        journal.write(b'{"game": "AAAAAAAAAAAA", "at": 3, "li')  # killed mid-append
    broken = tmp_path / "games" / ("B" * 12) / "log.jsonl"
    broken.write_text(broken.read_text().splitlines(keepends=True)[1])  # command 2 alone
    store.close()

    loaded = list(Store(tmp_path).load())

    games = [stored.meta.game for stored in loaded if not isinstance(stored, str)]
    notes = [stored for stored in loaded if isinstance(stored, str)]
    assert games == ["A" * 12]
    assert len(notes) == 1 and "is command 2, not 1" in notes[0]
    assert (tmp_path / "journal.jsonl").read_bytes() == b""
    assert "cut a torn last line" in capsys.readouterr().err


def test_a_second_store_on_the_same_folder_is_refused_until_the_first_lets_go(
        tmp_path: Path) -> None:
    first = Store(tmp_path)
    with pytest.raises(UserError, match="another `rulefront serve` keeps its games there"):
        Store(tmp_path)
    first.close()
    Store(tmp_path).close()
