"""Animals scenarios on stacked tables: faces, right and wrong calls, the race and its lot,
penalties, who leads, turning the pile over, leaving, the end and the length limit, what each
seat may see, the names variant and the narration."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from arena.api import Event
from arena.cards import Card, parse_cards, standard_deck
from arena.engine import ScoreOrder, find_game
from arena.errors import PlayersError, VariantError
from arena.games.animals import (
    PRESETS,
    QUIET,
    AnimalsParams,
    AnimalsState,
    Called,
    CallStyle,
    Dealt,
    End,
    Faced,
    GameOver,
    Left,
    Paid,
    Source,
    Stack,
    Took,
    TurnedOver,
    Verdict,
    call,
    deal_round,
    partners,
    settle,
    spoken,
)
from arena.match import deal_rng, play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("animals")
W, B, X = Verdict.WON, Verdict.BEATEN, Verdict.WRONG


def params_of(preset: str = "standard", overrides: Mapping[str, str] | None = None
              ) -> AnimalsParams:
    """The resolved parameters of a preset."""
    params = GAME.variant(preset, overrides).params
    assert isinstance(params, AnimalsParams)
    return params


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their short forms: '7H QS'."""
    return parse_cards(text)


def new_game(packs: Mapping[int, str], piles: Mapping[int, str] | None = None, first: int = 0,
             players: int = 3, seed: int = 0, limit: int | None = None) -> AnimalsState:
    """A stacked game: packs listed top card first, up-piles bottom card first."""
    overrides = {"limit": str(limit)} if limit is not None else None
    return AnimalsState(params_of("standard", overrides), players, random.Random(seed),
                        Stack(packs, piles or {}, first))


def answer(state: AnimalsState, calls: Mapping[int, int] | None = None) -> list[Event]:
    """One round of calls: `calls` maps callers to the seat they name, the rest keep quiet."""
    mark = len(state.log)
    named = dict(calls or {})
    state.apply_joint({s: call(named[s]) if s in named else QUIET for s in state.to_act()})
    return state.log[mark:]


def piles_of(state: AnimalsState) -> dict[int, str]:
    """Every seat's up-pile, bottom card first, as text."""
    return {s: " ".join(map(str, pile)) for s, pile in enumerate(state.piles)}


def packs_of(state: AnimalsState) -> dict[int, str]:
    """Every seat's pack, top card first, as text."""
    return {s: " ".join(map(str, reversed(pack))) for s, pack in enumerate(state.packs)}


def every_seat(given: Mapping[int, str], players: int = 3) -> dict[int, str]:
    """`given` with an empty text for every seat not named."""
    return {s: given.get(s, "") for s in range(players)}


# -- the scenario table: one round of calls on a stacked table ---------------------------------

@dataclass(frozen=True)
class Scenario:
    """Seat `first` faces the top card of its pack; then `calls` are made (caller -> named), the
    others keep quiet. Expected: the verdicts (callers clockwise from the facer), then the table
    once the next card is faced by `leads` (None: the game is over): up-piles bottom card first,
    packs top card first, and the places of players who left."""

    name: str
    packs: Mapping[int, str]
    piles: Mapping[int, str]
    calls: Mapping[int, int]
    verdicts: tuple[tuple[int, int, Verdict], ...]
    after_piles: Mapping[int, str]
    after_packs: Mapping[int, str]
    leads: int | None
    left: Mapping[int, int] = field(default_factory=dict)
    seed: int = 0

    def __str__(self) -> str:
        return self.name


