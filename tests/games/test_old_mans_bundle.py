"""Stealing the Old Man's Bundle on stacked packs: takes, steals, trails, the rounds, the end,
the leftovers, ties, what each seat may see, and the narration."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from arena.api import Action, Event
from arena.cards import Card, parse_cards
from arena.engine import ScoreOrder, find_game, rank_scores
from arena.errors import PlayersError
from arena.games.old_mans_bundle import (
    PRESETS,
    ROUNDS,
    BundleParams,
    BundleState,
    Dealt,
    GameOver,
    HandDealt,
    Stole,
    TableLeft,
    Took,
    Trailed,
    actions,
    stack_deck,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("old-mans-bundle")


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their short forms."""
    return parse_cards(text)


def card(text: str) -> Card:
    """One card from its short form."""
    return parse_cards(text)[0]


def new_game(rounds: Sequence[tuple[str, str]] = (), table: str = "",
             preset: str = "standard") -> BundleState:
    """A game of a preset on a stacked pack (see `stack_deck`)."""
    params = GAME.variant(preset).params
    assert isinstance(params, BundleParams)
    return BundleState(params, 2, random.Random(0), deck=stack_deck(rounds, table))


def play(state: BundleState, *moves: Action) -> list[Event]:
    """Play these actions in order, each by the seat to act; the events they logged."""
    mark = len(state.log)
    for move in moves:
        (seat,) = state.to_act()
        assert move in state.legal(seat), f"{move!r} is not legal for seat {seat}"
        state.apply(seat, move)
    return state.log[mark:]


def trail_out(state: BundleState) -> None:
    """Play the game to its end, every remaining turn trailing the first card in hand."""
    while seats := state.to_act():
        (seat,) = seats
        state.apply(seat, actions.trail(state.hands[seat][0]))


def bundle_texts(state: BundleState) -> tuple[str, str]:
    """Both bundles, bottom card first."""
    return tuple(" ".join(map(str, b)) for b in state.bundles)  # type: ignore[return-value]


T, S, R = actions.take, actions.steal, actions.trail
# the same four-card table and hands behind most scenarios
TABLE = "7C 9D 10S QH"
HANDS = ("7H 2C 3C 4C", "7S 9S 6D KD")


# -- the scenario table: a few moves on a stacked first round -------------------------------

@dataclass(frozen=True)
class Case:
    """Round 1 deals `hands` and turns up `table`; `moves` are played from seat 0 on.
    Expected: both bundles (bottom first) and the table afterwards."""

    name: str
    moves: Sequence[Action]
    bundles: tuple[str, str]
    table: str
    hands: tuple[str, str] = HANDS
    deal_table: str = TABLE
    preset: str = "standard"

    def __str__(self) -> str:
        return self.name


