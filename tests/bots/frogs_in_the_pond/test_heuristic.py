"""The Frogs in the Pond bots: single decisions on stacked deals, and who beats whom over
seat-rotated deals through the real match loop."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from arena.api import Bot, GameInfo, Observation
from arena.cards import Card, parse_card, parse_cards
from arena.engine import find_game
from arena.games.frogs_in_the_pond import PRESETS, FrogsState, Say, Stack
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from arena.session import SeriesTally, play_series
from bots.frogs_in_the_pond.heuristic import FrogsSharpBot, FrogsSimpleBot

GAME = find_game("frogs-in-the-pond")
SHARP = "bots.frogs_in_the_pond.heuristic:FrogsSharpBot"
SIMPLE = "bots.frogs_in_the_pond.heuristic:FrogsSimpleBot"


def mean_scores(preset: str, specs: Sequence[str], deals: int, seed: int = 500) -> list[float]:
    """Mean score per entry over `deals` deals, each played in every rotation of the seats."""
    variant = GAME.variant(preset)
    bots = [resolve_bot(spec, GAME.name) for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults
        tally.add(game)
    return [row.mean_score for row in tally.summary()]


def test_sharp_beats_simple_and_random_in_partnerships() -> None:
    for preset in ("standard", "tadpole"):
        sharp, simple, _, _ = mean_scores(preset, [SHARP, SIMPLE, SHARP, SIMPLE], deals=16)
        assert sharp > simple + 10, preset
    sharp, rand, _, _ = mean_scores("standard", [SHARP, "random", SHARP, "random"], deals=16)
    assert sharp > rand + 30


def test_sharp_beats_simple_and_random_playing_alone() -> None:
    sharp, simple, rand = mean_scores("standard", [SHARP, SIMPLE, "random"], deals=16)
    assert sharp > simple + 5 and sharp > rand + 20
    sharp, simple = mean_scores("standard", [SHARP, SIMPLE], deals=16)
    assert sharp > simple + 10


def test_simple_beats_random() -> None:
    simple, rand, _, _ = mean_scores("standard", [SIMPLE, "random", SIMPLE, "random"], deals=16)
    assert simple > rand + 10


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_and_table_size_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    kinds: list[type[Bot]] = [FrogsSharpBot, FrogsSimpleBot]
    for players in range(2, 6):
        bots = [kinds[s % 2]() for s in range(players)]
        record = play_game(variant, bots, [f"b{s}" for s in range(players)], seed=players)
        assert record.faults == ()


# -- single decisions ---------------------------------------------------------------------------

def decide(bot: Bot, preset: str, hands: Mapping[int, str], plays: str, frogs: str = "",
           players: int = 4) -> Card:
    """Deal a stacked deal 0 (seat 0 deals, seat 1 leads), play `plays`, then ask `bot`, seated
    at the seat to act, for its card."""
    params = PRESETS[preset]
    stack = Stack({s: parse_cards(t) for s, t in hands.items()}, parse_cards(frogs))
    state = FrogsState(params, players, random.Random(0), {0: stack})
    state.apply(0, Say.DEAL)
    for card in parse_cards(plays):
        (seat,) = state.to_act()
        state.apply(seat, card)
    (seat,) = state.to_act()
    bot.start(GameInfo(GAME.name, preset, params.as_dict(), seat, players, bot_rng(0, seat)))
    obs = Observation(seat, state.legal(seat), state.seen_by(seat, 0, len(state.log)),
                      state.view(seat))
    action = bot.act(obs)
    assert action in obs.legal
    assert isinstance(action, Card)
    return action


def test_simple_leads_its_highest_and_follows_with_its_lowest() -> None:
    hands = {1: "KH 3H 9S 8S 7S 6S 5S 4S 3S 2S", 2: "AH 4H 2H"}
    assert decide(FrogsSimpleBot(), "standard", hands, "") == parse_card("KH")
    assert decide(FrogsSimpleBot(), "standard", hands, "3H") == parse_card("2H")


def test_sharp_leads_an_ace_for_its_partner() -> None:
    hands = {1: "AH 9S 8S 7C 6C 3D 4D 6D 7D 8D"}
    assert decide(FrogsSharpBot(), "standard", hands, "") == parse_card("AH")


def test_sharp_throws_a_counter_on_its_partners_sure_trick() -> None:
    hands = {1: "AH", 2: "3H", 3: "10H 4H"}
    assert decide(FrogsSharpBot(), "standard", hands, "AH 3H") == parse_card("10H")


def test_sharp_wins_last_with_its_most_valuable_winner() -> None:
    hands = {0: "10C KC 3C", 1: "9C", 2: "4C", 3: "6C"}
    assert decide(FrogsSharpBot(), "standard", hands, "9C 4C 6C") == parse_card("10C")


def test_sharp_ducks_with_its_cheapest_card() -> None:
    hands = {0: "5D 3D", 1: "9D", 2: "KD", 3: "AD"}
    assert decide(FrogsSharpBot(), "standard", hands, "9D KD AD") == parse_card("3D")


def test_sharp_throws_the_tadpole_on_an_opponents_trick() -> None:
    hands = {0: "JS 9C 8C 7C 6C 5C 4C 3C 10D 9D", 1: "AH", 2: "3H", 3: "4H"}
    assert decide(FrogsSharpBot(), "tadpole", hands, "AH 3H 4H") == parse_card("JS")


@pytest.mark.parametrize(("preset", "expected"), [("tadpole", "3S"), ("standard", "QS")])
def test_sharp_keeps_out_of_a_trick_holding_the_tadpole(preset: str, expected: str) -> None:
    hands = {0: "QS 3S", 1: "JS", 2: "4S", 3: "2S"}
    assert decide(FrogsSharpBot(), preset, hands, "JS 4S 2S") == parse_card(expected)


def test_sharp_remembers_the_cards_played_and_who_is_void() -> None:
    bot = FrogsSharpBot()
    hands = {0: "AD 3D", 1: "KD 4S", 2: "QD 5C", 3: "6H 7H"}
    decide(bot, "standard", hands, "KD QD 6H AD 3D")  # seat 1 to play to trick 2
    assert {parse_card(t) for t in ("KD", "QD", "6H", "AD", "3D")} <= bot.seen
    assert bot.void[3] == {parse_card("2D").suit}
