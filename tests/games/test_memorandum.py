"""Memorandum scenarios on stacked deals: claims, piles, returns, the dealer's score, the rotation
of the deal, both variants, what each seat may see, and the narration."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import pytest

from arena.api import Event
from arena.cards import Card, parse_cards
from arena.engine import ScoreOrder, find_game
from arena.errors import PlayersError, VariantError
from arena.games.memorandum import (
    PRESETS,
    Called,
    DealScored,
    DealStarted,
    GameOver,
    HandDealt,
    HandsShown,
    MemorandumParams,
    MemorandumState,
    Pack,
    Phase,
    Pile,
    Resolved,
    Returned,
    Say,
    Stack,
    pack_cards,
    score_deal,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("memorandum")


def params_of(preset: str, overrides: Mapping[str, str] | None = None) -> MemorandumParams:
    """The resolved parameters of a preset."""
    params = GAME.variant(preset, overrides).params
    assert isinstance(params, MemorandumParams)
    return params


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their short forms: '7H QS JKR'."""
    return parse_cards(text)


def new_game(preset: str = "standard", players: int = 3,
             stacks: Mapping[int, Stack] | None = None, seed: int = 0) -> MemorandumState:
    """A game of a preset with deals prearranged by number."""
    return MemorandumState(params_of(preset), players, random.Random(seed), stacks)


def stack(hands: Mapping[int, str] | None = None, calls: str = "") -> Stack:
    """A Stack from short card texts."""
    return Stack({s: cards(t) for s, t in (hands or {}).items()}, cards(calls))


def deal(state: MemorandumState) -> list[Event]:
    """The dealer deals; the new events."""
    mark = len(state.log)
    (dealer,) = state.to_act()
    assert state.legal(dealer) == (Say.DEAL,)
    state.apply(dealer, Say.DEAL)
    return state.log[mark:]


def call(state: MemorandumState, claimants: Iterable[int] = ()) -> list[Event]:
    """Every player answers the called card: `claimants` say "Mine!", the others pass."""
    mark = len(state.log)
    mine = set(claimants)
    seats = state.to_act()
    assert mine <= set(seats)
    assert all(state.legal(s) == (Say.MINE, Say.PASS) for s in seats)
    state.apply_joint({s: Say.MINE if s in mine else Say.PASS for s in seats})
    return state.log[mark:]


def finish_deal(state: MemorandumState,
                claim: Callable[[MemorandumState, Card], Iterable[int]] = lambda s, c: ()
                ) -> list[Event]:
    """Answer every remaining call of the deal (by default nobody claims); the new events."""
    mark = len(state.log)
    while state.phase is Phase.CALL:
        assert state.called is not None
        call(state, claim(state, state.called))
    return state.log[mark:]


def owners_claim(state: MemorandumState, card: Card) -> list[int]:
    """A perfect table: the holder of the card claims it."""
    return [s for s in state.to_act() if card in state.hands[s]]


E = TypeVar("E", bound=Event)


def only(events: Sequence[Event], kind: type[E]) -> E:
    """The one event of a type."""
    (found,) = [e for e in events if isinstance(e, kind)]
    return found


# -- the scenario table: the first deal of a game, with some calls answered as scripted -------

@dataclass(frozen=True)
class Scenario:
    """Deal 0 (seat 0 deals) with these hands and first calls; listed claimants answer each call,
    every later call goes unclaimed. Expected: the piles, then the deal's scoring."""

    name: str
    hands: Mapping[int, str]
    calls: Sequence[tuple[str, tuple[int, ...]]]
    piles: Sequence[Pile]
    points: tuple[int, ...]
    right: tuple[int, ...]
    disputed: tuple[int, ...]
    returned: Mapping[int, str] = field(default_factory=dict)
    unclaimed: int = 0
    dispute_pile: int = 0
    preset: str = "standard"
    players: int = 3

    def __str__(self) -> str:
        return self.name