TABLE = {0: "7H 2C", 1: "3D 4D", 2: "5S"}  # seat 0 faces 7H
SCENARIOS = [
    Scenario("no calls: the next player to the left faces", {0: "7H", 1: "8D", 2: "9C"}, {},
             {}, (), {0: "7H", 1: "8D"}, {2: "9C"}, leads=1),
    Scenario("a right call takes the named up-pile under the caller's", TABLE,
             {1: "9S 7C", 2: "KD"}, {0: 1}, ((0, 1, W),),
             {0: "9S 7C 7H", 1: "3D", 2: "KD"}, {0: "2C", 1: "4D", 2: "5S"}, leads=1),
    Scenario("the matched player may call the facer: the facer loses and leads", TABLE,
             {1: "9S 7C", 2: "KD"}, {1: 0}, ((1, 0, W),),
             {0: "2C", 1: "7H 9S 7C", 2: "KD"}, {1: "3D 4D", 2: "5S"}, leads=0),
    Scenario("both call each other: the lot picks the facer (seed 1)", TABLE,
             {1: "9S 7C", 2: "KD"}, {0: 1, 1: 0}, ((0, 1, W), (1, 0, B)),
             {0: "9S 7C 7H", 1: "3D", 2: "KD"}, {0: "2C", 1: "4D", 2: "5S"}, leads=1, seed=1),
    Scenario("both call each other: the lot picks the other (seed 0)", TABLE,
             {1: "9S 7C", 2: "KD"}, {0: 1, 1: 0}, ((0, 1, B), (1, 0, W)),
             {0: "2C", 1: "7H 9S 7C", 2: "KD"}, {1: "3D 4D", 2: "5S"}, leads=0, seed=0),
    Scenario("a call at the wrong time pays the top of the up-pile to the named player",
             TABLE, {1: "9S 8C", 2: "KD"}, {2: 1}, ((2, 1, X),),
             {0: "7H", 1: "KD 9S 8C", 2: "5S"}, {0: "2C", 1: "3D 4D"}, leads=2),
    Scenario("with no up-pile the penalty is the top of the pack",
             {0: "7H", 1: "3D", 2: "5S 6S"}, {1: "8C"}, {2: 0}, ((2, 0, X),),
             {0: "5S 7H", 1: "8C", 2: "6S"}, {1: "3D"}, leads=2),
    Scenario("naming the wrong animal while holding a match is wrong", TABLE,
             {1: "7C", 2: "KD"}, {0: 2}, ((0, 2, X),),
             {0: "2C", 1: "7C", 2: "7H KD"}, {1: "3D 4D", 2: "5S"}, leads=0),
    Scenario("a third player cannot call a match between two others", TABLE,
             {1: "7C", 2: "KD"}, {2: 0}, ((2, 0, X),),
             {0: "KD 7H", 1: "7C", 2: "5S"}, {0: "2C", 1: "3D 4D"}, leads=2),
    Scenario("a penalty paid to the race's loser goes with its pile", TABLE,
             {1: "9S 7C", 2: "KD"}, {0: 1, 2: 1}, ((0, 1, W), (2, 1, X)),
             {0: "KD 9S 7C 7H", 1: "3D", 2: ""}, {0: "2C", 1: "4D", 2: "5S"}, leads=1),
    Scenario("the race's loser pays its wrong call first, then loses the rest", TABLE,
             {1: "9S 7C", 2: "KD"}, {0: 1, 1: 2}, ((0, 1, W), (1, 2, X)),
             {0: "9S 7H", 1: "3D", 2: "7C KD"}, {0: "2C", 1: "4D", 2: "5S"}, leads=1),
    Scenario("a match nobody called stays callable", {0: "2H 3H", 1: "3D", 2: "5S"},
             {1: "7C", 2: "7D"}, {2: 1}, ((2, 1, W),),
             {0: "2H", 1: "3D", 2: "7C 7D"}, {0: "3H", 2: "5S"}, leads=1),
    Scenario("a card matching two players: the caller names either", TABLE,
             {1: "7C", 2: "7D"}, {0: 2}, ((0, 2, W),),
             {0: "7D 7H", 1: "7C", 2: "5S"}, {0: "2C", 1: "3D 4D"}, leads=2),
    Scenario("a player whose last cards are taken leaves; the lead passes to its left",
             {0: "7H 2C", 2: "5S"}, {1: "7C"}, {0: 1}, ((0, 1, W),),
             {0: "7C 7H", 1: "", 2: "5S"}, {0: "2C"}, leads=2, left={1: 3}),
    Scenario("an empty pack is refilled by turning the up-pile over",
             {0: "7H", 2: "9C"}, {1: "AD 2D 3D"}, {}, (),
             {0: "7H", 1: "AD"}, {1: "2D 3D", 2: "9C"}, leads=1),
    Scenario("the player who takes all the cards wins; players leaving together share a place",
             {0: "7H"}, {1: "7C", 2: "9D"}, {0: 1, 2: 0}, ((0, 1, W), (2, 0, X)),
             {0: "7C 9D 7H"}, {}, leads=None, left={1: 2, 2: 2}),
]


