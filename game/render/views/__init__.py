"""Board views, one per projection; each ruleset names the one that draws it."""

from __future__ import annotations

from game import registry
from game.render.views.base import View
from game.render.views.board import GridView


def view_for(ruleset: str) -> type[View]:
    """The view a ruleset registered (`RulesetSpec.view`), or the top-down grid."""
    target = registry.spec(ruleset).view
    found: type[View] = registry.load_object(target) if target else GridView
    return found
