"""Puzzles: rules spelled by word tiles, one player moves everything that IS YOU."""

from __future__ import annotations

from game.registry import Capabilities, Param, RulesetSpec, register
from game.rulesets.solo import MAX_MOVES

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
    sidecar="game.schemas:PuzzleSidecar",
    capabilities=Capabilities(players=1, search_hooks=True),
    encoding="game.rulesets.puzzle.edges:encoding",
    planes="game.rulesets.puzzle.edges:planes",
    params=(Param("level", "first-steps", "a puzzle: a .keke or .json file or a shipped name"),
            Param("index", -1, "the level's index in a .json set (-1: a single level)"),
            MAX_MOVES),
    from_params="game.rulesets.solo:from_params",
    max_length="game.rulesets.solo:max_length",
    input_mode="steps",
))
