"""Puzzles: rules spelled by word tiles, one player moves everything that IS YOU."""

from __future__ import annotations

from game.registry import Capabilities, RulesetSpec, register

register(RulesetSpec(
    name="puzzle",
    factory="game.rulesets.puzzle.ruleset:Puzzle",
    summary="Baba Is You-style rule puzzles: push words to rewrite the rules and reach a WIN",
    readers={".keke": "game.rulesets.puzzle.keke:read_keke_file",
             ".json": "game.rulesets.puzzle.keke:read_set_level"},
    level_sets=(".json",),
    view="game.render.views.board:PuzzleView",
    controller="game.render.controllers.level:LevelController",
    examples=("puzzles/first-steps.keke", "puzzles/melting.keke", "puzzles/rule-maker.keke"),
    capabilities=Capabilities(players=1, search_hooks=True),
))
