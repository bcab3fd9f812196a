"""The Cribbage Square bots: line values against exact counts, choices in stacked positions,
who beats whom on the same deals, and faultless play in every preset."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from math import comb, prod

import pytest

from arena.api import Action, GameInfo, Observation
from arena.cards import Card, parse_card, standard_deck
from arena.engine import find_game
from arena.games.cribbage_square import PRESETS, SquareState, stack_pack
from arena.games.cribbage_square.scoring import RANK_POINTS, hand_points
from arena.match import bot_rng, play_game
from bots.algorithms.random_bot import RandomBot
from bots.cribbage_square.expert import SquareExpertBot
from bots.cribbage_square.heuristic import (
    EMPTY,
    LineValues,
    SquareGreedyBot,
    SquareSearchBot,
    add,
    static_ranks,
)
from bots.cribbage_square.search import SquarePimcBot
from bots.cribbage_square.values import LearnedValues, Residuals, abstract, coarse, learned

SquareBot = SquareGreedyBot | SquareSearchBot | SquareExpertBot | SquarePimcBot
BOTS = [SquareGreedyBot(), SquareSearchBot(), SquareExpertBot(), SquareExpertBot(samples=8),
        SquarePimcBot(samples=8)]

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


def line(text: str) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The line key of these cards."""
    key = EMPTY
    for card in cards(text):
        key = add(key, card)
    return key


def test_line_states_are_abstracted_by_ranks_and_flush() -> None:
    assert abstract(line("5H 10H")) == "5as"
    assert abstract(line("10D 5H KS")) == "5ad-"
    assert abstract(line("AH")) == "1-"
    assert abstract(EMPTY) == "-"
    assert coarse(line("5H 10H 2H")) == "3s"
    assert coarse(line("5H 10D")) == "2-"


def test_a_full_line_is_worth_exactly_its_average_over_the_starter() -> None:
    down = cards("5H 5D JS 5C 2H 9C 4D")
    unseen = [c for c in standard_deck() if c not in down]
    four = line("5H 5D JS 5C")
    exact = sum(hand_points(cards("5H 5D JS 5C"), s) for s in unseen) / len(unseen)
    for stage in (7, 12, 15):
        learned_value = LearnedValues(LineValues(unseen, deep=True), stage, learned())
        assert learned_value.value(four) == pytest.approx(exact, rel=1e-12)


def test_the_learned_table_adds_its_weighted_residual_to_partial_lines() -> None:
    table = Residuals.zero()
    table.fine[5]["5as"] = 2.0
    table.back[5]["2-"] = 1.0
    table.weight = 0.5
    unseen = [c for c in standard_deck() if c not in cards("5H 10H 10D 3C 8S")]
    base = LineValues(unseen, deep=True)
    values = LearnedValues(base, 5, table)
    suited, mixed = line("5H 10H"), line("5H 10D")
    assert values.value(suited) == pytest.approx(base.value(suited) + 1.0)
    assert values.value(mixed) == pytest.approx(base.value(mixed) + 0.5)  # backed off
    assert LearnedValues(base, 6, table).value(suited) == base.value(suited)  # other stage


def test_the_shipped_table_values_open_places_early_more_than_late() -> None:
    table = learned()
    assert 0 < table.weight <= 1
    assert sum(len(states) for states in table.fine) > 1000
    one = line("7C")
    assert table.residual(one, 3) > table.residual(one, 13) > -0.5
    assert table.residual(line("7C 8D 9H 10S"), 5) == 0.0


def decide(bot: SquareBot, state: SquareState) -> Action:
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


@pytest.mark.parametrize("bot", BOTS, ids=type)
def test_the_fourth_five_joins_its_row(bot: SquareBot) -> None:
    state = stacked("5H 5D 5C 5S", [(0, 1), (0, 2)])
    assert decide(bot, state) in {(0, 3), (0, -1)}


@pytest.mark.parametrize("bot", BOTS, ids=type)
def test_a_ten_goes_where_it_makes_fifteens(bot: SquareBot) -> None:
    # 5H and 5D down column 0, KC and QS along row 2: the ten goes with both fives
    state = stacked("5H 5D KC QS 10H", [(1, 0), (2, 1), (2, 2)])
    choice = decide(bot, state)
    assert choice in state.legal(0) and isinstance(choice, tuple) and choice[1] == 0


def test_the_search_bot_needs_a_sensible_budget() -> None:
    with pytest.raises(ValueError, match="samples"):
        SquareSearchBot(samples=-1)
    with pytest.raises(ValueError, match="width"):
        SquareSearchBot(width=0)
    with pytest.raises(ValueError, match="samples"):
        SquareExpertBot(samples=-1)
    with pytest.raises(ValueError, match="width"):
        SquareExpertBot(width=0)
    with pytest.raises(ValueError, match="horizon"):
        SquarePimcBot(horizon=0)


def mean_scores(factory: type[SquareBot | RandomBot], deals: int,
                **kwargs: int) -> list[float]:
    """The bot's scores alone on deals 1.. `deals`."""
    variant = GAME.variant()
    return [play_game(variant, [factory(**kwargs)], ["x"], seed).scores[0]
            for seed in range(1, deals + 1)]


@pytest.mark.slow  # a long statistical run
def test_greedy_and_search_beat_random_on_the_same_deals() -> None:
    rand = mean_scores(RandomBot, 20)
    greedy = mean_scores(SquareGreedyBot, 20)
    search = mean_scores(SquareSearchBot, 20, samples=4, width=3)
    expert = mean_scores(SquareExpertBot, 20)
    assert sum(greedy) / 20 > sum(rand) / 20 + 12
    assert sum(search) / 20 > sum(rand) / 20 + 12
    assert sum(expert) / 20 > sum(rand) / 20 + 12
    assert sum(g > r for g, r in zip(greedy, rand, strict=True)) >= 17


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    for seed, bots in enumerate([[SquareSearchBot(samples=4)], [SquareGreedyBot()],
                                 [SquareExpertBot()], [SquareExpertBot(samples=4)],
                                 [SquarePimcBot(samples=4, horizon=3)],
                                 [SquareGreedyBot(), SquareSearchBot(samples=4, width=2),
                                  SquareExpertBot(samples=2, width=2)]]):
        record = play_game(variant, bots, [str(i) for i in range(len(bots))], seed)
        assert record.faults == ()


@pytest.mark.parametrize("make", [lambda: SquareSearchBot(samples=8),
                                  lambda: SquareExpertBot(samples=8),
                                  lambda: SquarePimcBot(samples=8)],
                         ids=["search", "expert", "pimc"])
def test_the_sampling_bots_replay_identically(make: Callable[[], SquareBot]) -> None:
    variant = GAME.variant()
    lines = [play_game(variant, [make()], ["s"], 5).to_line() for _ in range(2)]
    assert lines[0] == lines[1]
