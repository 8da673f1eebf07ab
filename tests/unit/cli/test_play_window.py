"""`rulefront play` without --text where no display exists: one sentence, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys


def test_play_without_a_display_says_to_use_text(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "RULEFRONT_HEADLESS")}
    proc = subprocess.run(
        [sys.executable, "-m", "game", "play", "maps/outpost.png", "--quit-after", "1",
         "--save", str(tmp_path / "save.json")],
        capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert "play in the terminal with --text" in proc.stderr
    assert "Traceback" not in proc.stderr
