"""The shape of every file Rulefront reads, declared once and used to load, check and document.

Map and level sidecars (`NAME.yaml` beside a map or level: skirmish, puzzle, descent, octal),
replays, saves and solver solutions (one JSON format) are msgspec Structs here. A loader parses
the file (yaml.safe_load or JSON), then `validate` converts the raw tree into the Struct, and any
violation becomes one sentence naming the file, the key and the fix. Values the types cannot say
(teams, hero classes, words in rules) are checked against the game's data by
`game.levels.maps.check_sidecar`, so that this module knows no game data (no import cycle).
`python -m game.schemas` prints docs/formats.md from these declarations.

Why msgspec and not pydantic v2: both validate this in microseconds, but importing pydantic
with these schemas defined costs about 100 ms and msgspec about 18 ms (median of five runs,
docs/formats.md), and the CLI's start-up budget is 0.15 s. Even so this module is imported only
inside the loaders, never by `import game.cli`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from game.errors import UserError

REPLAY_FORMAT = 1  # the format number every replay, save and solution carries

PositiveInt = Annotated[int, Meta(ge=1)]
Count = Annotated[int, Meta(ge=0)]
Cell = tuple[int, int]


def _doc(text: str) -> Meta:
    return Meta(description=text)


# -- sidecars ------------------------------------------------------------------------------


class UnitPatch(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Numbers of one unit that a map overrides (the rest come from data/units.yaml)."""

    hp: PositiveInt | UnsetType = UNSET
    damage: Count | UnsetType = UNSET
    range: Count | UnsetType = UNSET
    moves: Count | UnsetType = UNSET
    glyph: Annotated[str, Meta(min_length=1, max_length=1)] | UnsetType = UNSET


