"""The spectator page's routes on a real server: the page, its look and sheets, a game's frames,
and one sentence with a 4xx for anything else (no request names a file)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from tests.unit.net.running import Served, get_json, new_game


def status_and_body(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, answer.read(), answer.headers["Content-Type"]
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers["Content-Type"]


def test_the_page_its_look_its_sheets_and_a_games_frames_are_served(tmp_path: Path) -> None:
    server = Served(tmp_path / "data")
    try:
        url = server.url
        game = new_game(url, "outpost", 2)
        page = status_and_body(f"{url}watch/{game['game']}")
        look = get_json(f"{url}api/look")
        sheet = status_and_body(f"{url}sprites/{look['sheets']['units']['file']}")
        frames = get_json(f"{url}api/games/{game['game']}/frames?from=0")
        refused = [status_and_body(f"{url}{path}")[0] for path in (
            f"api/games/{game['game']}/frames?from=-1",
            f"api/games/{game['game']}/frames?from=x",
            "api/games/AAAAAAAAAAAA/frames",
            "sprites/../../pyproject.toml",
            "sprites/index.yaml",
            "static/../routes.py")]
    finally:
        server.stop()
    assert page[0] == 200 and b'src="/static/watch.js"' in page[1]
    assert {"red", "blue"} <= set(look["sides"]) and "bulwark.down.idle" in \
        look["sheets"]["units"]["frames"]
    assert sheet[0] == 200 and sheet[2] == "image/png" and sheet[1][:4] == b"\x89PNG"
    assert frames["game"] == game["game"] and frames["commands"] == 0
    assert [f["n"] for f in frames["frames"]] == [0]
    assert frames["frames"][0]["scene"]["side"] == "red"
    assert json.dumps(frames["frames"][0]["scene"]["size"]) == "[12, 12]"
    assert refused == [400, 400, 404, 404, 404, 404]
