"""`rulefront play`: a game in a window, or in the terminal with --text."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from game.cli.args import between, nonempty, out_file
from game.cli.common import (
    LEVELS,
    add_seats,
    add_window_flags,
    need_one_player,
    open_game,
)
from game.engine import Engine
from game.errors import UserError
from game.levels.files import writable
from game.levels.loader import FileKind
from game.levels.maps import DEFAULT_MAP
from game.registry import PLAYER
from game.session.match import Seat, make_seats
from game.session.narrate import Told
from game.session.saves import default_save_path, resumed_seats, told_of
from game.text.play import TextGame


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play hotseat or against AIs (window, or --text)")
    p.add_argument("map", nargs="?", default=None,
                   help="a map or level file, or a shipped map's name; without one (and "
                        "without --red, --blue, --resume, --octal...) the title menu opens")
    add_seats(p, default="human")
    p.set_defaults(red=None, blue=None)  # given or not: a seat flag skips the title menu
    p.add_argument("--text", action="store_true", help="play in the terminal instead of a window "
                   "(levels: also with --moves or --json)")
    p.add_argument("--plain", action="store_true",
                   help="with --text: the plain line-by-line client (scripts, pipes, screen "
                        "readers) instead of the full-screen one")
    p.add_argument("--resume", metavar="SAVE", help="continue a saved game exactly (it saves "
                   "back to SAVE unless --save says otherwise)")
    p.add_argument("--save", type=out_file, metavar="FILE",
                   help=f"where to autosave after every command (default {default_save_path()})")
    p.add_argument("--octal", metavar="CODE",
                   help="play an octal take-away game, e.g. 0.137 or nim (with --heaps)")
    p.add_argument("--heaps", default="7,9,12", help="octal: heap sizes, e.g. 7,9,12")
    p.add_argument("--misere", action="store_true",
                   help="octal: misere play (who takes the last block loses)")
    add_window_flags(p, fps_help="window: AI animation speed")
    p.add_argument("--series", type=between(1, 1_000), metavar="N",
                   help="terminal: play N games in a row with a running tally; the loser of "
                        "each game moves first (red) in the next")
    p.add_argument("--level", type=nonempty, metavar="ID", help="a level id in a Keke JSON level set")
    p.add_argument("--moves", help="puzzle/descent: apply these moves (u d l r, s wait) and stop")
    p.add_argument("--json", action="store_true", help="with --moves: print the state as JSON")
    p.add_argument("--player", help="puzzle/descent: record a win under this player's name")
    p.set_defaults(func=run)


def load_game(args: argparse.Namespace) -> tuple[Engine, dict[str, Seat], int, list[Told] | None]:
    """The engine and seats to play, and the log a resumed save kept: a resumed save, or a
    new game on the level or map."""
    source = args.resume or args.map
    if args.octal:
        from game.rulesets.octal.ruleset import parse_heaps, spec_map

        source = args.map = str(spec_map(args.octal, parse_heaps(args.heaps), args.misere).path)
    accepts = (FileKind.SAVE,) if args.resume else (*LEVELS, FileKind.SAVE)
    engine, record = open_game(source, "play --resume" if args.resume else "play", accepts,
                               level=None if args.resume else args.level, seed=args.seed)
    if record is None:
        specs = {"red": args.red, "blue": args.blue}
        return engine, make_seats(engine, specs, args.seed), args.seed, None
    return (engine, resumed_seats(engine, record, source, {args.red, args.blue}), record.seed,
            told_of(record))


def terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def full_screen(args: argparse.Namespace) -> bool:
    """True when --text should open the Textual client: not --plain, and both stdin and stdout
    are terminals (otherwise scripts and pipes get the plain client, with a notice)."""
    if not args.text or args.plain:
        return False
    if terminal():
        return True
    print("rulefront: not a terminal, so playing in plain text (--plain).", file=sys.stderr)
    return False


def read_line(prompt: str) -> str:
    """input(), where a closed or unreadable stdin (`< /dev/null`, `<&-`) is its end: the
    player quits, and the game is saved as on `q`."""
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    try:
        return input(prompt)
    except (RuntimeError, OSError, UnicodeDecodeError):
        raise EOFError from None


def autosave_path(args: argparse.Namespace) -> Path:
    """Where the game autosaves (--save, else the save it resumed, else the data folder),
    checked before any move: a folder that is a file or read-only is one sentence, not a
    traceback or a refusal after the first command. A resumed game saves back to its own
    file: writing it to the default autosave would overwrite another game."""
    if args.save:
        return Path(args.save)  # checked by argparse (out_file)
    if getattr(args, "resume", None):
        path = Path(args.resume)
        try:
            writable(path)
        except UserError as exc:
            raise UserError(f"{str(exc).rstrip('.')} (the resumed save, where the game saves "
                            "back; give --save FILE to save elsewhere).") from None
        return path
    path = default_save_path()
    try:
        writable(path)
    except UserError as exc:
        raise UserError(f"{str(exc).rstrip('.')} (the autosave; set XDG_DATA_HOME to a "
                        "writable folder, or give --save FILE).") from None
    return path


def scores_ready(args: argparse.Namespace) -> None:
    """--player keeps a won level's score in the data folder: checked before the level."""
    if not args.player:
        return
    from game.session.scores import scores_path

    try:
        writable(scores_path())
    except UserError as exc:
        raise UserError(f"{str(exc).rstrip('.')} (the score table of --player; set "
                        "XDG_DATA_HOME to a writable folder).") from None