@pytest.mark.parametrize("case", SCENARIOS, ids=str)
def test_scenario(case: Scenario) -> None:
    state = new_game(case.packs, case.piles, seed=case.seed)
    start = Counter(state.inventory())
    assert state.facer == 0 and state.to_act() == (0, 1, 2)
    events = answer(state, case.calls)
    verdicts = tuple((e.seat, e.named, e.verdict) for e in events if isinstance(e, Called))
    assert verdicts == case.verdicts
    assert piles_of(state) == every_seat(case.after_piles)
    assert packs_of(state) == every_seat(case.after_packs)
    assert {s: p for s, p in enumerate(state.places) if p is not None} == case.left
    assert [(e.seat, e.place) for e in events if isinstance(e, Left)] == sorted(case.left.items())
    if case.leads is None:
        assert state.to_act() == () and isinstance(events[-1], GameOver)
    else:
        faced = events[-1]
        assert isinstance(faced, Faced) and faced.seat == case.leads == state.facer
        assert faced.number == 2 and faced.card == state.piles[case.leads][-1]
        assert state.to_act() == tuple(s for s in range(3) if state.places[s] is None)
    assert Counter(state.inventory()) == start


def test_events_of_a_round_come_in_order_calls_penalties_race_face() -> None:
    state = new_game(TABLE, {1: "9S 7C", 2: "KD"})
    events = answer(state, {0: 1, 2: 1})
    assert events == [Called(0, 1, W), Called(2, 1, X), Paid(2, 1, Source.PILE),
                      Took(0, 1, 3), Faced(1, 2, cards("3D")[0])]


# -- the lot between right calls ---------------------------------------------------------------

def test_settling_draws_a_lot_only_between_two_or_more_right_calls() -> None:
    tops = cards("7H 7C KD")
    rng = random.Random(5)
    before = rng.getstate()
    single = settle(tops, {0: 1, 2: 0}, facer=0, rng=rng)
    assert rng.getstate() == before  # one right call: no draw
    assert single.race == (0, 1) and single.penalties == ((2, 0),) and single.leader == 1
    assert settle(tops, {2: 1}, 0, rng).leader == 2  # only a wrong call: its caller leads
    assert settle(tops, {}, 0, rng).leader is None


def test_the_lot_is_fair_and_reproducible_from_the_deal_seed() -> None:
    tops = cards("7H 7C 7D")
    calls = {0: 1, 1: 2, 2: 0}
    winners = [settle(tops, calls, 0, random.Random(seed)).race for seed in range(300)]
    assert winners == [settle(tops, calls, 0, random.Random(s)).race for s in range(300)]
    counts = Counter(w[0] for w in winners if w is not None)
    assert set(counts) == {0, 1, 2} and min(counts.values()) > 70
    result = settle(tops, calls, 1, random.Random(3))  # callers listed from the facer round
    assert [v[0] for v in result.verdicts] == [1, 2, 0]
    assert Counter(v[2] for v in result.verdicts) == Counter([W, B, B])


def test_the_same_deal_seed_settles_the_same_race_the_same_way() -> None:
    for seed in range(6):
        outcomes = set()
        for _ in range(2):
            state = new_game(TABLE, {1: "9S 7C", 2: "KD"}, seed=seed)
            outcomes.add(tuple(answer(state, {0: 1, 1: 0})))
        assert len(outcomes) == 1


# -- the deal ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "sizes"), [
    (3, (18, 17, 17)), (4, (13,) * 4), (5, (11, 11, 10, 10, 10)), (6, (9, 9, 9, 9, 8, 8))])
def test_the_whole_pack_is_dealt_one_at_a_time_from_the_dealers_left(
        players: int, sizes: tuple[int, ...]) -> None:
    state = AnimalsState(params_of(), players, deal_rng(11))
    dealt = state.log[0]
    assert isinstance(dealt, Dealt) and dealt.seat == players - 1 == state.dealer
    assert dealt.cards == sizes
    assert dealt.animals == ("Dog", "Cat", "Cow", "Lion", "Duck", "Pig")[:players]
    shuffled = standard_deck()
    deal_rng(11).shuffle(shuffled)
    packs = deal_round(shuffled, players)
    faced = state.log[1]
    assert isinstance(faced, Faced) and faced.seat == 0 and faced.number == 1
    assert faced.card == packs[0][-1] == shuffled[(sizes[0] - 1) * players]
    assert state.packs[0] == list(packs[0][:-1]) and state.piles[0] == [faced.card]
    assert Counter(state.inventory()) == Counter(standard_deck())


def test_stacks_name_seats_at_the_table_only() -> None:
    with pytest.raises(ValueError, match="seat 3 is not at a table of 3"):
        new_game({3: "7H"})


# -- who may act and what they may do ------------------------------------------------------------

