"""Concentration's luck model: the exact two-player minimax values (`minimax.py`) of the public
state, for two players where every card has exactly one mate.

A card turned up that nobody had seen is, given everything shown, equally likely to be any of
the face-down cards nobody has seen (the shuffle is exchangeable, and no decision could depend on
them). So each such flip is a chance event, and its luck is the value after it less the mean
value over those cards. The value of a seat is its points so far plus its share of the pairs left
under minimax play by both: with ``n`` pairs left and the mover's expected margin ``m``, the mover
expects ``(n + m) / 2`` more and the other ``(n - m) / 2``. Under chips-per-pair scoring (two
seats) a seat's score is its margin, and so is its value. The deal shows nothing, so it brings no
luck. Cards of one class (the mate of a known singleton, or a card of an unseen pair) lead to one
value, so the expectation is exact over those classes (`expected`); `reveals` lists every
alternative card, the reference the tests hold `expected` to.
"""

from __future__ import annotations

import functools
from collections import Counter

from arena.api import Action
from arena.games.concentration.matching import MatchRule
from arena.games.concentration.minimax import (
    First,
    Node,
    Outcome,
    Position,
    Second,
    Solution,
    first_outcomes,
    minimax,
    second_options,
    second_outcomes,
    unseen_chances,
)
from arena.games.concentration.state import ConcentrationState
from arena.games.concentration.variants import ConcentrationParams, Scoring
from arena.luck.model import Alternatives, LuckModel, Values, detached


def minimax_applies(params: ConcentrationParams, players: int) -> bool:
    """Whether the two-player minimax of cards with one mate covers this variant and table:
    two seats, pairs, one field, no moving cards, one mate per card, points or chips per pair."""
    if players != 2 or params.set_size != 2 or params.duel or params.checkerboard:
        return False
    if params.moves or params.scoring is Scoring.CHIPS_WINNER:
        return False
    if params.match is MatchRule.RANK_COLOUR:
        return params.decks == 1
    return params.match is MatchRule.IDENTICAL and params.decks == 2 and not params.jokers


