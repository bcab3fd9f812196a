"""What the luck tests share: seeded games of bundled bots with their luck, the mean-zero check,
and a model audited against its own reference (its fast `expected` against `reveals`)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from arena.api import Action
from arena.engine import Game, Params, find_game
from arena.loader import resolve_bot
from arena.luck.model import Alternatives, LuckModel, Values
from arena.match import play_game
from arena.record import GameRecord

MEAN_ZERO_Z = 3.5
"""How many standard errors from 0 a mean luck may lie (the seeds are fixed: a test passes or
fails for good; 3.5 standard errors is a chance of 1 in 2000 for a model of mean zero)."""


def played(game: str, variant: str, specs: Sequence[str], seeds: range,
           rotate: bool = True) -> Iterator[GameRecord]:
    """The records of `seeds` played by bundled bots (`specs`, one a seat), with every rotation
    of the seats when `rotate`."""
    chosen = find_game(game).variant(variant)
    bots = [resolve_bot(spec, game) for spec in specs]
    n = len(bots)
    for seed in seeds:
        for shift in range(n if rotate else 1):
            seated = [bots[(seat + shift) % n] for seat in range(n)]
            yield play_game(chosen, [b.make() for b in seated], [b.name for b in seated], seed)


def seat_luck(records: Sequence[GameRecord], spec_of: Any = None) -> list[list[float]]:
    """Each seat's luck over the records, seat by seat."""
    seats = len(records[0].seats)
    out: list[list[float]] = [[] for _ in range(seats)]
    for record in records:
        assert record.luck is not None, f"no luck in {record.game} deal {record.seed}"
        for seat, value in enumerate(record.luck):
            out[seat].append(value)
    return out


def bot_luck(records: Sequence[GameRecord], name: str) -> list[float]:
    """The luck of the seats `name` held, game by game (its first such seat)."""
    return [r.luck[r.seats.index(name)] for r in records if r.luck is not None]


def assert_mean_zero(values: Sequence[float], what: str) -> None:
    """The mean of `values` lies within MEAN_ZERO_Z standard errors of 0."""
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / math.sqrt(len(values))
    assert abs(mean) <= MEAN_ZERO_Z * error, (
        f"{what}: mean luck {mean:+.4f}, standard error {error:.4f} over {len(values)} games")


def assert_each_mean_zero(records: Sequence[GameRecord], specs: Sequence[str]) -> None:
    """Each of the bots' luck over the records has mean zero (`assert_mean_zero`)."""
    for spec in dict.fromkeys(specs):
        assert_mean_zero(bot_luck(records, spec), spec)


def score_variance_drops(records: Sequence[GameRecord], name: str) -> tuple[float, float]:
    """The variance of `name`'s score, and of its score less its luck, over the records."""
    scores = [r.scores[r.seats.index(name)] for r in records]
    adjusted = [s - r.luck[r.seats.index(name)] for s, r in zip(scores, records, strict=True)
                if r.luck is not None]
    return statistics.variance(scores), statistics.variance(adjusted)


class Audited(LuckModel[Any]):
    """A model whose every `expected` (and `expected_joint`, for simultaneous moves) is checked
    against the default over its `reveals` (`joint_reveals`)."""

    def __init__(self, model: LuckModel[Any], unlisted: Any = None) -> None:
        self.model = model
        self.name, self.version = model.name, model.version  # type: ignore[misc]
        self.unlisted = unlisted  # (state, action) -> whether its alternatives are too many
        self.checked = 0

    def value(self, state: Any) -> Values:
        """The model's value."""
        return self.model.value(state)

    def reveals(self, state: Any, seat: int, action: Action) -> Alternatives[Any] | None:
        """The model's alternatives."""
        return self.model.reveals(state, seat, action)

    def deal_expectation(self) -> Values | None:
        """The model's expectation over deals."""
        return self.model.deal_expectation()

    def expected(self, state: Any, seat: int, action: Action) -> Values | None:
        """The model's expectation, checked against the mean over every alternative."""
        fast = self.model.expected(state, seat, action)
        if self.unlisted is not None and self.unlisted(state, action):
            return fast
        return self._checked(fast, LuckModel.expected(self, state, seat, action))

    def joint_reveals(self, state: Any, actions: Mapping[int, Action]
                      ) -> Alternatives[Any] | None:
        """The model's alternatives to simultaneous moves."""
        return self.model.joint_reveals(state, actions)

    def expected_joint(self, state: Any, actions: Mapping[int, Action]) -> Values | None:
        """The model's expectation, checked against the mean over every alternative."""
        fast = self.model.expected_joint(state, actions)
        return self._checked(fast, LuckModel.expected_joint(self, state, actions))

    def _checked(self, fast: Values | None, slow: Values | None) -> Values | None:
        assert (fast is None) == (slow is None), (fast, slow)
        if fast is not None and slow is not None:
            assert fast == pytest.approx(slow, abs=1e-9), (fast, slow)
            self.checked += 1
        return fast


def audit(monkeypatch: pytest.MonkeyPatch, game: Game, unlisted: Any = None) -> list[Audited]:
    """Wrap every model `game` hands out in `Audited` (for the test's duration); the list holds
    the models handed out. `unlisted(state, action)` names the chance events whose alternatives
    the model does not list (checked otherwise)."""
    made: list[Audited] = []
    original = type(game).luck_model

    def audited(self: Game, params: Params, players: int) -> LuckModel[Any] | None:
        model = original(self, params, players)
        if model is None:
            return None
        made.append(Audited(model, unlisted))
        return made[-1]

    monkeypatch.setattr(type(game), "luck_model", audited)
    return made


def plain(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """A record's JSON as a plain dict."""
    return dict(mapping)


def cross_fitted_variances(records: Sequence[GameRecord], name: str) -> tuple[float, float]:
    """The variance of `name`'s score, and of its score less `c` times its luck, `c` the
    regression coefficient of score on luck fitted on the other half of the deals (even seeds
    for odd ones and back), so that nothing is fitted on the scores it adjusts."""
    halves: dict[int, list[tuple[float, float]]] = {0: [], 1: []}
    for r in records:
        seat = r.seats.index(name)
        assert r.luck is not None
        halves[r.seed % 2].append((r.scores[seat], r.luck[seat]))
    coefficient = {}
    for half, pairs in halves.items():
        scores, luck = zip(*pairs, strict=True)
        coefficient[1 - half] = statistics.covariance(scores, luck) / statistics.variance(luck)
    scores = [s for half in halves.values() for s, _ in half]
    adjusted = [s - coefficient[h] * lk for h, half in halves.items() for s, lk in half]
    return statistics.variance(scores), statistics.variance(adjusted)


def audited_games(monkeypatch: pytest.MonkeyPatch, game: str, variant: str, specs: Sequence[str],
                  seeds: range, unlisted: Any = None, rotate: bool = True) -> int:
    """Play `seeds` with every expectation of the game's model checked against its `reveals`
    (see `audit`); every game must keep its luck. The number of expectations checked."""
    made = audit(monkeypatch, find_game(game), unlisted)
    records = list(played(game, variant, specs, seeds, rotate))
    assert all(r.luck is not None for r in records), "a check failed: see the arena.luck log"
    return sum(m.checked for m in made)
