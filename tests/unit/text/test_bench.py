"""The text bench group runs and names its figures (speed itself is not asserted)."""

from __future__ import annotations

from game.bench import GROUPS, run_groups


def test_text_group_reports_key_to_redraw_idle_and_while_an_ai_thinks():
    assert "text" in GROUPS
    figures = run_groups(["text"], {"repeat": 1})
    assert set(figures) == {"text.key_to_redraw_ms", "text.key_to_redraw_cpu_ms",
                            "text.board_text_ms", "text.help_key_ms",
                            "text.key_to_redraw_thinking_ms"}
    assert all(value > 0 for value in figures.values())
