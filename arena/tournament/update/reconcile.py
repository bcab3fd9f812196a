"""Bringing a run up to date: every game has an identity, and a run keeps each finished game that
its config would play again identically.

A game is identified by what decides it, not by its place in the schedule: the game, variant
(label, preset and parameters), the table, each seat's bot (name, spec, code digest and
isolation), the deal seed (dealt under the run's key, which a run never changes) and the limits
that bind the bots. That identity (`GameIdentities.of`, 32 hex digits of a SHA-256) is stored in
each record. When a run's config changes (a bot added, removed or changed; a variant or a game
added; more deals), `reconcile` matches the records to the new schedule by identity:

- a game on record keeps its record, untouched, and its number (`task`) for good: games.jsonl is
  only ever appended to, so a number named in a fault's detail, a log header, a report's link
  or `arena replay RUN 17` names the same game whatever the run becomes;
- a game the new schedule adds takes the next number above every number on record, in schedule
  order (the same history of configs gives the same numbers), kept in numbers.json so that a
  run killed while they are played resumes under the same numbers;
- a game on record that the schedule no longer holds stays in games.jsonl, not rated: its
  number is listed in numbers.json; scheduled again (a bot put back as it was), it is rated
  again, not replayed;
- only the games on record nowhere are played.

Records from older runs, which carry no identity, are given the identity of the task they were
played as under the config the run directory holds (`config.toml`, `bots.json`), kept in
numbers.json by number. Runs brought up to date by earlier versions (whose numbers followed the
schedule, with retired.jsonl beside games.jsonl) are read as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from arena.safe_files import read_lines
from arena.tournament.planning.config import TournamentConfig
from arena.tournament.planning.schedule import GameTask, Schedule
from arena.tournament.records.results import (
    GAMES,
    RETIRED,
    Numbers,
    RunDirectory,
    RunDirectoryError,
    parse_record,
    read_numbers,
    write_numbers,
)
from arena.tournament.update.identity import BotCode

IDENTITY_DIGITS = 32
"""A game's identity is the first this many hex digits of a SHA-256 (128 bits)."""

_NOT_PLAY = {"on_fault", "fault_share"}
"""Limits that decide how a run is rated, not how its games are played."""


class GameIdentities:
    """The identities of a config's games, given its bots' code."""

    def __init__(self, config: TournamentConfig, code: Mapping[str, BotCode]) -> None:
        limits = {f.name: getattr(config.limits, f.name) for f in fields(config.limits)
                  if f.name not in _NOT_PLAY}
        self._limits = json.dumps(limits, sort_keys=True, default=str)
        self._bots = {b.name: [b.name, b.spec, code[b.name].digest, b.isolation.value]
                      for b in config.bots}

    def of(self, task: GameTask) -> str:
        """A game's identity: what decides it, digested."""
        what = [self._limits, task.game, task.variant, task.preset, task.overrides, task.table,
                [self._bots[name] for name in task.seats], task.seed]
        text = json.dumps(what, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:IDENTITY_DIGITS]

    def tasks(self, schedule: Schedule) -> Iterator[GameTask]:
        """The schedule's tasks, each with its identity."""
        for task in schedule:
            yield replace(task, identity=self.of(task))


@dataclass(frozen=True)
class Kept:
    """What a run holds for its schedule: the identities of its scheduled games on record, how
    many records are no longer scheduled (kept on record, not rated), and its numbering: the
    numbers of the scheduled games on record before `first`, which they keep, while every other
    scheduled game takes the next number from `first`, in schedule order (`numbered`)."""

    finished: frozenset[str]
    retired: int
    first: int = 0
    earlier: Mapping[str, int] = field(default_factory=dict)

    def numbered(self, tasks: Iterable[GameTask]) -> Iterator[tuple[int, GameTask]]:
        """Each of the schedule's tasks (with its identity) as its place in the schedule and
        the task under its game's number: the number it has on record, if it was on record
        before `first`, else the next from `first`, in schedule order."""
        following = self.first
        for task in tasks:
            number = self.earlier.get(task.identity)
            if number is None:
                number, following = following, following + 1
            yield task.task, replace(task, task=number)


@dataclass(frozen=True)
class Legacy:
    """The schedule a run was played under, with the identities of its games."""

    schedule: Schedule
    identities: GameIdentities


