"""Ratings tables and head-to-head crosstables of a run's pools: a pure function of the records."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena.errors import VariantError
from arena.ratings.fold import Rater
from arena.ratings.pools import Match, rating_pools
from arena.ratings.settings import TrueSkillSettings

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""

@dataclass(frozen=True)
class BotRow:
    """One bot's line in a pool: rating, results per seat played, and faults committed."""

    rank: int
    bot: str
    mu: float
    sigma: float
    conservative: float
    games: int
    wins: int
    draws: int
    losses: int
    mean_place: float
    mean_score: float
    score_ci95: float
    faults: int
    fault_kinds: tuple[tuple[str, int], ...] = ()

    def fault_share(self) -> float:
        """The share of this bot's games in which it faulted."""
        return self.faults / self.games if self.games else 0.0

@dataclass(frozen=True)
class HeadToHead:
    """How `bot` did against `opponent` in the games (deals) both took part in."""

    bot: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    edge: float
    edge_ci95: float

@dataclass(frozen=True)
class PoolRatings:
    """The ratings table and crosstable of one (game, variant) pool."""

    game: str
    variant: str
    matches: int
    skipped: int
    bots: tuple[BotRow, ...]
    crosstable: tuple[HeadToHead, ...]

@dataclass(frozen=True)
class Ratings:
    """Every pool of a run, sorted by game then variant."""

    pools: tuple[PoolRatings, ...]

    def variants(self) -> tuple[str, ...]:
        """The variant labels present, sorted."""
        return tuple(sorted({p.variant for p in self.pools}))

    def only(self, variant: str | None) -> Ratings:
        """The pools of one variant label (all when None); VariantError for an unknown label."""
        if variant is None:
            return self
        if variant not in self.variants():
            known = ", ".join(self.variants()) or "none"
            raise VariantError(f"no results for variant {variant!r} (known: {known})")
        return Ratings(tuple(p for p in self.pools if p.variant == variant))

    def pool(self, game: str, variant: str) -> PoolRatings | None:
        """The pool of (game, variant), if the run has one."""
        return next((p for p in self.pools if (p.game, p.variant) == (game, variant)), None)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready document: pools with their rows and crosstables, floats rounded."""
        return {"pools": [{"game": p.game, "variant": p.variant, "matches": p.matches,
                           "skipped": p.skipped,
                           "bots": [json_row(r) for r in p.bots],
                           "crosstable": [json_row(h) for h in p.crosstable]}
                          for p in self.pools]}

class _Running:
    """Count, mean and spread of a stream of numbers (Welford), for a 95% interval."""

    __slots__ = ("m2", "mean", "n")

    def __init__(self) -> None:
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    def ci95(self) -> float:
        if self.n < 2:
            return 0.0
        return Z95 * math.sqrt(self.m2 / (self.n - 1) / self.n)

@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    place_sum: int = 0
    faults: int = 0
    score: _Running = field(default_factory=_Running)

@dataclass
class _Pair:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    edge: _Running = field(default_factory=_Running)

def rate(records: Iterable[Mapping[str, Any]],
         settings: Mapping[str, TrueSkillSettings] | None = None,
         disqualify: bool = False) -> Ratings:
    """Rate every pool of `records` — a (game, variant) at one table size — folded in task
    order (a pure function). With `disqualify`, a bot's games after its first fault count as
    forfeits (see `disqualified`)."""
    settings = settings or {}
    out = []
    for pool in rating_pools(records, disqualify):
        chosen = settings.get(pool.game, TrueSkillSettings())
        chosen.validate()
        rated = _rate_pool(pool.game, pool.variant, pool.matches, chosen)
        bots = tuple(replace(row, fault_kinds=tuple(sorted(pool.fault_kinds[row.bot].items())))
                     for row in rated.bots)
        out.append(replace(rated, bots=bots))
    return Ratings(tuple(out))

def _rate_pool(game: str, variant: str, matches: list[Match],
               settings: TrueSkillSettings) -> PoolRatings:
    rater = Rater(settings)
    ratings: dict[str, tuple[float, float]] = {}
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    pairs: dict[tuple[str, str], _Pair] = defaultdict(_Pair)
    skipped = 0
    for match in matches:
        for bot in match.bots:
            ratings.setdefault(bot, (settings.mu, settings.sigma))
        _count(match, tallies, pairs)
        if len(set(match.bots)) < 2:
            continue
        updated = rater.rate(match, ratings)
        if updated is None:
            skipped += 1
        else:
            ratings.update(updated)
    # sorted on the conservative rating as printed in JSON, so that equal-looking ties go by name
    rows = sorted(ratings, key=lambda b: (-round(ratings[b][0] - 3 * ratings[b][1], 6), b))
    bot_rows = tuple(_bot_row(i + 1, bot, ratings[bot], tallies[bot]) for i, bot in enumerate(rows))
    order = {bot: i for i, bot in enumerate(rows)}
    cross = tuple(_head_to_head(a, b, pairs[(a, b)])
                  for a, b in sorted(pairs, key=lambda ab: (order[ab[0]], order[ab[1]])))
    return PoolRatings(game, variant, len(matches), skipped, bot_rows, cross)

def _count(match: Match, tallies: dict[str, _Tally],
           pairs: dict[tuple[str, str], _Pair]) -> None:
    """Add one match to the per-seat tallies and the per-game head-to-head pairs."""
    unit_rank: dict[int, int] = {}
    for seat, unit in enumerate(match.units):
        unit_rank[unit] = max(unit_rank.get(unit, 0), match.ranks[seat])
    firsts = sum(1 for r in unit_rank.values() if r == 1)
    for seat, bot in enumerate(match.bots):
        tally = tallies[bot]
        tally.games += 1
        if unit_rank[match.units[seat]] == 1:
            tally.wins += firsts == 1
            tally.draws += firsts > 1
        tally.place_sum += match.ranks[seat]
        tally.faults += match.faults[seat]
        tally.score.add(match.scores[seat])
    seats_of: dict[str, list[int]] = defaultdict(list)
    for seat, bot in enumerate(match.bots):
        seats_of[bot].append(seat)
    place = {b: sum(match.ranks[s] for s in ss) / len(ss) for b, ss in seats_of.items()}
    score = {b: math.fsum(match.scores[s] for s in ss) / len(ss) for b, ss in seats_of.items()}
    units = {b: {match.units[s] for s in ss} for b, ss in seats_of.items()}
    for a in seats_of:
        for b in seats_of:
            if a == b or (len(units[a]) == 1 and units[a] == units[b]):
                continue
            pair = pairs[(a, b)]
            pair.wins += place[a] < place[b]
            pair.draws += place[a] == place[b]
            pair.losses += place[a] > place[b]
            pair.edge.add(match.sign * (score[a] - score[b]))

def _bot_row(rank: int, bot: str, rating: tuple[float, float], tally: _Tally) -> BotRow:
    mu, sigma = rating
    games = tally.games
    return BotRow(rank, bot, mu, sigma, mu - 3 * sigma, games, tally.wins, tally.draws,
                  games - tally.wins - tally.draws, tally.place_sum / games if games else 0.0,
                  tally.score.mean, tally.score.ci95(), tally.faults)

def _head_to_head(a: str, b: str, pair: _Pair) -> HeadToHead:
    return HeadToHead(a, b, pair.edge.n, pair.wins, pair.draws, pair.losses, pair.edge.mean,
                      pair.edge.ci95())

def json_number(value: float | int | None) -> float | int | None:
    """A number for JSON output: ints kept, floats rounded to 6 decimals, never -0.0."""
    if value is None or isinstance(value, int):
        return value
    return round(value, 6) + 0.0

def json_row(row: BotRow | HeadToHead) -> dict[str, Any]:
    """A table row as JSON-ready values."""
    return {k: json_number(v) if isinstance(v, float) else v for k, v in vars(row).items()}
