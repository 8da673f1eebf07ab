"""Octal game codes: parse "0.137", ".6" or "nim" into the moves they allow."""

from __future__ import annotations

import re
from typing import NamedTuple

from game.errors import UserError

_CODE = re.compile(r"^0?\.([0-7]+)$")


class OctalGame(NamedTuple):
    """An octal game: digit k (1-based) says which ways a move may take k tokens from a heap.

    Bit 1 of a digit: take the whole heap of exactly k; bit 2: leave one non-empty heap;
    bit 4: leave two non-empty heaps. `nim` (take any number) has no finite code.
    """

    code: str
    digits: tuple[int, ...] = ()
    nim: bool = False

    def removals(self, bit: int) -> tuple[int, ...]:
        """The k whose digit has `bit` set (1: leave nothing, 2: one heap, 4: two heaps)."""
        return tuple(k for k, d in enumerate(self.digits, start=1) if d & bit)

    def in_words(self) -> list[str]:
        """What the code lets a move do, one line per count a move may take (for players)."""
        if self.nim:
            return ["take any number of blocks from the end of one heap"]
        lines = []
        for k, digit in enumerate(self.digits, start=1):
            ways = [way for bit, way in ((1, f"a heap of exactly {k}"),
                                         (2, "from an end of a bigger heap"),
                                         (4, "from the middle (splits it)"))
                    if digit & bit]
            if ways:
                lines.append(f"take {k}: " + ", or ".join(ways))
        return lines

    @property
    def max_take(self) -> int:
        """t in the Guy-Smith criterion: the most tokens one move may remove."""
        return max((k for k, d in enumerate(self.digits, start=1) if d), default=0)


def parse_code(text: str) -> OctalGame:
    """Read an octal code as a user typed it; a code that is not 0.d1d2... or `nim` is a UserError."""
    cleaned = text.strip().lower()
    if cleaned == "nim":
        return OctalGame(code="nim", nim=True)
    match = _CODE.match(cleaned)
    if not match:
        raise UserError(
            f"{text!r} is not an octal game code; expected 0.d1d2... with octal digits 0-7 "
            "(for example 0.137) or 'nim'."
        )
    digits = match.group(1).rstrip("0")
    # Trailing zeros allow no move, so 0.60 and 0.6 are the same game with the same t.
    shown = "0." + (digits or "0")
    return OctalGame(code=shown, digits=tuple(int(c) for c in digits))
