"""TrueSkill ratings and head-to-head crosstables: a pure fold over tournament records."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from sys import intern
from typing import Any

import trueskill

from arena.engine import ScoreOrder, rank_scores
from arena.errors import ArenaError, VariantError

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


class RatingSettingsError(ArenaError):
    """A TrueSkill setting out of its range; `field` names it."""

    def __init__(self, field: str, value: float, rule: str) -> None:
        super().__init__(f"TrueSkill setting {field} must be {rule} (got {value!r})")
        self.field = field
        self.value = value


class RecordError(ArenaError):
    """A game record that cannot be rated: a missing or inconsistent field, a repeated task."""


@dataclass(frozen=True)
class TrueSkillSettings:
    """The TrueSkill environment of one game: prior, performance noise, drift, draw rate."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    draw_probability: float = 0.10

    def validate(self) -> None:
        """Raise RatingSettingsError naming the first field out of its range."""
        if not math.isfinite(self.mu):
            raise RatingSettingsError("mu", self.mu, "a finite number")
        for name in ("sigma", "beta"):
            value = getattr(self, name)
            if not (value > 0 and math.isfinite(value)):
                raise RatingSettingsError(name, value, "> 0")
        if not (self.tau >= 0 and math.isfinite(self.tau)):
            raise RatingSettingsError("tau", self.tau, ">= 0")
        if not 0 <= self.draw_probability < 1:
            raise RatingSettingsError("draw_probability", self.draw_probability, "in [0, 1)")

    def env(self, backend: str | None = None) -> trueskill.TrueSkill:
        """A trueskill environment with these settings (`backend='mpmath'` for extreme cases)."""
        return trueskill.TrueSkill(self.mu, self.sigma, self.beta, self.tau,
                                   self.draw_probability, backend=backend)


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


# ----------------------------------------------------------------------------------- the fold

@dataclass(frozen=True, slots=True)
class Match:
    """One rated match: per seat its bot, score, place, faults and competitor unit; `position`
    is its place in the fold (its task id, or the last of a solitaire deal's)."""

    position: int
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    units: tuple[int, ...]
    faults: tuple[int, ...]
    sign: int


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


@dataclass(frozen=True)
class RatingPool:
    """The records of one pool, a (game, variant) at one table size, as matches in fold order."""

    game: str
    variant: str
    """The variant's name, suffixed by the table size where it was played at several."""
    matches: list[Match]
    fault_kinds: Mapping[str, Counter[str]]
    """Per bot, its faults counted by kind."""


def rating_pools(records: Iterable[Mapping[str, Any]],
                 disqualify: bool = False) -> list[RatingPool]:
    """The records' pools, sorted by game, variant and table size, each record checked (a
    RecordError if malformed or repeated). With `disqualify`, see `disqualified`."""
    if disqualify:
        records = disqualified(records)
    pools: dict[tuple[str, str, int], list[_Lean]] = defaultdict(list)
    shared: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # equal tuples of records, kept once
    for record in records:
        task = _field(record, "task", None)
        if not isinstance(task, int) or isinstance(task, bool):
            raise RecordError(f"a record has a task id that is not an integer: {task!r}")
        key = (str(_field(record, "game", task)), str(_field(record, "variant", task)),
               len(_field(record, "seats", task)))
        pools[key].append(_lean(record, shared))
    _check_once(pools.values())
    sizes = Counter((game, variant) for game, variant, _ in pools)
    out = []
    for (game, variant, players), pool in sorted(pools.items()):
        if sizes[(game, variant)] > 1:  # one variant at several table sizes: a pool per size
            variant = f"{variant} ({players} player{'s' if players > 1 else ''})"
        out.append(RatingPool(game, variant, _matches(pool), _fault_kinds(pool)))
        pool.clear()  # what the matches need of the records, they share
    return out


def _check_once(pools: Iterable[list[_Lean]]) -> None:
    """A RecordError if a task appears twice (checked once all are read: a set of every task
    would take more memory than the records)."""
    tasks = sorted(lean.task for pool in pools for lean in pool)
    for before, task in pairwise(tasks):
        if before == task:
            raise RecordError(f"task {task} appears twice in the records")


@dataclass(frozen=True, slots=True)
class _Lean:
    """What rating needs of a record, checked: a long run's records are all held at once while
    rating, so each is kept small (tuples, bot names and fault kinds shared between records)."""

    task: int
    seed: Any
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[int, ...]
    """Per seat, how many faults."""
    units: tuple[int, ...]
    """Per seat, its competitor: its own seat number, or a team's number past the seats."""
    order: ScoreOrder | None
    """Which way a one-seat game's score ranks (multi-seat games go by `_higher_wins`)."""
    fault_kinds: tuple[tuple[str, str], ...]
    """Per fault, the bot's name and the fault's kind."""


