"""PettingZoo's standard wrappers, with the state a loop reads every step read straight from
the bare environment, and the calls a loop makes every step passed straight to the layer that
acts on them.

A wrapper finds `agent_selection`, `terminations`, `infos` and the like through its
`__getattr__`, which Python calls only after a failed look-up, and which tests the name
(a `startswith`, and a set for OrderEnforcingWrapper) before asking the next layer: two
wrappers make every read a chain of two failed look-ups, a dozen reads a step, about a tenth of
a random loop's time on duel (docs/ecosystem.md, "Speed"). These subclasses answer the same
reads from properties that go to `unwrapped` at once, where the chain would have ended (no
wrapper keeps its own copy of them: TerminateIllegalWrapper writes them on `unwrapped` too).
Likewise `observe`, `last`, `step` and `agent_iter`'s turns skip the layers that only pass a
call on (BaseWrapper's own `observe` and `step`). Every check and message of their bases
stays: OrderEnforcingWrapper's "cannot be accessed before reset", its order assertion and its
warning after the end, AssertOutOfBoundsWrapper's assertion. They are still PettingZoo's
classes (isinstance holds); `str` reads as theirs does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.base import BaseWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

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


def _acting(env: AECEnv, name: str) -> Callable[..., Any]:
    """`env`'s method `name`, from the first layer down whose own it is (a layer whose method
    is BaseWrapper's only calls the next one's)."""
    while isinstance(env, BaseWrapper) and getattr(type(env), name) is getattr(BaseWrapper, name):
        env = env.env
    method: Callable[..., Any] = getattr(env, name)
    return method


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
        self._step = _acting(env, "step")

    def step(self, action: Any) -> None:
        # AssertOutOfBoundsWrapper.step, its reads made on the bare environment
        bare = self._bare
        agent = bare.agent_selection
        assert (action is None and (bare.terminations[agent] or bare.truncations[agent])) \
            or bare.action_space(agent).contains(action), "action is not in action space"
        self._step(action)


class TerminateIllegal(_Direct, wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._bare = env.unwrapped


class _Turns(AECOrderEnforcingIterator):
    """AECOrderEnforcingIterator's turns, read on the bare environment."""

    env: OrderEnforcing

    def __next__(self) -> str:
        env = self.env
        bare = env._bare
        if not bare.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        agent: str = bare.agent_selection
        return agent


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _Turns:
        return _Turns(self.env, self.max_iter)


class OrderEnforcing(_Direct, wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._bare = env.unwrapped
        self._observe = _acting(env, "observe")

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper's own class says it

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return super().observe(agent)  # its error
        return self._observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # its error
        bare = self._bare
        agent = bare.agent_selection
        assert agent is not None
        return (self._observe(agent) if observe else None, bare._cumulative_rewards[agent],
                bare.terminations[agent], bare.truncations[agent], bare.infos[agent])

    def step(self, action: Any) -> None:
        if self._has_reset and self._bare.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # its error, or its warning after the end

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # its error
        return _Iterable(self, max_iter)


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
