"""The exact two-player minimax of Concentration where every card has exactly one mate.

Pure mathematics: no engine, no randomness, standard library only. The derivation is in
docs/strategy.md (section "The two-player minimax"); `python -m bots.concentration.minimax`
prints the figures quoted there. It stands in the game's package, beside the rules it solves,
because the arena uses its values too (the game's luck model); the bots' side of it (the shipped
table of choices, the strategies, the edges) is bots/concentration/minimax.py.

The rules are the engine's: two players, perfect memory (every flip is public), and no idle
turns (ruling 9 of docs/rules/concentration.md: while an unseen card is left, a turn whose first
card had been seen must turn an unseen card or the first card's mate second). The standard rule
gives a player who takes a pair another turn; under one-flip the turn passes.

Since both players know everything that has been shown, the game is a stochastic game of perfect
information over the public state, read at the start of a turn:

* ``n``: pairs still on the table;
* ``k``: known singletons (cards seen whose mate has not been seen);
* ``p``: known pairs (both cards seen, left on the table by a player who chose not to take them).

That leaves ``u = 2n - k - 2p`` unseen cards: the ``k`` mates of the singletons and
``f = 2(n - k - p)`` cards of pairs nothing of which has been seen. Every legal turn falls into
one of a few classes (`First`, then `Second` at the two points where the second flip is a
choice), and cards of one class are interchangeable, so the classes are the whole decision.

Values are the mover's expected margin (own future pairs minus the opponent's), a zero-sum
objective as in Zwick and Paterson. Every turn either takes a pair or shows an unseen card, so
the states form an acyclic graph, solved bottom-up in the order ``n`` up, ``u`` up.

`evaluate` is one solver for all three uses: both seats maximising (the minimax), one seat fixed
to a strategy and the other maximising (the best response, hence the exploitability), and both
fixed (the exact expected margin of two strategies).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

TIE = 1e-12
"""Choices whose values differ by less than this are ties, broken by the order of the enums."""


class Node(enum.Enum):
    """The points of a turn where a player chooses."""

    FIRST = "first"  # the start of a turn
    MATCHED = "matched"  # the first card, unseen, turned out to be the mate of a known singleton
    NEW = "new"  # the first card, unseen, turned out to be new

    # an Enum hashes its member's name in Python; the solver keys its choices by these tens of
    # thousands of times (every process that solves); a member is its only equal
    __hash__ = object.__hash__


class First(enum.Enum):
    """The first flip of a turn (with the second where the rule leaves no choice)."""

    TAKE_PAIR = "take-pair"  # a card of a known pair, then its mate
    UNSEEN = "unseen"  # an unseen card; the second flip is chosen after seeing it
    SINGLETON = "singleton"  # a known singleton, then (rule) an unseen card
    PAIR_CARD = "pair-card"  # a card of a known pair, then (rule) an unseen card: leaves the pair

    __hash__ = object.__hash__  # see Node


class Second(enum.Enum):
    """The second flip after an unseen first card."""

    MATE = "mate"  # the known mate of the first card: take the pair (MATCHED only)
    UNSEEN = "unseen"  # another unseen card
    KNOWN = "known"  # a known card that does not match: a deliberate miss

    __hash__ = object.__hash__  # see Node


Action = First | Second


@dataclass(frozen=True, slots=True)
class Position:
    """The public state at the start of a turn (or of its second flip, with the node)."""

    pairs: int
    singletons: int
    known_pairs: int = 0

    def __post_init__(self) -> None:
        if min(self.pairs, self.singletons, self.known_pairs) < 0 or (
                self.singletons + self.known_pairs > self.pairs):
            raise ValueError(f"impossible position {self}: need 0 <= k, p and k + p <= n")

    @property
    def unseen(self) -> int:
        """Face-down cards nobody has seen."""
        return 2 * self.pairs - self.singletons - 2 * self.known_pairs

    @property
    def fresh(self) -> int:
        """Unseen cards of pairs of which nothing has been seen."""
        return 2 * (self.pairs - self.singletons - self.known_pairs)


Strategy = Callable[[Node, Position], Action]
"""A fixed strategy: the action at each decision point, read from the public state."""


# An outcome: (chance, whether the mover took a pair, position afterwards).
Outcome = tuple[float, bool, Position]


def _kept(*outcomes: tuple[float, bool, tuple[int, int, int]]) -> list[Outcome]:
    """The outcomes that can happen (the others may name impossible positions)."""
    return [(c, took, Position(*after)) for c, took, after in outcomes if c > 0]


def first_options(pos: Position) -> list[First]:
    """The classes of first flip the rule allows in `pos`, in tie-breaking order."""
    n, k, p, u = pos.pairs, pos.singletons, pos.known_pairs, pos.unseen
    if n == 0:
        return []
    options = []
    if p:
        options.append(First.TAKE_PAIR)
    if u:
        options.append(First.UNSEEN)
        if k:
            options.append(First.SINGLETON)
        if p:
            options.append(First.PAIR_CARD)
    return options


def first_outcomes(pos: Position, first: First) -> list[Outcome]:
    """Outcomes of the first flips whose second flip is forced (all but UNSEEN)."""
    n, k, p, u, f = pos.pairs, pos.singletons, pos.known_pairs, pos.unseen, pos.fresh
    if first is First.TAKE_PAIR:
        return [(1.0, True, Position(n - 1, k, p - 1))]
    if first is First.SINGLETON:
        return _kept((1 / u, True, (n - 1, k - 1, p)),
                     ((k - 1) / u, False, (n, k - 1, p + 1)),
                     (f / u, False, (n, k + 1, p)))
    if first is First.PAIR_CARD:
        return _kept((k / u, False, (n, k - 1, p + 1)),
                     (f / u, False, (n, k + 1, p)))
    raise ValueError("an unseen first card is followed by a chosen second flip")


def unseen_chances(pos: Position) -> list[tuple[float, Node]]:
    """What an unseen first card turns out to be: the mate of a singleton, or new."""
    u = pos.unseen
    return [(c / u, node) for c, node in ((pos.singletons, Node.MATCHED), (pos.fresh, Node.NEW))
            if c]


def second_options(node: Node, pos: Position) -> list[Second]:
    """The second flips after an unseen first card, in tie-breaking order (`pos`: turn start)."""
    k, p, u = pos.singletons, pos.known_pairs, pos.unseen
    if node is Node.MATCHED:
        options = [Second.MATE]
        if u - 1:
            options.append(Second.UNSEEN)
        if k - 1 + 2 * p:
            options.append(Second.KNOWN)
        return options
    options = [Second.UNSEEN]
    if k + p:
        options.append(Second.KNOWN)
    return options


def second_outcomes(node: Node, pos: Position, second: Second) -> list[Outcome]:
    """Outcomes of a second flip after an unseen first card (`pos`: the turn's start)."""
    n, k, p, u, f = pos.pairs, pos.singletons, pos.known_pairs, pos.unseen, pos.fresh
    if node is Node.MATCHED:
        if second is Second.MATE:
            return [(1.0, True, Position(n - 1, k - 1, p))]
        if second is Second.KNOWN:
            return [(1.0, False, Position(n, k - 1, p + 1))]
        return _kept(((k - 1) / (u - 1), False, (n, k - 2, p + 2)),
                     (f / (u - 1), False, (n, k, p + 1)))
    if second is Second.KNOWN:
        return [(1.0, False, Position(n, k + 1, p))]
    if second is Second.MATE:
        raise ValueError("a new first card has no known mate")
    return _kept((1 / (u - 1), True, (n - 1, k, p)),
                 (k / (u - 1), False, (n, k, p + 1)),
                 ((f - 2) / (u - 1), False, (n, k + 2, p)))


def position_index(pos: Position) -> int:
    """The place of `pos` in a table of every position: by pairs, then known pairs, then
    singletons (`positions(top)` fills the first ``comb(top + 3, 3)`` places)."""
    n, k, p = pos.pairs, pos.singletons, pos.known_pairs
    return math.comb(n + 2, 3) + p * (n + 1) - p * (p - 1) // 2 + k


def positions(top: int) -> Iterator[Position]:
    """Every position with at most `top` pairs, each after every position it can lead to."""
    for n in range(top + 1):
        for u in range(2 * n + 1):
            for p in range((2 * n - u) // 2 + 1):
                k = 2 * n - u - 2 * p
                if k + p <= n:
                    yield Position(n, k, p)


@dataclass(frozen=True)
class Solution:
    """Values and choices of a two-player game where each seat maximises or follows a strategy.

    ``value[(seat, pos)]`` is the expected margin of `seat`, to move in `pos`, over the other
    seat; ``choice[(seat, node, pos)]`` is what `seat` does there.
    """

    again: bool
    top: int
    value: dict[tuple[int, Position], float]
    choice: dict[tuple[int, Node, Position], Action]

    def margin(self, pos: Position, seat: int = 0) -> float:
        """Expected margin of `seat`, to move in `pos`."""
        return self.value[(seat, pos)]


def evaluate(top: int, again: bool,
             strategies: tuple[Strategy | None, Strategy | None] = (None, None)) -> Solution:
    """Solve every position up to `top` pairs: a seat whose strategy is None maximises its own
    expected margin (given the other seat's strategy), the others follow theirs.

    With both None this is the minimax; with one fixed, the best response to it.
    """
    value: dict[tuple[int, Position], float] = {}
    choice: dict[tuple[int, Node, Position], Action] = {}
    # Two maximising seats face the same game: solve it once, for seat 0.
    symmetric = strategies == (None, None)
    seats = (0,) if symmetric else (0, 1)
    other = (0, 0) if symmetric else (1, 0)

    def worth(seat: int, outcomes: list[Outcome]) -> float:
        total = 0.0
        for chance, took, after in outcomes:
            if took and again:
                total += chance * (1.0 + value[(seat, after)])
            elif took:
                total += chance * (1.0 - value[(other[seat], after)])
            else:
                total -= chance * value[(other[seat], after)]
        return total

    def pick(seat: int, node: Node, pos: Position, options: list[Action],
             score: Callable[[Action], float]) -> float:
        fixed = strategies[seat]
        if fixed is not None:
            chosen = fixed(node, pos)
            if chosen not in options:
                raise ValueError(f"strategy chose {chosen} at {node.value} {pos}, not legal")
            best = score(chosen)
        else:
            chosen, best = options[0], score(options[0])
            for option in options[1:]:
                if (v := score(option)) > best + TIE:
                    chosen, best = option, v
        choice[(seat, node, pos)] = chosen
        return best

    for pos in positions(top):
        for seat in seats:
            options = first_options(pos)
            if not options:
                value[(seat, pos)] = 0.0
                continue

            def second_value(node: Node, seat: int = seat, pos: Position = pos) -> float:
                return pick(seat, node, pos, list(second_options(node, pos)),
                            lambda s: worth(seat, second_outcomes(node, pos, s)))  # type: ignore[arg-type]

            def first_value(first: Action, seat: int = seat, pos: Position = pos) -> float:
                if first is First.UNSEEN:
                    return sum(c * second_value(node) for c, node in unseen_chances(pos))
                return worth(seat, first_outcomes(pos, first))  # type: ignore[arg-type]

            value[(seat, pos)] = pick(seat, Node.FIRST, pos, list(options), first_value)
    if symmetric:
        value.update({(1, pos): v for (_, pos), v in list(value.items())})
        choice.update({(1, node, pos): a for (_, node, pos), a in list(choice.items())})
    return Solution(again, top, value, choice)


# The minimax: symmetric, so seat 0's choices serve both seats.

DEFAULT_TOP = 26
"""Tables are solved for at least this many pairs (a full pack), and grow if asked."""

_SOLVED: dict[bool, Solution] = {}


def minimax(again: bool, top: int = DEFAULT_TOP) -> Solution:
    """The solved game up to `top` pairs (at least a full pack); the largest solved so far is
    kept and serves every smaller table."""
    known = _SOLVED.get(again)
    if known is None or known.top < top:
        known = _SOLVED[again] = evaluate(max(top, DEFAULT_TOP), again)
    return known
