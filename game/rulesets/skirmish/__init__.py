"""Skirmish: two sides of heroes beside minions, towers and headquarters on a PNG map."""

from __future__ import annotations

from game.registry import Capabilities, Param, RulesetSpec, register

EDGES = "game.rulesets.skirmish.edges"

register(RulesetSpec(
    name="skirmish",
    factory="game.rulesets.skirmish.ruleset:Skirmish",
    summary="two sides of heroes, minions, towers and headquarters; word rules on the map",
    controller="game.render.controllers.match:Controller",
    examples=("outpost.png", "duel.png", "crossing.png", "frontier.png"),
    sidecar="game.schemas:SkirmishSidecar",
    capabilities=Capabilities(players=2, multi_action_turns=True),
    encoding=f"{EDGES}:encoding",
    planes=f"{EDGES}:planes",
    params=(Param("map", "duel", "a skirmish map: a PNG file or a shipped map's name"),
            Param("turn_limit", 0, "rounds before a draw; 0 keeps the map's own")),
    from_params=f"{EDGES}:from_params",
    max_length=f"{EDGES}:max_length",
    evaluator="game.rulesets.skirmish.evaluate:Evaluation",
    threat=f"{EDGES}:threat",
))
