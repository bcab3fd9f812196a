"""A series of games between the same seats on consecutive deal seeds, and its summary."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena.engine import Variant
from arena.loader import BotSpec
from arena.match import Watcher, play_game
from arena.record import GameRecord


def play_series(variant: Variant, seats: Sequence[BotSpec], seed: int, games: int,
                watcher: Watcher | None = None) -> Iterator[GameRecord]:
    """Play `games` games on seeds `seed`, `seed + 1`, ...; fresh bot instances every game."""
    variant.check_players(len(seats))
    names = [s.name for s in seats]
    for offset in range(games):
        bots = [s.make() for s in seats]
        yield play_game(variant, bots, names, seed + offset, watcher)


@dataclass(frozen=True)
class SeatSummary:
    """How one seat did over a series."""

    seat: int
    bot: str
    games: int
    wins: int
    mean_rank: float
    mean_score: float
    score_ci95: float
    faults: int


class SeriesTally:
    """Accumulates records of one series into per-seat summaries, without keeping the records."""

    def __init__(self, seats: Sequence[str]) -> None:
        self.names = list(seats)
        n = len(seats)
        self.games = 0
        self.wins = [0] * n
        self.rank_sum = [0] * n
        self.score_sum = [0.0] * n
        self.score_sq = [0.0] * n
        self.faults = [0] * n

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        for seat, (score, rank) in enumerate(zip(record.scores, record.ranks, strict=True)):
            self.wins[seat] += rank == 1
            self.rank_sum[seat] += rank
            self.score_sum[seat] += score
            self.score_sq[seat] += score * score
        for fault in record.faults:
            self.faults[fault.seat] += 1

    def summary(self) -> list[SeatSummary]:
        """One row per seat; the interval is the normal 95% interval of the mean score."""
        rows = []
        g = max(self.games, 1)
        for seat, name in enumerate(self.names):
            mean = self.score_sum[seat] / g
            var = max(self.score_sq[seat] / g - mean * mean, 0.0) * g / max(g - 1, 1)
            rows.append(SeatSummary(seat, name, self.games, self.wins[seat],
                                    self.rank_sum[seat] / g, mean,
                                    1.96 * math.sqrt(var / g), self.faults[seat]))
        return rows
