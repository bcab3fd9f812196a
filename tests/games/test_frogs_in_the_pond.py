"""Frogs in the Pond scenarios on stacked deals: following suit, the trick's winner, the frogs and
who sees them, card points and the tadpole, partnerships, the deal at every table size, the
rotation of the deal, the end of the game, and every ruling."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import pytest

from arena.api import Event
from arena.cards import Card, parse_card, parse_cards, standard_deck
from arena.engine import ScoreOrder, find_game
from arena.errors import PlayersError, VariantError
from arena.games.frogs_in_the_pond import (
    PRESETS,
    DealScored,
    DealShown,
    DealStarted,
    End,
    FrogSeen,
    FrogsParams,
    FrogsState,
    FrogTaken,
    GameOver,
    HandDealt,
    Phase,
    Played,
    Say,
    Stack,
    TrickWon,
    game_end,
    pack_points,
    playable,
    winning_play,
    winning_seats,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("frogs-in-the-pond")

E = TypeVar("E", bound=Event)


def params_of(preset: str = "standard", overrides: Mapping[str, str] | None = None
              ) -> FrogsParams:
    """The resolved parameters of a preset."""
    params = GAME.variant(preset, overrides).params
    assert isinstance(params, FrogsParams)
    return params


def card(text: str) -> Card:
    """One card from its short form."""
    return parse_card(text)


def new_game(preset: str = "standard", players: int = 4,
             stacks: Mapping[int, Stack] | None = None, seed: int = 0,
             overrides: Mapping[str, str] | None = None) -> FrogsState:
    """A game of a preset with deals prearranged by number."""
    return FrogsState(params_of(preset, overrides), players, random.Random(seed), stacks)


def stack(hands: Mapping[int, str], frogs: str = "") -> Stack:
    """A Stack from short card texts."""
    return Stack({s: parse_cards(t) for s, t in hands.items()}, parse_cards(frogs))


def deal(state: FrogsState) -> list[Event]:
    """The dealer deals; the new events."""
    mark = len(state.log)
    (dealer,) = state.to_act()
    assert state.legal(dealer) == (Say.DEAL,)
    state.apply(dealer, Say.DEAL)
    return state.log[mark:]


def play(state: FrogsState, *texts: str) -> list[Event]:
    """The seats to act play these cards in turn ('KS 2S', ...), each checked legal; the new
    events."""
    mark = len(state.log)
    for played in parse_cards(" ".join(texts)):
        (seat,) = state.to_act()
        assert played in state.legal(seat), f"{played} is not legal for seat {seat}"
        state.apply(seat, played)
    return state.log[mark:]


def finish_deal(state: FrogsState) -> list[Event]:
    """Play out the deal, every seat playing its first legal card; the new events."""
    mark = len(state.log)
    while state.phase is Phase.PLAY:
        (seat,) = state.to_act()
        state.apply(seat, state.legal(seat)[0])
    return state.log[mark:]


def only(events: Sequence[Event], kind: type[E]) -> E:
    """The one event of a type."""
    (found,) = [e for e in events if isinstance(e, kind)]
    return found


def every(events: Sequence[Event], kind: type[E]) -> list[E]:
    """The events of a type, in order."""
    return [e for e in events if isinstance(e, kind)]


# The four-player deal of the scenario table (2C and 2D out of play): seat 0 deals, seat 1 leads.
BASE_4 = stack({
    0: "AS 10S 5S 3S AH 4H 10C 6C KD 3D",
    1: "KS 9S 4S 10H 5H 2H AC 7C AD 9D",
    2: "QS 8S 2S KH 9H 8H KC 5C 10D 8D",
    3: "JS 7S 6S QH JH 7H 6H QC 4C 5D",
}, frogs="QD 3H JD 4D 6D 7D 3C 8C 9C JC")


@dataclass(frozen=True)
class Scenario:
    """The first tricks of deal 0 (seat 0 deals) on a stacked deal, played as scripted; expected:
    each trick's winner and points, and the frog each winner takes."""

    name: str
    tricks: Sequence[str]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    frogs: str
    preset: str = "standard"
    players: int = 4
    deck: Stack = BASE_4
    legal: Mapping[int, str] = field(default_factory=dict)  # trick number -> legal of its 2nd

    def __str__(self) -> str:
        return self.name


