"""The title menu's network pages: Host (a `rulefront serve` started in the background, a game
made on it, its seats' tokens shown and written down) and Join (a server's address, a game and
a token typed or pasted), both ending in a seat played as `rulefront online play` plays it.

The hosted server is a child process of this Rulefront: it stops when the player stops hosting
or leaves Rulefront, even by a kill (on Linux), and its games stay in the data folder
(`rulefront serve --data` on that folder resumes them). docs/online.md.
"""

from __future__ import annotations

import atexit
import re
import selectors
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from game.errors import UserError
from game.menu.controller import MenuController
from game.menu.model import Entry, Launch, Page, Row

START_SECONDS = 30.0  # a server starting on a loaded machine
URL = re.compile(r"https?://\S+/")
GAME = re.compile(r"^[A-Za-z0-9_-]{12}$")
OPEN_TO = ("this machine", "the local network")


@dataclass
class Hosted:
    """A server this Rulefront started, and the game made on it."""

    process: subprocess.Popen[str]
    url: str  # where the other player reaches it
    game: str
    tokens: dict[str, str]
    written: Path  # the join lines, to send the other player theirs

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


HOSTED: list[Hosted] = []  # stopped when Rulefront exits


@atexit.register
def stop_hosting() -> None:
    while HOSTED:
        HOSTED.pop().stop()


def join_line(url: str, game: str, token: str) -> str:
    return f"rulefront online play {url} {game} --token {token}"


def host_page(menu: MenuController, entry: Entry) -> None:
    """A map of sides and who may connect, then Host: the server starts, the game is made."""
    maps = menu.maps_of(entry.rulesets, sides=2)
    if not maps:
        menu.message = "There are no maps of sides to host."
        return
    from game.levels.maps import DEFAULT_MAP

    paths = [path for _name, path, _map in maps]
    state = {"map": paths.index(DEFAULT_MAP) if DEFAULT_MAP in paths else 0, "open": 0}

    def build() -> Page:
        name, path, game_map = maps[state["map"]]
        rows = [Row("Map", f"< {game_map.name} >", preview=path),
                Row("Open to", f"< {OPEN_TO[state['open']]} >", preview=path),
                Row("Host", f"{game_map.name}, {game_map.width}x{game_map.height}",
                    preview=path)]
        page = Page(entry.label, rows, enter=enter, change=change, about=about)
        page.rebuild = build
        return page

    def about(row: int) -> tuple[str, ...]:
        reach = ("Only this computer can connect (another window, a bot, a browser)."
                 if state["open"] == 0 else
                 "Computers on your network can connect; tokens cross it in clear "
                 "(docs/online.md: TLS).")
        return ("Starts a Rulefront server here and makes a game on it;",
                "you get a token per seat to play one and send the other.", reach)

    def change(row: int, step: int) -> None:
        if row == 0:
            state["map"] = (state["map"] + step) % len(maps)
        elif row == 1:
            state["open"] = (state["open"] + step) % len(OPEN_TO)
        else:
            return
        menu.stack[-1] = (build(), row)

    def enter(row: int) -> None:
        if row < 2:
            change(row, 1)
            return
        name, _path, _game_map = maps[state["map"]]
        try:
            hosted = host(name, network=state["open"] == 1)
        except UserError as exc:
            menu.message = str(exc)
            return
        hosting_page(menu, hosted)

    menu.open(build())


def hosting_page(menu: MenuController, hosted: Hosted) -> None:
    """The hosted game: play a seat here, and the other player's line to send them."""
    sides = list(hosted.tokens)
    rows = [Row(f"Play {side} here", "") for side in sides] + [Row("Stop hosting", "")]

    def about(row: int) -> tuple[str, ...]:
        lines = [f"server {hosted.url}", f"game {hosted.game}"]
        lines += [f"{side}: {token}" for side, token in hosted.tokens.items()]
        lines += [f"watch: {hosted.url}watch/{hosted.game}",
                  f"the join lines are in {hosted.written}"]
        return tuple(lines)

    def enter(row: int) -> None:
        if row < len(sides):
            side = sides[row]
            menu.launch = Launch("online", Path(hosted.game), url=hosted.url, game=hosted.game,
                                 token=hosted.tokens[side], seat=side)
            return
        hosted.stop()
        if hosted in HOSTED:
            HOSTED.remove(hosted)
        menu.back()
        menu.message = "The server stopped; its games are kept (rulefront serve resumes them)."

    menu.open(Page(f"Hosting {hosted.game}", rows, enter=enter, about=about))


