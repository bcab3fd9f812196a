"""Bringing a run directory up to date with its config, before anything is played: the directory
prepared (a new one, or an old one repaired), its key, its sampled or gauntlet draw grown to a
changed field, its records matched to the schedule by game identity (`reconcile`), its config
and bots' code recorded, and what it will play (`UpToDate`)."""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from arena.errors import ArenaError
from arena.ratings.tables import rate
from arena.sandbox import Isolation
from arena.tournament.planning.canonical import canonical_toml, config_digest
from arena.tournament.planning.config import TournamentConfig
from arena.tournament.planning.plan import schedule_of
from arena.tournament.planning.schedule import (
    FieldStep,
    Format,
    GamePlan,
    GameTask,
    Schedule,
    challenged,
    grown_tables,
)
from arena.tournament.records.results import (
    DIGEST,
    GAMES,
    KEY,
    NUMBERS,
    RETIRED,
    Drawn,
    RunDirectory,
    RunDirectoryError,
    read_draw,
    run_config,
    write_draw,
)
from arena.tournament.update.identity import (
    BotCode,
    CodeLook,
    DealsLike,
    bots_code,
    read_bots,
    write_bots,
)
from arena.tournament.update.reconcile import (
    GameIdentities,
    Legacy,
    RunPlan,
    changes,
    deals_reconcile,
    numbers_key,
    reconcile,
)

log = logging.getLogger("arena")


@dataclass(frozen=True)
class UpToDate:
    """A run directory brought up to date: the schedule it plays (`total` games), the tasks left
    to play below `end` (`todo`, a lazy stream), the games kept from before (`kept`, of which
    `kept_before_end` below `end`), what it said it keeps (`plan`), and what the run's log is told
    (`repaired` bytes cut, whether it is to say what keeps the sandbox's promises, whether
    `bots.json` was missing, whether the run was updated)."""

    directory: RunDirectory
    key: str
    total: int
    end: int
    todo: Iterator[GameTask]
    kept: int
    kept_before_end: int
    retired: int
    plan: RunPlan
    repaired: int
    resuming: bool
    sandbox_new: bool
    """It plays a sandboxed bot, and it had no games or none of its bots was sandboxed before (a
    league's pool that a student's bot joins): its log has not said what keeps the sandbox's
    promises."""
    bots_unrecorded: bool
    updated: bool


def bring_up_to_date(config: TournamentConfig, out: Path, schedule: Schedule, fresh: bool,
                     earlier: DealsLike | None, until: int | None,
                     look: CodeLook | None = None) -> UpToDate:
    """Prepare `out` for `config`'s `schedule` and match what it holds to it (see the module's
    docstring); refused with a `RunDirectoryError` where its games could not be kept or a
    sandboxed bot could work its deals out. `look`: the bots' code as found already (one
    league update's pools share it)."""
    sandboxed = _sandboxed(config)
    if earlier is not None and sandboxed and not earlier.key:
        raise RunDirectoryError(
            f"{earlier.run}: was played without a key (all its bots in-process), so its deals "
            f"follow from its public seeds and a sandboxed bot could work them out; play these "
            f"bots in-process too (--isolation none, only for bots you trust), or leave out "
            f"--deals-like")
    code = bots_code(config, look)
    digest = config_digest(config)
    resuming = not fresh and (out / DIGEST).is_file()
    run = RunDirectory.prepare(out, canonical_toml(config), digest, fresh, update=True)
    repaired = run.repair()
    recorded = read_bots(out) if resuming else None
    same = resuming and run.config_digest() == digest
    before = config if not resuming or same else run_config(out)
    has_records = _has_records(run)
    if has_records and not deals_reconcile(before, config):
        raise RunDirectoryError(
            f"{out}: its games were dealt from {before.deals.source}, not "
            f"{config.deals.source}, so none could be kept; run with --fresh to start it over "
            f"on the new deals, or keep its deals in a new run: arena run CONFIG --out NEW "
            f"--deals-like {out}")
    if earlier is not None:
        key = _dealt_like(run, earlier, has_records)
    else:
        # a run with sandboxed bots seeds its deals and bots' rngs with a key of its own (see
        # `deal_rng`), made on its first start; a run given a key by --deals-like keeps it
        key = run.key(create=sandboxed and not has_records)
    if sandboxed and not key:  # never: a sandboxed bot could work its deals out
        raise RunDirectoryError(
            f"{out}: its games were dealt without a key (begun by an older version, or its "
            f"{KEY} removed, or all its bots played in-process), so a sandboxed bot could work "
            f"its deals out; run with --fresh to start it over with a key, or play these bots "
            f"in-process (--isolation none, only for bots you trust)")
    total = len(schedule)
    seated: tuple[str, ...] = ()
    if config.schedule.format in _GROWN:
        schedule, seated = _grown(run, config, schedule, resuming, key)
        total = len(schedule)
    identities = GameIdentities(config, code)
    end = total if until is None else min(until, total)
    todo: Iterator[GameTask]
    if (not has_records or (same and recorded == code)) and not any(
            run.file(name).exists() for name in (RETIRED, NUMBERS)):
        # a new run, or a plain resume of a run never brought up to date: its games are
        # numbered by their places in this very schedule (each game's identity digested as it
        # is played: a duel's first chunk plays 64 games of a schedule of 10,000)
        done = run.finished()
        retired = 0
        todo = (replace(task, identity=identities.of(task)) for task in schedule
                if task.task < end and task.task not in done)
        kept = len(done)
        kept_before_end = len(done & set(range(end)))
    else:
        identified = tuple(identities.tasks(schedule))  # each game's identity, digested once
        found = reconcile(run, identified,
                          lambda: _legacy(out, before, recorded, code), numbers_key(digest, code))
        retired = found.retired
        # each game under its number for good (its place in the schedule decides `until`)
        todo = (task for place, task in found.numbered(identified)
                if place < end and task.identity not in found.finished)
        kept = len(found.finished)
        kept_before_end = kept if end >= total else sum(
            1 for task in identified if task.task < end and task.identity in found.finished)
    if not same:
        run.set_config(canonical_toml(config), digest)
    if recorded != code:
        write_bots(out, code)
    new, changed, gone, notes = (changes(before, recorded, config, code) if resuming
                                 else ((), (), (), ()))
    if seated:  # bots of the field seated at new tables: their tables lost a bot, or more
        shown = ", ".join(seated[:5]) + (f" and {len(seated) - 5} more" if len(seated) > 5
                                         else "")
        notes = (*notes, f"new tables for bots short of tables: {shown}")
    plan = RunPlan(kept, total - kept, retired, new, changed, gone, notes)
    return UpToDate(run, key, total, end, todo, kept, kept_before_end, retired, plan, repaired,
                    resuming, sandboxed and not (has_records and _sandboxed(before)),
                    resuming and recorded is None,
                    resuming and not (same and recorded == code))


