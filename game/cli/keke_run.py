"""Whole Keke level sets: solve every level (each solution re-verified), or replay the stored
solutions and say why the ones that do not win here fail."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from game.progress import Progress, wanted
from game.rulesets.puzzle.keke import KekeLevel, read_set
from game.rulesets.puzzle.sets import set_levels
from systems.ai.keke_set import chosen, replay_wins, solve_levels


def run_set(path: Path, budget: float, method: str, as_json: bool, workers: int = 1,
            unsolved: bool = False, only: list[str] | None = None,
            max_states: int | None = None) -> int:
    rows = []
    start = time.perf_counter()
    picked = chosen(path, set_levels(path), only)  # a broken set is refused before solving
    levels = solve_levels(picked, budget, method, workers, max_states)
    total_levels = len(picked)
    bar = Progress("levels", not as_json and wanted(False))
    bar.update(0, total_levels)
    if not as_json:
        print(f"{'id':>4} {'solved':>6} {'len':>4} {'stored':>6} {'states':>8} {'s':>6} "
              f"{'method':>11}  moves")
    for row in levels:
        rows.append(row)
        bar.update(len(rows), total_levels, f"level {row['id']}")
        if not as_json:
            shown = row["moves"] if row["solved"] else \
                "(no solution exists)" if row["unsolvable"] else ""
            print(f"{row['id']:>4} {'yes' if row['solved'] else 'no':>6} {row['length']:>4} "
                  f"{row['stored_length']:>6} {row['states']:>8} {row['seconds']:>6} "
                  f"{row['method']:>11}  {shown}",
                  flush=True)
    bar.close()
    solved = sum(row["solved"] for row in rows)
    total = {"solved": solved, "total": len(rows), "budget": budget, "method": method,
             "workers": workers, "seconds": round(time.perf_counter() - start, 1)}
    missed = [row["id"] for row in rows if not row["solved"]]
    tight = close_calls(rows, budget)
    if as_json:
        print(json.dumps({"levels": rows, **total, "unsolved": missed,
                          "tight": [row["id"] for row in tight], "tight_within": TIGHT}))
        return 0
    if unsolved:
        print_missed(path, rows)
    print(f"solved {solved} of {len(rows)} at {budget:g} s per level, {workers} "
          f"worker{'s' if workers > 1 else ''} ({total['seconds']} s in all)")
    print(margin_line(rows, tight))
    if missed:
        print(f"unsolved: {' '.join(missed)}")
    return 0


TIGHT = 2.0  # seconds: a level solved with less of its budget left is a close call


def close_calls(rows: list[dict[str, Any]], budget: float) -> list[dict[str, Any]]:
    """The solved levels that had less than TIGHT seconds of their budget left, slowest first:
    the ones a busier machine would lose."""
    tight = [row for row in rows if row["solved"] and budget - row["seconds"] < TIGHT]
    return sorted(tight, key=lambda row: -row["seconds"])


def margin_line(rows: list[dict[str, Any]], tight: list[dict[str, Any]]) -> str:
    """How close the run came to its budget: the close calls, or the slowest solve."""
    if tight:
        shown = " ".join(f"{row['id']} ({row['seconds']:g} s)" for row in tight)
        return (f"margin: {len(tight)} solved with less than {TIGHT:g} s of the budget left: "
                f"{shown}")
    times = [row for row in rows if row["solved"]]
    if not times:
        return "margin: nothing solved"
    slowest = max(times, key=lambda row: row["seconds"])
    return (f"margin: every level solved with {TIGHT:g} s or more to spare (slowest: "
            f"{slowest['id']} in {slowest['seconds']:g} s)")


def print_missed(path: Path, rows: list[dict[str, Any]]) -> None:
    """Each level the run missed: why, its stored solution's length, and its grid."""
    levels = {level.id: level for level in read_set(path)}
    for row in rows:
        if row["solved"]:
            continue
        level = levels[row["id"]]
        why = "no solution exists here" if row["unsolvable"] else \
            "a solution was found but did not win on replay" if row["length"] else \
            "ran out of time"
        name = f" '{level.name}'" if level.name else ""
        print(f"\nlevel {level.id}{name}: {why} ({row['states']} states; stored solution "
              f"{len(level.solution)} moves)")
        print(level.ascii)


DEPARTURES = {
    "MOVE": "a blocked MOVE thing turns round and tries again in the same turn here "
            "(Keke's simulator waits a turn)",
    "DEFEAT": "DEFEAT destroys only the YOU thing here (Keke's KILL destroys both)",
    "HOT": "HOT destroys only the MELT thing here (Keke destroys both)",
    "SINK": "SINK also takes word tiles here (Keke's sinks spare text)",
    "PUSH": "a thing that is PUSH and STOP is pushed here (Keke's blocks)",
    "YOU": "YOU things move together and may share a cell here (Keke's block each other)",
}


def run_stored(path: Path, as_json: bool) -> int:
    levels = set_levels(path)
    rows: list[dict[str, Any]] = []
    for level in levels:
        ok, how = replay_wins(level.game_map(), level.solution)
        row: dict[str, Any] = {"id": level.id, "wins": ok, "result": how}
        if not ok:
            row["why"] = likely_reasons(level.level)
        rows.append(row)
    wins = sum(r["wins"] for r in rows)
    if as_json:
        print(json.dumps({"levels": rows, "wins": wins, "total": len(levels)}))
        return 0
    for row in rows:
        if not row["wins"]:
            print(f"{row['id']:>4}: {row['result']}; likely: {'; '.join(row['why'])}")
    print(f"stored solutions win on {wins} of {len(levels)} levels in this engine")
    return 0


def likely_reasons(level: KekeLevel) -> list[str]:
    """Departures from Keke's simulator that this level's words bring into play."""
    ascii_text = level.ascii
    found = []
    if "7" in ascii_text:
        found.append(DEPARTURES["MOVE"])
    if "4" in ascii_text:
        found.append(DEFEAT_OR(ascii_text))
    if "8" in ascii_text and "9" in ascii_text:
        found.append(DEPARTURES["HOT"])
    if "0" in ascii_text:
        found.append(DEPARTURES["SINK"])
    if "5" in ascii_text and "6" in ascii_text:
        found.append(DEPARTURES["PUSH"])
    if not found:
        found.append(DEPARTURES["YOU"] + ", or the stored solution does not win in Keke either")
    return found


def DEFEAT_OR(_ascii: str) -> str:  # noqa: N802 - reads as the table entry it returns
    return DEPARTURES["DEFEAT"]
