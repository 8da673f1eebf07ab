"""Many games at once: pairs with sides swapped on the same seed, worker processes, summaries.

Game 2k and 2k+1 of a match share one seed and swap the seats, so whatever the first move or
one side of the map is worth cancels out. Games run on a backend (game/backends.py: worker
processes here, or tasks on a Ray cluster); each game is independent and seeded, so the results
do not depend on the backend or the number of workers, and they come back in game order.
Summaries count a draw as half a point and leave out games that failed (counted as errors).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from components.match import DRAW
from game.commands import EndTurn
from game.engine import Engine
from game.events import RuleBroken, RuleFormed
from game.levels.maps import GameMap
from game.session.match import make_seats, play_match
from game.session.replay import record_of, record_text
from game.tournament.stats import Tally, bradley_terry, elo_difference, wilson
from systems.ai import Budget


@dataclass(frozen=True)
class GameSpec:
    """One game to play: who sits where, on which map, with which seed."""

    index: int
    map: str
    red: str
    blue: str
    seed: int
    budget: Budget = field(default_factory=Budget)
    replay_dir: str | None = None


@dataclass
class GameOutcome:
    """How one game went, small enough to send back from a worker process."""

    index: int
    map: str
    red: str
    blue: str
    seed: int
    winner: str  # 'red', 'blue' or 'draw'
    reason: str
    rounds: int
    commands: int
    think: dict[str, float]  # side -> seconds spent choosing, in total
    actions: dict[str, int]  # side -> actions chosen
    replay: str | None = None
    nodes: dict[str, int] = field(default_factory=dict)  # side -> search nodes, searching AIs
    error: str | None = None  # why the game could not be played (tried twice), else None
    rule_changes: dict[str, int] = field(default_factory=dict)  # side -> its commands that
    # formed or broke a rule (rule_changes_by_side)

    def seat(self, side: str) -> str:
        return self.red if side == "red" else self.blue

    def points(self, side: str) -> float:
        return 0.5 if self.winner == DRAW else float(self.winner == side)


def swapped_pairs(map_path: str, a: str, b: str, games: int, seed: int, budget: Budget,
                  replay_dir: str | None = None, start: int = 0) -> list[GameSpec]:
    """`games` games of a against b: even games a is red, odd games the same seed swapped."""
    specs = []
    for i in range(games):
        red, blue = (a, b) if i % 2 == 0 else (b, a)
        specs.append(GameSpec(start + i, map_path, red, blue, seed + i // 2, budget, replay_dir))
    return specs


def play_game(spec: GameSpec, game_map: GameMap,
              map_label: str | None = None) -> tuple[GameOutcome, str]:
    """Play one game on an already decoded map: its outcome and its replay record as JSON text.

    Touches no file, so any worker can run it; `map_label` is the map path the replay records
    (the driver's, so a replay written from a remote game names the map the driver knows).
    """
    engine = Engine.from_game_map(game_map, seed=spec.seed)
    specs = {"red": spec.red, "blue": spec.blue}
    seats = make_seats(engine, specs, spec.seed)
    counters = {}
    for side, seat in seats.items():
        if seat.ai is not None and hasattr(seat.ai, "last"):
            seat.ai = counters[side] = NodeCounter(seat.ai)
    first = engine.side
    result = play_match(engine, seats, spec.seed, spec.budget)
    changes = rule_changes_by_side(engine, first)
    record = record_of(engine, spec.seed, specs, result.forfeit, result.winner)
    if map_label is not None:
        record.map_path = map_label
    engine.world.close()
    outcome = GameOutcome(spec.index, spec.map, spec.red, spec.blue, spec.seed, result.winner,
                          result.reason, result.rounds, len(result.commands),
                          {s: seat.think_seconds for s, seat in seats.items()},
                          {s: seat.actions for s, seat in seats.items()}, None,
                          {s: c.nodes for s, c in counters.items()}, rule_changes=changes)
    return outcome, record_text(record)


def rule_changes_by_side(engine: Engine, first: str) -> dict[str, int]:
    """Side -> how many of its commands formed or broke a rule (by their RuleFormed and
    RuleBroken events), over a game that `first` opened; a side's turn ends with its EndTurn."""
    found: dict[str, int] = {}
    side = first
    after = getattr(engine.ruleset, "next_side", None)  # rulesets of sides; others keep one
    for entry in engine.history:
        if any(type(e) is RuleFormed or type(e) is RuleBroken for e in entry.events):
            found[side] = found.get(side, 0) + 1
        if type(entry.command) is EndTurn and after is not None:
            side = after(side)
    return found


def error_outcome(spec: GameSpec, message: str) -> GameOutcome:
    """The outcome of a game that could not be played: kept in the results, left out of scores."""
    return GameOutcome(spec.index, spec.map, spec.red, spec.blue, spec.seed, "error", message, 0,
                       0, {"red": 0.0, "blue": 0.0}, {"red": 0, "blue": 0}, error=message)


def replay_path(spec: GameSpec) -> Path:
    """Where game `spec` saves its replay (inside spec.replay_dir)."""
    assert spec.replay_dir is not None
    name = f"game-{spec.index + 1:04d}-{_slug(spec.red)}-vs-{_slug(spec.blue)}-seed{spec.seed}"
    return Path(spec.replay_dir) / f"{Path(spec.map).stem}-{name}.json"


class NodeCounter:
    """Wraps a searching AI to add up the nodes it searched (its `last` stats after a choice)."""

    def __init__(self, ai: Any) -> None:
        self.ai = ai
        self.name = ai.name
        self.nodes = 0

    def __getattr__(self, name: str) -> Any:  # what the seat step reads: think, NEEDS, close...
        return getattr(self.__dict__["ai"], name)

    def choose(self, engine: Engine, rng: Any, budget: Budget) -> Any:
        self.ai.last = None
        command = self.ai.choose(engine, rng, budget)
        if self.ai.last is not None:
            self.nodes += self.ai.last.nodes
        return command


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=]+", "_", spec)


