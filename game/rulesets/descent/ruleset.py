"""The descent ruleset ("Push it down"): roll a ball down a heightmap of stacked blocks.

Every block is an entity (Position, Height z, Kind 'block'); the ball stands on top of its
cell. It steps to a neighbour no higher than its own cell. A neighbour exactly one higher has a
block at the ball's level with nothing on it: that block is pushed one cell on if the cell
behind exists and is no higher than the ball's cell (it lands on top there) and the ball takes
the freed cell. With `push_stack` every block above the ball's level moves together.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PIL import Image

from components import Height, Kind, Position
from game.commands import Command, Step
from game.data import load_yaml, parse_color
from game.errors import UserError
from game.events import Event, Moved, Pushed, Won
from game.levels.maps import GameMap, read_sidecar, sidecar_path
from game.registry import Ruleset, ruleset_config
from game.world import World
from systems.board import SIZE_KEY
from systems.zobrist import HASH_KEY, MASK, Table

if TYPE_CHECKING:
    from game.engine import Engine

BALL_KEY = "ball"  # resource: the ball's entity
EXIT_KEY = "exit"  # resource: (x, y) of the exit
COST_KEY = "last_cost"  # resource: what the last step cost (move or push)
DIRECTIONS = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
ACTIONS: tuple[Command, ...] = (Step("u"), Step("d"), Step("l"), Step("r"))
MAX_HEIGHT = 60


# -- reading maps ---------------------------------------------------------------------------


def parse_heights(text: str, where: str) -> list[list[int]]:
    """Rows of whole heights separated by spaces; the board must be square."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            row = [int(v) for v in line.split()]
        except ValueError:
            raise UserError(f"{where}: line {number} must hold whole heights separated by "
                            "spaces.") from None
        if any(h < 0 or h > MAX_HEIGHT for h in row):
            raise UserError(f"{where}: line {number} has a height outside 0..{MAX_HEIGHT}.")
        rows.append(row)
    if not rows or any(len(r) != len(rows) for r in rows):
        raise UserError(f"{where}: a descent map must be square (n rows of n heights), "
                        f"found {len(rows)} rows of {sorted({len(r) for r in rows})} heights.")
    if len(rows) < 2:
        raise UserError(f"{where}: a descent map needs at least 2x2 cells.")
    return rows


def heights_text(heights: list[list[int]]) -> str:
    return "\n".join(" ".join(str(h) for h in row) for row in heights) + "\n"


def _game_map(path: Path, heights: list[list[int]], digest: str) -> GameMap:
    sidecar: dict[str, Any] = {}
    side = sidecar_path(path)
    if side.exists():
        sidecar = dict(load_yaml(side) or {})
        if not isinstance(sidecar, dict):
            raise UserError(f"{side}: the sidecar must be a YAML mapping.")
        digest = hashlib.sha256(digest.encode() + side.read_bytes()).hexdigest()
    sidecar["ruleset"] = "descent"
    sidecar["heights"] = heights
    sidecar.setdefault("name", path.stem)
    size = len(heights)
    return GameMap(path, size, size, [], sidecar, digest)


def read_text_map(path: Path) -> GameMap:
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot be read ({exc}).") from None
    return _game_map(path, parse_heights(text, str(path)),
                     hashlib.sha256(text.encode()).hexdigest())


def is_descent_png(path: Path) -> bool:
    side = sidecar_path(path)
    if not side.exists():
        return False
    raw = load_yaml(side)
    return isinstance(raw, dict) and raw.get("ruleset") == "descent"


def ramp() -> list[tuple[int, int, int]]:
    raw = ruleset_config("descent")["ramp"]
    return [parse_color(c, "data/rulesets/descent.yaml: ramp") for c in raw]


