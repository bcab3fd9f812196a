"""The tournament schedule: tables x deals x seatings x variants, as a lazy stream of tasks.

Order (and so every task id) is fixed by the config: games and variants in config order, then
tables, then deals, then seatings. A schedule played in rounds (a run that may stop early) puts
its deals outermost instead, `round_deals` at a time: each round is every game, variant and
table on the next deals, so that the rounds are consecutive blocks of task ids. Solitaire (one
seat) is scheduled deal by deal, every bot playing each deal in turn, so that the games of one
deal sit next to each other.

Which tables play is the schedule's format: every table of the pool (a round robin), tables drawn
so that every bot sits at about the same number of them (sampled), or challengers against a
field (gauntlet). Draws are seeded from the config's content alone, so every process that builds
the schedule (resume, workers, Ray) gets the same tables.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations


class Format(enum.Enum):
    """Which tables a schedule plays."""

    ROUND_ROBIN = "round-robin"
    SAMPLED = "sampled"
    GAUNTLET = "gauntlet"
    DUEL = "duel"


@dataclass(frozen=True, slots=True)
class Draw:
    """A schedule's format and what it needs: tables per bot (sampled; gauntlets at three seats
    or more), the challengers of a gauntlet, and the bot filling a duel's other seats."""

    format: Format = Format.ROUND_ROBIN
    tables_per_bot: int | None = None
    challengers: tuple[str, ...] = ()
    fill: str | None = None