SCENARIOS = [
    Scenario("the ace is high", ["KS 2S 7S AS"], (0,), (7,), "QD"),
    Scenario("the highest card of the suit led wins", ["4S 8S 6S 5S"], (2,), (5,), "QD",
             legal={1: "2S 8S QS"}),
    Scenario("a card off the suit led never wins; the winner leads the next trick",
             ["AD 8D 5D 3D", "9D 10D QH KD"], (1, 0), (9, 15), "QD 3H",
             legal={1: "8D 10D", 2: "10D"}),
    Scenario("a player void in the suit led may play any card",
             ["AD 8D 5D 3D", "9D 10D 4C KD"], (1, 0), (9, 13), "QD 3H"),
    Scenario("tens 10, fives 5, aces 4, kings 3, queens 2, jacks 1", ["2H KH QH AH",
             "10S 4S QS JS"], (0, 2), (9, 13), "QD 3H"),
    Scenario("the tadpole counts minus 10 (and still ranks as a jack)", ["4S QS JS 3S"], (2,),
             (-8,), "QD", preset="tadpole"),
    Scenario("without the tadpole the jack of spades counts 1", ["4S QS JS 3S"], (2,), (3,),
             "QD"),
    Scenario("two players: 17 cards each, the winner takes a frog",
             ["KH AH", "AC 2H"], (0, 0), (7, 4), "5S 6S", players=2,
             deck=stack({0: "AH AC", 1: "KH"}, "5S 6S"), legal={1: "AH"}),
    Scenario("three players: the whole pack", ["KH 2H AH"], (0,), (7,), "5S", players=3,
             deck=stack({0: "AH", 1: "KH", 2: "2H"}, "5S")),
    Scenario("five players: eight cards each", ["KH QH JH 10H AH"], (0,), (20,), "5S",
             players=5, deck=stack({0: "AH", 1: "KH", 2: "QH", 3: "JH", 4: "10H"}, "5S"),
             legal={1: "QH"}),
]


@pytest.mark.parametrize("case", SCENARIOS, ids=str)
def test_scenario(case: Scenario) -> None:
    state = new_game(case.preset, case.players, {0: case.deck})
    started = only(deal(state), DealStarted)
    assert started.seat == 0 and started.leader == 1 % case.players
    for number, (trick, winner, points, frog) in enumerate(
            zip(case.tricks, case.winners, case.points, parse_cards(case.frogs),
                strict=True), 1):
        texts = trick.split()
        events = play(state, texts[0])
        if number in case.legal:
            (second,) = state.to_act()
            assert state.legal(second) == parse_cards(case.legal[number])
        events += play(state, *texts[1:])
        won = only(events, TrickWon)
        assert (won.seat, won.number, won.points) == (winner, number, points)
        assert won.cards == parse_cards(trick)
        assert only(events, FrogSeen) == FrogSeen(winner, number, frog)
        assert frog in state.frogs[winner]
        if state.phase is Phase.PLAY:
            assert state.to_act() == (winner,) and state.leader == winner
    end = finish_deal(state)
    scored = only(end, DealScored)
    assert sum(scored.points) == pack_points(state.pack, state.params)


def test_the_trick_winner_is_the_highest_card_of_the_suit_led() -> None:
    plays = [(1, card("9D")), (2, card("10D")), (3, card("AH")), (0, card("KD"))]
    assert winning_play(plays) == (0, card("KD"))
    assert winning_play([(2, card("2C")), (3, card("AS"))]) == (2, card("2C"))


def test_follow_suit_if_able_else_any_card() -> None:
    hand = parse_cards("3C 9C AH 10S")
    assert playable(hand, None) == hand
    assert playable(hand, card("5C").suit) == parse_cards("3C 9C")
    assert playable(hand, card("5D").suit) == hand


# -- the ruling on revokes: the engine offers only legal plays ---------------------------------