def read_png_map(path: Path) -> GameMap:
    """A PNG heightmap: each pixel's colour is a height on the ramp in descent.yaml."""
    colours = {c: h for h, c in enumerate(ramp())}
    try:
        with Image.open(path) as image:
            rgb = image.convert("RGB")
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: is not a readable PNG ({exc}).") from None
    width, height = rgb.size
    if width != height:
        raise UserError(f"{path}: a descent map must be square, not {width}x{height}.")
    heights = [[0] * width for _ in range(height)]
    pixels = np.asarray(rgb)
    for y, x in itertools.product(range(height), range(width)):
        colour = tuple(int(v) for v in pixels[y, x])
        if colour not in colours:
            raise UserError(f"{path}: pixel ({x}, {y}) is not on the height ramp of "
                            "data/rulesets/descent.yaml; paint heights with those greys.")
        heights[y][x] = colours[colour]
    return _game_map(path, heights, hashlib.sha256(path.read_bytes()).hexdigest())


def write_png_map(path: Path, heights: list[list[int]]) -> None:
    from io import BytesIO

    from game.levels.maps import atomic_write

    colours = ramp()
    size = len(heights)
    image = Image.new("RGB", (size, size))
    for y, row in enumerate(heights):
        for x, h in enumerate(row):
            if h >= len(colours):
                raise UserError(f"height {h} is above the PNG ramp's top ({len(colours) - 1}).")
            image.putpixel((x, y), colours[h])
    buffer = BytesIO()
    image.save(buffer, format="PNG")
    atomic_write(path, buffer.getvalue())


# -- the ruleset ------------------------------------------------------------------------------


class Descent(Ruleset):
    name = "descent"
    sides = ("player",)
    actions = ACTIONS

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config)
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
        return "player"

    def outcome(self, world: World) -> tuple[str, str] | None:
        if self.ball(world) == tuple(world.resource(EXIT_KEY)):
            return ("player", "the ball reached the exit")
        return None

    def describe(self, world: World) -> str:
        x, y = self.ball(world)
        return f"ball at ({x}, {y}) height {self.height(world, x, y)}"

    def legal_actions(self, engine: Engine) -> list[Command]:
        return [c for c in ACTIONS if self.plan(engine.world, c.direction)[0]]  # type: ignore[attr-defined]

    def why_illegal(self, engine: Engine, command: Command) -> str | None:
        if not isinstance(command, Step) or command.direction not in DIRECTIONS:
            return "Descent takes Step(u|d|l|r) commands only."
        kind, reason = self.plan(engine.world, command.direction)
        return None if kind else reason

    # -- acting ----------------------------------------------------------------------------

    def perform(self, engine: Engine, command: Command) -> list[Event]:
        world = engine.world
        direction = getattr(command, "direction", "")
        if direction not in DIRECTIONS:
            return []
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
        if self.outcome(world):
            events.append(Won("player", "the ball reached the exit"))
        return events

    # -- what solvers ask ------------------------------------------------------------------

    def state_key(self, world: World) -> int:
        return int(world.resource(HASH_KEY, 0))

    def verdict(self, world: World) -> int:
        return 1 if self.outcome(world) else 0

    def action_cost(self, world: World) -> int:
        return int(world.resource(COST_KEY, 1)) or 1

    def atoms(self, world: World) -> list[tuple[int, ...]]:
        """Facts of a state for novelty search: the ball's cell and each block's place."""
        found: list[tuple[int, ...]] = [(-1, *self.ball(world))]
        for _e, (pos, height) in world.query(Position, Height):
            found.append((pos.x, pos.y, height.z))
        return found

    def heuristic(self, world: World) -> float:
        """Manhattan distance to the exit (admissible: every step moves the ball one cell)."""
        x, y = self.ball(world)
        ex, ey = world.resource(EXIT_KEY)
        return float(abs(x - ex) + abs(y - ey))


def read_sidecar_for(path: Path) -> dict[str, Any]:
    side = sidecar_path(path)
    return read_sidecar(side) if side.exists() else {}
