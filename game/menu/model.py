"""What the title menu is made of: its rows, the view a client draws, what it launches, its
pages and data/menu.yaml's entries (no pyglet, no Textual).

The menu lives here, under both clients (game/render/menu_window.py draws it in the window,
game/text/menu.py in the terminal), because the layers keep the two clients apart: neither may
import the other's package, so the state they share sits below them, as game.session does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.errors import UserError


@dataclass(frozen=True)
class Row:
    """One line of a page: its words, a value or stars on the right, the map it shows."""

    label: str
    detail: str = ""
    stars: int | None = None  # stars won (0-3), None where there are none to win
    preview: Path | None = None  # the map or level drawn beside the list
    level: str | None = None


@dataclass(frozen=True)
class MenuView:
    """What a client draws: the page title, its rows, the chosen one, the words beside it."""

    title: str
    rows: tuple[Row, ...]
    cursor: int
    about: tuple[str, ...] = ()
    message: str = ""
    footer: str = "arrows choose   Enter opens   left/right change   Escape back"
    text: tuple[str, ...] = ()  # a page of prose (How to play) instead of a preview


@dataclass(frozen=True)
class Launch:
    """What the player started: a match, a level, a resumed save, the map editor or a seat at
    a server's game."""

    kind: str  # "match", "level", "resume", "edit", "online"
    path: Path
    specs: dict[str, str] = field(default_factory=dict)  # side -> seat spec (matches)
    level: str | None = None
    challenge: str | None = None  # the challenge's title, scored when won
    counts: str = "rounds"  # what a won challenge scores: "rounds", or "actions" (a shipped
    # challenge map: the player's commands, end of turn aside)
    seed: int | None = None  # the game's seed, when it must be this one (a challenge's)
    new_size: str | None = None  # edit: make a new map of this size (WxH)
    url: str | None = None  # online: the server, the game and the seat's token (Join, Host)
    game: str | None = None
    token: str | None = None
    seat: str | None = None


@dataclass
class Page:
    """A page: its rows and what Enter, left/right do on each (functions of the row index)."""

    title: str
    rows: list[Row]
    enter: Callable[[int], None] | None = None
    change: Callable[[int, int], None] | None = None
    about: Callable[[int], tuple[str, ...]] | None = None
    text: tuple[str, ...] = ()
    rebuild: Callable[[], Page] | None = None  # the same page afresh (stars, files changed)
    # rows that take typed text (Join's address, game and token): typing(row, text) is given
    # what was typed or pasted ("\b": one character erased) and answers whether the row took it
    typing: Callable[[int, str], bool] | None = None


@dataclass(frozen=True)
class Entry:
    page: str
    label: str
    about: str = ""
    rulesets: tuple[str, ...] = ()


def menu_file(pages: Collection[str]) -> tuple[list[Entry], list[Any], tuple[str, ...]]:
    """data/menu.yaml, checked by its schema: the entries (each of a kind in `pages`), the
    challenges and the How to play page."""
    from game import DATA
    from game.data import load_yaml
    from game.schemas import MenuFile, validate

    path = DATA / "menu.yaml"
    checked: MenuFile = validate(load_yaml(path), MenuFile, path)
    unknown = [e.page for e in checked.entries if e.page not in pages]
    if unknown:
        raise UserError(f"{path}: the page '{unknown[0]}' is not one the menu knows; known: "
                        f"{', '.join(pages)}.")
    entries = [Entry(e.page, e.label, e.about, tuple(e.rulesets)) for e in checked.entries]
    return entries, list(checked.challenges), tuple(checked.howto)


def stars_for(thresholds: dict[Any, Any], count: int) -> int:
    """Stars earned in `count` moves or rounds: the most whose limit is not passed."""
    earned = [int(k) for k, limit in thresholds.items() if count <= int(limit)]
    return max(earned, default=0)


def star_text(stars: int | None) -> str:
    return "" if stars is None else "*" * stars + "." * (3 - stars)


