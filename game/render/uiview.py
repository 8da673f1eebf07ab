"""What the controller wants shown on top of the world: highlights, modal boxes, a message.

The controller builds one of these per frame; the screen draws it. No pyglet here.
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]
Button = tuple[str, str]  # (what a click on it does, for the controller's `button`; its label)


@dataclass(frozen=True)
class UiView:
    selected: int | None = None
    reach: frozenset[Cell] = frozenset()  # blue overlay: where the selected hero may move
    targets: frozenset[Cell] = frozenset()  # red overlay: what it may attack
    hide_board: bool = False  # hotseat hand-over: the next player must not see the board yet
    modal: tuple[str, ...] = ()  # lines of a centred box (hand-over, game over, help)
    message: str = ""  # the last refusal or notice, one sentence
    footer: str = ""  # a hint line under the panel (keys, seats, paused)
    info: tuple[str, ...] = ()  # level lines of the panel: moves, time, stars
    marks: frozenset[Cell] = frozenset()  # cells boxed on top (octal: the blocks Enter takes)
    hint: str = ""  # the solver's next move ('u', 'd', 'l', 'r', 's') to draw on the board
    path: tuple[Cell, ...] = ()  # hover: the cells a move would walk, the hovered one last
    tooltip: tuple[str, ...] = ()  # hover: what a move or attack would do, what stands there
    # hover: the cells of the sentences a push of words would break (red) or form (yellow)
    sentences: tuple[tuple[Cell, str], ...] = ()
    threat_moves: frozenset[Cell] = frozenset()  # where enemies may move next turn (blue)
    threat_strikes: frozenset[Cell] = frozenset()  # where else they may strike (red)
    ready: tuple[Button, ...] = ()  # the units that can still act, each a button selecting it
    buttons: tuple[Button, ...] = ()  # panel buttons under them (end turn)
    log_scroll: int = 0  # rows of the log scrolled back from its newest
    zoom: float = 1.0  # board scale over the size that fits the window
    pan: tuple[float, float] = (0.0, 0.0)  # the view's centre from the board's, in cells