SCENARIOS = [
    # three seats: two players of 26 cards; p = 3; 52 calls, the rest unclaimed
    Scenario("single right claim", {1: "7H"}, [("7H", (1,))], [Pile.TAKEN],
             points=(3 * 51, 1, 0), right=(0, 1, 0), disputed=(0, 0, 0), unclaimed=51),
    Scenario("nobody claims", {1: "7H"}, [("7H", ())], [Pile.UNCLAIMED],
             points=(3 * 52, 0, 0), right=(0, 0, 0), disputed=(0, 0, 0), unclaimed=52),
    Scenario("dispute won by its owner", {1: "7H"}, [("7H", (1, 2))], [Pile.DISPUTED],
             points=(3 * 51, 3, 0), right=(0, 0, 0), disputed=(0, 1, 0), unclaimed=51,
             dispute_pile=1),
    Scenario("a card taken wrongly goes back", {1: "7H"}, [("7H", (2,))], [Pile.TAKEN],
             points=(3 * 52, 0, 0), right=(0, 0, 0), disputed=(0, 0, 0),
             returned={2: "7H"}, unclaimed=52),
    Scenario("right, wrong, disputed and none together", {1: "7H 8H", 2: "9C"},
             [("7H", (1,)), ("8H", (2,)), ("9C", (1, 2)), ("2D", ())],
             [Pile.TAKEN, Pile.TAKEN, Pile.DISPUTED, Pile.UNCLAIMED],
             points=(3 * 50, 1, 3), right=(0, 1, 0), disputed=(0, 0, 1),
             returned={2: "8H"}, unclaimed=50, dispute_pile=1),
    # four seats: three players of 17 cards, the last card of the pack (KS) set aside; p = 4
    Scenario("dispute won by a silent owner", {1: "7H"}, [("7H", (2, 3))], [Pile.DISPUTED],
             points=(4 * 51, 4, 0, 0), right=(0, 0, 0, 0), disputed=(0, 1, 0, 0),
             unclaimed=51, dispute_pile=1, players=4),
    Scenario("a disputed set-aside card scores for nobody", {}, [("KS", (1, 2))],
             [Pile.DISPUTED], points=(4 * 51, 0, 0, 0), right=(0, 0, 0, 0),
             disputed=(0, 0, 0, 0), unclaimed=51, dispute_pile=1, players=4),
    Scenario("a set-aside card taken goes back to the dealer", {}, [("KS", (3,))],
             [Pile.TAKEN], points=(4 * 52, 0, 0, 0), right=(0, 0, 0, 0),
             disputed=(0, 0, 0, 0), returned={3: "KS"}, unclaimed=52, players=4),
    # short pack: ace to ten, ten cards each; five seats set nothing aside
    Scenario("short pack, five seats", {4: "10S"}, [("10S", (4,)), ("AC", (1, 2, 3, 4))],
             [Pile.TAKEN, Pile.DISPUTED], points=(5 * 38, 5, 0, 0, 1),
             right=(0, 0, 0, 0, 1), disputed=(0, 1, 0, 0, 0), unclaimed=38, dispute_pile=1,
             preset="short-pack", players=5),
    # six players and the dealer, two jokers told apart by colour, nine cards each
    Scenario("jokers: the right one", {3: "JKR"}, [("JKR", (3,)), ("JKB", (3,))],
             [Pile.TAKEN, Pile.TAKEN], points=(7 * 53, 0, 0, 1, 0, 0, 0),
             right=(0, 0, 0, 1, 0, 0, 0), disputed=(0,) * 7, returned={3: "JKB"},
             unclaimed=53, preset="six-jokers", players=7),
]


