"""A virtual X server and the tools a player's hands are: xdotool clicks and keys, ImageMagick's
`import` photographs. Tests start the real command as a process on the server and drive it."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import numpy as np
from PIL import Image

WIDTH, HEIGHT = 1024, 768  # the window size the tests ask for (--size)
T = TypeVar("T")


@contextmanager
def x_server() -> Iterator[str]:
    """A virtual X server on a free display (Xvfb picks it and writes it to a pipe)."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        assert number, "Xvfb did not start"
        ours = {**os.environ, "DISPLAY": f":{number}"}
        until(lambda: subprocess.run(["xdotool", "getdisplaygeometry"], env=ours,
                                     capture_output=True, text=True).stdout.split()
              == ["1280", "800"], "the X server to answer")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def until(check: Callable[[], T | None], what: str, seconds: float = 30.0) -> T:
    """Poll `check` until it gives something (the window needs its own time to draw)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if isinstance(found, np.ndarray) or found:  # a picture, or anything true
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.1)


class Desk:
    """xdotool and import on one display."""

    def __init__(self, display: str, folder: Path) -> None:
        self.env = {**os.environ, "DISPLAY": display}
        self.env.pop("RULEFRONT_HEADLESS", None)
        self.folder = folder
        self.shots = 0

    def run(self, *args: str) -> str:
        done = subprocess.run(args, env=self.env, capture_output=True, text=True, timeout=60)
        return done.stdout.strip() if done.returncode == 0 else ""

    def window(self, name: str) -> str:
        return until(lambda: self.run("xdotool", "search", "--onlyvisible", "--name", name),
                     f"a window named {name!r}").split()[0]

    def click(self, window: str, px: float, py: float, button: int = 1) -> None:
        """A click at pyglet coordinates (px, py): origin bottom-left, y up."""
        self.run("xdotool", "mousemove", "--window", window, str(int(px)),
                 str(int(HEIGHT - py)), "click", str(button))

    def key(self, window: str, *keys: str) -> None:
        self.run("xdotool", "windowfocus", "--sync", window)
        self.run("xdotool", "key", *keys)

    def shot(self) -> np.ndarray:
        self.shots += 1
        path = self.folder / f"shot{self.shots}.png"
        self.run("import", "-window", "root", str(path))
        with Image.open(path) as picture:
            return np.array(picture.convert("RGB"))

    def window_shot(self, window: str) -> np.ndarray:
        """The screen cut to the window (the server has no window manager to move it)."""
        found = self.run("xdotool", "getwindowgeometry", "--shell", window)
        geometry = dict(line.split("=") for line in found.splitlines())
        x, y = int(geometry["X"]), int(geometry["Y"])
        return self.shot()[y:y + HEIGHT, x:x + WIDTH]