def test_a_revoke_cannot_happen() -> None:
    state = new_game(stacks={0: BASE_4})
    deal(state)
    play(state, "KS")
    assert card("KH") not in state.legal(2)
    with pytest.raises(ValueError, match="cannot"):
        state.apply(2, card("KH"))
    with pytest.raises(ValueError, match="cannot"):
        state.apply(3, card("7S"))  # not seat 3's turn
    assert state.trick == [(1, card("KS"))]


# -- the deal at every table size ---------------------------------------------------------------

@pytest.mark.parametrize(("players", "size", "removed"), [
    (2, 17, "2C"), (3, 13, ""), (4, 10, "2C 2D"), (5, 8, "2C 2D 2H 2S")])
def test_the_deal_by_table_size(players: int, size: int, removed: str) -> None:
    state = new_game(players=players, seed=players)
    assert Counter(state.inventory()) == Counter(standard_deck())
    events = deal(state)
    started = only(events, DealStarted)
    assert (started.hand_size, started.removed) == (size, parse_cards(removed))
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.pond) == size
    in_play = [c for h in state.hands for c in h] + state.pond
    assert len(set(in_play)) == 52 - len(started.removed) == (players + 1) * size
    assert not set(in_play) & set(started.removed)
    assert Counter(state.inventory()) == Counter(standard_deck())
    hands = every(events, HandDealt)
    assert [h.seat for h in hands] == list(range(players))
    assert all(h.cards == tuple(state.hands[h.seat]) for h in hands if h.seat is not None)


@pytest.mark.parametrize(("preset", "total"), [("standard", 100), ("tadpole", 89)])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_card_points_of_every_deal_add_up_to_the_pack(preset: str, total: int,
                                                          players: int) -> None:
    state = new_game(preset, players, seed=11)
    assert pack_points(state.pack, state.params) == total
    rng = random.Random(players)
    totals = [0] * len(state.sides)
    deals = 0
    while seats := state.to_act():
        mark = len(state.log)
        state.apply(seats[0], rng.choice(state.legal(seats[0])))
        for scored in every(state.log[mark:], DealScored):
            deals += 1
            assert sum(scored.points) == total
            totals = [t + sum(scored.points[s] for s in side)
                      for t, side in zip(totals, state.sides, strict=True)]
            assert all(scored.totals[s] == totals[i]
                       for i, side in enumerate(state.sides) for s in side)
    assert deals == len(state.summaries) >= 1
    assert Counter(state.inventory()) == Counter(standard_deck())


def test_frogs_are_dealt_as_a_pile_taken_from_the_top() -> None:
    state = new_game(stacks={0: BASE_4})
    deal(state)
    assert state.pond[-1] == card("QD") and state.pond[0] == card("JC")
    play(state, "KS 2S 7S AS")
    assert len(state.pond) == 9 and state.frogs[0] == [card("QD")]


# -- who sees the frogs -------------------------------------------------------------------------

def test_the_frog_is_seen_by_its_taker_alone_not_even_the_partner() -> None:
    state = new_game(stacks={0: BASE_4})
    deal(state)
    events = play(state, "KS 2S 7S AS")
    taken = only(events, FrogTaken)
    assert taken == FrogTaken(0, 1, 9)
    seen = only(events, FrogSeen)
    index = state.log.index(seen)
    assert state.private[index] == frozenset({0})
    for seat in (1, 2, 3):  # the partner (seat 2) included
        visible = state.seen_by(seat, 0, len(state.log))
        assert not any(isinstance(e, FrogSeen) for e in visible)
        assert card("QD") not in state.visible_cards(seat)
        assert state.view(seat).frogs == () and state.view(seat).frogs_left == 9
    assert state.view(0).frogs == (card("QD"),)
    assert card("QD") in state.visible_cards(0)


def test_every_frog_is_shown_when_the_deal_ends() -> None:
    state = new_game(stacks={0: BASE_4})
    deal(state)
    events = finish_deal(state)
    shown = only(events, DealShown)
    assert shown.frogs == tuple(tuple(f) for f in state.frogs)
    assert Counter(c for f in shown.frogs for c in f) == Counter(
        parse_cards("QD 3H JD 4D 6D 7D 3C 8C 9C JC"))
    assert state.private.keys().isdisjoint({state.log.index(shown)})
    for seat in range(4):
        assert Counter(state.visible_cards(seat)) == Counter(standard_deck())
    scored = only(events, DealScored)
    won = [list(w) + list(f) for w, f in zip(shown.won, shown.frogs, strict=True)]
    assert scored.points == tuple(pack_points(w, state.params) for w in won)


