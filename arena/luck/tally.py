"""Each seat's luck over one game, added up by the match loop as the game is played.

At every action that reveals cards nobody has seen, each seat's luck grows by the value after
what came less its expectation over what could have come (`LuckModel.expected`); where the model
has one, the deal's luck starts it. This runs in the arena's own process, never in a bot's. A
value function that raises or gives a number that is not finite leaves the game without luck (its
record is judged raw) and one line in the log naming the game and the deal; it never takes the
game down.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from arena.api import Action
from arena.engine import State, Variant
from arena.luck.model import LuckModel, Values, finite
from arena.text import escape

luck_log = logging.getLogger("arena.luck")
"""Where a value function's failure is told, one line per game (a run's log.txt, through the
`arena` logger)."""

DIGITS = 9
"""Luck is recorded rounded to this many decimals (1e-9 of a score unit)."""


class LuckTally:
    """One game's luck, seat by seat: `dealt` once, then `before` and `after` round every action
    (or `before_joint` and `after`), then `result`."""

    def __init__(self, model: LuckModel[Any], players: int, where: str) -> None:
        self.model = model
        self.players = players
        self.where = where  # the game and the deal, for the note of a failure
        self.luck = [0.0] * players
        self.failed = False
        self._expected: Values | None = None

    @classmethod
    def of(cls, variant: Variant, players: int, seed: int) -> LuckTally | None:
        """The tally of a game of `variant` dealt from `seed`; None when the game has no model
        (or asking for one fails, which is told)."""
        where = f"{variant.game.name} / {variant.label}, deal {seed}"
        try:
            model = variant.game.luck_model(variant.params, players)
        except Exception as exc:
            _tell(where, "its luck model could not be made", exc)
            return None
        return None if model is None else cls(model, players, where)

    def dealt(self, state: State) -> None:
        """The deal's luck: the value after the deal less its expectation over deals."""
        self._guard(self._dealt, state)

    def _dealt(self, state: State) -> None:
        luck = self.model.deal_luck(state)
        if luck is not None:
            self._add(self._checked(luck), (0.0,) * self.players)

    def before(self, state: State, seat: int, action: Action) -> None:
        """Before `seat` carries out `action`: what it may reveal is expected to be worth."""
        if not self.failed:
            self._guard(self._expect, self.model.expected, state, seat, action)

    def before_joint(self, state: State, actions: Mapping[int, Action]) -> None:
        """`before` for simultaneous actions."""
        if not self.failed:
            self._guard(self._expect, self.model.expected_joint, state, actions)

    def _expect(self, expectation: Any, *args: Any) -> None:
        expected = expectation(*args)
        self._expected = None if expected is None else self._checked(expected)

    def after(self, state: State) -> None:
        """After the action: what it revealed was worth, less its expectation."""
        expected = self._expected
        if expected is None:
            return
        self._expected = None
        try:
            self._add(self._checked(self.model.value(state)), expected)
        except Exception as exc:
            self._fail(exc)

    def result(self) -> tuple[tuple[float, ...], str] | None:
        """Each seat's luck (rounded, see DIGITS) and the model's id; None after a failure."""
        if self.failed:
            return None
        if not finite(tuple(self.luck), self.players):
            self._fail(ValueError("the luck added up to a number that is not finite"))
            return None
        return tuple(round(v, DIGITS) + 0.0 for v in self.luck), self.model.id

    def _add(self, after: Values, before: Values) -> None:
        luck = self.luck
        for seat in range(self.players):
            luck[seat] += after[seat] - before[seat]

    def _checked(self, values: Any) -> Values:
        if not finite(values, self.players):
            raise ValueError(f"value {_short(values)} is not one finite number a seat")
        return values  # type: ignore[no-any-return]

    def _guard(self, step: Any, *args: Any) -> None:
        try:
            step(*args)
        except Exception as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        self.failed = True
        self._expected = None
        _tell(self.where, f"value function {self.model.id} failed", exc)


def _tell(where: str, what: str, exc: Exception) -> None:
    text = str(exc).split("\n")[0]
    luck_log.warning("%s", escape(f"no luck for {where}: {what} ({type(exc).__name__}: "
                                  f"{text}); its record is judged on the raw scores"))


def _short(values: Any) -> str:
    text = repr(values)
    return text if len(text) <= 80 else text[:77] + "..."
