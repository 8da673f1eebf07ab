"""Skirmish: two sides of heroes beside minions, towers and headquarters on a PNG map."""

from __future__ import annotations

from game.registry import Capabilities, RulesetSpec, register

register(RulesetSpec(
    name="skirmish",
    factory="game.rulesets.skirmish.ruleset:Skirmish",
    summary="two sides of heroes, minions, towers and headquarters; word rules on the map",
    controller="game.render.controllers.match:Controller",
    examples=("outpost.png", "duel.png", "crossing.png", "frontier.png"),
    capabilities=Capabilities(players=2, multi_action_turns=True),
))
