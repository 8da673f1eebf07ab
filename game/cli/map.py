"""`rulefront map check|legend`: validate a map and print it, or print the palette."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from game.cli.args import nonempty, out_dir
from game.data import hex_color, palette


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="check a map or print the colour legend")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    check = verbs.add_parser("check", help="load a map, print it as ASCII and what it holds")
    check.add_argument("map", help="a map or level file, or a shipped map's name")
    check.add_argument("--level", type=nonempty, metavar="ID", help="a level id in a Keke JSON level set")
    check.add_argument("--json", action="store_true", help="print the findings as JSON")
    check.set_defaults(func=run_check)
    legend = verbs.add_parser("legend", help="print the palette: colour -> tile, unit, word")
    legend.add_argument("--json", action="store_true", help="print the palette as JSON")
    legend.set_defaults(func=run_legend)
    imp = verbs.add_parser("import-keke", help="write each level of a Keke set as a PNG map")
    imp.add_argument("file", help="a Keke JSON level set (or one .keke level)")
    imp.add_argument("--out", type=out_dir, required=True, metavar="DIR", help="folder for the PNG maps")
    imp.set_defaults(func=run_import_keke)


def run_check(args: argparse.Namespace) -> int:
    # The loader brings numpy and Pillow: only `map check` pays for them, not `map legend`.
    from game.cli.common import LEVELS, need_kind
    from game.engine import Engine
    from game.levels.loader import load_game_map

    need_kind(args.map, "map check", LEVELS)
    game_map = load_game_map(args.map, args.level)
    engine = Engine.from_game_map(game_map)
    counts = Counter(entry.name for _x, _y, entry in game_map.cells)
    if args.json:
        print(json.dumps({"map": args.map, "name": game_map.name, "ruleset": game_map.ruleset,
                          "width": game_map.width, "height": game_map.height,
                          "ok": True, "counts": dict(sorted(counts.items()))}))
        return 0
    print(f"{args.map}: '{game_map.name}', {game_map.width}x{game_map.height}, "
          f"ruleset {game_map.ruleset}: ok")
    print(engine.ruleset.text_board(engine.world))
    print(engine.ruleset.describe(engine.world))
    for line in engine.ruleset.status_lines(engine.world):
        print(line)
    print("found: " + ", ".join(f"{n} x{c}" for n, c in sorted(counts.items())))
    return 0


def run_legend(args: argparse.Namespace) -> int:
    entries = list(palette().values())
    if args.json:
        print(json.dumps([{"name": e.name, "color": hex_color(e.color), "prefab": e.prefab,
                           "team": e.team, "class": e.hero_class, "word": e.word}
                          for e in entries]))
        return 0
    print("colour   name               places")
    print("#ffffff  floor              nothing (alpha 0 is floor too)")
    for e in entries:
        if e.prefab == "floor":
            continue
        what = {"thing": f"a {e.kind}", "word": f"the word {e.word}", "spawn": "minion spawn cell"}
        print(f"{hex_color(e.color)}  {e.name:<18} {what.get(e.prefab, e.prefab)}"
              + (f" ({e.team})" if e.team else ""))
    return 0


def run_import_keke(args: argparse.Namespace) -> int:
    """Each level becomes DIR/keke-ID.png with a sidecar naming the puzzle ruleset."""
    from pathlib import Path

    from game.data import read_text
    from game.levels.files import path_under
    from game.levels.maps import write_map
    from game.rulesets.puzzle.keke import level_map, parse_ascii, read_set

    source = Path(args.file)
    out = Path(args.out)
    if source.suffix.lower() == ".keke":
        maps = [(source.stem, parse_ascii(read_text(source, "Keke level"), source))]
    else:
        maps = [(f"keke-{lv.id}", level_map(source, lv)) for lv in read_set(source)]
    targets = [path_under(out, f"{stem}.png", source) for stem, _map in maps]  # all, first
    for target, (_stem, game_map) in zip(targets, maps, strict=True):
        cells = {(x, y): entry.color for x, y, entry in game_map.cells}
        sidecar = {"name": game_map.name, "ruleset": game_map.ruleset}
        write_map(target, game_map.width, game_map.height, cells, sidecar)
    print(f"wrote {len(maps)} puzzle maps to {out}")
    return 0
