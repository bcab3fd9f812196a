"""Dig on stacked packs: following suit or rank, wild eights and what they name, digging, the
stock running out (pass or reshuffle), going out, blocked games, the turn limit, ties, what
each seat may see, and the narration."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from arena.api import Action, Event
from arena.cards import Card, Rank, Suit, parse_cards
from arena.engine import ScoreOrder, find_game, rank_scores
from arena.errors import PlayersError, VariantError
from arena.games.dig import (
    PRESETS,
    DigParams,
    DigState,
    Drew,
    Dug,
    End,
    GameOver,
    HandDealt,
    Named,
    Passed,
    Phase,
    Played,
    Reshuffled,
    Started,
    Target,
    actions,
    stack_deck,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("dig")
P, N = actions.play, actions.name


def card(text: str) -> Card:
    """One card from its short form."""
    return parse_cards(text)[0]


def new_game(hands: tuple[str, str] = ("", ""), upcard: str = "", stock: Sequence[str] = (),
             preset: str = "standard", **overrides: str) -> DigState:
    """A game of a preset (with overrides) on a stacked pack (see `stack_deck`)."""
    params = GAME.variant(preset, {k.replace("_", "-"): v for k, v in overrides.items()}).params
    assert isinstance(params, DigParams)
    return DigState(params, 2, random.Random(0), deck=stack_deck(hands, upcard, stock))


def play(state: DigState, *moves: Action) -> list[Event]:
    """Play these actions in order, each by the seat to act; the events they logged."""
    mark = len(state.log)
    for move in moves:
        (seat,) = state.to_act()
        assert move in state.legal(seat), f"{move!r} is not legal for seat {seat}"
        state.apply(seat, move)
    return state.log[mark:]


def public(state: DigState, events: Sequence[Event], start: int) -> list[Event]:
    """The events among `events` (logged from index `start`) that every seat sees."""
    return [e for i, e in enumerate(events, start) if i not in state.private]


HANDS = ("2H 7S 8C 2C KD 5S JC", "3D 4D 6D 9D 10D JD QD")
# seat 0 can follow 7H with 2H (suit), 7S (rank) or 8C (wild); 2C, KD, 5S, JC do not follow


# -- the scenario table: what may be played ---------------------------------------------------

@dataclass(frozen=True)
class Case:
    """On upcard `upcard`, after `moves`, the seat to act may play exactly `legal`."""

    name: str
    upcard: str
    moves: Sequence[Action]
    legal: Sequence[Action]
    hands: tuple[str, str] = HANDS
    preset: str = "standard"

    def __str__(self) -> str:
        return self.name


SUITS = [N(s) for s in Suit]
RANKS = [N(r) for r in Rank if r not in (Rank.JOKER, Rank.EIGHT)]
CASES = [
    Case("follow the upcard's suit or rank, or play an eight", "7H", [],
         [P(card("8C")), P(card("2H")), P(card("7S"))]),
    Case("an eight names any suit or any rank but eight", "7H", [P(card("8C"))],
         SUITS + RANKS),
    Case("suit-only: an eight names a suit", "7H", [P(card("8C"))], SUITS,
         preset="suit-only"),
    Case("a named suit asks for that suit or an eight", "7H", [P(card("8C")), N(Suit.DIAMONDS)],
         [P(c) for c in parse_cards("3D 4D 6D 9D 10D JD QD")]),
    Case("a named rank asks for that rank or an eight", "7H",
         [P(card("8C")), N(Rank.QUEEN)], [P(card("QD"))]),
    Case("the card just played is the one to follow", "7H", [P(card("2H"))],
         [P(card("3H"))], hands=("2H 7S 8C 2C KD 5S JC", "3H 4D 6D 9D 10D JD QD")),
    Case("an eight upcard asks for its own suit, or an eight", "8D", [],
         [P(card("8C")), P(card("KD"))]),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_legal(case: Case) -> None:
    state = new_game(case.hands, case.upcard, preset=case.preset)
    play(state, *case.moves)
    (seat,) = state.to_act()
    assert sorted(map(str, state.legal(seat))) == sorted(map(str, case.legal))


def test_the_dealer_turns_up_the_upcard_and_the_dealers_left_plays_first() -> None:
    state = new_game(HANDS, "7H")
    assert state.log[0] == Started(1, card("7H"), 37)
    assert state.to_act() == (0,) and state.phase is Phase.PLAY
    assert state.view(0).top == card("7H") and state.target == Target(Suit.HEARTS, Rank.SEVEN)


def test_hands_are_dealt_one_at_a_time_and_kept_sorted() -> None:
    deck = stack_deck(HANDS, "7H", ["AS"])
    assert deck[:4] == list(parse_cards("2H 3D 7S 4D")) and deck[14:16] == list(
        parse_cards("7H AS"))
    state = DigState(PRESETS["standard"], 2, random.Random(0), deck=deck)
    assert state.hands[0] == list(parse_cards("2C 8C JC KD 2H 5S 7S"))


def test_playing_and_naming_events_and_what_follows() -> None:
    state = new_game(HANDS, "7H")
    events = play(state, P(card("8C")))
    assert events == [Played(0, card("8C"), 6)]
    assert state.to_act() == (0,) and state.phase is Phase.NAME  # the same player names
    events = play(state, N(Rank.QUEEN))
    assert events == [Named(0, None, Rank.QUEEN)]
    assert state.view(1).suit is None and state.view(1).rank is Rank.QUEEN


# -- digging -------------------------------------------------------------------------------------

def test_a_player_who_cannot_play_digs_until_a_card_can_be_played() -> None:
    state = new_game(HANDS, "7H", ["3C", "AC", "9S"])
    mark = len(state.log)
    events = play(state, P(card("7S")))  # seat 1 has no spade, seven or eight
    assert public(state, events, mark) == [Played(0, card("7S"), 6), Dug(1, 3, 34)]
    drew = [e for e in events if isinstance(e, Drew)]
    assert drew == [Drew(1, parse_cards("3C AC 9S"))]
    assert state.private[state.log.index(drew[0])] == {1}
    assert state.legal(1) == (P(card("9S")),)  # the card dug last is the only one to play
    assert len(state.hands[1]) == 10 and state.outcome().final["dug"] == [0, 3]


def test_a_player_who_can_play_may_not_dig() -> None:
    state = new_game(HANDS, "7H")
    assert all(action[0] == "play" for action in state.legal(0))
    assert not any(isinstance(e, Dug) for e in state.log)


def test_the_first_player_digs_at_once_if_the_upcard_cannot_be_followed() -> None:
    state = new_game(("2C 3C 4C 5C 6C 7C 9C", "3D 4D 6D 9D 10D JD QD"), "AH", ["KH"])
    assert [e for e in state.log if isinstance(e, Dug)] == [Dug(0, 1, 36)]
    assert state.legal(0) == (P(card("KH")),)


def test_a_dug_eight_can_be_played_at_once() -> None:
    state = new_game(HANDS, "7H", ["3C", "8S"])
    play(state, P(card("7S")))
    assert state.legal(1) == (P(card("8S")),)


# the stock runs out: seat 0 holds every queen and eight but QS, the upcard; it plays 8C and
# names queens; seat 1 holds none and no card of the stock is a queen or an eight
ALL = ("8C 8D 8H 8S QC QD QH", "2C 3C 4C 5C 6C 7C 9C")


def test_the_stock_runs_out_and_a_player_who_still_cannot_play_passes() -> None:
    state = new_game(ALL, "QS")
    mark = len(state.log)
    events = play(state, P(card("8C")), N(Rank.QUEEN))
    assert public(state, events, mark)[-2:] == [Dug(1, 37, 0), Passed(1)]
    assert state.to_act() == (0,) and len(state.hands[1]) == 44
    assert state.stock == [] and state.turns == 2
    play(state, P(card("QC")))  # the game goes on: seat 1 holds clubs
    assert state.to_act() == (1,)


def test_preset_reshuffle_turns_the_pile_into_a_new_stock() -> None:
    state = new_game(ALL, "QS", preset="reshuffle")
    mark = len(state.log)
    events = play(state, P(card("8C")), N(Rank.QUEEN))
    assert public(state, events, mark)[-3:] == [Dug(1, 37, 0), Reshuffled(None, 1), Dug(1, 1, 0)]
    assert state.pile == [card("8C")] and state.legal(1) == (P(card("QS")),)
    assert state.outcome().final["reshuffles"] == 1


# every queen and eight ends up on the pile or in seat 0's hand; seat 1 digs the stock out
BLOCK = ("QC QD QH 8C 8D 3S 4S", "8H 8S 2H 5C 6C 7C 9C")
BLOCK_MOVES = [P(card("QC")), P(card("8H")), N(Rank.QUEEN), P(card("QD")), P(card("8S")),
               N(Rank.QUEEN), P(card("QH")), P(card("2H")), P(card("8C")), N(Rank.QUEEN)]


def test_reshuffle_brings_back_the_whole_pile_below_the_top_card() -> None:
    state = new_game(BLOCK, "QS", preset="reshuffle")
    play(state, *BLOCK_MOVES[:-2])  # the pile: QS QC 8H QD 8S QH 2H
    events = play(state, *BLOCK_MOVES[-2:])  # seat 1 digs out the stock; seven come back
    assert [e for e in events if isinstance(e, Reshuffled)] == [Reshuffled(None, 7)]
    assert state.pile == [card("8C")] and len(state.stock) < 7
    (last,) = [e for e in events if isinstance(e, Drew)][-1:]
    assert state.legal(1) == (P(last.cards[-1]),) and last.cards[-1].rank in (Rank.QUEEN,
                                                                               Rank.EIGHT)


def test_two_passes_in_a_row_block_the_game_and_fewer_cards_win() -> None:
    state = new_game(BLOCK, "QS")
    mark = len(state.log)
    events = play(state, *BLOCK_MOVES)
    assert public(state, events, mark)[-2:] == [Dug(1, 37, 0), Passed(1)]
    assert state.legal(0) == (P(card("8D")),)  # forced: the eight is its only card to play
    mark = len(state.log)
    events = play(state, P(card("8D")), N(Rank.QUEEN))
    assert events == [Played(0, card("8D"), 2), Named(0, None, Rank.QUEEN), Passed(1),
                      Passed(0), GameOver(None, End.BLOCKED, (2, 41), (0,))]
    outcome = state.outcome()
    assert state.to_act() == () and outcome.scores == (39.0, -39.0)
    assert outcome.final == {"end": "blocked", "left": [2, 41], "dug": [0, 37],
                             "eights": [2, 2], "reshuffles": 0, "stock": 0}
    assert outcome.turns == 11  # eight plays (a naming belongs to its play), three passes


# every card is a heart but the last: the players follow suit until seat 0 goes out on 8D
OUT = ("AH 3H 5H 7H 9H JH 8D", "2H 4H 6H 10H QH KH 9C")


def test_going_out_wins_and_scores_the_cards_left_in_the_other_hand() -> None:
    state = new_game(OUT, "AD")
    play(state, *map(P, parse_cards("AH 2H 3H 4H 5H 6H 7H 10H 9H QH JH KH")))
    assert state.legal(0) == (P(card("8D")),)
    events = play(state, P(card("8D")))  # going out on an eight: nothing to name
    assert events == [Played(0, card("8D"), 0), GameOver(None, End.OUT, (0, 1), (0,))]
    assert state.to_act() == () and state.phase is Phase.OVER
    outcome = state.outcome()
    assert outcome.scores == (1.0, -1.0) and outcome.order is ScoreOrder.HIGHER_WINS
    assert outcome.final["end"] == "out" and outcome.turns == 13


def test_the_turn_limit_ends_the_game_fewer_cards_win_and_equal_hands_tie() -> None:
    state = new_game(("2H 7S 8C 2C KD 5S JC", "3H 4D 6D 9D 10D JD QD"), "7H", max_turns="2")
    play(state, P(card("2H")), P(card("3H")))
    assert state.to_act() == ()
    outcome = state.outcome()
    assert outcome.final["end"] == "turn-limit" and outcome.turns == 2
    assert outcome.scores == (0.0, 0.0) and rank_scores(outcome.scores, outcome.order) == (1, 1)
    over = state.log[-1]
    assert isinstance(over, GameOver) and over.winners == (0, 1)


def test_max_turns_must_be_positive() -> None:
    with pytest.raises(VariantError, match="max-turns"):
        GAME.variant("standard", {"max-turns": "0"})


def test_dig_is_for_two() -> None:
    with pytest.raises(PlayersError):
        DigState(PRESETS["standard"], 3, random.Random(0))


# -- what each seat may see; conservation; narration --------------------------------------------

def test_hands_and_dug_cards_are_private_and_views_show_only_your_own() -> None:
    state = new_game(HANDS, "7H", ["3C", "AC", "9S"])
    for i, event in enumerate(state.log):
        if isinstance(event, HandDealt):
            assert state.private[i] == {event.seat}
    play(state, P(card("7S")))
    view = state.view(0)
    assert view.hand == tuple(state.hands[0]) and view.hands == (6, 10)
    assert view.top == card("7S") and view.stock == 34 and view.pile == 2
    assert set(state.visible_cards(0)) == {*state.hands[0], card("7H"), card("7S")}
    assert not set(state.visible_cards(0)) & set(state.hands[1])


def test_random_games_keep_every_card_and_end() -> None:
    for preset in PRESETS:
        for seed in range(10):
            state = GAME.new_state(PRESETS[preset], 2, random.Random(seed))
            start = Counter(map(str, state.inventory()))
            rng = random.Random(seed)
            while seats := state.to_act():
                legal = state.legal(seats[0])
                assert 0 < len(legal) <= (16 if state.phase is Phase.NAME
                                          else len(state.hands[seats[0]]))
                state.apply(seats[0], legal[rng.randrange(len(legal))])
            assert Counter(map(str, state.inventory())) == start
            assert state.outcome().final["end"] in {"out", "blocked", "turn-limit"}


def test_stacks_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError):
        stack_deck(("7H 7H", ""))
    with pytest.raises(ValueError):
        stack_deck(("AS 2S 3S 4S 5S 6S 7S 9S", ""))
    with pytest.raises(ValueError):
        stack_deck(("AS", ""), "AS")


def test_actions_read_back() -> None:
    assert actions.read_play(("play", "10H")) == card("10H")
    assert actions.read_name(("name", "10")) is Rank.TEN
    assert actions.read_name(("name", "S")) is Suit.SPADES
    with pytest.raises(ValueError):
        actions.read_play(("name", "S"))
    with pytest.raises(ValueError):
        actions.read_name(("name", "8"))


def test_narration_fits_and_never_shows_a_hand() -> None:
    lines: list[str] = []
    names = ["alice", "bob"]
    record = play_game(GAME.variant("standard"), [RandomBot(), RandomBot()], names, 2,
                       ShowPrinter(lines.append))
    assert record.faults == () and all(len(line) <= 80 for line in lines)
    assert lines[-1].startswith("Game over")
    state = new_game(HANDS, "7H")
    assert state.narrate(HandDealt(0, parse_cards("2H")), names) == []
    assert state.narrate(Drew(1, parse_cards("2H")), names) == []
    assert state.narrate(Named(0, None, Rank.SIX), names) == ["  alice names sixes"]
    assert state.narrate(Dug(1, 3, 34), names) == ["  bob digs 3 cards (34 left in the stock)"]
    first_digs = new_game(("2C 3C 4C 5C 6C 7C 9C", "3D 4D 6D 9D 10D JD QD"), "AH", ["KH"])
    assert first_digs.narrate_deal()[-2:] == ["The upcard is AH (37 cards in the stock)",
                                              "  seat 0 digs 1 card (36 left in the stock)"]