def numbers_key(digest: str, code: Mapping[str, BotCode]) -> str:
    """What a run's numbering is given for, as one digest: its config's digest and its bots'
    code (the same config and code schedule the same games)."""
    text = json.dumps([digest, sorted((name, c.digest) for name, c in code.items())])
    return hashlib.sha256(text.encode()).hexdigest()


def reconcile(run: RunDirectory, tasks: Sequence[GameTask],
              legacy: Callable[[], Legacy | None], key: str) -> Kept:
    """Match a run's records to a schedule by identity and number the schedule's games: a
    game on record keeps its number for good; a game the schedule adds takes the next number
    above every number on record (in schedule order: the same history gives the same numbers).
    Nothing on record is rewritten: games.jsonl is only appended to. The numbering is kept in
    numbers.json (keyed by `key`: the config and code), with the numbers of the games on record
    that the schedule no longer holds (kept on record, not rated), so that a run killed while
    its new games are played resumes under the same numbers.

    `tasks`: the schedule's tasks, each with its identity (`GameIdentities.tasks`, digested
    once by the caller, who numbers them with the `Kept` returned). `legacy` gives the
    identities of the config the run was played under, for records that carry none (None if
    there is no way to know them: those records are not rated). A record of retired.jsonl (kept
    there by earlier versions) whose game is scheduled again is appended to games.jsonl under
    its new number.
    """
    kept = read_numbers(run)
    stored: dict[str, int] = {}  # identity -> number, of the records in games.jsonl
    named = dict(kept.identities) if kept is not None else {}
    unidentified: list[dict[str, Any]] = []
    top = -1
    for record in _records(run, GAMES):
        number = record["task"]
        top = max(top, number)
        identity = record.get("identity") or named.get(number)
        if identity is None:
            unidentified.append(record)
        elif identity in stored:
            raise RunDirectoryError(f"{run.file(GAMES)}: game {identity} is recorded twice")
        else:
            stored[identity] = number
    if unidentified:
        for identity, record in _identified(unidentified, legacy).items():
            if identity in stored:
                raise RunDirectoryError(f"{run.file(GAMES)}: game {identity} is recorded twice")
            stored[identity] = record["task"]
            named[record["task"]] = identity
    unknown = {r["task"] for r in unidentified} - set(named)  # on record, never rated
    elsewhere: dict[str, dict[str, Any]] = {}  # retired.jsonl, as earlier versions kept it
    for record in _records(run, RETIRED):
        top = max(top, record["task"])
        identity = record.get("identity")
        if isinstance(identity, str) and identity not in stored:
            elsewhere[identity] = record
    first = kept.first if kept is not None and kept.config == key else top + 1
    found = _numbered(tasks, stored, elsewhere, first)
    if found is None:  # numbers.json does not fit the records (crafted): numbered anew
        first = top + 1
        found = _numbered(tasks, stored, elsewhere, first)
        assert found is not None
    earlier, back = found
    scheduled = set(earlier) | {i for i, n in stored.items() if n >= first} | set(back)
    retired = frozenset({n for i, n in stored.items() if n < first and i not in earlier}
                        | unknown)
    numbers = Numbers(key, first, retired, named)
    # a run whose games all follow their places in its schedule (a new one) needs no numbers
    positional = kept is None and first == 0 and not retired and not named
    if numbers != kept and not positional:
        write_numbers(run, numbers)
    if back:  # appended after numbers.json: a run killed in between appends them again
        missing = sorted((r for i, r in back.items() if i not in stored),
                         key=lambda r: r["task"])
        with run.open_games() as games:
            games.write("".join(_line(r) for r in missing))
    gone = sum(1 for i in elsewhere if i not in back)
    return Kept(frozenset(scheduled), len(retired) + gone, first, earlier)


def _numbered(tasks: Sequence[GameTask], stored: Mapping[str, int],
              elsewhere: Mapping[str, dict[str, Any]], first: int
              ) -> tuple[dict[str, int], dict[str, dict[str, Any]]] | None:
    """The schedule's games (`tasks`, with their identities) on record before `first`
    (identity -> number), and those of retired.jsonl under the numbers they take now; None if
    a game on record from `first` on is not the game the schedule gives its number
    (numbers.json does not fit the records)."""
    earlier: dict[str, int] = {}
    back: dict[str, dict[str, Any]] = {}
    following = first
    later = 0  # games on record from `first` on, each found under its number
    for task in tasks:
        number = stored.get(task.identity)
        if number is not None and number < first:
            earlier[task.identity] = number
            continue
        if number is not None:
            if number != following:
                return None
            later += 1
        elif task.identity in elsewhere:
            back[task.identity] = elsewhere[task.identity] | {"task": following}
        following += 1
    if later != sum(1 for n in stored.values() if n >= first):
        return None
    return earlier, back