def test_players_still_in_decide_at_once_and_call_only_players_still_in() -> None:
    state = new_game({0: "7H 2C", 1: "8D", 3: "9C"}, {2: "7C"}, players=4)
    assert state.to_act() == (0, 1, 2, 3)
    assert state.legal(1) == (QUIET, call(0), call(2), call(3))
    answer(state, {0: 2})  # seat 2 loses its only cards
    assert state.places == [None, None, 4, None] and state.to_act() == (0, 1, 3)
    assert state.legal(0) == (QUIET, call(1), call(3))
    assert state.facer == 3  # seat 2 would lead, but has left: the next player to its left
    with pytest.raises(ValueError, match="at once"):
        state.apply_joint({0: QUIET, 1: QUIET})
    with pytest.raises(ValueError, match="cannot"):
        state.apply_joint({0: call(2), 1: QUIET, 3: QUIET})


def test_partners_are_the_other_players_with_a_top_card_of_the_same_rank() -> None:
    tops = (*cards("7H 7C"), None, *cards("7D KS"))
    assert partners(tops, 0) == (1, 3)
    assert partners(tops, 0, (None, None, None, 2, None)) == (1,)
    assert partners(tops, 2) == () and partners(tops, 4) == ()


# -- the end --------------------------------------------------------------------------------------

def test_a_whole_game_to_one_player_holding_every_card() -> None:
    state = new_game({0: "7H 2S", 1: "3D", 2: "8S"}, {1: "7C"})
    answer(state, {0: 1})  # seat 0 takes 7C; seat 1 leads and faces 3D
    answer(state, {1: 2})  # wrong: seat 1 pays 3D to seat 2 and leaves; seat 2 leads, faces 8S
    assert state.places == [None, 3, None] and state.facer == 2
    answer(state, {0: 2})  # wrong: seat 0 pays 7H; seat 0 leads and faces 2S
    assert piles_of(state) == {0: "7C 2S", 1: "", 2: "7H 3D 8S"}
    events = answer(state, {2: 0})  # wrong: seat 2 pays 8S under seat 0; seat 2 leads
    assert [e for e in events if isinstance(e, TurnedOver)] == [TurnedOver(2, 2)]
    assert state.piles[2] == list(cards("7H"))  # the bottom card of the pile is faced first
    answer(state, {0: 2})  # wrong: seat 0 pays 2S; seat 0 leads: turns over 8S 7C, faces 8S
    assert piles_of(state) == {0: "8S", 1: "", 2: "2S 7H"} and packs_of(state)[0] == "7C"
    events = answer(state, {2: 0})  # wrong: seat 2 pays 7H; seat 2 leads and faces 3D
    assert events[-1] == Faced(2, 7, cards("3D")[0])
    events = answer(state, {0: 2, 2: 0})  # both wrong: seat 2 (the facer) pays first
    assert [e for e in events if isinstance(e, Paid)] == [Paid(2, 0, Source.PILE),
                                                          Paid(0, 2, Source.PILE)]
    assert piles_of(state) == {0: "3D 7H", 1: "", 2: "8S"} and state.facer == 2
    answer(state, {2: 0})  # wrong: seat 2 pays 8S and faces its last card, 2S
    answer(state, {2: 0})  # wrong again: seat 2 pays 2S and leaves
    over = state.log[-1]
    assert isinstance(over, GameOver) and over.end is End.ALL_CARDS
    assert over.cards == (5, 0, 0) and over.winners == (0,)
    assert state.places == [None, 3, 2] and state.to_act() == ()
    outcome = state.outcome()
    assert outcome.scores == (5.0, -2.0, -1.0) and outcome.order is ScoreOrder.HIGHER_WINS
    assert outcome.turns == state.faces == 9
    assert outcome.final["end"] == "all-cards" and outcome.final["left"] == [None, 3, 2]
    assert outcome.final["races_won"] == [1, 0, 0]
    assert outcome.final["wrong_calls"] == [3, 1, 5]
    json.dumps(outcome.final)


def test_the_length_limit_ends_the_game_after_the_calls_on_its_last_card() -> None:
    state = new_game({0: "7H 2C 3C", 1: "3D 4D", 2: "5S 6S"}, {1: "9S"}, players=4,
                     limit=3)
    assert state.places[3] == 4  # seat 3 was dealt nothing: it left before the first card
    answer(state)  # seat 1 faces 3D
    answer(state)  # seat 2 faces 5S, the third card
    assert state.to_act() == (0, 1, 2)
    events = answer(state, {2: 1})  # the wrong call is settled, then the game is over
    assert events[:2] == [Called(2, 1, X), Paid(2, 1, Source.PILE)]
    over = events[-1]
    assert isinstance(over, GameOver) and over.end is End.LIMIT
    assert state.faces == 3 and state.to_act() == ()
    assert over.cards == (3, 4, 1, 0) and over.winners == (1,)
    assert state.outcome().scores == (3.0, 4.0, 1.0, -3.0)
    assert state.outcome().final["end"] == "limit"


