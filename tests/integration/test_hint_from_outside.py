"""A level's hint is looked for off the UI thread: `rulefront play first-steps` as a player
meets it, in the Textual client (tmux) and in the window (Xvfb, xdotool, `import`).

The solver finds first-steps' answer in milliseconds, too fast to press a key while it looks.
So the test holds the search still: it stops the client's thinking process (the child that
game/session/think.py starts, found among the client's descendants; the terminal starts it
with the first hint, the window with the level) with SIGSTOP before the hint key, and lets it go on with SIGCONT once the help is on screen. While it is stopped the
hint cannot come, whatever the machine's speed: the indicator and the help box must show all
the same, and the hint must show once the search goes on.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from game.render import colors
from game.render.layout import Layout
from tests.helpers import until
from tests.integration.tmux import rulefront, terminal
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration

NOTICE = (255, 200, 120)  # the window panel's notice colour: its messages and indicators
LEVEL = ["play", "first-steps"]
FIRST_STEPS = (10, 7)  # columns, rows


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, their children...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        here = frontier.pop()
        below = [child for child, parent in parents.items() if parent == here]
        found += below
        frontier += below
    return found


def thinking_process(root: int) -> int | None:
    """The client's thinking process (a multiprocessing 'spawn' child), once it has started."""
    for pid in descendants(root):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            return pid
    return None


@contextmanager
def held(pid: int) -> Iterator[None]:
    """The process stopped for the block (continued after, whatever happens)."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def test_the_terminal_opens_help_while_the_hint_is_looked_for_and_shows_the_hint_after(
        tmp_path):
    with terminal(rulefront(*LEVEL, "--text"), tmp_path) as term:
        term.wait_for("player to play")
        root = int(term.tmux("display-message", "-p", "-t", "0", "#{pane_pid}").strip())
        assert thinking_process(root) is None  # no AI seat: nothing thinks until a hint
        term.keys("h")
        term.wait_for("moves to go")  # the first hint started the thinking process
        child = thinking_process(root)
        assert child is not None
        with held(child):
            term.keys("h")
            term.wait_for("looking for a hint")
            term.keys("?")
            shown = term.wait_for("Keys (")
            assert "moves to go" not in shown  # the search is held: no hint could have come
        term.keys("x")  # any key closes the box of keys
        # The hint may be drawn under the box before the key reaches the client, so wait
        # for the screen with both: the box closed and the hint shown.
        screen = until(lambda: [s for s in [term.screen()]
                                if "moves to go" in s and "Keys (" not in s],
                       "the box closed and the hint shown")[0]
        assert "hint: " in screen and "looking for a hint" not in screen
        term.keys("q")  # no move played: nothing to lose, so q quits at once
        assert term.exit_code() == 0


def test_the_window_opens_help_while_the_hint_is_looked_for_and_draws_the_hint_after(
        tmp_path):
    lay = Layout(WIDTH, HEIGHT, *FIRST_STEPS)
    board = (slice(0, HEIGHT), slice(0, lay.panel_x))
    panel = (slice(0, HEIGHT), slice(lay.panel_x, WIDTH))

    def count(picture: np.ndarray, color: tuple[int, int, int]) -> int:
        return int((np.abs(picture.astype(int) - np.array(color)).max(axis=2) <= 24).sum())

    def differs(picture: np.ndarray, other: np.ndarray) -> float:
        """The share of the board's pixels that differ clearly between two pictures."""
        change = np.abs(picture[board].astype(int) - other[board].astype(int)).max(axis=2)
        return float((change > 40).mean())

    with x_server() as display:
        desk = Desk(display, tmp_path)
        game = subprocess.Popen(rulefront(*LEVEL, "--size", f"{WIDTH}x{HEIGHT}"),
                                env=desk.env, cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            window = desk.window("Rulefront - levels", game)
            child = until(lambda: thinking_process(game.pid), "the thinking process")
            before = until(lambda: [s for s in [desk.window_shot(window)]
                                    if len(np.unique(s[board].reshape(-1, 3), axis=0)) > 10],
                           "the board")[0]
            assert count(before[panel], NOTICE) == 0  # no message yet
            with held(child):
                desk.key(window, "i")
                looking = until(lambda: [s for s in [desk.window_shot(window)]
                                         if count(s[panel], NOTICE) > 20], "the indicator")[0]
                desk.key(window, "h")
                until(lambda: differs(desk.window_shot(window), looking) > 0.05, "the help box")
                desk.key(window, "h")  # and closed again, the search still held
                closed = until(lambda: [s for s in [desk.window_shot(window)]
                                        if differs(s, looking) < 0.01], "the help to close")[0]
                assert count(closed[board], colors.SELECT) == count(before[board], colors.SELECT)
                assert count(closed[panel], NOTICE) > 20  # no arrow: still looking
            until(lambda: count(desk.window_shot(window)[board], colors.SELECT)
                  > count(before[board], colors.SELECT) + 50, "the hint's arrow")
            desk.key(window, "q")  # no move played: the window closes at once
            out, err = game.communicate(timeout=60)
        finally:
            if game.poll() is None:
                game.kill()
                game.wait()
    assert game.returncode == 0, err
    assert "first-steps: 0 moves, not finished" in out
