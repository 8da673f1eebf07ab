"""The one X harness: a virtual X server and the tools a player's hands are, xdotool clicks and
keys and ImageMagick's `import` photographs. Tests start the real command as a process on the
server and drive it; each test starts its own server and kills it after.

The server runs with `-noreset`: without it, Xvfb resets itself whenever its last client
leaves (an `xdotool search` that finds nothing yet, a window that closed), and a window
client that connects during the reset fails to open the display ("no display could be
opened here"): about one combined run in six did before.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from game import ROOT
from tests.helpers import until

WIDTH, HEIGHT = 1024, 768  # the window size the tests ask for (--size)
TOOLS = ("Xvfb", "xdotool", "import")


@contextmanager
def x_server(screen: str = "1280x800x24") -> Iterator[str]:
    """A virtual X server on a free display (Xvfb picks it and writes it to a pipe once it
    listens); yields its DISPLAY (':N')."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:  # CI installs them (.ci/run); a bare machine says what to install
        pytest.fail(f"{', '.join(missing)} not installed: apt-get install xvfb xdotool "
                    "imagemagick")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen,
                               "-nolisten", "tcp", "-noreset"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()  # it removes its socket; a killed server leaves it behind
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


class Desk:
    """xdotool and import on one display, for windows of `size` (what --size asked for)."""

    def __init__(self, display: str, folder: Path, size: tuple[int, int] = (WIDTH, HEIGHT),
                 env: dict[str, str] | None = None) -> None:
        self.env = {**os.environ, **(env or {}), "DISPLAY": display}
        self.env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT),
                                                               self.env.get("PYTHONPATH")]))
        self.env.pop("RULEFRONT_HEADLESS", None)
        self.folder = folder
        self.size = size
        self.shots = 0

    def run(self, *args: str) -> str:
        done = subprocess.run(args, env=self.env, capture_output=True, text=True, timeout=60)
        return done.stdout.strip() if done.returncode == 0 else ""

    def window(self, name: str, process: subprocess.Popen[Any] | None = None) -> str:
        """The X id of the first mapped window whose title matches `name`; if `process` ends
        first, its exit code and what it said are the failure."""
        def found() -> str:
            if process is not None and process.poll() is not None:
                out, err = process.communicate()
                raise AssertionError(f"the game exited ({process.returncode}) before a window "
                                     f"named {name!r} showed: {err or ''}{out or ''}")
            return self.run("xdotool", "search", "--onlyvisible", "--name", name)

        return until(found, f"a window named {name!r}").split()[0]

    def click(self, window: str, px: float, py: float, button: int = 1) -> None:
        """A click at pyglet coordinates (px, py): origin bottom-left, y up."""
        self.run("xdotool", "mousemove", "--window", window, str(int(px)),
                 str(int(self.size[1] - py)), "click", str(button))

    def key(self, window: str, *keys: str) -> None:
        """Keys typed into the window (focused first, as a player's click would)."""
        self.run("xdotool", "windowfocus", "--sync", window)
        self.run("xdotool", "key", *keys)

    def shot(self) -> np.ndarray:
        """The whole screen, rows top first, RGB (a BMP: import encodes a PNG slowly)."""
        self.shots += 1
        path = self.folder / f"shot{self.shots}.bmp"
        self.run("import", "-window", "root", str(path))
        with Image.open(path) as picture:
            return np.array(picture.convert("RGB"))

    def origin(self, window: str) -> tuple[int, int]:
        """Where the window sits on the screen (the server has no window manager to move it)."""
        found = self.run("xdotool", "getwindowgeometry", "--shell", window)
        geometry = dict(line.split("=") for line in found.splitlines())
        return int(geometry["X"]), int(geometry["Y"])

    def window_shot(self, window: str) -> np.ndarray:
        """The screen cut to the window."""
        x, y = self.origin(window)
        return self.shot()[y:y + self.size[1], x:x + self.size[0]]