class Seating(enum.Enum):
    """Which seat orders each table plays each deal in."""

    ROTATIONS = "rotations"
    PERMUTATIONS = "permutations"


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: which variant, which bots in which seats, on which deal; its id is its
    place in the schedule, its identity what decides it."""

    task: int
    game: str
    variant: str
    preset: str
    overrides: tuple[tuple[str, str], ...]
    table: tuple[str, ...]
    seats: tuple[str, ...]
    clones: tuple[int, ...]
    seed: int
    identity: str = ""
    """What decides the game, digested (`arena.tournament.update`); "" where not known."""


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


SWAPS_PER_TABLE = 2000
"""Swaps tried per drawn table when evening out pair meetings (at most MAX_SWAPS in all)."""
MAX_SWAPS = 200_000


def table_count(bots: int, players: int, tables_per_bot: int) -> int:
    """How many tables seat each of `bots` bots at `tables_per_bot` tables (some at one more
    where the seats do not divide evenly)."""
    return -(-bots * tables_per_bot // players)


def sampled_tables(bots: Sequence[str], players: int, tables_per_bot: int,
                   rng: random.Random) -> list[tuple[str, ...]]:
    """Tables of `players` distinct bots, drawn so that every bot sits at `tables_per_bot` or
    one more, and pairs of bots meet as evenly as a greedy draw and swaps can make them.

    Each table takes first the bots that must sit at every table left (so that the counts come
    out), then the bots that have met its bots least; swaps between tables then even out the
    pairs' meetings (the sum of their cubes never goes up). Tables list bots in pool order.
    """
    n = len(bots)
    if not 2 <= players <= n:
        raise ValueError(f"cannot draw tables of {players} from {n} bots")
    count = table_count(n, players, tables_per_bot)
    left = [tables_per_bot] * n
    for extra in rng.sample(range(n), count * players - n * tables_per_bot):
        left[extra] += 1
    met = [[0] * n for _ in range(n)]
    drawn: list[list[int]] = []
    for remaining in range(count, 0, -1):
        table = [b for b in range(n) if left[b] == remaining]
        order = list(range(n))
        rng.shuffle(order)
        while len(table) < players:
            free = [b for b in order if left[b] > 0 and b not in table]
            table.append(min(free, key=lambda b: (sum(met[b][t] for t in table), -left[b])))
        for b in table:
            left[b] -= 1
            for other in table:
                if other != b:
                    met[b][other] += 1
        drawn.append(table)
    _even_out(drawn, met, rng)
    return [tuple(bots[b] for b in sorted(table)) for table in drawn]


def _up(meetings: int) -> int:
    """What one more meeting of a pair that met `meetings` times costs: the cost of meeting c
    times is c cubed, steep enough that a pair met often is worth more than two met rarely."""
    return 3 * meetings * meetings + 3 * meetings + 1


def _even_out(drawn: list[list[int]], met: list[list[int]], rng: random.Random) -> None:
    """Swap bots between tables where that does not raise the sum of cubed pair meetings."""
    if len(drawn) < 2:
        return
    for _ in range(min(SWAPS_PER_TABLE * len(drawn), MAX_SWAPS)):
        i, j = rng.sample(range(len(drawn)), 2)
        a, b = rng.choice(drawn[i]), rng.choice(drawn[j])
        if a in drawn[j] or b in drawn[i]:
            continue
        rest_i = [x for x in drawn[i] if x != a]
        rest_j = [x for x in drawn[j] if x != b]
        # moving a to j and b to i: the pairs a and b leave lose a meeting, those they join gain
        gain = (sum(_up(met[a][x]) for x in rest_j) + sum(_up(met[b][x]) for x in rest_i)
                - sum(_up(met[a][x] - 1) for x in rest_i) - sum(_up(met[b][x] - 1) for x in rest_j))
        gain = -gain
        if gain < 0:  # moves that change nothing are taken too: they walk off plateaus
            continue
        for x in rest_i:
            met[a][x] -= 1
            met[x][a] -= 1
            met[b][x] += 1
            met[x][b] += 1
        for x in rest_j:
            met[b][x] -= 1
            met[x][b] -= 1
            met[a][x] += 1
            met[x][a] += 1
        drawn[i] = [*rest_i, b]
        drawn[j] = [*rest_j, a]


def grown_tables(previous: Sequence[tuple[str, ...]], bots: Sequence[str], players: int,
                 tables_per_bot: int, rng: random.Random) -> list[tuple[str, ...]]:
    """A sampled draw grown to a new field without a redraw: the tables drawn before whose bots
    are all still in the field, then, for each bot at none of them (in pool order),
    `tables_per_bot` tables against the current field, each opponent chosen to even out
    meetings: the bot that has met the table's bots least, then the one at the fewest tables
    (ties in an order shuffled by `rng`). Tables list bots in pool order, and never repeat."""
    place = {name: i for i, name in enumerate(bots)}
    drawn = [tuple(sorted(t, key=place.__getitem__)) for t in previous
             if all(name in place for name in t)]
    met: dict[frozenset[str], int] = {}
    count = dict.fromkeys(bots, 0)
    for table in drawn:
        for name in table:
            count[name] += 1
        for pair in combinations(table, 2):
            met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    seen = set(drawn)
    for new in [name for name in bots if count[name] == 0]:
        for _ in range(tables_per_bot):
            table = [new]
            order = list(bots)
            rng.shuffle(order)
            while len(table) < players:
                free = [b for b in order if b not in table]
                table.append(min(free, key=lambda b: (
                    sum(met.get(frozenset((b, t)), 0) for t in table), count[b])))
            drawn_table = tuple(sorted(table, key=place.__getitem__))
            if drawn_table in seen:
                continue  # a field too small for another table of its own
            seen.add(drawn_table)
            drawn.append(drawn_table)
            for name in table:
                count[name] += 1
            for pair in combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    return drawn


def gauntlet_tables(bots: Sequence[str], players: int, challengers: Sequence[str],
                    tables_per_bot: int | None, rng: random.Random) -> list[tuple[str, ...]]:
    """Tables of one challenger and `players - 1` field bots: at two seats every challenger
    against every field bot; at more, field tables drawn as `sampled_tables` draws them (every
    field bot at `tables_per_bot` of them, or one more), each played by every challenger."""
    field = [b for b in bots if b not in challengers]
    if players == 2:
        fields: list[tuple[str, ...]] = [(f,) for f in field]
    elif len(field) == players - 1:  # one field table: a second would repeat its games
        fields = [tuple(field)]
    else:
        if tables_per_bot is None:
            raise ValueError("a gauntlet at three seats or more needs tables_per_bot")
        fields = sampled_tables(field, players - 1, tables_per_bot, rng)
    place = {name: i for i, name in enumerate(bots)}
    return [tuple(sorted((c, *f), key=place.__getitem__)) for c in challengers for f in fields]


def duel_table(bots: Sequence[str], players: int, fill: str | None) -> tuple[str, ...]:
    """A duel's one table: its two bots, then `fill` in every other seat."""
    a, b = (name for name in bots if name != fill)
    return (a, b, *[fill or ""] * (players - 2))


