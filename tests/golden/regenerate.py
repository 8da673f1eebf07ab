"""Rewrite every golden playthrough in tests/golden/; then read the diff before committing it.

    python -m tests.golden.regenerate
"""

from __future__ import annotations

from tests.golden.playthrough import regenerate

if __name__ == "__main__":
    for path in regenerate():
        print(f"wrote {path}")
