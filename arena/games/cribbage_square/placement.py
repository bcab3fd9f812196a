"""Where a card may be laid, and how a finished layout reads as a square.

Positions are `(row, col)` tuples of ints, rows counted downwards and columns rightwards. In the
standard (adjacent) placement they are relative to the first card, which the table lays at
`(0, 0)`: a card may go on any empty place that touches a card on the table (side or corner)
while all the cards still fit in four rows and four columns. That is exactly the condition for
a 4 x 4 square still to be completable: every card must end inside one 4 x 4 square, so their
rows and columns must span at most four; and when they do, the places of any 4 x 4 square
around them can be filled outwards from the cards on the table, each touching one already laid
(tests/games/test_cribbage_square.py checks this on every reachable arrangement). In the grid
placement the square is fixed at rows and columns 0 to 3 and any empty place is legal.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from arena.cards import Card
from arena.games.cribbage_square.scoring import SIDE
from arena.games.cribbage_square.variants import Placement

Position = tuple[int, int]
"""A place on the table: (row, col)."""

ORIGIN: Position = (0, 0)
"""Where the table lays the first card in the adjacent placement."""

NEIGHBOURS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
"""The eight steps to a touching place: sides and corners."""

GRID = tuple((r, c) for r in range(SIDE) for c in range(SIDE))
"""Every place of the fixed grid, row by row."""


def span(occupied: Collection[Position]) -> tuple[int, int, int, int]:
    """The bounds of the occupied places: top, left, bottom, right (inclusive)."""
    rows = [r for r, _ in occupied]
    cols = [c for _, c in occupied]
    return min(rows), min(cols), max(rows), max(cols)


def legal_positions(occupied: Collection[Position], placement: Placement) -> tuple[Position, ...]:
    """The empty places where the next card may go, in row-major order."""
    if placement is Placement.GRID:
        return tuple(p for p in GRID if p not in occupied)
    if not occupied:
        return (ORIGIN,)
    top, left, bottom, right = span(occupied)
    low_r, high_r = bottom - SIDE + 1, top + SIDE - 1  # rows a new card may take
    low_c, high_c = right - SIDE + 1, left + SIDE - 1
    found = set()
    for r, c in occupied:
        for dr, dc in NEIGHBOURS:
            place = (r + dr, c + dc)
            if (low_r <= place[0] <= high_r and low_c <= place[1] <= high_c
                    and place not in occupied):
                found.add(place)
    return tuple(sorted(found))


def square_origin(occupied: Collection[Position], placement: Placement) -> Position:
    """The top-left place of the finished square."""
    if placement is Placement.GRID:
        return ORIGIN
    top, left, _, _ = span(occupied)
    return top, left


def rows_of(cells: Mapping[Position, Card], placement: Placement) -> tuple[tuple[Card, ...], ...]:
    """A full layout as four rows of four cards, top to bottom, each left to right."""
    if len(cells) != SIDE * SIDE:
        raise ValueError(f"a finished layout holds {SIDE * SIDE} cards, not {len(cells)}")
    top, left = square_origin(cells, placement)
    return tuple(tuple(cells[(top + r, left + c)] for c in range(SIDE)) for r in range(SIDE))