class ConcentrationLuck(LuckModel[ConcentrationState]):
    """Luck of the flips of cards nobody had seen, valued by the two-player minimax."""

    name = "concentration-minimax"
    version = 1

    def __init__(self, params: ConcentrationParams) -> None:
        self.again = not params.one_flip
        self.margin_only = params.scoring is Scoring.CHIPS_PER_PAIR
        self.pairs = params.rows * params.cols // 2

    @functools.cached_property
    def solution(self) -> Solution:
        """The minimax of every position up to the pairs dealt (solved once a process)."""
        return minimax(self.again, self.pairs)

    def value(self, state: ConcentrationState) -> Values:
        """Each seat's points plus its expected share of the pairs left under minimax play."""
        points = (state.points[0], state.points[1])
        if not state.to_act():
            return self._values(points, 0, 0, 0.0)
        start, node, seen_first = _read(state)
        if node is not None:
            margin = self._second(node, start)
        elif seen_first is First.PAIR_CARD:  # may take its mate, or (rule) turn an unseen card
            margin = max(self._worth(first_outcomes(start, f)) for f in
                         ((First.TAKE_PAIR, First.PAIR_CARD) if start.unseen
                          else (First.TAKE_PAIR,)))
        elif seen_first is First.SINGLETON:
            margin = self._worth(first_outcomes(start, First.SINGLETON))
        else:
            margin = self._margin(start)
        return self._values(points, state.seat, start.pairs, margin)

    def expected(self, state: ConcentrationState, seat: int, action: Action) -> Values | None:
        """The mean value after turning up a card nobody has seen, exactly, by class of card
        (the mate of a known singleton, a card of a pair nothing of which was seen, the mate of
        the card turned up first)."""
        pos: int = action  # type: ignore[assignment]
        if state.seen[pos]:
            return None
        points = (state.points[0], state.points[1])
        mover = state.seat
        start, node, seen_first = _read(state)
        if node is None and seen_first is None:  # the turn's first card
            margin = sum(c * self._second(n, start) for c, n in unseen_chances(start))
            return self._values(points, mover, start.pairs, margin)
        if node is not None:
            outcomes = second_outcomes(node, start, Second.UNSEEN)
        else:
            assert seen_first is not None
            outcomes = first_outcomes(start, seen_first)
        last = state.turns + 1 >= state.limit  # this turn ends the game whatever comes
        total = [0.0, 0.0]
        for chance, took, after in outcomes:
            now = (points[0] + (took and mover == 0), points[1] + (took and mover == 1))
            if last:
                values = self._values(now, mover, 0, 0.0)
            else:
                nxt = mover if took and self.again else 1 - mover
                values = self._values(now, nxt, after.pairs, self._margin(after))
            total[0] += chance * values[0]
            total[1] += chance * values[1]
        return (total[0], total[1])

    def reveals(self, state: ConcentrationState, seat: int,
                action: Action) -> Alternatives[ConcentrationState] | None:
        """Turning up a card nobody has seen: that card swapped with each card nobody has seen."""
        pos: int = action  # type: ignore[assignment]
        if state.seen[pos]:
            return None
        hidden = [p for p in state.live[0] if not state.seen[p] and p not in state.up]
        alternatives = []
        for other in hidden:
            twin = detached(state)
            twin.cards[pos], twin.cards[other] = twin.cards[other], twin.cards[pos]
            twin.keys[pos], twin.keys[other] = twin.keys[other], twin.keys[pos]
            alternatives.append((1.0 / len(hidden), twin))
        return alternatives

    def _values(self, points: tuple[int, int], mover: int, pairs: int, margin: float) -> Values:
        """Points plus shares of the `pairs` left, the `mover` expecting `margin` more than the
        other; each seat's margin under chips-per-pair."""
        share = ((pairs + margin) / 2, (pairs - margin) / 2)
        if mover:
            share = (share[1], share[0])
        values = (points[0] + share[0], points[1] + share[1])
        if self.margin_only:
            return (values[0] - values[1], values[1] - values[0])
        return values

    def _margin(self, pos: Position) -> float:
        return self.solution.margin(pos) if pos.pairs else 0.0

    def _worth(self, outcomes: list[Outcome]) -> float:
        """The mover's expected margin over the outcomes of its turn, as the minimax counts it."""
        total = 0.0
        for chance, took, after in outcomes:
            if took and self.again:
                total += chance * (1.0 + self._margin(after))
            elif took:
                total += chance * (1.0 - self._margin(after))
            else:
                total -= chance * self._margin(after)
        return total

    def _second(self, node: Node, start: Position) -> float:
        """The mover's margin after an unseen first card (`node`), playing the best second."""
        return max(self._worth(second_outcomes(node, start, s))
                   for s in second_options(node, start))


def _read(state: ConcentrationState) -> tuple[Position, Node | None, First | None]:
    """Where the turn stands: the position at its start, what an unseen first card turned out
    to be (None before it, or after a seen first card), and the class of a seen first card
    (`SINGLETON`, `PAIR_CARD` when its mate is seen too; None otherwise)."""
    keys, seen, live = state.keys, state.seen, state.live[0]
    first = state.up[0] if state.up else None
    fresh_first = first is not None and state.turn_revealed_new
    counts = Counter(keys[p] for p in live if seen[p] and not (fresh_first and p == first))
    singletons = sum(1 for c in counts.values() if c == 1)
    start = Position(len(live) // 2, singletons, len(counts) - singletons)
    if first is None:
        return start, None, None
    if fresh_first:
        return start, Node.MATCHED if counts[keys[first]] else Node.NEW, None
    return start, None, First.PAIR_CARD if counts[keys[first]] == 2 else First.SINGLETON
