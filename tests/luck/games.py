"""What the luck tests of Animals, Cribbage Square and Frogs in the Pond share: seeded games of a
variant with parameters set, how much of a score difference the luck explains, and the audit
of simultaneous moves' expectations."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Mapping, Sequence

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import GameRecord


def played_with(game: str, variant: str, overrides: Mapping[str, str], specs: Sequence[str],
                seeds: range) -> Iterator[GameRecord]:
    """The records of `seeds` of `variant` with `overrides`, played by bundled bots (`specs`,
    one a seat), the seats turned round by one each deal so that every bot sits everywhere."""
    chosen = find_game(game).variant(variant, overrides)
    bots = [resolve_bot(spec, game) for spec in specs]
    n = len(bots)
    for seed in seeds:
        seated = [bots[(seat + seed) % n] for seat in range(n)]
        yield play_game(chosen, [b.make() for b in seated], [b.name for b in seated], seed)


def difference_ratio(records: Sequence[GameRecord], first: str, second: str) -> float:
    """var(score difference less luck difference) / var(score difference) of two bots, over the
    records (each bot's first seat)."""
    raw, adjusted = [], []
    for record in records:
        assert record.luck is not None
        a, b = record.seats.index(first), record.seats.index(second)
        difference = record.scores[a] - record.scores[b]
        raw.append(difference)
        adjusted.append(difference - (record.luck[a] - record.luck[b]))
    return statistics.variance(adjusted) / statistics.variance(raw)


def assert_reproducible(game: str, specs: Sequence[str], seed: int, model: str) -> None:
    """A game of `specs` dealt from `seed` has one finite luck a seat from `model`, and the
    same luck when played again."""
    first, again = (next(played_with(game, find_game(game).default_preset, {}, specs,
                                     range(seed, seed + 1))) for _ in range(2))
    assert one_finite_value_a_seat(first) and first.luck_model == model
    assert first.luck == again.luck


def one_finite_value_a_seat(record: GameRecord) -> bool:
    """Whether the record has one finite luck a seat."""
    return (record.luck is not None and len(record.luck) == len(record.seats)
            and all(math.isfinite(v) for v in record.luck))


def assert_no_model(game: str, specs: Sequence[str]) -> None:
    """`game` has no luck model for any preset or table size, and its records carry no luck."""
    found = find_game(game)
    for preset, params in found.presets.items():
        for players in params.players_allowed():
            assert found.luck_model(params, players) is None, (preset, players)
    record = next(played_with(game, found.default_preset, {}, specs, range(1)))
    assert record.luck is None and record.luck_model is None
