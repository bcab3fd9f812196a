"""Cribbage Square bots: `square-greedy` and `square-search` (`random` plays it too).

Both value a layout line by line. A row or column holding some cards will, when the square is
full, hold four and be scored with the starter; its *value* is the points it is expected to
score if its empty places and the starter were filled at random from the cards not yet seen.
Rows and columns not yet begun count as empty lines. Fifteens, pairs and runs are reckoned
exactly over the ranks: from the actual unseen cards for lines of three or four cards (so a line
waiting for a fifth five is worth little once three fives are down), from a fresh pack for
shorter lines (tabled once). Flushes and nobs are reckoned from the unseen suits.

`square-greedy` lays each card where it adds the most value now.

`square-search` values lines of two cards from the unseen cards too, and looks one card further
(expectimax by sampling): for each of its best `width` places (by the gain now), it draws
`samples` cards from the unseen ones (the same draws for every place), finds for each the best
place for that card next, and adds the average of those best gains to the gain now. So it
keeps good places open for the cards likely to come and does not block its own lines. Its
cost grows with `width` x `samples`: the defaults (32 x 8) take about 12 ms a move.

The strongest bot, `square-expert`, is in `expert.py`: these values plus residuals
learned by self-play (`values.py`), with a smaller look-ahead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.cards import Card, Rank, standard_deck
from arena.games.cribbage_square import Placement, SquareView, legal_positions
from arena.games.cribbage_square.scoring import RANK_POINTS, SIDE

PACK = tuple(standard_deck())
RANK = {card: int(card.rank) for card in PACK}
SUIT = {card: "CDHS".index(card.suit.value) for card in PACK if card.suit is not None}
JACK = int(Rank.JACK)

LineKey = tuple[tuple[int, ...], int, tuple[int, ...]]
"""A line as its value sees it: sorted ranks, the suit all its cards share (-1: mixed, -2: no
card yet), and the suits of its jacks."""

EMPTY: LineKey = ((), -2, ())


def add(key: LineKey, card: Card) -> LineKey:
    """The line with `card` added."""
    ranks, suit, jacks = key
    rank, s = RANK[card], SUIT[card]
    new_suit = s if suit == -2 or suit == s else -1
    return (tuple(sorted((*ranks, rank))), new_suit,
            (*jacks, s) if rank == JACK else jacks)


@cache
def _with(ranks: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return tuple(sorted((*ranks, rank)))


@cache
def static_ranks(ranks: tuple[int, ...]) -> float:
    """Expected rank points of a line holding `ranks` when its other places and the starter
    come at random from a fresh pack less these cards."""
    left = 52 - len(ranks)
    if len(ranks) == SIDE + 1:
        return float(RANK_POINTS[ranks])
    return sum((4 - ranks.count(a)) * static_ranks(_with(ranks, a))
               for a in range(1, 14)) / left


def flush_chance(held: int, unseen_suit: int, unseen: int) -> float:
    """Expected flush points of a line of `held` cards of one suit, its other places and the
    starter drawn from `unseen` cards of which `unseen_suit` are of that suit."""
    need = SIDE - held
    if unseen_suit < need or unseen <= need:
        return 0.0
    chance = 1.0
    for i in range(need):
        chance *= (unseen_suit - i) / (unseen - i)
    return chance * (4 + (unseen_suit - need) / (unseen - need))


class LineValues:
    """Line values for one decision: what the unseen cards make each line worth."""

    def __init__(self, unseen: Iterable[Card], deep: bool = False) -> None:
        self.deep = deep
        self.ranks = [0] * 14
        self.suits = [0, 0, 0, 0]
        for card in unseen:
            self.ranks[RANK[card]] += 1
            self.suits[SUIT[card]] += 1
        self.total = sum(self.suits)
        self.jacks = self.ranks[JACK]
        self._values: dict[LineKey, float] = {}
        self._fours: dict[tuple[int, ...], float] = {}

    def value(self, key: LineKey) -> float:
        """The expected final points of a line."""
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self._value(key)
        return found

    def _value(self, key: LineKey) -> float:
        ranks, suit, jacks = key
        k, total = len(ranks), self.total
        if k == SIDE:
            points = self._four(ranks) / total
        elif k == SIDE - 1:
            points = self._three(ranks)
        elif k == SIDE - 2 and self.deep:
            counts = self.ranks
            points = sum(counts[a] * self._three(_with(ranks, a))
                         for a in range(1, 14) if counts[a]) / total
        else:
            points = static_ranks(ranks)
        if suit >= 0:
            points += flush_chance(k, self.suits[suit], total)
        elif suit == -2:
            points += sum(flush_chance(1, n, total) * n / total for n in self.suits)
        for s in jacks:
            points += self.suits[s] / total
        points += (SIDE - k) * self.jacks / total * 0.25  # a jack to come, of the starter's suit
        return points

    def _four(self, ranks: tuple[int, ...]) -> float:
        """Sum over the unseen cards, as starter, of the line's rank points (times count)."""
        found = self._fours.get(ranks)
        if found is None:
            counts = self.ranks
            found = self._fours[ranks] = float(sum(
                counts[b] * RANK_POINTS[_with(ranks, b)] for b in range(1, 14) if counts[b]))
        return found

    def _three(self, ranks: tuple[int, ...]) -> float:
        counts, total = self.ranks, self.total
        if total < 2:
            return static_ranks(ranks)
        acc = 0.0
        for a in range(1, 14):
            if counts[a]:
                four = _with(ranks, a)
                acc += counts[a] * (self._four(four) - RANK_POINTS[_with(four, a)])
        return acc / (total * (total - 1))