def _lean(record: Mapping[str, Any], shared: dict[tuple[Any, ...], tuple[Any, ...]]) -> _Lean:
    """A record's `_Lean` (a RecordError if it is malformed). Its tuples are taken from
    `shared` where an equal one is there already (most games repeat seatings and results)."""
    seats, scores, ranks, faults = (shared.setdefault(part, part) for part in _checked(record))
    kinds = tuple((seats[f["seat"]], intern(str(f.get("kind", "exception"))))
                  for f in record.get("faults") or ())
    units = _units(record, len(seats))
    order = score_order(record) if len(seats) == 1 else None
    return _Lean(record["task"], record.get("seed"), seats, scores, ranks, faults,
                 shared.setdefault(units, units), order, kinds)


def _units(record: Mapping[str, Any], seats: int) -> tuple[int, ...]:
    """Each seat's competitor unit: its seat, or its team (numbered after the seats)."""
    units = list(range(seats))
    for index, team in enumerate(record.get("teams") or ()):
        for seat in team:
            if not (isinstance(seat, int) and 0 <= seat < seats):
                raise RecordError(f"task {record['task']}: team {team} names no seat")
            units[seat] = seats + index
    return tuple(units)


def disqualified(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The records with every game a bot played after its first fault (in task order) turned
    into a forfeit of that bot: a `disqualified` fault, ranked last, the others re-ranked."""
    first: dict[str, int] = {}
    out = []
    for record in sorted(records, key=lambda r: int(r["task"])):
        seats, task = list(record["seats"]), int(record["task"])
        out_seats = {s for s, name in enumerate(seats) if first.get(name, task) < task}
        if out_seats:
            record = dict(record)
            faults = [dict(f) for f in record.get("faults") or ()]
            faults += [{"seat": s, "decision": 0, "kind": "disqualified",
                        "detail": "disqualified by an earlier fault"}
                       for s in sorted(out_seats) if all(f["seat"] != s for f in faults)]
            record["faults"] = faults
            order = score_order(record)
            record["ranks"] = list(rank_scores(record["scores"], order,
                                               {f["seat"] for f in faults}))
        for fault in record.get("faults") or ():
            first.setdefault(seats[fault["seat"]], task)
        out.append(record)
    return out


def score_order(record: Mapping[str, Any]) -> ScoreOrder:
    """Which way a record's scores rank: as the record says, else read from its ranks (records
    written before the order was stored: a one-seat game then counts turns, so lower wins)."""
    stored = record.get("order")
    if stored is not None:
        try:
            return ScoreOrder(stored)
        except ValueError:
            task = record.get("task")
            raise RecordError(f"task {task}: unknown score order {stored!r}") from None
    scores, ranks = record["scores"], record["ranks"]
    if len(scores) == 1:
        return ScoreOrder.LOWER_WINS
    best = min(range(len(ranks)), key=lambda s: ranks[s])
    return ScoreOrder.LOWER_WINS if scores[best] <= min(scores) and scores[best] < max(
        scores) else ScoreOrder.HIGHER_WINS


def _fault_kinds(pool: list[_Lean]) -> dict[str, Counter[str]]:
    """Faults of each bot of a pool, counted by kind."""
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for lean in pool:
        for bot, kind in lean.fault_kinds:
            kinds[bot][kind] += 1
    return kinds


def _field(record: Mapping[str, Any], key: str, task: object) -> Any:
    try:
        return record[key]
    except (KeyError, TypeError):
        where = "a record" if task is None else f"task {task}"
        raise RecordError(f"{where} has no {key!r}") from None


_Seats = tuple[tuple[str, ...], tuple[float, ...], tuple[int, ...], tuple[int, ...]]
"""A record's seats (bot names), scores, ranks and per-seat fault counts."""


def _matches(pool: list[_Lean]) -> list[Match]:
    """The pool's matches in fold order: each multi-seat record, and each solitaire deal."""
    higher = _higher_wins([lean for lean in pool if len(lean.seats) > 1])
    matches = []
    deals: dict[Any, list[_Lean]] = defaultdict(list)
    for lean in pool:
        if len(lean.seats) == 1:
            if lean.seed is None:
                raise RecordError(f"task {lean.task} has no 'seed'")
            deals[lean.seed].append(lean)
        else:
            matches.append(Match(lean.task, lean.seats, lean.scores, lean.ranks, lean.units,
                                 lean.faults, 1 if higher else -1))
    matches.extend(_solitaire(deal, seed) for seed, deal in deals.items())
    return sorted(matches, key=lambda m: m.position)


