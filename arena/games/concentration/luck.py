"""Concentration's luck model: the exact two-player minimax values of the public state (solved by
`minimax.py`, read from the table `margins.py` ships), for two players where every card has
exactly one mate.

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

from arena.api import Action
from arena.games.concentration.margins import minimax_margin
from arena.games.concentration.matching import MatchRule
from arena.games.concentration.minimax import (
    First,
    Node,
    Outcome,
    Position,
    Second,
    first_outcomes,
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


Gains = tuple[float, float]
"""What the mover and the other seat expect to add to their points from here (mover first)."""

Moment = tuple[int, int, int, int]
"""Where a turn stands, as plain ints for a fast lookup (see `_read`): pairs left, known
singletons and known pairs at the turn's start, and one of the STAGES."""

STAGES: tuple[tuple[Node | None, First | None], ...] = (
    (None, None),  # the turn's start
    (Node.MATCHED, None),  # an unseen first card, the mate of a known singleton
    (Node.NEW, None),  # an unseen first card of a pair nothing of which was seen
    (None, First.SINGLETON),  # a seen first card whose mate is unseen
    (None, First.PAIR_CARD),  # a seen first card whose mate is seen too
)
"""What an unseen first card turned out to be, or the class of a seen first card."""


@functools.cache
def luck_of(params: ConcentrationParams) -> ConcentrationLuck:
    """The model of a variant, one a process: what it works out for one game serves the next."""
    return ConcentrationLuck(params)


class ConcentrationLuck(LuckModel[ConcentrationState]):
    """Luck of the flips of cards nobody had seen, valued by the two-player minimax."""

    name = "concentration-minimax"
    version = 1

    def __init__(self, params: ConcentrationParams) -> None:
        self.again = not params.one_flip
        self.margin_only = params.scoring is Scoring.CHIPS_PER_PAIR
        self.pairs = params.rows * params.cols // 2
        # the gains of each moment of a turn met, and their mean over a flip (public states
        # repeat from game to game: each is worked out once)
        self._now: dict[Moment, Gains] = {}
        self._after_flip: dict[tuple[Moment, bool], Gains] = {}
        self._read: tuple[ConcentrationState | None, int, Moment] = (None, 0, (0, 0, 0, 0))

    def _moment(self, state: ConcentrationState) -> Moment:
        """`_read(state)`, kept for the next look at the same state (the value after a flip is
        read again as the expectation of the next)."""
        last, length, moment = self._read
        if last is state and length == len(state.log):
            return moment
        moment = _read(state)
        self._read = (state, len(state.log), moment)
        return moment

    def value(self, state: ConcentrationState) -> Values:
        """Each seat's points plus its expected share of the pairs left under minimax play."""
        if not state.to_act():
            return self._values(state, state.seat, (0.0, 0.0))
        moment = self._moment(state)
        gains = self._now.get(moment)
        if gains is None:
            gains = self._now[moment] = self._gains_now(*_position(moment))
        return self._values(state, state.seat, gains)

    def expected(self, state: ConcentrationState, seat: int, action: Action) -> Values | None:
        """The mean value after turning up a card nobody has seen, exactly, by class of card
        (the mate of a known singleton, a card of a pair nothing of which was seen, the mate of
        the card turned up first)."""
        pos: int = action  # type: ignore[assignment]
        if state.seen[pos]:
            return None
        key = (self._moment(state), state.turns + 1 >= state.limit)
        gains = self._after_flip.get(key)
        if gains is None:
            gains = self._after_flip[key] = self._gains_after(*_position(key[0]), last=key[1])
        return self._values(state, state.seat, gains)

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

    def _values(self, state: ConcentrationState, mover: int, gains: Gains) -> Values:
        """Each seat's points plus its gain; each seat's margin under chips-per-pair."""
        mine, theirs = gains
        if mover:
            mine, theirs = theirs, mine
        values = (state.points[0] + mine, state.points[1] + theirs)
        if self.margin_only:
            return (values[0] - values[1], values[1] - values[0])
        return values

    def _gains_now(self, start: Position, node: Node | None, seen_first: First | None) -> Gains:
        """The gains at a moment of a turn, both seats playing the minimax from here."""
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
        return ((start.pairs + margin) / 2, (start.pairs - margin) / 2)

    def _gains_after(self, start: Position, node: Node | None, seen_first: First | None,
                     last: bool) -> Gains:
        """The mean gains (of this turn's mover, and the other) after a card nobody has seen is
        turned up at this moment; `last`: the turn ends the game whatever comes."""
        if node is None and seen_first is None:  # the turn's first card
            margin = sum(c * self._second(n, start) for c, n in unseen_chances(start))
            return ((start.pairs + margin) / 2, (start.pairs - margin) / 2)
        if node is not None:
            outcomes = second_outcomes(node, start, Second.UNSEEN)
        else:
            assert seen_first is not None
            outcomes = first_outcomes(start, seen_first)
        mine = theirs = 0.0
        for chance, took, after in outcomes:
            mine += chance * took
            if last:
                continue
            margin = self._margin(after)
            ahead, behind = (after.pairs + margin) / 2, (after.pairs - margin) / 2
            if took and self.again:  # the mover moves again
                mine, theirs = mine + chance * ahead, theirs + chance * behind
            else:
                mine, theirs = mine + chance * behind, theirs + chance * ahead
        return (mine, theirs)

    def _margin(self, pos: Position) -> float:
        return minimax_margin(self.again, pos) if pos.pairs else 0.0

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


def _read(state: ConcentrationState) -> Moment:
    """Where the turn stands: the position at its start (pairs left, known singletons, known
    pairs) and its stage (see STAGES), from the state's count of the cards seen by match key."""
    known = state.known
    counts = list(known.values())
    pairs, singletons = counts.count(2), counts.count(1)
    n = len(state.live[0]) // 2
    if not state.up:
        return n, singletons, pairs, 0
    seen_with_first = known[state.keys[state.up[0]]]
    if state.turn_revealed_new:  # the first card was unseen at the turn's start: not counted
        if seen_with_first == 2:  # the mate of a known singleton
            return n, singletons + 1, pairs - 1, 1
        return n, singletons - 1, pairs, 2
    return n, singletons, pairs, 4 if seen_with_first == 2 else 3


def _position(moment: Moment) -> tuple[Position, Node | None, First | None]:
    node, first = STAGES[moment[3]]
    return Position(moment[0], moment[1], moment[2]), node, first