# Flags that choose a game: any of them skips the title menu (and plays duel without a map).
CHOOSING = ("red", "blue", "resume", "octal", "series", "level", "moves", "json", "player",
            "save", "plain")


def wants_menu(args: argparse.Namespace) -> bool:
    """`rulefront play` with no map and no flag that chooses a game opens the title menu."""
    return args.map is None and not any(getattr(args, flag, None) not in (None, False)
                                        for flag in CHOOSING)


def run(args: argparse.Namespace) -> int:
    if wants_menu(args) and (not args.text or terminal()):
        return run_menu(args)  # scripts and pipes (--text, not a terminal) play duel as before
    args.map = args.map if args.map is not None else str(DEFAULT_MAP)
    goal = challenge_seats(args)
    args.red, args.blue = args.red or "human", args.blue or "human"
    if args.plain and not args.text:
        args.text = True
    if getattr(args, "series", None) is not None:
        return run_series_args(args)
    engine, seats, seed, log = load_game(args)
    if len(engine.ruleset.sides) == 1:
        scores_ready(args)
        if args.moves is None and not args.json and full_screen(args):
            code = run_app(engine, seats, seed, None)
            record_win(engine, args)
            return code
        if args.text or args.moves is not None or args.json:
            return run_level(engine, args)
        return run_level_in_window(engine, args)
    for flag in ("moves", "json", "player"):
        if getattr(args, flag) not in (None, False):
            need_one_player(engine, args.map, f"--{flag}")
    save_path = autosave_path(args)
    if full_screen(args):
        code = run_app(engine, seats, seed, save_path, log)
    elif args.text:
        if goal is not None:
            print(f"Challenge: {goal.brief}")
        from game.session.settings import load_settings

        code = TextGame(engine, seats, seed, save_path, read_line, sys.stdout,
                        load_settings()).run()
    else:
        try:
            from game.render.app import run_window
        except ImportError:
            raise UserError("the window client is not available here; play in the terminal "
                            "with --text.") from None
        code = run_window(engine, seats, seed, save_path, args, log)
    if goal is not None and seats[goal.side].ai is None:
        score_challenge(engine, goal)
    return code


def challenge_seats(args: argparse.Namespace) -> Any:
    """A challenge map (its sidecar states one) played without seat flags: the player's side
    is human, the other side the challenge's opponent, the seed its own. The Goal, or None."""
    if args.resume:
        return None
    from game.levels.loader import load_game_map
    from game.session.challenge import goal_of

    try:
        goal = goal_of(load_game_map(args.map))
    except UserError:
        return None  # not a map: load_game says what it is
    if goal is not None and args.red is None and args.blue is None:
        args.red, args.blue = goal.seats(("red", "blue")).values()
        args.seed = args.seed or goal.seed
    return goal


