"""The Paved with Gold bots: memory, sure claims, the end claim, the bonus choice, and strength."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from arena.api import GameInfo, Observation, Reveal
from arena.cards import parse_card
from arena.engine import find_game
from arena.games.paved_with_gold import Combo, PavedParams, PavedState, Phase, Won, actions
from arena.games.paved_with_gold.scenarios import claim_moves, played_down
from arena.games.paved_with_gold.scenarios import play as do
from arena.games.paved_with_gold.scenarios import stacked_state as deal
from arena.loader import BotSpec, resolve_bot
from arena.match import play_game
from arena.session import SeriesTally, play_series
from bots.paved_with_gold.prospector import ForgetfulProspectorBot, PlaceMemory, ProspectorBot

GAME = find_game("paved-with-gold")
PROSPECTOR = "bots.paved_with_gold.prospector:ProspectorBot"
FORGETFUL = "bots.paved_with_gold.prospector:ForgetfulProspectorBot"


def started(bot: ProspectorBot, state: PavedState, seat: int) -> ProspectorBot:
    """`bot` started in `seat` of `state`."""
    params = GAME.variant("standard").params_view
    bot.start(GameInfo(GAME.name, "standard", params, seat, state.players,
                       random.Random(f"test:{seat}")))
    return bot


def decide(bot: ProspectorBot, state: PavedState, start: int = 0) -> object:
    """What `bot` does now at the seat to act, given the events it may see from `start`."""
    (seat,) = state.to_act()
    events = state.seen_by(seat, start, len(state.log))
    choice = bot.act(Observation(seat, state.legal(seat), events, state.view(seat)))
    assert choice in state.legal(seat)
    return choice


def mean_scores(specs: Sequence[str], deals: int, preset: str = "standard",
                seed: int = 2000) -> list[float]:
    """Mean score per entry over `deals` deals, each played in every rotation of the seats."""
    variant = GAME.variant(preset)
    bots: list[BotSpec] = [resolve_bot(spec, GAME.name) for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults, game.record.faults
        tally.add(game)
    return [row.mean_score for row in tally.summary()]


# -- memory ------------------------------------------------------------------------------------

def test_memory_follows_looks_and_forgets_what_leaves_the_square() -> None:
    memory = PlaceMemory(random.Random(0))
    seven, eight = parse_card("7H"), parse_card("8S")
    memory.update([Reveal(0, 3, seven), Reveal(1, 4, eight)])
    assert memory.cards == {3: seven, 4: eight}
    memory.update([Won(1, (4,), Combo.PAIR, (eight,), 4)])
    assert memory.cards == {3: seven}


def test_a_fading_memory_holds_at_most_its_capacity_and_keeps_the_newest() -> None:
    memory = PlaceMemory(random.Random(0), recall=1.0, capacity=2)
    for pos, text in enumerate(("7H", "8S", "9D")):
        memory.remember(pos, parse_card(text))
    assert list(memory.cards) == [1, 2]
    forgetting = PlaceMemory(random.Random(0), recall=0.0)
    forgetting.remember(0, parse_card("7H"))
    assert forgetting.cards == {}


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="recall"):
        ProspectorBot(recall=1.5)
    with pytest.raises(ValueError, match="capacity"):
        ForgetfulProspectorBot(capacity=-1)
    assert (ForgetfulProspectorBot().recall, ForgetfulProspectorBot().capacity) == (0.7, 8)


# -- decisions ---------------------------------------------------------------------------------

def test_it_claims_a_known_five_of_a_colour_from_memory() -> None:
    reds = {3: "AH", 7: "4D", 11: "9H", 16: "QD", 22: "KH"}
    state = deal(reds)
    bot = started(ProspectorBot(), state, 0)
    state.log += [Reveal(0, p, parse_card(c)) for p, c in reds.items()]  # seen before
    mark = 0
    while state.phase is not Phase.LOOK or mark == 0:
        choice = decide(bot, state, mark)
        mark = len(state.log)
        state.apply(0, choice)
    assert state.outcome().final["points"] == [25, 0]
    assert {str(c) for c in state.won[0]} == set(reds.values())


def test_it_looks_at_two_unseen_places_and_puts_them_back_when_nothing_is_sure() -> None:
    state = deal(["2C", "9H"])
    bot = started(ProspectorBot(), state, 0)
    first = decide(bot, state)
    assert first[0] == actions.LOOK
    do(state, first)
    second = decide(bot, state)
    assert second[0] == actions.LOOK and second != first
    do(state, second)
    assert decide(bot, state) == actions.PUT_BACK_ACTION


def test_it_claims_lesser_combinations_only_when_nothing_better_is_possible() -> None:
    state = played_down(("7H", "7S", "2C", "9S"))  # a pair is all that is left in play
    seat = state.seat
    bot = started(ProspectorBot(), state, seat)
    assert Combo.PAIR in bot.claimable(state.view(seat), 0)
    assert Combo.PAIR not in bot.claimable(state.view(seat), 1 + 1)  # not an accidental pair
    fresh = started(ProspectorBot(), deal(), 0)
    assert fresh.claimable(deal().view(0), 0) == [Combo.FIVE_OF_A_COLOUR]


@pytest.mark.parametrize(("left", "ends"), [(("2C", "7D", "QH", "9C"), True),
                                            (("2C", "7D", "QH", "2H"), False)])
def test_the_end_claim_only_when_certain(left: tuple[str, ...], ends: bool) -> None:
    state = played_down(left)
    seat = state.seat
    bot = started(ProspectorBot(), state, seat)
    choice = decide(bot, state, len(state.log))  # no memory of any place: the piles suffice
    assert (choice == actions.END_ACTION) is ends


def test_three_players_the_bonus_goes_to_the_lower_scored_opponent() -> None:
    state = deal({0: "7H", 1: "8S", 2: "2C", 3: "KD"}, players=3)
    do(state, *claim_moves(Combo.PAIR, (0,), (1,)))  # seat 0 claims falsely ...
    bot = started(ProspectorBot(), state, 0)
    assert decide(bot, state) == actions.bonus_to(1)  # ... a tie: the earlier in turn order
    do(state, actions.bonus_to(1))
    do(state, actions.look(5), actions.PUT_BACK_ACTION)  # seat 1
    do(state, actions.look(5), actions.PUT_BACK_ACTION)  # seat 2
    do(state, *claim_moves(Combo.PAIR, (2,), (3,)))  # seat 0 again: seat 1 now leads
    assert decide(bot, state) == actions.bonus_to(2)


# -- whole games -------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", sorted(GAME.presets))
def test_no_faults_in_any_preset(preset: str) -> None:
    variant = GAME.variant(preset)
    tables = [[ProspectorBot(), ForgetfulProspectorBot()],
              [ForgetfulProspectorBot(recall=0.5, capacity=4), ProspectorBot(),
               ProspectorBot()]]
    for seed, bots in enumerate(tables):
        record = play_game(variant, bots, [type(b).__name__ for b in bots], seed)
        assert record.faults == ()
        assert record.final["end"] == "end-claim"
        assert record.final["false_claims"] == [0] * len(bots)  # sure claims only
        assert record.final["end_claim"]["right"]
        assert isinstance(variant.params, PavedParams)


def test_prospector_beats_random() -> None:
    prospector, rnd = mean_scores([PROSPECTOR, "bots.algorithms.random_bot:RandomBot"], deals=20)
    assert prospector > rnd + 50


def test_prospector_beats_its_forgetful_version() -> None:
    prospector, forgetful = mean_scores([PROSPECTOR, FORGETFUL], deals=30)
    assert prospector > forgetful + 20


def test_three_players_prospector_leads() -> None:
    scores = mean_scores([PROSPECTOR, FORGETFUL, "bots.algorithms.random_bot:RandomBot"], deals=10)
    assert scores[0] > scores[1] > scores[2]