def host(map_name: str, network: bool = False) -> Hosted:
    """Start `rulefront serve` on a free port (loopback, or every interface), make a game on
    `map_name`, and write each seat's join line where the player can copy it."""
    from game.levels.files import atomic_write
    from game.net import protocol as p
    from game.net.client import ask
    from game.session.saves import data_dir

    folder = data_dir() / "hosted"
    command = [sys.executable, "-m", "game", "serve", "--port", "0", "--data", str(folder),
               "--host", "0.0.0.0" if network else "127.0.0.1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL, text=True,
                               preexec_fn=_dies_with_us if sys.platform == "linux" else None)
    try:
        local = _announced(process)
        created = ask(local, p.New(map_name))
        if not isinstance(created, p.Created):
            raise UserError(f"the server started here answered {type(created).__name__}.")
    except BaseException:
        process.kill()
        process.wait()
        raise
    url = local.replace("0.0.0.0", _address()) if network else local
    written = data_dir() / "hosted.txt"
    lines = [f"# {created.map}: game {created.game}, hosted at {url}",
             *(f"{join_line(url, created.game, token)}   # {side}"
               for side, token in created.tokens.items()),
             f"# watch in a browser: {url}watch/{created.game}"]
    hosted = Hosted(process, url, created.game, dict(created.tokens), written)
    HOSTED.append(hosted)
    atomic_write(written, ("\n".join(lines) + "\n").encode())
    return hosted


def _dies_with_us() -> None:
    """In the server's process before it runs: Linux sends it SIGTERM when this Rulefront
    dies, however it dies (a kill -9 runs no atexit), so no hosted server is left behind."""
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def _announced(process: subprocess.Popen[str]) -> str:
    """The address `serve` prints once it listens (0.0.0.0 as the loopback to reach it)."""
    assert process.stdout is not None
    deadline = time.monotonic() + START_SECONDS
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not selector.select(timeout=0.2):
                if process.poll() is not None:
                    break
                continue
            line = process.stdout.readline()
            if not line:
                break
            found = URL.search(line)
            if found is not None:
                return found.group(0).replace("0.0.0.0", "127.0.0.1")
    raise UserError("the server could not be started here (try `rulefront serve` in a "
                    "terminal to see why).")


def _address() -> str:
    """This machine's address on its network (no packet is sent: a UDP socket is only
    pointed somewhere); the loopback when there is no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def join_page(menu: MenuController, entry: Entry) -> None:
    """The server's address, the game and the seat's token, typed or pasted (a whole
    `rulefront online play URL GAME --token T` line fills all three), then Join."""
    fields = {"Server": "", "Game": "", "Token": ""}
    names = list(fields)

    def build() -> Page:
        rows = [Row(name, shown(name)) for name in names] + [Row("Join", "")]
        page = Page(entry.label, rows, enter=enter, typing=typing, about=about)
        page.rebuild = build
        return page

    def shown(name: str) -> str:
        value = fields[name]
        return value if len(value) <= 26 else value[:12] + "..." + value[-11:]

    def about(row: int) -> tuple[str, ...]:
        return ("Type or paste (Ctrl+V) what the host sent you: the server's address "
                "(http://HOST:PORT/), the game's id and your seat's token. Their whole "
                "`rulefront online play ...` line, pasted, fills all three.",
                "Backspace erases; Enter goes on to the next field, then takes your seat.")

    def typing(row: int, text: str) -> bool:
        if row >= len(names):
            return False
        if not text:
            return True
        name = names[row]
        if text == "\b":
            fields[name] = fields[name][:-1]
        elif not _fill_from_line(fields, text):
            fields[name] = (fields[name] + "".join(c for c in text if c.isprintable()
                                                   and not c.isspace()))[:200]
        menu.stack[-1] = (build(), row)
        return True

    def enter(row: int) -> None:
        if row < len(names):
            menu.stack[-1] = (menu.page, row + 1)  # Enter on a field: on to the next
            return
        missing = [name.lower() for name in names if not fields[name]]
        if missing:
            menu.message = f"Give the {' and the '.join(missing)} first."
            return
        if not GAME.match(fields["Game"]):
            menu.message = (f"'{fields['Game']}' is not a game id (12 letters, digits, - or "
                            "_, as the host's line gives it).")
            return
        url = fields["Server"]
        menu.launch = Launch("online", Path(fields["Game"]), url=url, game=fields["Game"],
                             token=fields["Token"])

    menu.open(build())


def _fill_from_line(fields: dict[str, str], text: str) -> bool:
    """A pasted `... URL GAME --token T` line: the three fields from it (True when it was)."""
    words = text.split()
    url = next((w for w in words if URL.fullmatch(w if w.endswith("/") else w + "/")), None)
    if url is None or "--token" not in words or words.index("--token") + 1 >= len(words):
        return False
    after = words[words.index(url) + 1:] if url in words else []
    game = next((w for w in after if GAME.match(w)), "")
    fields["Server"] = url if url.endswith("/") else url + "/"
    fields["Game"] = game
    fields["Token"] = words[words.index("--token") + 1]
    return True
