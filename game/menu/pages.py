"""The kinds of page the title menu opens, by the name data/menu.yaml's entries give them.

Each is a function `(menu, entry)` that opens a Page (`menu.open`), or sets `menu.launch` or
`menu.message`. A new kind of page (network play's Host and Join, say) is one function and
`register_page(kind, function)`; a new entry using it is a line of data/menu.yaml.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.menu.controller import MenuController
from game.menu.model import Entry, Launch, Page, Row, stars_for
from game.menu.online import host_page, join_page
from game.session.settings import KEY_ACTIONS, PALETTES, SPEEDS, Settings


def new_game_page(menu: MenuController, entry: Entry) -> None:
    """A map of sides and a seat per side, then Start."""
    maps = menu.maps_of(entry.rulesets, sides=2)
    if not maps:
        menu.message = "There are no maps of sides to play here."
        return
    from game import registry
    from game.levels.maps import DEFAULT_MAP

    paths = [path for _name, path, _map in maps]
    state = {"map": paths.index(DEFAULT_MAP) if DEFAULT_MAP in paths else 0}
    seats: dict[str, str] = {}

    def sides() -> tuple[str, ...]:
        game_map = maps[state["map"]][2]
        return tuple(registry.load_object(registry.spec(game_map.ruleset).factory).sides)

    def choices() -> list[str]:
        return menu.seat_choices(maps[state["map"]][2].ruleset)

    def build() -> Page:
        name, path, game_map = maps[state["map"]]
        rows = [Row("Map", f"< {game_map.name} >", preview=path)]
        options = choices()
        for index, side in enumerate(sides()):
            default = "Human" if index == 0 else ("Normal" if "Normal" in options else options[-1])
            seats[side] = seats.get(side) if seats.get(side) in options else default  # type: ignore[assignment]
            rows.append(Row(side.capitalize(), f"< {seats[side]} >", preview=path))
        rows.append(Row("Start", f"{game_map.name}, {game_map.width}x{game_map.height}",
                        preview=path))
        page = Page(entry.label, rows, enter=enter, change=change,
                    about=lambda i: (f"{game_map.name}: {game_map.ruleset}, "
                                     f"{game_map.width}x{game_map.height}",
                                     "left/right change the map and the seats"))
        page.rebuild = build
        return page

    def change(row: int, step: int) -> None:
        if row == 0:
            state["map"] = (state["map"] + step) % len(maps)
        elif row <= len(sides()):
            side, options = sides()[row - 1], choices()
            seats[side] = options[(options.index(seats[side]) + step) % len(options)]
        else:
            return
        menu.stack[-1] = (build(), row)

    def enter(row: int) -> None:
        if row <= len(sides()):
            change(row, 1)
            return
        from game.session.settings import seat_spec

        menu.launch = Launch("match", maps[state["map"]][1],
                             {side: seat_spec(seats[side]) for side in sides()})

    menu.open(build())


def continue_page(menu: MenuController, entry: Entry) -> None:
    """The autosave, resumed (no page of its own)."""
    if not menu.save_path.exists():
        menu.message = f"There is no saved game yet ({menu.save_path})."
        return
    menu.launch = Launch("resume", menu.save_path)


def levels_page(menu: MenuController, entry: Entry) -> None:
    """One-player levels with the stars won and the best number of moves."""
    levels = menu.maps_of(entry.rulesets, sides=1)

    def build() -> Page:
        rows = []
        for name, path, game_map in levels:
            thresholds = game_map.sidecar.get("stars")
            best = menu.best([str(path), name, str(path.relative_to(path.parents[1]))])
            stars = None
            if isinstance(thresholds, dict) and thresholds:
                stars = 0 if best is None else stars_for(thresholds, best)
            detail = f"{best} moves" if best is not None else "not won yet"
            twins = sum(1 for _n, _p, other in levels if other.name == game_map.name)
            label = f"{game_map.name} ({path.suffix[1:]})" if twins > 1 else game_map.name
            rows.append(Row(label, detail, stars, path))
        page = Page(entry.label, rows, enter=enter,
                    about=lambda i: (f"{levels[i][2].name}: {levels[i][2].width}x"
                                     f"{levels[i][2].height}", rows[i].detail))
        page.rebuild = build
        return page

    def enter(row: int) -> None:
        menu.launch = Launch("level", levels[row][1])

    if not levels:
        menu.message = "There are no levels of this kind shipped."
        return
    menu.open(build())


def challenges_page(menu: MenuController, entry: Entry) -> None:
    """data/menu.yaml's challenges (a map, a side, an opponent, stars by rounds), then the
    shipped challenge maps (`maps/challenges/`: the sidecar states the task, stars by the
    player's commands)."""
    from game.data import find_shipped
    from game.levels.loader import load_game_map
    from game.session.challenge import goal_of

    found = []
    for challenge in menu.challenges:
        path = find_shipped(challenge.map)
        if path is not None:
            found.append((challenge, path, load_game_map(path)))
    shipped = [(goal, path, game_map)
               for _name, path, game_map in menu.maps_of(entry.rulesets, sides=2,
                                                         challenges=True)
               if (goal := goal_of(game_map)) is not None]

    def build() -> Page:
        rows = []
        for challenge, path, _game_map in found:
            best = menu.best([menu.challenge_key(challenge.title)])
            stars = 0 if best is None else stars_for(challenge.stars, best)
            detail = f"{best} rounds" if best is not None else ""
            rows.append(Row(challenge.title, detail, stars, path))
        for goal, path, game_map in shipped:
            best = menu.best([menu.challenge_key(game_map.name)])
            stars = 0 if best is None else goal.stars_for(best)
            detail = f"{best} commands" if best is not None else ""
            rows.append(Row(game_map.name, detail, stars, path))
        page = Page(entry.label, rows, enter=enter, about=about)
        page.rebuild = build
        return page

    def about(row: int) -> tuple[str, ...]:
        if row >= len(found):
            goal, _path, game_map = shipped[row - len(found)]
            limits = ", ".join(f"{k} star{'s' if k != 1 else ''} in {v} commands" for k, v
                               in sorted(goal.stars.items(), reverse=True))
            return (goal.brief, f"You play {goal.side} against {goal.opponent}.",
                    f"Win: {limits or 'a star'}; any win, one star.")
        challenge, _path, game_map = found[row]
        limits = ", ".join(f"{k} star{'s' if k != 1 else ''} in {v} rounds" for k, v in
                           sorted(challenge.stars.items(), reverse=True))
        return (f"{game_map.name}: you play {challenge.side} against {challenge.opponent}.",
                f"Win: {limits}.")

    def enter(row: int) -> None:
        from game import registry
        from game.session.settings import seat_spec

        if row >= len(found):
            goal, path, game_map = shipped[row - len(found)]
            sides = registry.load_object(registry.spec(game_map.ruleset).factory).sides
            menu.launch = Launch("match", path, goal.seats(sides), challenge=game_map.name,
                                 counts="actions", seed=goal.seed)
            return
        challenge, path, game_map = found[row]
        sides = registry.load_object(registry.spec(game_map.ruleset).factory).sides
        specs = {s: "human" if s == challenge.side else seat_spec(challenge.opponent)
                 for s in sides}
        menu.launch = Launch("match", path, specs, challenge=challenge.title)

    if not found and not shipped:
        menu.message = "There are no challenges in data/menu.yaml or maps/challenges/."
        return
    menu.open(build())


def editor_page(menu: MenuController, entry: Entry) -> None:
    """A new map, or one of the player's own maps, in the editor."""
    from game.session.saves import data_dir

    folder = data_dir() / "maps"

    def unused() -> Path:
        number = 1
        while (folder / f"map-{number}.png").exists():
            number += 1
        return folder / f"map-{number}.png"

    def build() -> Page:
        own = sorted(folder.glob("*.png")) if folder.is_dir() else []
        fresh = unused()
        rows = [Row("New map", "16x16", preview=None)]
        rows += [Row(p.stem, "", preview=p) for p in own]
        paths = [fresh, *own]

        def enter(row: int) -> None:
            # A new map's name is chosen again now: one saved since the page was built must
            # never be painted over by a blank map of the same name.
            path = unused() if row == 0 else paths[row]
            menu.launch = Launch("edit", path, new_size="16x16" if row == 0 else None)

        page = Page(entry.label, rows, enter=enter,
                    about=lambda i: (f"a new 16x16 map: {fresh}" if i == 0 else str(paths[i]),
                                     "S saves, Q closes the editor"))
        page.rebuild = build
        return page

    menu.open(build())


def settings_page(menu: MenuController, entry: Entry) -> None:
    """Every setting as a row; left/right or Enter change it and the file is written."""
    from game.session.settings import settings_path

    def build() -> Page:
        s = menu.settings
        rows = [Row("Animation", "on" if s.animate else "off"),
                Row("Speed", f"{s.speed:g}x"),
                Row("Sound", "on" if s.sound else "off"),
                Row("Colours", s.palette)]
        rows += [Row(f"Key: {action.replace('_', ' ')}", s.key_for(action))
                 for action in KEY_ACTIONS]
        page = Page(entry.label, rows, change=change,
                    about=lambda i: (f"saved in {settings_path()}",
                                     "Enter on a key: press the new key"
                                     if i >= 4 else "left/right or Enter change it"))
        page.rebuild = build
        return page

    def change(row: int, step: int) -> None:
        s = menu.settings
        if row == 0:
            menu.save(s.with_(animate=not s.animate))
        elif row == 1:
            speeds = list(SPEEDS)
            here = speeds.index(s.speed) if s.speed in speeds else 1
            menu.save(s.with_(speed=speeds[(here + step) % len(speeds)]))
        elif row == 2:
            menu.save(s.with_(sound=not s.sound))
        elif row == 3:
            menu.save(s.with_(palette=PALETTES[(PALETTES.index(s.palette) + step)
                                               % len(PALETTES)]))
        else:
            menu.binding = list(KEY_ACTIONS)[row - 4]
        menu.stack[-1] = (build(), row)

    menu.open(build())


def howto_page(menu: MenuController, entry: Entry) -> None:
    """data/menu.yaml's page of prose: the game and its keys."""
    menu.open(Page(entry.label, [], text=menu.howto))


def quit_page(menu: MenuController, entry: Entry) -> None:
    menu.quit = True


PAGES: dict[str, Callable[[MenuController, Entry], None]] = {
    "new": new_game_page, "continue": continue_page, "levels": levels_page,
    "challenges": challenges_page, "editor": editor_page, "settings": settings_page,
    "howto": howto_page, "quit": quit_page, "host": host_page, "join": join_page,
}


def register_page(kind: str, build: Callable[[MenuController, Entry], None]) -> None:
    """A new kind of page (network play's Host and Join, say): `build(menu, entry)` opens a
    Page with `menu._open`, or sets `menu.launch` or `menu.message`."""
    PAGES[kind] = build


def new_menu(seed: int = 0, settings: Settings | None = None,
             save_path: Path | None = None) -> MenuController:
    """The title menu with every registered page, the player's settings (read from their file
    when not given) and the autosave Continue resumes."""
    from game.session.saves import default_save_path
    from game.session.settings import load_settings

    return MenuController(PAGES, seed, settings if settings is not None else load_settings(),
                          save_path or default_save_path())
