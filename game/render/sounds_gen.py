"""Synthesises the project's sound effects: `python -m game.render.sounds_gen [DIR]`.

Writes `move.wav`, `hit.wav`, `death.wav`, `rule_formed.wav`, `rule_broken.wav`, `win.wav`
and `index.yaml` into DIR (default `data/sounds/`): short mono 16-bit WAVs at 22,050 Hz, each
made here from sine and square waves, noise and envelopes with the standard library alone
(`wave`, `math`, a seeded `random`), so the sounds are the project's own and regenerating
them is one command that gives the same bytes. `game/render/sound.py` plays them.
"""

from __future__ import annotations

import io
import math
import random
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22_050
PEAK = 0.6  # of full scale: loud enough, with room for two effects at once

Wave = Callable[[float], float]


def tone(freq: float | Callable[[float], float], shape: str = "sine") -> Wave:
    """A wave of a fixed or gliding frequency (a function of time), phase kept continuous."""
    state = {"phase": 0.0, "t": 0.0}

    def sample(t: float) -> float:
        f = freq(t) if callable(freq) else freq
        state["phase"] += 2 * math.pi * f * (t - state["t"])
        state["t"] = t
        x = math.sin(state["phase"])
        if shape == "square":
            return 0.6 if x >= 0 else -0.6
        if shape == "triangle":
            return 2 / math.pi * math.asin(x)
        return x

    return sample


def noise(seed: int) -> Wave:
    rng = random.Random(seed)
    return lambda t: rng.uniform(-1.0, 1.0)


def envelope(length: float, attack: float = 0.005, decay: float = 4.0) -> Wave:
    """Volume over time: a fast rise, then an exponential fall to silence at `length`."""
    def level(t: float) -> float:
        if t < attack:
            return t / attack
        fade = max(0.0, 1 - t / length)
        return math.exp(-decay * (t - attack) / length) * fade

    return level


def render(length: float, *voices: tuple[Wave, Wave, float, float]) -> list[float]:
    """Mix voices (wave, envelope, gain, start second) into `length` seconds of samples."""
    out = [0.0] * int(length * RATE)
    for source, level, gain, start in voices:
        first = int(start * RATE)
        for i in range(first, len(out)):
            t = (i - first) / RATE
            out[i] += source(t) * level(t) * gain
    top = max(1e-9, max(abs(v) for v in out))
    return [v / top * PEAK for v in out]


def move() -> list[float]:
    return render(0.09, (tone(lambda t: 520 + 900 * t), envelope(0.09, decay=3), 1.0, 0.0))


def hit() -> list[float]:
    return render(0.16, (noise(1), envelope(0.12, attack=0.002, decay=6), 0.8, 0.0),
                  (tone(lambda t: 180 - 300 * t, "square"), envelope(0.16, decay=5), 0.7, 0.0))


def death() -> list[float]:
    return render(0.55, (tone(lambda t: 330 - 380 * t, "triangle"), envelope(0.55, decay=2),
                         1.0, 0.0),
                  (noise(2), envelope(0.3, decay=5), 0.25, 0.0))


def rule_formed() -> list[float]:
    notes = (523.25, 659.25, 783.99)  # C E G, rising
    return render(0.36, *((tone(f, "triangle"), envelope(0.2, decay=3), 1.0, 0.08 * i)
                          for i, f in enumerate(notes)))


def rule_broken() -> list[float]:
    notes = (659.25, 523.25, 392.0)  # E C G, falling
    return render(0.36, *((tone(f, "square"), envelope(0.2, decay=4), 0.7, 0.08 * i)
                          for i, f in enumerate(notes)))


def win() -> list[float]:
    notes = (523.25, 659.25, 783.99, 1046.5)
    voices = [(tone(f, "triangle"), envelope(0.5 if i == 3 else 0.16, decay=2.5), 1.0,
               0.12 * i) for i, f in enumerate(notes)]
    return render(0.95, *voices)


EFFECTS: dict[str, Callable[[], list[float]]] = {
    "move": move, "hit": hit, "death": death, "rule_formed": rule_formed,
    "rule_broken": rule_broken, "win": win,
}


def wav_bytes(samples: list[float]) -> bytes:
    """16-bit mono PCM WAV bytes of samples in -1..1."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, v)) * 32767))
                                 for v in samples))
    return buffer.getvalue()


def index_text() -> str:
    lines = ["# Sound effects: written by `python -m game.render.sounds_gen`; edit the generator.",
             "# event -> file; game/render/sound.py plays them (mute: Settings, sound: false).",
             "sounds:"]
    lines += [f"  {name}: {name}.wav" for name in EFFECTS]
    return "\n".join(lines) + "\n"


def write(folder: Path) -> list[Path]:
    from game.levels.files import atomic_write

    written = []
    for name, make in EFFECTS.items():
        path = folder / f"{name}.wav"
        atomic_write(path, wav_bytes(make()))
        written.append(path)
    atomic_write(folder / "index.yaml", index_text().encode())
    return [*written, folder / "index.yaml"]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from game import ROOT

    folder = Path(args[0]) if args else ROOT / "data" / "sounds"
    for path in write(folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