# -- summaries -------------------------------------------------------------------------------


def tally_of(outcomes: Iterable[GameOutcome], seat: str, side: str | None = None) -> Tally:
    """Wins, draws and losses of `seat` (on one side, or on both)."""
    wins = draws = losses = 0
    for o in outcomes:
        for s in ("red", "blue"):
            if o.seat(s) != seat or (side is not None and s != side):
                continue
            if o.winner == DRAW:
                draws += 1
            elif o.winner == s:
                wins += 1
            else:
                losses += 1
    return Tally(wins, draws, losses)


def _tally_json(t: Tally) -> dict[str, Any]:
    lo, hi = wilson(t.points, t.games)
    return {"games": t.games, "wins": t.wins, "draws": t.draws, "losses": t.losses,
            "score": round(t.score, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def summarize_match(outcomes: Sequence[GameOutcome], a: str, b: str) -> dict[str, Any]:
    """The match summary `rulefront match --games N --json` prints."""
    first_map = outcomes[0].map if outcomes else None
    failed = [o for o in outcomes if o.error]
    outcomes = [o for o in outcomes if not o.error]
    results: dict[str, Any] = {}
    for seat in dict.fromkeys((a, b)):
        row = _tally_json(tally_of(outcomes, seat))
        row["as_red"] = _tally_json(tally_of(outcomes, seat, "red"))
        row["as_blue"] = _tally_json(tally_of(outcomes, seat, "blue"))
        think = sum(o.think[s] for o in outcomes for s in ("red", "blue") if o.seat(s) == seat)
        acts = sum(o.actions[s] for o in outcomes for s in ("red", "blue") if o.seat(s) == seat)
        row["think_ms_per_action"] = round(1000 * think / acts, 3) if acts else 0.0
        nodes = sum(o.nodes.get(s, 0) for o in outcomes for s in ("red", "blue")
                    if o.seat(s) == seat)
        if nodes:
            row["nodes_per_action"] = round(nodes / acts, 1)
            row["nodes_per_s"] = round(nodes / think, 1) if think else 0.0
        results[seat] = row
    elo, lo, hi = elo_difference(tally_of(outcomes, a))
    sides = {side: sum(o.points(side) for o in outcomes) for side in ("red", "blue")}
    changed = {seat: sum(o.rule_changes.get(s, 0) for o in outcomes for s in ("red", "blue")
                         if o.seat(s) == seat) for seat in dict.fromkeys((a, b))}
    reasons: dict[str, int] = {}
    for o in outcomes:
        reasons[_reason_kind(o.reason)] = reasons.get(_reason_kind(o.reason), 0) + 1
    return {
        "games": len(outcomes),
        "map": first_map,
        "results": results,
        "elo": {"player": a, "opponent": b, "difference": round(elo, 1),
                "ci95": [round(lo, 1), round(hi, 1)]},
        "sides": {side: round(points / len(outcomes), 4) if outcomes else 0.0
                  for side, points in sides.items()},
        "avg_rounds": round(sum(o.rounds for o in outcomes) / len(outcomes), 2) if outcomes else 0,
        "endings": dict(sorted(reasons.items())),
        "rule_changes": {"games": sum(1 for o in outcomes if o.rule_changes),
                         "by_seat": changed},
        "errors": len(failed),
        "error_games": [{"game": o.index + 1, "red": o.red, "blue": o.blue, "seed": o.seed,
                         "error": o.error} for o in failed],
    }


def _reason_kind(reason: str) -> str:
    if " forfeits: " in reason:
        return "forfeit"
    if reason.startswith("turn limit"):
        return "turn limit"
    if "headquarters" in reason:
        return "headquarters destroyed"
    if "hero fell" in reason:
        return "heroes killed"
    return reason or "unknown"


def round_robin(ais: Sequence[str], maps: Sequence[str], games: int, seed: int,
                budget: Budget, replay_dir: str | None = None) -> list[GameSpec]:
    """Every pair of AIs on every map, `games` swapped-pair games each."""
    specs: list[GameSpec] = []
    for map_path in maps:
        for a, b in itertools.combinations(ais, 2):
            specs += swapped_pairs(map_path, a, b, games, seed, budget, replay_dir, len(specs))
    return specs


def summarize_tournament(outcomes: Sequence[GameOutcome], ais: Sequence[str],
                         prior_games: float = 1.0) -> dict[str, Any]:
    """Ratings from one Bradley-Terry fit over every game, and the crosstable."""
    failed = [o for o in outcomes if o.error]
    outcomes = [o for o in outcomes if not o.error]
    errors: dict[tuple[str, str, str], list[GameOutcome]] = {}
    for o in failed:
        a, b = sorted((o.red, o.blue), key=list(ais).index)
        errors.setdefault((o.map, a, b), []).append(o)
    results = [(o.red, o.blue, o.points("red")) for o in outcomes]
    ratings = bradley_terry(list(ais), results, prior_games=prior_games)
    cross: dict[str, dict[str, Any]] = {a: {} for a in ais}
    for a in ais:
        for b in ais:
            if a == b:
                continue
            games = [o for o in outcomes if {o.red, o.blue} == {a, b}]
            t = tally_of(games, a)
            cross[a][b] = round(t.score, 4) if t.games else None
    return {
        "games": len(outcomes),
        "maps": sorted({o.map for o in [*outcomes, *failed]}),
        "ratings": [asdict(r) | {"elo": round(r.elo, 1), "low": round(r.low, 1),
                                 "high": round(r.high, 1), "score": round(r.score, 4)}
                    for r in sorted(ratings, key=lambda r: -r.elo)],
        "prior_games": prior_games,
        "crosstable": cross,
        "results": {a: _tally_json(tally_of(outcomes, a)) for a in ais},
        "errors": [{"map": m, "pair": [a, b], "errors": len(games),
                    "games": [o.index + 1 for o in games], "error": games[0].error}
                   for (m, a, b), games in sorted(errors.items())],
    }
