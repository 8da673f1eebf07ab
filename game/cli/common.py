"""Flags and helpers several subcommands share."""

from __future__ import annotations

import argparse

from game.levels.maps import DEFAULT_MAP


def add_map_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("map", nargs="?", default=str(DEFAULT_MAP),
                        help="map PNG (default: maps/duel.png)")


def add_seats(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--red", default=default, metavar="SEAT",
                        help=f"who plays red: human or an AI such as random (default {default})")
    parser.add_argument("--blue", default=default, metavar="SEAT",
                        help=f"who plays blue (default {default})")
    parser.add_argument("--seed", type=int, default=0, help="seed for every random choice")


def add_window_flags(parser: argparse.ArgumentParser, fps_help: str | None = None) -> None:
    """--size and --quit-after for every command that opens a window; --fps where it animates."""
    if fps_help is not None:
        parser.add_argument("--fps", type=int, default=30, help=fps_help)
    parser.add_argument("--size", default="1024x768", help="window size WxH")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS",
                        help="close the window by itself after this long (demos, smoke tests)")
