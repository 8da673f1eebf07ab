"""The descent ruleset ("Push it down"): roll a ball down a heightmap of stacked blocks.

Every block is an entity (Position, Height z, Kind 'block'); the ball stands on top of its
cell. It steps to a neighbour no higher than its own cell. A neighbour exactly one higher has a
block at the ball's level with nothing on it: that block is pushed one cell on if the cell
behind exists and is no higher than the ball's cell (it lands on top there) and the ball takes
the freed cell. With `push_stack` every block above the ball's level moves together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from components import Height, Kind, Position
from components.resources import BALL_KEY, COST_KEY, EXIT_KEY, HASH_KEY, SIZE_KEY
from game.commands import Command, Step
from game.errors import UserError
from game.events import Event, Moved, Pushed, Won
from game.levels.maps import sidecar_path
from game.registry import LOST, PLAYER, Outcome, Ruleset, SearchHooks
from game.world import World

if TYPE_CHECKING:
    from game.levels.maps import GameMap
from systems.zobrist import MASK, Table

DIRECTIONS = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
STEP_NAMES = {"u": "up", "d": "down", "l": "left", "r": "right"}
WON_REASON = "the ball reached the exit"
ACTIONS: tuple[Command, ...] = (Step("u"), Step("d"), Step("l"), Step("r"))


# -- the ruleset ------------------------------------------------------------------------------


class Descent(Ruleset, SearchHooks):
    name = "descent"
    sides = (PLAYER,)
    actions = ACTIONS

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        costs = config.get("costs") or {}
        self.move_cost = int(costs.get("move", 1))
        self.push_cost = int(costs.get("push", 2))
        self.push = bool(config.get("push", True))
        self.push_stack = bool(config.get("push_stack", False))
        self.table = Table(facing=False)

    def setup(self, world: World, game_map: GameMap) -> None:
        heights = game_map.sidecar.get("heights") or self.config.get("heights")
        if not heights:
            raise UserError(f"{game_map.path}: a descent map needs heights (a .txt heightmap "
                            "or a PNG on the height ramp).")
        size = len(heights)
        world.set_resource(SIZE_KEY, (size, size))
        start = self._cell(self.config.get("start"), (0, 0), size, game_map, "start")
        exit_cell = self._cell(self.config.get("exit"), (size - 1, size - 1), size, game_map,
                               "exit")
        total = 0
        for y, row in enumerate(heights):
            for x, h in enumerate(row):
                for z in range(h):
                    world.spawn(Position(x, y), Height(z), Kind("block"))
                    total += self.table.number("block", x, y, z)
        ball = world.spawn(Position(*start), Height(heights[start[1]][start[0]]), Kind("ball"))
        total += self.table.number("ball", start[0], start[1], 0)
        world.set_resource(BALL_KEY, ball)
        world.set_resource(EXIT_KEY, exit_cell)
        world.set_resource(COST_KEY, 0)
        world.set_resource(HASH_KEY, total & MASK)

    @staticmethod
    def _cell(raw: Any, default: tuple[int, int], size: int, game_map: GameMap,
              key: str) -> tuple[int, int]:
        if raw is None:
            return default
        if (not isinstance(raw, list | tuple) or len(raw) != 2
                or not all(isinstance(v, int) and 0 <= v < size for v in raw)):
            raise UserError(f"{sidecar_path(game_map.path)}: '{key}' must be [x, y] inside the "
                            f"{size}x{size} board.")
        return (raw[0], raw[1])

    # -- reading the board -----------------------------------------------------------------

    def height(self, world: World, x: int, y: int) -> int:
        """Blocks stacked on a cell (the ball does not count)."""
        ball = world.resource(BALL_KEY)
        here = world.at(x, y)
        return len(here) - (1 if ball in here else 0)

    def heights(self, world: World) -> list[list[int]]:
        width, height = world.resource(SIZE_KEY)
        return [[self.height(world, x, y) for x in range(width)] for y in range(height)]

    def ball(self, world: World) -> tuple[int, int]:
        pos = world.get(world.resource(BALL_KEY), Position)
        return (pos.x, pos.y)

    def plan(self, world: World, direction: str) -> tuple[str, str]:
        """('move' | 'push' | '', reason) for a step of the ball."""
        dx, dy = DIRECTIONS[direction]
        size = world.resource(SIZE_KEY)[0]
        bx, by = self.ball(world)
        nx, ny = bx + dx, by + dy
        if not (0 <= nx < size and 0 <= ny < size):
            return "", "The ball cannot leave the board."
        own = self.height(world, bx, by)
        rise = self.height(world, nx, ny) - own
        if rise <= 0:
            return "move", ""
        if not self.push:
            return "", "That cell is higher than the ball, and pushing is off."
        if rise > 1 and not self.push_stack:
            return "", "That cell is more than one block higher: too tall to push."
        tx, ty = nx + dx, ny + dy
        if not (0 <= tx < size and 0 <= ty < size):
            return "", "Nothing can be pushed off the board."
        if self.height(world, tx, ty) > own:
            return "", "The cell behind is higher than the ball: the block has nowhere to go."
        return "push", ""

    # -- questions -------------------------------------------------------------------------

    def side_to_play(self, world: World) -> str:
        return PLAYER

    def outcome(self, world: World) -> Outcome | None:
        """Won at the exit; lost when the ball has no step left (undo still works)."""
        if self.ball(world) == tuple(world.resource(EXIT_KEY)):
            return Outcome(PLAYER, WON_REASON)
        if not any(self.plan(world, direction)[0] for direction in DIRECTIONS):
            return Outcome(LOST, "the ball is stuck: no step is possible")
        return None

    def describe(self, world: World) -> str:
        x, y = self.ball(world)
        return f"ball at ({x}, {y}) height {self.height(world, x, y)}"

    def text_board(self, world: World) -> str:
        """Heights row by row; the ball's cell is marked with '*', the exit with '>'."""
        ball = self.ball(world)
        exit_cell = tuple(world.resource(EXIT_KEY))
        lines = []
        for y, row in enumerate(self.heights(world)):
            cells = []
            for x, h in enumerate(row):
                mark = "*" if (x, y) == ball else ">" if (x, y) == exit_cell else " "
                cells.append(f"{h:>2}{mark}")
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def status_lines(self, world: World) -> list[str]:
        return ["legend: heights; * the ball, > the exit"]

    def describe_command(self, world: World, command: Command) -> str:
        if not isinstance(command, Step) or command.direction not in DIRECTIONS:
            return str(command.to_json())
        kind = self.plan(world, command.direction)[0] or "blocked"
        return f"{kind} {STEP_NAMES[command.direction]}"

    def report(self, world: World) -> dict[str, Any]:
        """Status, ball, exit and heights: what `play LEVEL --moves ... --json` prints."""
        x, y = self.ball(world)
        outcome = self.outcome(world)
        status = "playing" if outcome is None else "won" if outcome.winner == PLAYER else "lost"
        return {"status": status,
                "ball": {"x": x, "y": y}, "exit": list(world.resource(EXIT_KEY)),
                "heights": self.heights(world)}

    def legal_actions(self, world: World) -> list[Command]:
        return [c for c in ACTIONS if isinstance(c, Step) and self.plan(world, c.direction)[0]]

    def why_illegal(self, world: World, command: Command) -> str | None:
        if not isinstance(command, Step) or command.direction not in DIRECTIONS:
            return "Descent takes Step(u|d|l|r) commands only."
        kind, reason = self.plan(world, command.direction)
        return None if kind else reason

    # -- acting ----------------------------------------------------------------------------

    def perform(self, world: World, command: Command) -> list[Event]:
        if not isinstance(command, Step) or command.direction not in DIRECTIONS:
            return []
        direction = command.direction
        kind, _reason = self.plan(world, direction)
        if not kind:
            world.set_resource(COST_KEY, 0)
            return []
        dx, dy = DIRECTIONS[direction]
        ball = world.resource(BALL_KEY)
        bx, by = self.ball(world)
        nx, ny = bx + dx, by + dy
        delta = 0
        events: list[Event] = []
        number = self.table.number
        own = self.height(world, bx, by)
        if kind == "push":
            tx, ty = nx + dx, ny + dy
            land = self.height(world, tx, ty)
            moving = sorted((world.get(e, Height).z, e) for e in world.at(nx, ny)
                            if e != ball and world.get(e, Height).z >= own)
            for offset, (z, block) in enumerate(moving):
                delta -= number("block", nx, ny, z)
                world.move(block, tx, ty)
                world.update(block, Height, z=land + offset)
                delta += number("block", tx, ty, land + offset)
                events.append(Pushed(block, nx, ny, tx, ty))
        delta += number("ball", nx, ny, 0) - number("ball", bx, by, 0)
        world.move(ball, nx, ny)
        world.update(ball, Height, z=self.height(world, nx, ny))
        events.append(Moved(ball, bx, by, nx, ny))
        world.set_resource(HASH_KEY, (world.resource(HASH_KEY) + delta) & MASK)
        world.set_resource(COST_KEY, self.push_cost if kind == "push" else self.move_cost)
        if self.ball(world) == tuple(world.resource(EXIT_KEY)):
            events.append(Won(PLAYER, WON_REASON))
        return events

    # -- what solvers ask ------------------------------------------------------------------

    def state_key(self, world: World) -> int:
        return int(world.resource(HASH_KEY, 0))

    def verdict(self, world: World) -> int:
        outcome = self.outcome(world)
        return 0 if outcome is None else 1 if outcome.winner == PLAYER else -1

    def action_cost(self, world: World) -> int:
        return int(world.resource(COST_KEY, 1)) or 1

    def atoms(self, world: World) -> list[tuple[int, ...]]:
        """Facts of a state for novelty search: the ball's cell and each block's place."""
        found: list[tuple[int, ...]] = [(-1, *self.ball(world))]
        for _e, (pos, height) in world.query(Position, Height):
            found.append((pos.x, pos.y, height.z))
        return found

    def regime(self, world: World) -> Any:
        """Descent has no rules to change: one regime."""
        return None

    def heuristic(self, world: World) -> float:
        """Manhattan distance to the exit (admissible: every step moves the ball one cell)."""
        x, y = self.ball(world)
        ex, ey = world.resource(EXIT_KEY)
        return float(abs(x - ex) + abs(y - ey))
