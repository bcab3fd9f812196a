"""Cuckoo's luck model: each deal's cards by their own rank and place in the turn order, and the
dealer's draws, its means held to the mean over every card (the draws, and each seat's card
dealt), mean zero, and the luck that explains the scores."""

from __future__ import annotations

import itertools
import random
import statistics
from typing import Any

import pytest

from arena.cards import standard_deck
from arena.engine import find_game
from arena.games.cuckoo import CuckooState, Say
from arena.games.cuckoo.dealing import turn_order
from arena.games.cuckoo.luck import (
    CuckooLuck,
    mean_paying_chance,
    mean_placed_paying_chance,
    paying_chance,
    placed_paying_chance,
)
from arena.games.cuckoo.paying import PAYING
from arena.luck.model import detached
from tests.luck.helpers import (
    assert_mean_zero,
    audited_games,
    bot_luck,
    cross_fitted_variances,
    played,
)

GAME = find_game("cuckoo")
SIX = ["cuckoo-sharp", "cuckoo-simple", "cuckoo-simple", "cuckoo-simple", "cuckoo-simple",
       "random"]


def _a_deal(state: Any, action: Any) -> bool:
    return action == Say.DEAL


@pytest.mark.parametrize("preset", ["standard", "one-chip", "ten-deals"])
def test_every_preset_has_the_place_model(preset: str) -> None:
    model = GAME.luck_model(GAME.presets[preset], 6)
    assert isinstance(model, CuckooLuck) and model.id == "cuckoo-place/1"


