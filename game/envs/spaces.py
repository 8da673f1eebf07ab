"""The action space of every environment: Gymnasium's Discrete, with a masked `sample` that
costs a few microseconds instead of twenty, and a `contains` that answers an int at once.

Gymnasium's `Discrete.sample(mask)` makes six passes over the mask (two comparisons, a
logical or, all, any, and `np.where` on the comparison) before it draws; on duel's 6,913
actions that is about 20 us, the largest cost of a random PettingZoo loop after the game
itself. `MaskedDiscrete` checks the same things in one pass and draws the same action from
the same random state (`np_random.choice(legal)` is `legal[np_random.integers(len(legal))]`);
any mask it does not expect goes to Gymnasium's own method, with its own messages.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces


class MaskedDiscrete(spaces.Discrete):
    """A Discrete space whose masked sample is one pass over an int8 mask of 0s and 1s."""

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if mask is None or probability is not None or type(mask) is not np.ndarray \
                or mask.dtype != np.int8 or mask.shape != (self.n,):
            return super().sample(mask, probability)  # its checks and messages
        # every value 0 or 1: the largest, found by argmax (n >= 1), is at most 1; argmax is
        # one C call, where np.maximum.reduce goes through the ufunc machinery (5,000 against
        # 8,000 instructions on duel's 6,913 actions)
        bytes_ = mask.view(np.uint8)
        if bytes_.item(bytes_.argmax()) > 1:  # (item: a Python int, no NumPy scalar to compare)
            return super().sample(mask, probability)
        legal = mask.view(np.bool_).nonzero()[0]  # nonzero is far faster on bools
        count = len(legal)
        if not count:
            return self.start
        # integers(0, k) draws what integers(k) draws, with less argument parsing; a Python
        # int added to `start` gives start's own type, as Gymnasium's dtype.type(pick) does
        return self.start + legal.item(self.np_random.integers(0, count))

    def contains(self, x: Any) -> bool:
        # the plain int or NumPy int64 a sampler hands back, without NumPy's dtype questions
        # (PettingZoo's AssertOutOfBoundsWrapper asks this on every step); the rest as before
        if type(x) is int or type(x) is np.int64:
            return bool(self.start <= x < self.start + self.n)
        return super().contains(x)
