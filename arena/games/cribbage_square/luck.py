"""The luck model of Cribbage Square: what the last card and the starter gave each square.

Every card turned up after the first is chance, the same card for every seat. This model takes
the luck of the last two, where the value of a square is known exactly and cheaply: once fifteen
cards are down the sixteenth has one place left, so a square's expected final score is the mean
of its points over the starters still possible (the cards not yet turned up). So the value of a
state (`SquareLuck.value`) is:

- after the starter, each seat's points;
- with fifteen cards down and the sixteenth to lay, each square's points with that card in its
  one place, averaged over every possible starter;
- before that, 0 for every seat: the model takes no luck from the earlier cards (their values
  would need a model of where a player lays cards to come).

The sixteenth card and the starter are each swapped with every card not yet turned up
(`reveals`), all equally likely; `expected` computes the same mean directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from arena.api import Action
from arena.cards import Card, Rank
from arena.games.cribbage_square.dealing import LAID
from arena.games.cribbage_square.placement import (
    Position,
    legal_positions,
    rows_of,
    square_origin,
)
from arena.games.cribbage_square.sampler import SquareSampler
from arena.games.cribbage_square.scoring import columns_of, hand_points, rank_tables
from arena.games.cribbage_square.state import SquareState
from arena.games.cribbage_square.variants import Placement, SquareParams
from arena.luck.model import Alternatives, LuckModel, Values

_copy = SquareSampler().clone

LAST = LAID - 1
"""Cards turned up when the last card but one waits to be laid (its laying turns up the last)."""


class SquareLuck(LuckModel[SquareState]):
    """Each square's exact expected points once one place is left; luck from the last card
    laid and the starter."""

    name = "square-last-cards"
    version = 1

    def __init__(self, params: SquareParams, players: int) -> None:
        self.placement = params.placement
        self.players = players

    def value(self, state: SquareState) -> Values:
        """The points after the starter; the mean over starters with one place left; else 0."""
        if state.starter is not None:
            return tuple(float(s.total) for s in state.scores)
        card = state.card
        if card is None or state.next != LAID:
            return (0.0,) * self.players
        starters = state.pack[LAID:]
        return tuple(_mean_points(_with(state.cells[s], self._last_place(state.cells[s]), card),
                                  self.placement, starters)
                     for s in range(self.players))

    def _last_place(self, cells: Mapping[Position, Card]) -> Position:
        (place,) = legal_positions(cells, self.placement)
        return place

    def reveals(self, state: SquareState, seat: int, action: Action
                ) -> Alternatives[SquareState] | None:
        """The solitaire case of `joint_reveals`."""
        return self.joint_reveals(state, {seat: action})

    def joint_reveals(self, state: SquareState, actions: Mapping[int, Action]
                      ) -> Alternatives[SquareState] | None:
        """Laying the last card but one (which turns up the last) or the last card (which turns
        up the starter): the card to be turned swapped with each card not yet turned up."""
        if state.card is None or state.next not in (LAST, LAID):
            return None
        pack = state.pack
        turned = state.next
        out: list[tuple[float, SquareState]] = []
        for other in range(turned, len(pack)):
            twin = _copy(state)
            assert isinstance(twin, SquareState)
            twin.pack[turned], twin.pack[other] = twin.pack[other], twin.pack[turned]
            out.append((1 / (len(pack) - turned), twin))
        return out

    def expected(self, state: SquareState, seat: int, action: Action) -> Values | None:
        """The solitaire case of `expected_joint`."""
        return self.expected_joint(state, {seat: action})

    def expected_joint(self, state: SquareState, actions: Mapping[int, Action]
                       ) -> Values | None:
        """The mean over `joint_reveals`, computed directly: over the starters for the last
        card; over the last card and then the starter for the last card but one."""
        card = state.card
        if card is None or state.next not in (LAST, LAID):
            return None
        unseen = state.pack[state.next:]
        out = []
        for seat in range(self.players):
            place = actions[seat]
            assert isinstance(place, tuple)
            cells = _with(state.cells[seat], place, card)
            if state.next == LAID:
                out.append(_mean_points(cells, self.placement, unseen))
            else:
                out.append(self._mean_over_last(cells, unseen))
        return tuple(out)

    def _mean_over_last(self, cells: dict[Position, Card], unseen: Sequence[Card]) -> float:
        """A square's mean points over its last card and then the starter, both among `unseen`.

        Six of its eight lines do not hold the last place: their points depend on the starter
        only, and each starter follows every last card but itself."""
        place = self._last_place(cells)
        full = _with(cells, place, unseen[0])
        rows = rows_of(full, self.placement)
        top, left = square_origin(full, self.placement)
        row, column = place[0] - top, place[1] - left
        fixed = [line for r, line in enumerate(rows) if r != row]
        fixed += [line for c, line in enumerate(columns_of(rows)) if c != column]
        starters = Starters(unseen)
        n = len(unseen)
        total = (n - 1) * sum(starters.total(line) for line in fixed)
        for last in unseen:
            filled = rows_of(_with(cells, place, last), self.placement)
            for line in (filled[row], columns_of(filled)[column]):
                total += starters.total(line) - hand_points(line, last)
        return total / (n * (n - 1))


class Starters:
    """A set of possible starters, counted by rank and by suit, to add up a line's points over
    all of them at once: the rank part (fifteens, pairs, runs) depends on the starter's rank
    only, the flush and his nob on its suit only."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.ranks = Counter(int(c.rank) for c in cards)
        self.suits = Counter(c.suit for c in cards)
        self.count = len(cards)

    def total(self, line: Sequence[Card]) -> int:
        """The line's points added up over every starter of the set."""
        table = rank_tables()[0]
        ranks = [int(c.rank) for c in line]
        total = sum(k * table[tuple(sorted([*ranks, r]))] for r, k in self.ranks.items())
        suit = line[0].suit
        if all(c.suit is suit for c in line):
            total += 4 * self.count + self.suits[suit]
        total += sum(self.suits[c.suit] for c in line if c.rank is Rank.JACK)
        return total


def _with(cells: Mapping[Position, Card], place: Position, card: Card) -> dict[Position, Card]:
    """The cells with `card` laid at `place`."""
    out = dict(cells)
    out[place] = card
    return out


def _mean_points(cells: Mapping[Position, Card], placement: Placement,
                 starters: Sequence[Card]) -> float:
    """A full square's mean points over `starters`."""
    rows = rows_of(cells, placement)
    counted = Starters(starters)
    return sum(counted.total(line) for line in (*rows, *columns_of(rows))) / len(starters)
