"""Self-play tuning of the heuristic's weights with CMA-ES, and the report that judges the result.

A candidate is a vector x of log-multipliers, one per weight of data/ai.yaml's `heuristic:`
section: weight = old weight * exp(x). Each generation writes its candidates as weights files,
plays every candidate against the old weights (swapped pairs on the same seeds, so all
candidates of a generation meet the same games), and gives CMA-ES one minus each score. The
result is CMA-ES's mean (its best estimate, steadier than the luckiest candidate), written as a
whole ai.yaml, then judged by a separate, larger match of tuned against old weights on fresh
seeds: score, Wilson interval, Elo difference.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import yaml

from game.levels.files import atomic_write
from game.progress import Progress
from game.tournament.backends import make_backend, run_games
from game.tournament.games import GameOutcome, GameSpec, swapped_pairs, tally_of
from game.tournament.stats import elo_difference, wilson
from systems.ai import Budget
from systems.ai.evaluate import AI_YAML, HeuristicWeights, heuristic_weights

FIXED = ("defend_radius",)  # a distance in cells, not a weight: left as it is
VALIDATION_SEED = 1_000_000  # validation games never reuse a tuning seed


def tuned_fields() -> list[str]:
    return [f.name for f in fields(HeuristicWeights) if f.name not in FIXED]


def weights_of(x: Sequence[float], base: HeuristicWeights) -> HeuristicWeights:
    """The weights a candidate stands for (each old weight times exp of its coordinate)."""
    values = asdict(base)
    for name, xi in zip(tuned_fields(), x, strict=True):
        values[name] = round(values[name] * math.exp(float(xi)), 4)
    return HeuristicWeights(**values)


def write_weights(path: Path, w: HeuristicWeights) -> None:
    """A whole ai.yaml: data/ai.yaml's evaluation section with these heuristic weights."""
    from game.data import load_yaml

    evaluation = {name: float(value) for name, value in load_yaml(AI_YAML)["evaluation"].items()}
    text = ("# Heuristic weights tuned by `rulefront tune` (CMA-ES on self-play); the evaluation\n"
            "# section is data/ai.yaml's. Use with --red heuristic:weights=THIS_FILE.\n"
            + yaml.safe_dump({"evaluation": evaluation, "heuristic": asdict(w)}, sort_keys=False))
    atomic_write(path, text.encode())


