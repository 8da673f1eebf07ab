"""Descent ("Push it down"): roll a ball down a heightmap of stacked blocks to the exit."""

from __future__ import annotations

from game.registry import Capabilities, Param, RulesetSpec, register
from game.rulesets.solo import MAX_MOVES

register(RulesetSpec(
    name="descent",
    factory="game.rulesets.descent.ruleset:Descent",
    summary="one player rolls a ball down a heightmap of blocks, pushing blocks on the way",
    readers={".txt": "game.rulesets.descent.level:read_text_map"},
    png_reader="game.rulesets.descent.level:read_png_map",
    view="game.render.views.descent:DescentView",
    controller="game.render.controllers.level:LevelController",
    examples=("descent/level-01.txt", "descent/level-05.txt", "descent/tower.png"),
    sidecar="game.schemas:DescentSidecar",
    capabilities=Capabilities(players=1, search_hooks=True),
    encoding="game.rulesets.descent.edges:encoding",
    planes="game.rulesets.descent.edges:planes",
    params=(Param("level", "level-01", "a descent level: a .txt or PNG file or a shipped name"),
            MAX_MOVES),
    from_params="game.rulesets.solo:from_params",
    max_length="game.rulesets.solo:max_length",
    input_mode="steps",
    text_cell="game.rulesets.descent.cells:text_cell",
))
