"""Golden playthroughs, OpenSpiel style: one seeded game per registered ruleset, written out as
the start board, then each action in words and the board after it, then the outcome.

`python -m tests.golden.regenerate` rewrites every golden file (these, and the CLI's own
`rulefront match --show` output); test_golden.py compares each with a fresh game.
"""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

from game import MAPS, registry
from game.cli import main
from game.engine import Engine
from game.levels.loader import described, load_engine

GOLDEN = Path(__file__).parent
SEED = 0  # the world's seed and the seed of the rng that picks each action
ACTIONS = 40  # at most this many actions, so that a playthrough stays short enough to read
REGENERATE = "python -m tests.golden.regenerate"

# Goldens of the command line's own output: file name -> `rulefront` arguments.
CLI_GOLDENS = {
    "outpost_seed3.txt": ["match", str(MAPS / "outpost.png"), "--seed", "3", "--show"],
}


def golden_path(spec: registry.RulesetSpec) -> Path:
    return GOLDEN / f"{spec.name}.txt"


def position(engine: Engine) -> list[str]:
    """The board and the lines under it (trailing blanks dropped: editors drop them too)."""
    rules = engine.ruleset
    lines = [*rules.text_board(engine.world).splitlines(), *rules.status_lines(engine.world)]
    return [line.rstrip() for line in lines]


def playthrough(spec: registry.RulesetSpec) -> str:
    """A seeded random game on the ruleset's first example, as text."""
    example = spec.examples[0]
    source = example if described(example) is not None else MAPS / example
    engine = load_engine(source, seed=SEED)
    rng = random.Random(SEED)
    rules = engine.ruleset
    lines = [f"# {spec.name} on {example}: world seed {SEED}, actions picked by "
             f"random.Random({SEED}), at most {ACTIONS}",
             f"# regenerate with: {REGENERATE}",
             "", f"start: {rules.describe(engine.world)}", *position(engine)]
    for number in range(1, ACTIONS + 1):
        actions = engine.legal_actions()
        if not actions:
            break
        action = rng.choice(actions)
        words = rules.describe_command(engine.world, action)
        side = engine.side
        assert engine.submit(action).ok, action
        lines += ["", f"{number}. {side}: {words}", *position(engine)]
    outcome = engine.outcome
    if outcome is not None:
        end = f"outcome: {outcome.winner} - {outcome.reason}"
    elif engine.legal_actions():
        end = f"no outcome after {ACTIONS} actions: {rules.describe(engine.world)}"
    else:
        end = f"no legal action left, and no outcome: {rules.describe(engine.world)}"
    return "\n".join([*lines, "", end]) + "\n"


def cli_output(args: list[str]) -> str:
    """What `rulefront ARGS` prints; it must succeed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(args)
    assert code == 0, f"rulefront {' '.join(args)} exited {code}"
    return out.getvalue()


def first_difference(golden: str, played: str) -> str | None:
    """Where `played` first departs from `golden`, in words; None when they are equal."""
    want, got = golden.splitlines(), played.splitlines()
    for number, (expected, actual) in enumerate(zip(want, got, strict=False), 1):
        if expected != actual:
            return f"line {number} differs\n  golden: {expected}\n  played: {actual}"
    if len(want) != len(got):
        return (f"line {min(len(want), len(got)) + 1}: the golden has {len(want)} lines, "
                f"the game {len(got)}")
    return None


def regenerate() -> list[Path]:
    """Rewrite every golden playthrough; the files written."""
    written = []
    for spec in registry.specs():
        path = golden_path(spec)
        path.write_text(playthrough(spec))
        written.append(path)
    for name, args in CLI_GOLDENS.items():
        path = GOLDEN / name
        path.write_text(cli_output(args))
        written.append(path)
    return written