def duel_seatings(table: tuple[str, ...], seed: int) -> list[tuple[str, ...]]:
    """A duel's two games of a deal: its two bots in two seats drawn for the deal (seeded by the
    deal and the table), then in each other's; the fill in every other seat."""
    a, b, *rest = table
    if not rest:
        return [(a, b), (b, a)]
    i, j = random.Random(f"duel:{seed}:{'|'.join(table)}").sample(range(len(table)), 2)
    orders = []
    for first, second in ((a, b), (b, a)):
        seats = [rest[0]] * len(table)
        seats[i], seats[j] = first, second
        orders.append(tuple(seats))
    return orders


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
                 seating: Seating = Seating.ROTATIONS, draw: Draw = Draw(),
                 round_deals: int | None = None,
                 drawn: dict[tuple[str, int], list[tuple[str, ...]]] | None = None) -> None:
        self.games = tuple(games)
        self.bots = tuple(bots)
        self.seeds = tuple(seeds)
        self.seating = seating
        self.draw = draw
        self.round_deals = round_deals
        # tables given (a sampled draw grown without a redraw) are played as given
        self._drawn: dict[tuple[str, int], list[tuple[str, ...]]] = dict(drawn or {})

    def tables_of(self, plan: GamePlan) -> list[tuple[str, ...]]:
        """The tables a game plays (at two seats or more), by the schedule's format."""
        key = (plan.game, plan.players)
        if key not in self._drawn:
            draw = self.draw
            # a string seed is hashed by SHA-512 inside random: the same in every process
            rng = random.Random(f"{draw.format.value}:{plan.game}:{plan.players}:"
                                f"{draw.tables_per_bot}:{'|'.join(draw.challengers)}:"
                                f"{'|'.join(self.bots)}")
            if draw.format is Format.SAMPLED:
                assert draw.tables_per_bot is not None
                drawn = sampled_tables(self.bots, plan.players, draw.tables_per_bot, rng)
            elif draw.format is Format.DUEL:
                drawn = [duel_table(self.bots, plan.players, draw.fill)]
            elif draw.format is Format.GAUNTLET:
                drawn = gauntlet_tables(self.bots, plan.players, draw.challengers,
                                        draw.tables_per_bot, rng)
            else:
                drawn = tables(self.bots, plan.players)
            self._drawn[key] = drawn
        return self._drawn[key]

    def _table_games(self, plan: GamePlan) -> int:
        """Games per deal and variant over all of a game's tables (counted, not listed, for a
        round robin of distinct bots, whose tables can number millions)."""
        distinct = plan.players <= len(self.bots)
        if self.draw.format is Format.ROUND_ROBIN and distinct and plan.players >= 2:
            per_table = (math.factorial(plan.players) if self.seating is Seating.PERMUTATIONS
                         else plan.players)
            return math.comb(len(self.bots), plan.players) * per_table
        return sum(self._per_deal(t) for t in self.tables_of(plan))

    def _seatings(self, table: tuple[str, ...], seed: int) -> list[tuple[str, ...]]:
        """The seat orders of a table on one deal.

        Under rotations a table of three or more is rotated from an order shuffled for that deal
        (seeded by the deal and the table): every bot still sits in every seat of every deal, and
        who sits beside whom changes from deal to deal instead of staying fixed.
        """
        if self.draw.format is Format.DUEL:
            return duel_seatings(table, seed)
        if self.seating is Seating.ROTATIONS and len(table) >= 3:
            order = list(table)
            random.Random(f"seating:{seed}:{'|'.join(table)}").shuffle(order)
            return [tuple(order[r:] + order[:r]) for r in range(len(order))]
        return seatings(table, self.seating)

    def _per_deal(self, table: tuple[str, ...]) -> int:
        """How many games a table plays on each deal."""
        if self.draw.format is Format.DUEL:
            return 2
        if self.seating is Seating.ROTATIONS and len(table) >= 3:
            return len(table)
        return len(seatings(table, self.seating))

    def games_per_deal(self) -> int:
        """Games on each deal, over every game, variant and table."""
        return sum((len(self.bots) if plan.players == 1 else self._table_games(plan))
                   * len(plan.variants) for plan in self.games)

    def __len__(self) -> int:
        return self.games_per_deal() * len(self.seeds)

    def rounds(self) -> list[int]:
        """The end (one past the last task id) of each round; one round when not in rounds."""
        if self.round_deals is None:
            return [len(self)]
        per_deal = self.games_per_deal()
        return [per_deal * min(start + self.round_deals, len(self.seeds))
                for start in range(0, len(self.seeds), self.round_deals)]

    def __iter__(self) -> Iterator[GameTask]:
        task = 0
        step = self.round_deals or len(self.seeds)
        for start in range(0, len(self.seeds), step):
            seeds = self.seeds[start:start + step]
            for plan in self.games:
                for variant in plan.variants:
                    for table, seats, seed in self._games_of(plan, seeds):
                        yield GameTask(task, plan.game, variant.label, variant.preset,
                                       variant.overrides, table, seats, clone_seats(seats), seed)
                        task += 1

    def _games_of(self, plan: GamePlan, seeds: Sequence[int]
                  ) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], int]]:
        if plan.players == 1:  # deal by deal: one deal's games form one ranked match
            for seed in seeds:
                for bot in self.bots:
                    yield (bot,), (bot,), seed
            return
        for table in self.tables_of(plan):
            for seed in seeds:
                for seats in self._seatings(table, seed):
                    yield table, seats, seed