def test_a_seat_dealt_nothing_leaves_before_the_first_card() -> None:
    state = new_game({0: "7H", 1: "8D"}, players=4)
    left = [e for e in state.log if isinstance(e, Left)]
    assert left == [Left(2, 3), Left(3, 3)] and state.to_act() == (0, 1)


# -- what each seat may see --------------------------------------------------------------------

def test_the_view_shows_every_top_card_and_counts_and_is_the_same_for_all() -> None:
    state = new_game(TABLE, {1: "9S 7C", 2: "KD"}, limit=50)
    view = state.view(2)
    assert view == state.view(0) == state.view(1)
    assert view.tops == cards("7H 7C KD") and view.piles == (1, 2, 1)
    assert view.packs == (1, 2, 1) and view.places == (None, None, None)
    assert (view.players, view.dealer, view.facer, view.faces, view.limit) == (3, 2, 0, 1, 50)
    assert view.animals == ("Dog", "Cat", "Cow")
    assert Counter(state.visible_cards(1)) == Counter(cards("7H 7C KD"))
    answer(state, {0: 1})
    assert state.view(0).tops == (cards("7H")[0], cards("3D")[0], cards("KD")[0])
    assert Counter(state.visible_cards(0)) == Counter(cards("7H 3D KD"))


@pytest.mark.parametrize("players", [5, 6])
def test_random_play_at_large_tables_ends_keeps_every_card_and_shows_only_tops(
        players: int) -> None:
    state = AnimalsState(params_of(), players, deal_rng(2))
    start = Counter(state.inventory())
    rng = random.Random(2)
    while seats := state.to_act():
        tops = {c for c in state.tops() if c is not None}
        view = state.view(seats[0])
        assert {c for c in view.tops if c is not None} == tops
        state.apply_joint({s: rng.choice(state.legal(s)) for s in seats})
    assert Counter(state.inventory()) == start
    assert state.end is End.ALL_CARDS and sum(p is None for p in state.places) == 1


# -- variants ------------------------------------------------------------------------------------

def test_presets_and_the_names_variant() -> None:
    assert set(PRESETS) == {"standard", "names"}
    assert params_of().calls is CallStyle.NOISES and params_of("names").calls is CallStyle.NAMES
    assert params_of().players_allowed() == range(3, 7)
    assert params_of().limit == params_of("names").limit == 1000
    assert [spoken(0, CallStyle.NOISES), spoken(0, CallStyle.NAMES)] == ["Woof!", "Dog!"]


def test_the_names_variant_plays_exactly_like_the_noises() -> None:
    def line(preset: str) -> str:
        bots = [RandomBot() for _ in range(4)]
        record = play_game(GAME.variant(preset), bots, ["a", "b", "c", "d"], seed=8)
        return record.to_line().replace(f'"{preset}"', '"?"')

    assert line("standard") == line("names")


@pytest.mark.parametrize(("overrides", "message"), [
    ({"limit": "0"}, "limit must be 1 or more"),
    ({"calls": "barks"}, "'calls'"),
])
def test_bad_parameters_are_rejected_naming_them(overrides: dict[str, str],
                                                 message: str) -> None:
    with pytest.raises(VariantError, match=message):
        GAME.variant("standard", overrides)


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    with pytest.raises(PlayersError):
        GAME.variant("standard").check_players(players)
    with pytest.raises(PlayersError):
        AnimalsState(params_of(), players, random.Random(0))


# -- spectators --------------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "said"), [("standard", '"Woof!"'), ("names", '"Dog!"')])
def test_narration_fits_80_columns_and_speaks_in_the_variants_words(preset: str,
                                                                    said: str) -> None:
    lines: list[str] = []
    names = ["a-rather-long-bot-name", "bob", "carol", "dave"]
    play_game(GAME.variant(preset), [RandomBot() for _ in names], names, 5,
              ShowPrinter(lines.append))
    assert all(len(line) <= 80 for line in lines)
    noise = " (Woof!)" if preset == "standard" else ""
    assert f"  seat 0: the Dog{noise}, 13 cards" in lines
    assert any(line.startswith("   1. seat 0 faces ") for line in lines)
    assert any(line.startswith("   2. ") and " faces " in line for line in lines)
    assert any(said in line for line in lines)
    assert any(line.startswith("Game over") for line in lines)
    state = new_game(TABLE)
    assert state.narrate(Paid(2, 1, Source.PACK), names) == [
        "      carol pays the top card of the pack to bob"]
    assert state.narrate(TurnedOver(1, 1), names) == [
        "      bob turns the up-pile (1 card) over as a new pack"]
