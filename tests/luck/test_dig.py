"""Dig's luck model: the digs (and seat 0's dig at the deal) valued by the expected final margin
of the counts (cards and eights in hand, the stock), its exact mean held to the engine's own digs
over every depth and to every place of the eights at the deal, mean zero, and the luck that
explains the scores."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import pytest

from arena.engine import find_game
from arena.games.dig import DigParams, DigState, stack_deck
from arena.games.dig.luck import DigLuck
from arena.games.dig.margin import MARGIN, STOCK, Margin
from arena.match import play_game
from bots.algorithms.random_bot import RandomBot
from tests.luck.helpers import (
    assert_mean_zero,
    audit,
    audited_games,
    bot_luck,
    cross_fitted_variances,
    played,
)

GAME = find_game("dig")


@pytest.mark.parametrize("preset", ["standard", "suit-only", "reshuffle"])
def test_every_preset_has_the_margin_model(preset: str) -> None:
    model = GAME.luck_model(GAME.presets[preset], 2)
    assert isinstance(model, DigLuck) and model.id == "dig-margin/1"


@pytest.mark.parametrize("preset", ["standard", "suit-only", "reshuffle"])
def test_the_mean_of_a_dig_is_the_engines_over_every_depth_and_last_card(
        preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At every action that makes the next seat dig, the closed form equals the mean over one
    order of the stock per depth and kind of card that stops the dig, played by the engine
    (reshuffles and passes included). Four deals in both seatings: each check is exact and
    over every depth; 43 to 95 of them a preset."""
    assert audited_games(monkeypatch, "dig", preset, ["dig-sharp", "random"], range(4)) > 30


def test_a_reshuffle_and_a_stock_with_nothing_to_play_are_valued_by_the_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Random players in `reshuffle` dig the stock out and on into the shuffled pile."""
    made = audit(monkeypatch, GAME)
    variant = GAME.variant("reshuffle")
    reshuffled = 0
    for seed in range(12):
        record = play_game(variant, [RandomBot(), RandomBot()], ["a", "b"], seed)
        reshuffled += record.final["reshuffles"]
    assert reshuffled > 3 and sum(m.checked for m in made) > 100


def test_the_deal_counts_the_eights_and_seat_0s_first_dig() -> None:
    """Seat 0 holds no heart, king or eight under the king of hearts: it digs at once. The
    deal's luck is the eights (seat 1 holds one) against their mean over deals, and that dig
    against its mean over the depths and the kinds of card that stop it."""
    deck = stack_deck(("2C 3C 4C 5C 6C 7C 9D", "2H 3H 4H 5H 6H 7H 8C"), "KH",
                      ["9C", "10C", "AH"])
    params = DigParams()
    state = DigState(params, 2, random.Random(0), deck)
    assert [len(h) for h in state.hands] == [10, 7]  # 9C and 10C, then AH stops the dig
    model = DigLuck(params)
    # the stock's 37 cards: 6 hearts (8H among them), 3 kings, 8D and 8S can be played
    playable, eights, dead = 6 + 3 + 2, 3, 37 - 11
    mean = 0.0
    for j in range(dead + 1):  # j cards that cannot be played, then one that can
        chance = math.prod((dead - i) / (37 - i) for i in range(j)) * playable / (37 - j)
        for wild, share in ((1, eights / playable), (0, 1 - eights / playable)):
            mean += chance * share * MARGIN(7 + j + 1, 7, wild, 1, 37 - j - 1)
    dealt = MARGIN(7, 7, 0, 1, STOCK) - model.mean_hands()
    after = MARGIN(10, 7, 0, 1, 34)
    luck = model.deal_luck(state)
    assert luck == pytest.approx((dealt + after - mean, -(dealt + after - mean)))


def test_the_hands_eights_are_the_deals_luck_when_seat_0_can_play() -> None:
    deck = stack_deck(("8C 8D 2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H 7H 9H"), "KC")
    params = DigParams()
    state = DigState(params, 2, random.Random(0), deck)
    model = DigLuck(params)
    lead = MARGIN(7, 7, 2, 0, STOCK) - model.mean_hands()
    assert model.deal_luck(state) == pytest.approx((lead, -lead))


@functools.cache
def _eights_in_hands() -> Counter[tuple[int, int]]:
    """How many of the sets of four places of the 52 put so many eights in seat 0's hand (the
    first seven) and seat 1's (the next seven): counted once for both margins."""
    hands: Counter[tuple[int, int]] = Counter()
    for places in itertools.combinations(range(52), 4):
        hands[sum(p < 7 for p in places), sum(7 <= p < 14 for p in places)] += 1
    return hands


