"""The one terminal harness: a tmux server of the test's own (its own socket, no config file)
running one command in one pane of a given size; keys in with send-keys, the screen out with
capture-pane (its text, and with -e its colours). When the command ends the pane says
`rulefront-exit=CODE` and stays, so the test can read the last screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from game import ROOT
from tests.helpers import until


class Terminal:
    """One pane of a tmux server that only this test talks to."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30)
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Key names as tmux reads them (Enter, Down, e...), in order."""
        self.tmux("send-keys", "-t", "0", *keys)

    def type(self, text: str) -> None:
        """Text typed literally, character by character."""
        self.tmux("send-keys", "-t", "0", "-l", text)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "0")

    def colours(self) -> str:
        return self.tmux("capture-pane", "-p", "-e", "-t", "0")

    def shows(self, *words: str) -> list[str] | None:
        """The screen's lines if every word is on it."""
        screen = self.screen()
        return screen.splitlines() if all(word in screen for word in words) else None

    def wait_for(self, *words: str, seconds: float = 60.0) -> str:
        """The screen once every word is on it."""
        until(lambda: self.shows(*words), " and ".join(map(repr, words)), seconds)
        return self.screen()

    def exit_code(self, seconds: float = 60.0) -> int:
        """The command's exit code, once it has ended."""
        screen = self.wait_for("rulefront-exit=", seconds=seconds)
        return int(screen.split("rulefront-exit=")[1].split()[0])


@contextmanager
def terminal(command: list[str], cwd: Path, env: dict[str, str] | None = None,
             size: tuple[int, int] = (100, 32)) -> Iterator[Terminal]:
    """`command` in a `size` (columns, lines) pane, PYTHONPATH on this tree; the tmux server
    is killed after."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: apt-get install tmux")
    socket = f"rulefront-test-{uuid.uuid4().hex[:12]}"
    env = {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", **(env or {})}
    line = f"{shlex.join(command)}; echo rulefront-exit=$?; sleep 600"
    subprocess.run(["tmux", "-L", socket, "-f", os.devnull, "new-session", "-d",
                    "-x", str(size[0]), "-y", str(size[1]), "-c", str(cwd),
                    *[f"-e{key}={value}" for key, value in env.items()], line],
                   check=True, timeout=30, env={**os.environ, **env})
    made = Terminal(socket)
    try:
        yield made
    finally:
        made.tmux("kill-server")


def rulefront(*args: str) -> list[str]:
    """The command line of `rulefront ARGS` as a stranger runs it (this Python, -m game)."""
    return [sys.executable, "-m", "game", *args]
