"""A tournament run from start to finish, in four steps: plan (`planning`: the config's schedule),
bring the run directory up to date (`update.bring`), play what is missing (`playing`), and rate
(`rating`: the callers that want ratings files write them once the run has played). Resumable:
running the same config into the same directory plays only what is missing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox import BACKSTOP_GAME_SECONDS, Isolation, promised_here
from arena.tournament.planning.config import TournamentConfig
from arena.tournament.planning.plan import planned
from arena.tournament.playing.runner import Backend, ProgressHook, run_tasks
from arena.tournament.playing.tasks import Entrant, Sandboxing
from arena.tournament.records.results import BOT_LOGS, BOTS, GAMES, LOG
from arena.tournament.records.run_log import logging_to
from arena.tournament.update.bring import UpToDate, bring_up_to_date, tell_holders
from arena.tournament.update.identity import CodeLook, DealsLike, deals_of, like_deals
from arena.tournament.update.reconcile import RunPlan

log = logging.getLogger("arena")


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


def run_tournament(config: TournamentConfig, out: Path, workers: int = 1, fresh: bool = False,
                   on_progress: ProgressHook | None = None, backend: Backend = Backend.LOCAL,
                   address: str | None = None, deals_like: Path | None = None,
                   yes: bool = False, until: int | None = None,
                   on_plan: Callable[[RunPlan], None] | None = None,
                   hidden: tuple[Path, ...] = (), look: CodeLook | None = None) -> RunReport:
    """Play every task of the config that `out` does not hold yet, appending records to it.

    Either backend writes the same records: resuming may switch between them. A run resumed
    after one of its bots' code changed is refused (unless `fresh`); with `deals_like`, the
    run is played on the deals of that earlier run: its seeds and its key. A schedule of more
    than MAX_GAMES games is refused before anything is written, unless `yes`. With `until`, only
    the tasks whose ids are below it are played (a sequential duel plays its schedule in chunks).
    `hidden`: more paths its sandboxed bots may not see (a league's other submissions).
    `look`: the bots' code as found already by the runs it is played with (`CodeLook`).
    """
    earlier = deals_of(deals_like) if deals_like is not None else None
    if earlier is not None:
        config = like_deals(config, earlier)
    schedule = planned(config, yes)
    ready = bring_up_to_date(config, out, schedule, fresh, earlier, until, look)
    if on_plan is not None:
        on_plan(ready.plan)
    played = _play(config, ready, earlier, workers, on_progress, backend, address, hidden)
    return RunReport(out, ready.total, ready.kept, played, ready.repaired, ready.retired,
                     ready.plan)


def _play(config: TournamentConfig, ready: UpToDate, earlier: DealsLike | None, workers: int,
          on_progress: ProgressHook | None, backend: Backend, address: str | None,
          hidden: tuple[Path, ...]) -> int:
    """Play what a run brought up to date has left to play, its log told what was done to bring
    it up to date and where its games are played; the number of games played."""
    bots = {b.name: Entrant(b.spec, b.isolation is Isolation.PROCESS) for b in config.bots}
    sandboxed = any(e.sandboxed for e in bots.values())
    key, directory = ready.key, ready.directory
    # the key is kept from the bots wherever it is: here, and in the runs that share it
    shared = directory.key_shared_with() if key else ()
    private = (directory.path, *shared, *hidden)
    sandboxing = Sandboxing(config.limits.sandbox(), directory.file(BOT_LOGS), private, key)
    pooled = backend is Backend.LOCAL and workers > 1
    with logging_to(directory.file(LOG), pooled):
        if ready.bots_unrecorded:
            log.warning("no %s (a run begun before the bots' code was recorded): recorded "
                        "their code as it is now", BOTS)
        if earlier is not None:
            log.info("dealt like %s: %d deals (%s), %s", earlier.run, len(config.deals),
                     config.deals.source, "with its key" if key else "without a key")
            tell_holders(directory, earlier)
        if ready.repaired:
            log.warning("cut a half-written record (%d bytes) from %s; that game is replayed",
                        ready.repaired, GAMES)
        if ready.updated:
            log.info("brought up to date: %s", ready.plan.describe())
        where = (f"{workers} worker(s)" if backend is Backend.LOCAL else
                 f"Ray at {address}" if address else f"a local Ray instance of {workers} CPU(s)")
        log.info("run %r: %d of %d games already played; %s", config.name, ready.kept, ready.total,
                 where)
        if ready.sandbox_new:  # what keeps the sandbox's promises on this machine
            _log_promises(config.games[0].game)
        if sandboxed and config.limits.move_seconds is None and config.limits.game_seconds is None:
            log.warning("sandboxed bots have no time limit ([limits] move_seconds, game_seconds):"
                        " one that stops answering holds each of its games for %.0f minutes",
                        BACKSTOP_GAME_SECONDS / 60)
        with directory.open_games() as games:
            try:
                played = run_tasks(ready.todo, ready.end, ready.kept_before_end, bots, games,
                                   workers, on_progress, sandboxing, backend, address)
            except KeyboardInterrupt:
                log.warning("stopped by the user; run the same command again to resume")
                raise
        log.info("played %d games; %d of %d done", played, ready.kept + played, ready.total)
    return played
def _log_promises(game: str) -> None:
    """Log which of the sandbox's promises the kernel keeps here (a warning if not all)."""
    summary, kept = promised_here(game)
    log.log(logging.INFO if kept else logging.WARNING, "sandbox: %s", summary)


