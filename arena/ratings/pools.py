"""Records checked and grouped into rating pools: one per (game, variant, table size), as matches
in task order (each multi-seat game, and each solitaire deal)."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from sys import intern
from typing import Any

from arena.engine import ScoreOrder, rank_scores
from arena.errors import ArenaError


class RecordError(ArenaError):
    """A game record that cannot be rated: a missing or inconsistent field, a repeated task."""


@dataclass(frozen=True, slots=True)
class Match:
    """One rated match: per seat its bot, score, place, faults and competitor unit; `position`
    is its place in task order (its task id, or the last of a solitaire deal's); `deal` is the
    seed it was dealt from, which pairs the games of one deal in the crosstable."""

    position: int
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    units: tuple[int, ...]
    faults: tuple[int, ...]
    sign: int
    deal: Any = None
    luck: tuple[float, ...] | None = None
    """Per seat, its luck in score units (the record's `luck`), where the pool is adjusted for
    it; None where it is judged raw."""


@dataclass(frozen=True)
class PoolLuck:
    """What a pool's records say of their luck: the one model every record's luck comes from
    (`model`, None where the edges are judged raw) and, where some records carry luck but the
    pool cannot be adjusted for it, one line saying why (`note`)."""

    model: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class RatingPool:
    """The records of one pool, a (game, variant) at one table size, as matches in fold order."""

    game: str
    variant: str
    """The variant's name, suffixed by the table size where it was played at several."""
    matches: list[Match]
    fault_kinds: Mapping[str, Counter[str]]
    """Per bot, its faults counted by kind."""
    luck: PoolLuck = PoolLuck()
    """Whether the pool's records carry the luck its edges can be adjusted for."""


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
        seats = _field(record, "seats", task)
        if not isinstance(seats, list | tuple):
            raise RecordError(f"task {task}: its seats are not a list")
        key = (str(_field(record, "game", task)), str(_field(record, "variant", task)),
               len(seats))
        pools[key].append(_lean(record, shared))
    _check_once(pools.values())
    sizes = Counter((game, variant) for game, variant, _ in pools)
    out = []
    for (game, variant, players), pool in sorted(pools.items()):
        if sizes[(game, variant)] > 1:  # one variant at several table sizes: a pool per size
            variant = f"{variant} ({players} player{'s' if players > 1 else ''})"
        luck = pool_luck(game, variant, pool)
        out.append(RatingPool(game, variant, _matches(pool, luck.model is not None),
                              _fault_kinds(pool), luck))
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
    luck: tuple[float, ...] | str | None = None
    """Per seat, its luck; what is wrong with the record's luck (a line); None without."""
    luck_model: str | None = None


def _lean(record: Mapping[str, Any], shared: dict[tuple[Any, ...], tuple[Any, ...]]) -> _Lean:
    """A record's `_Lean` (a RecordError if it is malformed). Its tuples are taken from
    `shared` where an equal one is there already (most games repeat seatings and results)."""
    seats, scores, ranks, faults = (shared.setdefault(part, part) for part in _checked(record))
    kinds = tuple((seats[f["seat"]], intern(str(f.get("kind", "exception"))))
                  for f in record.get("faults") or ())
    units = _units(record, len(seats))
    order = score_order(record) if len(seats) == 1 else None
    luck, model = record_luck(record, len(seats))
    return _Lean(record["task"], record.get("seed"), seats, scores, ranks, faults,
                 shared.setdefault(units, units), order, kinds, luck,
                 None if model is None else intern(model))


def record_luck(record: Mapping[str, Any], seats: int
                ) -> tuple[tuple[float, ...] | str | None, str | None]:
    """A record's luck (one finite number per seat) and its model id ('name/version'), each
    None where the record has none; in place of the luck, what is wrong with it where it is
    malformed (a hostile or damaged record loses its luck, never its game)."""
    luck, model = record.get("luck"), record.get("luck_model")
    if luck is None and model is None:
        return None, None
    if not isinstance(model, str) or not model:
        return "its luck names no model ('luck_model')", None
    if not (isinstance(luck, list | tuple) and len(luck) == seats
            and all(type(x) in (int, float) and math.isfinite(x) for x in luck)):
        return f"its luck is not {seats} finite number{'s' if seats > 1 else ''}", model
    return tuple(float(x) for x in luck), model


def pool_luck(game: str, variant: str, pool: Sequence[_Lean]) -> PoolLuck:
    """Whether a pool's edges can be adjusted for luck: every record's luck well formed and
    from one model; else, where some record carries luck, the first problem in one line naming
    the game and the deal (the pool is then judged raw; nothing is lost)."""
    if all(lean.luck is None and lean.luck_model is None for lean in pool):
        return PoolLuck()
    where = f"{game} / {variant}"
    models: dict[str, _Lean] = {}
    for lean in sorted(pool, key=lambda lean: lean.task):
        if isinstance(lean.luck, str) or lean.luck is None:
            what = lean.luck or "it has no luck while other games of the pool have"
            return PoolLuck(None, f"{where}: the game of task {lean.task} ({_deal(lean)}) "
                                  f"cannot be adjusted for luck: {what}; the pool's edges "
                                  f"are raw")
        models.setdefault(str(lean.luck_model), lean)
        if len(models) > 1:
            (one, first), (other, second) = list(models.items())[:2]
            return PoolLuck(None, f"{where}: the pool's luck comes from two models, {one} "
                                  f"(task {first.task}, {_deal(first)}) and {other} (task "
                                  f"{second.task}, {_deal(second)}); the pool's edges are "
                                  f"raw")
    return PoolLuck(next(iter(models)))


def _deal(lean: _Lean) -> str:
    return "no deal seed" if lean.seed is None else f"deal {lean.seed!r}"


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


def _matches(pool: list[_Lean], lucky: bool = False) -> list[Match]:
    """The pool's matches in fold order: each multi-seat record, and each solitaire deal; with
    `lucky`, each carries its seats' luck (every record's luck must then be well formed)."""
    higher = _higher_wins([lean for lean in pool if len(lean.seats) > 1])
    matches = []
    deals: dict[Any, list[_Lean]] = defaultdict(list)
    for lean in pool:
        if len(lean.seats) == 1:
            if lean.seed is None:
                raise RecordError(f"task {lean.task} has no 'seed'")
            deals[lean.seed].append(lean)
        else:
            luck = lean.luck if lucky and isinstance(lean.luck, tuple) else None
            matches.append(Match(lean.task, lean.seats, lean.scores, lean.ranks, lean.units,
                                 lean.faults, 1 if higher else -1, lean.seed, luck))
    matches.extend(_solitaire(deal, seed, lucky) for seed, deal in deals.items())
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
    if not all(math.isfinite(s) for s in scores):
        raise RecordError(f"task {task}: a score is not a finite number")
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


def _solitaire(deal: list[_Lean], seed: object, lucky: bool = False) -> Match:
    """Every solitaire record of one deal as one match, ranked by score in the game's order
    (fewer turns win in Concentration, more points in Cribbage Square).

    Seats go in task order on even seeds and in reverse on odd ones: TrueSkill's update of a
    tie among several players depends slightly on their order, and this evens it out."""
    deal = sorted(deal, key=lambda lean: lean.task, reverse=isinstance(seed, int) and seed % 2 == 1)
    scores = [lean.scores[0] for lean in deal]
    faults = [lean.faults[0] for lean in deal]
    order = deal[0].order or ScoreOrder.HIGHER_WINS  # always set for one seat
    ranks = rank_scores(scores, order, {i for i, f in enumerate(faults) if f})
    luck = (tuple(lean.luck[0] for lean in deal if isinstance(lean.luck, tuple))
            if lucky else None)
    return Match(max(lean.task for lean in deal), tuple(lean.seats[0] for lean in deal),
                 tuple(scores), ranks, tuple(range(len(deal))), tuple(faults),
                 1 if order is ScoreOrder.HIGHER_WINS else -1, seed,
                 luck if luck is not None and len(luck) == len(deal) else None)
