"""Sprague-Grundy values and periods of octal games, and what they cost in memory.

This module stays light (no numpy): the command line checks `--n` and `--max-n` against the
memory available before it imports the solver."""

from __future__ import annotations

import os
from pathlib import Path

# Bytes one value of `grundy --n` costs at its peak: the values, and the list and text of
# --json (the plain output is written a row at a time).
BYTES_PER_VALUE = 24
# Peak bytes per heap of a period proof, at worst: values four bytes wide, plus the two-byte
# copy they were widened from. Values start at one byte a heap and the period search needs no
# memory of its own (rolling hashes), so 0.354's 20.1 M heaps peak at 34 MiB in all.
BYTES_PER_HEAP = 6


def available_memory() -> int:
    """Bytes the machine can still give this process (MemAvailable on Linux, else all RAM)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (OSError, ValueError, AttributeError):
        return 8 << 30
