"""What every AI shares: the protocol, the budget, the table of built-in names, and how a
seat's text becomes a name, options and a built player (`systems.ai.make_ai` puts it together)."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from game.errors import UserError

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


@dataclass(frozen=True)
class Budget:
    """How long an AI may think about one action: seconds, search nodes, or neither."""

    seconds: float | None = None
    nodes: int | None = None


class OutOfBudget(Exception):
    """Raised inside a search when its time or node budget is spent."""


class NodeCounter:
    """A search's node count against its budget (minimax over actions, over whole turns):
    `node_limit` nodes, or the clock past `deadline`, read every `check_every` nodes."""

    check_every = 32
    node_limit: int | None
    deadline: float | None
    stats: Any  # anything with a `nodes` count

    def _count(self) -> None:
        stats = self.stats
        stats.nodes += 1
        if self.node_limit is not None and stats.nodes > self.node_limit:
            raise OutOfBudget
        if self.deadline is not None and stats.nodes % self.check_every == 0 \
                and time.perf_counter() > self.deadline:
            raise OutOfBudget

    def count(self, nodes: int) -> None:
        """Count `nodes` actions applied some other way (reapplied from a recording)."""
        for _ in range(nodes):
            self._count()


class Forfeit(Exception):
    """An AI that cannot go on (a plug-in raised, or answered with no command): its side loses.

    `reason` is one sentence naming the AI, kept in the match result and the replay."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AI(Protocol):
    """A player: `choose` returns one of `engine.legal_actions()` and leaves the engine as it
    found it. Optional class attributes: `NEEDS`, what the ruleset must offer
    (`RulesetSpec.has`), so a seat is refused before a game it cannot play; `PLANS_TURNS`,
    true when the AI may spend a whole turn's time on the turn's first action (see
    `time_limit`)."""

    name: str

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command: ...


class Evaluator(Protocol):
    """A ruleset's evaluation, as its spec's `evaluator` edge builds it (the edge names a
    factory taking no arguments): what a position is worth to `side`, positive good. A decided
    game is worth `win` less the plies to it (`-win` plus them when lost, 0 drawn); undecided
    positions stay well inside +-(win - 10,000), where the searches keep their mate distances.
    `tie`: values nearer than this are equal (the whole-turn search then prefers progress);
    `scale`: a clear lead (MCTS squashes value / scale into (-1, 1)); `exact`: the value's
    sign is who wins under perfect play (what the perfect AI plays by)."""

    win: float
    tie: float
    scale: float
    exact: bool

    def __call__(self, engine: Engine, side: str, ply: int = 0) -> float: ...


def evaluator_for(engine: Engine) -> Evaluator:
    """The evaluator of the engine's ruleset (its spec's `evaluator` edge); a UserError when
    the ruleset has none (seats are refused earlier: the AIs that need one say so in NEEDS)."""
    from game import registry

    built: Evaluator = registry.spec(engine.ruleset.name).edge("evaluator")()
    return built


# The forfeit policy's clock (game/session/seat.py, docs/ecosystem.md): an AI may take its
# time budget per action (the seat's own think option, else the match's --think), plus a
# share of it and a fixed margin, before it forfeits; a plug-in's process is stopped then.
MARGIN_SECONDS = 1.0
MARGIN_SHARE = 0.5
TURN_ACTIONS = 40  # a PLANS_TURNS AI may spend this many actions' budget on one (searches cap
# a turn they plan at 40 actions)
UNTIMED_SECONDS = 60.0  # the limit of one action when neither the seat nor the match gives time
SETUP_SECONDS = 120.0  # a child process (systems/ai/remote.py) starting and catching up with
# the game, not timed


def fingerprint(engine: Engine) -> tuple[Any, ...]:
    """What an AI must leave as it found: the history, the redo stack and the World's journal
    (apply then retract puts all three back)."""
    return (len(engine.history), len(engine.redo_stack), engine.world.version())


def clause(exc: BaseException) -> str:
    """An exception's message as a clause of a sentence (no final full stop)."""
    return " ".join(str(exc).split()).rstrip(".") or "no message"


def needs_of(ai: Any) -> tuple[str, ...]:
    """What an AI (a class or a player) needs the ruleset to offer: its NEEDS, else nothing."""
    return tuple(getattr(ai, "NEEDS", ()))


def time_limit(ai: Any, budget: Budget) -> float:
    """The seconds an AI may take for one action before it forfeits: its budget (its own
    `think`, else the match's seconds; times TURN_ACTIONS if it PLANS_TURNS) plus MARGIN_SHARE
    of that plus MARGIN_SECONDS; UNTIMED_SECONDS when no time is given."""
    own = getattr(ai, "think", None)
    seconds = own if isinstance(own, (int, float)) and not isinstance(own, bool) \
        else budget.seconds
    if seconds is None:
        return UNTIMED_SECONDS
    if getattr(ai, "PLANS_TURNS", False):
        seconds *= TURN_ACTIONS
    return seconds * (1 + MARGIN_SHARE) + MARGIN_SECONDS


