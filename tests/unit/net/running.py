"""A real `rulefront serve` in a subprocess on a free loopback port, and the CLI as a stranger
runs it: what every test of game/net drives."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
URL = re.compile(r"(https?://\S+/)")


class Served:
    """`rulefront serve --data DATA --port PORT` (0: a free one), killed when the test ends."""

    def __init__(self, data: Path, port: int = 0, tls: tuple[Path, Path] | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.data = data
        certificate = [] if tls is None else ["--certfile", str(tls[0]), "--keyfile",
                                              str(tls[1])]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "game", "serve", "--port", str(port), "--data", str(data),
             *certificate, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = URL.search(line)
        assert found, f"serve printed {line!r}; stderr: {self.process.stderr.read()}"
        self.url = found.group(1)
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """`kill -9`: no goodbye, no flush."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> str:
        """Stop it (if it still runs) and return what it wrote on stderr."""
        if self.alive():
            self.process.terminate()
        try:
            _out, err = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _out, err = self.process.communicate()
        return err


def rulefront(*args: str, timeout: float = 120,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", *args], capture_output=True, text=True,
                          env={**ENV, **(env or {})}, timeout=timeout)


def start(*args: str, pythonpath: str | None = None) -> subprocess.Popen[str]:
    """A client in the background; `pythonpath` adds a folder (of plug-in AIs)."""
    env = dict(ENV)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([pythonpath, env["PYTHONPATH"]])
    return subprocess.Popen([sys.executable, "-m", "game", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def new_game(url: str, map_name: str, seed: int, *extra: str,
             env: dict[str, str] | None = None) -> dict[str, Any]:
    done = rulefront("online", "new", url, map_name, "--seed", str(seed), "--json", *extra,
                     env=env)
    assert done.returncode == 0, done.stderr
    game: dict[str, Any] = json.loads(done.stdout)
    return game


def bot(url: str, game: dict[str, Any], side: str, ai: str) -> subprocess.Popen[str]:
    return start("online", "bot", url, game["game"], "--seat", side, "--token",
                 game["tokens"][side], "--ai", ai, "--json")


def log_lines(data: Path, game: str) -> list[dict[str, Any]]:
    """The game's log as the server has written it so far: whole lines only (a line being
    written, or torn by a kill -9, has no newline yet)."""
    path = data / "games" / game / "log.jsonl"
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]


def finish(process: subprocess.Popen[str]) -> str:
    """End a client that has not ended (terminate, then kill) and return its stdout."""
    if process.poll() is None:
        process.terminate()
    try:
        out, _err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _err = process.communicate()
    return out or ""


def get_json(url: str) -> Any:
    """GET an HTTP route of the server as JSON."""
    import urllib.request

    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())
