"""Match statistics: score with a Wilson interval, Elo differences, a batch Bradley-Terry fit.

A draw counts half a win everywhere. Elo here is the logistic scale: a difference D means an
expected score of 1 / (1 + 10 ** (-D / 400)). Ratings come from a maximum-likelihood fit over
all games at once, so the order the games were played in changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
ELO_CAP = 800.0  # shown instead of infinity when one side scored everything


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of one player (or one side) over a set of games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)


def wilson(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (points out of games); (0, 1) for no games."""
    if games <= 0:
        return (0.0, 1.0)
    p = points / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_of_score(score: float) -> float:
    """The Elo difference that predicts `score`, capped at +-ELO_CAP for 0% and 100%."""
    if score <= 0.0:
        return -ELO_CAP
    if score >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400.0 * math.log10(1.0 / score - 1.0)))


def elo_difference(tally: Tally) -> tuple[float, float, float]:
    """(Elo difference, low, high): the score and its Wilson interval on the Elo scale."""
    lo, hi = wilson(tally.points, tally.games)
    return (elo_of_score(tally.score), elo_of_score(lo), elo_of_score(hi))


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float


def bradley_terry(names: Sequence[str], results: Sequence[tuple[str, str, float]],
                  iterations: int = 10_000, tol: float = 1e-10,
                  prior_games: float = 0.0) -> list[Rating]:
    """Fit ratings to every game at once by maximum likelihood (Bradley-Terry, Elo scale).

    `results` holds (a, b, score of a) per game: 1 win, 0.5 draw, 0 loss. Ratings are centred on
    a mean of 0. `prior_games` adds that many drawn games between each player and a virtual
    0-rated opponent, which keeps a player who won or lost everything at a finite rating; with 0
    such a player's rating is capped at +-ELO_CAP. Intervals are 95% from the observed
    information (the Hessian of the log-likelihood) with the mean fixed at 0.
    """
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    wins = np.zeros((n, n))  # wins[i, j]: points i took from j
    for a, b, s in results:
        i, j = index[a], index[b]
        wins[i, j] += s
        wins[j, i] += 1.0 - s
    games = wins + wins.T
    points = wins.sum(axis=1)
    played = games.sum(axis=1)
    # Minorise-maximise (Hunter 2004) on strengths p = 10 ** (elo / 400).
    p = np.ones(n)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1) + prior_games * 2 / (p + 1)
        new = (points + prior_games) / np.where(denom > 0, denom, 1.0)
        new = np.clip(new, 1e-12, 1e12)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    elo = 400.0 * np.log10(p)
    elo = np.clip(elo - elo.mean(), -ELO_CAP, ELO_CAP)
    se = _standard_errors(p, games, prior_games)
    ratings = []
    for name, i in index.items():
        half = Z95 * se[i]
        ratings.append(Rating(name, float(elo[i]), float(max(-ELO_CAP, elo[i] - half)),
                              float(min(ELO_CAP, elo[i] + half)), int(played[i]),
                              float(points[i] / played[i]) if played[i] else 0.0))
    return ratings


def _standard_errors(p: np.ndarray, games: np.ndarray, prior_games: float) -> np.ndarray:
    """Standard errors on the Elo scale from the information matrix, mean constrained to 0."""
    n = len(p)
    scale = 400.0 / math.log(10.0)
    r = np.log(p)
    prob = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # P(i beats j)
    info = -games * prob * (1 - prob)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1) + prior_games * 2 * p / (1 + p) ** 2)
    # Fix the gauge (mean 0) by projecting onto the space orthogonal to the all-ones vector.
    centre = np.eye(n) - np.ones((n, n)) / n
    try:
        cov = centre @ np.linalg.pinv(info) @ centre
        var = np.clip(np.diag(cov), 0.0, None)
    except np.linalg.LinAlgError:  # pragma: no cover - pinv rarely fails
        var = np.full(n, np.inf)
    with np.errstate(invalid="ignore"):
        se = np.sqrt(var) * scale
    return np.where(np.isfinite(se), se, ELO_CAP)
