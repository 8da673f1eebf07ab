"""`rulefront solve`: shortest (or cheapest) solutions of puzzle and descent levels.

`rulefront solve LEVEL [--level ID] [--budget S] [--method M] [--json]` solves one level and
saves the solution as a replay; `--hint` prints only the next move; `--moves M` solves from the
state after those moves. `rulefront solve --keke SET [--budget S] [--workers N] [--stored] [--unsolved]` runs a whole
Keke level set, one level at a time, each solution re-verified by replaying it on a fresh
engine; `--unsolved` prints the levels it missed, with their grids.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from game import registry
from game.cli.args import nonempty, out_file, positive_float, positive_int, workers
from game.cli.common import LEVELS, open_game
from game.engine import Engine, Impossible
from game.errors import UserError
from game.registry import SearchHooks
from game.session.challenge import Goal, goal_of
from game.session.challenge import solve as solve_challenge
from game.session.replay import Record, write_record
from systems.ai.solver import Solution, moves_text, solve


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="solve a puzzle or descent level, a skirmish challenge "
                                     "(or a Keke level set)")
    p.add_argument("level", nargs="?", help="a .keke, .json (with --level), .txt or .png level, "
                   "or a challenge (`rulefront maps` lists them: kind challenge)")
    p.add_argument("--level", dest="level_id", type=nonempty, metavar="ID",
                   help="level id in a Keke JSON set; with --keke, the ids to solve (e.g. 72,86)")
    p.add_argument("--keke", metavar="SET", help="solve every level of a Keke JSON level set")
    p.add_argument("--stored", action="store_true",
                   help="with --keke: replay the set's stored solutions instead of solving")
    p.add_argument("--unsolved", action="store_true",
                   help="with --keke: print each level not solved, with its grid")
    p.add_argument("--budget", type=positive_float, default=10.0, metavar="SECONDS",
                   help="time per level (default 10); a challenge: per search (with words, "
                        "then without)")
    p.add_argument("--states", type=positive_int, metavar="N",
                   help="stop each search after this many states (auto: each stage of each "
                        "worker; with --keke, on every level)")
    p.add_argument("--method", default="auto",
                   help="bfs (shortest), cost (cheapest), astar, greedy, novelty, macro, "
                        "macro-fill, macro-spell, macro-novelty (macro moves: walks between "
                        "pushes), macro-novelty2, macro-spell-novelty2, macro-chain-novelty2 "
                        "(width-2 novelty first), a stage of auto's plans ('greedy w=3', "
                        "'macro-novelty2 p=5': a novelty search's penalty for a state with "
                        "nothing new, 50 by default) "
                        "or auto (default: bfs and the width-2 novelty searches, with g + 3h "
                        "beside them on two workers)")
    p.add_argument("--workers", type=workers, default=min(2, os.cpu_count() or 1), metavar="N",
                   help="with auto: 1 runs bfs, macro-spell-novelty2 and a gentler "
                        "macro-chain-novelty2 (p=5) one after the other; 2 runs bfs, "
                        "gentler still macro-spell-novelty2 and macro-chain-novelty2 "
                        "(p=3) briefly, then macro-spell-novelty2 in one process and "
                        "g + 3h then macro-chain-novelty2 in another, each for the whole budget "
                        "(default: 2 on a machine with two cores or more)")
    p.add_argument("--moves", default="", help="solve from the state after these moves (udlrs)")
    p.add_argument("--hint", action="store_true", help="print only the next move")
    p.add_argument("--save", type=out_file, metavar="FILE", help="where to save the solution replay")
    p.add_argument("--gif", metavar="FILE",
                   help="also draw the solution, animated, to FILE (.gif, or .mp4 with "
                        "imageio-ffmpeg), offscreen")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.workers < 1:
        raise UserError(f"--workers is {args.workers}; give 1 or more.")
    if args.keke:
        from game.cli.keke_run import run_set, run_stored

        if args.stored:
            return run_stored(Path(args.keke), args.json)
        only = args.level_id.split(",") if args.level_id else None
        return run_set(Path(args.keke), args.budget, args.method, args.json, args.workers,
                       args.unsolved, only, args.states)
    if not args.level:
        raise UserError("name a level to solve, or a level set with --keke SET.")
    engine, _record = open_game(args.level, "solve", LEVELS, level=args.level_id)
    goal = goal_of(engine.map)
    if goal is not None:
        refuse_level_flags(args)
        if goal.seed:  # the challenge is played, and so solved, with its own seed
            engine, _record = open_game(args.level, "solve", LEVELS, seed=goal.seed)
        return run_challenge(args, engine, goal)
    if not isinstance(engine.ruleset, SearchHooks):
        searchable = [spec.name for spec in registry.specs()
                      if SearchHooks in registry.load_object(spec.factory).__mro__]
        raise UserError(f"{args.level}: is a {engine.ruleset.name} map; solve works on "
                        f"{' and '.join(searchable)} levels.")
    apply_moves(engine, args.moves)
    solution = solve(engine, args.budget, args.method, args.states, args.workers)
    report = report_of(solution)
    if engine.over:
        report["note"] = "the game is already over here"
    elif not solution.solved:
        report["note"] = ("cannot be won from here: every reachable state was searched"
                          if solution.exhausted else "not solved within the budget")
    if args.hint:
        hint = moves_text(solution.commands[:1]) if solution.solved else ""
        report = {"hint": hint, "solved": solution.solved, "length": solution.length,
                  **({"note": report["note"]} if "note" in report else {})}
    elif solution.solved:
        path = Path(args.save) if args.save else default_solution_path(args.level, args.level_id)
        save_solution(engine, solution, path)
        report["saved"] = str(path)
        if args.gif:
            from game.render.movie import write_movie

            report["gif"] = str(write_movie(engine, solution.commands, args.gif, 640, 480).path)
    if args.json:
        print(json.dumps(report))
    else:
        print(" ".join(f"{k}={v}" for k, v in report.items()))
    return 0 if solution.solved or engine.over else 1


def apply_moves(engine: Engine, moves: str) -> None:
    """Apply move letters (u d l r, s = wait) through submit; a refused one is a UserError."""
    from game.commands import Step, Wait

    for index, letter in enumerate(moves.lower()):
        if letter not in "udlrs":
            raise UserError(f"move {index + 1} is {letter!r}; moves are u d l r and s (wait).")
        if engine.over:
            break
        result = engine.submit(Wait() if letter == "s" else Step(letter))
        if isinstance(result, Impossible):
            raise UserError(f"move {index + 1} ({letter}) is refused: {result.reason}")


def report_of(solution: Solution) -> dict[str, Any]:
    return {"solved": solution.solved, "moves": moves_text(solution.commands),
            "length": solution.length, "cost": solution.cost, "states": solution.states,
            "seconds": round(solution.seconds, 3), "method": solution.method,
            "optimal": solution.solved and solution.method in ("bfs", "cost")}


def default_solution_path(level: str, level_id: str | None) -> Path:
    from game.session.saves import data_dir

    stem = Path(level).stem + (f"-{level_id}" if level_id else "")
    return data_dir() / "solutions" / f"{stem}.json"


def save_solution(engine: Engine, solution: Solution, path: Path) -> None:
    """A replay of the whole game so far plus the solution, for `rulefront replay`."""
    game_map = engine.map
    assert game_map is not None
    commands = engine.commands() + solution.commands
    for command in solution.commands:
        engine.apply(command)
    outcome = engine.outcome
    for _ in solution.commands:
        engine.retract()
    result = None if outcome is None else {"winner": outcome[0], "reason": outcome[1],
                                           "commands": len(commands)}
    record = Record(str(Path(game_map.path).resolve()), game_map.sha256, engine.ruleset.name, 0,
                    {"player": "solver"}, commands, result)
    if "level" in game_map.sidecar:
        record.extra["level"] = game_map.sidecar["level"]
    write_record(path, record)


def refuse_level_flags(args: argparse.Namespace) -> None:
    """The flags of puzzle and descent searches mean nothing to a challenge: one sentence."""
    given = [flag for flag, on in (("--moves", bool(args.moves)), ("--hint", args.hint),
                                   ("--method", args.method != "auto"),
                                   ("--level", args.level_id is not None)) if on]
    if given:
        raise UserError(f"{args.level}: is a skirmish challenge; {given[0]} applies to puzzle "
                        "and descent levels (a challenge takes --budget, --states, --save, "
                        "--gif and --json).")


def run_challenge(args: argparse.Namespace, engine: Engine, goal: Goal) -> int:
    """A skirmish challenge: the shortest winning line with the words, saved as a replay, and
    the search without them (words=off), which must see every line and find no win. Exit 0
    when both hold, 1 when either does not."""
    found = solve_challenge(engine, goal, True, args.budget, args.states)
    proof = solve_challenge(engine, goal, False, args.budget, args.states)
    report: dict[str, Any] = {
        "challenge": engine.map.name if engine.map else args.level, "brief": goal.brief,
        "side": goal.side, "turns": goal.turns, "opponent": goal.opponent,
        "solved": found.won, "actions": found.actions,
        "line": _told(engine, found.commands),
        "states": found.states, "seconds": round(found.seconds, 3),
        "exhausted": found.exhausted,
        "words_off": {"won": proof.won, "exhausted": proof.exhausted, "states": proof.states,
                      "seconds": round(proof.seconds, 3)},
        "needs_words": proof.exhausted and not proof.won,
    }
    if found.won:
        path = Path(args.save) if args.save else default_solution_path(args.level, None)
        seats = {s: "solver" if s == goal.side else goal.opponent for s in engine.ruleset.sides}
        save_line(engine, found.commands, path, goal.seed, seats)
        report["saved"] = str(path)
        report["stars"] = goal.stars_for(found.actions)
        if args.gif:
            from game.render.movie import write_movie

            report["gif"] = str(write_movie(engine, found.commands, args.gif, 640, 480).path)
    if not found.won:
        report["note"] = ("cannot be won within its turns: every line was searched"
                          if found.exhausted else "not solved within the budget")
    elif proof.won:
        report["note"] = "it can be won without pushing a word: the challenge needs redrawing"
    elif not proof.exhausted:
        report["note"] = "the search without words did not finish within the budget"
    if args.json:
        print(json.dumps(report))
    else:
        print(challenge_text(report))
    return 0 if found.won and report["needs_words"] else 1


def _told(engine: Engine, commands: list[Any]) -> list[str]:
    """Each command in words, as the board was when it was played, with the rules it formed
    and broke."""
    from game.events import RuleBroken, RuleFormed

    told = []
    depth = len(engine.history)
    try:
        for command in commands:
            line = f"{engine.side}: {engine.ruleset.describe_command(engine.world, command)}"
            events = engine.apply(command)
            changes = [f"forms {e.rule}" for e in events if isinstance(e, RuleFormed)]
            changes += [f"breaks {e.rule}" for e in events if isinstance(e, RuleBroken)]
            told.append(f"{line} ({', '.join(changes)})" if changes else line)
    finally:
        engine.retract_to(depth)
    return told


def challenge_text(report: dict[str, Any]) -> str:
    lines = [f"{report['challenge']}: {report['brief']}"]
    if report["solved"]:
        lines.append(f"solved: {report['actions']} of {report['side']}'s commands "
                     f"({report['states']} states, {report['seconds']} s):")
        lines += [f"  {line}" for line in report["line"]]
    off = report["words_off"]
    verdict = ("no win: every line was searched" if report["needs_words"]
               else "WINS without words" if off["won"] else "not finished")
    lines.append(f"words=off: {verdict} ({off['states']} states, {off['seconds']} s)")
    if "saved" in report:
        lines.append(f"saved: {report['saved']}  (rulefront replay {report['saved']})")
    if "gif" in report:
        lines.append(f"drawn: {report['gif']}")
    if "note" in report:
        lines.append(f"note: {report['note']}")
    return "\n".join(lines)


def save_line(engine: Engine, commands: list[Any], path: Path, seed: int,
              seats: dict[str, str]) -> None:
    """A replay of the game from its start through `commands`, with its result."""
    game_map = engine.map
    assert game_map is not None
    depth = len(engine.history)
    for command in commands:
        engine.apply(command)
    outcome = engine.outcome
    engine.retract_to(depth)
    result = None if outcome is None else {"winner": outcome[0], "reason": outcome[1],
                                           "commands": len(commands)}
    write_record(path, Record(str(Path(game_map.path).resolve()), game_map.sha256,
                              engine.ruleset.name, seed, seats, list(commands), result))
