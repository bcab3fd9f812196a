"""The Cribbage Square bots: line values against exact counts, choices in stacked positions,
who beats whom on the same deals, and faultless play in every preset."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb, prod

import pytest

from arena.api import Action, GameInfo, Observation
from arena.cards import Card, parse_card, standard_deck
from arena.engine import find_game
from arena.games.cribbage_square import PRESETS, SquareState, stack_pack
from arena.games.cribbage_square.scoring import RANK_POINTS
from arena.match import bot_rng, play_game
from bots.random_bot import RandomBot
from bots.square_bots import (
    EMPTY,
    LineValues,
    SquareGreedyBot,
    SquareSearchBot,
    add,
    static_ranks,
)

GAME = find_game("cribbage-square")


def cards(text: str) -> list[Card]:
    """Cards from their short forms."""
    return [parse_card(t) for t in text.split()]


def test_an_empty_line_is_worth_the_average_rank_points_of_five_random_cards() -> None:
    exact = sum(RANK_POINTS[five] * prod(comb(4, n) for n in Counter(five).values())
                for five in itertools.combinations_with_replacement(range(1, 14), 5))
    assert static_ranks(()) == pytest.approx(exact / comb(52, 5))
    assert 4.0 < static_ranks(()) < 5.0


def test_a_line_waiting_for_a_five_is_worth_less_once_the_fives_are_gone() -> None:
    key = EMPTY
    for card in cards("5H 5D 10C"):
        key = add(key, card)
    pack = standard_deck()
    rest = [c for c in pack if c not in cards("5H 5D 10C")]
    without_fives = [c for c in rest if c.rank != 5]
    assert LineValues(rest).value(key) > LineValues(without_fives).value(key) + 0.4


def test_a_line_of_one_suit_keeps_its_flush_chance() -> None:
    rest = [c for c in standard_deck() if c not in cards("2H 7H 9H 4D 8C")]
    values = LineValues(rest)
    hearts = add(add(add(EMPTY, parse_card("2H")), parse_card("7H")), parse_card("9H"))
    mixed = add(add(add(EMPTY, parse_card("2H")), parse_card("7H")), parse_card("9D"))
    assert values.value(hearts) - values.value(mixed) == pytest.approx(
        10 / 47 * (4 + 9 / 46), rel=1e-9)  # one of the ten hearts left, then the starter


def decide(bot: SquareGreedyBot | SquareSearchBot, state: SquareState) -> Action:
    """What the bot lays, seat 0 having seen the game so far."""
    bot.start(GameInfo(GAME.name, "standard", {}, 0, 1, bot_rng(0, 0)))
    obs = Observation(0, state.legal(0), state.seen_by(0, 0, len(state.log)), state.view(0))
    return bot.act(obs)


def stacked(first: str, places: list[tuple[int, int]]) -> SquareState:
    """A game on a pack starting with `first`, the cards after the first laid at `places`."""
    state = SquareState(PRESETS["standard"], 1, random.Random(0), deck=stack_pack(first))
    for place in places:
        state.apply(0, place)
    return state


@pytest.mark.parametrize("bot", [SquareGreedyBot(), SquareSearchBot()], ids=type)
def test_the_fourth_five_joins_its_row(bot: SquareGreedyBot | SquareSearchBot) -> None:
    state = stacked("5H 5D 5C 5S", [(0, 1), (0, 2)])
    assert decide(bot, state) in {(0, 3), (0, -1)}


@pytest.mark.parametrize("bot", [SquareGreedyBot(), SquareSearchBot()], ids=type)
def test_a_ten_goes_where_it_makes_fifteens(bot: SquareGreedyBot | SquareSearchBot) -> None:
    # 5H and 5D down column 0, KC and QS along row 2: the ten goes with both fives
    state = stacked("5H 5D KC QS 10H", [(1, 0), (2, 1), (2, 2)])
    choice = decide(bot, state)
    assert choice in state.legal(0) and isinstance(choice, tuple) and choice[1] == 0


def test_the_search_bot_needs_a_sensible_budget() -> None:
    with pytest.raises(ValueError, match="samples"):
        SquareSearchBot(samples=-1)
    with pytest.raises(ValueError, match="width"):
        SquareSearchBot(width=0)


def mean_scores(factory: type[SquareGreedyBot | SquareSearchBot | RandomBot], deals: int,
                **kwargs: int) -> list[float]:
    """The bot's scores alone on deals 1.. `deals`."""
    variant = GAME.variant()
    return [play_game(variant, [factory(**kwargs)], ["x"], seed).scores[0]
            for seed in range(1, deals + 1)]


def test_greedy_and_search_beat_random_on_the_same_deals() -> None:
    rand = mean_scores(RandomBot, 20)
    greedy = mean_scores(SquareGreedyBot, 20)
    search = mean_scores(SquareSearchBot, 20, samples=4, width=3)
    assert sum(greedy) / 20 > sum(rand) / 20 + 12
    assert sum(search) / 20 > sum(rand) / 20 + 12
    assert sum(g > r for g, r in zip(greedy, rand, strict=True)) >= 17


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    for seed, bots in enumerate([[SquareSearchBot(samples=4)], [SquareGreedyBot()],
                                 [SquareGreedyBot(), SquareSearchBot(samples=4, width=2)]]):
        record = play_game(variant, bots, [str(i) for i in range(len(bots))], seed)
        assert record.faults == ()


def test_the_search_bot_replays_identically() -> None:
    variant = GAME.variant()
    lines = [play_game(variant, [SquareSearchBot(samples=8)], ["s"], 5).to_line()
             for _ in range(2)]
    assert lines[0] == lines[1]