def _checked(record: Mapping[str, Any]) -> _Seats:
    """Seats, scores, ranks and per-seat fault counts, checked for matching lengths."""
    task = record["task"]
    try:
        seats = tuple(intern(str(s)) for s in _field(record, "seats", task))
        scores = tuple(s if type(s) in (int, float) else float(s)
                       for s in _field(record, "scores", task))
        ranks = tuple(int(r) for r in _field(record, "ranks", task))
    except (TypeError, ValueError):
        raise RecordError(f"task {task}: seats, scores or ranks are malformed") from None
    if not seats or not len(seats) == len(scores) == len(ranks):
        raise RecordError(f"task {task}: seats, scores and ranks are empty or differ in length")
    faults = [0] * len(seats)
    for fault in record.get("faults") or ():
        seat = fault.get("seat") if isinstance(fault, Mapping) else None
        if not (isinstance(seat, int) and 0 <= seat < len(seats)):
            raise RecordError(f"task {task}: a fault names no seat of the game")
        faults[seat] += 1
    return seats, scores, ranks, tuple(faults)


def _higher_wins(games: list[_Lean]) -> bool:
    """Whether higher scores win in multi-seat games, as the records show it (ties: higher)."""
    votes = 0
    for game in games:
        scores, ranks, faults = game.scores, game.ranks, game.faults
        live = [s for s in range(len(scores)) if not faults[s]]
        for a in live:
            for b in live:
                if scores[a] > scores[b] and ranks[a] != ranks[b]:
                    votes += 1 if ranks[a] < ranks[b] else -1
    return votes >= 0


def _solitaire(deal: list[_Lean], seed: object) -> Match:
    """Every solitaire record of one deal as one match, ranked by score in the game's order
    (fewer turns win in Concentration, more points in Cribbage Square).

    Seats go in task order on even seeds and in reverse on odd ones: TrueSkill's update of a
    tie among several players depends slightly on their order, and this evens it out."""
    deal = sorted(deal, key=lambda lean: lean.task, reverse=isinstance(seed, int) and seed % 2 == 1)
    scores = [lean.scores[0] for lean in deal]
    faults = [lean.faults[0] for lean in deal]
    order = deal[0].order or ScoreOrder.HIGHER_WINS  # always set for one seat
    ranks = rank_scores(scores, order, {i for i, f in enumerate(faults) if f})
    return Match(max(lean.task for lean in deal), tuple(lean.seats[0] for lean in deal),
                 tuple(scores), ranks, tuple(range(len(deal))), tuple(faults),
                 1 if order is ScoreOrder.HIGHER_WINS else -1)


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


class Rater:
    """TrueSkill for one game's settings: its float environment, and its mpmath twin made on
    first need (for matches the floats cannot rate)."""

    def __init__(self, settings: TrueSkillSettings) -> None:
        self.settings = settings
        self.fast = settings.env()
        self.exact: trueskill.TrueSkill | None = None

    def rate(self, match: Match,
             ratings: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]] | None:
        """New ratings of the match's bots (clones: mean mu and sigma), or None if unratable."""
        unit_ids = sorted(set(match.units))
        groups = [tuple(trueskill.Rating(*ratings[match.bots[s]])
                        for s in range(len(match.bots)) if match.units[s] == u)
                  for u in unit_ids]
        ranks = [max(match.ranks[s] for s in range(len(match.bots)) if match.units[s] == u) - 1
                 for u in unit_ids]
        try:
            rated = self.fast.rate(groups, ranks=ranks)
        except ArithmeticError:
            if self.exact is None:
                self.exact = self.settings.env("mpmath")
            try:
                rated = self.exact.rate(groups, ranks=ranks)
            except ArithmeticError:
                return None
        seat_ratings: dict[int, trueskill.Rating] = {}
        for u, group in zip(unit_ids, rated, strict=True):
            members = [s for s in range(len(match.bots)) if match.units[s] == u]
            seat_ratings.update(zip(members, group, strict=True))
        per_bot: dict[str, list[trueskill.Rating]] = defaultdict(list)
        for seat, rating in sorted(seat_ratings.items()):
            per_bot[match.bots[seat]].append(rating)
        return {bot: (math.fsum(float(r.mu) for r in rs) / len(rs),
                      math.fsum(float(r.sigma) for r in rs) / len(rs))
                for bot, rs in per_bot.items()}


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
