"""Executes a schedule: in this process or a pool of worker processes, appending records as games
finish, reporting progress, and stopping cleanly so that a later run resumes where this one left.
"""

from __future__ import annotations

import enum
import multiprocessing
import multiprocessing.util
import signal
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import chain, islice
from typing import IO

from arena.sandbox import die_with_parent
from arena.tournament.planning.schedule import GameTask
from arena.tournament.playing.ray_backend import run_on_ray
from arena.tournament.playing.tasks import (
    Entrant,
    Played,
    Sandboxing,
    TaskPlayer,
    WorkerDiedError,
    batch_size,
    in_batches,
)


class Backend(enum.Enum):
    """Where a run's games are played: this machine's processes, or a Ray cluster."""

    LOCAL = "local"
    RAY = "ray"


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a run has come."""

    done: int
    total: int
    faults: int
    played: int
    seconds: float

    @property
    def rate(self) -> float:
        """Games per second played by this run so far."""
        return self.played / self.seconds if self.seconds > 0 else 0.0


ProgressHook = Callable[[Progress], None]


_worker: TaskPlayer | None = None  # this worker process's player, set by _start_worker


def _start_worker(bots: Mapping[str, Entrant], sandboxing: Sandboxing) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    die_with_parent()  # a killed runner leaves no workers (nor, through them, bot processes)
    _worker = TaskPlayer(bots, sandboxing)
    # a worker that ends normally ends its bots' hosts first, so that they clean up after them
    multiprocessing.util.Finalize(_worker, _worker.close, exitpriority=10)


def _play_batch(tasks: list[GameTask]) -> list[Played]:
    assert _worker is not None
    return [_worker.play(task) for task in tasks]


def run_tasks(tasks: Iterable[GameTask], total: int, already: int, bots: Mapping[str, Entrant],
              out: IO[str], workers: int = 1, on_progress: ProgressHook | None = None,
              sandboxing: Sandboxing | None = None, backend: Backend = Backend.LOCAL,
              address: str | None = None) -> int:
    """Play `tasks`, appending each record line to `out` (flushed) as games finish.

    `total` counts every task of the schedule and `already` those finished before; progress is
    reported after every batch. Returns the number of games played. KeyboardInterrupt stops the
    run at once: what was written stays, and the rest is left for a later run.

    The local backend plays in this process (one worker) or a pool of `workers` processes; the
    ray backend joins the Ray cluster at `address`, or starts a local instance of `workers` CPUs.
    """
    started = time.perf_counter()
    counts = {"played": 0, "faults": 0}

    def record(games: list[Played]) -> None:
        out.write("".join(g.line + "\n" for g in games))
        out.flush()
        counts["faults"] += sum(g.faults for g in games)
        counts["played"] += len(games)
        if on_progress is not None:
            on_progress(Progress(already + counts["played"], total, counts["faults"],
                                 counts["played"], time.perf_counter() - started))

    if on_progress is not None:
        on_progress(Progress(already, total, 0, 0, 0.0))
    pending = iter(tasks)
    first = next(pending, None)
    if first is None:  # nothing to play: no worker, sandbox host or Ray instance is started
        return 0
    tasks = chain((first,), pending)
    remaining = total - already
    if backend is Backend.RAY:
        run_on_ray(tasks, bots, sandboxing or Sandboxing(), record, remaining, workers, address)
    elif workers <= 1:
        player = TaskPlayer(bots, sandboxing)
        try:
            for batch in in_batches(tasks, 16):
                record([player.play(task) for task in batch])
        finally:
            player.close()
    else:
        _run_pool(tasks, bots, sandboxing or Sandboxing(), workers,
                  batch_size(remaining, workers), record)
    return counts["played"]


def _run_pool(tasks: Iterable[GameTask], bots: Mapping[str, Entrant], sandboxing: Sandboxing,
              workers: int, size: int, record: Callable[[list[Played]], None]) -> None:
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                               initargs=(dict(bots), sandboxing))
    pending: set[Future[list[Played]]] = set()
    batches = in_batches(tasks, size)
    finished = False
    try:
        for batch in islice(batches, workers * 3):
            pending.add(pool.submit(_play_batch, batch))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                record(future.result())
                batch = next(batches, None)
                if batch is not None:
                    pending.add(pool.submit(_play_batch, batch))
        finished = True
    except BrokenProcessPool:
        raise WorkerDiedError("a worker process died (a bot may have crashed the interpreter); "
                              "the games finished so far are saved, run again to resume") from None
    finally:
        # all played: wait for the pool's own thread, which otherwise races the interpreter's
        # exit (CPython 3.11: "Exception ignored in: <module 'threading'> ... OSError: [Errno 9]
        # Bad file descriptor", its wake-up pipe written after that thread closed it)
        pool.shutdown(wait=finished, cancel_futures=True)