def test_views_hold_the_own_hand_the_trick_and_the_last_trick_only() -> None:
    state = new_game(stacks={0: BASE_4})
    deal(state)
    play(state, "KS 2S 7S AS", "10S")
    view = state.view(1)
    assert view.hand == tuple(state.hands[1]) and view.phase is Phase.PLAY
    assert view.trick == ((0, card("10S")),) and view.leader == 0 and view.number == 2
    assert view.last_trick == ((1, card("KS")), (2, card("2S")), (3, card("7S")),
                               (0, card("AS")))
    assert view.last_winner == 0 and view.tricks_won == (1, 0, 0, 0)
    assert view.sides == ((0, 2), (1, 3)) and view.removed == parse_cards("2C 2D")
    assert set(state.visible_cards(1)) == {*state.hands[1], card("10S"), card("KS"),
                                           card("2S"), card("7S"), card("AS"), card("2C"),
                                           card("2D")}
    assert not set(state.hands[2]) & set(state.visible_cards(1))


# -- partnerships, the rotation of the deal, the end --------------------------------------------

def test_partners_share_their_sides_score_and_are_rated_as_a_team() -> None:
    state = new_game(stacks={0: BASE_4}, overrides={"target": "1"})
    deal(state)
    scored = only(finish_deal(state), DealScored)
    side_a = scored.points[0] + scored.points[2]
    side_b = scored.points[1] + scored.points[3]
    assert scored.totals == (side_a, side_b, side_a, side_b)
    outcome = state.outcome()
    assert outcome.teams == ((0, 2), (1, 3))
    assert outcome.scores == tuple(float(t) for t in scored.totals)
    assert outcome.order is ScoreOrder.HIGHER_WINS
    assert outcome.final["sides"] == [[0, 2], [1, 3]]
    assert state.phase is Phase.OVER and outcome.final["end"] == "target"
    winners = (0, 2) if side_a > side_b else (1, 3)
    assert only(state.log, GameOver).winners == winners == tuple(outcome.final["winners"])
    json.dumps(outcome.final)


@pytest.mark.parametrize(("preset", "players"), [("four-individual", 4), ("standard", 3),
                                                  ("standard", 5), ("standard", 2)])
def test_everyone_plays_alone_otherwise(preset: str, players: int) -> None:
    state = new_game(preset, players, overrides={"target": "1"})
    deal(state)
    scored = only(finish_deal(state), DealScored)
    assert scored.totals == scored.points
    assert state.sides == tuple((s,) for s in range(players))
    assert state.outcome().teams is None


def test_the_deal_passes_left_and_the_player_left_of_the_dealer_leads() -> None:
    state = new_game(overrides={"target": "1000", "max-deals": "5"}, seed=4)
    dealers, leaders = [], []
    while state.to_act():
        started = only(deal(state), DealStarted)
        dealers.append(started.seat)
        leaders.append(started.leader)
        assert state.to_act() == (started.leader,)
        finish_deal(state)
    assert dealers == [0, 1, 2, 3, 0] and leaders == [1, 2, 3, 0, 1]
    assert state.outcome().final["end"] == "deal-limit"
    assert [d["dealer"] for d in state.outcome().final["deals"]] == dealers


def test_the_game_goes_on_until_a_side_reaches_the_target() -> None:
    state = new_game(seed=2)
    totals = []
    while state.to_act():
        deal(state)
        totals.append(only(finish_deal(state), DealScored).totals)
    assert all(max(t) < 100 for t in totals[:-1]) and max(totals[-1]) >= 100
    over = only(state.log, GameOver)
    assert over.reason is End.TARGET and over.totals == totals[-1]
    assert state.legal(0) == (Say.DEAL,) and state.to_act() == ()
    assert state.outcome().turns == 40 * len(totals)


