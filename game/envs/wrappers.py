"""PettingZoo's standard wrappers, with the state a loop reads every step read straight from
the bare environment.

A wrapper finds `agent_selection`, `terminations`, `infos` and the like through its
`__getattr__`, which Python calls only after a failed look-up, and which tests the name
(a `startswith`, and a set for OrderEnforcingWrapper) before asking the next layer: two
wrappers make every read a chain of two failed look-ups, a dozen reads a step, about a tenth of
a random loop's time on duel (docs/ecosystem.md, "Speed"). These subclasses answer the same
reads from properties that go to `unwrapped` at once, where the chain would have ended (no
wrapper keeps its own copy of them: TerminateIllegalWrapper writes them on `unwrapped` too),
and keep every check and message of their bases: OrderEnforcingWrapper's "cannot be accessed
before reset" included. They are still PettingZoo's classes (isinstance holds); `str` reads as
theirs does.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

# what OrderEnforcingWrapper refuses to read before a reset (its __getattr__'s set)
_BEFORE_RESET = ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents")
_READS = (*_BEFORE_RESET, "_cumulative_rewards")


def _read(name: str, checked: bool) -> property:
    """A property reading `name` on the bare environment; `checked`: refused before a reset,
    as OrderEnforcingWrapper refuses it (an AttributeError, which then goes to its
    __getattr__, which says the same)."""
    if checked:
        def get(self: Any) -> Any:
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self._bare, name)
    else:
        def get(self: Any) -> Any:
            return getattr(self._bare, name)
    return property(get, doc=f"`{name}` of the bare environment.")


class _Direct:
    """The reads, for a wrapper whose `env` chain ends in `_bare`."""

    _bare: AECEnv

    def action_space(self, agent: str) -> Any:
        return self._bare.action_space(agent)  # no wrapper of ours changes a space


for _name in _READS:
    setattr(_Direct, _name, _read(_name, checked=False))


class AssertOutOfBounds(_Direct, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._bare = env.unwrapped


class TerminateIllegal(_Direct, wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._bare = env.unwrapped


class OrderEnforcing(_Direct, wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._bare = env.unwrapped

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper's own class says it


for _name in _BEFORE_RESET:
    setattr(OrderEnforcing, _name, _read(_name, checked=True))


def wrap(bare: AECEnv, end_on_illegal: bool) -> AECEnv:
    """`bare` in PettingZoo's standard wrappers: OrderEnforcing(AssertOutOfBounds(
    [TerminateIllegal(]bare[, illegal_reward=-1)]))."""
    made: AECEnv = bare
    if end_on_illegal:
        made = TerminateIllegal(made, illegal_reward=-1)
    made = AssertOutOfBounds(made)
    return OrderEnforcing(made)