class Layout:
    """A seat's layout as lines: the key of each row and column that holds a card."""

    def __init__(self, cells: Sequence[tuple[tuple[int, int], Card]]) -> None:
        self.occupied: set[tuple[int, int]] = set()
        self.rows: dict[int, LineKey] = {}
        self.cols: dict[int, LineKey] = {}
        for position, card in cells:
            self.lay(position, card)

    def lay(self, position: tuple[int, int], card: Card) -> None:
        """Add a card."""
        r, c = position
        self.occupied.add(position)
        self.rows[r] = add(self.rows.get(r, EMPTY), card)
        self.cols[c] = add(self.cols.get(c, EMPTY), card)

    def copy(self) -> Layout:
        """An independent copy."""
        other = Layout(())
        other.occupied = set(self.occupied)
        other.rows, other.cols = dict(self.rows), dict(self.cols)
        return other

    def gains(self, card: Card, places: Iterable[tuple[int, int]],
              values: LineValues) -> dict[tuple[int, int], float]:
        """How much laying `card` at each place adds to the layout's value."""
        value = values.value
        row_gain: dict[int, float] = {}
        col_gain: dict[int, float] = {}
        out = {}
        for r, c in places:
            g = row_gain.get(r)
            if g is None:
                line = self.rows.get(r, EMPTY)
                g = row_gain[r] = value(add(line, card)) - value(line)
            h = col_gain.get(c)
            if h is None:
                line = self.cols.get(c, EMPTY)
                h = col_gain[c] = value(add(line, card)) - value(line)
            out[(r, c)] = g + h
        return out

    def look_ahead(self, card: Card, candidates: Sequence[tuple[int, int]],
                   now: dict[tuple[int, int], float], draws: Sequence[Card], values: Any,
                   placement: Placement) -> tuple[int, int]:
        """Of `candidates`, the place where `card`'s gain now (`now`) plus the best gain of the
        next card, averaged over `draws`, is highest (`values` values the lines then)."""
        best, best_value = candidates[0], float("-inf")
        for place in candidates:
            after = self.copy()
            after.lay(place, card)
            nexts = legal_positions(after.occupied, placement)
            ahead = sum(max(after.gains(drawn, nexts, values).values()) for drawn in draws)
            total = now[place] + ahead / len(draws)
            if total > best_value:
                best, best_value = place, total
        return best


def unseen_cards(view: SquareView) -> list[Card]:
    """The cards of the pack not yet turned up (the starter is among them)."""
    seen = {card for _, card in view.cells}
    if view.card is not None:
        seen.add(view.card)
    return [card for card in PACK if card not in seen]


class SquareGreedyBot(Bot):
    """Lays each card where it adds the most expected value to its rows and columns now."""

    games: ClassVar[tuple[str, ...]] = ("cribbage-square",)

    def act(self, obs: Observation[Any]) -> Action:
        """The place of highest gain (ties: the first in row-major order)."""
        view: SquareView = obs.view
        assert view.card is not None
        values = LineValues(unseen_cards(view))
        gains = Layout(view.cells).gains(view.card, obs.legal, values)  # type: ignore[arg-type]
        return max(obs.legal, key=lambda p: gains[p])  # type: ignore[index]


def check_budget(samples: int, width: int) -> tuple[int, int]:
    """A look-ahead's budget, checked: `samples` next cards (0 or more) for its best `width`
    places (1 or more)."""
    if samples < 0:
        raise ValueError(f"samples must be 0 or more, not {samples}")
    if width < 1:
        raise ValueError(f"width must be 1 or more, not {width}")
    return samples, width


class SquareSearchBot(Bot):
    """Expectimax one card deep by sampling: the gain now plus the average best gain of the
    next card, over `samples` draws from the unseen cards, for its best `width` places."""

    games: ClassVar[tuple[str, ...]] = ("cribbage-square",)

    def __init__(self, samples: int = 32, width: int = 8) -> None:
        self.samples, self.width = check_budget(samples, width)

    def act(self, obs: Observation[Any]) -> Action:
        """The place of highest gain now plus expected best gain of the next card."""
        view: SquareView = obs.view
        card = view.card
        assert card is not None
        unseen = unseen_cards(view)
        values = LineValues(unseen, deep=True)
        layout = Layout(view.cells)
        legal: Sequence[tuple[int, int]] = obs.legal  # type: ignore[assignment]
        gains = layout.gains(card, legal, values)
        ranked = sorted(legal, key=lambda p: -gains[p])
        if len(ranked) == 1 or self.samples == 0 or view.number >= SIDE * SIDE:
            return ranked[0]
        draws = self.rng.sample(unseen, min(self.samples, len(unseen) - 1))
        return layout.look_ahead(card, ranked[:self.width], gains, draws, values, view.placement)

