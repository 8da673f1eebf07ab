"""The player's settings: animation, speed, sound, palette, name and key bindings, kept in
`$XDG_CONFIG_HOME/rulefront/settings.yaml` (default `~/.config/rulefront/settings.yaml`).

Read whole through `game.schemas.SettingsFile` (a broken file is one sentence naming the file,
the key and the fix, never half-loaded) and written atomically through game/levels/files.py.
Every client reads the same file: the window (sound, palette, animation, keys, and labels
naming the keys), the editor (palette, keys), the Textual client (palette, keys) and the plain
terminal (keys); the title menu's Settings page writes it. Also here: the menu's opponents,
data/ai.yaml's `difficulty` names mapped to seat specs.
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from game.errors import UserError

# Actions a key can be bound to, with the window's default key for each (pyglet's key names).
KEY_ACTIONS = {"undo": "U", "redo": "Y", "end_turn": "E", "restart": "R", "help": "H",
               "pause": "K", "save": "S", "quit": "Q", "hint": "I"}
PALETTES = ("standard", "colour-blind")
KEY_NAME = re.compile(r"[A-Z0-9]|[A-Z][A-Z_0-9]+")
SPEEDS = (0.5, 1.0, 2.0, 4.0)


@dataclass(frozen=True)
class Settings:
    """The settings as the clients use them (the file's keys, each with its default)."""

    animate: bool = True
    speed: float = 1.0
    sound: bool = True
    palette: str = "standard"
    player: str = "player"
    keys: dict[str, str] = field(default_factory=dict)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def key_for(self, action: str) -> str:
        """The key that does `action` now (its binding, else the default)."""
        return self.keys.get(action, KEY_ACTIONS[action])

    def label(self, *texts: str) -> tuple[str, ...]:
        """Each text with every {action} in it as the key bound to that action now: a
        window's help, questions and buttons show the player's keys ("{end_turn} / Space
        end turn" -> "X / Space end turn" when end_turn is bound to X)."""
        keys = {action: self.key_for(action) for action in KEY_ACTIONS}
        return tuple(text.format_map(keys) for text in texts)

    def typed(self, own: dict[str, str]) -> dict[str, str]:
        """For a client read line by line (the plain terminal): what the player types for an
        action bound away from its default key, as the letter that client knows the action by
        (`own`: action -> its letter); "x" -> "e" when end_turn is bound to X."""
        return {key.lower(): own[action] for action, key in self.keys.items()
                if action in own and key != KEY_ACTIONS[action]}

    def translation(self, actions: tuple[str, ...] = tuple(KEY_ACTIONS)) -> dict[str, str]:
        """Pressed key -> the default key of the action bound to it, for the controllers,
        which speak default keys; a default key whose action moved elsewhere maps to '' (it
        does nothing), unless another action took it. `actions`: the ones a window has (the
        editor's other keys stay its own)."""
        table: dict[str, str] = {}
        bound = {action: key for action, key in self.keys.items() if action in actions}
        for action, key in bound.items():
            default = KEY_ACTIONS[action]
            if key != default:
                table.setdefault(default, "")
        for action, key in bound.items():
            table[key] = KEY_ACTIONS[action]
        return table


def config_dir() -> Path:
    """$XDG_CONFIG_HOME/rulefront, or ~/.config/rulefront."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "rulefront"


def settings_path() -> Path:
    return config_dir() / "settings.yaml"


def load_settings(path: Path | None = None) -> Settings:
    """The settings file, checked whole; no file is the defaults. A broken file is a
    UserError naming the file, the key and the fix (the command stops: exit 2)."""
    from game.data import parse_yaml, read_text
    from game.schemas import SettingsFile, validate

    path = path or settings_path()
    if not os.path.lexists(path):
        return Settings()
    raw = parse_yaml(read_text(path, "settings file"), path)
    fix = " (or delete the file to start from the defaults)"
    if raw is None:
        return Settings()
    try:
        checked: SettingsFile = validate(raw, SettingsFile, path)
    except UserError as exc:
        raise UserError(f"{str(exc).rstrip('.')}{fix}.") from None
    unknown = sorted(set(checked.keys) - set(KEY_ACTIONS))
    if unknown:
        raise UserError(f"{path}: 'keys' binds the unknown action '{unknown[0]}'; the actions "
                        f"are {', '.join(KEY_ACTIONS)}{fix}.")
    for action, key in checked.keys.items():
        if not KEY_NAME.fullmatch(key):
            raise UserError(f"{path}: 'keys' binds {action} to {key!r}; a key is a capital "
                            f"letter, a digit or a key name such as SPACE or F1{fix}.")
    settings = Settings(animate=checked.animate, speed=checked.speed, sound=checked.sound,
                        palette=checked.palette, player=checked.player, keys=dict(checked.keys))
    taken: dict[str, str] = {}
    for action in KEY_ACTIONS:
        key = settings.key_for(action)
        if key in taken:
            raise UserError(f"{path}: 'keys' gives {key} to both {taken[key]} and {action}; "
                            f"bind each action to a key of its own{fix}.")
        taken[key] = action
    return settings


def settings_text(settings: Settings) -> str:
    """The file's YAML, only the keys that differ from the defaults (a header says how)."""
    import yaml

    defaults = asdict(Settings())
    values = {k: v for k, v in asdict(settings).items() if v != defaults[k]}
    head = ("# Rulefront settings, written by the title menu (`rulefront play`, Settings).\n"
            "# Keys: docs/formats.md (SettingsFile). Delete this file to go back to the "
            "defaults.\n")
    return head + (yaml.safe_dump(values, sort_keys=True) if values else "")


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (the one writer); a folder that cannot be written is one
    sentence."""
    from game.levels.files import atomic_write

    path = path or settings_path()
    atomic_write(path, settings_text(settings).encode("utf-8"))
    return path


def difficulties() -> dict[str, str]:
    """data/ai.yaml's `difficulty`: the menu's opponent names -> seat specs (search budgets)."""
    from game import DATA
    from game.data import load_yaml
    from game.schemas import AiFile, validate

    path = DATA / "ai.yaml"
    checked: AiFile = validate(load_yaml(path), AiFile, path)
    return dict(checked.difficulty)


def seat_spec(choice: str) -> str:
    """A seat choice of the menu as a seat spec: a difficulty name ('Normal') is data/ai.yaml's
    spec for it; 'Human' is human; anything else is an AI name as `rulefront ais` lists."""
    if choice.lower() == "human":
        return "human"
    named = {name.lower(): spec for name, spec in difficulties().items()}
    return named.get(choice.lower(), choice)
