"""The scoring combinations of Paved with Gold and how to find them among cards."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from arena.cards import Card, Suit


class Combo(enum.Enum):
    """A scoring combination; its value is the name used in actions and records."""

    PAIR = "pair"
    THREE_OF_A_KIND = "three-of-a-kind"
    FLUSH = "flush"
    RUN = "run"
    PRIME = "prime"
    FIVE_OF_A_COLOUR = "five-of-a-colour"

    # an Enum hashes its member's name in Python, and the search looks combinations up millions
    # of times a game; a member is its only equal, so its identity hashes it as well
    __hash__ = object.__hash__

    @property
    def size(self) -> int:
        """How many cards the combination holds."""
        return _SIZES[self]

    @property
    def points(self) -> int:
        """What the combination scores."""
        return _POINTS[self]

    @property
    def label(self) -> str:
        """The combination in words, with its article: 'a run', 'five of a colour'."""
        return _LABELS[self]


_SIZES = {Combo.PAIR: 2, Combo.THREE_OF_A_KIND: 3, Combo.FLUSH: 3, Combo.RUN: 3, Combo.PRIME: 4,
          Combo.FIVE_OF_A_COLOUR: 5}
_POINTS = {Combo.PAIR: 4, Combo.THREE_OF_A_KIND: 9, Combo.FLUSH: 9, Combo.RUN: 9, Combo.PRIME: 16,
           Combo.FIVE_OF_A_COLOUR: 25}
_LABELS = {Combo.PAIR: "a pair", Combo.THREE_OF_A_KIND: "three of a kind",
           Combo.FLUSH: "a flush", Combo.RUN: "a run", Combo.PRIME: "a prime",
           Combo.FIVE_OF_A_COLOUR: "five of a colour"}

BEST_FIRST: tuple[Combo, ...] = tuple(sorted(Combo, key=lambda c: -c.points))
"""Every combination, the highest-scoring first (equal scores in declaration order)."""


class Aces(enum.Enum):
    """Where an ace may stand in a run."""

    LOW = "low"  # A-2-3 only
    HIGH_OR_LOW = "high-or-low"  # A-2-3 and Q-K-A
    ROUND_THE_CORNER = "round-the-corner"  # also K-A-2


def run_windows(aces: Aces) -> tuple[frozenset[int], ...]:
    """The sets of three ranks (ace = 1) that make a run under the ace rule."""
    windows = [frozenset({r, r + 1, r + 2}) for r in range(1, 12)]
    if aces is not Aces.LOW:
        windows.append(frozenset({12, 13, 1}))
    if aces is Aces.ROUND_THE_CORNER:
        windows.append(frozenset({13, 1, 2}))
    return tuple(windows)


@dataclass(frozen=True)
class ComboRules:
    """Which cards make which combination under a variant's run rules."""

    aces: Aces = Aces.HIGH_OR_LOW
    suited_runs: bool = False

    def holds(self, combo: Combo, cards: Sequence[Card]) -> bool:
        """Whether exactly these cards make `combo`."""
        if len(cards) != combo.size:
            return False
        return self.find(cards, (combo,), must=range(len(cards))) is not None

    def find(self, cards: Sequence[Card], combos: Iterable[Combo] = BEST_FIRST,
             must: Collection[int] = ()) -> tuple[Combo, tuple[int, ...]] | None:
        """The first of `combos` (in the order given) found among `cards`, using every index in
        `must`, as the combination and the indices of its cards; None if there is none."""
        fixed = sorted(set(must))
        for combo in combos:
            if combo.size < len(fixed):
                continue
            found = self._find_one(combo, cards, fixed)
            if found is not None:
                return combo, found
        return None

    def any_combo(self, cards: Sequence[Card]) -> bool:
        """Whether any scoring combination can be made from `cards`."""
        return self.find(cards) is not None

    def _find_one(self, combo: Combo, cards: Sequence[Card],
                  fixed: list[int]) -> tuple[int, ...] | None:
        if combo is Combo.PRIME:
            return self._prime(cards, fixed)
        if combo is Combo.RUN:
            return self._run(cards, fixed)
        key = _KEYS[combo]
        wanted = {key(cards[i]) for i in fixed}
        if len(wanted) > 1:
            return None
        groups: dict[object, list[int]] = {}
        for i, card in enumerate(cards):
            groups.setdefault(key(card), []).append(i)
        for value in wanted or groups:
            members = groups.get(value, [])
            if len(members) >= combo.size:
                rest = [i for i in members if i not in fixed]
                return tuple(fixed + rest[: combo.size - len(fixed)])
        return None

    def _prime(self, cards: Sequence[Card], fixed: list[int]) -> tuple[int, ...] | None:
        chosen: dict[Suit | None, int] = {}
        for i in fixed:
            if cards[i].suit in chosen:
                return None
            chosen[cards[i].suit] = i
        for i, card in enumerate(cards):
            chosen.setdefault(card.suit, i)
        if len(chosen) < 4:
            return None
        return tuple(fixed + [i for i in chosen.values() if i not in fixed])

    def _run(self, cards: Sequence[Card], fixed: list[int]) -> tuple[int, ...] | None:
        suits = {cards[i].suit for i in fixed}
        if self.suited_runs and len(suits) > 1:
            return None
        ranks = [int(cards[i].rank) for i in fixed]
        if len(set(ranks)) < len(ranks):
            return None
        for window in run_windows(self.aces):
            if not window.issuperset(ranks):
                continue
            # suits in a fixed order: a set's order of enum members varies between processes
            options = [s for s in Suit if not suits or s in suits] if self.suited_runs else [None]
            for suit in options:
                picked = dict(zip(ranks, fixed, strict=True))
                for i, card in enumerate(cards):
                    r = int(card.rank)
                    if r in window and r not in picked and (suit is None or card.suit is suit):
                        picked[r] = i
                if len(picked) == 3:
                    return tuple(fixed + [i for i in picked.values() if i not in fixed])
        return None


def _rank(card: Card) -> object:
    return card.rank


def _suit(card: Card) -> object:
    return card.suit


def _colour(card: Card) -> object:
    return card.colour


_KEYS = {Combo.PAIR: _rank, Combo.THREE_OF_A_KIND: _rank, Combo.FLUSH: _suit,
         Combo.FIVE_OF_A_COLOUR: _colour}