def _records(run: RunDirectory, name: str) -> Iterator[dict[str, Any]]:
    """The whole records of one of the run's record files (none if it is missing)."""
    path = run.file(name)
    known: set[str] = set()
    try:
        for number, line, whole in read_lines(path):
            if not whole:
                break  # half-written: cut by `repair`, its game replayed
            yield parse_record(line, path, number, known=known)
    except FileNotFoundError:
        return


def _identified(records: list[dict[str, Any]], legacy: Callable[[], Legacy | None]
                ) -> dict[str, dict[str, Any]]:
    """Records without an identity given the identity of the task they were played as."""
    before = legacy()
    if before is None:
        return {}
    wanted = {record["task"]: record for record in records}
    out: dict[str, dict[str, Any]] = {}
    for task in before.schedule:
        record = wanted.get(task.task)
        if record is not None and tuple(record.get("seats", ())) == task.seats:
            identity = before.identities.of(task)
            out[identity] = record | {"identity": identity}
    return out


def _line(record: dict[str, Any]) -> str:
    """A record as the line games.jsonl holds: its number and identity first."""
    return json.dumps(_ordered(record), separators=(",", ":"), ensure_ascii=False) + "\n"


def _ordered(record: dict[str, Any]) -> dict[str, Any]:
    """A record's fields in their written order: task id, identity, then the rest."""
    rest = {k: v for k, v in record.items() if k not in ("task", "identity")}
    return {"task": record["task"], "identity": record["identity"], **rest}


@dataclass(frozen=True)
class RunPlan:
    """What bringing a run up to date will do, said before playing: games kept, games to play
    and whose, games no longer scheduled (kept on record, not rated), and what changed."""

    kept: int
    to_play: int
    retired: int
    new: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def describe(self) -> str:
        """The plan in one line: `kept 1,680 games; to play 560 (new: ada); no longer
        scheduled 0 (kept on record, not rated)`."""
        why = [f"{label}: {', '.join(names)}" for label, names in
               (("new", self.new), ("changed", self.changed)) if names]
        why += list(self.notes)
        played = f"to play {self.to_play:,}" + (f" ({'; '.join(why)})" if why else "")
        gone = f"gone: {', '.join(self.gone)}; " if self.gone else ""
        return (f"kept {self.kept:,} games; {played}; no longer scheduled {self.retired:,} "
                f"({gone}kept on record, not rated)")


def changes(before: TournamentConfig, recorded: Mapping[str, BotCode] | None,
            now: TournamentConfig, code: Mapping[str, BotCode]
            ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Between the config a run holds (and its recorded code) and the one it is brought to: the
    bots new, changed (code, spec or isolation) and gone, and notes on deals and variants."""
    old = {b.name: b for b in before.bots}
    new = tuple(b.name for b in now.bots if b.name not in old)
    gone = tuple(name for name in old if name not in code)
    changed = tuple(
        b.name for b in now.bots if b.name in old and (
            old[b.name].spec != b.spec or old[b.name].isolation != b.isolation
            or (recorded is not None and b.name in recorded
                and recorded[b.name].digest != code[b.name].digest)))
    notes: list[str] = []
    more = len(now.deals) - len(before.deals)
    if more:
        notes.append(f"{abs(more)} {'more' if more > 0 else 'fewer'} deals")
    was = {(g.game, v.label) for g in before.games for v in g.variants}
    added = [f"{g.game} {v.label}" for g in now.games for v in g.variants
             if (g.game, v.label) not in was]
    if added:
        notes.append(f"new variants: {', '.join(added)}")
    return new, changed, gone, tuple(notes)


def deals_reconcile(before: TournamentConfig, now: TournamentConfig) -> bool:
    """Whether a run's games can be kept under another config's deals: the same seeds, more of
    them or fewer (one list begins the other)."""
    a, b = before.deals.seeds, now.deals.seeds
    shorter = min(len(a), len(b))
    return a[:shorter] == b[:shorter]
