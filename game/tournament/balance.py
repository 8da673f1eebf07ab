"""Map balance: the same AI on both sides, many seeds; who wins, who deals the damage, who dies
where, and which rules the words made and unmade.

With one AI in both seats nothing but the map (and moving first) separates the sides, so a red
score far from 0.5 is the map's doing. Damage and kills are credited to what dealt them: a
hero's class, or minion, tower or HQ; deaths are counted on the cell where the unit fell. A rule
formed or broken is credited to the side whose command did it (read from the command's
RuleFormed / RuleBroken events, as the log tells them: game/session/rulesense.py `changes`),
and summed with that side's result in the game, so a map maker sees whether making or breaking
a sentence wins.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components import Kind, Position, Team, UnitClass
from components.match import DRAW
from game.events import Attacked, Damaged, Died
from game.levels.loader import load_engine
from game.session.rulesense import changes
from game.session.seat import Forfeited, close_seats, make_seats, step
from game.tournament.stats import wilson
from systems.ai import Budget

MAX_COMMANDS = 50_000


@dataclass
class BalanceGame:
    """What one mirrored game left behind."""

    seed: int
    winner: str
    rounds: int
    damage: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> source -> hp
    kills: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> source -> kills
    deaths: list[tuple[int, int, str, str]] = field(default_factory=list)  # x, y, side, kind
    # each rule change in play order: rule, "formed" or "broken", the side whose command did it
    rules: list[tuple[str, str, str]] = field(default_factory=list)


def source_of(world: Any, entity: int) -> str:
    """What gets the credit for a hit: a hero's class, else the unit's kind."""
    cls = world.try_get(entity, UnitClass)
    if cls is not None:
        return str(cls.name)
    kind = world.try_get(entity, Kind)
    return kind.name if kind is not None else "other"


def play_balance_game(map_path: str, ai: str, seed: int,
                      budget: Budget | None = None) -> BalanceGame:
    """One game of `ai` against itself on `map_path`, with every hit and death counted."""
    engine = load_engine(map_path, seed=seed)
    world = engine.world
    seats = make_seats(engine, {"red": ai, "blue": ai}, seed, budget)
    game = BalanceGame(seed, DRAW, 0)
    where: dict[int, tuple[int, int, str, str]] = {}
    # who gets the credit, kept from before each command: a dead attacker's class is gone after
    sources: dict[int, tuple[str, str]] = {}

    def look() -> None:
        for entity, (pos, team, kind) in world.query(Position, Team, Kind):
            where[entity] = (pos.x, pos.y, team.side, kind.name)
            if entity not in sources:
                sources[entity] = (source_of(world, entity), team.side)

    look()
    budget = budget or Budget()
    forfeit: Forfeited | None = None
    while not engine.over and len(engine.history) < MAX_COMMANDS:
        outcome = step(seats[engine.side], engine, budget)
        if isinstance(outcome, Forfeited):
            forfeit = outcome  # the other side wins, as in any match (game/session/seat.py)
            break
        mover = engine.side
        engine.submit(outcome.command)
        for rule, change in changes(engine.history[-1].events).items():
            game.rules.append((rule, change, mover))
        last_hit: dict[int, tuple[str, str]] = {}
        attacker: tuple[str, str] | None = None
        for event in engine.history[-1].events:
            if isinstance(event, Attacked):
                attacker = sources.get(event.attacker) or (source_of(world, event.attacker),
                                                           world.get(event.attacker, Team).side)
            elif isinstance(event, Damaged) and attacker is not None:
                name, side = attacker
                row = game.damage.setdefault(side, {})
                row[name] = row.get(name, 0) + event.amount
                last_hit[event.entity] = attacker
            elif isinstance(event, Died):
                x, y, side, kind = where.get(event.entity, (-1, -1, event.side, event.kind))
                game.deaths.append((x, y, event.side, event.kind))
                killer = last_hit.get(event.entity)
                if killer is not None:
                    name, kside = killer
                    row = game.kills.setdefault(kside, {})
                    row[name] = row.get(name, 0) + 1
        look()
    close_seats(seats)
    game.winner = forfeit.winner(engine) if forfeit else engine.outcome[0] if engine.outcome \
        else DRAW
    game.rounds = int(engine.ruleset.report(world).get("round", 0))
    world.close()
    return game


def _play(args: tuple[str, str, int]) -> BalanceGame:
    return play_balance_game(*args)


def run_balance(map_path: str, ai: str, games: int, seed: int, workers: int = 1,
                progress: Any = None) -> list[BalanceGame]:
    """`games` mirrored games on seeds seed, seed+1, ...; in worker processes when asked."""
    jobs = [(map_path, ai, seed + i) for i in range(games)]
    if workers <= 1:
        found = []
        for i, job in enumerate(jobs):
            found.append(_play(job))
            if progress:
                progress(i + 1, games)
        return found
    with ProcessPoolExecutor(workers) as pool:
        found = []
        for i, game in enumerate(pool.map(_play, jobs)):
            found.append(game)
            if progress:
                progress(i + 1, games)
        return found


def summarize(games: Sequence[BalanceGame], map_path: str, ai: str) -> dict[str, Any]:
    """Each side's score with its interval; each damage source's share of damage and kills."""
    n = len(games)
    wins = Counter(g.winner for g in games)
    sides: dict[str, Any] = {}
    for side in ("red", "blue"):
        points = wins[side] + 0.5 * wins[DRAW]
        lo, hi = wilson(points, n)
        sides[side] = {"wins": wins[side], "score": round(points / n, 4) if n else 0.0,
                       "ci95": [round(lo, 4), round(hi, 4)]}
    damage: Counter[str] = Counter()
    kills: Counter[str] = Counter()
    by_side: dict[str, dict[str, Counter[str]]] = {
        s: {"damage": Counter(), "kills": Counter()} for s in ("red", "blue")}
    for g in games:
        for side, row in g.damage.items():
            damage.update(row)
            by_side.setdefault(side, {"damage": Counter(), "kills": Counter()})["damage"].update(row)
        for side, row in g.kills.items():
            kills.update(row)
            by_side.setdefault(side, {"damage": Counter(), "kills": Counter()})["kills"].update(row)
    total_damage, total_kills = sum(damage.values()), sum(kills.values())
    sources = sorted(set(damage) | set(kills), key=lambda s: (-damage[s], s))
    classes = {s: {"damage": damage[s], "kills": kills[s],
                   "damage_share": round(damage[s] / total_damage, 4) if total_damage else 0.0,
                   "kills_share": round(kills[s] / total_kills, 4) if total_kills else 0.0,
                   "by_side": {side: {"damage": by_side[side]["damage"][s],
                                      "kills": by_side[side]["kills"][s]}
                               for side in ("red", "blue")}}
               for s in sources}
    return {"map": map_path, "ai": ai, "games": n, "draws": wins[DRAW], "sides": sides,
            "avg_rounds": round(sum(g.rounds for g in games) / n, 2) if n else 0.0,
            "damage": total_damage, "kills": total_kills, "sources": classes,
            "deaths": sum(len(g.deaths) for g in games),
            "rule_games": sum(1 for g in games if g.rules), "rules": rule_changes(games),
            "balanced": is_balanced(sides["red"]["score"])}


def result_of(game: BalanceGame, side: str) -> float:
    """A side's result in one game: 1 a win, 0.5 a draw, 0 a loss."""
    return 1.0 if game.winner == side else 0.5 if game.winner == DRAW else 0.0


