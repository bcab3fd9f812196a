"""Cuckoo scenarios on stacked deals: standing and changing, kings shown, the dealer's draw, who
pays, dropping out, the deal passing on, the endings, what each seat may see, and narration."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import pytest

from arena.api import Event
from arena.cards import Card, parse_card
from arena.engine import ScoreOrder, find_game
from arena.errors import PlayersError, VariantError
from arena.games.cuckoo import (
    PACK,
    PRESETS,
    CardDealt,
    Changed,
    CuckooParams,
    CuckooState,
    DealStarted,
    Drew,
    End,
    GameOver,
    KingShown,
    Phase,
    Received,
    Say,
    Showdown,
    Stack,
    Stood,
    Turn,
    next_dealer,
    payers,
    survival_scores,
    turn_order,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("cuckoo")
S, C, D = Say.STAND, Say.CHANGE, Say.DRAW


def card(text: str) -> Card:
    """A card from its short form."""
    return parse_card(text)


def params_of(preset: str = "standard", overrides: Mapping[str, str] | None = None
              ) -> CuckooParams:
    """The resolved parameters of a preset."""
    params = GAME.variant(preset, overrides).params
    assert isinstance(params, CuckooParams)
    return params


def stack(cards: Mapping[int, str], draw: str | None = None) -> Stack:
    """A Stack from short card texts."""
    return Stack({s: card(t) for s, t in cards.items()}, card(draw) if draw else None)


def new_game(stacks: Mapping[int, Stack] | None = None, players: int = 6,
             preset: str = "standard", overrides: Mapping[str, str] | None = None,
             seed: int = 0) -> CuckooState:
    """A game with deals prearranged by number (0-based)."""
    return CuckooState(params_of(preset, overrides), players, random.Random(seed), stacks)


def play(state: CuckooState, *actions: Say) -> list[Event]:
    """Each action in turn by the seat to act (which must be offered it); the new events."""
    mark = len(state.log)
    for action in actions:
        (seat,) = state.to_act()
        assert action in state.legal(seat), (seat, action, state.legal(seat))
        state.apply(seat, action)
    return state.log[mark:]


def deal(state: CuckooState) -> list[Event]:
    """The dealer deals."""
    return play(state, Say.DEAL)


E = TypeVar("E", bound=Event)


def only(events: Sequence[Event], kind: type[E]) -> E:
    """The one event of a type."""
    (found,) = [e for e in events if isinstance(e, kind)]
    return found


# -- the scenario table: the first deal (seat 0 deals; turns go 1, 2, 3, 4, 5, then 0) -------

@dataclass(frozen=True)
class Scenario:
    """One deal at six seats with these cards and these actions, taken in turn as offered.
    Expected: the cards held at the showdown (by seat, those named), the lowest rank, who
    pays, and whether the dealer drew a king."""

    name: str
    cards: Mapping[int, str]
    actions: Sequence[Say]
    held: Mapping[int, str]
    low: int
    payers: tuple[int, ...]
    draw: str | None = None
    dealer_king: bool = False
    kings: tuple[int, ...] = ()
    turns: tuple[Turn, ...] = field(default=())

    def __str__(self) -> str:
        return self.name


TABLE = {1: "2H", 2: "5C", 3: "9D", 4: "JS", 5: "QH", 0: "7C"}
SCENARIOS = [
    Scenario("everyone stands: the lowest card pays", TABLE, [S] * 6, TABLE, 2, (1,)),
    Scenario("rank decides, not suit; ties all pay", {**TABLE, 3: "2S", 0: "2C"}, [S] * 6,
             {1: "2H", 3: "2S", 0: "2C"}, 2, (0, 1, 3)),
    Scenario("ace is low", {**TABLE, 4: "AS"}, [S] * 6, {4: "AS"}, 1, (4,)),
    Scenario("a change takes the neighbour's card", TABLE, [C, S, S, S, S, S],
             {1: "5C", 2: "2H"}, 2, (2,),
             turns=(Turn.CHANGED, Turn.STOOD, Turn.STOOD, Turn.STOOD, Turn.STOOD, Turn.STOOD)),
    Scenario("a low card passed along the table", {**TABLE, 1: "AC"}, [C, C, S, S, S, S],
             {1: "5C", 2: "9D", 3: "AC"}, 1, (3,)),
    Scenario("a king cannot be taken: it is shown and the holder's turn passes",
             {**TABLE, 2: "KC"}, [C, S, S, S, S], {1: "2H", 2: "KC"}, 2, (1,), kings=(2,),
             turns=(Turn.REFUSED, Turn.KING, Turn.STOOD, Turn.STOOD, Turn.STOOD, Turn.STOOD)),
    Scenario("the player at the dealer's right changes with the dealer", TABLE,
             [S, S, S, S, C, S], {5: "7C", 0: "QH"}, 2, (1,)),
    Scenario("the dealer's king is shown to the last player: straight to the showdown",
             {**TABLE, 0: "KD"}, [S, S, S, S, C], {5: "QH", 0: "KD"}, 2, (1,), kings=(0,)),
    Scenario("the dealer draws from the rest of the pack", {**TABLE, 0: "AD"},
             [S, S, S, S, S, D], {0: "8D"}, 2, (1,), draw="8D"),
    Scenario("the dealer may draw a lower card", {**TABLE, 0: "3D"}, [S, S, S, S, S, D],
             {0: "AH"}, 1, (0,), draw="AH"),
    Scenario("a dealer who draws a king pays alone", {**TABLE, 1: "AC"}, [S, S, S, S, S, D],
             {1: "AC", 0: "KS"}, 1, (0,), draw="KS", dealer_king=True),
    Scenario("a king passed to the dealer is no drawn king", {**TABLE, 5: "KH", 0: "AH"},
             [S, S, S, S, C, S], {5: "AH", 0: "KH"}, 1, (5,)),
    Scenario("a player holding a king may still change", {**TABLE, 1: "KC"},
             [C, S, S, S, S, S], {1: "5C", 2: "KC"}, 5, (1,)),
]


@pytest.mark.parametrize("case", SCENARIOS, ids=str)
def test_scenario(case: Scenario) -> None:
    state = new_game({0: stack(case.cards, case.draw)})
    deal(state)
    events = play(state, *case.actions)
    shown = only(events, Showdown)
    for seat, text in case.held.items():
        assert shown.cards[seat] == card(text), seat
    assert (shown.low, shown.payers, shown.dealer_king) == (case.low, case.payers,
                                                            case.dealer_king)
    assert shown.chips == tuple(2 if s in case.payers else 3 for s in range(6))
    assert tuple(e.seat for e in events if isinstance(e, KingShown)) == case.kings
    assert state.phase is Phase.DEAL and state.to_act() == (1,)
    assert len([e for e in events if isinstance(e, Stood | Changed | KingShown | Drew)]) == len(
        case.actions)
    summary = state.outcome().final["rounds"][0]
    assert summary["payers"] == list(case.payers) and summary["low"] == case.low


@pytest.mark.parametrize("case", [c for c in SCENARIOS if c.turns], ids=str)
def test_the_view_records_each_turn(case: Scenario) -> None:
    state = new_game({0: stack(case.cards, case.draw)})
    deal(state)
    play(state, *case.actions[:-1])
    (seat,) = state.to_act()
    view = state.view(seat)
    assert [t for _, t in view.turns] == list(case.turns[:len(view.turns)])
    assert view.turn == seat and view.order == (1, 2, 3, 4, 5, 0)


def test_the_king_holder_is_skipped_and_the_asker_keeps_its_card() -> None:
    state = new_game({0: stack({1: "2H", 2: "KC", 3: "9D"})})
    deal(state)
    events = play(state, C)
    assert events == [KingShown(2, 1, card("KC"))]
    assert state.to_act() == (3,)
    assert state.hands[1] == card("2H") and state.hands[2] == card("KC")
    assert state.view(4).kings == ((2, card("KC")),)


def test_an_exchange_tells_each_of_the_two_what_it_receives_and_nobody_else() -> None:
    state = new_game({0: stack({1: "2H", 2: "9C"})})
    deal(state)
    mark = len(state.log)
    events = play(state, C)
    assert events == [Changed(1, 2), Received(1, card("9C"), 2), Received(2, card("2H"), 1)]
    assert state.private[mark + 1] == frozenset({1})
    assert state.private[mark + 2] == frozenset({2})
    assert mark not in state.private
    assert state.seen_by(3, mark, len(state.log)) == (Changed(1, 2),)
    assert state.view(2).card == card("2H") and state.view(1).card == card("9C")


def test_the_dealers_draw_is_public_but_the_card_is_not() -> None:
    state = new_game({0: stack({0: "3D"}, draw="JD")})
    deal(state)
    play(state, S, S, S, S, S)
    mark = len(state.log)
    play(state, D)
    assert state.log[mark:mark + 2] == [Drew(0), Received(0, card("JD"), None)]
    assert state.private[mark + 1] == frozenset({0})
    assert state.aside == [card("3D")]
    shown = only(state.log[mark:], Showdown)
    assert card("3D") not in shown.cards  # the card put aside stays face down


# -- dealing, the order of turns and the deal passing on ---------------------------------------

def test_each_player_is_dealt_one_card_privately_in_turn_order() -> None:
    state = new_game()
    events = deal(state)
    started = only(events, DealStarted)
    assert started == DealStarted(0, 0, (1, 2, 3, 4, 5, 0), (3,) * 6)
    dealt = [e for e in events if isinstance(e, CardDealt)]
    assert [e.seat for e in dealt] == [1, 2, 3, 4, 5, 0]
    for event in dealt:
        assert state.private[state.log.index(event)] == frozenset({event.seat})
        assert event.seat is not None and state.hands[event.seat] == event.card
    assert len(state.stock) == 46 and state.to_act() == (1,)
    assert state.legal(1) == (S, C) and state.legal(0) == (S, D)


def test_turn_order_and_next_dealer_pass_over_players_out() -> None:
    assert turn_order(0, range(6)) == (1, 2, 3, 4, 5, 0)
    assert turn_order(4, [0, 2, 4, 5]) == (5, 0, 2, 4)
    assert turn_order(5, [0, 2, 4, 5]) == (0, 2, 4, 5)
    assert turn_order(3, [0, 2, 4]) == (4, 0, 2)  # a dealer who has dropped out: no turn
    assert next_dealer(2, [0, 2, 4]) == 4
    assert next_dealer(4, [0, 2, 4]) == 0
    assert next_dealer(3, [0, 2, 4]) == 4  # the last dealer dropped out


def test_the_deal_passes_left_and_the_pack_is_reshuffled_each_deal() -> None:
    state = new_game({1: stack({2: "AS", 3: "KS"})})
    deal(state)
    play(state, *[S] * 6)
    assert state.to_act() == (1,) and state.view(1).phase is Phase.DEAL
    assert Counter(state.inventory()) == Counter(PACK)
    started = only(deal(state), DealStarted)
    assert started.seat == 1 and started.order == (2, 3, 4, 5, 0, 1)
    assert state.hands[2] == card("AS") and state.hands[3] == card("KS")
    assert len(state.stock) == 46 and not state.aside


def test_changing_goes_to_the_next_player_still_in() -> None:
    # one chip each: seat 2 pays in deal 0 and is out; in deal 1 seat 1 deals, so seat 3 starts
    state = new_game({0: stack({2: "AC"}), 1: stack({3: "2H", 4: "9S", 5: "8S", 0: "7S",
                                                    1: "6S"})}, preset="one-chip")
    deal(state)
    assert only(play(state, *[S] * 6), Showdown).dropped == (2,)
    started = only(deal(state), DealStarted)
    assert started.order == (3, 4, 5, 0, 1)
    assert only(play(state, C), Changed) == Changed(3, 4)
    play(state, S, S, S)
    (seat,) = state.to_act()
    assert seat == 1 and state.legal(1) == (S, D)
    assert only(play(state, S), Showdown).payers == (4,)


def test_a_dealer_who_drops_out_passes_the_deal_to_the_left() -> None:
    state = new_game({0: stack({0: "AC"})}, preset="one-chip")
    deal(state)
    shown = only(play(state, *[S] * 6), Showdown)
    assert shown.dropped == (0,) and state.to_act() == (1,)
    assert only(deal(state), DealStarted).order == (2, 3, 4, 5, 1)
    assert state.view(0).card is None and state.visible_cards(0) == []


# -- chips, dropping out and the end -----------------------------------------------------------

def test_players_who_drop_out_in_the_same_deal_share_a_place() -> None:
    state = new_game({0: stack({1: "AC", 4: "AD"}), 1: stack({3: "2C", 5: "9C", 0: "8C", 2: "7C"})},
                     preset="one-chip")
    deal(state)
    assert only(play(state, *[S] * 6), Showdown).dropped == (1, 4)
    deal(state)
    assert only(play(state, S, S, S, S), Showdown).dropped == (3,)
    assert state.out_deal == [None, 1, None, 2, 1, None]
    scores = survival_scores(state.out_deal, state.chips, state.deal_no)
    assert scores == (3, 1, 3, 2, 1, 3)


def play_out(state: CuckooState) -> list[Event]:
    """Everyone stands to the end of the game; the events."""
    mark = len(state.log)
    while seats := state.to_act():
        state.apply(seats[0], state.legal(seats[0])[0])
    return state.log[mark:]


def test_the_last_player_left_wins_and_places_follow_the_order_of_dropping_out() -> None:
    ranks = {0: "AC", 1: "2C", 2: "3C", 3: "4C", 4: "5C", 5: "6C"}
    state = new_game({n: stack({s: t for s, t in ranks.items() if s >= n}) for n in range(5)},
                     preset="one-chip")
    events = play_out(state)
    over = only(events, GameOver)
    assert over.end is End.SURVIVOR and over.winners == (5,) and over.deals == 5
    outcome = state.outcome()
    assert outcome.order is ScoreOrder.HIGHER_WINS and outcome.turns == 5
    assert outcome.scores == (1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    assert outcome.final["end"] == "survivor" and outcome.final["out"] == [1, 2, 3, 4, 5, None]
    json.dumps(outcome.final)
    assert state.to_act() == () and state.legal(5) == ()


def test_when_the_last_players_drop_out_together_they_share_the_win() -> None:
    low = {0: "AC", 1: "2C", 2: "3C", 3: "4C", 4: "5D", 5: "5C"}
    state = new_game({n: stack({s: t for s, t in low.items() if s >= n}) for n in range(5)},
                     preset="one-chip")
    over = only(play_out(state), GameOver)
    assert over.end is End.ALL_OUT and over.winners == (4, 5) and over.deals == 5
    assert state.outcome().scores[4:] == (5.0, 5.0)


def test_at_the_deal_limit_players_still_in_rank_by_chips_above_those_out() -> None:
    later = {2: "2C", 3: "9C", 4: "8C", 5: "7C", 0: "6C", 1: "5C"}
    state = new_game({0: stack({1: "AC", 2: "AD"}), 1: stack(later)},
                     overrides={"max-deals": "2"})
    over = only(play_out(state), GameOver)
    assert over.end is End.LIMIT and over.deals == 2
    assert state.chips == [3, 2, 1, 3, 3, 3]
    assert over.scores == (5, 4, 3, 5, 5, 5) and over.winners == (0, 3, 4, 5)


def test_the_rules_alone_end_every_game_within_chips_times_seats_deals() -> None:
    for players in (6, 20):
        state = new_game(players=players, seed=players)
        assert state.limit == 3 * players
        rng = random.Random(players)
        start = Counter(state.inventory())
        while seats := state.to_act():
            state.apply(seats[0], rng.choice(state.legal(seats[0])))
        assert Counter(state.inventory()) == start
        outcome = state.outcome()
        assert outcome.turns <= 3 * players and outcome.final["end"] in ("survivor", "all-out")
        assert sum(state.chips) >= 0 and len(state.active) <= 1


def test_payers_and_scores_alone() -> None:
    held = {0: card("KS"), 1: card("4H"), 2: card("4D"), 3: card("9C")}
    assert payers(held, dealer=0, dealer_king=False) == (4, (1, 2))
    assert payers(held, dealer=0, dealer_king=True) == (4, (0,))
    assert survival_scores([None, 2, None], [1, 0, 3], deals=5) == (6, 2, 8)


# -- what each seat may see ---------------------------------------------------------------------

def test_views_hold_only_the_own_card_and_the_kings_shown() -> None:
    state = new_game({0: stack({1: "3H", 2: "KC", 3: "4H"})})
    deal(state)
    play(state, C)
    for seat in range(6):
        view = state.view(seat)
        assert view.card == state.hands[seat] and view.kings == ((2, card("KC")),)
        assert view.shown == () and view.chips == (3,) * 6
        assert Counter(state.visible_cards(seat)) == Counter([state.hands[seat], card("KC")])


def test_between_deals_the_showdown_lies_face_up() -> None:
    state = new_game({0: stack(TABLE)})
    deal(state)
    play(state, *[S] * 6)
    view = state.view(3)
    assert view.phase is Phase.DEAL and view.card is None and view.kings == ()
    assert view.shown == tuple(card(TABLE[s]) for s in range(6))
    assert Counter(state.visible_cards(5)) == Counter(card(t) for t in TABLE.values())


def test_random_play_at_twenty_seats_leaks_no_card() -> None:
    state = new_game(players=20, seed=4)
    rng = random.Random(4)
    while seats := state.to_act():
        (seat,) = seats
        mark = len(state.log)
        state.apply(seat, rng.choice(state.legal(seat)))
        for other in range(20):
            for event in state.seen_by(other, mark, len(state.log)):
                if isinstance(event, CardDealt | Received):
                    assert event.seat == other


# -- variants -----------------------------------------------------------------------------------

def test_presets() -> None:
    assert set(PRESETS) == {"standard", "one-chip", "ten-deals"}
    assert params_of().players_allowed() == range(6, 21)
    assert params_of().deal_limit(6) == 18 and params_of().deal_limit(20) == 60
    assert params_of("one-chip").deal_limit(6) == 6
    assert params_of("ten-deals").deal_limit(20) == 10
    assert params_of("ten-deals").deal_limit(6) == 10


@pytest.mark.parametrize(("overrides", "message"), [
    ({"chips": "0"}, "chips must be 1 to 20"),
    ({"chips": "21"}, "chips must be 1 to 20"),
    ({"max-deals": "-1"}, "max-deals must be 0"),
    ({"pack": "short"}, "unknown parameter 'pack'"),
])
def test_bad_parameters_are_rejected_naming_them(overrides: dict[str, str],
                                                 message: str) -> None:
    with pytest.raises(VariantError, match=message):
        GAME.variant("standard", overrides)


@pytest.mark.parametrize("players", [5, 21])
def test_six_to_twenty_players(players: int) -> None:
    with pytest.raises(PlayersError):
        new_game(players=players)
    with pytest.raises(PlayersError, match="6 to 20"):
        GAME.variant("standard").check_players(players)


@pytest.mark.parametrize(("cards", "message"), [
    ({1: "AS", 2: "AS"}, "named twice"),
])
def test_stacks_that_do_not_fit_are_refused(cards: dict[int, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        deal(new_game({0: stack(cards)}))
    with pytest.raises(ValueError, match="not playing"):
        deal(new_game({0: stack({7: "AS"})}))


def test_only_the_seat_to_act_may_act_and_only_legally() -> None:
    state = new_game()
    with pytest.raises(ValueError):
        state.apply(1, Say.DEAL)
    deal(state)
    with pytest.raises(ValueError):
        state.apply(1, Say.DRAW)
    with pytest.raises(ValueError):
        state.apply(2, Say.STAND)


# -- spectators ---------------------------------------------------------------------------------

def test_narration_fits_80_columns_and_shows_cards_only_at_the_showdown() -> None:
    lines: list[str] = []
    names = ["a-rather-long-bot-name", "bob", "carol", "dave", "erin", "frank", "grace",
             "heidi", "ivan", "judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil",
             "trent", "victor", "walter", "zoe"]
    record = play_game(GAME.variant("standard"), [RandomBot() for _ in names], names, 5,
                       ShowPrinter(lines.append))
    assert all(len(line) <= 80 for line in lines)
    assert sum(line.startswith("Deal ") for line in lines) == record.turns
    assert lines[-1].startswith("Game over")
    state = new_game({0: stack({1: "3H", 2: "KC"})})
    events = deal(state) + play(state, C)
    assert all(state.narrate(e, names) == [] for e in events if isinstance(e, CardDealt))
    (king,) = [e for e in events if isinstance(e, KingShown)]
    assert state.narrate(king, names) == ["  bob asks carol to change: carol shows KC and keeps it"]
    assert state.narrate(Received(1, card("3H"), 2), names) == []


def test_the_documented_example() -> None:
    state = new_game({0: stack({1: "2H", 2: "5C", 3: "KC", 4: "JS", 5: "QH", 0: "7C"},
                               draw="8D")})
    deal(state)
    events = play(state, C, C, S, S, D)
    assert [type(e) for e in events if not isinstance(e, Received)] == [
        Changed, KingShown, Stood, Stood, Drew, Showdown]
    shown = only(events, Showdown)
    assert [str(c) for c in shown.cards] == ["8D", "5C", "2H", "KC", "JS", "QH"]
    assert shown.payers == (2,) and state.to_act() == (1,)
