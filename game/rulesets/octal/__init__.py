"""Octal games: impartial take-away games on heaps of blocks, by their octal code."""

from __future__ import annotations

from game.registry import Capabilities, RulesetSpec, register

register(RulesetSpec(
    name="octal",
    factory="game.rulesets.octal.ruleset:Octal",
    summary="impartial take-away games on heaps of blocks (0.137, Kayles, Nim...)",
    prefix="octal:",
    prefix_reader="game.rulesets.octal.ruleset:parse_spec",
    controller="game.render.controllers.take:TakeController",
    examples=("octal/kayles.png", "octal/sticks.png", "octal:0.137:9,12,5:misere"),
    capabilities=Capabilities(players=2, impartial=True),
))
