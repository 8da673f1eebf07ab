"""Sprague-Grundy values and periods of octal games, and what they cost in memory.

This module stays light (no numpy): the command line checks `--n` and `--max-n` against the
memory available before it imports the solver."""

from __future__ import annotations

import os
from pathlib import Path

# Bytes one value of `grundy --n` costs at its peak: the int32 array (doubled while it grows),
# the Python list printed from it, and its text.
BYTES_PER_VALUE = 24
# Peak bytes per heap of a period proof: the int32 values (twice while the array doubles), and
# the Z-function pass of find_period: a reversed int32 copy and four int64 arrays per heap
# (measured on 0.354).
BYTES_PER_HEAP = 48


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
