"""Bringing a run up to date: every game has an identity, and a run keeps each finished game that
its config would play again identically.

A game is identified by what decides it, not by its place in the schedule: the game, variant
(label, preset and parameters), the table, each seat's bot (name, spec, code digest and
isolation), the deal seed (dealt under the run's key, which a run never changes) and the limits
that bind the bots. That identity (`GameIdentities.of`, 32 hex digits of a SHA-256) is stored in
each record. When a run's config changes (a bot added, removed or changed; a variant or a game
added; more deals), `reconcile` matches the records to the new schedule by identity:

- the records whose game is still scheduled stay in `games.jsonl`, renumbered to the new
  schedule's task ids (so the ratings fold them in schedule order, as a fresh run would);
- the others move to `retired.jsonl`: kept on record, not rated; a game scheduled again (a bot
  put back as it was) comes back from there instead of being replayed;
- only the games on record nowhere are played.

Records from older runs, which carry no identity, are given the identity of the task they were
played as under the config the run directory holds (`config.toml`, `bots.json`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from arena.safe_files import read_lines, remove, write_text
from arena.tournament.planning.config import TournamentConfig
from arena.tournament.planning.schedule import GameTask, Schedule
from arena.tournament.records.results import (
    GAMES,
    RETIRED,
    RunDirectory,
    RunDirectoryError,
    parse_record,
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
    """What a run holds for its schedule: the identities of its games on record (renumbered),
    how many records are no longer scheduled (in retired.jsonl), and whether the records were
    rewritten."""

    finished: frozenset[str]
    retired: int
    rewritten: bool


@dataclass(frozen=True)
class Legacy:
    """The schedule a run was played under, with the identities of its games."""

    schedule: Schedule
    identities: GameIdentities


def reconcile(run: RunDirectory, schedule: Schedule, identities: GameIdentities,
              legacy: Callable[[], Legacy | None]) -> Kept:
    """Match a run's records (games.jsonl and retired.jsonl) to a schedule by identity, and
    rewrite them if they do not match it already: the scheduled ones into games.jsonl under
    their task ids, in schedule order, the rest into retired.jsonl.

    `legacy` gives the identities of the config the run was played under, for records that
    carry none (None if there is no way to know them: those records are retired). The files
    are replaced whole (retired.jsonl first): a run killed in between holds a record in both,
    and the next start settles it.
    """
    stored: dict[str, dict[str, Any]] = {}
    placed: dict[str, int] = {}  # identity -> task id, for records in games.jsonl
    unidentified: list[dict[str, Any]] = []
    dirty = False
    for record in _records(run, GAMES):
        identity = record.get("identity")
        if identity is None:
            unidentified.append(record)
            dirty = True
            continue
        if identity in placed:
            raise RunDirectoryError(f"{run.file(GAMES)}: game {identity} is recorded twice")
        stored[identity] = record
        placed[identity] = record["task"]
    if unidentified:
        stored.update(_identified(unidentified, legacy))
    from_retired: dict[str, dict[str, Any]] = {}
    for record in _records(run, RETIRED):
        identity = record.get("identity")
        if isinstance(identity, str) and identity not in stored:
            from_retired[identity] = record
    wanted: dict[str, int] = {}
    if stored or from_retired:
        for task in schedule:
            identity = identities.of(task)
            if identity in stored or identity in from_retired:
                wanted[identity] = task.task
    everything = stored | from_retired
    retired = {i: r for i, r in everything.items() if i not in wanted}
    dirty = dirty or any(i in from_retired for i in wanted) or any(
        placed.get(i) != task for i, task in wanted.items()) or any(i in placed for i in retired)
    if dirty:
        _write(run, RETIRED, (r for _, r in sorted(retired.items())))
        kept = sorted(wanted.items(), key=lambda item: item[1])
        _write(run, GAMES, ((everything[i] | {"task": t}) for i, t in kept))
    return Kept(frozenset(wanted), len(retired), dirty)


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


def _write(run: RunDirectory, name: str, records: Iterator[dict[str, Any]]) -> None:
    """Replace a record file whole with these records, each with its identity after its task
    id (removed when there are none and it is retired.jsonl)."""
    lines = [json.dumps(_ordered(r), separators=(",", ":"), ensure_ascii=False) + "\n"
             for r in records]
    if not lines and name == RETIRED:
        remove(run.file(name))
        return
    write_text(run.file(name), "".join(lines))


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
