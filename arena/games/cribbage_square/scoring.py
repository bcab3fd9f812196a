"""Scoring a line of Cribbage Square as a cribbage hand with the starter, fast and itemised.

A line (a row or a column) is four cards; with the starter it is scored as a cribbage hand:
fifteens 2 each, pairs 2 each, runs 1 a card (every distinct run counted), a flush of the four
line cards 4 (5 when the starter shares their suit) and one for his nob (a jack in the line of
the starter's suit). His heels (a jack as starter) scores nothing.

The rank part (fifteens, pairs, runs) depends only on the five ranks, so it is tabled once for
every multiset of five ranks (6,188 of them); scoring a line is then a lookup plus the suit
checks. Bots call `hand_points` and the rank tables directly.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from arena.cards import Card, Rank

SIDE = 4
"""The square is four cards a side: four rows and four columns of four."""

RANKS = tuple(range(1, 14))
"""Ranks as ints: ace 1 to king 13."""

JACK = int(Rank.JACK)


def pip(rank: int) -> int:
    """A rank's value for fifteens: ace 1, two to ten their number, court cards 10."""
    return min(rank, 10)


def fifteens_of(ranks: Sequence[int]) -> int:
    """Points for fifteens: 2 for each set of cards whose values add up to 15."""
    values = [pip(r) for r in ranks]
    count = 0
    for size in range(2, len(values) + 1):
        count += sum(1 for combo in itertools.combinations(values, size) if sum(combo) == 15)
    return 2 * count


def pairs_of(ranks: Sequence[int]) -> int:
    """Points for pairs: 2 for each pair of cards of one rank (three alike 6, four alike 12)."""
    return sum(n * (n - 1) for n in Counter(ranks).values())


def runs_of(ranks: Sequence[int]) -> int:
    """Points for runs: the longest run of three or more consecutive ranks scores its length
    for each distinct way of making it (a double run of three is 6, a triple run 9, a double
    double run 12); shorter runs inside a longer one do not count."""
    counts = Counter(ranks)
    best = 0
    for start in range(1, 14):
        length = 0
        while start + length in counts:
            length += 1
        if length >= 3 and (start - 1) not in counts:
            ways = 1
            for rank in range(start, start + length):
                ways *= counts[rank]
            best = max(best, length * ways)
    return best


@functools.cache
def rank_tables() -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], tuple[int, ...]]]:
    """Sorted five ranks -> points for fifteens, pairs and runs; and the three parts apart.

    Built on first use (some 60 ms), not at import: every command that lists the games imports
    this module. `RANK_POINTS` and `RANK_PARTS` name the two tables."""
    total: dict[tuple[int, ...], int] = {}
    parts: dict[tuple[int, ...], tuple[int, ...]] = {}
    for five in itertools.combinations_with_replacement(RANKS, 5):
        items = (fifteens_of(five), pairs_of(five), runs_of(five))
        parts[five] = items
        total[five] = sum(items)
    return total, parts


def __getattr__(name: str) -> object:
    """RANK_POINTS and RANK_PARTS, built when first asked for."""
    if name == "RANK_POINTS":
        return rank_tables()[0]
    if name == "RANK_PARTS":
        return rank_tables()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def flush_of(line: Sequence[Card], starter: Card) -> int:
    """4 when the four line cards share a suit, 5 when the starter does too; else 0 (the
    starter never completes a flush of three)."""
    suit = line[0].suit
    if len(line) != SIDE or any(card.suit is not suit for card in line):
        return 0
    return 5 if starter.suit is suit else 4


def nob_of(line: Sequence[Card], starter: Card) -> int:
    """1 for a jack in the line of the starter's suit (his heels, a jack starter, counts 0)."""
    return sum(1 for card in line if card.rank is Rank.JACK and card.suit is starter.suit)


@dataclass(frozen=True, slots=True)
class HandScore:
    """One line scored with the starter, item by item."""

    cards: tuple[Card, ...]
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nob: int

    @property
    def total(self) -> int:
        """The line's points."""
        return self.fifteens + self.pairs + self.runs + self.flush + self.nob


def score_hand(line: Sequence[Card], starter: Card) -> HandScore:
    """Score four line cards with the starter, item by item."""
    if len(line) != SIDE:
        raise ValueError(f"a line holds {SIDE} cards, not {len(line)}")
    fifteens, pairs, runs = rank_tables()[1][tuple(sorted([*(int(c.rank) for c in line),
                                                     int(starter.rank)]))]
    return HandScore(tuple(line), fifteens, pairs, runs, flush_of(line, starter),
                     nob_of(line, starter))


def hand_points(line: Sequence[Card], starter: Card) -> int:
    """The points of four line cards with the starter (the fast path of `score_hand`)."""
    ranks = sorted([int(line[0].rank), int(line[1].rank), int(line[2].rank), int(line[3].rank),
                    int(starter.rank)])
    points = rank_tables()[0][tuple(ranks)]
    suit = line[0].suit
    if line[1].suit is suit and line[2].suit is suit and line[3].suit is suit:
        points += 5 if starter.suit is suit else 4
    for card in line:
        if card.rank is Rank.JACK and card.suit is starter.suit:
            points += 1
    return points


@dataclass(frozen=True, slots=True)
class LayoutScore:
    """A whole square scored: each row (top to bottom), each column (left to right), the total."""

    rows: tuple[HandScore, ...]
    columns: tuple[HandScore, ...]
    starter: Card

    @property
    def total(self) -> int:
        """The layout's points: every row and every column."""
        return sum(h.total for h in self.rows) + sum(h.total for h in self.columns)


def columns_of(rows: Sequence[Sequence[Card]]) -> tuple[tuple[Card, ...], ...]:
    """The columns of a square given by its rows, left to right, each read top to bottom."""
    return tuple(tuple(row[c] for row in rows) for c in range(SIDE))


def score_layout(rows: Sequence[Sequence[Card]], starter: Card) -> LayoutScore:
    """Score a square given as four rows of four cards, with the starter."""
    if len(rows) != SIDE or any(len(row) != SIDE for row in rows):
        raise ValueError(f"a layout is {SIDE} rows of {SIDE} cards")
    return LayoutScore(tuple(score_hand(row, starter) for row in rows),
                       tuple(score_hand(col, starter) for col in columns_of(rows)), starter)


def layout_points(rows: Sequence[Sequence[Card]], starter: Card) -> int:
    """The total of a square (the fast path of `score_layout`)."""
    return (sum(hand_points(row, starter) for row in rows)
            + sum(hand_points(col, starter) for col in columns_of(rows)))
