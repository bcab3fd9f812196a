"""The Old Man's Bundle bots: who beats whom over seat-rotated deals, and the sharp bot's
choices in stacked positions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from arena.api import Action, GameInfo, Observation
from arena.cards import parse_card
from arena.engine import find_game
from arena.games.old_mans_bundle import PRESETS, BundleState, actions, stack_deck
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from arena.session import SeriesTally, play_series
from bots.old_mans_bundle.heuristic import (
    BundleSharpBot,
    BundleSimpleBot,
    chance_of_any,
    expected_best,
)

GAME = find_game("old-mans-bundle")
SIMPLE = "bots.old_mans_bundle.heuristic:BundleSimpleBot"
SHARP = "bots.old_mans_bundle.heuristic:BundleSharpBot"


def series(specs: Sequence[str], deals: int, preset: str = "standard",
           seed: int = 700) -> tuple[list[float], list[int]]:
    """Mean score and wins per entry over `deals` deals, each played in both seatings."""
    variant = GAME.variant(preset)
    bots = [resolve_bot(spec, GAME.name) for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults
        tally.add(game)
    rows = tally.summary()
    return [r.mean_score for r in rows], [r.wins for r in rows]


@pytest.mark.parametrize(("good", "weak", "margin"), [
    (SHARP, SIMPLE, 8.0), (SHARP, "random", 15.0), (SIMPLE, "random", 5.0)])
def test_the_better_bot_wins_over_rotated_deals(good: str, weak: str, margin: float) -> None:
    (good_score, weak_score), (good_wins, weak_wins) = series([good, weak], deals=40)
    assert good_score > weak_score + margin
    assert good_wins > 1.5 * weak_wins


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    for seed, bots in enumerate([[BundleSharpBot(), BundleSimpleBot()],
                                 [BundleSimpleBot(), BundleSharpBot()],
                                 [BundleSharpBot(), BundleSharpBot()]]):
        record = play_game(variant, bots, ["a", "b"], seed)
        assert record.faults == ()


def decide(bot: BundleSharpBot, state: BundleState) -> Action:
    """What the bot does as the seat to act, having seen every event so far."""
    (seat,) = state.to_act()
    bot.start(GameInfo(GAME.name, "standard", {}, seat, 2, bot_rng(0, seat)))
    obs = Observation(seat, state.legal(seat), state.seen_by(seat, 0, len(state.log)),
                      state.view(seat))
    return bot.act(obs)


def stacked(hands: tuple[str, str], table: str = "7C 9D 10S QH") -> BundleState:
    """A standard game on a stacked first round."""
    return BundleState(PRESETS["standard"], 2, random.Random(0),
                       deck=stack_deck([hands], table))


def test_sharp_prefers_stealing_the_bundle() -> None:
    state = stacked(("7H 2C 3C 4C", "7S 9S 6D KD"))
    state.apply(0, actions.take(parse_card("7H")))
    assert decide(BundleSharpBot(), state) == actions.steal(parse_card("7S"))


def test_sharp_leaves_a_top_card_the_opponent_is_unlikely_to_hold() -> None:
    state = stacked(("7H 7D 9C 2C", "5S 6S 6D KD"))  # one seven unseen, two nines
    move = actions.read(decide(BundleSharpBot(), state))
    assert move.verb is actions.Verb.TAKE and move.card.rank == 7


def test_sharp_trails_a_card_whose_rank_is_nearly_gone() -> None:
    state = stacked(("KC KD KH 5D", "5S 6S 6D 8D"))
    move = actions.read(decide(BundleSharpBot(), state))
    assert move.verb is actions.Verb.TRAIL and move.card.rank == 13


def test_simple_takes_when_it_can() -> None:
    state = stacked(("7H 2C 3C 4C", "5S 6S 6D KD"))
    bot = BundleSimpleBot()
    bot.start(GameInfo(GAME.name, "standard", {}, 0, 2, random.Random(0)))
    obs = Observation(0, state.legal(0), (), state.view(0))
    assert bot.act(obs) == actions.take(parse_card("7H"))


def test_the_chance_of_holding_a_rank() -> None:
    assert chance_of_any(0, 40, 4) == 0.0 and chance_of_any(3, 40, 0) == 0.0
    assert chance_of_any(1, 40, 4) == pytest.approx(0.1)
    assert chance_of_any(2, 4, 4) == 1.0  # the opponent holds every unseen card
    assert expected_best([(5.0, 0.5), (2.0, 1.0)]) == pytest.approx(5 * 0.5 + 2 * 0.5)
    assert expected_best([(0.0, 1.0)]) == 0.0
