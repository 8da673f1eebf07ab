"""Octal games: impartial take-away games on heaps of blocks, by their octal code."""

from __future__ import annotations

from game.registry import Capabilities, Param, RulesetSpec, register

EDGES = "game.rulesets.octal.edges"

register(RulesetSpec(
    name="octal",
    factory="game.rulesets.octal.ruleset:Octal",
    summary="impartial take-away games on heaps of blocks (0.137, Kayles, Nim...)",
    prefix="octal:",
    prefix_reader="game.rulesets.octal.ruleset:parse_spec",
    controller="game.render.controllers.take:TakeController",
    examples=("octal/kayles.png", "octal/sticks.png", "octal:0.137:9,12,5:misere"),
    sidecar="game.schemas:OctalSidecar",
    capabilities=Capabilities(players=2, impartial=True),
    encoding=f"{EDGES}:encoding",
    planes=f"{EDGES}:planes",
    params=(Param("code", "0.137", "the octal code, e.g. 0.137 (Dawson's chess) or 0.77 (Kayles)"),
            Param("heaps", "5 7", "heap sizes separated by spaces"),
            Param("misere", False, "who takes the last block loses")),
    from_params=f"{EDGES}:from_params",
    max_length=f"{EDGES}:max_length",
    evaluator="game.rulesets.octal.perfect:Evaluation",
    input_mode="heaps",
))
