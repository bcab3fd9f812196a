"""`assayer`: the others' looks followed, denial in its claims, colour deductions, the look
before a sure claim, and whole games (two and three players) against the bundled bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.api import GameInfo, Observation
from arena.cards import Card, parse_card
from arena.engine import find_game
from arena.games.paved_with_gold import Aces, Combo, Look, PavedState, Phase, Won, actions
from arena.games.paved_with_gold.scenarios import play as do
from arena.games.paved_with_gold.scenarios import played_down
from arena.games.paved_with_gold.scenarios import stacked_state as deal
from arena.loader import resolve_bot
from arena.session import play_series
from bots.paved_with_gold.assayer import AssayerBot, choose_set

GAME = find_game("paved-with-gold")


def started(bot: AssayerBot, state: PavedState, seat: int) -> AssayerBot:
    """`bot` started in `seat` of `state`."""
    params = GAME.variant("standard").params_view
    bot.start(GameInfo(GAME.name, "standard", params, seat, state.players,
                       random.Random(f"test:{seat}")))
    return bot


def decide(bot: AssayerBot, state: PavedState, start: int = 0) -> Any:
    """What `bot` does now at the seat to act, given the events it may see from `start`."""
    (seat,) = state.to_act()
    events = state.seen_by(seat, start, len(state.log))
    choice = bot.act(Observation(seat, state.legal(seat), events, state.view(seat)))
    assert choice in state.legal(seat)
    return choice


def cards(texts: dict[int, str]) -> dict[int, Card]:
    """Places and the cards at them."""
    return {p: parse_card(t) for p, t in texts.items()}


def test_a_claim_uses_the_cards_the_others_know_first() -> None:
    known = cards({0: "2H", 1: "5D", 2: "9H", 3: "JD", 4: "KH", 5: "3D", 6: "4S"})
    theirs = {1, 5}
    chosen = choose_set(Combo.FIVE_OF_A_COLOUR, known, (), lambda p: float(p in theirs),
                        None, False)
    assert chosen is not None and theirs <= set(chosen) and 6 not in chosen
    held = choose_set(Combo.FIVE_OF_A_COLOUR, known, (4,), lambda p: float(p in theirs),
                      None, False)
    assert held is not None and held[0] == 4 and theirs <= set(held)
    assert choose_set(Combo.FIVE_OF_A_COLOUR, known, (6,), lambda p: 0.0, None, False) is None


def test_a_prime_and_a_run_take_the_heaviest_card_of_each_slot() -> None:
    known = cards({0: "2H", 1: "2C", 2: "3S", 3: "4D", 4: "4C", 5: "9S"})
    heavy = {4: 1.0, 5: 1.0}
    prime = choose_set(Combo.PRIME, known, (), lambda p: heavy.get(p, 0.0), Aces.HIGH_OR_LOW,
                       False)
    assert prime is not None and set(prime) == {0, 3, 4, 5}
    heavy = {1: 1.0, 4: 1.0}
    run = choose_set(Combo.RUN, known, (), lambda p: heavy.get(p, 0.0), Aces.HIGH_OR_LOW, False)
    assert run is not None and set(run) == {1, 2, 4}


def test_it_follows_the_places_the_others_looked_at_until_their_cards_leave() -> None:
    bot = started(AssayerBot(), deal(), 0)
    bot.follow([Look(1, 3), Look(1, 7), Look(0, 9)])
    assert bot.theirs == {1: {3, 7}}
    bot.follow([Won(1, (3,), Combo.PAIR, (parse_card("2H"),), 4)])
    assert bot.theirs == {1: {7}}


def _down_to_reds() -> PavedState:
    """Stock empty, eight cards left at places 17-24: three black, then five red."""
    return played_down(("2C", "5S", "9C", "2H", "3H", "4H", "6D", "8D"))


@pytest.mark.parametrize("deduce", [True, False])
def test_with_the_stock_out_it_claims_five_of_a_colour_known_by_elimination(
        deduce: bool) -> None:
    state = _down_to_reds()
    (seat,) = state.to_act()
    bot = started(AssayerBot(deduce=deduce), state, seat)
    for p in (17, 18, 19):  # it has seen the black cards; the five others must be red
        card = state.square[p]
        assert card is not None
        bot.memory.remember(p, card)
    mark = len(state.log)
    start = mark
    while state.to_act() == (seat,) and state.phase is not Phase.OVER:
        choice = decide(bot, state, start)
        start = len(state.log)
        do(state, choice)
    won = [e for e in state.log[mark:] if isinstance(e, Won)]
    if deduce:
        assert [w.combo for w in won] == [Combo.FIVE_OF_A_COLOUR]
        assert set(won[0].positions) == {20, 21, 22, 23, 24}
    else:
        assert not won


def test_holding_a_sure_claim_it_looks_at_an_unknown_place_first() -> None:
    known = {0: "2H", 1: "5D", 2: "9H", 3: "JD", 4: "KH", 5: "3C", 6: "4S", 7: "6C", 8: "8S"}
    for gamble, first_known in ((0.2, False), (2.0, True)):
        state = deal(known)
        bot = started(AssayerBot(gamble=gamble), state, 0)
        for p, text in known.items():
            bot.memory.remember(p, parse_card(text))
        choice = decide(bot, state)
        assert actions.verb(choice) == actions.LOOK
        assert (choice[1] in known) is first_known
        do(state, choice)
        then = decide(bot, state, len(state.log) - 2)
        # four blacks known too: a black card claims the black five, a red one the red five
        assert then == actions.claim(Combo.FIVE_OF_A_COLOUR, (choice[1],))


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="looks"):
        AssayerBot(looks="everywhere")


@pytest.mark.parametrize("players", [2, 3])
def test_whole_games_without_faults_and_far_ahead_of_random(players: int) -> None:
    variant = GAME.variant("standard")
    specs = ["assayer", *["random"] * (players - 1)]
    bots = [resolve_bot(s, GAME.name) for s in specs]
    margins = []
    for game in play_series(variant, bots, 300, 6, rotate=True):
        assert not game.record.faults, game.record.faults
        me = game.entries.index(0)
        scores = game.record.scores
        margins.append(scores[me] - (sum(scores) - scores[me]) / (players - 1))
    assert sum(margins) / len(margins) > 20


def test_it_plays_the_three_player_game_against_prospectors() -> None:
    variant = GAME.variant("standard")
    bots = [resolve_bot(s, GAME.name) for s in ("assayer", "prospector", "prospector")]
    for game in play_series(variant, bots, 40, 2, rotate=True):
        assert not game.record.faults, game.record.faults
        assert game.record.final["end"] in ("end-claim", "turn-limit")
