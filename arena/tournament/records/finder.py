"""Finding a run's games: filtered by bot, opponent, result, margin, fault, game, variant and
deal, sorted, each with the task id and seat that `arena replay RUN TASK --seat N` takes.

A game is seen from one seat when a bot is named: the bot's result there (won, lost, drawn
against the best of the other side), its margin (its score less the best opposing score, in the
game's own units, so a loss is negative whether higher or lower scores win) and its faults. A
bot seated more than once at a table (self-play) gives one row per seat. Without a bot, a game
is one row and only the filters that need no seat apply.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, did_you_mean
from arena.record import FaultKind
from arena.text import escape
from arena.tournament.records.results import CONFIG, GAMES, RunDirectory


class FinderError(ArenaError):
    """A search that cannot be made: no such run, an unknown bot, a bad value."""


class Outcome(enum.Enum):
    """A seat's result in a game, against the best seat of the other side."""

    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    ALONE = "alone"
    """A game with no other side (solitaire): neither won nor lost."""


class Order(enum.Enum):
    """How found games are listed."""

    TASK = "task"
    WORST = "worst"
    """By the bot's margin, the heaviest loss first."""
    BEST = "best"
    """By the bot's margin, the widest win first."""


ANY_FAULT = "any"
"""The fault filter that takes a fault of any kind."""


@dataclass(frozen=True)
class GameQuery:
    """What to look for; every filter given must hold (results: any of those given)."""

    bot: str | None = None
    opponent: str | None = None
    outcomes: frozenset[Outcome] = frozenset()
    min_margin: float | None = None
    max_margin: float | None = None
    fault: str | None = None
    game: str | None = None
    variant: str | None = None
    deal: int | None = None
    order: Order = Order.TASK
    limit: int | None = None

    def check(self) -> None:
        """FinderError naming the first value that makes no sense on its own."""
        if self.bot is None:
            for name, given in (("--won/--lost/--drawn", self.outcomes),
                                ("--min-margin", self.min_margin is not None),
                                ("--max-margin", self.max_margin is not None),
                                ("--opponent", self.opponent is not None),
                                ("--worst/--best", self.order is not Order.TASK)):
                if given:
                    raise FinderError(f"{name} is about one bot's games: name it with --bot")
        for name, value in (("--min-margin", self.min_margin), ("--max-margin", self.max_margin)):
            if value is not None and not math.isfinite(value):
                raise FinderError(f"{name} {value}: not a finite number")
        if (self.min_margin is not None and self.max_margin is not None
                and self.min_margin > self.max_margin):
            raise FinderError(f"--min-margin {self.min_margin:g} is above --max-margin "
                              f"{self.max_margin:g}: no game can match")
        kinds = [k.value for k in FaultKind]
        if self.fault is not None and self.fault not in (*kinds, ANY_FAULT):
            raise FinderError(f"--fault {escape(self.fault)!r}: not a kind of fault "
                              f"({did_you_mean(self.fault, kinds)}known: {', '.join(kinds)}, "
                              f"or {ANY_FAULT})")
        if self.limit is not None and self.limit < 1:
            raise FinderError(f"a limit of {self.limit} games: give 1 or more")


@dataclass(frozen=True)
class FoundGame:
    """One game of a run, as the query sees it (from the bot's seat when a bot is named)."""

    task: int
    game: str
    variant: str
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    turns: int
    faults: tuple[Mapping[str, Any], ...]
    seat: int | None = None
    outcome: Outcome | None = None
    margin: float | None = None

    def replay_args(self, run: Path) -> list[str]:
        """The `arena replay` arguments that show this game (from its seat, if it has one)."""
        args = ["replay", str(run), str(self.task)]
        return args + (["--seat", str(self.seat)] if self.seat is not None else [])

    def to_json(self, run: Path) -> dict[str, Any]:
        """A JSON-ready dict, with the `arena replay` command that shows the game."""
        return {"task": self.task, "game": self.game, "variant": self.variant,
                "seed": self.seed, "seats": list(self.seats), "scores": list(self.scores),
                "ranks": list(self.ranks), "turns": self.turns,
                "faults": [dict(f) for f in self.faults], "seat": self.seat,
                "result": self.outcome.value if self.outcome else None, "margin": self.margin,
                "replay": ["arena", *self.replay_args(run)]}


@dataclass(frozen=True)
class Found:
    """The games found, and how many games the run holds (and the bot played)."""

    games: tuple[FoundGame, ...]
    total: int
    matching: int
    query: GameQuery = field(default_factory=GameQuery)


def find_games(run: Path, query: GameQuery) -> Found:
    """The games of run directory `run` that match `query`, in its order and within its limit."""
    query.check()
    if not run.is_dir():
        raise FinderError(f"{run}: no such run directory")
    if not (run / CONFIG).is_file() and not (run / GAMES).is_file():
        raise FinderError(f"{run}: not a run directory (no {CONFIG} or {GAMES})")
    records = list(RunDirectory(run).records())
    return select_games(records, query)


def select_games(records: Sequence[Mapping[str, Any]], query: GameQuery) -> Found:
    """The games of records already read (a run directory's, checked) that match `query`."""
    query.check()
    _check_names(query, records)
    rows = [row for record in records for row in _rows(record, query)]
    chosen = [row for row in rows if _matches(row, query)]
    if query.order is Order.TASK:
        chosen.sort(key=lambda r: (r.task, r.seat or 0))
    else:
        worst = query.order is Order.WORST
        chosen.sort(key=lambda r: (r.margin is None,
                                   (r.margin or 0.0) * (1 if worst else -1), r.task, r.seat or 0))
    limited = chosen[: query.limit] if query.limit is not None else chosen
    return Found(tuple(limited), len(records), len(chosen), query)