def rule_changes(games: Sequence[BalanceGame]) -> dict[str, dict[str, Any]]:
    """Per rule, per change ("formed", "broken"): how often it happened, in how many games, how
    often by each side, and the changer's score: the mean result, over each game and side that
    made that change at least once, of that side in that game (so 0.5 is a change that does
    not decide games; near 1 a change the winner makes)."""
    found: dict[str, dict[str, Any]] = {}
    for g in games:
        done: set[tuple[str, str, str]] = set()
        for rule, change, side in g.rules:
            row = found.setdefault(rule, {}).setdefault(change, {
                "times": 0, "games": 0, "by_side": {"red": 0, "blue": 0}, "points": 0.0,
                "changers": 0})
            row["times"] += 1
            row["by_side"][side] = row["by_side"].get(side, 0) + 1
            if (rule, change, side) not in done:
                done.add((rule, change, side))
                row["points"] += result_of(g, side)
                row["changers"] += 1
        for made, change in {(r, c) for r, c, _s in done}:
            found[made][change]["games"] += 1
    for rows in found.values():
        for row in rows.values():
            row["score"] = round(row.pop("points") / row["changers"], 4)
    return {rule: found[rule] for rule in sorted(found)}


def is_balanced(red_score: float) -> bool:
    """Red's score within 0.5 +- 0.05, the edges included (0.55 - 0.5 is 0.0500...04 in floats)."""
    return abs(red_score - 0.5) <= 0.05 + 1e-9


