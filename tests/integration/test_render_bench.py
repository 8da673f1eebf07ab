"""The render bench group runs and names its figures (speed itself is not asserted)."""

from __future__ import annotations

import pytest

from game.bench import GROUPS, run_groups

pytestmark = pytest.mark.integration


def test_render_group_reports_frame_rebuild_animation_and_key_times():
    assert "render" in GROUPS
    figures = run_groups(["render"], {"repeat": 1})
    assert set(figures) == {"render.frame_ms", "render.rebuild_ms", "render.anim_frame_ms",
                            "render.menu_frame_ms", "render.menu_key_ms",
                            "render.key_to_redraw_ms", "render.key_to_redraw_thinking_ms"}
    assert all(value > 0 for value in figures.values())