@pytest.mark.parametrize("case", SCENARIOS, ids=str)
def test_scenario(case: Scenario) -> None:
    calls = " ".join(text for text, _ in case.calls)
    state = new_game(case.preset, case.players, {0: stack(case.hands, calls)})
    deal(state)
    for (text, claimants), pile in zip(case.calls, case.piles, strict=True):
        assert state.called == cards(text)[0]
        resolved = only(call(state, claimants), Resolved)
        assert resolved == Resolved(0, resolved.number, cards(text)[0], claimants, pile)
    events = finish_deal(state)
    scored = only(events, DealScored)
    assert (scored.points, scored.right, scored.disputed) == (case.points, case.right,
                                                              case.disputed)
    assert (scored.unclaimed, scored.dispute_pile) == (case.unclaimed, case.dispute_pile)
    returns = {e.seat: e.cards for e in events if isinstance(e, Returned)}
    assert returns == {s: cards(t) for s, t in case.returned.items()}
    assert scored.totals == case.points
    assert len(state.unclaimed) == case.unclaimed
    summary = state.outcome().final["deals"][0]
    assert summary["points"] == list(case.points)
    assert summary["returned"] == [len(cards(case.returned.get(s, "")))
                                   for s in range(case.players)]


def test_the_documented_example() -> None:
    state = new_game(stacks={0: stack({1: "7H 8H 2D", 2: "9C"}, "7H 8H 9C 2D")})
    deal(state)
    for claimants in [(1,), (2,), (1, 2), ()]:
        call(state, claimants)
    events = finish_deal(state, owners_claim)
    assert [e for e in events if isinstance(e, Returned)] == [Returned(2, cards("8H"))]
    scored = only(events, DealScored)
    assert scored.points == (6, 24, 28) and scored.right == (0, 24, 25)


def test_the_dealer_scores_p_for_each_unclaimed_card() -> None:
    state = new_game(players=4)
    deal(state)
    scored = only(finish_deal(state), DealScored)
    assert scored.points == (4 * 52, 0, 0, 0) and scored.unclaimed == 52


def test_a_perfect_table_leaves_the_dealer_only_the_set_aside_cards() -> None:
    state = new_game(players=4)  # 17 cards each, one set aside
    deal(state)
    scored = only(finish_deal(state, owners_claim), DealScored)
    assert scored.points == (4, 17, 17, 17)
    assert scored.right == (0, 17, 17, 17) and scored.unclaimed == 1


# -- scoring alone ------------------------------------------------------------------------------

def test_scoring_counts_rights_disputes_returns_and_the_dealers_pile() -> None:
    hands = [(), cards("AS 2S 3S"), cards("AH 2H")]
    score = score_deal(hands, received=[(), cards("AS 2H"), cards("KD")],
                       unclaimed=cards("3S"), disputed=cards("2S AH QC"), dealer=0)
    assert score.right == (0, 1, 0)
    assert score.disputed == (0, 1, 1)
    assert score.returned == ((), cards("2H"), cards("KD"))
    assert score.unclaimed == cards("3S 2H KD")
    assert score.points == (9, 1 + 3, 3)


# -- the rotation of the deal and the whole game -----------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_seat_deals_once_in_turn_and_totals_add_up(players: int) -> None:
    state = new_game(players=players, seed=7)
    dealers, totals = [], [0] * players
    while state.to_act():
        events = deal(state)
        started = only(events, DealStarted)
        dealers.append(started.seat)
        assert started.holders == tuple((len(dealers) - 1 + i) % players
                                        for i in range(1, players))
        assert set(state.to_act()) == set(started.holders)
        assert state.dealer not in state.to_act()
        end = finish_deal(state, owners_claim)
        scored = only(end, DealScored)
        totals = [t + p for t, p in zip(totals, scored.points, strict=True)]
        assert list(scored.totals) == totals
    assert dealers == list(range(players))
    assert isinstance(state.log[-1], GameOver)
    outcome = state.outcome()
    assert outcome.scores == tuple(float(t) for t in totals)
    assert outcome.order is ScoreOrder.HIGHER_WINS
    assert outcome.turns == players * 52
    assert [d["dealer"] for d in outcome.final["deals"]] == list(range(players))
    json.dumps(outcome.final)
    assert state.legal(0) == (Say.DEAL,) and state.phase is Phase.OVER