# AI name -> "module:factory"; a factory takes the seat's options as keyword arguments.
AIS: dict[str, str] = {
    "random": "systems.ai.random_ai:RandomAI",
    "perfect": "systems.ai.perfect:PerfectAI",
    "heuristic": "systems.ai.heuristic:HeuristicAI",
    "minimax": "systems.ai.minimax:MinimaxAI",
    "mcts": "systems.ai.mcts:MctsAI",
    "openspiel-mcts": "game.openspiel.seat:OpenSpielMCTS",  # the `openspiel` extra
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """A seat's name and options: 'minimax:think=0.5' -> ('minimax', {'think': '0.5'});
    a plug-in 'pkg.mod:Class:depth=3' -> ('pkg.mod:Class', {'depth': '3'})."""
    name, _, rest = spec.partition(":")
    head, _, tail = rest.partition(":")
    if name.strip() not in AIS and head.strip().isidentifier() and "=" not in head:
        name, rest = f"{name.strip()}:{head.strip()}", tail  # module:Class[:options]
    options: dict[str, str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise UserError(f"AI option '{part}' in '{spec}' must be written key=value.")
        options[key.strip()] = value.strip()
    return name.strip(), options


def plugin_class(spec: str) -> bool:
    """Whether a seat names a class by its module ('pkg.mod:Class'): code only the command line
    may choose (a seat read from a file may name built-in and installed AIs only)."""
    try:
        name, _ = parse_spec(spec)
    except UserError:
        return ":" in spec
    return ":" in name


# A seat option's bounds, by its name, checked before any AI is built (`check_options`): the
# value is finite and in range, so `think=nan`, `think=1e999`, `mcts:c=nan` or `sims=1e30` is
# one sentence before any game instead of a search that never ends. The ceilings are what one
# machine gets through: an hour per action, a hundred million nodes (about an hour and a half
# of minimax), a million MCTS simulations (their tree must fit in memory).
# name -> (lowest, highest, whole number, lowest allowed itself)
OPTION_LIMITS: dict[str, tuple[float, float, bool, bool]] = {
    "think": (0.0, 3600.0, False, False),  # seconds per action, more than 0
    "nodes": (1, 100_000_000, True, True),
    "sims": (1, 1_000_000, True, True),
    "depth": (1, 1_000, True, True),
    "width": (0, 10_000, True, True),  # 0: no limit
    "turns": (1, 1_000, True, True),
    "rollouts": (1, 10_000, True, True),
    "c": (0.0, 1_000.0, False, True),
    "uct": (0.0, 1_000.0, False, True),
    "widen": (0.0, 1_000.0, False, False),
    "goals": (0.0, 0.99, False, True),  # a word goal's share kept per turn (systems/ai/goals.py)
}
# Seat options that take a word, not a number: name -> the words allowed. Every built-in AI
# takes them (`build` applies them around the AI it makes): `words=off` forbids it to push a
# word tile (systems/ai/wordless.py), so what the words are worth to it can be measured.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {"words": ("on", "off")}
PLUGIN_CHECKED = ("think",)  # a plug-in's other options mean what it says; think is the clock


def option_value(name: str, text: Any) -> float:
    """One option's value checked against OPTION_LIMITS: a finite number in range (a whole
    number where one is needed); a ValueError naming the option and the range otherwise."""
    low, high, whole, closed = OPTION_LIMITS[name]
    kind = "a whole number" if whole else "a number"
    shown = f"{low:g}" if closed else f"more than {low:g}"
    top = f"{int(high):,}" if high == int(high) else f"{high:g}"
    where = f"from {shown} to {top}" if closed else f"{shown} and at most {top}"
    try:
        value = float(text)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"option {name} must be {kind} {where}, not {text!r}") from None
    if not math.isfinite(value) or (whole and value != int(value)) \
            or not (low <= value <= high if closed else low < value <= high):
        raise ValueError(f"option {name} must be {kind} {where}, not {text!r}")
    return value


def check_options(name: str, spec: str, options: dict[str, str], builtin: bool,
                  takes: list[str] | None = None) -> None:
    """Every option of a seat that OPTION_LIMITS knows (and its AI `takes`, when given: an
    option it does not take is the factory's sentence), checked before its AI is built (a
    plug-in's `think` only): one sentence naming the seat, the option and its range."""
    for key, text in options.items():
        if key in OPTION_CHOICES and builtin:
            if text not in OPTION_CHOICES[key]:
                raise UserError(f"AI '{spec}': option {key} must be "
                                f"{' or '.join(OPTION_CHOICES[key])}, not {text!r}.")
            continue
        if takes is not None and key not in takes:
            continue
        if key in OPTION_LIMITS and (builtin or key in PLUGIN_CHECKED):
            try:
                option_value(key, text)
            except ValueError as exc:
                raise UserError(f"AI '{spec}': {exc}.") from None


def build(factory: Any, name: str, spec: str, options: dict[str, str]) -> AI:
    """Call an AI's factory with the seat's options (range-checked first, `check_options`);
    a wrong option is one sentence."""
    builtin = name in AIS
    check_options(name, spec, options, builtin=builtin, takes=option_names(factory) or None)
    choices = {k: options[k] for k in OPTION_CHOICES if builtin and k in options}
    own = {k: v for k, v in options.items() if k not in choices}
    try:
        ai: AI = factory(**own)
    except TypeError:
        known = ", ".join([*option_names(factory), *(OPTION_CHOICES if builtin else ())]) \
            or "none"
        raise UserError(f"AI '{name}' does not take the options {sorted(options)}; "
                        f"its options: {known}.") from None
    except ValueError as exc:
        raise UserError(f"AI '{spec}': {exc}.") from None
    if choices.get("words") == "off":
        from systems.ai.wordless import Wordless

        ai = Wordless(ai)
    return ai


def option_names(factory: Any) -> list[str]:
    """The options a factory takes: its OPTIONS when it says, else its keyword parameters."""
    declared = getattr(factory, "OPTIONS", None)
    if declared is not None:
        return list(declared)
    import inspect

    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in parameters if p.kind in kinds]


def options_float(value: Any, name: str) -> float:
    """An option's number: checked against OPTION_LIMITS when it has limits, else any finite
    number (an AI built in code, not through `build`, gets the same checks)."""
    if name in OPTION_LIMITS:
        return option_value(name, value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"option {name} must be a number, not {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"option {name} must be a finite number, not {value!r}")
    return number
