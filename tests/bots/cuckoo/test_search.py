"""`search` in Cuckoo (bots/cuckoo/search.py and the sampler): its playout policy, playouts that
stop at the end of the deal, and the plain choices at the edges of the ranks."""

from __future__ import annotations

import random

import pytest

from arena.api import GameInfo, Observation
from arena.cards import parse_card
from arena.engine import Knowledge, find_game
from arena.games.cuckoo import CuckooParams, CuckooState, Phase, Say, Stack
from arena.match import bot_rng
from bots.algorithms.hints import DEFAULT_SAMPLES, hints_for
from bots.algorithms.search import SearchBot
from bots.cuckoo.search import cuckoo_threshold

SEATS = 6


def table(cards: dict[int, str], draw: str | None = None) -> CuckooState:
    """A game whose first deal gives `cards` (seat -> card), dealt: seat 1 is to play."""
    stack = Stack({s: parse_card(c) for s, c in cards.items()},
                  parse_card(draw) if draw else None)
    state = CuckooState(CuckooParams(), SEATS, random.Random(1), {0: stack})
    state.apply(0, Say.DEAL)
    return state


def decide(state: CuckooState, samples: int = 40) -> Say:
    """What a fresh `search` bot in the seat to act chooses, told every event so far."""
    (seat,) = state.to_act()
    bot = SearchBot(samples=samples)
    variant = find_game("cuckoo").variant()
    bot.start(GameInfo("cuckoo", variant.label, variant.params_view, seat, SEATS,
                       bot_rng(3, seat)))
    obs = Observation(seat, state.legal(seat), state.seen_by(seat, 0, len(state.log)),
                      state.view(seat))
    action = bot.act(obs)
    assert isinstance(action, Say)
    return action


def test_the_playout_policy_stands_from_a_seven_and_changes_or_draws_below() -> None:
    state = table({1: "6H", 2: "7S", 0: "2C"})
    rng = random.Random(1)
    assert cuckoo_threshold(state, 1, rng) is Say.CHANGE
    state.apply(1, Say.STAND)
    assert cuckoo_threshold(state, 2, rng) is Say.STAND
    for seat in (2, 3, 4, 5):
        state.apply(seat, Say.STAND)
    assert cuckoo_threshold(state, 0, rng) is Say.DRAW


def test_a_playout_stops_at_the_end_of_the_deal() -> None:
    state = table({1: "5H"})
    bot = SearchBot()
    variant = find_game("cuckoo").variant()
    bot.start(GameInfo("cuckoo", variant.label, variant.params_view, 1, SEATS, bot_rng(1, 1)))
    known = Knowledge(state.params, SEATS, 1, state.seen_by(1, 0, len(state.log)),
                      state.view(1))
    for sampled in bot.sampler.sample(known, 4, random.Random(2)):
        bot.step(sampled, 1, Say.STAND)
        bot.play_out(sampled)
        assert isinstance(sampled, CuckooState)
        assert sampled.deal_no == 1 and sampled.phase in (Phase.DEAL, Phase.OVER)


@pytest.mark.parametrize(("card", "choice"), [("AH", Say.CHANGE), ("2D", Say.CHANGE),
                                              ("QS", Say.STAND), ("KC", Say.STAND)])
def test_the_first_player_changes_a_low_card_and_keeps_a_high_one(card: str,
                                                                  choice: Say) -> None:
    assert decide(table({1: card})) is choice


def test_the_dealer_draws_on_the_lowest_card_after_everyone_stood() -> None:
    state = table({0: "AS"})
    for seat in (1, 2, 3, 4, 5):
        state.apply(seat, Say.STAND)
    assert decide(state) is Say.DRAW


def test_a_player_handed_a_card_above_the_one_it_gave_keeps_it() -> None:
    # seat 1 changed its two for seat 2's ace: seat 1 holds the ace for good, so seat 2's
    # two cannot be the lowest card; standing is safe (a sampler that lost track of the ace
    # would fear the two)
    state = table({1: "2D", 2: "AH"})
    state.apply(1, Say.CHANGE)
    assert decide(state) is Say.STAND


def test_search_samples_cuckoo_more_than_other_games_unless_told() -> None:
    variant = find_game("cuckoo").variant()
    counts = []
    for samples in (-1, 7):
        bot = SearchBot(samples=samples)
        bot.start(GameInfo("cuckoo", variant.label, variant.params_view, 0, SEATS,
                           bot_rng(1, 0)))
        counts.append(bot.samples)
    dig = SearchBot()
    dig.start(GameInfo("dig", "standard", {}, 0, 2, bot_rng(1, 0)))
    assert counts == [hints_for("cuckoo").samples, 7]
    assert dig.samples == DEFAULT_SAMPLES < hints_for("cuckoo").samples