def _check_names(query: GameQuery, records: Sequence[Mapping[str, Any]]) -> None:
    """Every name the query gives must be in the run: a typo is an error, not an empty list."""
    def known(key: str) -> list[str]:
        found: dict[str, None] = {}
        for record in records:
            value = record.get(key)
            for name in value if isinstance(value, list) else (value,):
                if isinstance(name, str):
                    found[name] = None
        return list(found)

    for option, key, value in (("--bot", "seats", query.bot),
                               ("--opponent", "seats", query.opponent),
                               ("--game", "game", query.game),
                               ("--variant", "variant", query.variant)):
        if value is None:
            continue
        names = known(key)
        if value not in names:
            shown = ", ".join(map(escape, names[:20])) + (", ..." if len(names) > 20 else "")
            raise FinderError(f"{option} {escape(value)!r}: not in this run "
                              f"({did_you_mean(value, names)}its {key}: {shown or 'none'})")


def _rows(record: Mapping[str, Any], query: GameQuery) -> Iterable[FoundGame]:
    """The record as rows: one per seat of the query's bot, or the game once."""
    seats = tuple(record["seats"])
    scores = tuple(record.get("scores") or ())
    ranks = tuple(record.get("ranks") or ())
    base = dict(task=int(record["task"]), game=str(record.get("game")),
                variant=str(record.get("variant")), seed=int(record.get("seed") or 0),
                seats=seats, scores=scores, ranks=ranks, turns=int(record.get("turns") or 0),
                faults=tuple(f for f in record.get("faults") or () if isinstance(f, dict)))
    if query.bot is None:
        yield FoundGame(**base)  # type: ignore[arg-type]
        return
    lower = record.get("order") == "lower"
    for seat, name in enumerate(seats):
        if name != query.bot:
            continue
        team = _team(record, seat)
        others = [s for s in range(len(seats)) if s not in team]
        if not others or len(scores) != len(seats) or len(ranks) != len(seats):
            yield FoundGame(**base, seat=seat, outcome=Outcome.ALONE)  # type: ignore[arg-type]
            continue
        best_rank = min(ranks[s] for s in others)
        outcome = (Outcome.WON if ranks[seat] < best_rank else
                   Outcome.DRAWN if ranks[seat] == best_rank else Outcome.LOST)
        if lower:
            margin = min(scores[s] for s in others) - scores[seat]
        else:
            margin = scores[seat] - max(scores[s] for s in others)
        yield FoundGame(**base, seat=seat, outcome=outcome,  # type: ignore[arg-type]
                        margin=margin)


def _team(record: Mapping[str, Any], seat: int) -> set[int]:
    """The seats on `seat`'s side: its team in a partnership game, else itself."""
    for team in record.get("teams") or ():
        if isinstance(team, list) and seat in team:
            return {s for s in team if isinstance(s, int)}
    return {seat}


def _matches(row: FoundGame, query: GameQuery) -> bool:
    if query.game is not None and row.game != query.game:
        return False
    if query.variant is not None and row.variant != query.variant:
        return False
    if query.deal is not None and row.seed != query.deal:
        return False
    if query.opponent is not None and not any(
            name == query.opponent for s, name in enumerate(row.seats) if s != row.seat):
        return False
    if query.outcomes and row.outcome not in query.outcomes:
        return False
    if query.min_margin is not None and (row.margin is None or row.margin < query.min_margin):
        return False
    if query.max_margin is not None and (row.margin is None or row.margin > query.max_margin):
        return False
    if query.fault is not None:
        faults = [f for f in row.faults if row.seat is None or f.get("seat") == row.seat]
        if not any(query.fault == ANY_FAULT or f.get("kind") == query.fault for f in faults):
            return False
    return True


def found_lines(found: Found, run: Path) -> list[str]:
    """The games found as a table for people, with a line saying how to replay one."""
    if not found.games:
        return [f"no game of the run's {found.total} matches"]
    seat_view = found.query.bot is not None
    head = ["task", "deal", "game / variant"] + (["seat", "result", "margin"] if seat_view
                                                  else []) + ["scores", "faults"]
    rows = []
    for g in found.games:
        scores = ", ".join(f"{escape(n)} {_number(s)}" for n, s
                           in zip(g.seats, g.scores, strict=False))
        faults = "; ".join(f"seat {f.get('seat')} {escape(str(f.get('kind')))}"
                           for f in g.faults) or "-"
        row = [str(g.task), str(g.seed), escape(f"{g.game} / {g.variant}")]
        if seat_view:
            row += [str(g.seat), g.outcome.value if g.outcome else "",
                    "" if g.margin is None else f"{g.margin:+g}"]
        rows.append([*row, scores, faults])
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
           for r in (head, *rows)]
    shown = f"{len(found.games)} of {found.matching}" if found.matching > len(found.games) \
        else f"{found.matching}"
    out.append(f"{shown} matching games (of {found.total} in the run); to see one: "
               f"arena {' '.join(found.games[0].replay_args(run))}")
    return out


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) else repr(value)
