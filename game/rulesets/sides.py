"""The match state of rulesets where sides take turns: one Turn component, found by a resource."""

from __future__ import annotations

from components import Turn
from components.resources import TURN_KEY
from game.registry import Outcome
from game.world import World


class SidesRuleset:
    """A ruleset of sides taking turns (skirmish, octal), whose match state is one Turn."""

    name = ""
    sides: tuple[str, ...] = ("red", "blue")
    _held: tuple[World, Turn] | None = None  # the last World asked about and its Turn

    def start_turns(self, world: World) -> None:
        """Spawn the Turn entity: the first side plays round 1."""
        world.set_resource(TURN_KEY, world.spawn(Turn(self.sides[0], 1)))

    def turn(self, world: World) -> Turn:
        """The match state: one component, changed in place for the whole game (undo puts
        its fields back), so it is looked up once per World (the side to play and the
        outcome are asked several times a command)."""
        held = self._held
        if held is not None and held[0] is world:
            return held[1]
        turn = world.get(world.resource(TURN_KEY), Turn)
        self._held = (world, turn)
        return turn

    def side_to_play(self, world: World) -> str:
        return self.turn(world).side

    def outcome(self, world: World) -> Outcome | None:
        turn = self.turn(world)
        return Outcome(turn.winner, turn.reason) if turn.over else None

    def next_side(self, side: str) -> str:
        return self.sides[(self.sides.index(side) + 1) % len(self.sides)]
