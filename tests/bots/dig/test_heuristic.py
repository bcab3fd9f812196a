"""The Dig bots: who beats whom over seat-rotated deals, and the sharp bot's choices in
stacked positions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from arena.api import Action, GameInfo, Observation
from arena.cards import Rank, Suit, parse_cards
from arena.engine import find_game
from arena.games.dig import PRESETS, DigState, actions, stack_deck
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from arena.session import SeriesTally, play_series
from bots.dig.heuristic import DigSharpBot, DigSimpleBot, chance_of_any, most_held_suit

GAME = find_game("dig")
SIMPLE = "bots.dig.heuristic:DigSimpleBot"
SHARP = "bots.dig.heuristic:DigSharpBot"


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


@pytest.mark.parametrize(("preset", "weak"), [
    ("standard", SIMPLE), ("standard", "random"), ("reshuffle", SIMPLE), ("suit-only", "random")])
def test_sharp_wins_over_rotated_deals(preset: str, weak: str) -> None:
    # 30 deals: at 30 the margins are 5 to 16 points and 2.3 to 3.3 times the wins
    (sharp, other), (sharp_wins, other_wins) = series([SHARP, weak], deals=30, preset=preset)
    assert sharp > other + 1.0
    assert sharp_wins > 1.4 * other_wins


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    for seed, bots in enumerate([[DigSharpBot(), DigSimpleBot()],
                                 [DigSimpleBot(), DigSharpBot(pressure=0.5)],
                                 [DigSharpBot(), DigSharpBot()]]):
        record = play_game(variant, bots, ["a", "b"], seed)
        assert record.faults == ()


def decide(bot: DigSharpBot | DigSimpleBot, state: DigState) -> Action:
    """What the bot does as the seat to act, having seen every event so far."""
    (seat,) = state.to_act()
    bot.start(GameInfo(GAME.name, "standard", {}, seat, 2, bot_rng(0, seat)))
    obs = Observation(seat, state.legal(seat), state.seen_by(seat, 0, len(state.log)),
                      state.view(seat))
    return bot.act(obs)


def stacked(hands: tuple[str, str], upcard: str, stock: Sequence[str] = (),
            preset: str = "standard") -> DigState:
    """A game on a stacked pack."""
    return DigState(PRESETS[preset], 2, random.Random(0), deck=stack_deck(hands, upcard, stock))


P = actions.play


def test_sharp_keeps_its_eights_while_it_has_another_card_to_play() -> None:
    state = stacked(("8C 2H 3S 4S 5S 6S 9S", "3D 4D 6D 9D 10D JD QD"), "7H")
    assert decide(DigSharpBot(), state) == P(parse_cards("2H")[0])
    state = stacked(("8C 2C 3S 4S 5S 6S 9S", "3D 4D 6D 9D 10D JD QD"), "7H")
    assert decide(DigSharpBot(), state) == P(parse_cards("8C")[0])


def test_sharp_reads_a_dig_and_leaves_a_suit_the_opponent_lacks() -> None:
    state = stacked(("7S 9C 5S KD 4H 2D JH", "3D 4D 6D 9D 10D JD QD"), "7H", ["3C", "AC", "9S"])
    state.apply(0, P(parse_cards("7S")[0]))  # seat 1 digs 3C AC 9S and must play 9S
    state.apply(1, P(parse_cards("9S")[0]))
    bot = DigSharpBot()
    assert decide(bot, state) == P(parse_cards("5S")[0])  # not 9C: seat 1 holds clubs
    assert bot.lacks_suits == {Suit.SPADES} and bot.lacks_ranks == {Rank.SEVEN}
    assert bot.lacks_eights


def test_sharp_names_the_suit_it_holds_most_of_by_default() -> None:
    state = stacked(("8C 2S 3S 4S 5H 6H 9C", "3D 4D 6D 9D 10D JD QD"), "7C", preset="suit-only")
    state.apply(0, P(parse_cards("8C")[0]))
    assert decide(DigSharpBot(), state) == actions.name(Suit.SPADES)


def test_simple_plays_the_first_legal_card_and_names_its_longest_suit() -> None:
    state = stacked(("8C 2H 3S 4S 5S 6S 9H", "3D 4D 6D 9D 10D JD QD"), "7H")
    assert decide(DigSimpleBot(), state) == P(parse_cards("8C")[0])
    state.apply(0, P(parse_cards("8C")[0]))
    assert decide(DigSimpleBot(), state) == actions.name(Suit.SPADES)
    assert most_held_suit(parse_cards("8S 8D 8H 2C")) is Suit.CLUBS
    assert most_held_suit(()) is Suit.CLUBS


def test_the_chance_of_holding_a_card() -> None:
    assert chance_of_any(0, 30, 7) == 0.0 and chance_of_any(5, 30, 0) == 0.0
    assert chance_of_any(1, 30, 3) == pytest.approx(0.1)
    assert chance_of_any(3, 5, 5) == 1.0