class UnitsPatch(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A map's overrides of data/units.yaml, shaped like that file."""

    heroes: dict[str, UnitPatch] | UnsetType = UNSET
    minion: UnitPatch | UnsetType = UNSET
    buildings: dict[Literal["hq", "tower"], UnitPatch] | UnsetType = UNSET


class SpawnPatch(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A map's overrides of the minion waves of data/rulesets/skirmish.yaml."""

    every: PositiveInt | UnsetType = UNSET
    cap: Count | UnsetType = UNSET
    respawn_after: Count | UnsetType = UNSET


class Costs(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Action costs of a descent level for `solve --method cost`."""

    move: Count | UnsetType = UNSET
    push: Count | UnsetType = UNSET


class Sidecar(Struct, omit_defaults=True):
    """`NAME.yaml` beside `NAME.png` (or a descent `.txt`): the keys of every ruleset; the
    ruleset the sidecar names adds its own (its spec's `sidecar` edge: SkirmishSidecar,
    PuzzleSidecar, DescentSidecar, OctalSidecar) and refuses any other. Every key is optional,
    and a key that is present holds a value (`key:` alone, YAML's null, is refused rather than
    read as absent)."""

    name: Annotated[str, _doc("the map's title")] | UnsetType = UNSET
    ruleset: Annotated[str, _doc("the ruleset that plays it: one of `rulefront maps`' "
                                 "rulesets (skirmish when absent)")] | UnsetType = UNSET
    description: Annotated[str, _doc("a sentence shown with the map")] | UnsetType = UNSET
    base_rules: Annotated[list[str], _doc("rules that hold without words, each 'NOUN IS "
                                          "PROPERTY' or 'NOUN IS NOUN' in words of "
                                          "data/words.yaml")] | UnsetType = UNSET
    rules: Annotated[list[str], _doc("reserved: a list of rule texts")] | UnsetType = UNSET


class ChallengeGoal(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """What a skirmish challenge asks: win within `turns` of your own turns against a set
    opponent (`rulefront solve NAME` finds the line, and proves there is none without words)."""

    brief: Annotated[str, Meta(min_length=1), _doc("the task in one sentence, shown before play")]
    turns: Annotated[int, Meta(ge=1, le=3),
                     _doc("how many of your turns the win may take (1: win this turn)")] = 1
    side: Annotated[str, _doc("the side the player takes (red moves first)")] = "red"
    opponent: Annotated[str, _doc("the AI that plays the other side: a deterministic seat spec, "
                                  "e.g. heuristic (its ties drawn from the seat's RNG)")] \
        = "heuristic"
    seed: Annotated[Count, _doc("the match seed the challenge is played and solved with")] = 0
    stars: Annotated[dict[Annotated[int, Meta(ge=1, le=3)], PositiveInt],
                     _doc("{3: actions, 2: actions, 1: actions}: the most of your commands "
                          "(end of turn aside) a win may take for each number of stars; "
                          "any win earns one star when absent")] | UnsetType = UNSET


class SkirmishSidecar(Sidecar, forbid_unknown_fields=True):
    """A skirmish map's sidecar: Sidecar's keys and these."""

    heroes: Annotated[dict[str, list[str]],
                      _doc("red/blue -> hero classes (data/units.yaml) for the plain hero "
                           "pixels, red's in reading order, blue's from the bottom-right "
                           "corner (the board turned half round)")] | UnsetType = UNSET
    turn_limit: Annotated[int, Meta(ge=1, le=10_000),
                          _doc("rounds before the game is scored, 1 to 10,000")
                          ] | UnsetType = UNSET
    spawn: Annotated[SpawnPatch, _doc("{every, cap, respawn_after} of the minion waves")
                     ] | UnsetType = UNSET
    units: Annotated[UnitsPatch, _doc("overrides shaped like data/units.yaml (heroes, minion, "
                                      "buildings: hq, tower)")] | UnsetType = UNSET
    challenge: Annotated[ChallengeGoal, _doc("makes the map a challenge: {brief, turns, side, "
                                             "opponent, seed, stars}; the side must win within "
                                             "its turns, or the other side wins")
                         ] | UnsetType = UNSET


class PuzzleSidecar(Sidecar, forbid_unknown_fields=True):
    """A puzzle's sidecar: Sidecar's keys and these."""

    transform_on_load: Annotated[bool, _doc("apply X IS Y rules before the first move")
                                 ] | UnsetType = UNSET


class OctalSidecar(Sidecar, forbid_unknown_fields=True):
    """An octal game's sidecar: Sidecar's keys and these."""

    code: Annotated[str, _doc("the game's code, quoted: '0.137' or 'nim'")] | UnsetType = UNSET
    misere: Annotated[bool, _doc("misere play (true/false)")] | UnsetType = UNSET


class DescentSidecar(Sidecar, forbid_unknown_fields=True):
    """A descent level's sidecar: Sidecar's keys and these."""

    start: Annotated[Cell, _doc("the ball's start cell [x, y]")] | UnsetType = UNSET
    exit: Annotated[Cell, _doc("the exit cell [x, y]")] | UnsetType = UNSET
    costs: Annotated[Costs, _doc("{move, push} costs")] | UnsetType = UNSET
    push: Annotated[bool, _doc("whether pushing is allowed")] | UnsetType = UNSET
    push_stack: Annotated[bool, _doc("push stacks taller than one block")] | UnsetType = UNSET
    stars: Annotated[dict[Annotated[int, Meta(ge=1, le=3)], PositiveInt],
                     _doc("{3: moves, 2: moves, 1: moves}, the most moves that earn each "
                          "number of stars")] | UnsetType = UNSET
    optimal: Annotated[Count, _doc("the shortest solution's length")] | UnsetType = UNSET
    needs_push: Annotated[bool, _doc("whether every solution pushes")] | UnsetType = UNSET
    solution: Annotated[str, _doc("one shortest solution in u d l r")] | UnsetType = UNSET


# -- data/*.yaml -------------------------------------------------------------------------


Glyph = Annotated[str, Meta(min_length=1, max_length=1)]


class UnitStatsEntry(Struct, forbid_unknown_fields=True):
    """One hero class or the minion in data/units.yaml."""

    hp: PositiveInt
    damage: Count
    range: Count
    moves: Count
    glyph: Glyph


class BuildingStatsEntry(Struct, forbid_unknown_fields=True):
    """The hq or the tower in data/units.yaml: they do not move."""

    hp: PositiveInt
    damage: Count
    range: Count
    glyph: Glyph


class Buildings(Struct, forbid_unknown_fields=True):
    """The two buildings of data/units.yaml."""

    hq: BuildingStatsEntry
    tower: BuildingStatsEntry


class UnitsFile(Struct, forbid_unknown_fields=True):
    """data/units.yaml: every hero class, the minion and the two buildings."""

    heroes: Annotated[dict[str, UnitStatsEntry], Meta(min_length=1)]
    minion: UnitStatsEntry
    buildings: Buildings


Colour = Annotated[str, Meta(pattern="^#[0-9a-fA-F]{6}$")]


class WordEntry(Struct, forbid_unknown_fields=True):
    """One word tile of data/words.yaml."""

    text: str
    part: Literal["noun", "operator", "property"]
    color: Colour
    kind: str = ""


class StatsEntry(Struct, forbid_unknown_fields=True, frozen=True):
    """What a property adds to a skirmish unit's numbers while it holds."""

    moves: Annotated[int, _doc("move points dealt at the start of its side's turn")] = 0
    damage: Annotated[int, _doc("damage per hit")] = 0
    range: Annotated[int, _doc("Manhattan cells an attack reaches")] = 0
    armour: Annotated[int, _doc("taken off each hit it takes (a hit deals at least 1)")] = 0
    heal: Annotated[int, _doc("hit points regained at the start of its side's turn")] = 0


class PropertyEntry(Struct, forbid_unknown_fields=True):
    """One property of data/properties.yaml: its bit, when it resolves, its effects."""

    name: Annotated[str, Meta(pattern="^[A-Z]+$"), _doc("the word, upper case")]
    bit: Annotated[int, Meta(ge=1), _doc("its bit in a kind's mask: a power of two")]
    puzzle: Annotated[Literal["walk", "acts", "none"],
                      _doc("walk: a plain walk models it; acts: a puzzle turn resolves it; "
                           "none: skirmish only")]
    unit: Annotated[str, _doc("what it does to a hero or minion on a skirmish map")]
    building: Annotated[str, _doc("what it does to a tower or HQ")]
    cell: Annotated[str, _doc("what it does to scenery (a cell's things)")]
    order: Annotated[int | None, _doc("its turn in resolving shared cells, lowest first; "
                                      "none: it destroys nothing by itself")] = None
    stats: StatsEntry = StatsEntry()


class PropertiesFile(Struct, forbid_unknown_fields=True):
    """data/properties.yaml."""

    properties: Annotated[list[PropertyEntry], Meta(min_length=1)]


class WordsFile(Struct, forbid_unknown_fields=True):
    """data/words.yaml."""

    words: list[WordEntry]


class PaletteEntryFile(Struct):
    """One colour of data/palette.yaml (other keys are kept as the prefab's extras)."""

    name: str
    color: Colour
    prefab: Literal["floor", "thing", "hq", "tower", "hero", "spawn", "word"]
    kind: str = ""
    team: str = ""


class PaletteFile(Struct, forbid_unknown_fields=True):
    """data/palette.yaml."""

    entries: list[PaletteEntryFile]


Weights = Annotated[dict[str, Any], Meta(min_length=1)]


class AiFile(Struct, forbid_unknown_fields=True):
    """data/ai.yaml (or a weights file `rulefront tune` wrote): the AIs' weights; each weight,
    a number, is checked by name against the fields of the dataclass that reads it (the
    skirmish evaluation's in game/rulesets/skirmish/evaluate.py, the heuristic's in
    systems/ai/evaluate.py), by `weights_section`."""

    evaluation: Annotated[Weights, _doc("the skirmish evaluation (minimax's and MCTS's leaf "
                                        "score), per feature")]
    heuristic: Annotated[Weights, _doc("the heuristic's score of one action, per feature")]
    difficulty: Annotated[dict[str, str],
                          _doc("the title menu's opponents: name -> a seat spec whose search "
                               "budget sets how hard it plays (never extra knowledge), e.g. "
                               "Normal: minimax:nodes=1500")] = {}
    rules: Annotated[dict[str, float],
                     _doc("what each property is worth to a side, in evaluation points, when "
                          "every unit of that side has it (measured by simulation: "
                          "`rulefront tune rules`); the skirmish evaluation counts each unit's "
                          "properties by its share of its side's material")] = {}


def weights_section(raw: Any, name: str, cls: type, path: str | Path) -> Any:
    """One section of a weights file as a `cls` (a dataclass of floats): the file's shape
    checked by AiFile, then each weight against `cls`'s fields: every one given, a number,
    none unknown, each fault one sentence naming the file and the key."""
    from dataclasses import fields

    values = getattr(validate(raw, AiFile, path), name)
    where = f"{path}: {name}"
    names = [f.name for f in fields(cls)]
    for n in names:
        if n not in values:
            raise UserError(f"{where}: '{n}' is missing; give every weight: {', '.join(names)}.")
        if not isinstance(values[n], int | float) or isinstance(values[n], bool):
            raise UserError(f"{where}: '{n}' must be a number, not {values[n]!r}.")
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise UserError(f"{where}: unknown weight '{unknown[0]}'; known: {', '.join(names)}.")
    return cls(**{n: float(values[n]) for n in names})


class ClientFile(Struct, forbid_unknown_fields=True):
    """data/client.yaml: the window's settings."""

    animate: Annotated[bool, _doc("slide, lunge and fade (`--no-anim` turns it off)")] = True


class MenuEntry(Struct, forbid_unknown_fields=True):
    """One entry of the title menu."""

    page: Annotated[str, _doc("the kind of page it opens: new, continue, levels, challenges, "
                              "editor, settings, howto, quit, host, join (or one a client "
                              "registers)")]
    label: Annotated[str, Meta(min_length=1, max_length=30), _doc("the words shown")]
    about: Annotated[str, _doc("one sentence shown beside it")] = ""
    rulesets: Annotated[list[str], _doc("the rulesets whose shipped maps the page lists "
                                        "(all when empty)")] = []


class Challenge(Struct, forbid_unknown_fields=True):
    """One challenge: win a shipped map against a set opponent."""

    title: Annotated[str, Meta(min_length=1), _doc("the words shown")]
    map: Annotated[str, _doc("a shipped map's name")]
    side: Annotated[str, _doc("the side the player takes")]
    opponent: Annotated[str, _doc("who plays the other sides: a difficulty name of "
                                  "data/ai.yaml or an AI spec")]
    stars: Annotated[dict[int, PositiveInt], _doc("stars -> the most rounds a win may take "
                                                  "for them")]


class MenuFile(Struct, forbid_unknown_fields=True):
    """data/menu.yaml: the title menu's entries and challenges."""

    entries: Annotated[list[MenuEntry], Meta(min_length=1), _doc("the menu, top to bottom")]
    challenges: Annotated[list[Challenge], _doc("the Challenges page, in order")] = []
    howto: Annotated[list[str], _doc("the How to play page, line by line")] = []


class SettingsFile(Struct, forbid_unknown_fields=True):
    """`$XDG_CONFIG_HOME/rulefront/settings.yaml` (default `~/.config/rulefront`): the player's
    settings, written by the title menu's Settings page; every key is optional."""

    animate: Annotated[bool, _doc("slide, lunge and fade; false: pieces jump (`--no-anim` "
                                  "turns it off for one run)")] = True
    speed: Annotated[float, Meta(ge=0.25, le=4.0),
                     _doc("animation speed, 0.25 (slow) to 4 (fast); 1 is normal")] = 1.0
    sound: Annotated[bool, _doc("sound effects in the window (move, hit, death, rules, win)")] \
        = True
    palette: Annotated[Literal["standard", "colour-blind"],
                       _doc("standard or colour-blind: the colours of sides and overlays; "
                            "colour-blind uses the Okabe-Ito colours (orange and sky blue) in "
                            "the window and the terminal")] \
        = "standard"
    player: Annotated[str, Meta(min_length=1, max_length=40),
                      _doc("the name best scores and stars are kept under")] = "player"
    keys: Annotated[dict[str, str],
                    _doc("action -> key (a letter, digit or key name such as SPACE, in "
                         "capitals), e.g. {end_turn: SPACE, undo: Z}; actions: undo, redo, "
                         "end_turn, restart, help, pause, save, quit, hint")] = {}


# -- replays, saves, solutions -------------------------------------------------------------


class Result(Struct):
    """How a recorded game ended."""

    winner: Annotated[str, _doc("red, blue, draw, player or lost")] | None
    reason: Annotated[str, _doc("why it ended, in words")]
    commands: Count | None = None


Word32 = Annotated[int, Meta(ge=0, lt=2**32)]
RngState = Annotated[tuple[Literal[3], Annotated[list[Word32], Meta(min_length=625,
                                                                    max_length=625)],
                           float | None],
                     _doc("Python's random.getstate(): [3, [625 ints], gauss or null]")]


class LogEntry(Struct):
    """What one command told in the game's log when it was played (saves keep one per
    command, so a resumed game keeps its log with the names things had then)."""

    round: Annotated[int, _doc("the round it was played in")] | None
    side: Annotated[str, _doc("the side that played it")]
    lines: Annotated[list[str], _doc("its sentences, as the log showed them")]


class ReplayFile(Struct):
    """A replay (match --replay, play), a save (the same plus redo and rng_states) or a solver
    solution. Keys other than these are kept and written back unchanged."""

    format: Annotated[int, _doc(f"the format number, {REPLAY_FORMAT}")]
    map: Annotated[str, _doc("the map or level's path (relative to the working folder; "
                             "maps/... also finds the shipped maps from any folder), or a "
                             "described position")]
    sha256: Annotated[str, _doc("sha256 of the map and its sidecar when recorded")]
    ruleset: Annotated[str, _doc("the ruleset played")]
    seed: Annotated[int, _doc("the seed of every random choice")]
    seats: Annotated[dict[str, str], _doc("side -> who played it (human, an AI spec); a "
                                          "plug-in class (module:Class) is refused unless the "
                                          "command line names it too, so a file never chooses "
                                          "code to run")]
    commands: Annotated[list[dict[str, Any]], _doc("every command, in order")]
    result: Annotated[Result, _doc("how it ended, or null while unfinished")] | None = None
    redo: Annotated[list[dict[str, Any]], _doc("saves: the redo stack")] = []
    rng_states: Annotated[dict[str, RngState], _doc("saves: each seat's random state, "
                                                    "which exact resume needs")] = {}
    level: Annotated[str | int, _doc("the level's id in a Keke set")] | None = None
    log: Annotated[list[LogEntry], _doc("saves: the log, one entry per command (older saves "
                                        "have none: their log is told again)")] = []


# -- turning violations into sentences -----------------------------------------------------

WORDS = {"object": "a mapping", "array": "a list", "null": "empty", "str": "text",
         "int": "a whole number", "float": "a number", "bool": "true or false"}
_EXPECTED = re.compile(r"Expected `([^`]+)`(.*?)(?:, got `([^`]+)`)?$")
_WHERE = re.compile(r" - at (?:`key` in )?`\$([^`]*)`$")


def quoted(text: str, limit: int = 40) -> str:
    """A name from a user's file, quoted for a one-line message: as written when it is short
    and printable, else escaped (newlines and all) and cut."""
    if len(text) <= limit and text.isprintable():
        return f"'{text}'"
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


def kinds_text(text: str) -> str:
    names = [WORDS.get(part.strip(), part.strip()) for part in text.split("|")]
    names = [n for n in names if n != "empty"] or names
    return " or ".join(names)


def sentence(message: str, where: str, schema: type[Struct]) -> str:
    """One sentence for a msgspec violation: the file, the key and what to write instead."""
    match = _WHERE.search(message)
    key = match.group(1).lstrip(".") if match else ""
    body = message[:match.start()] if match else message
    top = re.split(r"[.\[]", key)[0] if key else ""
    fix = _descriptions(schema).get(top, "")
    unknown = re.match(r"Object contains unknown field `(.*)`", body, re.S)
    if unknown:
        known = ", ".join(_descriptions_keys(schema, key))
        place = f" in '{key}'" if key else ""
        return f"{where}: unknown key {quoted(unknown.group(1))}{place}; known keys: {known}."
    missing = re.match(r"Object missing required field `(.*)`", body, re.S)
    if missing:
        place = f" in '{key}'" if key else ""
        return f"{where}: {quoted(missing.group(1))} is missing{place}; add it."
    expected = _EXPECTED.match(body)
    if expected:
        want, extra, got = expected.groups()
        text = f"must be {kinds_text(want)}{extra}" + (f", not {kinds_text(got)}" if got else "")
    else:
        text = body[0].lower() + body[1:] if body else "is malformed"
    if match and " - at `key` in " in message:
        text = f"has a key that {text}"
    label = f"'{key}' " if key else ""
    return f"{where}: {label}{text}" + (f" ({fix})." if fix else ".")


def _descriptions(schema: type[Struct]) -> dict[str, str]:
    props = msgspec.json.schema(schema)
    name = schema.__name__
    body = props.get("$defs", {}).get(name, props)
    return {k: _description(v) for k, v in body.get("properties", {}).items()}


def _description(prop: dict[str, Any]) -> str:
    """A field's description, also where it sits inside `anyOf` (an optional field)."""
    if "description" in prop:
        return str(prop["description"])
    return next((str(p["description"]) for p in prop.get("anyOf", ()) if "description" in p), "")


def _descriptions_keys(schema: type[Struct], key: str) -> list[str]:
    """The field names of the Struct found at `key` (top level when empty)."""
    target: Any = schema
    for part in [p for p in re.split(r"[.\[\]]", key) if p]:
        info = msgspec.inspect.type_info(target)
        fields = ({f.name: f.type for f in info.fields}
                  if isinstance(info, msgspec.inspect.StructType) else {})
        kind = fields.get(part)
        target = _struct_in(kind) if kind is not None else None
        if target is None:
            return []
    return list(target.__struct_fields__)


def _struct_in(kind: Any) -> type[Struct] | None:
    if isinstance(kind, msgspec.inspect.StructType):
        return kind.cls
    for attr in ("type", "types", "value_type"):
        inner = getattr(kind, attr, None)
        for item in inner if isinstance(inner, tuple) else (inner,):
            if item is not None and (found := _struct_in(item)) is not None:
                return found
    return None


def validate(raw: Any, schema: type[Struct], where: str | Path) -> Any:
    """`raw` (a parsed YAML or JSON tree) as an instance of `schema`, or a UserError."""
    try:
        return msgspec.convert(raw, schema, strict=True)
    except msgspec.ValidationError as exc:
        raise UserError(sentence(str(exc), str(where), schema)) from None


SCHEMAS: tuple[type[Struct], ...] = ()  # filled below: every Struct, in the order documented


def markdown() -> str:
    """docs/formats.md's tables of keys, from the declarations above."""
    out = []
    for schema in SCHEMAS:
        doc = " ".join((schema.__doc__ or "").strip().split("\n\n")[0].split())
        out += [f"### {schema.__name__}", "", doc, "", "| key | type | meaning |",
                "|---|---|---|"]
        descriptions = _descriptions(schema)
        types = msgspec.json.schema(schema)
        body = types.get("$defs", {}).get(schema.__name__, types)
        required = set(body.get("required", ()))
        for name in schema.__struct_fields__:
            prop = body.get("properties", {}).get(name, {})
            meaning = descriptions.get(name) or _referenced_doc(prop)
            need = " (required)" if name in required else ""
            out.append(f"| `{name}` | {_type_text(prop)}{need} | {meaning} |")
        out.append("")
    return "\n".join(out)


def _referenced_doc(prop: dict[str, Any]) -> str:
    """The first line of the docstring of the Struct a field holds, if it holds one."""
    for item in [prop, *prop.get("anyOf", ())]:
        if "$ref" in item:
            name = item["$ref"].rsplit("/", 1)[-1]
            for schema in SCHEMAS:
                if schema.__name__ == name:
                    return (schema.__doc__ or "").strip().splitlines()[0]
    return ""


def _type_text(prop: dict[str, Any]) -> str:
    if "anyOf" in prop:
        parts = [_type_text(p) for p in prop["anyOf"]]
        return " or ".join(p for p in parts if p != "null") or "null"
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1]
    if "enum" in prop:
        return "one of " + ", ".join(str(v) for v in prop["enum"])
    kind = prop.get("type", "any")
    if "pattern" in prop:
        return f"{kind} matching `{prop['pattern']}`"
    if kind == "array":
        if "prefixItems" in prop:
            return "[" + ", ".join(_type_text(p) for p in prop["prefixItems"]) + "]"
        return f"list of {_type_text(prop.get('items', {}))}"
    if kind == "object":
        return f"mapping to {_type_text(prop.get('additionalProperties', {}))}"
    limits = [f"{sym} {prop[key]}" for key, sym in (("minimum", ">="), ("maximum", "<="))
              if key in prop]
    return kind + (f" ({', '.join(limits)})" if limits else "")


SCHEMAS = (Sidecar, SkirmishSidecar, PuzzleSidecar, DescentSidecar, OctalSidecar, SpawnPatch,
           UnitsPatch, UnitPatch, Costs, ReplayFile, LogEntry, Result, UnitsFile, UnitStatsEntry, BuildingStatsEntry, Buildings, WordsFile, WordEntry, PropertiesFile, PropertyEntry, StatsEntry, PaletteFile,
           PaletteEntryFile, AiFile, ClientFile, SettingsFile, MenuFile, MenuEntry, Challenge)

MARKER = "<!-- generated by `python -m game.schemas`; tests/unit/test_schemas.py keeps it current -->"


def write_docs(page: Path) -> None:
    """Replace everything after MARKER in `page` (docs/formats.md) with the current tables."""
    text = page.read_text(encoding="utf-8")
    head = text.split(MARKER, 1)[0]
    page.write_text(f"{head}{MARKER}\n\n{markdown()}", encoding="utf-8")


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--write"]:
        write_docs(Path(sys.argv[2]))
    else:
        print(markdown())
