"""A tournament run from start to finish: config -> schedule -> run directory -> records ->
ratings. Resumable: running the same config into the same directory plays only what is missing.
"""

from __future__ import annotations

import hashlib
import io
import logging
import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import multiprocessing_logging

from arena.errors import ArenaError
from arena.ratings.formats import format_crosstable, format_ratings, unconverged_text
from arena.ratings.plots import draw_report, require_matplotlib
from arena.ratings.tables import Ratings, rate
from arena.safe_files import check_entry, open_append, write_text
from arena.sandbox import BACKSTOP_GAME_SECONDS, Isolation, promised_here
from arena.text import escape_lines
from arena.tournament.planning.canonical import canonical_toml, config_digest
from arena.tournament.planning.config import OnFault, Stop, TournamentConfig
from arena.tournament.planning.schedule import (
    FieldStep,
    Format,
    GamePlan,
    Schedule,
    VariantPlan,
    challenged,
    grown_tables,
)
from arena.tournament.playing.runner import Backend, ProgressHook, run_tasks
from arena.tournament.playing.tasks import Entrant, Sandboxing
from arena.tournament.records.results import (
    BOT_LOGS,
    BOTS,
    DIGEST,
    GAMES,
    KEY,
    LOG,
    REPORT,
    REPORT_IMAGES,
    REPORT_SUFFIXES,
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
    DealsLike,
    bots_code,
    deals_of,
    like_deals,
    read_bots,
    write_bots,
)
from arena.tournament.update.reconcile import (
    GameIdentities,
    Legacy,
    RunPlan,
    changes,
    deals_reconcile,
    reconcile,
)

log = logging.getLogger("arena")

MAX_GAMES = 10_000_000
"""Schedules longer than this are refused unless asked for (`yes`): days of play, likely a
mistake, where a sampled schedule would do."""


class ScheduleTooLargeError(ArenaError):
    """A schedule of more than MAX_GAMES games, not confirmed."""


@dataclass(frozen=True)
class RunReport:
    """What a run did: the directory, the schedule's size, the games kept from before (`before`)
    and played now, records repaired, and records no longer scheduled."""

    path: Path
    total: int
    before: int
    played: int
    repaired: int
    retired: int = 0
    """Records on file whose games are no longer scheduled (kept, not rated)."""
    plan: RunPlan | None = None
    """What the run said before playing (`RunPlan.describe`)."""

    @property
    def complete(self) -> bool:
        """Whether every task of the schedule has a record."""
        return self.before + self.played >= self.total


def schedule_of(config: TournamentConfig,
                drawn: dict[tuple[str, int], list[tuple[str, ...]]] | None = None) -> Schedule:
    """The schedule a config describes (with `drawn`, these tables where given)."""
    plans = [GamePlan(g.game, g.players,
                      tuple(VariantPlan(v.label, v.preset, tuple(v.overrides)) for v in g.variants))
             for g in config.games]
    rounds = config.stopping.round_deals if config.stopping.rule is Stop.CONFIDENT else None
    return Schedule(plans, [b.name for b in config.bots], config.deals.seeds, config.seating,
                    config.schedule, rounds, drawn)


