"""Cribbage Square: the scorer item by item (and against a plain count by definition), the
placement rule checked on every reachable arrangement, games on stacked packs, several seats
on one pack order, the record's final summary, what a seat may see, the narration and the
terminal."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import pytest

from arena.cards import Card, parse_card, parse_cards, standard_deck
from arena.engine import ScoreOrder, find_game
from arena.errors import PlayersError
from arena.games.cribbage_square import (
    PRESETS,
    GameOver,
    Laid,
    Placement,
    Scored,
    SquareState,
    StarterTurned,
    TurnedUp,
    hand_points,
    layout_points,
    legal_positions,
    score_hand,
    score_layout,
    stack_pack,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("cribbage-square")
QUINE = "QH QD QS QC / 5H 5D JS 5C / 6H 4D 6S 4C / 4H 6D 4S 6C"


def card(text: str) -> Card:
    """One card from its short form."""
    return parse_card(text)


# -- the scorer: one scenario per scoring element ----------------------------------------------

@dataclass(frozen=True)
class Hand:
    """Four line cards and a starter score exactly these items."""

    name: str
    line: str
    starter: str
    fifteens: int = 0
    pairs: int = 0
    runs: int = 0
    flush: int = 0
    nob: int = 0

    def __str__(self) -> str:
        return self.name


HANDS = [
    Hand("nothing at all", "AH 3D 7C 9S", "KD"),
    Hand("one fifteen", "KH 5C 7D 9S", "2D", fifteens=2),
    Hand("court cards count ten", "KH QD JC 5S", "AD", fifteens=6, runs=3),
    Hand("a pair", "2H 2D 7C 9S", "KD", pairs=2),
    Hand("three alike: three pairs", "4H 4D 4C 9S", "KD", pairs=6),
    Hand("four alike: six pairs", "9H 9D 9C 9S", "2D", pairs=12),
    Hand("a run of three", "9H 10D JC 3S", "4D", runs=3),
    Hand("a run of four", "9H 10D JC QS", "3D", runs=4),
    Hand("a run of five, with the starter", "9H 10D JC QS", "KD", runs=5),
    Hand("ace is low: no run through the king", "QH KD AC 7S", "2S", runs=0, fifteens=0),
    Hand("a double run of three is 8 with its pair", "9H 9D 10C JS", "3D", pairs=2, runs=6),
    Hand("a triple run of three is 15 with its pairs", "9H 9D 9C 10S", "JD", pairs=6, runs=9),
    Hand("a double double run is 16 with its pairs", "9H 9D 10C 10S", "JD", pairs=4, runs=12),
    Hand("a double run of four is 10 with its pair", "9H 9D 10C JS", "QD", pairs=2, runs=8),
    Hand("a flush of the four line cards", "2H 4H 6H QH", "KD", flush=4),
    Hand("a flush with the starter's suit", "2H 4H 6H QH", "KH", flush=5),
    Hand("three of a suit and the starter: no flush", "2H 4H 6H QD", "KH"),
    Hand("his nob: a jack of the starter's suit", "JH 2D 4C 6S", "KH", nob=1),
    Hand("a jack of another suit: no nob", "JH 2D 4C 6S", "KD"),
    Hand("his heels (a jack starter) scores nothing", "2H 4D 6C 8S", "JH"),
    Hand("the 29 hand", "5H 5D 5C JS", "5S", fifteens=16, pairs=12, nob=1),
]


@pytest.mark.parametrize("hand", HANDS, ids=str)
def test_hand_scores(hand: Hand) -> None:
    line, starter = parse_cards(hand.line), card(hand.starter)
    scored = score_hand(line, starter)
    got = (scored.fifteens, scored.pairs, scored.runs, scored.flush, scored.nob)
    assert got == (hand.fifteens, hand.pairs, hand.runs, hand.flush, hand.nob)
    total = hand.fifteens + hand.pairs + hand.runs + hand.flush + hand.nob
    assert scored.total == hand_points(line, starter) == total


def test_the_29_hand_is_the_most_a_line_can_score() -> None:
    assert score_hand(parse_cards("5H 5D 5C JS"), card("5S")).total == 29
    assert score_hand(parse_cards("5H 5D 5C JD"), card("5S")).total == 28  # no nob


def by_definition(line: Sequence[Card], starter: Card) -> int:
    """A cribbage hand counted straight from the definitions, subset by subset."""
    five = [*line, starter]
    ranks = [int(c.rank) for c in five]
    points = 0
    for size in range(2, 6):
        for combo in itertools.combinations(ranks, size):
            points += 2 * (sum(min(r, 10) for r in combo) == 15)
    points += 2 * sum(a == b for a, b in itertools.combinations(ranks, 2))
    for size in (5, 4, 3):
        runs = [c for c in itertools.combinations(ranks, size)
                if sorted(c) == list(range(min(c), min(c) + size))]
        if runs:
            points += size * len(runs)
            break
    if len({c.suit for c in line}) == 1:
        points += 5 if starter.suit is line[0].suit else 4
    points += sum(c.rank == 11 and c.suit is starter.suit for c in line)
    return points


def test_the_scorer_agrees_with_a_count_by_definition() -> None:
    rng = random.Random("cribbage-square-hands")
    pack = standard_deck()
    for _ in range(3000):
        five = rng.sample(pack, 5)
        assert hand_points(five[:4], five[4]) == by_definition(five[:4], five[4]), five


def test_the_172_layout() -> None:
    rows = [parse_cards(row) for row in QUINE.split("/")]
    scored = score_layout(rows, card("5S"))
    assert [h.total for h in scored.rows] == [20, 29, 24, 24]
    assert [h.total for h in scored.columns] == [20, 20, 15, 20]
    assert scored.total == layout_points(rows, card("5S")) == 172
    column3 = scored.columns[2]  # QS JS 6S 4S: the flush with the starter, and his nob
    assert (column3.fifteens, column3.runs, column3.flush, column3.nob) == (6, 3, 5, 1)


# -- the placement rule ------------------------------------------------------------------------

# An arrangement of cards, moved so that its top row and left column are 0, fits in 4 x 4 while
# a square is possible: it is held as a 16-bit mask, bit 4 * row + col.
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
ROWS = [0b1111 << 4 * r for r in range(4)]
COLS = [sum(1 << (4 * r + c) for r in range(4)) for c in range(4)]
AROUND = [frozenset((i // 4 + dr, i % 4 + dc) for dr, dc in STEPS) for i in range(16)]
SQUARE = 0xFFFF


def cells_of(mask: int) -> frozenset[tuple[int, int]]:
    """The places of an arrangement."""
    return frozenset((i // 4, i % 4) for i in range(16) if mask >> i & 1)


@cache
def successors(mask: int) -> dict[tuple[int, int], int | None]:
    """Every empty place touching a card (sides or corners), and the arrangement after a card
    is laid there, moved back to row and column 0; None when it would span more than four rows
    or columns (cards are never taken up, so it could never become the square)."""
    occupied = cells_of(mask)
    height = max(r for r in range(4) if mask & ROWS[r]) + 1
    width = max(c for c in range(4) if mask & COLS[c]) + 1
    out: dict[tuple[int, int], int | None] = {}
    for r, c in set().union(*(AROUND[i] for i in range(16) if mask >> i & 1)) - occupied:
        top, left = min(0, r), min(0, c)
        if max(height - 1, r) - top >= 4 or max(width - 1, c) - left >= 4:
            out[(r, c)] = None
        else:
            out[(r, c)] = (mask << (-4 * top - left)) | 1 << (4 * (r - top) + (c - left))
    return out


@cache
def completable(mask: int) -> bool:
    """Whether laying cards one at a time, each touching one down, can end in the full 4 x 4
    square: searched by brute force."""
    return mask == SQUARE or any(after is not None and completable(after)
                                 for after in successors(mask).values())


def test_every_legal_placement_keeps_the_square_possible_and_no_other_is_refused() -> None:
    todo, reached = [1], {1}  # from the first card alone
    while todo:
        mask = todo.pop()
        after = successors(mask)
        keeps = {p for p, m in after.items() if m is not None and completable(m)}
        assert set(legal_positions(cells_of(mask), Placement.ADJACENT)) == keeps, bin(mask)
        for place in keeps:
            if after[place] not in reached:
                reached.add(after[place])  # type: ignore[arg-type]
                todo.append(after[place])  # type: ignore[arg-type]
    assert SQUARE in reached
    assert len(reached) == 32_328  # every reachable arrangement, up to translation


def test_the_first_card_goes_to_the_origin_and_the_grid_takes_any_empty_place() -> None:
    assert legal_positions(set(), Placement.ADJACENT) == ((0, 0),)
    assert len(legal_positions(set(), Placement.GRID)) == 16
    assert (3, 3) not in legal_positions({(3, 3)}, Placement.GRID)
    row = {(0, 0), (0, 1), (0, 2), (0, 3)}
    assert legal_positions(row, Placement.ADJACENT) == tuple(
        (r, c) for r in (-1, 1) for c in range(4))


# -- games on stacked packs --------------------------------------------------------------------

ROW_MAJOR = [(r, c) for r in range(4) for c in range(4)]


def new_game(first: str = "", players: int = 1, preset: str = "standard") -> SquareState:
    """A game of a preset on a pack starting with the cards `first`."""
    return SquareState(PRESETS[preset], players, random.Random(0), deck=stack_pack(first))


def lay_all(state: SquareState, positions: Sequence[tuple[int, int]]) -> None:
    """Every seat lays each card at the next of `positions`."""
    for place in positions:
        state.apply_joint({seat: place for seat in state.to_act()})


def quine_game(players: int = 1) -> SquareState:
    """The 172 layout laid row by row, starter 5S."""
    state = new_game(QUINE.replace("/", " ") + " 5S", players)
    lay_all(state, ROW_MAJOR[1:])
    return state


def test_the_first_card_is_laid_at_the_origin_and_the_second_turned_up() -> None:
    state = new_game("7H 8D")
    assert state.log[1:4] == [TurnedUp(None, card("7H"), 1), Laid(0, (0, 0), card("7H")),
                              TurnedUp(None, card("8D"), 2)]
    view = state.view(0)
    assert view.card == card("8D") and view.number == 2 and view.starter is None
    assert view.cells == (((0, 0), card("7H")),)
    assert state.legal(0) == tuple(sorted(set(STEPS)))


def test_the_172_game_and_its_final_summary() -> None:
    state = quine_game()
    assert state.to_act() == ()
    assert isinstance(state.log[-1], GameOver)
    assert [e for e in state.log if isinstance(e, StarterTurned)] == [
        StarterTurned(None, card("5S"))]
    assert Scored(0, (20, 29, 24, 24), (20, 20, 15, 20), 172) in state.log
    outcome = state.outcome()
    assert outcome.scores == (172.0,) and outcome.order is ScoreOrder.HIGHER_WINS
    assert outcome.turns == 16
    assert json.loads(json.dumps(outcome.final)) == {"starter": "5S", "layouts": [{
        "layout": [row.split() for row in QUINE.split(" / ")],
        "rows": [20, 29, 24, 24], "columns": [20, 20, 15, 20], "total": 172}]}


def test_the_square_is_read_from_its_top_left_wherever_the_first_card_went() -> None:
    # the first card (QH) ends at the bottom right: positions run up and to the left
    order = [(-r, -c) for r in range(4) for c in range(4)]
    cards = "QH QD QS QC 5H 5D JS 5C 6H 4D 6S 4C 4H 6D 4S 6C"
    state = new_game(cards + " 5S")
    lay_all(state, order[1:])
    final = state.outcome().final["layouts"][0]
    assert final["layout"][3] == ["QC", "QS", "QD", "QH"]  # the bottom row, left to right
    assert final["total"] == 172


def test_a_placement_that_would_spoil_the_square_is_refused() -> None:
    state = new_game()
    lay_all(state, [(0, 1), (0, 2), (0, 3)])
    assert (0, 4) not in state.legal(0) and (0, -1) not in state.legal(0)
    with pytest.raises(ValueError, match="cannot lay"):
        state.apply(0, (0, 4))


def test_every_seat_lays_the_same_cards_and_decides_at_once() -> None:
    state = new_game("7H 8D 9C", players=2)
    assert state.to_act() == (0, 1)
    with pytest.raises(ValueError, match="every seat lays each card"):
        state.apply(0, (0, 1))
    state.apply_joint({0: (0, 1), 1: (1, 1)})
    assert state.view(0).layouts == ((((0, 0), card("7H")), ((0, 1), card("8D"))),
                                     (((0, 0), card("7H")), ((1, 1), card("8D"))))
    assert state.view(1).cells == state.view(1).layouts[1]
    assert state.view(1).card == card("9C")


def test_seats_rank_by_their_own_squares() -> None:
    state = new_game(QUINE.replace("/", " ") + " 5S", players=2)
    lay_all(state, [])
    # seat 1 lays row by row too, but snaking: its second and fourth rows run backwards
    spoil = [(r, c if r % 2 == 0 else 3 - c) for r in range(4) for c in range(4)][1:]
    for good, bad in zip(ROW_MAJOR[1:], spoil, strict=True):
        state.apply_joint({0: good, 1: bad})
    totals = state.outcome().scores
    assert totals[0] == 172 and totals[0] > totals[1]
    assert state.log[-1] == GameOver(None, (172, int(totals[1])), (0,))


def test_the_pack_and_the_starter_stay_hidden_until_the_squares_are_full() -> None:
    state = new_game(QUINE.replace("/", " ") + " 5S")
    lay_all(state, ROW_MAJOR[1:15])
    shown = {c for _, c in state.view(0).cells} | {state.view(0).card}
    assert card("5S") not in shown and len(shown) == 16
    assert card("5S") not in state.visible_cards(0)


def test_players_and_stacked_packs_are_checked() -> None:
    with pytest.raises(PlayersError, match="1 to 4 players"):
        new_game(players=5)
    with pytest.raises(ValueError, match="52 cards"):
        SquareState(PRESETS["standard"], 1, random.Random(0), deck=standard_deck()[:51])
    with pytest.raises(ValueError):
        stack_pack("QH QH")


def test_the_grid_preset_lets_the_first_card_go_anywhere() -> None:
    state = new_game("7H", preset="grid")
    assert len(state.legal(0)) == 16 and state.view(0).cells == ()
    lay_all(state, [(3, 3)])
    assert (3, 3) not in state.legal(0) and len(state.legal(0)) == 15


def test_same_seed_same_record_and_every_seat_sees_all_squares() -> None:
    variant = GAME.variant()
    lines = [play_game(variant, [RandomBot(), RandomBot()], ["a", "b"], 11).to_line()
             for _ in range(2)]
    assert lines[0] == lines[1]
    record = json.loads(lines[0])
    assert record["final"]["starter"] and len(record["final"]["layouts"]) == 2
    assert all(sum(layout["rows"]) + sum(layout["columns"]) == layout["total"]
               for layout in record["final"]["layouts"])


def test_narration_fits_80_columns_and_tells_the_scores() -> None:
    lines: list[str] = []
    printer = ShowPrinter(lines.append)
    play_game(GAME.variant(), [RandomBot(), RandomBot()], ["ann", "bob"], 4, watcher=printer)
    text = "\n".join(lines)
    assert all(len(line) <= 80 for line in lines)
    assert "card 16 of 16" in text and "The starter is" in text and "ann scores" in text


def test_the_terminal_reads_numbers_and_coordinates_and_says_why_a_place_is_refused() -> None:
    from arena.tty import BadInput
    from arena.tty.cribbage_square import SquareInterface

    state = new_game("7H 8D 9C 10S JD")
    lay_all(state, [(0, 1), (0, 2), (0, 3)])
    ui, view, legal = SquareInterface(), state.view(0), state.legal(0)
    assert ui.parse("1 0", legal, view) == (1, 0) == ui.parse("(1, 0)", legal, view)
    assert ui.parse("1", legal, view) == legal[0]
    for text, why in [("0 1", "8D is there"), ("5 5", "touches no card"),
                      ("0 4", "would span 1 rows and 5 columns"), ("1 -1", "5 columns")]:
        with pytest.raises(BadInput, match=why):
            ui.parse(text, legal, view)
    drawing = "\n".join(ui.draw(view, 0))
    assert "Card 5 of 16: JD" in drawing and "7H" in drawing and "10S" in drawing
    assert str(len(legal)) in drawing.split()  # the free places are numbered
