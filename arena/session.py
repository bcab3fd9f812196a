"""A series of games between the same bots on consecutive deal seeds, and its summary."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena.engine import Variant
from arena.loader import BotSpec
from arena.match import Watcher, play_game
from arena.record import GameRecord


@dataclass(frozen=True, slots=True)
class SeriesGame:
    """One game of a series: its record and which entry (index into the bots) sat in each seat."""

    record: GameRecord
    entries: tuple[int, ...]


def seatings(players: int, rotate: bool) -> list[tuple[int, ...]]:
    """The seat orders a deal is played in: the given order, or every rotation of it."""
    turns = range(players) if rotate else range(1)
    return [tuple((seat + r) % players for seat in range(players)) for r in turns]


def play_series(variant: Variant, bots: Sequence[BotSpec], seed: int, deals: int,
                rotate: bool = False, watcher: Watcher | None = None) -> Iterator[SeriesGame]:
    """Play `deals` deals on seeds `seed`, `seed + 1`, ...; with `rotate`, each deal once per
    rotation of the seats (the duplicate format). Bots are fresh instances every game."""
    variant.check_players(len(bots))
    orders = seatings(len(bots), rotate)
    for offset in range(deals):
        for order in orders:
            seated = [bots[entry] for entry in order]
            record = play_game(variant, [b.make() for b in seated], [b.name for b in seated],
                               seed + offset, watcher)
            yield SeriesGame(record, order)


@dataclass(frozen=True)
class EntrySummary:
    """How one bot entry did over a series."""

    entry: int
    bot: str
    games: int
    wins: int
    mean_rank: float
    mean_score: float
    score_ci95: float
    faults: int


class SeriesTally:
    """Accumulates a series into per-entry summaries, without keeping the records."""

    def __init__(self, bots: Sequence[str]) -> None:
        self.names = list(bots)
        n = len(bots)
        self.games = 0
        self.wins = [0] * n
        self.rank_sum = [0] * n
        self.score_sum = [0.0] * n
        self.score_sq = [0.0] * n
        self.faults = [0] * n

    def add(self, game: SeriesGame) -> None:
        """Count one game."""
        self.games += 1
        record = game.record
        for seat, entry in enumerate(game.entries):
            score, rank = record.scores[seat], record.ranks[seat]
            self.wins[entry] += rank == 1
            self.rank_sum[entry] += rank
            self.score_sum[entry] += score
            self.score_sq[entry] += score * score
        for fault in record.faults:
            self.faults[game.entries[fault.seat]] += 1

    def summary(self) -> list[EntrySummary]:
        """One row per entry; the interval is the normal 95% interval of the mean score."""
        rows = []
        g = max(self.games, 1)
        for entry, name in enumerate(self.names):
            mean = self.score_sum[entry] / g
            var = max(self.score_sq[entry] / g - mean * mean, 0.0) * g / max(g - 1, 1)
            rows.append(EntrySummary(entry, name, self.games, self.wins[entry],
                                     self.rank_sum[entry] / g, mean,
                                     1.96 * math.sqrt(var / g), self.faults[entry]))
        return rows
