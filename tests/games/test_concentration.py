"""Concentration scenarios on stacked layouts: matching, turns, variants, scoring and the end."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from arena.api import Event, Move, Remove, Reveal
from arena.cards import Card, parse_card, standard_deck
from arena.engine import ScoreOrder, find_game
from arena.games.concentration import (
    TURN_LIMIT_PER_CARD,
    Back,
    Claim,
    ConcentrationParams,
    ConcentrationView,
    End,
    GameOver,
    MatchRule,
    Miss,
    Role,
    cards_match,
    match_key,
    mate_key,
)
from arena.games.concentration import ConcentrationState as State

Deal = Callable[..., State]


@pytest.fixture
def deal(stack: Callable[..., list[Card]]) -> Deal:
    """deal(preset, placed=(), players=2, overrides=None, seed=0): a state on a stacked layout."""

    def make(preset: str, placed: Sequence[str] | Mapping[int, str] = (), players: int = 2,
             overrides: Mapping[str, str] | None = None, seed: int = 0) -> State:
        params = find_game("concentration").variant(preset, overrides).params
        assert isinstance(params, ConcentrationParams)
        return State(params, players, random.Random(seed), layout=stack(params, placed))

    return make


def flip(state: State, *positions: int) -> list[Event]:
    """Turn up these positions in order, each by the seat to act and each legal; the new events."""
    mark = len(state.log)
    for pos in positions:
        (seat,) = state.to_act()
        assert pos in state.legal(seat), f"position {pos} is not legal for seat {seat}"
        state.apply(seat, pos)
    assert not state.private  # Concentration has no secrets
    return state.log[mark:]


def cards(*texts: str) -> tuple[Card, ...]:
    """Cards from their short forms."""
    return tuple(parse_card(t) for t in texts)


def points(state: State) -> list[int]:
    """Points per seat so far."""
    return list(state.outcome().final["points"])


def sets(state: State) -> list[int]:
    """Sets taken per seat so far."""
    return list(state.outcome().final["sets"])


def turns(state: State) -> int:
    """Turns completed so far."""
    return state.outcome().turns


def pack_order_pairs(size: int) -> list[tuple[int, int]]:
    """Position pairs (0, 1), (2, 3), ...: all misses on a layout in pack order."""
    return [(p, p + 1) for p in range(0, size, 2)]


# -- the scenario table: one turn on a stacked layout ------------------------------------------

@dataclass(frozen=True)
class Turn:
    """One turn on a fresh stacked layout: these cards at positions 0, 1, ... turned up in order."""

    preset: str
    cards: tuple[str, ...]
    taken: bool
    next_seat: int
    points: int = 1
    players: int = 2
    overrides: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.preset}:{'-'.join(self.cards)}"


TURNS = [
    Turn("standard", ("7H", "7D"), taken=True, next_seat=0),
    Turn("standard", ("7S", "7C"), taken=True, next_seat=0),
    Turn("standard", ("7H", "7S"), taken=False, next_seat=1),
    Turn("standard", ("7H", "8H"), taken=False, next_seat=1),
    Turn("standard", ("7H", "7S"), taken=False, next_seat=1, players=3),
    Turn("standard", ("7H", "7S"), taken=False, next_seat=0, players=1),
    Turn("any-color", ("7H", "7S"), taken=True, next_seat=0),
    Turn("any-color", ("7H", "7D"), taken=True, next_seat=0),
    Turn("any-color", ("7H", "8H"), taken=False, next_seat=1),
    Turn("zebra", ("7H", "7S"), taken=True, next_seat=0),
    Turn("zebra", ("7C", "7D"), taken=True, next_seat=0),
    Turn("zebra", ("7H", "7D"), taken=False, next_seat=1),
    Turn("zebra", ("7C", "7S"), taken=False, next_seat=1),
    Turn("two-decks", ("7H", "7H"), taken=True, next_seat=0),
    Turn("two-decks", ("7H", "7D"), taken=False, next_seat=1),
    Turn("two-decks", ("7S", "7C"), taken=False, next_seat=1),
    Turn("checkerboard", ("QS", "QS"), taken=True, next_seat=0),
    Turn("checkerboard", ("QS", "QC"), taken=False, next_seat=1),
    Turn("jokers", ("JKR", "JKB"), taken=True, next_seat=0, points=1),
    Turn("jokers", ("JKR", "7H"), taken=False, next_seat=1),
    Turn("any-color-jokers", ("JKR", "JKB"), taken=True, next_seat=0, points=2),
    Turn("any-color-jokers", ("JKB", "7S"), taken=False, next_seat=1),
    Turn("any-color-jokers", ("7S", "7H"), taken=True, next_seat=0, points=1),
    Turn("two-decks-jokers", ("JKR", "JKB"), taken=True, next_seat=0, points=1),
    Turn("two-decks-jokers", ("JKR", "JKR"), taken=True, next_seat=0, points=1),
    Turn("one-flip", ("7H", "7D"), taken=True, next_seat=1),
    Turn("one-flip", ("7H", "7S"), taken=False, next_seat=1),
    Turn("one-flip", ("7H", "7D"), taken=True, next_seat=0, players=1),
    Turn("four-of-a-kind", ("7H", "7D", "7S", "7C"), taken=True, next_seat=0),
    Turn("four-of-a-kind", ("7H", "7D", "7S", "8C"), taken=False, next_seat=1),
    Turn("four-of-a-kind", ("7H", "8D", "9S", "10C"), taken=False, next_seat=1),
    Turn("moving", ("7H", "7D"), taken=True, next_seat=0),
    Turn("chips-winner", ("7H", "7D"), taken=True, next_seat=0),
    Turn("chips-per-pair", ("7H", "7S"), taken=False, next_seat=1),
]


@pytest.mark.parametrize("case", TURNS, ids=str)
def test_turn(deal: Deal, case: Turn) -> None:
    state = deal(case.preset, case.cards, players=case.players, overrides=case.overrides)
    positions = tuple(range(len(case.cards)))
    events = flip(state, *positions)
    shown = cards(*case.cards)
    reveals = [e for e in events if isinstance(e, Reveal)]
    assert reveals == [Reveal(0, p, c) for p, c in zip(positions, shown, strict=True)]
    verdict = events[len(positions)]
    if case.taken:
        assert verdict == Claim(0, positions, shown, case.points)
        assert isinstance(verdict, Remove)
        assert points(state)[0] == case.points and sets(state)[0] == 1
        assert state.view(case.next_seat).scores[0] == case.points
        assert all(state.view(case.next_seat).cells[p] is None for p in positions)
        assert not set(positions) & set(state.legal(case.next_seat))
    else:
        assert verdict == Miss(0, positions)
        assert sum(points(state)) == 0 and sum(sets(state)) == 0
        assert set(positions) <= set(state.legal(case.next_seat))
    assert state.to_act() == (case.next_seat,)
    assert turns(state) == 1
    assert [e.kind for e in events[len(positions) + 1:]] in ([], ["move"])
    if case.taken:
        assert not any(isinstance(e, Move) for e in events)


# -- turns that continue -----------------------------------------------------------------------

def test_a_take_lets_the_player_go_on_until_a_miss(deal: Deal) -> None:
    state = deal("standard", ["7H", "7D", "8C", "8S", "9H", "2C"])
    flip(state, 0, 1)
    flip(state, 2, 3)
    assert state.to_act() == (0,) and points(state) == [2, 0]
    events = flip(state, 4, 5)
    assert events[-1] == Miss(0, (4, 5))
    assert state.to_act() == (1,)
    assert turns(state) == 3


def test_the_turn_goes_round_the_table(deal: Deal) -> None:
    state = deal("standard", players=3)  # pack order: every pair (2k, 2k+1) misses
    movers = []
    for pair in pack_order_pairs(52)[:4]:
        movers.append(state.to_act())
        flip(state, *pair)
    assert movers == [(0,), (1,), (2,), (0,)]
    assert state.to_act() == (1,)


def test_four_of_a_kind_always_turns_up_four(deal: Deal) -> None:
    state = deal("four-of-a-kind", ["7H", "8D", "9S", "10C"])
    events = flip(state, 0, 1)
    assert [e.kind for e in events] == ["reveal", "reveal"]  # already hopeless, but not over
    assert state.to_act() == (0,)
    assert set(state.legal(0)) == set(range(2, 52))
    flip(state, 2)
    assert state.to_act() == (0,) and turns(state) == 0
    events = flip(state, 3)
    assert events[-1] == Miss(0, (0, 1, 2, 3))
    assert state.to_act() == (1,)


def test_four_of_a_kind_view_shows_every_card_up(deal: Deal) -> None:
    state = deal("four-of-a-kind", ["7H", "7D", "7S"])
    flip(state, 0, 1, 2)
    view = state.view(0)
    assert view.face_up == (0, 1, 2)
    assert view.cells[:3] == cards("7H", "7D", "7S")
    assert sorted(map(str, state.visible_cards(1))) == ["7D", "7H", "7S"]


# -- the duel ----------------------------------------------------------------------------------

def test_duel_answerer_takes_the_pair_and_roles_alternate(deal: Deal) -> None:
    state = deal("duel", {0: "7H", 52: "7H", 1: "9D", 53: "9D", 2: "KS", 54: "2C"})
    assert state.to_act() == (0,)
    assert state.legal(0) == tuple(range(52))
    view = state.view(0)
    assert (view.role, view.field) == (Role.FLIP, range(0, 52))

    flip(state, 0)
    assert state.to_act() == (1,)
    assert state.legal(1) == tuple(range(52, 104))
    view = state.view(1)
    assert (view.role, view.field, view.face_up) == (Role.ANSWER, range(52, 104), (0,))
    events = flip(state, 52)
    assert events == [Reveal(1, 52, parse_card("7H")),
                      Claim(1, (0, 52), cards("7H", "7H"), 1)]
    assert points(state) == [0, 1]

    # Turn 2: the roles swap whatever happened: seat 1 flips in its own field, seat 0 answers.
    assert state.to_act() == (1,)
    assert 52 not in state.legal(1) and set(state.legal(1)) <= set(range(52, 104))
    assert state.view(1).role is Role.FLIP
    flip(state, 53)
    assert state.to_act() == (0,)
    assert set(state.legal(0)) == set(range(1, 52))
    events = flip(state, 1)
    assert events[-1] == Claim(0, (53, 1), cards("9D", "9D"), 1)
    assert points(state) == [1, 1]

    # Turn 3: seat 0 flips; a miss still passes the flip to the other seat.
    assert state.to_act() == (0,)
    flip(state, 2)
    events = flip(state, 54)
    assert events[-1] == Miss(0, (2, 54))
    assert state.to_act() == (1,)
    assert turns(state) == 3


def test_duel_miss_passes_the_flip(deal: Deal) -> None:
    state = deal("duel", {0: "7H", 52: "8S"})
    flip(state, 0, 52)
    assert state.to_act() == (1,)
    assert state.view(1).role is Role.FLIP
    assert points(state) == [0, 0]


def test_duel_answer_to_a_seen_card_must_be_new_or_its_twin(deal: Deal) -> None:
    state = deal("duel", {0: "7H", 1: "9D", 52: "8S", 53: "9D"})
    flip(state, 0, 52)  # seat 0 flips 7H, seat 1 answers 8S: a miss
    flip(state, 53, 1)  # seat 1 flips 9D, seat 0 answers 9D: seat 0 takes them
    assert points(state) == [1, 0]
    assert state.to_act() == (0,)
    flip(state, 0)  # 7H again: seat 1's seen 8S cannot answer it
    assert state.legal(1) == tuple(range(54, 104))


# -- checkerboard backs ------------------------------------------------------------------------

def test_checkerboard_backs_alternate(deal: Deal) -> None:
    state = deal("checkerboard", ["QS", "QS"])
    view = state.view(0)
    rows, cols = view.rows, view.cols
    assert (rows, cols) == (8, 13)
    for pos, cell in enumerate(view.cells):
        r, c = divmod(pos, cols)
        assert cell is (Back.RED if (r + c) % 2 == 0 else Back.BLUE), pos
        if c + 1 < cols:
            assert view.cells[pos + 1] is not cell
        if r + 1 < rows:
            assert view.cells[pos + cols] is not cell
    assert Counter(view.cells) == {Back.RED: 52, Back.BLUE: 52}

    flip(state, 0)
    assert state.view(1).cells[0] == parse_card("QS")
    assert all(isinstance(c, Back) for c in state.view(1).cells[1:])
    flip(state, 1)
    after = state.view(0).cells
    assert after[:2] == (None, None)
    assert after[2:] == view.cells[2:]  # every face-down cell still shows its back


@pytest.mark.parametrize("preset", ["standard", "two-decks", "duel", "jokers"])
def test_plain_backs(deal: Deal, preset: str) -> None:
    cells = deal(preset).view(0).cells
    assert set(cells) == {Back.PLAIN}


# -- cards that move ---------------------------------------------------------------------------

def _first_miss_with_swaps(deal: Deal, overrides: Mapping[str, str]) -> tuple[State, list[Card],
                                                                            Move]:
    """A 'moving' state just after a first-turn miss that moved cards; the cards before it."""
    for seed in range(60):
        state = deal("moving", ["7H", "8S"], overrides=overrides, seed=seed)
        before = list(state.cards)
        events = flip(state, 0, 1)
        assert [e.kind for e in events] == ["reveal", "reveal", "miss", "move"]
        move = events[-1]
        assert isinstance(move, Move) and move.seat is None
        assert 0 <= move.count <= int(overrides.get("moves", 2))
        if move.count and state.cards != before:
            return state, before, move
    pytest.fail("no deal seed moved any card")


def test_hidden_moves_really_move_cards(deal: Deal) -> None:
    state, before, move = _first_miss_with_swaps(deal, {"moves": "3"})
    assert move.swaps is None
    changed = [p for p in range(52) if state.cards[p] != before[p]]
    assert 2 <= len(changed) <= 2 * move.count
    assert Counter(map(str, state.cards)) == Counter(map(str, before))


def test_shown_moves_list_the_swaps(deal: Deal) -> None:
    state, before, move = _first_miss_with_swaps(deal, {"moves": "3", "show-moves": "true"})
    assert move.swaps is not None and len(move.swaps) == move.count
    expected = list(before)
    for a, b in move.swaps:
        assert a != b and 0 <= a < 52 and 0 <= b < 52
        expected[a], expected[b] = expected[b], expected[a]
    assert state.cards == expected
    a, _ = move.swaps[0]
    (reveal,) = [e for e in flip(state, a) if isinstance(e, Reveal)]
    assert reveal.card == expected[a]


def test_move_count_stays_in_range_over_many_misses(deal: Deal) -> None:
    state = deal("moving", seed=3)  # pack order: every pair (2k, 2k+1) misses
    counts = []
    for a, b in pack_order_pairs(52) * 2:
        events = flip(state, a, b)
        (move,) = [e for e in events if isinstance(e, Move)]
        assert move.swaps is None
        counts.append(move.count)
    assert set(counts) <= {0, 1, 2}
    assert sum(counts) > 0


def test_no_move_without_moves(deal: Deal) -> None:
    state = deal("standard", ["7H", "8S"])
    assert [e.kind for e in flip(state, 0, 1)] == ["reveal", "reveal", "miss"]


# -- chip scoring ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChipGame:
    """Turns played on a stacked layout until max-turns; the points and chips that result."""

    preset: str
    players: int
    placed: tuple[str, ...]
    turns: tuple[tuple[int, int], ...]
    points: tuple[int, ...]
    chips: tuple[int, ...]


TAKE_TAKE_MISS_TAKE = (("7H", "7D", "8H", "8D", "9S", "10S", "2C", "2S"),
                       ((0, 1), (2, 3), (4, 5), (6, 7)))
TAKE_MISS_TAKE = (("7H", "7D", "9S", "10S", "2C", "2S"), ((0, 1), (2, 3), (4, 5)))
CHIP_GAMES = [
    ChipGame("chips-winner", 3, *TAKE_TAKE_MISS_TAKE, points=(2, 1, 0), chips=(2, -1, -1)),
    ChipGame("chips-per-pair", 3, *TAKE_TAKE_MISS_TAKE, points=(2, 1, 0), chips=(3, 0, -3)),
    ChipGame("chips-winner", 3, *TAKE_MISS_TAKE, points=(1, 1, 0), chips=(1, 1, -2)),
    ChipGame("chips-per-pair", 3, *TAKE_MISS_TAKE, points=(1, 1, 0), chips=(1, 1, -2)),
    ChipGame("chips-winner", 2, *TAKE_MISS_TAKE, points=(1, 1), chips=(0, 0)),
    ChipGame("chips-per-pair", 2, *TAKE_MISS_TAKE, points=(1, 1), chips=(0, 0)),
    ChipGame("chips-winner", 4, *TAKE_TAKE_MISS_TAKE, points=(2, 1, 0, 0), chips=(3, -1, -1, -1)),
    ChipGame("chips-per-pair", 4, *TAKE_TAKE_MISS_TAKE, points=(2, 1, 0, 0),
             chips=(5, 1, -3, -3)),
]


@pytest.mark.parametrize("game", CHIP_GAMES,
                         ids=lambda g: f"{g.preset}-{g.players}p-{'-'.join(map(str, g.points))}")
def test_chip_scoring(deal: Deal, game: ChipGame) -> None:
    state = deal(game.preset, game.placed, players=game.players,
                 overrides={"max-turns": str(len(game.turns))})
    for turn in game.turns:
        flip(state, *turn)
    assert state.to_act() == ()
    outcome = state.outcome()
    assert outcome.order is ScoreOrder.HIGHER_WINS
    assert outcome.scores == tuple(float(c) for c in game.chips)
    assert sum(outcome.scores) == 0
    assert outcome.final["points"] == list(game.points)
    assert outcome.final["chips"] == list(game.chips)
    assert outcome.final["end"] == "turn-limit"


def test_sets_scoring_has_no_chips(deal: Deal) -> None:
    state = deal("standard", ["7H", "7D", "9S", "10S"], overrides={"max-turns": "2"})
    flip(state, 0, 1)
    flip(state, 2, 3)
    outcome = state.outcome()
    assert "chips" not in outcome.final
    assert outcome.scores == (1.0, 0.0)


# -- solitaire ---------------------------------------------------------------------------------

def test_solitaire_score_is_turns(deal: Deal) -> None:
    state = deal("standard", ["7H", "7D", "9S", "10S", "2C", "2S"], players=1,
                 overrides={"max-turns": "3"})
    for turn in ((0, 1), (2, 3), (4, 5)):
        flip(state, *turn)
        assert state.to_act() in ((0,), ())
    outcome = state.outcome()
    assert outcome.order is ScoreOrder.LOWER_WINS
    assert outcome.scores == (3.0,)
    assert outcome.turns == 3
    assert outcome.final["sets"] == [2]


def _paired_layout() -> list[str]:
    """A pack by rank, suits C S D H: rank+colour pairs and four-of-a-kinds lie side by side."""
    order = "CSDH"
    return [str(c) for c in sorted(standard_deck(),
                                   key=lambda c: (c.rank, order.index(c.suit.value)))]


@pytest.mark.parametrize(("preset", "set_size", "players"), [
    ("standard", 2, 1), ("standard", 2, 2), ("any-color", 2, 3), ("four-of-a-kind", 4, 2),
    ("four-of-a-kind", 4, 1), ("one-flip", 2, 2),
])
def test_perfect_play_clears_the_table(deal: Deal, preset: str, set_size: int,
                                       players: int) -> None:
    state = deal(preset, _paired_layout(), players=players)
    taken = 0
    for start in range(0, 52, set_size):
        (seat,) = state.to_act()
        events = flip(state, *range(start, start + set_size))
        assert isinstance(events[set_size], Claim) and events[set_size].seat == seat
        taken += 1
    assert events[-1] == GameOver(None, End.CLEARED)
    assert state.to_act() == ()
    outcome = state.outcome()
    assert outcome.turns == taken == 52 // set_size
    assert outcome.final["end"] == "cleared" and outcome.final["left"] == 0
    assert sum(outcome.final["sets"]) == taken
    if players == 1:
        assert outcome.scores == (float(taken),)
    elif preset == "one-flip":
        assert outcome.scores == (13.0, 13.0)  # the turn passes after every pair
    else:
        assert outcome.scores == (float(taken),) + (0.0,) * (players - 1)


# -- the no-idle-turn rule ---------------------------------------------------------------------

def test_unseen_first_card_leaves_the_second_free(deal: Deal) -> None:
    state = deal("standard", ["7H", "8S"])
    flip(state, 0)
    assert state.legal(0) == tuple(range(1, 52))


def test_seen_first_card_needs_an_unseen_or_completing_second(deal: Deal) -> None:
    state = deal("standard", ["7H", "8S", "7D", "9C"])
    flip(state, 0, 1)  # seat 0 misses: 7H and 8S are seen
    flip(state, 2, 3)  # seat 1 misses: 7D and 9C are seen
    assert state.to_act() == (0,)
    assert state.legal(0) == tuple(range(52))  # the first card of a turn is free

    flip(state, 1)  # 8S again: nothing seen completes it
    assert state.legal(0) == tuple(range(4, 52))

    state = deal("standard", ["7H", "8S", "7D", "9C"])
    flip(state, 0, 1)
    flip(state, 2, 3)
    flip(state, 0)  # 7H again: the seen 7D completes it
    assert state.legal(0) == (2, *range(4, 52))
    events = flip(state, 2)
    assert events[-1] == Claim(0, (0, 2), cards("7H", "7D"), 1)


def test_no_idle_turn_when_no_unseen_card_is_left(deal: Deal) -> None:
    state = deal("standard")  # pack order: every pair (2k, 2k+1) misses
    for pair in pack_order_pairs(52):
        flip(state, *pair)
    assert turns(state) == 26 and sum(points(state)) == 0
    flip(state, 0)  # AC, seen; every card is seen now
    assert state.legal(state.to_act()[0]) == tuple(range(1, 52))


def test_no_idle_turn_in_four_of_a_kind(deal: Deal) -> None:
    state = deal("four-of-a-kind", {0: "7H", 1: "7D", 2: "7S", 3: "7C", 4: "8C", 5: "9C",
                                    6: "10C", 7: "JC"})
    flip(state, 0, 1, 2, 4)  # seat 0: 7H 7D 7S 8C, a miss
    flip(state, 3, 5, 6, 7)  # seat 1: 7C 9C 10C JC, a miss
    assert state.to_act() == (0,)
    flip(state, 0, 1, 3)  # 7H 7D 7C, all seen: the seen 7S completes them
    assert state.legal(0) == (2, *range(8, 52))
    assert flip(state, 2)[-1] == Claim(0, (0, 1, 3, 2), cards("7H", "7D", "7C", "7S"), 1)


def test_no_idle_turn_in_four_of_a_kind_without_completion(deal: Deal) -> None:
    state = deal("four-of-a-kind", {0: "7H", 1: "7D", 2: "8S", 3: "9C"})
    flip(state, 0, 1, 2, 3)
    flip(state, 4, 5, 6, 7)
    flip(state, 0, 1, 2)  # all seen, and no fourth card can complete them
    assert state.legal(0) == tuple(range(8, 52))


def test_after_a_hidden_move_every_card_counts_as_unseen(deal: Deal) -> None:
    state, _, _ = _first_miss_with_swaps(deal, {"moves": "3"})
    (seat,) = state.to_act()
    flip(state, 0)  # was seen before the move; nobody knows what lies there now
    assert state.legal(seat) == tuple(range(1, 52))


def test_after_a_shown_move_seen_cards_stay_seen(deal: Deal) -> None:
    state, _, move = _first_miss_with_swaps(deal, {"moves": "3", "show-moves": "true"})
    assert move.swaps is not None
    where = {0: 0, 1: 1}  # follow the two seen cards through the swaps
    for a, b in move.swaps:
        for card, pos in where.items():
            where[card] = b if pos == a else a if pos == b else pos
    (seat,) = state.to_act()
    flip(state, where[0])  # the seen 7H
    legal = set(state.legal(seat))
    assert where[1] not in legal  # the seen 8S cannot be the idle second card
    assert legal == set(range(52)) - {where[0], where[1]}


# -- the end of the game -----------------------------------------------------------------------

def test_turn_limit(deal: Deal) -> None:
    state = deal("standard", ["7H", "7D", "9S", "10S", "2C", "2H"], overrides={"max-turns": "2"})
    flip(state, 0, 1)
    assert state.to_act() == (0,)
    events = flip(state, 2, 3)
    assert events[-2:] == [Miss(0, (2, 3)), GameOver(None, End.TURN_LIMIT)]
    assert state.to_act() == ()
    outcome = state.outcome()
    assert outcome.turns == 2
    assert outcome.final == {"end": "turn-limit", "sets": [1, 0], "points": [1, 0], "left": 50}
    assert outcome.scores == (1.0, 0.0)


def test_turn_limit_reached_by_a_take(deal: Deal) -> None:
    state = deal("standard", ["7H", "7D"], overrides={"max-turns": "1"})
    events = flip(state, 0, 1)
    assert events[-1] == GameOver(None, End.TURN_LIMIT)
    assert state.outcome().final["left"] == 50


@pytest.mark.parametrize(("preset", "size"), [("standard", 52), ("two-decks", 104)])
def test_default_turn_limit_is_25_turns_per_card(deal: Deal, preset: str, size: int) -> None:
    assert TURN_LIMIT_PER_CARD == 25
    state = deal(preset)  # pack order: every pair (2k, 2k+1) misses, again and again
    pairs = pack_order_pairs(size)
    limit = 25 * size
    for turn in range(limit - 1):
        flip(state, *pairs[turn % len(pairs)])
    assert state.to_act() != ()
    events = flip(state, *pairs[(limit - 1) % len(pairs)])
    assert events[-1] == GameOver(None, End.TURN_LIMIT)
    assert state.to_act() == ()
    assert state.outcome().final == {"end": "turn-limit", "sets": [0, 0], "points": [0, 0],
                                     "left": size}


# -- what the seats see ------------------------------------------------------------------------

def test_view_and_legal_hide_face_down_cards(deal: Deal) -> None:
    state = deal("standard", ["7H", "8S", "7D"])
    view = state.view(0)
    assert isinstance(view, ConcentrationView)
    assert set(view.cells) == {Back.PLAIN}
    assert view.face_up == () and view.scores == (0, 0) and view.turn == 0
    assert all(type(p) is int for p in state.legal(0))
    assert list(state.visible_cards(0)) == []

    flip(state, 0)
    for seat in (0, 1):
        shown = state.view(seat)
        assert shown.cells[0] == parse_card("7H")
        assert [c for c in shown.cells if isinstance(c, Card)] == [parse_card("7H")]
        assert shown.face_up == (0,)
        assert list(state.visible_cards(seat)) == [parse_card("7H")]
    assert state.view(0) == state.view(1)

    flip(state, 1)  # a miss: both go face down again
    after = state.view(1)
    assert not any(isinstance(c, Card) for c in after.cells)
    assert after.face_up == () and after.turn == 1
    assert list(state.visible_cards(1)) == []


def test_view_is_a_snapshot(deal: Deal) -> None:
    state = deal("standard", ["7H", "7D"])
    before = state.view(0)
    cells = before.cells
    flip(state, 0, 1)
    assert before.cells is cells and set(before.cells) == {Back.PLAIN}
    assert before.scores == (0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.scores = (9, 9)  # type: ignore[misc]


def test_stacked_layout_must_hold_the_variants_cards() -> None:
    params = find_game("concentration").variant("standard").params
    assert isinstance(params, ConcentrationParams)
    wrong = standard_deck()
    wrong[0] = wrong[1]
    with pytest.raises(ValueError, match="stacked layout"):
        State(params, 2, random.Random(0), layout=wrong)
    with pytest.raises(ValueError, match="stacked layout"):
        State(params, 2, random.Random(0), layout=standard_deck(jokers=True))


def test_dealt_layout_is_seeded() -> None:
    game = find_game("concentration")
    params = game.variant("standard").params
    first = game.new_state(params, 2, random.Random(5))
    again = game.new_state(params, 2, random.Random(5))
    other = game.new_state(params, 2, random.Random(6))
    assert isinstance(first, State) and isinstance(again, State) and isinstance(other, State)
    assert first.cards == again.cards != other.cards
    assert sorted(map(str, first.cards)) == sorted(map(str, standard_deck()))


@pytest.mark.parametrize("rule", list(MatchRule))
def test_match_keys_agree_with_the_match_rule(rule: MatchRule) -> None:
    """The engine and the bots compare keys; `cards_match` is the rule they must agree with."""
    pack = standard_deck(jokers=True)
    for a in pack:
        for b in pack:
            if a != b:
                assert (mate_key(match_key(a, rule), rule) == match_key(b, rule)) == \
                    cards_match(a, b, rule), (a, b, rule)


@pytest.mark.parametrize(("preset", "overrides"), [
    ("standard", {}), ("standard", {"moves": "3"}),
    ("standard", {"moves": "3", "show-moves": "true"}), ("checkerboard", {})],
    ids=["standard", "hidden-moves", "shown-moves", "checkerboard"])
def test_the_known_count_is_the_seen_cards_on_the_table_by_key(preset: str,
                                                              overrides: dict[str, str]) -> None:
    """`known`, kept as cards are turned up, taken and moved (what the luck model reads at
    every flip), is at every step the count by match key of the seen cards on the table."""
    variant = find_game("concentration").variant(preset, overrides)
    state = State(variant.params, 2, random.Random(1))
    rng = random.Random(1)
    while seats := state.to_act():
        on_table = [p for field in state.live for p in field if state.seen[p]]
        assert state.known == Counter(state.keys[p] for p in on_table)
        legal = state.legal(seats[0])
        state.apply(seats[0], legal[rng.randrange(len(legal))])
