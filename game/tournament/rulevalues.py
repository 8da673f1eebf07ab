"""`rulefront tune rules`: what each property is worth to a side, measured by simulation on
sampled positions, and written as the `rules` section of an ai.yaml.

Positions come from games the heuristic plays against itself with a share of random actions
(so they differ from seed to seed), at the start of a turn from the fourth turn on, each taken
with probability `every`. At each, systems/ai/rulevalue.py measures every property by
playouts; the section holds each property's mean over all positions of all maps. The report
gives the mean, its standard error and the number of positions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.levels.files import atomic_write
from systems.ai.base import Budget

EPSILON = 0.15  # the share of random actions in the sampling games
FIRST_TURN = 4  # positions are taken from this turn on (the armies have met by then)
MAX_ACTIONS = 800  # a sampling game's length at most


@dataclass(frozen=True)
class RuleTuneConfig:
    maps: tuple[str, ...]
    games: int  # sampling games per map
    turns: int  # turns each playout plays
    every: float  # the chance a turn's start is measured
    seed: int


def properties_measured() -> list[str]:
    """Every property of data/properties.yaml, in its order."""
    from game.data import properties

    return [info.name for info in properties().values()]


def sample_game(map_path: str, seed: int, cfg: RuleTuneConfig) -> list[dict[str, float]]:
    """One sampling game on `map_path`: the measurements at each position it took."""
    from game.levels.loader import load_engine
    from systems.ai.base import evaluator_for
    from systems.ai.heuristic import HeuristicAI
    from systems.ai.rulevalue import property_worth, without_rules

    engine = load_engine(Path(map_path), seed=seed)
    sides = tuple(getattr(engine.ruleset, "sides", ()))
    if len(sides) != 2:
        return []
    evaluate = without_rules(evaluator_for(engine))
    policy, player = HeuristicAI(), HeuristicAI()  # both look at pushes
    props = properties_measured()
    rng = random.Random(seed)
    found: list[dict[str, float]] = []
    turn = 1
    starting = True
    try:
        while not engine.over and len(engine.history) < MAX_ACTIONS:
            if starting and turn >= FIRST_TURN and rng.random() < cfg.every:
                found.append(property_worth(engine, props, sides, cfg.turns,
                                            rng.getrandbits(32), evaluate, policy))
            side = engine.side
            actions = engine.legal_actions()
            command = rng.choice(actions) if rng.random() < EPSILON \
                else player.choose(engine, rng, Budget())
            engine.apply(command)
            starting = engine.side != side
            turn += starting
    finally:
        engine.world.close()
    return found


def measure(cfg: RuleTuneConfig, on_game: Callable[[int, int], None] | None = None
            ) -> dict[str, Any]:
    """Every sampling game on every map; the report: per property its mean worth, standard
    error and positions, and the section's values (rounded to a tenth)."""
    samples: list[dict[str, float]] = []
    total = len(cfg.maps) * cfg.games
    done = 0
    for map_path in cfg.maps:
        for g in range(cfg.games):
            samples += sample_game(map_path, cfg.seed + g, cfg)
            done += 1
            if on_game is not None:
                on_game(done, total)
    rows: dict[str, dict[str, float]] = {}
    for prop in properties_measured():
        values = [s[prop] for s in samples if prop in s]
        n = len(values)
        mean = sum(values) / n if n else 0.0
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        rows[prop] = {"worth": round(mean, 1), "stderr": round(math.sqrt(var / n), 1) if n else 0.0,
                      "positions": n}
    return {"maps": [Path(m).stem for m in cfg.maps], "games": cfg.games, "turns": cfg.turns,
            "every": cfg.every, "seed": cfg.seed, "positions": len(samples),
            "properties": rows, "rules": {p: r["worth"] for p, r in rows.items()}}


def report_text(report: dict[str, Any]) -> str:
    lines = [f"{report['positions']} positions from {report['games']} games on each of "
             f"{', '.join(report['maps'])}; playouts of {report['turns']} turns",
             f"{'property':<10} {'worth':>8} {'+-':>6}  (evaluation points to a side whose every "
             "unit has it)"]
    for prop, row in report["properties"].items():
        lines.append(f"{prop:<10} {row['worth']:>8.1f} {row['stderr']:>6.1f}")
    return "\n".join(lines)


def section_text(report: dict[str, Any], command: str) -> str:
    """The `rules:` section of an ai.yaml, with the command that measured it."""
    lines = ["rules:                 # per property: its worth, in evaluation points, to a side "
             "whose every unit",
             "                       # and building has it; measured by simulation "
             "(systems/ai/rulevalue.py):",
             f"                       # {command}"]
    for prop, value in report["rules"].items():
        lines.append(f"  {prop}: {value}")
    return "\n".join(lines) + "\n"


def with_section(text: str, section: str) -> str:
    """`text` (an ai.yaml) with its `rules:` section replaced by `section` (added at the end
    when it has none); every other line is kept as it is."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("rules:")), None)
    if start is None:
        return text + ("" if text.endswith("\n") or not text else "\n") + section
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
        end += 1
    return "".join(lines[:start]) + section + "".join(lines[end:])


def write_rules(out: Path, report: dict[str, Any], command: str, base: Path) -> None:
    """Write `out`: its own text (else `base`'s, data/ai.yaml) with the measured section."""
    source = out if out.is_file() else base
    text = source.read_text(encoding="utf-8")
    atomic_write(out, with_section(text, section_text(report, command)).encode())
