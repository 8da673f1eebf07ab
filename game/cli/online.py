"""`rulefront online new | bot | watch | games | replay`: the clients of `rulefront serve`
(docs/online.md). `online play` (a seat in the window or the terminal) registers itself from
game/cli/online_play.py when that module exists."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
from typing import Any

from game.cli.args import out_file, positive_float
from game.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("online", help="play, watch and host games on a rulefront server")
    verbs = p.add_subparsers(dest="verb", metavar="VERB")

    new = verbs.add_parser("new", help="make a game; prints its id and one token per seat")
    new.add_argument("url", help="the server, as `rulefront serve` prints it")
    new.add_argument("map", help="a map the server offers (`rulefront maps` names them)")
    new.add_argument("--seed", type=int, help="the game's seed (default: the server picks)")
    new.add_argument("--clock", type=positive_float, metavar="SECONDS",
                     help="a side to play that stays away this long forfeits")
    new.add_argument("--json", action="store_true", help="print one JSON object")
    new.set_defaults(func=run_new)

    bot = verbs.add_parser("bot", help="play a seat with an AI (built-in or plug-in)")
    bot.add_argument("url")
    bot.add_argument("game", help="the game id `online new` printed")
    bot.add_argument("--seat", required=True, help="the side to play (red, blue, ...)")
    bot.add_argument("--token", required=True, help="the seat's token from `online new`")
    bot.add_argument("--ai", default="heuristic", help="any seat spec: random, heuristic, "
                     "minimax:think=0.5, module:Class ... (default heuristic)")
    bot.add_argument("--seed", type=int, help="the AI's seed (default: the game's)")
    bot.add_argument("--patience", type=positive_float, default=60.0, metavar="SECONDS",
                     help="how long to keep reconnecting to a lost server (default 60)")
    bot.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_budget(bot)
    bot.set_defaults(func=run_bot)

    watch = verbs.add_parser("watch", help="follow a game as it is played")
    watch.add_argument("url")
    watch.add_argument("game")
    watch.add_argument("--json", action="store_true",
                       help="one JSON object a line: joined, each command with its events, "
                            "ended")
    watch.add_argument("--patience", type=positive_float, default=60.0, metavar="SECONDS",
                       help="how long to keep reconnecting to a lost server (default 60)")
    watch.set_defaults(func=run_watch)

    games = verbs.add_parser("games", help="list the server's games")
    games.add_argument("url")
    games.add_argument("--json", action="store_true", help="print one JSON array")
    games.set_defaults(func=run_games)

    replay = verbs.add_parser("replay", help="download a game's replay (`rulefront replay` "
                              "verifies it)")
    replay.add_argument("url")
    replay.add_argument("game")
    replay.add_argument("-o", "--out", required=True, type=out_file, metavar="FILE")
    replay.set_defaults(func=run_replay)

    try:
        extra = importlib.import_module("game.cli.online_play")
    except ModuleNotFoundError as exc:
        if exc.name != "game.cli.online_play":
            raise
    else:
        extra.register(verbs)
    p.set_defaults(func=lambda args: _usage(p))


def _need_websockets() -> None:
    from game.net import need_websockets

    need_websockets("online")


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _add_budget(parser: argparse.ArgumentParser) -> None:
    from game.cli.tournament import add_budget

    add_budget(parser)


def run_new(args: argparse.Namespace) -> int:
    _need_websockets()
    from game.net import protocol as p
    from game.net.client import ask

    seed = args.seed
    if seed is not None and not 0 <= seed < 2**63:
        raise UserError(f"--seed must be from 0 to 2**63 - 1, not {seed}.")
    created = ask(args.url, p.New(args.map, seed, args.clock))
    if not isinstance(created, p.Created):
        raise UserError(f"{args.url}: answered {type(created).__name__}, not a new game.")
    base = _http_base(args.url)
    if args.json:
        data = p.to_builtins(created)
        data["watch"] = f"{base}watch/{created.game}"
        print(json.dumps(data))
        return 0
    print(f"game {created.game}: {created.map} ({created.ruleset}), seed {created.seed}")
    width = max(len(side) for side in created.sides)
    for side in created.sides:
        print(f"  {side:<{width}}  token {created.tokens[side]}")
    print(f"watch: {base}watch/{created.game}   (rulefront online watch {args.url} "
          f"{created.game})")
    return 0


def _http_base(url: str) -> str:
    from urllib.parse import urlsplit

    from game.net.client import ws_url

    parts = urlsplit(ws_url(url))
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}/"


def run_bot(args: argparse.Namespace) -> int:
    _need_websockets()
    from game.cli.tournament import budget_of
    from game.net.bot import play_seat
    from game.net.client import Follower
    from systems.ai import make_ai

    make_ai(args.ai)  # an unknown AI or a plug-in that will not load: refused before joining
    follower = Follower(args.url, args.game, args.seat, args.token, args.patience)
    result = _run(play_seat(follower, args.ai, budget_of(args), args.seed,
                            lambda line: print(line, file=sys.stderr)))
    if args.json:
        print(json.dumps({"game": args.game, "seat": args.seat, "ai": args.ai,
                          "reconnects": follower.reconnects, **result}))
    else:
        print(f"{args.seat} ({args.ai}): game {args.game} is over: {_outcome(result)}.")
    return 0


def _outcome(result: dict[str, Any]) -> str:
    winner = result.get("winner")
    reason = result.get("reason") or "no reason given"
    return f"{winner} wins ({reason})" if winner not in (None, "draw") else f"a draw ({reason})"


def run_watch(args: argparse.Namespace) -> int:
    _need_websockets()
    from game.net import protocol as p
    from game.net.client import Follower
    from game.session.narrate import names

    follower = Follower(args.url, args.game, patience=args.patience)
    shown = {"n": 0, "joined": False}
    before: dict[int, str] = {}  # every thing's name before the latest command: the fallen's

    async def show(follower: Follower, message: p.ServerMessage) -> None:
        if isinstance(message, p.Joined):
            if not shown["joined"]:
                shown["joined"] = True
                _line(args, p.to_builtins(message), f"game {message.game}: {message.map} "
                      f"({message.ruleset}), {message.commands} commands so far")
        elif isinstance(message, p.Played) and message.n > shown["n"]:
            shown["n"] = message.n
            _line(args, p.to_builtins(message), _played_text(follower, message, before))
        elif isinstance(message, p.Ended):
            _line(args, p.to_builtins(message), f"the game is over: {_outcome(message.result)}.")
        engine = getattr(follower, "engine", None)
        if engine is not None:  # the replica has taken this message in: names for the next
            before.clear()
            before.update(names(engine.world))

    _run(follower.run(show))
    return 0


def _played_text(follower: Any, message: Any, before: dict[int, str]) -> str:
    """Command n in sentences, a thing it killed named as it was before ('blue sage', not
    'blue hero': the replica has already applied the command)."""
    from game.events import Event
    from game.session.narrate import sentences

    events = [_event(raw) for raw in message.events]
    said = sentences(follower.engine.world, [e for e in events if isinstance(e, Event)],
                     before)
    return f"{message.n}. {message.side}: " + ("; ".join(said) or message.command["type"])


def _event(raw: dict[str, Any]) -> Any:
    from game import events as module

    cls = getattr(module, str(raw.get("type")), None)
    if not isinstance(cls, type) or not issubclass(cls, module.Event):
        return None
    try:
        return cls(**{k: v for k, v in raw.items() if k != "type"})
    except TypeError:
        return None


def _line(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data) if args.json else text, flush=True)


def run_games(args: argparse.Namespace) -> int:
    _need_websockets()
    from game.net import protocol as p
    from game.net.client import ask

    answer = ask(args.url, p.ListGames())
    if not isinstance(answer, p.Games):
        raise UserError(f"{args.url}: answered {type(answer).__name__}, not the games.")
    rows = [p.to_builtins(g) for g in answer.games]
    if args.json:
        print(json.dumps(rows))
        return 0
    for row in rows:
        state = (f"over: {_outcome(row['result'])}" if row["result"] else
                 f"{row['to_play']} to play")
        present = ", ".join(row["present"]) or "nobody"
        print(f"{row['game']}  {row['map']}  {row['commands']} commands, {state}; seated: "
              f"{present}; {row['spectators']} watching")
    print(f"{len(rows)} game{'' if len(rows) == 1 else 's'}.")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    _need_websockets()
    from game.levels.files import atomic_write
    from game.net import protocol as p
    from game.net.client import ask
    from game.schemas import ReplayFile, validate

    if not p.GAME_ID.fullmatch(args.game):
        raise UserError(f"{args.game!r} is not a game id (as `rulefront online new` prints it).")
    answer = ask(args.url, p.GetReplay(args.game))
    if not isinstance(answer, p.ReplayFile):
        raise UserError(f"{args.url}: answered {type(answer).__name__}, not a replay.")
    validate(answer.record, ReplayFile, f"{args.url} game {args.game}")
    atomic_write(args.out, (json.dumps(answer.record, indent=1) + "\n").encode())
    result = answer.record.get("result")
    state = _outcome(result) if result else "unfinished"
    print(f"wrote {args.out}: {len(answer.record['commands'])} commands, {state}.")
    return 0


def _run(coroutine: Any) -> Any:
    try:
        return asyncio.run(coroutine)
    except ValueError as exc:  # a message no protocol of ours has: not a Rulefront server
        raise UserError(str(exc)) from None