def score_challenge(engine: Engine, goal: Any) -> None:
    """A challenge the player finished: said, and a win kept in the score table under the
    player's name from the settings (the title menu's Challenges page shows its stars)."""
    from game.session.challenge import record_win
    from game.session.settings import load_settings

    title = engine.map.name if engine.map is not None else "challenge"
    said = record_win(engine, goal, title, load_settings().player)
    if said:
        print(said)


def run_menu(args: argparse.Namespace) -> int:
    """The title menu: in the window, or in the terminal with --text."""
    from game.session.settings import load_settings

    load_settings()  # a broken settings file: one sentence and exit 2, before any window
    if args.text:
        from game.text.menu import run_text_menu

        return run_text_menu(args.seed)
    try:
        from game.render.menu_start import run_menu_window
    except ImportError:
        raise UserError("the window client is not available here; open the menu in the "
                        "terminal with `rulefront play --text`.") from None
    return run_menu_window(args.seed, args.size, args.fps, args.quit_after, not args.no_anim)


def run_app(engine: Engine, seats: dict[str, Seat], seed: int, save_path: Path | None,
            log: list[Told] | None = None) -> int:
    """The full-screen terminal client (Textual is imported here, never at start-up)."""
    from game.session.settings import load_settings
    from game.text.app import RulefrontApp, use_settings

    use_settings(load_settings())  # the colour-blind palette and key bindings, if chosen
    app = RulefrontApp(engine, seats, seed, save_path, log=log)
    app.run()
    if app.save_error is not None:  # the app stopped at the failed write; the last save holds
        raise UserError(f"{app.save_error.rstrip('.')}; the game stopped there, and "
                        f"{save_path} holds the last move saved.")
    if engine.outcome is not None:
        print(f"game over: {engine.outcome.winner} ({engine.outcome.reason})")
    elif save_path is not None:
        print(f"saved to {save_path}; continue with --resume {save_path}")
    return 0


def run_level(engine: Engine, args: argparse.Namespace) -> int:
    """A one-player level in the terminal: moves read at a prompt, or scripted with --moves."""
    from game.cli.solve import apply_moves
    from game.text.levels import play_text

    if args.moves is None:
        from game.session.settings import load_settings

        code = play_text(engine, read_line, sys.stdout, load_settings())
    else:
        apply_moves(engine, args.moves)
        if args.json:
            print(json.dumps(level_state(engine)))
        else:
            print(engine.ruleset.text_board(engine.world))
            print(engine.ruleset.describe(engine.world))
        code = 0
    record_win(engine, args)
    return code


def record_win(engine: Engine, args: argparse.Namespace) -> None:
    """--player NAME: a won level goes into the best-score table."""
    if args.player and engine.outcome and engine.outcome.winner == PLAYER:
        from game.session.scores import record_score

        record_score(args.map + (f"#{args.level}" if args.level else ""), args.player,
                     len(engine.history))


def run_level_in_window(engine: Engine, args: argparse.Namespace) -> int:
    """A one-player level in the window (N goes on to the next level)."""
    try:
        from game.render.app import run_level_window
    except ImportError:
        raise UserError("the window client is not available here; play in the terminal "
                        "with --text.") from None
    return run_level_window(engine, args)


def level_state(engine: Engine) -> dict[str, Any]:
    """What `play LEVEL --moves ... --json` prints: the status and moves, then the position."""
    report = engine.ruleset.report(engine.world)
    return {"status": report.pop("status", "playing"), "moves": len(engine.history), **report}


def run_series_args(args: argparse.Namespace) -> int:
    from game.text.series import run_series

    if args.series < 1:
        raise UserError("--series must be at least 1 game.")
    if args.resume:
        raise UserError("--series starts new games; it cannot be combined with --resume.")
    if not args.text:
        raise UserError("--series plays in the terminal; add --text.")
    save_path = autosave_path(args)
    play = None
    if full_screen(args):
        def play(engine: Engine, seats: dict[str, Seat], seed: int) -> None:
            run_app(engine, seats, seed, save_path)
    from game.session.settings import load_settings

    run_series(args.map, args.red, args.blue, args.series, args.seed, save_path, read_line,
               sys.stdout, play, load_settings())
    return 0