def run_tournament(config: TournamentConfig, out: Path, workers: int = 1, fresh: bool = False,
                   on_progress: ProgressHook | None = None, backend: Backend = Backend.LOCAL,
                   address: str | None = None, deals_like: Path | None = None,
                   yes: bool = False, until: int | None = None,
                   on_plan: Callable[[RunPlan], None] | None = None,
                   hidden: tuple[Path, ...] = ()) -> RunReport:
    """Play every task of the config that `out` does not hold yet, appending records to it.

    Either backend writes the same records: resuming may switch between them. A run resumed
    after one of its bots' code changed is refused (unless `fresh`); with `deals_like`, the
    run is played on the deals of that earlier run: its seeds and its key. A schedule of more
    than MAX_GAMES games is refused before anything is written, unless `yes`. With `until`, only
    the tasks whose ids are below it are played (a sequential duel plays its schedule in chunks).
    `hidden`: more paths its sandboxed bots may not see (a league's other submissions).
    """
    earlier = deals_of(deals_like) if deals_like is not None else None
    if earlier is not None:
        config = like_deals(config, earlier)
    schedule = schedule_of(config)
    total = len(schedule)
    budget = config.stopping.budget if config.stopping.rule is Stop.CONFIDENT else None
    if min(total, budget or total) > MAX_GAMES and not yes:
        raise ScheduleTooLargeError(
            f"{config.path}: the schedule is {total:,} games, more than {MAX_GAMES:,}; sample "
            f"it ([schedule] format = \"sampled\", tables_per_bot = N: docs/config.md) or "
            f"pass --yes to play it all")
    bots = {b.name: Entrant(b.spec, b.isolation is Isolation.PROCESS) for b in config.bots}
    sandboxed = any(e.sandboxed for e in bots.values())
    if earlier is not None and sandboxed and not earlier.key:
        raise RunDirectoryError(
            f"{earlier.run}: was played without a key (all its bots in-process), so its deals "
            f"follow from its public seeds and a sandboxed bot could work them out; play these "
            f"bots in-process too (--isolation none, only for bots you trust), or leave out "
            f"--deals-like")
    code = bots_code(config)
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
    seated: tuple[str, ...] = ()
    if config.schedule.format in _GROWN:
        schedule, seated = _grown(run, config, schedule, resuming, key)
        total = len(schedule)
    identities = GameIdentities(config, code)
    end = total if until is None else min(until, total)
    if same and recorded == code and not run.file(RETIRED).exists():
        # a plain resume: the records are this very schedule's, by task id
        done = run.finished()
        retired = 0
        todo = (replace(task, identity=identities.of(task)) for task in schedule
                if task.task < end and task.task not in done)
        kept = len(done)
        kept_before_end = len(done & set(range(end)))
    else:
        found = reconcile(run, schedule, identities,
                          lambda: _legacy(out, before, recorded, code))
        retired = found.retired
        todo = (task for task in identities.tasks(schedule)
                if task.task < end and task.identity not in found.finished)
        kept = len(found.finished)
        kept_before_end = kept if end >= total else sum(
            1 for task in identities.tasks(schedule)
            if task.task < end and task.identity in found.finished)
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
    if on_plan is not None:
        on_plan(plan)
    # the key is kept from the bots wherever it is: here, and in the runs that share it
    private = ((run.path, *run.key_shared_with()) if key else (run.path,)) + hidden
    sandboxing = Sandboxing(config.limits.sandbox(), run.file(BOT_LOGS), private, key)
    pooled = backend is Backend.LOCAL and workers > 1
    with _logging_to(run.file(LOG), pooled):
        if resuming and recorded is None:
            log.warning("no %s (a run begun before the bots' code was recorded): recorded "
                        "their code as it is now", BOTS)
        if earlier is not None:
            log.info("dealt like %s: %d deals (%s), %s", earlier.run, len(config.deals),
                     config.deals.source, "with its key" if key else "without a key")
            _tell_holders(run, earlier)
        if repaired:
            log.warning("cut a half-written record (%d bytes) from %s; that game is replayed",
                        repaired, GAMES)
        if resuming and not (same and recorded == code):
            log.info("brought up to date: %s", plan.describe())
        where = (f"{workers} worker(s)" if backend is Backend.LOCAL else
                 f"Ray at {address}" if address else f"a local Ray instance of {workers} CPU(s)")
        log.info("run %r: %d of %d games already played; %s", config.name, kept, total,
                 where)
        if sandboxed and not has_records:  # what keeps the sandbox's promises on this machine
            _log_promises(config.games[0].game)
        if sandboxed and config.limits.move_seconds is None and config.limits.game_seconds is None:
            log.warning("sandboxed bots have no time limit ([limits] move_seconds, game_seconds):"
                        " one that stops answering holds each of its games for %.0f minutes",
                        BACKSTOP_GAME_SECONDS / 60)
        with run.open_games() as games:
            try:
                played = run_tasks(todo, end, kept_before_end, bots, games, workers,
                                   on_progress, sandboxing, backend, address)
            except KeyboardInterrupt:
                log.warning("stopped by the user; run the same command again to resume")
                raise
        log.info("played %d games; %d of %d done", played, kept + played, total)
    return RunReport(out, total, kept, played, repaired, retired, plan)


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