@pytest.mark.parametrize("margin", [MARGIN, Margin((0.5, 1, 3, 0, 0, 2, -1, 0, 0, 4, -6))])
def test_the_hands_mean_is_the_mean_over_every_place_of_the_four_eights(
        margin: Margin, monkeypatch: pytest.MonkeyPatch) -> None:
    """The four eights in every set of four of the 52 places (seat 0's hand the first seven,
    seat 1's the next seven): the mean of seat 0's margin as dealt."""
    model = DigLuck(DigParams())
    monkeypatch.setattr(model, "margin", margin)
    hands = _eights_in_hands()
    total = sum(n * margin(7, 7, mine, theirs, STOCK) for (mine, theirs), n in hands.items())
    assert model.mean_hands() == pytest.approx(total / hands.total(), abs=1e-12)


def test_the_value_at_the_end_is_the_score() -> None:
    record_state = GAME.new_state(GAME.presets["standard"], 2, random.Random(3))
    model = DigLuck(GAME.presets["standard"])  # type: ignore[arg-type]
    while record_state.to_act():
        seat = record_state.to_act()[0]
        record_state.apply(seat, record_state.legal(seat)[0])
    assert model.value(record_state) == record_state.outcome().scores


@pytest.fixture(scope="module")
def issue_pairs() -> dict[str, list]:
    """200 games (100 deals, both seatings) of each pair of the issue (dig-sharp against
    dig-simple, and against dig-sharp with another pressure), and of random against
    dig-sharp."""
    return {
        "simple": list(played("dig", "standard", ["dig-sharp", "dig-simple"], range(100))),
        "pressure": list(played("dig", "standard", ["dig-sharp", "dig-sharp:pressure=1"],
                                range(100))),
        "random": list(played("dig", "suit-only", ["random", "dig-sharp"], range(100))),
    }


@pytest.mark.parametrize("pair", ["simple", "pressure", "random"])
def test_the_luck_has_mean_zero_for_bots_that_play_differently(issue_pairs: dict[str, list],
                                                               pair: str) -> None:
    games = issue_pairs[pair]
    for name in games[0].seats:
        assert_mean_zero(bot_luck(games, name), f"{name} in {pair}")
    assert_mean_zero([g.luck[0] for g in games], f"seat 0 in {pair}")


@pytest.mark.parametrize("pair", ["simple", "pressure"])
def test_the_luck_explains_part_of_the_score(issue_pairs: dict[str, list], pair: str) -> None:
    """Raw, and with the coefficient fitted on the other half of the deals."""
    games = issue_pairs[pair]
    name = games[0].seats[0]
    raw, adjusted = cross_fitted_variances(games, name)
    assert adjusted < 0.75 * raw, (raw, adjusted)
    scores = [g.scores[g.seats.index(name)] for g in games]
    less = [s - lk for s, lk in zip(scores, bot_luck(games, name), strict=True)]
    assert _variance(less) < 0.85 * _variance(scores)


def _variance(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "reshuffle"])
def test_the_luck_has_mean_zero_over_a_thousand_deals(preset: str) -> None:
    games = list(played("dig", preset, ["dig-sharp", "random"], range(1000, 2000)))
    assert_mean_zero(bot_luck(games, "dig-sharp"), "dig-sharp")
    assert_mean_zero([g.luck[0] for g in games], "seat 0")
