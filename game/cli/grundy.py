"""`rulefront grundy CODE`: Grundy values of an octal game, or a proof of their period."""

from __future__ import annotations

import argparse
import json

from game.cli.args import grundy_max_n, grundy_n
from game.errors import UserError
from game.grundy.codes import OctalGame, parse_code
from game.grundy.output import write_csv, write_plot
from game.grundy.periodicity import Period, prove_period, solve
from game.progress import Progress, wanted

DEFAULT_MAX_N = 10_000_000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grundy", help="Sprague-Grundy values and periods of octal games")
    p.add_argument("code", metavar="CODE", help="octal code 0.d1d2... (e.g. 0.137) or 'nim'")
    p.add_argument("--n", type=grundy_n, metavar="N", help="compute G(0..N)")
    p.add_argument("--period", action="store_true", help="prove the ultimate period (Guy-Smith)")
    p.add_argument("--max-n", type=grundy_max_n, default=DEFAULT_MAX_N, metavar="M",
                   help=f"give up proving after M heaps (default {DEFAULT_MAX_N})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", metavar="FILE", help="write n,g rows to FILE")
    p.add_argument("--plot", metavar="FILE.png", help="draw G(n) against n into a PNG")
    p.add_argument("--progress", action="store_true", help="show progress on stderr even when piped")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = parse_code(args.code)
    progress = Progress(f"grundy {game.code}", wanted(args.progress))
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
    solution = solve(game, args.n + 1, progress)
    progress.close()
    values = solution.values
    if args.csv:
        write_csv(args.csv, values)
    if args.plot:
        write_plot(args.plot, values)
    if args.json:
        out: dict[str, object] = {
            "code": game.code,
            "values": values.tolist(),
            "extended_by_period": solution.extended_by_period,
        }
        if solution.extended_by_period and solution.period:
            out.update(_period_fields(solution.period))
        print(json.dumps(out))
        return 0
    print(f"{game.code}: G(0..{args.n}) =")
    print(" ".join(map(str, values.tolist())))
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
    if args.max_n < 1:
        raise UserError(f"--max-n must be at least 1, not {args.max_n}.")
    if game.nim:
        if args.json:
            print(json.dumps({"code": "nim", "proven": False, "never_periodic": True}))
        else:
            print("nim: never periodic, G(n) = n grows without bound.")
        return 0
    proof = prove_period(game, args.max_n, progress)
    progress.close()
    found = proof.period
    if args.json:
        if found:
            print(json.dumps({"code": game.code, **_period_fields(found)}))
        else:
            print(json.dumps({"code": game.code, "proven": False, "n": proof.computed}))
        return 0
    if found:
        print(
            f"{game.code}: period {found.period}, preperiod {found.preperiod} "
            f"(G(n + {found.period}) = G(n) for all n >= {found.preperiod}); "
            f"proven by the Guy-Smith criterion from G(0..{found.needed - 1})."
        )
    else:
        print(f"{game.code}: no period proven within {proof.computed} values (try a larger --max-n).")
    return 0
