"""The Textual client driven as a player would: keys and clicks through App.run_test(), and
the resulting world checked (a move, an attack, undo, a rule broken by a push, a save resumed,
an AI's turn, a hotseat hand-over, descent steps, octal heaps, a small terminal)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from components import Health, Position
from components.resources import RULES_KEY
from game.cli.common import open_game
from game.commands import Attack, EndTurn, Move
from game.engine import Engine
from game.levels.loader import FileKind, load_engine
from game.session.match import Seat, make_seats
from game.session.think import Inline
from game.text.app import Board, HandOver, HelpScreen, RulefrontApp
from tests.helpers import MAPS, descent_board, draw_cells, octal_engine

Scenario = Callable[[RulefrontApp, Pilot], Awaitable[None]]


def drive(app: RulefrontApp, scenario: Scenario, size: tuple[int, int] = (100, 30)) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(app, pilot)
    asyncio.run(run())


def skirmish(tmp_path: Path, extra: dict[tuple[int, int], str] | None = None) -> Engine:
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (3, 1): "red bulwark", (8, 8): "blue bulwark",
             **(extra or {})}
    return load_engine(draw_cells(tmp_path / "t.png", 10, 10, cells, {"name": "t"}))


def app_for(engine: Engine, tmp_path: Path, red: str = "human", blue: str = "random",
            ai_delay: float = 60.0) -> tuple[RulefrontApp, dict[str, Seat]]:
    seats = make_seats(engine, {"red": red, "blue": blue}, 0)
    return RulefrontApp(engine, seats, 0, tmp_path / "save.json", ai_delay=ai_delay), seats


def cell(engine: Engine, entity: int) -> tuple[int, int]:
    pos = engine.world.get(entity, Position)
    return (pos.x, pos.y)


def log_text(app: RulefrontApp) -> str:
    from textual.widgets import RichLog

    # the log wraps its sentences to the panel: read them back as one text
    return " ".join(" ".join(line.text.split()) for line in app.query_one("#log", RichLog).lines)


def test_enter_selects_the_unit_under_the_cursor_and_moves_it_where_enter_is_pressed(tmp_path):
    engine = skirmish(tmp_path)
    app, _ = app_for(engine, tmp_path)
    hero = engine.world.at(3, 1)[0]

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        assert (app.cursor.x, app.cursor.y) == (3, 1)  # the cursor starts on a unit to play
        await pilot.press("enter")
        assert app.cursor.selected == hero
        assert (4, 1) in app.cursor.reach()
        await pilot.press("right", "right", "enter")

    drive(app, scenario)
    assert cell(engine, hero) == (5, 1)
    assert (tmp_path / "save.json").exists()  # autosaved after the command


def test_a_click_selects_and_a_click_moves(tmp_path):
    engine = skirmish(tmp_path)
    app, _ = app_for(engine, tmp_path)
    hero = engine.world.at(3, 1)[0]

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        # a cell is 3 characters wide after a 3-character row label; row 0 is the x labels
        await pilot.click(Board, offset=(3 * 4 + 1, 2))
        assert app.cursor.selected == hero
        await pilot.click(Board, offset=(3 * 4 + 1, 4))

    drive(app, scenario)
    assert cell(engine, hero) == (3, 3)


def test_an_illegal_choice_shows_the_engines_reason_and_leaves_the_world(tmp_path):
    engine = skirmish(tmp_path)
    app, _ = app_for(engine, tmp_path)
    before = engine.world.state_key()
    hero = engine.world.at(3, 1)[0]
    reason = engine.why_illegal(Move(hero, 3, 8))
    assert reason

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("enter", *["down"] * 7, "enter")
        assert app.cursor.message == reason
        assert reason in str(app.query_one("#status").render())

    drive(app, scenario)
    assert engine.world.state_key() == before
    assert not engine.history


def test_selecting_then_entering_on_a_target_attacks_it_and_undo_takes_it_back(tmp_path):
    engine = skirmish(tmp_path, {(4, 1): "blue ranger"})
    app, _ = app_for(engine, tmp_path)
    hero = engine.world.at(3, 1)[0]
    target = next(e for e in engine.world.at(4, 1) if engine.world.try_get(e, Health))
    hp = engine.world.get(target, Health).hp
    assert Attack(hero, target) in engine.legal_actions()

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("enter")
        assert (4, 1) in app.cursor.targets()
        await pilot.press("right", "enter")
        assert engine.world.get(target, Health).hp < hp
        assert "red bulwark hits blue ranger for" in log_text(app)
        await pilot.press("u")
        assert engine.world.get(target, Health).hp == hp
        await pilot.press("r")

    drive(app, scenario)
    assert engine.world.get(target, Health).hp < hp


def test_a_push_that_breaks_a_rule_is_logged_and_the_panel_follows(tmp_path):
    engine = skirmish(tmp_path, {(3, 2): "word FLAG", (4, 2): "word IS", (5, 2): "word WIN"})
    app, _ = app_for(engine, tmp_path)
    assert "FLAG IS WIN" in engine.world.resource(RULES_KEY)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("enter", "down", "enter")
        assert "FLAG IS WIN is broken" in log_text(app)
        panel = str(app.query_one("#info").render())
        assert "FLAG IS WIN (broken)" in panel

    drive(app, scenario)
    assert "FLAG IS WIN" not in engine.world.resource(RULES_KEY)


def test_the_ai_turn_plays_out_in_sentences_and_space_skips_to_its_end(tmp_path):
    engine = load_engine(MAPS / "crossing.png", seed=3)
    app, _ = app_for(engine, tmp_path, blue="heuristic")

    log: list[str] = []

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("e")
        assert engine.side == "red" and "press e again" in app.cursor.message  # heroes unused
        await pilot.press("e")
        assert engine.side == "blue"
        await pilot.press("space")  # the AI thinks in its process: its actions come at once
        for _ in range(500):
            if engine.side == "red":
                break
            await pilot.pause(0.02)
        assert engine.side == "red"
        log.append(log_text(app))

    drive(app, scenario)
    blue_turn = [entry.command for entry in engine.history[1:]]
    assert blue_turn[-1] == EndTurn() and len(blue_turn) > 1
    assert "blue ends the turn (round 1)" in log[0]
    assert "blue " in log[0].split("red ends the turn")[1]


def test_the_ai_plays_by_itself_at_its_pace(tmp_path):
    engine = load_engine(MAPS / "crossing.png", seed=3)
    app, _ = app_for(engine, tmp_path, blue="random", ai_delay=0.01)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("e", "e")  # e asks first: no hero has acted
        for _ in range(200):
            if engine.side == "red":
                break
            await pilot.pause(0.02)

    drive(app, scenario)
    assert engine.side == "red" and len(engine.history) > 1


def test_quitting_saves_and_the_save_resumes_the_same_world(tmp_path):
    engine = skirmish(tmp_path)
    app, _ = app_for(engine, tmp_path)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("enter", "right", "enter", "q")

    drive(app, scenario)
    resumed, record = open_game(tmp_path / "save.json", "play --resume", (FileKind.SAVE,))
    assert record is not None
    assert resumed.world.state_key() == engine.world.state_key()
    assert len(resumed.history) == 1


def test_two_humans_get_a_hand_over_screen_between_turns(tmp_path):
    engine = skirmish(tmp_path)
    app, _ = app_for(engine, tmp_path, blue="human")

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("e", "e")  # e asks first: no hero has acted
        assert isinstance(app.screen, HandOver)
        await pilot.press("e", "u", "down")  # the hidden board takes no keys but Enter and q
        assert engine.side == "blue" and len(engine.history) == 1
        await pilot.press("enter")
        assert not isinstance(app.screen, HandOver)
        assert app.cursor.units()  # blue's units to play now

    drive(app, scenario)
    assert engine.side == "blue"


def test_descent_steps_with_the_arrows_and_the_hint_names_a_step(tmp_path):
    engine = descent_board(["2 1", "1 0"])
    seats = make_seats(engine, {}, 0)
    app = RulefrontApp(engine, seats, 0, None, thinker=Inline())

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("h")
        for _ in range(200):
            if app.cursor.message:
                break
            await pilot.pause(0.05)
        assert app.cursor.message.startswith("hint: ")
        await pilot.press("right")

    drive(app, scenario)
    assert len(engine.history) == 1


def test_octal_takes_from_the_chosen_heap(tmp_path):
    engine = octal_engine("0.137", [3, 5])
    app, _ = app_for(engine, tmp_path, blue="perfect")

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("down")
        assert app.cursor.heap == 1
        take = app.cursor.chosen_take()
        assert take is not None and take.heap == 1
        await pilot.press("enter")

    drive(app, scenario)
    assert engine.history[0].command.heap == 1  # type: ignore[attr-defined]


def test_at_80_by_24_the_panel_shows_and_a_narrow_terminal_folds_it(tmp_path):
    engine = load_engine(MAPS / "crossing.png", seed=0)

    async def wide(app: RulefrontApp, pilot: Pilot) -> None:
        assert app.query_one("#panel").display
        await pilot.resize_terminal(50, 20)
        await pilot.pause()
        assert not app.query_one("#panel").display
        await pilot.press(*["down"] * 15)
        assert app.cursor.y == 15

    drive(app_for(engine, tmp_path)[0], wide, size=(80, 24))


def test_the_board_redrawn_for_a_cursor_move_equals_a_fresh_drawing(tmp_path):
    from rich.console import Console

    from game.text.app import board_text

    engine = load_engine(MAPS / "crossing.png", seed=0)
    app, _ = app_for(engine, tmp_path)
    shown: list[str] = []
    fresh: list[str] = []
    console = Console(width=200, color_system="truecolor")

    def draw(text) -> str:
        with console.capture() as capture:
            console.print(text)
        return capture.get()

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        board = app.query_one(Board)
        for keys in (["enter"], ["down", "right"], ["right", "enter"], ["up", "up"]):
            await pilot.press(*keys)
            shown.append(draw(board.render()))
            fresh.append(draw(board_text(engine, app.cursor)))

    drive(app, scenario)
    assert shown == fresh
    assert len(set(shown)) == 4  # each step changed what is drawn


async def until(pilot: Pilot, done: Callable[[], bool], tries: int = 500) -> None:
    """Let the app run until `done()` (the AI answers from its own process)."""
    for _ in range(tries):
        if done():
            return
        await pilot.pause(0.02)


def test_undo_takes_back_the_ai_turn_and_redo_replays_the_same_commands(tmp_path):
    engine = load_engine(MAPS / "crossing.png", seed=3)
    app, _ = app_for(engine, tmp_path, blue="random")  # a new turn would be another one
    played: list[object] = []

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("e", "e", "space")  # e asks first: no hero has acted
        await until(pilot, lambda: engine.side == "red")
        played.extend(engine.commands())
        await pilot.press("u")  # blue's turn and red's end of turn
        assert engine.commands() == [] and engine.side == "red"
        await pilot.press("r")  # red's end of turn again, and blue's turn replayed as it was
        assert engine.commands() == played and engine.side == "red"

    drive(app, scenario)
    assert len(played) > 2


def test_quitting_a_level_with_moves_played_asks_first(tmp_path):
    engine = descent_board(["2 1", "1 0"])
    app = RulefrontApp(engine, make_seats(engine, {}, 0), 0, None)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("right", "q")
        assert app.is_running and app.cursor.message.startswith("quit? this level is not saved (1 move played)")
        await pilot.press("q")

    drive(app, scenario)
    assert not app.is_running and len(engine.history) == 1

def test_the_cursor_on_an_enemy_shows_its_threat_and_t_shows_every_enemys(tmp_path):
    engine = skirmish(tmp_path)  # the blue bulwark stands at 8,8: 3 move points, range 1
    app, _ = app_for(engine, tmp_path)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        assert app.cursor.threat()[0] == frozenset()
        app.cursor.x, app.cursor.y = 8, 8
        moves, strikes = app.cursor.threat()
        assert (8, 5) in moves and (5, 8) in moves and (8, 4) in strikes
        assert (8, 4) not in moves and (4, 4) not in moves | strikes
        await pilot.press("left")  # off the bulwark: its threat goes
        assert app.cursor.threat()[0] == frozenset()
        await pilot.press("t")
        moves, strikes = app.cursor.threat()
        assert (8, 5) in moves and (8, 4) in strikes  # every enemy: the bulwark too
        assert "every enemy's threat" in app.cursor.message

    drive(app, scenario)


def test_the_log_has_round_headings_and_keeps_the_names_of_the_time(tmp_path):
    engine = load_engine(MAPS / "crossing.png", seed=3)
    app, _ = app_for(engine, tmp_path, blue="heuristic")

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        for _ in range(2):
            await pilot.press("e", "e", "space")  # e asks first: no hero has acted
            await pilot.pause()
            await until(pilot, lambda: engine.side == "red")
        await pilot.press("pageup")
        text = log_text(app)
        assert "Round 1 - red" in text and "Round 2 - blue" in text
        assert text.index("Round 1 - blue") < text.index("Round 2 - red")
        assert app.chronicle.rows() and app.cursor.units()

    drive(app, scenario)


def test_the_ai_plays_on_while_the_help_box_is_up(tmp_path):
    engine = load_engine(MAPS / "crossing.png", seed=3)
    app, _ = app_for(engine, tmp_path, blue="random", ai_delay=0.01)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("e", "e", "question_mark")  # blue thinks in its process; help goes up
        await until(pilot, lambda: engine.side == "red")  # its actions land under the box
        await pilot.press("escape")

    drive(app, scenario)
    assert engine.side == "red" and len(engine.history) > 1


def test_the_mouse_over_an_enemy_shows_its_threat_in_the_terminal(tmp_path):
    engine = skirmish(tmp_path)  # the blue bulwark stands at 8,8
    app, _ = app_for(engine, tmp_path)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        # a cell is 3 characters wide after a 3-character row label; row 0 is the x labels
        await pilot.hover(Board, offset=(3 * 9 + 1, 9))
        assert app.cursor.hovered == (8, 8)
        assert (8, 5) in app.cursor.threat()[0]
        assert (app.cursor.x, app.cursor.y) == (3, 1)  # the cursor itself stays
        await pilot.hover(Board, offset=(3 * 2 + 1, 2))  # an empty cell
        assert app.cursor.threat()[0] == frozenset()

    drive(app, scenario)


def test_keys_the_panel_and_help_answer_while_the_ai_thinks_and_u_stops_it(tmp_path):
    engine = load_engine(MAPS / "outpost.png", seed=0)
    app, _ = app_for(engine, tmp_path, blue="minimax:think=30", ai_delay=0.01)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("e", "e")  # the first e asks: no hero has acted
        await until(pilot, lambda: app.asked is not None)
        assert "blue (minimax:think=30) is thinking" in app.prompt()
        await pilot.press("p")  # the panel folds at once
        assert app.board_screen.query_one("#panel").has_class("folded")
        await pilot.press("pageup", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "u")  # the think is stopped, red's end of turn undone
        assert app.asked is None and not app.thinker.thinking
        assert engine.side == "red" and engine.commands() == []

    drive(app, scenario)


class HeldHint(Inline):
    """A thinker whose hint comes only when the test lets it (as if the solver took long)."""

    def __init__(self) -> None:
        super().__init__()
        self.held = None
        self.cancelled = 0

    def ask_hint(self, engine, seconds):
        super().ask_hint(engine, seconds)
        self.held, self._answer = self.poll_hint(), None

    def release(self) -> None:
        self._answer, self.held = self.held, None

    def cancel(self) -> None:
        self.cancelled += 1
        super().cancel()


def test_help_opens_while_the_hint_is_looked_for_and_a_move_drops_the_hint(tmp_path):
    engine = descent_board(["2 1", "1 0"])
    thinker = HeldHint()
    app = RulefrontApp(engine, make_seats(engine, {}, 0), 0, None, thinker=thinker)

    async def scenario(app: RulefrontApp, pilot: Pilot) -> None:
        await pilot.press("h")
        assert app.prompt().startswith("looking for a hint")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)  # the keys answer while it looks
        await pilot.press("x")
        thinker.release()  # the hint comes...
        for _ in range(200):
            if app.cursor.message:
                break
            await pilot.pause(0.05)
        assert app.cursor.message.startswith("hint: ")  # ...and shows: the board is the same
        await pilot.press("h")
        assert app.hint_asked is not None
        await pilot.press("right")  # a move: the search stops, its answer would be stale
        assert app.hint_asked is None and thinker.cancelled == 1
        thinker.release()
        await pilot.pause(0.2)
        assert not app.cursor.message.startswith("hint: ")

    drive(app, scenario)
    assert len(engine.history) == 1


def test_the_status_line_says_what_to_do_whole_at_80x24(tmp_path):
    """Its three rows held 'red to play: ...; e end turn (twice if' and no more: the
    sentence a new player reads first was cut."""
    from rich.console import Console
    from rich.text import Text

    engine = load_engine(MAPS / "crossing.png", seed=0)
    seen: dict[str, object] = {}

    async def look(app: RulefrontApp, pilot: Pilot) -> None:
        status = app.query_one("#status")
        width = status.content_size.width
        seen["text"] = str(status.render())
        seen["rows"] = len(Text(str(seen["text"])).wrap(Console(width=width), width))
        seen["room"] = status.content_size.height

    drive(app_for(engine, tmp_path)[0], look, size=(80, 24))
    assert "red to play" in str(seen["text"]) and "e end" in str(seen["text"])
    assert seen["rows"] <= seen["room"], seen
