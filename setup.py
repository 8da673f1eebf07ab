"""Packaging that pyproject.toml cannot declare: data/ and maps/ ship inside the package.

The two folders stay at the top of the repository, where designers and the docs find them;
package_dir maps each folder (and every folder below it) to a package under game.assets, so a
wheel installs them as game/assets/data and game/assets/maps and the game reads them with
importlib.resources (game/__init__.py). Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os

from setuptools import find_packages, setup

ASSET_FOLDERS = ("data", "maps")
# Only these kinds of files ship, so nothing a tool drops into the folders follows them.
ASSET_FILES = ["*.yaml", "*.png", "*.keke", "*.txt", "*.json", "*.wav"]


def asset_packages() -> dict[str, str]:
    """Package name -> folder (game.assets.maps.descent -> maps/descent) for every asset folder.

    Each subfolder is a package of its own because setuptools only installs data files that
    belong to a listed package.
    """
    found = {}
    for top in ASSET_FOLDERS:
        for folder, subfolders, _files in os.walk(top):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "__")))
            found["game.assets." + folder.replace(os.sep, ".")] = folder
    return found


ASSETS = asset_packages()

setup(
    packages=find_packages(include=["game*", "systems*", "components*"]) + sorted(ASSETS),
    package_dir=ASSETS,
    # kernels.c is compiled on the user's machine at first use (game/grundy/native.py); the
    # spectator page is static HTML, CSS and JavaScript the server sends as they are (no build).
    package_data={**{package: ASSET_FILES for package in ASSETS}, "game.grundy": ["kernels.c"],
                  "game.net": ["web/*.html", "web/static/*.js", "web/static/*.css"]},
)
