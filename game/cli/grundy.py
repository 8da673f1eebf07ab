"""`rulefront grundy CODE`: Grundy values of an octal game, or a proof of their period."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from game.cli.args import grundy_max_n, grundy_n, out_file
from game.errors import UserError
from game.grundy.codes import OctalGame, parse_code
from game.progress import Progress, wanted

ROW = 65536  # values joined into one string at a time

if TYPE_CHECKING:
    from game.grundy.periodicity import Period


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grundy", help="Sprague-Grundy values and periods of octal games")
    p.add_argument("code", metavar="CODE", help="octal code 0.d1d2... (e.g. 0.137) or 'nim'")
    p.add_argument("--n", type=grundy_n, metavar="N", help="compute G(0..N)")
    p.add_argument("--period", action="store_true", help="prove the ultimate period (Guy-Smith)")
    p.add_argument("--max-n", type=grundy_max_n, metavar="M",
                   help="give up proving after M heaps (default: as many as the free memory "
                        "holds)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", type=out_file, metavar="FILE", help="write n,g rows to FILE")
    p.add_argument("--plot", type=out_file, metavar="FILE.png", help="draw G(n) against n into a PNG")
    p.add_argument("--progress", action="store_true", help="show progress on stderr even when piped")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = parse_code(args.code)
    # --json never draws unless --progress asks: a script reads stdout, a person watches stderr
    progress = Progress(f"grundy {game.code}", args.progress or (wanted(False) and not args.json))
    try:
        if args.period:
            if args.csv or args.plot:
                raise UserError("--csv and --plot go with --n N, not with --period.")
            return _period(game, args, progress)
        if args.n is None:
            raise UserError("give --n N to compute G(0..N), or --period to prove a period.")
        return _values(game, args, progress)
    finally:
        progress.close()


def _values(game: OctalGame, args: argparse.Namespace, progress: Progress) -> int:
    if args.n < 0:
        raise UserError(f"--n must be 0 or more, not {args.n}.")
    # The compiled kernels load here, after the arguments are known to be good; numpy and
    # Pillow only for a plot.
    from game.grundy.periodicity import solve

    solution = solve(game, args.n + 1, progress)
    progress.close()
    values = solution.values
    if args.csv:
        from game.grundy.output import write_csv

        write_csv(args.csv, values)
    if args.plot:
        from game.grundy.output import write_plot

        write_plot(args.plot, values)
    if args.json:
        out: dict[str, object] = {
            "code": game.code,
            "values": values.tolist(),
            "extended_by_period": solution.extended_by_period,
        }
        if solution.extended_by_period and solution.period:
            out.update(_period_fields(solution.period))
        print(_json(out))
        return 0
    print(f"{game.code}: G(0..{args.n}) =")
    for start in range(0, len(values), ROW):  # a row of text at a time, not the whole list
        print(" ".join(map(str, values[start : start + ROW])),
              end="\n" if start + ROW >= len(values) else " ")
    if solution.extended_by_period and solution.period:
        p = solution.period
        print(
            f"G(n) for n >= {solution.computed} follows from the proven period {p.period} "
            f"(preperiod {p.preperiod}); {solution.computed} values were computed."
        )
    return 0


def _period_fields(period: Period) -> dict[str, object]:
    return {"preperiod": period.preperiod, "period": period.period, "proven": True, "n": period.needed}


def _period(game: OctalGame, args: argparse.Namespace, progress: Progress) -> int:
    if args.max_n is not None and args.max_n < 1:
        raise UserError(f"--max-n must be at least 1, not {args.max_n}.")
    if game.nim:
        if args.json:
            print(_json({"code": "nim", "proven": False, "never_periodic": True}))
        else:
            print("nim: never periodic, G(n) = n grows without bound.")
        return 0
    from game.grundy.periodicity import (
        BYTES_PER_HEAP,
        available_memory,
        memory_limit,
        prove_period,
    )
    from game.grundy.solver import Solver

    memory = available_memory()
    limit = args.max_n or memory_limit(memory)
    solver = Solver(game)
    try:
        proof = prove_period(game, limit, progress, solver)
    except KeyboardInterrupt:
        progress.close()
        print(f"{game.code}: interrupted after G(0..{solver.count - 1}) ({solver.split()}); "
              "no period proven yet.", file=sys.stderr)
        return 130
    progress.close()
    found = proof.period
    if args.json:
        if found:
            print(_json({"code": game.code, **_period_fields(found)}))
        else:
            print(_json({"code": game.code, "proven": False, "n": proof.computed,
                              "limit": "max-n" if args.max_n else "memory",
                              "candidate": proof.candidate}))
        return 0
    if found:
        print(
            f"{game.code}: period {found.period}, preperiod {found.preperiod} "
            f"(G(n + {found.period}) = G(n) for all n >= {found.preperiod}); "
            f"proven by the Guy-Smith criterion from G(0..{found.needed - 1})."
        )
        return 0
    hint = (f"; the best candidate, period {proof.candidate}, was not yet proven"
            if proof.candidate else "")
    if args.max_n:
        print(f"{game.code}: no period proven within G(0..{proof.computed - 1}), the --max-n "
              f"limit{hint}.")
    else:
        print(f"{game.code}: no period proven within G(0..{proof.computed - 1}): going further "
              f"would need more than the {memory / 2**30:.1f} GB of memory this machine has free "
              f"(about {BYTES_PER_HEAP} bytes a heap){hint}.")
    return 0


def _json(value: object) -> str:
    import json  # only --json pays for it

    return json.dumps(value)