def test_the_mean_of_a_draw_is_the_engines_over_every_card_of_the_pack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every dealer's draw: the closed form against the engine's showdown after each card."""
    checked = audited_games(monkeypatch, "cuckoo", "standard", SIX, range(1), _a_deal, False)
    checked += audited_games(monkeypatch, "cuckoo", "one-chip", ["random"] * 8, range(2),
                             _a_deal, False)
    assert checked > 5


@pytest.mark.parametrize("seats", [2, 3])
def test_the_mean_over_deals_is_the_mean_over_every_deal_of_a_small_table(seats: int) -> None:
    """With two or three seats still in, every ordered deal of the pack enumerated."""
    pack = standard_deck()
    totals = [0.0] * seats
    count = 0
    for cards in itertools.permutations(pack, seats):
        for seat, card in enumerate(cards):
            lower = any(int(other.rank) < int(card.rank) for other in cards)
            totals[seat] += lower is False  # holds the lowest rank (ties pay)
        count += 1
    for seat in range(seats):
        assert totals[seat] / count == pytest.approx(mean_paying_chance(seats), abs=1e-12)
    ace, king = paying_chance(1, seats), paying_chance(13, seats)
    assert ace == 1.0 and king == pytest.approx(3 / 51 if seats == 2 else 3 * 2 / (51 * 50))


def test_the_deal_is_valued_by_each_seats_own_rank_and_place() -> None:
    model = CuckooLuck()
    state = GAME.new_state(GAME.presets["standard"], 6, random.Random(4))
    expected = model.expected(state, 0, Say.DEAL)
    state.apply(0, Say.DEAL)
    values = model.value(state)
    assert expected is not None
    for place, seat in enumerate(state.order):
        rank = int(state.hands[seat].rank)
        assert values[seat] == pytest.approx(1 + 3 - PAYING[6, place][rank - 1])
        assert expected[seat] == pytest.approx(1 + 3 - sum(PAYING[6, place]) / 13)


def test_the_table_covers_every_place_at_six_seats_or_fewer_and_falls_back_to_the_rank() -> None:
    assert set(PAYING) == {(n, p) for n in range(2, 7) for p in range(n)}
    assert all(len(row) == 13 and all(0 <= c <= 1 for c in row) for row in PAYING.values())
    assert placed_paying_chance(1, 3, 7) == paying_chance(1, 7)
    assert mean_placed_paying_chance(0, 9) == pytest.approx(mean_paying_chance(9))


@pytest.mark.parametrize("preset, seats, deals", [("standard", 6, 0), ("standard", 6, 4),
                                                  ("one-chip", 8, 3)])
def test_the_mean_over_deals_is_each_seats_mean_over_every_card_of_the_pack(
        preset: str, seats: int, deals: int) -> None:
    """At a deal (the first, or a later one with another dealer and seats out), the model's
    expectation equals, seat by seat, its value after the deal averaged over every card the
    seat could be dealt (the value adds one term a seat, so this is the mean over deals)."""
    state = GAME.new_state(GAME.presets[preset], seats, random.Random(seats + deals))
    while state.deal_no < deals or state.phase.value != "deal":
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[0])
    assert state.order == turn_order(state.dealer, state.active)
    model = CuckooLuck()
    expected = model.expected(state, state.dealer, Say.DEAL)
    dealt = detached(state)
    dealt.apply(state.dealer, Say.DEAL)
    assert expected is not None
    for seat in dealt.order:
        total = 0.0
        for card in standard_deck():
            twin = detached(dealt)
            twin.hands[seat] = card
            total += model.value(twin)[seat]
        assert expected[seat] == pytest.approx(total / 52, abs=1e-12), seat


def test_exchanges_kings_and_standing_are_no_chance() -> None:
    model = CuckooLuck()
    state = GAME.new_state(GAME.presets["standard"], 6, random.Random(4))
    state.apply(0, Say.DEAL)
    for action in (Say.STAND, Say.CHANGE):
        assert model.expected(state, state.to_act()[0], action) is None


def test_a_seat_out_keeps_its_score_and_has_no_luck_after() -> None:
    state = CuckooState(GAME.presets["one-chip"], 6, random.Random(2))  # type: ignore[arg-type]
    model = CuckooLuck()
    while state.phase.value != "deal" or state.deal_no == 0:
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[0])
    out = [s for s in range(6) if state.out_deal[s] is not None]
    assert out
    expected = model.expected(state, state.dealer, Say.DEAL)
    assert expected is not None
    for seat in out:
        assert expected[seat] == model.value(state)[seat] == state.out_deal[seat]


def test_the_value_at_the_end_is_the_score() -> None:
    state = GAME.new_state(GAME.presets["ten-deals"], 7, random.Random(1))
    while state.to_act():
        seat = state.to_act()[0]
        state.apply(seat, state.legal(seat)[-1])
    assert CuckooLuck().value(state) == state.outcome().scores


@pytest.fixture(scope="module")
def six() -> list[Any]:
    """Games of cuckoo-sharp, four cuckoo-simple and random at six seats, every rotation."""
    return list(played("cuckoo", "standard", SIX, range(25)))


def test_the_luck_has_mean_zero_for_bots_that_play_differently(six: list[Any]) -> None:
    for name in ("cuckoo-sharp", "random"):
        assert_mean_zero(bot_luck(six, name), name)
    seat0 = [g.luck[0] for g in six]
    assert_mean_zero(seat0, "seat 0")
    assert statistics.stdev(seat0) > 0.3


def test_the_luck_explains_part_of_the_score(six: list[Any]) -> None:
    raw, adjusted = cross_fitted_variances(six, "cuckoo-sharp")
    assert adjusted < 0.95 * raw, (raw, adjusted)
    scores = [g.scores[g.seats.index("cuckoo-sharp")] for g in six]
    less = [s - lk for s, lk in zip(scores, bot_luck(six, "cuckoo-sharp"), strict=True)]
    assert statistics.variance(less) < 0.95 * statistics.variance(scores)



@pytest.mark.slow
def test_the_luck_has_mean_zero_over_two_hundred_deals() -> None:
    games = list(played("cuckoo", "one-chip", SIX, range(1000, 1200)))
    for name in ("cuckoo-sharp", "random"):
        assert_mean_zero(bot_luck(games, name), name)
    assert_mean_zero([g.luck[0] for g in games], "seat 0")
