"""The progress bar every long command draws on stderr (Grundy runs, tournaments, solves, benches)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Redraws one line `label: done/total` at most a few times a second; silent when off."""

    def __init__(self, label: str, enabled: bool, stream: TextIO | None = None) -> None:
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self._last = 0.0
        self._drawn = False

    def update(self, done: int, total: int, detail: str = "") -> None:
        """Show `done` of `total`, with an optional short `detail` (e.g. the best candidate so far)."""
        now = time.monotonic()
        if not self.enabled or now - self._last < 0.2:
            return
        self._last = now
        width = 30
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {detail}".rstrip())
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def wanted(asked: bool, stream: TextIO | None = None) -> bool:
    """Show progress when asked, or when stderr is a terminal someone is watching."""
    stream = stream or sys.stderr
    return asked or bool(getattr(stream, "isatty", lambda: False)())