def _sandboxed(config: TournamentConfig) -> bool:
    """Whether a config sandboxes any of its bots."""
    return any(b.isolation is Isolation.PROCESS for b in config.bots)


def run_schedule(config: TournamentConfig, out: Path, fresh: bool = False) -> Schedule:
    """The schedule `run_tournament` would play into `out`: a sampled or gauntlet one as the
    run grows its draw (nothing is written)."""
    schedule = schedule_of(config)
    if config.schedule.format not in _GROWN or fresh or not (out / DIGEST).is_file():
        return schedule
    run = RunDirectory(out)
    return _grown(run, config, schedule, True, run.key(), write=False)[0]


_GROWN = (Format.SAMPLED, Format.GAUNTLET)
"""The formats whose draw a run keeps and grows as its field changes."""


def _grown(run: RunDirectory, config: TournamentConfig, schedule: Schedule, resuming: bool,
           key: str, write: bool = True) -> tuple[Schedule, tuple[str, ...]]:
    """A sampled or gauntlet schedule as the run draws it: as drawn before for the same field,
    grown without a redraw for another (`grown_tables`: the tables kept, new ones for the bots
    short of tables), drawn afresh for a new run or fewer tables per bot; each draw kept in the
    run with the history of its field (draw.json), so that it is a function of that history
    and the run's key. A gauntlet's field tables (at three seats or more) are what is drawn.
    Also the bots of the earlier field that a grown draw seats at new tables (short of them)."""
    fmt = config.schedule.format
    per_bot = config.schedule.tables_per_bot
    bots = [b.name for b in config.bots]
    challengers = config.schedule.challengers
    field = tuple(b for b in bots if b not in challengers)
    before = read_draw(run) if resuming else None
    draws: dict[tuple[str, int], Drawn] = {}
    tables: dict[tuple[str, int], list[tuple[str, ...]]] = {}
    seated: set[str] = set()
    for plan in schedule.games:
        gauntlet = fmt is Format.GAUNTLET
        if plan.players < 2 or per_bot is None or (gauntlet and plan.players == 2):
            continue  # nothing drawn: every table, or every challenger against every field bot
        where = (plan.game, plan.players)
        size = plan.players - gauntlet
        old = before.get(where) if before is not None else None
        if old is not None and (old.format != fmt.value or per_bot < old.per_bot):
            old = None  # another format, or fewer tables a bot: drawn anew
        if old is None:
            first = tuple(schedule.field_tables_of(plan) if gauntlet else schedule.tables_of(plan))
            drawn = Drawn(first, (FieldStep(field, per_bot),), first, fmt.value)
        elif old.bots == field and old.per_bot == per_bot:
            drawn = old
        else:
            ratings = _ratings_of(run, config, plan, old.tables, field, per_bot)
            step = FieldStep(field, per_bot, ratings)
            grown = grown_tables(old.tables, field, size, per_bot,
                                 draw_salt(key, plan.game, plan.players), dict(ratings))
            drawn = Drawn(old.first, (*old.history, step), tuple(grown), fmt.value)
            kept = Counter(name for table in old.tables if set(table) <= set(field)
                           for name in table)
            seated.update(name for name in old.bots if name in field and kept[name] < per_bot)
        draws[where] = drawn
        tables[where] = (challenged(bots, challengers, drawn.tables) if gauntlet
                         else list(drawn.tables))
    if write:
        write_draw(run, draws)
    return schedule_of(config, tables), tuple(name for name in field if name in seated)


