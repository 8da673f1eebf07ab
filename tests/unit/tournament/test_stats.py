"""Match statistics against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from game.tournament.stats import (
    ELO_CAP,
    Tally,
    bradley_terry,
    elo_difference,
    elo_of_score,
    wilson,
)


@pytest.mark.parametrize(
    ("points", "games", "low", "high"),
    [
        # p = 0.8, n = 10: centre (0.8 + 1.96^2/20) / (1 + 1.96^2/10), half-width likewise.
        (8, 10, 0.4902, 0.9433),
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (190, 200, 0.9104, 0.9726),
    ],
)
def test_the_wilson_interval_matches_the_hand_computed_bounds(points, games, low, high) -> None:
    lo, hi = wilson(points, games)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_a_wilson_interval_with_no_games_says_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("score", "elo"),
    [(0.5, 0.0), (0.75, 190.849), (0.25, -190.849), (10 / 11, 400.0), (0.0, -ELO_CAP),
     (1.0, ELO_CAP)],
)
def test_an_elo_difference_is_the_logistic_inverse_of_the_score(score, elo) -> None:
    assert elo_of_score(score) == pytest.approx(elo, abs=1e-3)


def test_a_draw_counts_half_a_win() -> None:
    t = Tally(wins=3, draws=2, losses=1)
    assert (t.games, t.points, t.score) == (6, 4.0, pytest.approx(4 / 6))


def test_the_elo_interval_is_the_wilson_interval_on_the_elo_scale() -> None:
    elo, lo, hi = elo_difference(Tally(wins=8, draws=0, losses=2))
    assert elo == pytest.approx(-400 * math.log10(1 / 0.8 - 1))
    assert lo == pytest.approx(-400 * math.log10(1 / 0.49016 - 1), abs=0.05)
    assert hi == pytest.approx(-400 * math.log10(1 / 0.94332 - 1), abs=0.05)


def test_bradley_terry_on_two_players_gives_the_score_difference_and_its_standard_error() -> None:
    # a scored 3 of 4: the fit puts a at +95.4 and b at -95.4 (difference 190.85). The
    # information for the difference is n p (1-p) = 4 * 0.75 * 0.25 = 0.75 (natural log
    # scale); each rating is half the difference, so its standard error is sqrt(1/0.75)/2
    # logits = 0.5774 * 400/ln 10 = 100.3 Elo, and the 95% half-width is 196.6.
    results = [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)]
    a, b = bradley_terry(["a", "b"], results)
    assert a.elo == pytest.approx(95.424, abs=1e-2)
    assert b.elo == pytest.approx(-95.424, abs=1e-2)
    assert a.high - a.elo == pytest.approx(196.58, abs=0.1)
    assert (a.games, a.score) == (4, 0.75)


def test_bradley_terry_does_not_depend_on_the_order_of_the_games() -> None:
    results = ([("a", "b", 1.0)] * 5 + [("b", "c", 1.0)] * 4 + [("a", "c", 0.5)] * 2
               + [("c", "a", 0.0)] * 3 + [("b", "a", 1.0)] * 2 + [("c", "b", 1.0)])
    forward = bradley_terry(["a", "b", "c"], results)
    backward = bradley_terry(["a", "b", "c"], list(reversed(results)))
    for f, r in zip(forward, backward, strict=True):
        assert f.elo == pytest.approx(r.elo, abs=1e-6)
    assert sum(r.elo for r in forward) == pytest.approx(0.0, abs=1e-6)


def test_bradley_terry_solves_the_likelihood_equations() -> None:
    # At the maximum, each player's expected points equal the points scored.
    results = ([("a", "b", 1.0)] * 5 + [("b", "c", 1.0)] * 4 + [("a", "c", 0.5)] * 2
               + [("c", "a", 0.0)] * 3 + [("b", "a", 1.0)] * 2 + [("c", "b", 1.0)])
    ratings = {r.name: r.elo for r in bradley_terry(["a", "b", "c"], results)}
    for player in "abc":
        expected = scored = 0.0
        for x, y, s in results:
            if player in (x, y):
                other = y if player == x else x
                expected += 1 / (1 + 10 ** ((ratings[other] - ratings[player]) / 400))
                scored += s if player == x else 1 - s
        assert expected == pytest.approx(scored, abs=1e-6)


def test_a_clean_sweep_stays_finite_with_a_prior_and_is_capped_without() -> None:
    results = [("a", "b", 1.0)] * 6
    capped = {r.name: r.elo for r in bradley_terry(["a", "b"], results)}
    assert capped == {"a": ELO_CAP, "b": -ELO_CAP}
    shrunk = {r.name: r.elo for r in bradley_terry(["a", "b"], results, prior_games=1.0)}
    assert 0 < shrunk["a"] < ELO_CAP and shrunk["b"] == pytest.approx(-shrunk["a"])