def test_the_second_deal_is_stacked_too_and_goes_to_seat_one() -> None:
    state = new_game(stacks={1: stack({0: "QD", 2: "2C"}, "QD 2C")})
    deal(state)
    finish_deal(state)
    assert state.to_act() == (1,)
    deal(state)
    assert state.dealer == 1 and state.to_act() == (0, 2)
    assert cards("QD")[0] in state.hands[0] and cards("2C")[0] in state.hands[2]
    assert only(call(state, (0,)), Resolved).pile is Pile.TAKEN
    assert only(call(state, (0, 2)), Resolved).pile is Pile.DISPUTED
    scored = only(finish_deal(state), DealScored)
    assert scored.points == (1, 3 * 50, 3) and scored.seat == 1


# -- what each seat may see ---------------------------------------------------------------------

def test_the_hand_is_shown_once_to_its_holder_alone() -> None:
    state = new_game(players=4)
    events = deal(state)
    hands = [e for e in events if isinstance(e, HandDealt)]
    assert [e.seat for e in hands] == [1, 2, 3]
    for event in hands:
        index = state.log.index(event)
        assert state.private[index] == frozenset({event.seat})
        assert event.seat is not None and event.cards == state.hands[event.seat]
        assert len(event.cards) == 17
    assert not any(isinstance(e, HandDealt) for e in state.seen_by(0, 0, len(state.log)))
    called = state.called
    assert called is not None
    # while the hand is shown (the first call) it counts as visible; then never again
    assert Counter(state.visible_cards(1)) == Counter((called, *state.hands[1]))
    call(state)
    assert Counter(state.visible_cards(1)) == Counter([called, state.called])


def test_views_hold_no_hand_and_are_the_same_for_everyone() -> None:
    state = new_game(players=3, stacks={0: stack({1: "7H"}, "2C 7H")})
    deal(state)
    call(state, (2,))
    view = state.view(1)
    assert view == state.view(2) == state.view(0)
    assert view.called == cards("7H")[0] and view.number == 2
    assert view.received == ((), (), cards("2C"))
    assert (view.deal, view.deals, view.dealer, view.players) == (0, 3, 0, 3)
    assert (view.hand_size, view.pack_size, view.phase) == (26, 52, Phase.CALL)
    shown = set(view.received[2]) | {view.called} | set(view.unclaimed) | set(view.disputed)
    assert shown == {*state.called_cards}


def test_between_deals_everything_turned_up_is_visible() -> None:
    state = new_game()
    deal(state)
    events = finish_deal(state)
    shown = only(events, HandsShown)
    assert shown.hands == tuple(state.hands) and shown.set_aside == ()
    assert Counter(state.visible_cards(2)) == Counter(pack_cards(Pack.FULL) * 2)
    assert state.view(1).phase is Phase.DEAL and state.view(1).called is None


@pytest.mark.parametrize(("preset", "players"), [("short-pack", 5), ("six-jokers", 7),
                                                  ("standard", 6)])
def test_random_play_at_large_tables_leaks_nothing_and_keeps_every_card(preset: str,
                                                                        players: int) -> None:
    state = new_game(preset, players, seed=3)
    start = Counter(state.inventory())
    rng = random.Random(3)
    steps = 0
    while seats := state.to_act():
        steps += 1
        for seat in range(players):
            public = set(state.called_cards)
            view = state.view(seat)
            in_view = {*view.unclaimed, *view.disputed, *(c for r in view.received for c in r)}
            assert in_view <= public and (view.called is None or view.called in public)
        mark = len(state.log)
        state.apply_joint({s: rng.choice(state.legal(s)) for s in seats})
        for seat in range(players):
            for event in state.seen_by(seat, mark, len(state.log)):
                assert not isinstance(event, HandDealt) or event.seat == seat
    assert Counter(state.inventory()) == start
    assert steps == players * (1 + len(state.pack))