def balance_text(s: dict[str, Any]) -> str:
    red, blue = s["sides"]["red"], s["sides"]["blue"]
    lines = [f"{s['games']} games of {s['ai']} against itself on {s['map']} "
             f"(average {s['avg_rounds']:.1f} rounds, {s['draws']} draws)",
             f"red  score {red['score']:.3f} [{red['ci95'][0]:.3f}, {red['ci95'][1]:.3f}], "
             f"{red['wins']} wins",
             f"blue score {blue['score']:.3f} [{blue['ci95'][0]:.3f}, {blue['ci95'][1]:.3f}], "
             f"{blue['wins']} wins",
             f"{'source':<12} {'damage':>7} {'share':>6} {'kills':>6} {'share':>6}  "
             f"red dmg/kills  blue dmg/kills"]
    for name, row in s["sources"].items():
        r, b = row["by_side"]["red"], row["by_side"]["blue"]
        lines.append(f"{name:<12} {row['damage']:>7} {row['damage_share']:>6.3f} "
                     f"{row['kills']:>6} {row['kills_share']:>6.3f}  "
                     f"{r['damage']:>6}/{r['kills']:<6} {b['damage']:>6}/{b['kills']:<6}")
    lines += rules_text(s)
    lines.append(("balanced" if s["balanced"] else "out of balance")
                 + ": red's score is " + ("within" if s["balanced"] else "outside")
                 + " 0.5 +- 0.05")
    return "\n".join(lines)


def rules_text(s: dict[str, Any]) -> list[str]:
    """The rule changes of a summary as lines of a table (one line when there were none)."""
    if not s["rules"]:
        return ["no rule was formed or broken"]
    lines = [f"rules changed in {s['rule_games']} of {s['games']} games (score: the mean "
             "result of the side that made the change, in the games it made it)",
             f"{'rule':<22} {'change':<7} {'times':>5} {'games':>5} {'red':>5} {'blue':>5} "
             f"{'score':>6}"]
    for rule, row in s["rules"].items():
        for change in ("formed", "broken"):
            if change in row:
                r = row[change]
                lines.append(f"{rule:<22} {change:<7} {r['times']:>5} {r['games']:>5} "
                             f"{r['by_side']['red']:>5} {r['by_side']['blue']:>5} "
                             f"{r['score']:>6.3f}")
    return lines


def heatmap_png(map_path: str, games: Sequence[BalanceGame], cell: int = 16) -> bytes:
    """The map, faded, with each cell tinted dark violet by how many units died there (darker:
    more), a colour no map pixel has."""
    from PIL import Image, ImageDraw

    base = Image.open(Path(map_path)).convert("RGBA")
    w, h = base.size
    ground = Image.new("RGBA", base.size, "white")
    ground.alpha_composite(base)
    faded = Image.blend(ground.convert("RGB"), Image.new("RGB", base.size, "white"), 0.6)
    image = faded.resize((w * cell, h * cell), Image.Resampling.NEAREST)
    counts: Counter[tuple[int, int]] = Counter((x, y) for g in games for x, y, _s, _k in g.deaths
                                               if x >= 0)
    top = max(counts.values(), default=0)
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for (x, y), n in counts.items():
        alpha = int(60 + 195 * n / top)
        draw.rectangle([x * cell, y * cell, (x + 1) * cell - 1, (y + 1) * cell - 1],
                       fill=(60, 0, 90, alpha))
    out = image.convert("RGBA")
    out.alpha_composite(overlay)
    ImageDraw.Draw(out).text((4, 2), f"deaths, {len(games)} games, most {top} on one cell",
                             fill=(0, 0, 0, 255))
    buffer = io.BytesIO()
    out.convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()


__all__ = ["BalanceGame", "balance_text", "heatmap_png", "play_balance_game", "run_balance",
           "summarize"]