def cma_minimize(objective: Callable[[list[list[float]]], list[float]], x0: Sequence[float],
                 sigma: float, generations: int, popsize: int, seed: int,
                 on_generation: Callable[[int, float, list[float]], None] | None = None
                 ) -> tuple[list[float], list[dict[str, Any]]]:
    """CMA-ES (package `cma`) on a batch objective: (its final mean, one log row per generation).

    `objective` gets a whole generation at once, so its games can run side by side.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import cma

    es = cma.CMAEvolutionStrategy(list(x0), sigma, {
        "popsize": popsize, "seed": seed + 1, "verbose": -9, "verb_log": 0, "verb_disp": 0})
    log = []
    for generation in range(generations):
        candidates = [list(map(float, c)) for c in es.ask()]
        values = objective(candidates)
        es.tell(candidates, values)
        mean = [float(v) for v in es.mean]
        log.append({"generation": generation + 1, "best": min(values),
                    "median": sorted(values)[len(values) // 2], "sigma": float(es.sigma)})
        if on_generation:
            on_generation(generation + 1, min(values), mean)
    return [float(v) for v in es.mean], log


@dataclass
class TuneConfig:
    maps: list[str]
    games: int  # games per candidate per map in each generation (even: swapped pairs)
    generations: int
    popsize: int
    sigma: float
    seed: int
    workers: int
    backend: str
    address: str | None
    out: Path  # the tuned weights file
    validate: int  # games of tuned against old weights, on all maps together
    progress: bool


def _play(specs: list[GameSpec], cfg: TuneConfig, progress: Progress, done: int,
          total: int, detail: str) -> list[GameOutcome]:
    def shown(n: int, _of: int) -> None:
        progress.update(done + n, total, detail)

    backend = make_backend(cfg.backend, cfg.workers, cfg.address)
    return run_games(specs, backend=backend, progress=shown)


def score_against(outcomes: Sequence[GameOutcome], seat: str) -> float:
    return tally_of(outcomes, seat).score


def tune(cfg: TuneConfig) -> dict[str, Any]:
    """Run CMA-ES, write cfg.out, play the validation match; the report as a dict."""
    base = heuristic_weights()
    old = "heuristic"
    work = cfg.out.parent / f"{cfg.out.stem}-candidates"
    work.mkdir(parents=True, exist_ok=True)
    per_gen = cfg.popsize * cfg.games * len(cfg.maps)
    total = per_gen * cfg.generations + cfg.validate
    progress = Progress("tune", cfg.progress)
    played = 0
    best_text = ""

    def objective(candidates: list[list[float]]) -> list[float]:
        nonlocal played
        generation = played // per_gen
        specs: list[GameSpec] = []
        seats = []
        for i, x in enumerate(candidates):
            path = work / f"gen{generation + 1:02d}-cand{i + 1:02d}.yaml"
            write_weights(path, weights_of(x, base))
            seat = f"heuristic:weights={path}"
            seats.append(seat)
            for map_path in cfg.maps:
                specs += swapped_pairs(map_path, seat, old, cfg.games,
                                       cfg.seed + generation * 10_000, Budget(), None,
                                       len(specs))
        outcomes = _play(specs, cfg, progress, played, total,
                         f"generation {generation + 1}/{cfg.generations} {best_text}")
        played += len(specs)
        return [1.0 - score_against(outcomes, seat) for seat in seats]

    def shown(generation: int, best: float, _mean: list[float]) -> None:
        nonlocal best_text
        best_text = f"best score {1 - best:.3f}"

    x0 = [0.0] * len(tuned_fields())
    mean, log = cma_minimize(objective, x0, cfg.sigma, cfg.generations, cfg.popsize, cfg.seed,
                             shown)
    tuned = weights_of(mean, base)
    write_weights(cfg.out, tuned)
    report: dict[str, Any] = {
        "maps": cfg.maps, "generations": log, "popsize": cfg.popsize,
        "games_per_candidate": cfg.games * len(cfg.maps), "sigma": cfg.sigma, "seed": cfg.seed,
        "weights_file": str(cfg.out),
        "changes": {name: [getattr(base, name), getattr(tuned, name)] for name in tuned_fields()
                    if getattr(base, name) != getattr(tuned, name)},
    }
    if cfg.validate:
        seat = f"heuristic:weights={cfg.out}"
        specs: list[GameSpec] = []
        per_map = max(2, cfg.validate // len(cfg.maps) // 2 * 2)
        for map_path in cfg.maps:
            specs += swapped_pairs(map_path, seat, old, per_map, VALIDATION_SEED + cfg.seed,
                                   Budget(), None, len(specs))
        outcomes = _play(specs, cfg, progress, played, total, "validation")
        report["validation"] = validation_report(outcomes, seat)
    progress.close()
    return report


def validation_report(outcomes: Sequence[GameOutcome], seat: str) -> dict[str, Any]:
    """Tuned against old: games, wins, draws, losses, score, Wilson interval, Elo difference."""
    tally = tally_of([o for o in outcomes if not o.error], seat)
    lo, hi = wilson(tally.points, tally.games)
    elo, elo_lo, elo_hi = elo_difference(tally)
    return {"games": tally.games, "wins": tally.wins, "draws": tally.draws,
            "losses": tally.losses, "score": round(tally.score, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "elo": [round(elo, 1), round(elo_lo, 1), round(elo_hi, 1)],
            "ship": lo > 0.5, "errors": sum(1 for o in outcomes if o.error)}


def report_text(report: dict[str, Any]) -> str:
    lines = [f"CMA-ES on {', '.join(report['maps'])}: {len(report['generations'])} generations "
             f"of {report['popsize']}, {report['games_per_candidate']} games per candidate "
             f"against the old weights"]
    for row in report["generations"]:
        lines.append(f"  generation {row['generation']}: best score {1 - row['best']:.3f}, "
                     f"median {1 - row['median']:.3f}, sigma {row['sigma']:.3f}")
    lines.append(f"tuned weights written to {report['weights_file']}; changed: " + ", ".join(
        f"{k} {a:g}->{b:g}" for k, (a, b) in report["changes"].items()))
    v = report.get("validation")
    if v:
        elo, lo, hi = v["elo"]
        lines.append(f"validation, tuned vs old, sides swapped: {v['games']} games, "
                     f"{v['wins']}-{v['draws']}-{v['losses']}, score {v['score']:.3f} "
                     f"[{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}], Elo {elo:+.0f} "
                     f"[{lo:+.0f}, {hi:+.0f}]: "
                     + ("better (interval above 0.5), worth shipping" if v["ship"] else
                        "not shown better (interval reaches 0.5): keep data/ai.yaml"))
    return "\n".join(lines)


__all__ = ["AI_YAML", "TuneConfig", "cma_minimize", "report_text", "tune", "weights_of"]
