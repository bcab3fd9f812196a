"""The luck model a game supplies: a value function of its states, and the alternatives of each
action that reveals cards nobody has seen.

It imports nothing of the core (states are a type parameter), so that `arena.engine` can name it
without an import cycle.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from arena.api import Action
from arena.cards import Card


class Playable(Protocol):
    """What the default expectation needs of a state: to carry out an action (`State` has it)."""

    log: list[Any]

    def apply(self, seat: int, action: Action) -> None:
        """Carry out one seat's action."""

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        """Carry out simultaneous actions."""


S = TypeVar("S", bound=Playable)

Values = tuple[float, ...]
"""One value a seat, in the game's score units."""

Alternatives = Sequence[tuple[float, S]]
"""The states an action could have met, before it is carried out, with their probabilities."""


class LuckModel(ABC, Generic[S]):
    """A game's value function and its chance events, fixed in code (never fitted on the games
    being judged): `value` gives each seat's expected final score from a state; `reveals` gives,
    for an action that turns up cards nobody has seen, the states in which those cards are
    swapped with each of the others nobody has seen, with their probabilities.

    A model made by `Game.luck_model(params, players)` serves one variant and table size.
    `name` and `version` identify the value function in every record (`id`): a changed value
    function is a new version. Models may override `expected` (and `expected_joint`) with an
    exact and faster computation of the same expectation, e.g. grouping alternatives that lead to
    one value; the tests compare it with the default.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    replaces: ClassVar[tuple[str, ...]] = ()
    """The ids of the models this one replaced: a record whose luck came from one of them is an
    old run, whose game a replay reproduces but whose luck it cannot."""

    @property
    def id(self) -> str:
        """The model's id as records carry it: `name/version`."""
        return f"{self.name}/{self.version}"

    @abstractmethod
    def value(self, state: S) -> Values:
        """Each seat's expected final score from `state`, in score units."""

    def reveals(self, state: S, seat: int, action: Action) -> Alternatives[S] | None:
        """When `seat` carrying out `action` in `state` turns up cards nobody has seen: the states
        before the action with those cards swapped for each alternative (the actual state among
        them, probabilities summing to 1), each a copy the caller may change (see `detached`);
        None when the action reveals nothing."""
        return None

    def joint_reveals(self, state: S, actions: Mapping[int, Action]) -> Alternatives[S] | None:
        """`reveals` for simultaneous actions (`State.apply_joint`)."""
        return None

    def deal_expectation(self) -> Values | None:
        """The expectation of `value` over every deal, where play diverges from the deal on and
        the expectation is exact; the deal's luck is then the value after the deal less it. None
        leaves the deal out."""
        return None

    def deal_luck(self, state: S) -> Values | None:
        """The deal's luck, from the state just dealt: by default its value less
        `deal_expectation` (None where that is None). A model may take the deal in stages (the
        hands, then what the deal's rules do at once with them), each stage's value less its
        expectation given the stages before."""
        mean = self.deal_expectation()
        if mean is None:
            return None
        return tuple(v - m for v, m in zip(self.value(state), mean, strict=True))

    def expected(self, state: S, seat: int, action: Action) -> Values | None:
        """The expectation of `value` after `seat` carries out `action`, over the alternatives
        of `reveals` (None when it reveals nothing); `state` is left as it is."""
        alternatives = self.reveals(state, seat, action)
        if alternatives is None:
            return None
        return self._mean(alternatives, lambda s: s.apply(seat, action))

    def expected_joint(self, state: S, actions: Mapping[int, Action]) -> Values | None:
        """`expected` for simultaneous actions."""
        alternatives = self.joint_reveals(state, actions)
        if alternatives is None:
            return None
        return self._mean(alternatives, lambda s: s.apply_joint(actions))

    def _mean(self, alternatives: Alternatives[S], act: Any) -> Values:
        total: list[float] | None = None
        for chance, alternative in alternatives:
            act(alternative)
            values = self.value(alternative)
            if total is None:
                total = [chance * v for v in values]
            else:
                for i, v in enumerate(values):
                    total[i] += chance * v
        if total is None:
            raise ValueError(f"{self.id}: an action revealed cards with no alternatives")
        return tuple(total)


def detached(state: S) -> S:
    """A copy of `state` that plays on independently: its lists, dicts and sets copied at every
    depth (aliases kept), its rngs copied, what cannot change (numbers, strings, cards, enums,
    frozen dataclasses such as events and parameters) shared, anything else deep-copied."""
    memo: dict[int, Any] = {}
    twin = object.__new__(type(state))
    if not hasattr(state, "__dict__"):
        return copy.deepcopy(state)
    for key, value in vars(state).items():
        setattr(twin, key, _copied(value, memo))
    return twin


_SHARED: set[type] = {int, float, str, bytes, bool, type(None), range, frozenset, Card}
"""Types whose values never change, so a copy may share them (grows with frozen dataclasses and
enums met)."""


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _SHARED:
        return value
    known = memo.get(id(value))
    if known is not None:
        return known
    if kind is list:
        memo[id(value)] = out = []
        out.extend(_copied(v, memo) for v in value)
        return out
    if kind is dict:
        memo[id(value)] = out = {}
        out.update((k, _copied(v, memo)) for k, v in value.items())
        return out
    if kind is set:
        memo[id(value)] = out = set(value)
        return out
    if kind is tuple:
        return tuple(_copied(v, memo) for v in value)
    if isinstance(value, random.Random):
        twin = copy.copy(value)
        twin.setstate(value.getstate())
        memo[id(value)] = twin
        return twin
    if isinstance(value, enum.Enum) or (dataclasses.is_dataclass(value)
                                        and type(value).__dataclass_params__.frozen):  # type: ignore[union-attr]
        _SHARED.add(kind)
        return value
    memo[id(value)] = out = copy.deepcopy(value)
    return out


def finite(values: Any, players: int) -> bool:
    """Whether `values` is a tuple of one finite number a seat (what a value function must
    return)."""
    try:
        return type(values) is tuple and len(values) == players and math.isfinite(sum(values))
    except TypeError:  # not numbers
        return False
