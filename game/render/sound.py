"""Sound effects on the window's events: move, hit, death, rule formed or broken, win.

The WAVs are the project's own (`data/sounds/`, made by `python -m game.render.sounds_gen`).
`Sounds.play(events)` plays the effects of one command's events, at most one of each kind, the
most telling first. It stays silent when the player muted it (Settings, `sound: false`) and
when there is nothing to play on: no audio driver, no device, a file that will not load (CI
and headless windows); a missing sound is never worth a crash, nor a warning per command.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

# Which effect an event makes, by the event's class name (no import of the events needed).
EFFECT_OF = {"Moved": "move", "Pushed": "move", "Attacked": "hit", "Damaged": "hit",
             "Died": "death", "Destroyed": "death", "RuleFormed": "rule_formed",
             "RuleBroken": "rule_broken", "Won": "win", "Took": "move"}
ORDER = ("win", "death", "rule_formed", "rule_broken", "hit", "move")
AT_ONCE = 2  # effects per command: a whole AI turn of moves is not a din


def sounds_folder() -> Path:
    from game import DATA

    return DATA / "sounds"


def effects_of(events: Iterable[Any]) -> list[str]:
    """The effects one command's events make, most telling first, each once, at most AT_ONCE."""
    found = {EFFECT_OF[type(e).__name__] for e in events if type(e).__name__ in EFFECT_OF}
    return [name for name in ORDER if name in found][:AT_ONCE]


class Sounds:
    """The loaded effects, or nothing (muted, or no way to play them)."""

    def __init__(self, enabled: bool = True, folder: Path | None = None) -> None:
        self.enabled = enabled
        self.sources: dict[str, Any] = {}
        self.played: list[str] = []  # every effect asked for (tests read it; kept short)
        self.reason = "" if enabled else "muted"
        if enabled:
            self._load(folder or sounds_folder())

    def _load(self, folder: Path) -> None:
        names = [p.stem for p in sorted(folder.glob("*.wav"))]
        if not names:
            self.reason = f"no sounds in {folder}"
            return
        try:
            import pyglet

            for name in names:
                self.sources[name] = pyglet.media.load(str(folder / f"{name}.wav"),
                                                       streaming=False)
            driver = pyglet.media.get_audio_driver()
        except Exception as exc:  # no driver, no device, a broken file: play nothing
            self.sources = {}
            self.reason = f"no sound ({type(exc).__name__})"
            return
        if driver is None:
            self.sources = {}
            self.reason = "no audio device"
        elif "Silent" in type(driver).__name__:
            self.reason = "no audio device (pyglet's silent driver plays them to nobody)"

    @property
    def audible(self) -> bool:
        return self.enabled and bool(self.sources)

    def play(self, events: Iterable[Any]) -> list[str]:
        """Play the effects of one command's events; the names played (or that would have
        been, when silent)."""
        names = effects_of(events) if self.enabled else []
        self.played = (self.played + names)[-50:]
        for name in names:
            source = self.sources.get(name)
            if source is None:
                continue
            try:
                source.play()
            except Exception:  # a device that went away mid-game: quiet from now on
                self.sources = {}
                self.reason = "the audio device stopped"
                break
        return names
