"""The progress bar every long command draws on stderr (match --games, tournaments, solve
--keke, benches, Grundy runs): rich's bar with the count, the rate and the time left.

rich is imported only when a bar is really drawn, so `import game.cli` stays light. Nothing is
drawn unless asked for or stderr is a terminal (`wanted`), and commands given --json never ask.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

REFRESH = 0.1  # seconds between redraws at most: callers may update in a tight loop


class Progress:
    """A bar `label [####----] done/total  rate/s  time left  detail`; silent when off."""

    def __init__(self, label: str, enabled: bool, stream: TextIO | None = None) -> None:
        self.label = label
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self._bar: Any = None
        self._task: Any = None
        self._last = 0.0

    def update(self, done: int, total: int, detail: str = "") -> None:
        """Show `done` of `total`, with an optional short `detail` (e.g. the best so far)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if self._bar is not None and done < total and now - self._last < REFRESH:
            return
        self._last = now
        if self._bar is None:
            self._start(total)
        self._bar.update(self._task, completed=done, total=total, detail=detail)
        self._bar.refresh()

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress
        from rich.text import Text

        class RateColumn(ProgressColumn):
            """Items a second, from rich's running estimate."""

            def render(self, task: Any) -> Text:
                speed = task.finished_speed or task.speed
                return Text("?/s" if speed is None else f"{speed:.3g}/s")

        plain = not getattr(self.stream, "isatty", lambda: False)()  # e.g. --progress piped
        # On one screen, lines printed meanwhile go above the bar; piped output stays as it is.
        redirect = not plain and sys.stdout.isatty()
        console = Console(file=self.stream, force_terminal=True, highlight=False,
                          no_color=plain)
        self._bar = RichProgress(
            TextColumn("{task.description}"), BarColumn(bar_width=30), MofNCompleteColumn(),
            RateColumn(), TimeElapsedColumn(), TextColumn("spent,"), TimeRemainingColumn(),
            TextColumn("left"),
            TextColumn("{task.fields[detail]}"), console=console, auto_refresh=False,
            redirect_stdout=redirect, redirect_stderr=False)
        self._task = self._bar.add_task(self.label, total=total, detail="")
        self._bar.start()

    def close(self) -> None:
        """Leave the last state of the bar on screen and end its line (safe to call twice)."""
        if self._bar is not None:
            self._bar.refresh()
            self._bar.stop()
            self._bar = None


def wanted(asked: bool, stream: TextIO | None = None) -> bool:
    """Show progress when asked, or when stderr is a terminal someone is watching."""
    stream = stream or sys.stderr
    return asked or bool(getattr(stream, "isatty", lambda: False)())