def _log_promises(game: str) -> None:
    """Log which of the sandbox's promises the kernel keeps here (a warning if not all)."""
    summary, kept = promised_here(game)
    log.log(logging.INFO if kept else logging.WARNING, "sandbox: %s", summary)


def note_in_log(path: Path, message: str) -> None:
    """Add one line to a run directory's log."""
    with _logging_to(path / LOG, False):
        log.info("%s", message)


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


def _tell_holders(run: RunDirectory, earlier: DealsLike) -> None:
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


class _EscapingFormatter(logging.Formatter):
    """Log lines as `arena.text.escape_lines` makes them: a bot's traceback keeps its lines, but
    no control character or bidi override of what the bot said reaches the log."""

    def format(self, record: logging.LogRecord) -> str:
        return escape_lines(super().format(record))


class _LogFile(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler appending to a run's log file, opened never through a link."""

    def __init__(self, path: Path) -> None:
        super().__init__(io.TextIOWrapper(open_append(path), encoding="utf-8", newline="\n",
                                          errors="backslashreplace"))

    def close(self) -> None:
        try:
            self.flush()
            self.stream.close()
        finally:
            super().close()


@contextmanager
def _logging_to(path: Path, from_workers: bool) -> Iterator[None]:
    """Send the 'arena' log to the run's log file, from worker processes too."""
    handler = _LogFile(path)
    handler.setFormatter(_EscapingFormatter("%(asctime)s %(processName)s %(levelname)s "
                                            "%(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    forwarding = from_workers and multiprocessing.get_start_method() == "fork"
    if forwarding:
        multiprocessing_logging.install_mp_handler(log)
    try:
        yield
    finally:
        for h in list(log.handlers):  # closing the forwarding handler closes the file too
            log.removeHandler(h)
            h.close()


def run_ratings(path: Path) -> Ratings:
    """The ratings of a run directory, recomputed from its config and records."""
    return _rated(path)[0]


def run_report(path: Path, fmt: str = "table", variant: str | None = None,
               crosstable: bool = False) -> str:
    """A run's ratings report (or its crosstables alone), bots flagged by the run's fault share."""
    ratings, share = _rated(path)
    if crosstable:
        return format_crosstable(ratings, fmt, variant)
    return format_ratings(ratings, fmt, variant, share)


def _rated(path: Path) -> tuple[Ratings, float]:
    """A run's ratings and the fault share above which its bots are flagged."""
    config = run_config(path)
    ratings = rate(RunDirectory(path).records(), {g.game: g.trueskill for g in config.games},
                   disqualify=config.limits.on_fault is OnFault.DISQUALIFY)
    return ratings, config.limits.fault_share


def write_ratings(path: Path) -> str:
    """Write ratings.* and crosstable.* into a run directory; returns the text report."""
    ratings, share = _rated(path)
    for pool in ratings.pools:
        if not pool.converged:
            note_in_log(path, f"ratings of {pool.game} / {pool.variant}: {unconverged_text(pool)}")
    for suffix, fmt in REPORT_SUFFIXES.items():
        for name, text in (("ratings", format_ratings(ratings, fmt, None, share)),
                           ("crosstable", format_crosstable(ratings, fmt))):
            write_text(path / f"{name}.{suffix}", text + "\n")
    return format_ratings(ratings, "table", None, share)


def write_report(path: Path) -> list[Path]:
    """Draw a run's ratings as PNG pictures and write its report.md (matplotlib needed); the
    files written."""
    require_matplotlib()
    config = run_config(path)
    # what the report writes must be regular files or nothing, checked before anything is drawn
    for target in (path / REPORT, *(p for pattern in REPORT_IMAGES for p in path.glob(pattern))):
        check_entry(target)
    return draw_report(path, path / REPORT, config.name, list(RunDirectory(path).records()),
                       {g.game: g.trueskill for g in config.games},
                       config.limits.on_fault is OnFault.DISQUALIFY, config.limits.fault_share)
