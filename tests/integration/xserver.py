"""A virtual X server for tests that drive a real window as a player does: Xvfb on a free
display (`-displayfd`), xdotool for keys and clicks, ImageMagick's `import` for screenshots.

Each test starts its own server and kills it after; nothing else is touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

TOOLS = ("Xvfb", "xdotool", "import")


def need_tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:  # CI installs them (.ci/run); a bare machine says what to install
        pytest.fail(f"{', '.join(missing)} not installed: apt-get install xvfb xdotool "
                    "imagemagick")


@contextmanager
def virtual_display(size: str = "1024x768x24") -> Iterator[str]:
    """Start Xvfb on a free display; yields its DISPLAY (':N'); kills the server after."""
    need_tools()
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", size,
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        server.kill()
        server.wait()


def xdotool(display: str, *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display},
                          capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


def wait_for_window(display: str, name: str, process: subprocess.Popen[Any],
                    seconds: float = 60.0) -> str:
    """The X id of the first window whose title matches `name`, once it is mapped."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the game exited ({process.returncode}) before its window "
                                 "showed")
        found = xdotool(display, "search", "--onlyvisible", "--name", name)
        if found:
            return found.splitlines()[0]
        time.sleep(0.2)
    raise AssertionError(f"no window named {name!r} within {seconds} s")


def screenshot(display: str, path: Path) -> Any:
    """The whole screen as a numpy array (rows top first, RGB)."""
    import numpy as np
    from PIL import Image

    subprocess.run(["import", "-display", display, "-window", "root", str(path)], check=True,
                   timeout=30)
    return np.array(Image.open(path).convert("RGB"))


def wait_until(check: Any, seconds: float = 60.0, every: float = 0.25) -> Any:
    """Poll `check()` until it returns something true; that value (or the last, on time-out:
    the test's assertion then says what was seen). Generous: a loaded CI machine is slow,
    and a check that holds returns at once."""
    deadline = time.monotonic() + seconds
    value = check()
    while not value and time.monotonic() < deadline:
        time.sleep(every)
        value = check()
    return value