# -- variants -----------------------------------------------------------------------------------

def test_presets_and_their_packs() -> None:
    assert set(PRESETS) == {"standard", "short-pack", "six-jokers"}
    assert params_of("standard").players_allowed() == range(3, 8)
    assert params_of("short-pack").players_allowed() == range(3, 6)
    assert params_of("six-jokers").players_allowed() == range(3, 8)
    short = pack_cards(Pack.SHORT)
    assert len(short) == 40 and not any(c.rank > 10 for c in short)
    jokers = pack_cards(Pack.JOKERS)
    assert len(jokers) == 54 and sum(c.is_joker for c in jokers) == 2
    assert [params_of("standard").hand_size(n) for n in (3, 4, 5, 7)] == [26, 17, 13, 8]
    assert params_of("short-pack").hand_size(3) == 10


@pytest.mark.parametrize(("preset", "players", "aside"), [
    ("short-pack", 5, 0), ("short-pack", 3, 20), ("six-jokers", 7, 0), ("six-jokers", 4, 27),
    ("standard", 4, 1), ("standard", 3, 0)])
def test_cards_set_aside(preset: str, players: int, aside: int) -> None:
    state = new_game(preset, players)
    started = only(deal(state), DealStarted)
    assert started.set_aside == aside == len(state.set_aside)
    assert len(state.to_call) + 1 == started.pack_size


def test_a_short_pack_has_no_court_cards_to_stack() -> None:
    with pytest.raises(ValueError, match="KH"):
        deal(new_game("short-pack", 5, {0: stack({1: "KH"})}))


@pytest.mark.parametrize(("overrides", "message"), [
    ({"hand": "-1"}, "hand must be 0"),
    ({"hand": "27"}, "hand=27 is too large"),
    ({"pack": "tiny"}, "'pack'"),
])
def test_bad_parameters_are_rejected_naming_them(overrides: dict[str, str],
                                                 message: str) -> None:
    with pytest.raises(VariantError, match=message):
        GAME.variant("standard", overrides)


def test_a_hand_size_limits_the_table() -> None:
    params = params_of("standard", {"hand": "13"})
    assert params.players_allowed() == range(3, 6)
    with pytest.raises(PlayersError):
        MemorandumState(params, 6, random.Random(0))
    with pytest.raises(PlayersError):
        new_game(players=2)


@pytest.mark.parametrize(("hands", "calls", "message"), [
    ({0: "7H"}, "", "seat 0 deals"),
    ({1: "7H 7H"}, "", "no longer"),
    ({}, "7H 7H", "no longer"),
])
def test_stacks_that_do_not_fit_are_refused(hands: dict[int, str], calls: str,
                                            message: str) -> None:
    with pytest.raises(ValueError, match=message):
        deal(new_game(stacks={0: stack(hands, calls)}))


# -- spectators ---------------------------------------------------------------------------------

def test_narration_fits_80_columns_and_shows_hands_only_at_the_end() -> None:
    lines: list[str] = []
    names = ["a-rather-long-bot-name", "bob", "carol", "dave"]
    play_game(GAME.variant("standard"), [RandomBot() for _ in names], names, 5,
              ShowPrinter(lines.append))
    assert all(len(line) <= 80 for line in lines)
    assert sum(line.startswith("Deal ") for line in lines) == 4
    assert sum("the hands are shown" in line for line in lines) == 4
    assert lines[-1].startswith("Game over:")
    state = new_game(players=4)
    hands = [e for e in deal(state) if isinstance(e, HandDealt)]
    assert hands and all(state.narrate(hand, names) == [] for hand in hands)
    assert state.narrate(Called(0, 1, cards("7H")[0]), names) == []
    assert any("Mine! from bob, carol -> dispute pile" in line
               for line in state.narrate(Resolved(0, 3, cards("7H")[0], (1, 2),
                                                  Pile.DISPUTED), names))
