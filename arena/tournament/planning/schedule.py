"""The tournament schedule: tables x deals x seatings x variants, as a lazy stream of tasks.

Order (and so every task id) is fixed by the config: games and variants in config order, then
tables, then deals, then seatings. A schedule played in rounds (a run that may stop early) puts
its deals outermost instead, `round_deals` at a time: each round is every game, variant and
table on the next deals, so that the rounds are consecutive blocks of task ids. Solitaire (one
seat) is scheduled deal by deal, every bot playing each deal in turn, so that the games of one
deal sit next to each other.

Which tables play is the schedule's format: every table of the pool (a round robin), tables drawn
so that every bot sits at about the same number of them (sampled), or challengers against a
field (gauntlet). A first draw is seeded from the config's content alone, so every process that
builds the schedule (resume, workers, Ray) gets the same tables; a run whose field changes grows
its draw instead (`grown_tables`), a function of its history of fields and its key
(`replay_draw`).
"""

from __future__ import annotations

import enum
import hashlib
import math
import random
from collections.abc import Iterator, Mapping, Sequence
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
    """What decides the game, digested (`arena.tournament.update.reconcile`); "" where not known."""


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


RATING_WIDTH = 25 / 6
"""How fast the weight of an opponent falls off with its rating gap, in rating points: the
TrueSkill default beta, the gap at which one bot beats another about 76% of the time."""


@dataclass(frozen=True, slots=True)
class FieldStep:
    """One step of a draw's history: the field it was brought to, the tables per bot it seats,
    and the ratings (name, mu) that the opponents of rated bots short of tables were drawn
    near (none for a first draw, or where no rated bot was short)."""

    bots: tuple[str, ...]
    tables_per_bot: int
    ratings: tuple[tuple[str, float], ...] = ()


def _rank(salt: str, *names: str) -> str:
    """A tie-breaking rank: a digest of the draw's salt (its run's key) and these names."""
    return hashlib.sha256("\x00".join((salt, *names)).encode("utf-8")).hexdigest()


def grown_tables(previous: Sequence[tuple[str, ...]], bots: Sequence[str], players: int,
                 tables_per_bot: int, salt: str,
                 ratings: Mapping[str, float] | None = None,
                 width: float = RATING_WIDTH) -> list[tuple[str, ...]]:
    """A draw grown to a new field without a redraw: the tables drawn before whose bots are all
    still in the field stay, and every bot at fewer than `tables_per_bot` of them (a new bot;
    one whose tables lost a bot that left) is seated at new tables until it has that many.

    The bot short of most tables (ties by rank) heads each new table; the other seats are
    filled one by one from the field. For a head without a rating, the bot it has met least,
    then the one at the fewest tables, then the one that has met the table's others least, ties
    broken by a rank digested from `salt` (the run's key): meetings evened out. For a head with
    a rating (in `ratings`), an opponent drawn with a weight exp(-gap^2 / 2 width^2) falling off
    with the rating gap (a bot without one counts at the field's mean), divided by one plus
    their meetings so far and multiplied by one plus the tables it is short of (so that the
    short fill each other's seats), as Kaggle's leagues pick new agents' opponents.
    Deterministic given the previous tables, the field, the ratings and the salt. Tables list
    bots in pool order, and never repeat.
    """
    place = {name: i for i, name in enumerate(bots)}
    drawn = [tuple(sorted(t, key=place.__getitem__)) for t in previous
             if all(name in place for name in t)]
    met: dict[frozenset[str], int] = {}
    count = dict.fromkeys(bots, 0)

    def seat(table: Sequence[str]) -> None:
        for name in table:
            count[name] += 1
        for pair in combinations(table, 2):
            met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1

    for table in drawn:
        seat(table)
    need = {name: max(0, tables_per_bot - count[name]) for name in bots}
    rated = {name: mu for name, mu in (ratings or {}).items() if name in place}
    mean = sum(rated.values()) / len(rated) if rated else 0.0
    seen = set(drawn)
    while any(need.values()):
        head = min((b for b in bots if need[b]), key=lambda b: (-need[b], _rank(salt, b)))
        table = [head]
        while len(table) < players:
            free = [b for b in bots if b not in table]
            if len(table) == players - 1:  # the last seat: never a table drawn already
                free = [b for b in free
                        if tuple(sorted((*table, b), key=place.__getitem__)) not in seen]
            if not free:
                break
            table.append(_opponent(head, table, free, met, count, need, salt, rated, mean,
                                   width, len(drawn)))
        if len(table) < players:
            need[head] = 0  # a field too small for another table of its own
            continue
        drawn_table = tuple(sorted(table, key=place.__getitem__))
        seen.add(drawn_table)
        drawn.append(drawn_table)
        seat(table)
        for name in table:
            need[name] = max(0, need[name] - 1)
    return drawn