def draw_salt(key: str, game: str, players: int) -> str:
    """What breaks the ties of a run's grown draw of a game at a table size: a digest of the
    run's key (never the key itself; names alone for a run without a key)."""
    keyed = hashlib.sha256(f"arena draw\0{key}".encode()).hexdigest() if key else ""
    return f"{keyed}:{game}:{players}"


def _ratings_of(run: RunDirectory, config: TournamentConfig, plan: GamePlan,
                kept: tuple[tuple[str, ...], ...], field: tuple[str, ...], per_bot: int
                ) -> tuple[tuple[str, float], ...]:
    """The ratings (mu, over the game's variants at that table size) that a grown draw seats
    near: those of the run's records so far, where a bot already rated is short of tables (its
    opponent left, or more tables a bot); none otherwise, sparing the rating."""
    present = set(field)
    count = dict.fromkeys(field, 0)
    for table in kept:
        if all(name in present for name in table):
            for name in table:
                count[name] += 1
    if not any(0 < n < per_bot for n in count.values()):
        return ()
    records = [r for r in run.records()
               if r.get("game") == plan.game and len(r.get("seats", ())) == plan.players]
    settings = {g.game: g.trueskill for g in config.games}
    mus: dict[str, list[float]] = {}
    for pool in rate(records, settings).pools:
        for row in pool.bots:
            mus.setdefault(row.bot, []).append(row.mu)
    return tuple((name, round(sum(mus[name]) / len(mus[name]), 6))
                 for name in field if name in mus)


def _has_records(run: RunDirectory) -> bool:
    """Whether a run holds any record (scheduled or retired)."""
    return any(run.file(name).is_file() and run.file(name).stat().st_size > 0
               for name in (GAMES, RETIRED))


def _legacy(out: Path, before: TournamentConfig, recorded: dict[str, BotCode] | None,
            code: dict[str, BotCode]) -> Legacy | None:
    """The schedule a run was played under and its games' identities, for records that carry
    none: its config, and its bots' code as bots.json recorded it (as it is now where not
    recorded); None if a bot's code cannot be known."""
    known = dict(recorded or {})
    missing = [b for b in before.bots if b.name not in known]
    if missing:
        if all(b.name in code for b in missing):
            known |= {b.name: code[b.name] for b in missing}
        else:
            try:
                known = bots_code(before) | known
            except ArenaError:
                return None
    return Legacy(schedule_of(before), GameIdentities(before, known))


def _dealt_like(run: RunDirectory, earlier: DealsLike, played: bool) -> str:
    """Give a run an earlier run's key (or none, as it has none), and note where else the key
    is kept; the key. A run that already played with another key is refused."""
    mine = run.key()
    if mine != earlier.key:
        if played:
            dealt = "with a key of its own" if mine else "without a key"
            raise RunDirectoryError(
                f"{run.path}: its games were dealt {dealt}, not as {earlier.run}'s were; run "
                f"with --fresh to start it over on {earlier.run}'s deals, or play them in a new "
                f"run: arena run CONFIG --out NEW --deals-like {earlier.run}")
        run.set_key(earlier.key)
    if earlier.key:
        run.share_key_with(earlier.holders)
    return earlier.key


def tell_holders(run: RunDirectory, earlier: DealsLike) -> None:
    """Note in each run holding an earlier run's key that this run holds it too, so that they
    keep it from their own bots as well."""
    for holder in earlier.holders:
        other = RunDirectory(holder)
        try:
            # key-shared comes from elsewhere too: only a run directory that holds this very key
            # is written in, never a folder it merely names
            if not other.holds_key(earlier.key):
                log.warning("%s is named as holding the key of %s, but holds no run with it: "
                            "nothing noted there", holder, earlier.run)
                continue
            other.share_key_with((run.path, *earlier.holders))
        except (OSError, ArenaError) as exc:
            log.warning("could not note in %s that %s holds its key too: %s", holder, run.path,
                        getattr(exc, "strerror", None) or exc)