@pytest.mark.parametrize(("totals", "deals", "end"), [
    ((99, 98), 1, None),
    ((100, 60), 2, End.TARGET),
    ((120, 110), 2, End.TARGET),  # both over: the higher wins
    ((110, 110), 2, None),  # tied for the lead over the target: another deal
    ((110, 110, 40), 30, End.DEAL_LIMIT),
    ((50, 20), 30, End.DEAL_LIMIT),
])
def test_when_the_game_ends(totals: tuple[int, ...], deals: int, end: End | None) -> None:
    assert game_end(totals, 100, deals, 30) is end


def test_sides_tied_for_the_lead_share_the_win() -> None:
    assert winning_seats((40, 40, 10), ((0,), (1,), (2,))) == (0, 1)
    assert winning_seats((60, 60), ((0, 2), (1, 3))) == (0, 1, 2, 3)
    assert winning_seats((61, 60), ((0, 2), (1, 3))) == (0, 2)


def test_the_deal_limit_ends_the_game() -> None:
    state = new_game("four-individual", overrides={"target": "1000", "max-deals": "1"},
                     stacks={0: BASE_4})
    deal(state)
    over = only(finish_deal(state), GameOver)
    assert over.reason is End.DEAL_LIMIT and state.to_act() == ()
    assert over.winners == winning_seats(over.totals, state.sides)


# -- variants and stacks ------------------------------------------------------------------------

def test_presets() -> None:
    assert set(PRESETS) == {"standard", "tadpole", "four-individual"}
    assert all(p.players_allowed() == range(2, 6) for p in PRESETS.values())
    assert params_of("tadpole").points(card("JS")) == -10
    assert params_of("tadpole").points(card("JH")) == 1
    assert [params_of().points(c) for c in parse_cards("10C 5D AH KS QC JD 9H 2S")] == [
        10, 5, 4, 3, 2, 1, 0, 0]
    assert params_of("four-individual").sides(4) == ((0,), (1,), (2,), (3,))


@pytest.mark.parametrize(("overrides", "message"), [
    ({"target": "0"}, "target must be 1"),
    ({"max-deals": "0"}, "max-deals must be 1"),
    ({"partners": "maybe"}, "'partners'"),
])
def test_bad_parameters_are_rejected_naming_them(overrides: dict[str, str],
                                                 message: str) -> None:
    with pytest.raises(VariantError, match=message):
        GAME.variant("standard", overrides)


def test_one_or_six_players_are_refused() -> None:
    for players in (1, 6):
        with pytest.raises(PlayersError):
            new_game(players=players)


@pytest.mark.parametrize(("hands", "frogs", "message"), [
    ({0: "2C"}, "", "no longer"),
    ({1: "7H 7H"}, "", "no longer"),
    ({4: "7H"}, "", "seat 4"),
    ({0: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S"}, "", "hands hold 10"),
    ({}, "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S", "the pile holds 10"),
])
def test_stacks_that_do_not_fit_are_refused(hands: dict[int, str], frogs: str,
                                            message: str) -> None:
    with pytest.raises(ValueError, match=message):
        deal(new_game(stacks={0: stack(hands, frogs)}))


# -- spectators ---------------------------------------------------------------------------------

def test_narration_fits_80_columns_and_hides_hands_and_frogs() -> None:
    lines: list[str] = []
    names = ["a-rather-long-bot-name", "bob", "carol", "dave"]
    record = play_game(GAME.variant("tadpole"), [RandomBot() for _ in names], names, 5,
                       ShowPrinter(lines.append))
    assert all(len(line) <= 80 for line in lines)
    deals = len(record.final["deals"])
    assert sum(line.startswith("Deal ") for line in lines) == deals
    assert sum("the frogs are shown" in line for line in lines) == deals
    assert lines[-1].startswith("Game over:") and "tadpole" in "".join(lines[:4])
    state = new_game(stacks={0: BASE_4})
    private = [e for e in deal(state) + play(state, "KS 2S 7S AS")
               if isinstance(e, HandDealt | FrogSeen | Played | FrogTaken)]
    assert private and all(state.narrate(e, names) == [] for e in private)
    short = ["ann", "bob", "carol", "dave"]
    assert state.narrate(only(state.log, TrickWon), short) == [
        "   1. bob KS, carol 2S, dave 7S, ann AS -> ann (+7 and a frog)"]