def _opponent(head: str, table: Sequence[str], free: Sequence[str],
              met: Mapping[frozenset[str], int], count: Mapping[str, int],
              need: Mapping[str, int], salt: str, rated: Mapping[str, float], mean: float,
              width: float, number: int) -> str:
    """The next bot at a table headed by `head` (see `grown_tables`)."""
    def meetings(a: str, b: str) -> int:
        return met.get(frozenset((a, b)), 0)

    if head not in rated:
        return min(free, key=lambda b: (meetings(head, b), count[b],
                                        sum(meetings(b, t) for t in table[1:]),
                                        _rank(salt, head, b)))
    weights = [math.exp(-0.5 * ((rated.get(b, mean) - rated[head]) / width) ** 2)
               * (1 + need[b]) / (1 + meetings(head, b)) for b in free]
    if not any(weights):  # every gap too wide to weigh: the closest, then as if unrated
        gap = {b: abs(rated.get(b, mean) - rated[head]) for b in free}
        return min(free, key=lambda b: (gap[b], _rank(salt, head, b)))
    rng = random.Random(_rank(salt, head, str(number), str(len(table))))
    return rng.choices(list(free), weights)[0]


def replay_draw(first: Sequence[tuple[str, ...]], history: Sequence[FieldStep], players: int,
                salt: str) -> list[tuple[str, ...]]:
    """A draw from its history: the first tables grown, step by step, to each field."""
    drawn = list(first)
    for step in history:
        drawn = grown_tables(drawn, step.bots, players, step.tables_per_bot, salt,
                             dict(step.ratings))
    return drawn


def gauntlet_fields(bots: Sequence[str], players: int, challengers: Sequence[str],
                    tables_per_bot: int | None, rng: random.Random) -> list[tuple[str, ...]]:
    """A gauntlet's field tables (of `players - 1` field bots): at two seats each field bot
    alone; at more, one table if the field has just `players - 1` bots, else drawn as
    `sampled_tables` draws them (every field bot at `tables_per_bot` of them, or one more)."""
    field = [b for b in bots if b not in challengers]
    if players == 2:
        return [(f,) for f in field]
    if len(field) == players - 1:  # one field table: a second would repeat its games
        return [tuple(field)]
    if tables_per_bot is None:
        raise ValueError("a gauntlet at three seats or more needs tables_per_bot")
    return sampled_tables(field, players - 1, tables_per_bot, rng)


def challenged(bots: Sequence[str], challengers: Sequence[str],
               fields: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """A gauntlet's tables: every challenger at every field table, bots in pool order."""
    place = {name: i for i, name in enumerate(bots)}
    return [tuple(sorted((c, *f), key=place.__getitem__)) for c in challengers for f in fields]


def gauntlet_tables(bots: Sequence[str], players: int, challengers: Sequence[str],
                    tables_per_bot: int | None, rng: random.Random) -> list[tuple[str, ...]]:
    """Tables of one challenger and `players - 1` field bots: at two seats every challenger
    against every field bot; at more, field tables drawn as `sampled_tables` draws them (every
    field bot at `tables_per_bot` of them, or one more), each played by every challenger."""
    return challenged(bots, challengers,
                      gauntlet_fields(bots, players, challengers, tables_per_bot, rng))


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
            rng = self._rng(plan)
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

    def _rng(self, plan: GamePlan) -> random.Random:
        """The generator of a game's first draw, seeded by the config's content."""
        draw = self.draw
        # a string seed is hashed by SHA-512 inside random: the same in every process
        return random.Random(f"{draw.format.value}:{plan.game}:{plan.players}:"
                             f"{draw.tables_per_bot}:{'|'.join(draw.challengers)}:"
                             f"{'|'.join(self.bots)}")

    def field_tables_of(self, plan: GamePlan) -> list[tuple[str, ...]]:
        """A gauntlet's field tables as a fresh run draws them (`gauntlet_fields`)."""
        return gauntlet_fields(self.bots, plan.players, self.draw.challengers,
                               self.draw.tables_per_bot, self._rng(plan))

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
