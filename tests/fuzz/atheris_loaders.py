"""Coverage-guided fuzzing of the map and level loaders with atheris (libFuzzer), for a fixed
time; not part of the test run (it needs `pip install -e '.[fuzz]'`).

    python tests/fuzz/atheris_loaders.py --seed-corpus /tmp/rulefront-corpus
    python tests/fuzz/atheris_loaders.py -max_total_time=300 -max_len=65536 \\
        -artifact_prefix=tests/fuzz/crashes/ /tmp/rulefront-corpus

Each input is split (`split`) into a file kind (PNG map, PNG + sidecar, Keke level, descent
level + sidecar, replay) and the bytes of those files, written to a temporary folder and opened with
`load_engine` / `read_record` exactly as the commands open them. A UserError is a refusal,
which is fine; any other exception is a crash, and libFuzzer keeps its input under
tests/fuzz/crashes/ (commit it and add it to the hypothesis tests once fixed). The corpus
folder starts from the shipped maps and a replay (`--seed-corpus FOLDER` writes them).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # fuzz this checkout's code

with atheris.instrument_imports():
    from PIL import PngImagePlugin  # noqa: F401 - decoded here, so instrumented here

    # Imported lazily by the loaders; imported here so that they are instrumented too.
    import game.rulesets.descent.level  # noqa: F401
    import game.rulesets.descent.ruleset  # noqa: F401
    import game.rulesets.octal.ruleset  # noqa: F401
    import game.rulesets.puzzle.keke  # noqa: F401
    import game.rulesets.puzzle.ruleset  # noqa: F401
    import game.rulesets.skirmish.ruleset  # noqa: F401
    import game.schemas  # noqa: F401
    from game import MAPS
    from game.errors import UserError
    from game.levels.loader import load_engine
    from game.levels.maps import map_digest
    from game.session.replay import read_record, rebuild

KINDS = [("m.png", None), ("m.png", "m.yaml"), ("l.keke", None), ("l.txt", "l.yaml"),
         ("r.json", None)]
HERE = Path(__file__).parent


def split(data: bytes) -> tuple[str, str | None, bytes, bytes]:
    """Byte 0 picks the kind; for kinds with a sidecar, byte 1 is its length and the sidecar
    follows; the rest is the file. (Read by hand, front to back, so seeds are easy to write.)"""
    if not data:
        return KINDS[0][0], None, b"", b""
    name, side = KINDS[data[0] % len(KINDS)]
    if side is None:
        return name, None, b"", data[1:]
    length = data[1] if len(data) > 1 else 0
    return name, side, data[2:2 + length], data[2 + length:]


def one_input(data: bytes) -> None:
    name, side, sidecar, body = split(data)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / name).write_bytes(body)
        if side:
            (root / side).write_bytes(sidecar)
        try:
            if name.endswith(".json"):
                rebuild(read_record(root / name), root / name)
            else:
                load_engine(root / name).legal_actions()
        except UserError as exc:
            assert "\n" not in str(exc), str(exc)


def seed_corpus(folder: Path) -> None:
    """Start the corpus from every shipped map and level, prefixed as one_input reads them:
    the kind's byte, then (for kinds with a sidecar) its length and the sidecar beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in MAPS.rglob("*"):
        for kind, (name, side) in enumerate(KINDS):
            if Path(name).suffix == path.suffix:
                beside = path.with_suffix(".yaml")
                sidecar = beside.read_bytes()[:255] if side and beside.exists() else b""
                prefix = bytes([kind, len(sidecar)]) + sidecar if side else bytes([kind])
                (folder / f"{kind}-{path.stem}{path.suffix}").write_bytes(prefix +
                                                                          path.read_bytes())
    outpost = MAPS / "outpost.png"
    replay = {"format": 1, "map": str(outpost), "sha256": map_digest(outpost),
              "ruleset": "skirmish", "seed": 0, "seats": {}, "commands": [{"type": "EndTurn"}],
              "result": None}
    (folder / "replay.json").write_bytes(bytes([KINDS.index(("r.json", None))]) +
                                         json.dumps(replay).encode())


if __name__ == "__main__":
    if "--seed-corpus" in sys.argv:
        target = Path(sys.argv[-1])
        shutil.rmtree(target, ignore_errors=True)
        seed_corpus(target)
        sys.exit(0)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