CASES = [
    Case("take in a table card of the same rank", [T(card("7H"))], ("7C 7H", ""),
         "9D 10S QH"),
    Case("one card takes every table card of its rank", [T(card("7H"))], ("7C 7D 7H", ""),
         "10S QH", deal_table="7C 7D 10S QH"),
    Case("single-take: one card takes the one table card named",
         [T(card("7H"), card("7D"))], ("7D 7H", ""), "7C 10S QH", deal_table="7C 7D 10S QH",
         preset="single-take"),
    Case("steal the opponent's whole bundle with its top card's rank",
         [T(card("7H")), S(card("7S"))], ("", "7C 7H 7S"), "9D 10S QH"),
    Case("the stolen bundle goes on top of the stealer's own",
         [T(card("7H")), T(card("9S")), R(card("2C")), S(card("7S"))],
         ("", "9D 9S 7C 7H 7S"), "10S QH 2C"),
    Case("a bundle can be stolen back",
         [T(card("7H")), S(card("7S")), S(card("7D"))], ("7C 7H 7S 7D", ""), "9D 10S QH",
         hands=("7H 7D 3C 4C", "7S 9S 6D KD")),
    Case("a trailed card lies on the table for the opponent to take",
         [R(card("2C")), T(card("2D"))], ("", "2C 2D"), "7C 9D 10S QH",
         hands=("2C 3C 4C 5C", "2D 9S 6D KD")),
    Case("... or for the player who trailed it",
         [R(card("2C")), R(card("6D")), T(card("2H"))], ("2C 2H", ""), "7C 9D 10S QH 6D",
         hands=("2C 2H 3C 4C", "7S 9S 6D KD")),
    Case("a trail is allowed even when a capture is possible", [R(card("7H"))], ("", ""),
         "7C 9D 10S QH 7H"),
    Case("the capturing card is the new top: taking a nine buries the seven",
         [T(card("7H")), R(card("6D")), T(card("9C"))], ("7C 7H 9D 9C", ""), "10S QH 6D",
         hands=("7H 9C 3C 4C", "7S 9S 6D KD")),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_scenario(case: Case) -> None:
    state = new_game([case.hands], case.deal_table, case.preset)
    play(state, *case.moves)
    assert bundle_texts(state) == case.bundles
    assert state.table == list(cards(case.table))
    assert sum(map(len, state.bundles)) + len(state.table) + sum(map(len, state.hands)) == 12


@dataclass(frozen=True)
class LegalCase:
    """After `moves`, whether `action` is open to the seat to act."""

    name: str
    moves: Sequence[Action]
    action: Action
    legal: bool
    hands: tuple[str, str] = HANDS
    deal_table: str = TABLE

    def __str__(self) -> str:
        return self.name


LEGAL = [
    LegalCase("no steal from an empty bundle", [R(card("2C"))], S(card("7S")), False),
    LegalCase("a steal needs the top card's rank", [T(card("7H"))], S(card("7S")), True),
    LegalCase("a card below the top does not count",
              [T(card("7H")), R(card("6D")), T(card("9C"))], S(card("7S")), False,
              hands=("7H 9C 3C 4C", "7S 9S 6D KD")),
    LegalCase("a take needs a table card of the rank", [], T(card("2C")), False),
    LegalCase("a trail is always offered", [], R(card("7H")), True),
    LegalCase("a player plays only their own cards", [], R(card("7S")), False),
]


@pytest.mark.parametrize("case", LEGAL, ids=str)
def test_legal(case: LegalCase) -> None:
    state = new_game([case.hands], case.deal_table)
    play(state, *case.moves)
    (seat,) = state.to_act()
    assert (case.action in state.legal(seat)) is case.legal


def test_a_card_matching_the_table_and_the_top_offers_both_but_does_one() -> None:
    state = new_game([("7H 7D 3C 4C", "7S 9S 6D KD")], TABLE)
    play(state, T(card("7H")), R(card("6D")), R(card("7D")))
    (seat,) = state.to_act()
    assert {T(card("7S")), S(card("7S"))} <= set(state.legal(seat))
    play(state, T(card("7S")))
    assert bundle_texts(state) == ("7C 7H", "7D 7S")


def test_the_events_of_a_take_a_steal_and_a_trail() -> None:
    state = new_game([HANDS], TABLE)
    events = play(state, T(card("7H")), S(card("7S")), R(card("2C")))
    assert events == [Took(0, card("7H"), cards("7C"), 2),
                      Stole(1, card("7S"), 0, card("7H"), 2, 3),
                      Trailed(0, card("2C"))]


# -- the deal, the rounds, who leads -----------------------------------------------------------

def test_the_non_dealer_leads_and_turns_alternate() -> None:
    state = new_game([HANDS], TABLE)
    (dealt,) = [e for e in state.log if isinstance(e, Dealt)]
    assert dealt == Dealt(1, 1, cards(TABLE), 40)
    order = []
    while len(order) < 8:
        (seat,) = state.to_act()
        order.append(seat)
        state.apply(seat, state.legal(seat)[-1])
    assert order == [0, 1] * 4


def test_hands_are_dealt_one_card_at_a_time_from_the_non_dealer() -> None:
    deck = stack_deck([HANDS], TABLE)
    assert deck[:12] == list(cards("7H 7S 2C 9S 3C 6D 4C KD")) + list(cards(TABLE))
    state = BundleState(PRESETS["standard"], 2, random.Random(0), deck=deck)
    assert state.hands == [sorted(cards("7H 2C 3C 4C"), key=lambda c: c.rank),
                           list(cards("6D 7S 9S KD"))]


def test_hands_are_refilled_four_at_a_time_and_none_to_the_table() -> None:
    state = new_game([HANDS, ("AH AS 2D 2S", "3D 3S 4D 4S")], TABLE)
    mark = len(state.log)
    for _ in range(8):
        (seat,) = state.to_act()
        state.apply(seat, actions.trail(state.hands[seat][0]))
    events = state.log[mark:]
    assert Dealt(1, 2, (), 32) in events
    assert [e for e in events if isinstance(e, HandDealt)] == [
        HandDealt(0, 2, cards("AH AS 2D 2S")), HandDealt(1, 2, cards("3D 3S 4D 4S"))]
    assert len(state.table) == 12 and state.to_act() == (0,)


def test_six_rounds_forty_eight_turns_then_the_end() -> None:
    state = new_game()
    trail_out(state)
    assert [e.round for e in state.log if isinstance(e, Dealt)] == list(range(1, ROUNDS + 1))
    outcome = state.outcome()
    assert outcome.turns == 48 and state.to_act() == ()
    assert not state.stock and not any(state.hands)


# -- the end: leftovers and ties ----------------------------------------------------------------

@pytest.mark.parametrize(("preset", "bundles", "left_to"), [
    ("standard", (2, 0), None),
    ("last-taker", (52, 0), 0),
])
def test_cards_left_on_the_table(preset: str, bundles: tuple[int, int],
                                 left_to: int | None) -> None:
    state = new_game([HANDS], TABLE, preset)
    play(state, T(card("7H")))
    trail_out(state)
    (left,) = [e for e in state.log if isinstance(e, TableLeft)]
    assert left.seat == left_to and len(left.cards) == 50
    outcome = state.outcome()
    assert outcome.scores == tuple(map(float, bundles))
    assert outcome.final["left_on_table"] == 50 and outcome.final["leftover_to"] == left_to
    assert (len(state.table) == 50) is (left_to is None)


def test_last_taker_is_whoever_took_in_last_even_by_a_steal() -> None:
    state = new_game([HANDS], TABLE, "last-taker")
    play(state, T(card("7H")), S(card("7S")))
    trail_out(state)
    assert state.outcome().scores == (0.0, 52.0)


def test_with_no_capture_at_all_the_table_goes_to_nobody_and_the_game_is_tied() -> None:
    state = new_game(preset="last-taker")
    trail_out(state)
    outcome = state.outcome()
    assert outcome.scores == (0.0, 0.0) and outcome.order is ScoreOrder.HIGHER_WINS
    assert rank_scores(outcome.scores, outcome.order) == (1, 1)
    over = state.log[-1]
    assert isinstance(over, GameOver) and over.winners == (0, 1)


def test_the_larger_bundle_wins() -> None:
    state = new_game([HANDS], TABLE)
    play(state, T(card("7H")))
    trail_out(state)
    outcome = state.outcome()
    assert rank_scores(outcome.scores, outcome.order) == (1, 2)
    assert outcome.final == {"bundles": [2, 0], "takes": [1, 0], "steals": [0, 0],
                             "trails": [23, 24], "left_on_table": 50, "leftover_to": None}


# -- what each seat may see -------------------------------------------------------------------

def test_hands_are_private_and_views_show_tops_and_sizes_only() -> None:
    state = new_game([HANDS], TABLE)
    for i, event in enumerate(state.log):
        if isinstance(event, HandDealt):
            assert state.private[i] == {event.seat}
    play(state, T(card("7H")))
    view = state.view(1)
    assert view.hand == tuple(state.hands[1]) and view.hands == (3, 4)
    assert view.tops == (card("7H"), None) and view.bundles == (2, 0)
    assert view.table == cards("9D 10S QH") and view.stock == 40 and view.to_act == 1
    assert not set(view.hand) & set(state.hands[0])
    assert set(state.visible_cards(1)) == {*state.hands[1], *cards("9D 10S QH 7C 7H")}


def test_random_games_keep_every_card() -> None:
    for preset in PRESETS:
        for seed in range(5):
            state = GAME.new_state(PRESETS[preset], 2, random.Random(seed))
            start = Counter(map(str, state.inventory()))
            rng = random.Random(seed)
            while seats := state.to_act():
                legal = state.legal(seats[0])
                state.apply(seats[0], legal[rng.randrange(len(legal))])
            assert Counter(map(str, state.inventory())) == start
            assert sum(state.outcome().scores) + len(state.table) == 52


# -- parameters, stacking, narration --------------------------------------------------------------

def test_presets() -> None:
    assert set(PRESETS) == {"standard", "last-taker", "single-take"}
    assert GAME.variant("standard").params.players_allowed() == range(2, 3)
    with pytest.raises(PlayersError):
        BundleState(PRESETS["standard"], 3, random.Random(0))


@pytest.mark.parametrize(("rounds", "table"), [
    ([("7H 7H", "")], ""), ([("AS 2S 3S 4S 5S", "")], ""), ([], "AS AS")])
def test_stacks_that_do_not_fit_are_refused(rounds: list[tuple[str, str]], table: str) -> None:
    with pytest.raises(ValueError):
        stack_deck(rounds, table)


def test_actions_read_back() -> None:
    move = actions.read(("take", "7H", "7C"))
    assert (move.verb, move.card, move.target) == (actions.Verb.TAKE, card("7H"), card("7C"))
    with pytest.raises(ValueError):
        actions.read(("steal", "7H", "7C"))
    with pytest.raises(ValueError):
        actions.read("trail")


def test_legal_sets_stay_small() -> None:
    state = new_game(preset="single-take")
    rng = random.Random(1)
    most = 0
    while seats := state.to_act():
        legal = state.legal(seats[0])
        most = max(most, len(legal))
        state.apply(seats[0], legal[rng.randrange(len(legal))])
    assert most <= 4 * 5


def test_narration_fits_and_never_shows_a_hand() -> None:
    lines: list[str] = []
    names = ["alice", "bob"]
    record = play_game(GAME.variant("last-taker"), [RandomBot(), RandomBot()], names, 4,
                       ShowPrinter(lines.append))
    assert all(len(line) <= 80 for line in lines)
    assert sum(line.startswith("Round ") for line in lines) == ROUNDS
    assert lines[-1].startswith("Game over:") or lines[-2].startswith("Game over:")
    assert record.faults == ()
    state = new_game([HANDS], TABLE)
    hands = [e for e in state.log if isinstance(e, HandDealt)]
    assert all(state.narrate(hand, names) == [] for hand in hands)
    assert state.narrate(Stole(1, card("7S"), 0, card("7H"), 2, 3), names) == [
        "  bob steals alice's bundle of 2 (top 7H) with 7S (bundle 3)"]
