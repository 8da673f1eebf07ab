"""Errors a user can cause: the CLI prints them as one sentence and exits 2."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from a user (file, flag, map, save): one readable sentence, no traceback."""
