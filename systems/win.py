"""How a skirmish ends: a headquarters falls, a side loses every hero, a side's WIN unit or
building falls, or time runs out."""

from __future__ import annotations

from typing import Any

from components import Health, Kind, Team, Turn
from components.match import DRAW
from components.resources import FALLEN_KEY
from game.events import Event, Won
from game.world import World

SCORED = ("hq", "tower", "hero")


def standing(world: World, sides: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """Per side: how many HQs and heroes still stand, and the HP left on HQ, tower and heroes."""
    tally = {side: {"hq": 0, "hero": 0, "hp": 0} for side in sides}
    for _entity, (kind, team, health) in world.query(Kind, Team, Health):
        if health.hp <= 0 or team.side not in tally:
            continue
        row = tally[team.side]
        if kind.name in ("hq", "hero"):
            row[kind.name] += 1
        if kind.name in SCORED:
            row["hp"] += health.hp
    return tally


def _all_stand(world: World, sides: tuple[str, ...]) -> bool:
    """Whether every side still has a headquarters and a hero standing. One of each found
    standing are asked first (kept while no entity comes or goes, World.from_query): those
    still of their kind and alive are the same answer, without the walk through every
    unit."""
    witnesses = world.from_query(("win", sides), (Kind, Team, Health),
                                 lambda found: _standing_witnesses(found, sides))
    if witnesses is not None and all(kind.name == name and health.hp > 0
                                     for kind, health, name in witnesses):
        return True
    return _standing_witnesses(world.query(Kind, Team, Health), sides) is not None


def _standing_witnesses(found: list[Any], sides: tuple[str, ...]
                        ) -> list[tuple[Kind, Health, str]] | None:
    """The (Kind, Health, name) of one headquarters and one hero of each side standing
    among `found` (Kind, Team, Health query pairs), or None when a side lacks one."""
    needed = {(side, name) for side in sides for name in ("hq", "hero")}
    witnesses = []
    for _entity, (kind, team, health) in found:
        name = kind.name
        if (name == "hero" or name == "hq") and health.hp > 0 \
                and (team.side, name) in needed:
            needed.discard((team.side, name))
            witnesses.append((kind, health, name))
            if not needed:  # the map's own units come first, by id: found early
                return witnesses
    return None


def decide(world: World, turn_entity: int, sides: tuple[str, ...], turn_limit: int) -> list[Event]:
    """Set the winner on the Turn component when the match is over."""
    turn = world.get(turn_entity, Turn)
    if turn.over:
        return []
    fallen = world.resource(FALLEN_KEY, ())
    if turn.round <= turn_limit and not fallen and _all_stand(world, sides):
        return []  # the usual answer, asked after every action: found without the tally
    tally = standing(world, sides)
    lost = {}
    for side in sides:
        if side in fallen:
            lost[side] = f"a WIN {side} unit or building fell"
        elif tally[side]["hq"] == 0:
            lost[side] = f"the {side} headquarters was destroyed"
        elif tally[side]["hero"] == 0:
            lost[side] = f"every {side} hero fell"
    red, blue = sides
    if len(lost) == 2:
        winner, reason = DRAW, f"{lost[red]} and {lost[blue]}"
    elif lost:
        loser = next(iter(lost))
        winner, reason = (blue if loser == red else red), lost[loser]
    elif turn.round > turn_limit:
        hp = {side: tally[side]["hp"] for side in sides}
        detail = f"turn limit: {red} {hp[red]} HP, {blue} {hp[blue]} HP"
        winner = DRAW if hp[red] == hp[blue] else max(sides, key=lambda s: hp[s])
        reason = detail
    else:
        return []
    world.update(turn_entity, Turn, over=True, winner=winner, reason=reason)
    return [Won(winner, reason)]


def out_of_turns(world: World, turn_entity: int, side: str, round_: int,
                 deadline: tuple[str, int], sides: tuple[str, ...]) -> list[Event]:
    """A challenge's limit: when `side` ends its turn of round `round_` without having won and
    the deadline gives that side no more turns, the other side wins."""
    player, turns = deadline
    if side != player or round_ < turns:
        return []
    winner = next(s for s in sides if s != player)
    reason = f"{player} did not win within {turns} turn{'s' if turns != 1 else ''}"
    world.update(turn_entity, Turn, over=True, winner=winner, reason=reason)
    return [Won(winner, reason)]
