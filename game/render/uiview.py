"""What the controller wants shown on top of the world: highlights, modal boxes, a message.

The controller builds one of these per frame; the screen draws it. No pyglet here.
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class UiView:
    selected: int | None = None
    reach: frozenset[Cell] = frozenset()  # red overlay: where the selected hero may move
    targets: frozenset[Cell] = frozenset()  # blue overlay: what it may attack
    hide_board: bool = False  # hotseat hand-over: the next player must not see the board yet
    modal: tuple[str, ...] = ()  # lines of a centred box (hand-over, game over, help)
    message: str = ""  # the last refusal or notice, one sentence
    footer: str = ""  # a hint line under the panel (keys, seats, paused)
    info: tuple[str, ...] = ()  # level lines of the panel: moves, time, stars
    marks: frozenset[Cell] = frozenset()  # cells boxed on top (octal: the blocks Enter takes)
    hint: str = ""  # the solver's next move ('u', 'd', 'l', 'r', 's') to draw on the board
    path: tuple[Cell, ...] = ()  # hover: the cells a move would walk, the hovered one last
    tooltip: tuple[str, ...] = ()  # hover: what a move or attack would do, what stands there
