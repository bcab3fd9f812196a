"""The tournament schedule: tables x deals x seatings x variants, as a lazy stream of tasks.

Order (and so every task id) is fixed by the config: games and variants in config order, then
tables, then deals, then seatings. Solitaire (one seat) is scheduled deal by deal, every bot
playing each deal in turn, so that the games of one deal sit next to each other.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations


class Seating(enum.Enum):
    """Which seat orders each table plays each deal in."""

    ROTATIONS = "rotations"
    PERMUTATIONS = "permutations"


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: which variant, which bots in which seats, on which deal."""

    task: int
    game: str
    variant: str
    preset: str
    overrides: tuple[tuple[str, str], ...]
    table: tuple[str, ...]
    seats: tuple[str, ...]
    clones: tuple[int, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class VariantPlan:
    """A variant to schedule: its label, preset and overrides."""

    label: str
    preset: str
    overrides: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GamePlan:
    """A game to schedule: its name, table size and variants."""

    game: str
    players: int
    variants: tuple[VariantPlan, ...]


def tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every table of `players` bots from the pool, in pool order; a pool smaller than the table
    is filled with clones: every multiset of that size holding each bot at least once."""
    if players <= len(bots):
        return list(combinations(bots, players))
    return [t for t in combinations_with_replacement(bots, players) if set(t) == set(bots)]


def seatings(table: tuple[str, ...], seating: Seating) -> list[tuple[str, ...]]:
    """The distinct seat orders of a table: its rotations or its permutations."""
    if seating is Seating.ROTATIONS:
        orders = [table[r:] + table[:r] for r in range(len(table))]
    else:
        orders = list(permutations(table))
    return list(dict.fromkeys(orders))


def clone_seats(seats: tuple[str, ...]) -> tuple[int, ...]:
    """Seats holding a further copy of a bot already seated earlier."""
    return tuple(i for i, name in enumerate(seats) if name in seats[:i])


class Schedule:
    """The tasks of a tournament, generated lazily with stable ids."""

    def __init__(self, games: Sequence[GamePlan], bots: Sequence[str], seeds: Sequence[int],
                 seating: Seating = Seating.ROTATIONS) -> None:
        self.games = tuple(games)
        self.bots = tuple(bots)
        self.seeds = tuple(seeds)
        self.seating = seating

    def _seatings(self, table: tuple[str, ...], seed: int) -> list[tuple[str, ...]]:
        """The seat orders of a table on one deal.

        Under rotations a table of three or more is rotated from an order shuffled for that deal
        (seeded by the deal and the table): every bot still sits in every seat of every deal, and
        who sits beside whom changes from deal to deal instead of staying fixed.
        """
        if self.seating is Seating.ROTATIONS and len(table) >= 3:
            order = list(table)
            random.Random(f"seating:{seed}:{'|'.join(table)}").shuffle(order)
            return [tuple(order[r:] + order[:r]) for r in range(len(order))]
        return seatings(table, self.seating)

    def _per_deal(self, table: tuple[str, ...]) -> int:
        """How many games a table plays on each deal."""
        if self.seating is Seating.ROTATIONS and len(table) >= 3:
            return len(table)
        return len(seatings(table, self.seating))

    def __len__(self) -> int:
        total = 0
        for plan in self.games:
            per_deal = (len(self.bots) if plan.players == 1 else
                        sum(self._per_deal(t) for t in tables(self.bots, plan.players)))
            total += per_deal * len(plan.variants) * len(self.seeds)
        return total

    def __iter__(self) -> Iterator[GameTask]:
        task = 0
        for plan in self.games:
            for variant in plan.variants:
                for table, seats, seed in self._games_of(plan):
                    yield GameTask(task, plan.game, variant.label, variant.preset,
                                   variant.overrides, table, seats, clone_seats(seats), seed)
                    task += 1

    def _games_of(self, plan: GamePlan) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], int]]:
        if plan.players == 1:  # deal by deal: one deal's games form one ranked match
            for seed in self.seeds:
                for bot in self.bots:
                    yield (bot,), (bot,), seed
            return
        for table in tables(self.bots, plan.players):
            for seed in self.seeds:
                for seats in self._seatings(table, seed):
                    yield table, seats, seed
