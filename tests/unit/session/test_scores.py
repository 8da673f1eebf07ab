"""The score file: each player's best per level, and a corrupt file set aside with a warning."""

from __future__ import annotations

from game.session.scores import load_scores, record_score


def test_scores_keep_each_players_best(tmp_path):
    path = tmp_path / "scores.json"
    assert record_score("lvl", "ada", 12, path)
    assert not record_score("lvl", "ada", 14, path)
    assert record_score("lvl", "ada", 9, path)
    assert load_scores(path) == {"lvl": {"ada": 9}}


def test_a_corrupt_score_file_is_set_aside_with_a_warning(tmp_path, capsys):
    path = tmp_path / "scores.json"
    path.write_text("{not json")
    assert load_scores(path) == {}
    assert "warning" in capsys.readouterr().err
    assert list(tmp_path.glob("scores.json.corrupt-*"))
    assert record_score("lvl", "bo", 3, path)
