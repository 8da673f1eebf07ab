"""The skirmish ruleset: two sides of heroes beside minions, towers and headquarters."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from components import (
    Actions,
    Attack,
    Health,
    Kind,
    Moves,
    Position,
    Spawner,
    Team,
    Turn,
    UnitClass,
    Word,
)
from components.resources import PROPS_KEY, RULES_KEY, SIZE_KEY, SPAWN_CELLS_KEY, TURN_KEY
from game.commands import Attack as AttackCmd
from game.commands import Command, EndTurn, Move
from game.data import SIDES, Units, data_units_with, need, words
from game.errors import UserError
from game.events import Attacked, Damaged, Event, Moved, Pushed, Spawned, TurnEnded, Won
from game.journal import MOVE, SET
from game.registry import Ruleset
from game.rulesets.sides import SidesRuleset
from game.rulesets.skirmish.board import LEGEND, board, describe_command, roster
from game.world import World
from systems import buildings, minions, spawn, win
from systems.board import Occupancy, in_sight
from systems.combat import TurnFoes, attack, deaths, targets
from systems.movement import Steps, move_unit, reach
from systems.occupancy_cache import OccupancyCache
from systems.rules import refresh_rules, set_rules
from systems.stats import named, start_turn
from systems.stats import reach as reach_of
from systems.units_rules import push_moves, push_step, transform_scenery, unit_effects

if TYPE_CHECKING:
    from game.levels.maps import GameMap



@dataclass(frozen=True)
class SkirmishConfig:
    turn_limit: int
    default_heroes: tuple[str, ...]
    spawn_every: int
    spawn_cap: int
    respawn_after: int
    base_rules: tuple[str, ...]
    opaque: tuple[str, ...]
    end_turn: tuple[str, ...]
    checks: tuple[str, ...]
    units: Units
    deadline: tuple[str, int] | None = None  # a challenge's side and the turns it has to win


def parse_config(raw: dict[str, Any]) -> SkirmishConfig:
    where = "skirmish ruleset"
    spawn_raw = need(raw, "spawn", dict, where)
    config = SkirmishConfig(
        turn_limit=need(raw, "turn_limit", int, where),
        default_heroes=tuple(need(raw, "default_heroes", list, where)),
        spawn_every=need(spawn_raw, "every", int, f"{where}: spawn"),
        spawn_cap=need(spawn_raw, "cap", int, f"{where}: spawn"),
        respawn_after=need(spawn_raw, "respawn_after", int, f"{where}: spawn"),
        base_rules=tuple(need(raw, "base_rules", list, where)),
        opaque=tuple(need(raw, "opaque", list, where)),
        end_turn=tuple(need(raw, "end_turn", list, where)),
        checks=tuple(need(raw, "checks", list, where)),
        units=data_units_with(raw.get("units")),
        deadline=_deadline(raw.get("challenge")),
    )
    for name in config.end_turn:
        if name not in END_TURN_SYSTEMS:
            raise UserError(f"{where}: end_turn system '{name}' is unknown; "
                            f"known: {', '.join(END_TURN_SYSTEMS)}.")
    for name in config.checks:
        if name not in ("deaths", "win"):
            raise UserError(f"{where}: check '{name}' is unknown; known: deaths, win.")
    unknown = [h for h in config.default_heroes if h not in config.units.heroes]
    if unknown:
        raise UserError(f"{where}: default hero class '{unknown[0]}' is not in data/units.yaml.")
    return config


def _deadline(goal: Any) -> tuple[str, int] | None:
    """A challenge's (side, turns) from the sidecar's `challenge` (checked by its schema)."""
    if not isinstance(goal, dict):
        return None
    return str(goal.get("side", SIDES[0])), int(goal.get("turns", 1))


# (the ruleset, the world, the occupancy, the side ending its turn, that side's foes)
EndTurnSystem = Callable[["Skirmish", World, Occupancy, str, TurnFoes], list[Event]]

END_TURN_SYSTEMS: dict[str, EndTurnSystem] = {
    "buildings": lambda rules, world, occ, side, foes: buildings.fire(world, side, foes),
    "spawn": lambda rules, world, occ, side, foes: spawn.waves(world, occ, side,
                                                               rules.cfg.units.minion),
    "minions": lambda rules, world, occ, side, foes: minions.march(world, occ, side, foes),
}


class Skirmish(SidesRuleset, Ruleset):
    name = "skirmish"
    sides = SIDES

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.cfg: SkirmishConfig = parse_config(config)
        self._cache: dict[int, tuple[Any, World, dict[Any, Any]]] = {}
        self._static = OccupancyCache(self.cfg.opaque)
        # reach fields by (start, move points, side): a field depends only on the static
        # cells and the enemies' cells, so it outlives the moves of allies
        self._fields: dict[tuple[Any, ...], Field] = {}
        # one Move per unit and cell, by unit, by the cell's rank (y * width + x: sorting
        # ints orders the cells row by row, with no tuple made or compared)
        self._moves: dict[int, dict[int, Move]] = {}
        self._attacks: dict[tuple[int, int], AttackCmd] = {}  # by (unit, target)
        self._steps: Steps | None = None  # the board's steps, while its solid cells stand
        self._rank: dict[tuple[int, int], int] = {}  # each cell's rank on the steps' board
        # legal actions of recent states by journal length, each with its heroes' parts, so a
        # child state one walk away is worked out from its parent (_walked_legal)
        self._legal: dict[int, Legal] = {}

    # -- setting up ------------------------------------------------------------------------

    def setup(self, world: World, game_map: GameMap) -> None:
        cfg = self.cfg
        world.set_resource(SIZE_KEY, (game_map.width, game_map.height))
        set_rules(world, cfg.base_rules)
        classes = self._hero_classes(game_map)
        spawn_cells: dict[str, list[tuple[int, int]]] = {side: [] for side in SIDES}
        counts = {("hq", s): 0 for s in SIDES} | {("hero", s): 0 for s in SIDES}
        word_info = words()
        for x, y, entry in game_map.cells:
            pos = Position(x, y)
            if entry.prefab == "thing":
                world.spawn(pos, Kind(entry.kind))
            elif entry.prefab == "word":
                info = word_info[entry.word]
                world.spawn(pos, Kind("text"), Word(info.text, info.part))
            elif entry.prefab == "spawn":
                spawn_cells[entry.team].append((x, y))
            elif entry.prefab in ("hq", "tower"):
                stats = cfg.units.buildings[entry.prefab]
                parts: list[Any] = [pos, Kind(entry.prefab), Team(entry.team),
                                    Health(stats.hp, stats.hp), Attack(stats.damage, stats.range)]
                if entry.prefab == "hq":
                    parts.append(Spawner(cfg.spawn_every, cfg.spawn_cap, cfg.spawn_every,
                                         cfg.respawn_after))
                world.spawn(*parts)
                counts[(entry.prefab, entry.team)] = counts.get((entry.prefab, entry.team), 0) + 1
            elif entry.prefab == "hero":
                name = entry.hero_class or classes[(x, y)]
                stats = cfg.units.heroes[name]
                world.spawn(pos, Kind("hero"), Team(entry.team), UnitClass(name),
                            Health(stats.hp, stats.hp), Attack(stats.damage, stats.range),
                            Moves(stats.moves, stats.moves), Actions(1, 1))
                counts[("hero", entry.team)] += 1
        for side in SIDES:
            if counts[("hq", side)] != 1:
                found = "no" if counts[("hq", side)] == 0 else f"{counts[('hq', side)]}"
                raise UserError(f"{game_map.path}: has {found} {side} headquarters; a skirmish "
                                f"map has exactly one per side (see `rulefront map legend`).")
            if counts[("hero", side)] == 0:
                raise UserError(f"{game_map.path}: has no {side} hero; paint at least one.")
        if world.query(Word):
            refresh_rules(world)  # words on the map add to the base rules
            transform_scenery(world)
        world.set_resource(SPAWN_CELLS_KEY, spawn_cells)
        self.start_turns(world)
        start_turn(world, self.side_to_play(world))  # what words on the map give the first

    def _hero_classes(self, game_map: GameMap) -> dict[tuple[int, int], str]:
        """Classes for hero pixels that do not name one, by cell.

        Each side reads its list from its own corner: red in reading order, blue in the reading
        order of the board turned half round (bottom row first, right to left). So a map whose
        pixels are point-symmetric and whose sidecar gives both sides the same list puts each
        blue hero where its red twin stands turned round, not in the reversed class order.
        """
        cells = {side: [(x, y) for x, y, e in game_map.cells
                        if e.prefab == "hero" and e.team == side and not e.hero_class]
                 for side in SIDES}
        cells[SIDES[1]].sort(key=lambda cell: (-cell[1], -cell[0]))
        wanted = {side: len(cells[side]) for side in SIDES}
        listed = game_map.sidecar.get("heroes", {}) or {}
        where = f"{game_map.path.with_suffix('.yaml')}"
        if not isinstance(listed, dict):
            raise UserError(f"{where}: 'heroes' must map red/blue to lists of hero classes.")
        result: dict[tuple[int, int], str] = {}
        for side in SIDES:
            names = listed.get(side)
            if names is None:
                pool = list(self.cfg.default_heroes)
                names = [pool[i % len(pool)] for i in range(wanted[side])]
            if not isinstance(names, list) or len(names) < wanted[side]:
                raise UserError(f"{where}: 'heroes: {side}' must list a class for each of the "
                                f"{wanted[side]} {side} hero cells.")
            for name in names:
                if name not in self.cfg.units.heroes:
                    raise UserError(f"{where}: hero class '{name}' is unknown; known: "
                                    f"{', '.join(self.cfg.units.heroes)}.")
            # a list may name more classes than the map has hero cells: the rest go unused
            result.update(zip(cells[side], names, strict=False))
        return result

    # -- questions -------------------------------------------------------------------------

    def describe(self, world: World) -> str:
        turn = self.turn(world)
        if turn.over:
            return f"round {turn.round}: {turn.winner} - {turn.reason}"
        said = f"round {turn.round}/{self.cfg.turn_limit}, {turn.side} to play"
        if self.cfg.deadline is not None:
            player, turns = self.cfg.deadline
            # the player's turns left, this one included (red's come first in a round)
            left = turns - turn.round + (1 if turn.side == player or player == SIDES[1] else 0)
            when = (f"within {left} turns" if left > 1
                    else "this turn" if turn.side == player else "in its next turn")
            said += f"; {player} must win {when}"
        return said

    def status_lines(self, world: World) -> list[str]:
        return [LEGEND, roster(world)]

    def text_board(self, world: World) -> str:
        return board(world)

    def describe_command(self, world: World, command: Command) -> str:
        return describe_command(world, command)

    def state_key(self, world: World) -> Hashable:
        return world.state_key()

    def report(self, world: World) -> dict[str, Any]:
        turn = self.turn(world)
        units = [{"id": entity, "kind": kind.name, "side": team.side, "hp": health.hp,
                  "x": pos.x, "y": pos.y}
                 for entity, (kind, team, health, pos) in world.query(Kind, Team, Health, Position)]
        return {"round": turn.round, "side": turn.side,
                "rules": list(world.resource(RULES_KEY, ())), "units": units}

    def occupancy(self, world: World) -> Occupancy:
        """What stands where, with the map's opaque kinds: the cached answer for this state,
        shared with legal_actions, so a caller must not mutate it."""
        occ: Occupancy = self._derived(world)["occ"]
        return occ

    def _derived(self, world: World) -> dict[Any, Any]:
        """Read-only data derived from the current state (occupancy, reachable cells), cached.

        Searches ask for the same state's occupancy and reach once per legal_actions and once
        per child Move; keyed by world.version(), a cache entry is only ever read in the state
        that made it. Callers must not mutate what they get (end-of-turn systems, which do,
        build their own Occupancy).
        """
        token = world.version()
        slot = self._cache.get(token[1])
        if slot is not None and slot[1] is world and world.same_version(slot[0]):
            return slot[2]
        return self._keep_derived(token, world, self._static.get(world))

    def _keep_derived(self, token: tuple[int, int, Any], world: World, occ: Occupancy,
                      side: str | None = None, enemies: Any = None) -> dict[Any, Any]:
        """Start the derived data of the state `token` names with its occupancy (and the
        enemies of `side`, when known), cached as `_derived` reads it."""
        cache = self._cache
        if len(cache) > 256:
            cache.clear()
        derived: dict[Any, Any] = {"occ": occ}
        if enemies is not None:
            derived[side] = enemies
        cache[token[1]] = (token, world, derived)
        return derived

    def _scratch_occupancy(self, world: World) -> Occupancy:
        """The current occupancy, for a system that marks units it moves or spawns in it."""
        occ = self._derived(world)["occ"]
        return Occupancy(occ.width, occ.height, occ.solid, dict(occ.units), occ.opaque,
                         occ.deadly, occ.pushable)

    def _reach(self, world: World, derived: dict[Any, Any], unit: int) -> dict[tuple[int, int], int]:
        cells = derived.get(unit)
        if cells is None:
            units = derived["occ"].units
            cells = {cell: cost for cell, cost in self._field(world, derived, unit).cost.items()
                     if cost and cell not in units}  # what systems.movement.reachable gives
            derived[unit] = cells
        return cells

    def _field(self, world: World, derived: dict[Any, Any], unit: int) -> Field:
        """`reach` from where `unit` stands, kept while the static cells and the enemies'
        cells within its move points are the ones it was found with (an ally moving changes
        neither, nor does a minion marching elsewhere)."""
        pos = world.get(unit, Position)
        return self._field_at(derived, unit, pos.x, pos.y, world.get(unit, Moves).mp,
                              world.get(unit, Team).side)

    def _field_at(self, derived: dict[Any, Any], unit: int, x: int, y: int, mp: int,
                  side: str) -> Field:
        """_field of `unit` of `side` standing on (x, y) with `mp` move points."""
        occ: Occupancy = derived["occ"]
        enemies = derived.get(side)
        if enemies is None:  # (a list, not a generator: no frame resumed per unit)
            enemies = derived[side] = frozenset(
                [cell for cell, owner in occ.units.items() if owner != side])
        key = (unit, x, y, mp, side)
        field = self._fields.get(key)
        if field is not None and field.solid is occ.solid and field.deadly is occ.deadly \
                and field.width == occ.width and field.height == occ.height:
            if field.enemies is enemies:
                return field
            # enemies more than `mp` steps away cannot stand in the way: after an end of turn
            # the minions have marched, and most of them elsewhere (the cells that came or
            # went, a set operation in C, are the only ones to measure)
            for ex, ey in field.enemies ^ enemies:
                if abs(ex - x) + abs(ey - y) <= mp:
                    break
            else:  # (only this reads a field's enemies: the field is kept, not copied)
                field.enemies = enemies
                return field
        if len(self._fields) > 4096:
            self._fields.clear()
        steps = self._steps
        if steps is None or steps.solid is not occ.solid \
                or steps.size != (occ.width, occ.height):
            if steps is None or steps.size != (occ.width, occ.height):
                self._new_board(occ.width, occ.height)
            steps = self._steps = Steps(occ)
        cost = reach(occ, (x, y), mp, side, steps, enemies)
        # one Move per unit and cell: made once, not every turn
        moves = self._moves.get(unit)
        if moves is None:
            moves = self._moves[unit] = {}
        # (each step in C: the cells of cost 1 or more are all but the start, row by row)
        ranks = sorted(map(self._rank.__getitem__, cost))
        ranks.remove(y * occ.width + x)
        try:
            walks = tuple(map(moves.__getitem__, ranks))
        except KeyError:  # a cell this unit never had a Move to
            walks = tuple([moves.get(rank) or _new_move(moves, unit, rank, occ.width)
                           for rank in ranks])
        field = self._fields[key] = Field(occ.solid, occ.deadly, enemies, occ.width,
                                          occ.height, cost, walks)
        return field

    def _new_board(self, width: int, height: int) -> None:
        """Ranks for a board of this size; Moves kept by rank on another size are dropped."""
        self._rank = {(x, y): y * width + x for y in range(height) for x in range(width)}
        self._moves.clear()

    def heroes(self, world: World, side: str) -> list[int]:
        return [e for e, (kind, team, _m) in world.query(Kind, Team, Moves)
                if kind.name == "hero" and team.side == side]

    def legal_actions(self, world: World) -> list[Command]:
        token = world.version()
        parent = self._legal.get(token[1] - 2)
        if parent is not None and parent.world is world and world.is_ancestor(parent.token):
            made = self._walked_legal(world, token, parent)
            if made is None:
                made = self._struck_legal(world, token, parent)
            if made is not None:
                return made
        side = self.side_to_play(world)
        derived = self._derived(world)
        occ = derived["occ"]
        units, beside = occ.units, world.beside
        actions: list[Command] = []
        parts: list[Part] = []
        foes: Foes | None = None  # what may be hit
        props = world.resource(PROPS_KEY, {})
        plain = not named(props)  # no rule names a unit: own ranges
        # one query for what the heroes' orders read (in id order, as heroes() gives them)
        for hero, (kind, team, moves, pos, ready) in world.query(Kind, Team, Moves, Position,
                                                                 Actions):
            if kind.name != "hero" or team.side != side:
                continue
            x, y = pos.x, pos.y
            strikes: Sequence[Command] = NOTHING
            if ready.ap > 0:
                if foes is None:
                    foes = _foes(world, side)
                strikes = self._strikes(world, occ, side, hero, x, y, plain, foes)
                actions += strikes
            field = self._field_at(derived, hero, x, y, moves.mp, side)
            walks = _walks(field, units)
            actions += walks
            pushes = self._pushes(world, hero, occ.width) if _may_push(occ, beside, x, y) else NOTHING
            actions += pushes
            parts.append((hero, strikes, field, walks, pushes, x, y))
        actions.append(END_TURN)
        self._keep_legal(Legal(token, world, side, occ, derived.get(side), foes, plain,
                               props, parts))
        return actions

    def _strikes(self, world: World, occ: Occupancy, side: str, hero: int, x: int, y: int,
                 plain: bool, foes: Foes) -> Sequence[Command]:
        """The hero's attacks from (x, y): one AttackCmd per hero and target, made once
        (NOTHING for none, most often: a kept empty list would be one more object a state
        leaves the collector to scan)."""
        hits = _in_range(occ, side, x, y, world.get(hero, Attack).range
                         if plain else reach_of(world, hero), foes)
        if not hits:
            return NOTHING
        made = self._attacks
        found: list[Command] = []
        for target in hits:
            command = made.get((hero, target))
            if command is None:
                command = made[(hero, target)] = AttackCmd(hero, target)
            found.append(command)
        return found

    def _pushes(self, world: World, hero: int, width: int) -> Sequence[Command]:
        """The hero's pushes (systems.units_rules.push_moves) as Moves, one per unit and cell
        as walks have them."""
        moves = self._moves.get(hero)
        if moves is None:
            moves = self._moves[hero] = {}
        return [moves.get(y * width + x) or _new_move(moves, hero, y * width + x, width)
                for x, y in push_moves(world, hero)] or NOTHING

    def _keep_legal(self, legal: Legal) -> None:
        kept = self._legal
        if len(kept) > 512:
            kept.clear()
        kept[legal.token[1]] = legal

    def _walked_legal(self, world: World, token: tuple[int, int, Any],
                      parent: Legal) -> list[Command] | None:
        """legal_actions when the state is its parent's with one hero of the side to play
        walked ((MOVE hero), (SET hero Moves mp)), the usual command: the occupancy is the
        parent's with that hero's cell moved; the hero's attacks and walks are found again,
        every other hero keeps its attacks (its enemies, their cells and the cells that
        block sight stand) and its reach field (an ally walking changes neither), and walks
        and pushes are listed anew. None (nothing done) for any other change."""
        step, spend = world.changes_since(parent.token[1])
        hero = step[1]
        if step[0] != MOVE or spend[0] != SET or spend[1] != hero \
                or type(spend[2]) is not Moves:
            return None
        pos, (ox, oy), at, beside = step[2], step[3], world.at, world.beside
        x, y = pos.x, pos.y
        occ, side = parent.occ, parent.side
        units = dict(occ.units)
        # only this hero stood on its old cell and stands on its new one (else: afresh)
        if at(ox, oy) or units.pop((ox, oy), None) != side or at(x, y) != [hero] \
                or (x, y) in units or hero not in [part[0] for part in parent.parts]:
            return None  # (a list of three: cheaper than any() over a generator)
        units[(x, y)] = side
        occ = Occupancy(occ.width, occ.height, occ.solid, units, occ.opaque, occ.deadly,
                        occ.pushable)
        derived = self._keep_derived(token, world, occ, side, parent.enemies)
        actions: list[Command] = []
        parts: list[Part] = []
        foes = parent.foes
        for part in parent.parts:
            unit, strikes, field, walks, pushes, ux, uy = part
            if unit == hero:
                if world.get(hero, Actions).ap > 0:
                    if foes is None:
                        foes = _foes(world, side)
                    strikes = self._strikes(world, occ, side, hero, x, y, parent.plain, foes)
                field = self._field_at(derived, hero, x, y, spend[2].mp, side)
                walks = _walks(field, units)
                ux, uy = x, y
                part = (hero, strikes, field, walks, NOTHING, x, y)
            elif (ox, oy) in field.cost or (x, y) in field.cost:  # (neither is its start)
                # the walker left or entered a cell of this field: its walks change
                walks = _walks(field, units)
                part = (unit, strikes, field, walks, NOTHING, ux, uy)
            actions += strikes
            actions += walks
            if _may_push(occ, beside, ux, uy):
                pushes = self._pushes(world, unit, occ.width)
                actions += pushes
                part = (unit, strikes, field, walks, pushes, ux, uy)
            elif pushes:
                part = (unit, strikes, field, walks, NOTHING, ux, uy)
            parts.append(part)
        actions.append(END_TURN)
        self._keep_legal(Legal(token, world, side, occ, derived.get(side), foes, parent.plain,
                               parent.props, parts))
        return actions

    def _struck_legal(self, world: World, token: tuple[int, int, Any],
                      parent: Legal) -> list[Command] | None:
        """legal_actions when the state is its parent's after one hero of the side to play
        hit something that still stands ((SET hero Actions ap), (SET target Health hp)), the
        other common command: nothing moved and no one fell, so every hero keeps its walks,
        pushes and targets, and the attacker loses its attacks once it has none left. None
        (nothing done) for any other change (a kill writes much more)."""
        spend, hurt = world.changes_since(parent.token[1])
        hero = spend[1]
        if spend[0] != SET or type(spend[2]) is not Actions or hurt[0] != SET \
                or type(hurt[2]) is not Health or hurt[2].hp <= 0 \
                or not world.alive(hurt[1]) or hero not in [part[0] for part in parent.parts]:
            return None
        parts = parent.parts
        if spend[2].ap <= 0:  # (attacks left: the same targets, all still standing)
            parts = [(unit, NOTHING if unit == hero else strikes, field, walks, pushes, x, y)
                     for unit, strikes, field, walks, pushes, x, y in parts]
        actions: list[Command] = []
        for _unit, strikes, _field, walks, pushes, _x, _y in parts:
            actions += strikes
            actions += walks
            actions += pushes
        actions.append(END_TURN)
        self._keep_derived(token, world, parent.occ, parent.side, parent.enemies)
        self._keep_legal(Legal(token, world, parent.side, parent.occ, parent.enemies,
                               parent.foes, parent.plain, parent.props, parts))
        return actions

    def why_illegal(self, world: World, command: Command) -> str | None:
        side = self.side_to_play(world)
        if isinstance(command, EndTurn):
            return None
        if not isinstance(command, Move | AttackCmd):
            return f"{type(command).__name__} is not a skirmish command."
        unit = command.unit
        if not world.alive(unit) or world.try_get(unit, Moves) is None:
            return f"There is no unit {unit} that can be ordered."
        if world.get(unit, Kind).name != "hero":
            return "Only heroes take orders; minions and buildings act on their own."
        if world.get(unit, Team).side != side:
            return f"Unit {unit} is not yours: it is {side}'s turn."
        derived = self._derived(world)
        occ = derived["occ"]
        if isinstance(command, Move):
            mp = world.get(unit, Moves).mp
            cells = self._reach(world, derived, unit)
            if (command.x, command.y) not in cells and \
                    (command.x, command.y) not in push_moves(world, unit):
                return (f"Cell ({command.x}, {command.y}) is out of reach: {mp} move points "
                        "left, and the way must be free of enemies, buildings and walls.")
            return None
        if world.get(unit, Actions).ap <= 0:
            return "This hero has already attacked this turn."
        if command.target not in targets(world, occ, unit):
            return f"Target {command.target} is not an enemy in range and in sight."
        return None

    # -- acting ----------------------------------------------------------------------------

    def perform(self, world: World, command: Command) -> list[Event]:
        events: list[Event]
        mark = world.mark()
        if isinstance(command, Move):
            cost, units = self._walk_cost(world, command)
            if cost and (command.x, command.y) not in units:  # as _reach has it
                events = move_unit(world, command.unit, command.x, command.y, cost)
            else:
                events = push_step(world, command.unit, command.x, command.y)
                for pushed in [e.entity for e in events if type(e) is Pushed]:
                    if world.alive(pushed) and world.get(pushed, Kind).name == "hero":
                        events += self.unit_effects(world, pushed)  # pushed onto WIN
            events += self.unit_effects(world, command.unit)
        elif isinstance(command, AttackCmd):
            events = attack(world, command.unit, command.target)
        else:
            events = self.end_turn(world)
        if _quiet(world.changes_since(mark)):
            return events  # a plain walk: nothing the checks read was written
        return events + self.checks(world)

    def _walk_cost(self, world: World, command: Move) -> tuple[int | None, dict[Any, str]]:
        """What walking to the Move's cell costs (None: not a walk) and who stands where:
        read from the field legal_actions kept for this state when it was asked (a search
        and a learner's loop ask before they apply), else found."""
        legal = self._legal.get(world.mark())
        if legal is not None and legal.world is world and world.same_version(legal.token):
            unit = command.unit
            for part in legal.parts:
                if part[0] == unit:
                    return part[2].cost.get((command.x, command.y)), legal.occ.units
        derived = self._derived(world)
        cost = self._field(world, derived, command.unit).cost.get((command.x, command.y))
        return cost, derived["occ"].units

    def unit_effects(self, world: World, unit: int) -> list[Event]:
        """DEFEAT, SINK, HOT/MELT and WEAK on the hero's cell; a hero on WIN wins the match."""
        events, wins = unit_effects(world, unit)
        if not wins:
            return events
        turn_entity = world.resource(TURN_KEY)
        if not world.get(turn_entity, Turn).over:
            side = world.get(unit, Team).side
            reason = f"a {side} hero reached a WIN cell"
            world.update(turn_entity, Turn, over=True, winner=side, reason=reason)
            events.append(Won(side, reason))
        return events

    def end_turn(self, world: World) -> list[Event]:
        turn_entity = world.resource(TURN_KEY)
        turn = world.get(turn_entity, Turn)
        side = turn.side
        events: list[Event] = [TurnEnded(side, turn.round), *transform_scenery(world)]
        # one occupancy through the systems, which mark the units they move or spawn in it;
        # read afresh (without caching it: the states in between are passed once) only after
        # a system did more than _MARKED says or someone died
        occ: Occupancy | None = self._scratch_occupancy(world)
        foes = TurnFoes(world, side)  # found once for the buildings and the minions
        for name in self.cfg.end_turn:
            if occ is None:
                occ = self._static.get(world)
            done = END_TURN_SYSTEMS[name](self, world, occ, side, foes)
            died = deaths(world)
            if died or not _MARKED.issuperset(map(type, done)):  # (in C, no frame per event)
                occ = None
            events += done
            events += died
        if self.cfg.deadline is not None:
            # a win the turn's end brought (a tower's last shot) counts before the deadline
            events += win.decide(world, turn_entity, SIDES, self.cfg.turn_limit)
            if not world.get(turn_entity, Turn).over:
                events += win.out_of_turns(world, turn_entity, side, turn.round,
                                           self.cfg.deadline, SIDES)
        nxt = self.next_side(side)
        world.update(turn_entity, Turn, side=nxt,
                     round=turn.round + (1 if nxt == SIDES[0] else 0))
        start_turn(world, nxt)  # move points (FAST, SLOW, STOP...), attacks, HEAL
        if occ is not None:  # what stands where now: the next legal_actions starts from it
            self._keep_derived(world.version(), world, occ)
        return events

    def checks(self, world: World) -> list[Event]:
        events: list[Event] = []
        for name in self.cfg.checks:
            if name == "deaths":
                events += deaths(world)
            else:
                events += win.decide(world, world.resource(TURN_KEY), SIDES, self.cfg.turn_limit)
        return events


# what an end-of-turn system may do while its occupancy stays true: hit (hit points only)
# and move or spawn units, which it marks in the occupancy as it goes
_MARKED = frozenset((Attacked, Damaged, Moved, Spawned))
_QUIET = frozenset((Moves, Actions))  # fields no check reads: deaths read Health, the win too


def _quiet(changes: list[Any]) -> bool:
    """Whether journal entries only moved things, spent move or action points and hurt
    things that still stand: then no one died and no side won or lost that had not before
    (`checks` would find nothing, the last command's checks having settled the state before
    it; a hit that does not kill leaves every headquarters and hero standing)."""
    for entry in changes:
        op = entry[0]
        if op == MOVE or (op == SET and (type(entry[2]) in _QUIET or (
                type(entry[2]) is Health and entry[2].hp > 0))):
            continue
        return False
    return True


def _may_push(occ: Occupancy, beside: Callable[[int, int], bool], x: int, y: int) -> bool:
    """Whether a unit on (x, y) may have a push to offer: a pushable thing beside it (most
    units stand by none), or, where what may be pushed is not known, anything beside it."""
    cells = occ.pushable
    if cells is None:
        return beside(x, y)
    return bool(cells) and ((x, y - 1) in cells or (x + 1, y) in cells or (x, y + 1) in cells
                            or (x - 1, y) in cells)


def _walks(field: Field, units: dict[tuple[int, int], str]) -> Sequence[Move]:
    """The field's walks to the cells no unit stands on (an ally's: no enemy stands in a
    field): most often all of them, found by a look-up of each unit's cell in C."""
    if len(field.cost.keys() & units.keys()) <= 1:  # its own cell alone (always in units)
        return field.moves
    cells = field.cells
    if cells is None:  # made when first wanted: most fields are never walked beside an ally
        cost = field.cost
        order = sorted([cell for cell in cost if cost[cell]], key=_row_major)
        cells = field.cells = dict(zip(order, range(len(order)), strict=True))
    kept = list(field.moves)
    for i in sorted([cells[cell] for cell in units if cell in cells], reverse=True):
        del kept[i]
    return kept


Foes = list[tuple[int, int, int]]  # (x, y, entity) of the enemies that may be hit, by x


def _foes(world: World, side: str) -> Foes:
    """(x, y, entity) of every enemy of `side`, unit or building, still standing, sorted by
    column: what systems.combat.targets looks through, found once for all of a side's
    heroes."""
    return sorted([(pos.x, pos.y, entity) for entity, (pos, team, health)
                   in world.query(Position, Team, Health) if team.side != side and health.hp > 0])


def _in_range(occ: Occupancy, side: str, x: int, y: int, reach: int, foes: Foes) -> list[int]:
    """systems.combat.targets of a unit of `side` on (x, y) hitting `reach` cells far: the
    foes in the columns within reach (two bisections in C), then distance and sight, in id
    order as targets gives them."""
    first = bisect_left(foes, (x - reach,))
    last = bisect_left(foes, (x + reach + 1,), first)
    if first == last:
        return []
    found = [entity for fx, fy, entity in foes[first:last]
             if abs(fx - x) + abs(fy - y) <= reach and in_sight(occ, side, (x, y), (fx, fy))]
    found.sort()
    return found


_row_major = itemgetter(1, 0)  # a cell's (y, x)


def _new_move(moves: dict[int, Move], unit: int, rank: int, width: int) -> Move:
    """The Move of `unit` to the cell of `rank` on a board `width` cells wide, kept."""
    move = moves[rank] = Move(unit, rank % width, rank // width)
    return move


END_TURN = EndTurn()  # one for every list (commands are frozen)
# a hero, its attacks, its reach field, its walks (the field's, less allies' cells), its
# pushes, its cell: its legal actions in their order
Part = tuple[int, Sequence[Command], "Field", Sequence[Move], Sequence[Command], int, int]
NOTHING: tuple[Command, ...] = ()  # no attacks or no pushes (the usual answer), kept as is


@dataclass(slots=True)
class Legal:
    """The legal actions of one state (its `token`) as legal_actions found them: the side,
    occupancy, enemies' cells, foes and range rule they were found with, and each hero's
    part, in id order."""

    token: tuple[int, int, Any]
    world: World
    side: str
    occ: Occupancy
    enemies: frozenset[tuple[int, int]] | None
    foes: Foes | None
    plain: bool
    props: Any
    parts: list[Part]  # (the legal actions: each part's in turn, then END_TURN)


@dataclass(slots=True)  # not frozen: a frozen dataclass is made field by field in Python
class Field:
    """One unit's `reach` (cost by cell, its own cell 0), the walks it offers (`moves`: a Move
    to each cell of cost 1 or more, row by row; `cells`: each such cell's place in `moves`,
    made when _walks first leaves an ally's cell out) and what it was found on: the static
    cells and the enemies' cells. No list of its own: the collector scans every kept field,
    and `cost` (the board's cell tuples and ints) it never tracks."""

    solid: Any
    deadly: Any
    enemies: frozenset[tuple[int, int]]
    width: int
    height: int
    cost: dict[tuple[int, int], int]
    moves: tuple[Move, ...]
    cells: dict[tuple[int, int], int] | None = None
