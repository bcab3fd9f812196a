"""Running a schedule's games on Ray: a local Ray instance or a cluster.

The driver (the `arena run` process) starts one player actor per cluster CPU for the run, sends
them batches of tasks, keeps only a few batches in flight (back-pressure: its memory does not
grow with the schedule), and writes every record itself as batches come back, so resume and
exactly-once hold as in a local run. A batch lost with its actor's worker or node is run again by
Ray on the restarted actor (`max_task_retries`); only its result is kept. The actors (and with
them the host processes of sandboxed bots) end with the run, however it ends: closed when it
completes, killed when it stops early, and ended by Ray with their owner, the driver, if it is
killed.

Bots given as files on the organiser's machine travel with the run: their source is read once,
put in Ray's object store, and written to a content-named file on the worker node.
Ray is an optional extra, imported only here and only when the ray backend is chosen.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import logging
import os
import socket
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.errors import ArenaError
from arena.loader import bot_file, moved
from arena.tournament.planning.schedule import GameTask
from arena.tournament.playing.tasks import (
    Entrant,
    Played,
    Sandboxing,
    TaskPlayer,
    WorkerDiedError,
    batch_size,
    in_batches,
)

log = logging.getLogger("arena.runner")

INSTALL_HINT = "the ray backend needs Ray: pip install 'card-arena[ray]'"
DISTRIBUTION = "card-arena"
RETRIES = 3
"""How many times Ray restarts a player actor whose worker process or node was lost, and reruns
the batches it had."""
BATCH_LIMIT = 200
"""The most games in one batch: a Ray call costs the driver more than a pool task, so batches
are larger than the local pool's (which halves the driver's CPU per game against 50)."""
IN_FLIGHT_PER_CPU = 2
"""Batches given to each player actor at a time: one to play and one waiting, so that an actor
never waits for the driver; more only leave some actors idle at the end of a run while others
still have batches queued (measured: three gave +5-8% over the local pool, two +3.5-6.5%)."""
CLOSE_SECONDS = 30.0
"""How long the actors of a completed run get to end their bots' host processes cleanly."""


class RayBackendError(ArenaError):
    """Ray is missing, unreachable, or its workers run a different card-arena."""


@dataclass(frozen=True)
class Shipment:
    """What every batch of a run needs on a worker: the run's bots (file bots' sources
    included), how sandboxed bots run, and the run's key."""

    bots: Mapping[str, Entrant]
    sandboxing: Sandboxing
    sources: Mapping[str, bytes]
    """A file bot's spec -> the bytes of its file."""


def load_ray() -> ModuleType:
    """The `ray` module, or RayBackendError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayBackendError(INSTALL_HINT) from None
    return ray


def shipment(bots: Mapping[str, Entrant], sandboxing: Sandboxing) -> Shipment:
    """The run's bots made ready to travel: each bot file read here, on the organiser's machine."""
    sources = {}
    for entrant in bots.values():
        path = bot_file(entrant.spec)
        if path is not None:
            try:
                sources[entrant.spec] = path.read_bytes()
            except OSError as exc:
                raise RayBackendError(f"bot spec {entrant.spec!r}: cannot read {str(path)!r} "
                                      f"to send it to the Ray workers ({exc.strerror})") from None
    return Shipment(dict(bots), sandboxing, sources)


def unpacked(shipped: Shipment, root: Path) -> dict[str, Entrant]:
    """The shipment's bots as a worker node runs them: each file bot written under `root` in a
    folder named by its content (same file name, so the module keeps its name) and its spec
    pointed there."""
    bots = {}
    for name, entrant in shipped.bots.items():
        source = shipped.sources.get(entrant.spec)
        path = bot_file(entrant.spec)
        if source is not None and path is not None:
            copy = root / hashlib.sha256(source).hexdigest()[:20] / path.name
            if not copy.is_file():
                copy.parent.mkdir(parents=True, exist_ok=True)
                partial = copy.with_suffix(f".{os.getpid()}.part")
                partial.write_bytes(source)
                partial.replace(copy)  # atomic: another worker may be writing the same file
            entrant = replace(entrant, spec=moved(entrant.spec, copy))
        bots[name] = entrant
    return bots


LogLine = tuple[str, int, str]
"""A log message from a worker: logger name, level, text."""

class BatchPlayer:
    """A Ray actor that plays a run's batches on one CPU of the cluster: the run's bots are
    resolved once, and a sandboxed bot's host process started once, for all its batches."""

    def __init__(self) -> None:
        self.player: TaskPlayer | None = None

    def play(self, shipped_ref: list[Any], tasks: list[GameTask]
             ) -> tuple[list[Played], list[LogLine]]:
        """The record lines of a batch, and what the 'arena' log said meanwhile. The run's
        `Shipment` comes as its reference in the object store (in a list, so that Ray leaves it
        a reference): it is fetched with the first batch only. (A reference given to an actor's
        constructor could not make the actor again after a restart, once freed.)"""
        if self.player is None:
            shipped: Shipment = load_ray().get(shipped_ref[0])
            root = Path(tempfile.gettempdir()) / "arena-ray-bots"
            self.player = TaskPlayer(unpacked(shipped, root), shipped.sandboxing)
        with _log_captured() as lines:
            games = [self.player.play(task) for task in tasks]
        return games, lines

    def close(self) -> None:
        """End the sandboxed bots' host processes."""
        if self.player is not None:
            self.player.close()
            self.player = None


@contextlib.contextmanager
def _log_captured() -> Iterator[list[LogLine]]:
    """Collect what the 'arena' loggers say, to be written to the run's log by the driver."""
    lines: list[LogLine] = []
    where = f"ray worker {os.getpid()}@{socket.gethostname()}"

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append((record.name, record.levelno, f"[{where}] {record.getMessage()}"))

    arena_log = logging.getLogger("arena")
    handler, level, propagate = Collect(), arena_log.level, arena_log.propagate
    arena_log.addHandler(handler)
    arena_log.setLevel(logging.INFO)
    arena_log.propagate = False
    try:
        yield lines
    finally:
        arena_log.removeHandler(handler)
        arena_log.setLevel(level)
        arena_log.propagate = propagate


def installed_version() -> str:
    """The card-arena version installed where this runs."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def run_on_ray(tasks: Iterable[GameTask], bots: Mapping[str, Entrant], sandboxing: Sandboxing,
               record: Callable[[list[Played]], None], remaining: int, cpus: int,
               address: str | None = None) -> None:
    """Play `tasks` on Ray, handing each finished batch to `record` (on this, the driver's,
    side). Without `address`, a local Ray instance with `cpus` CPUs is started (and stopped
    after); with one, that cluster is joined and its CPUs are used."""
    ray = load_ray()
    with _connected(ray, address, cpus) as available:
        _check_versions(ray)
        actor = ray.remote(num_cpus=1, max_restarts=RETRIES, max_task_retries=RETRIES)(
            BatchPlayer)
        shared = [ray.put(shipment(bots, sandboxing))]
        size = batch_size(remaining, available, BATCH_LIMIT)
        needed = min(available, max(1, -(-remaining // size)))  # no actor without a batch
        players = [actor.remote() for _ in range(needed)]
        batches = in_batches(tasks, size)
        pending: dict[Any, Any] = {}  # a batch's result -> the actor playing it
        try:
            for player in players:
                for batch in islice(batches, IN_FLIGHT_PER_CPU):
                    pending[player.play.remote(shared, batch)] = player
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                player = pending.pop(done[0])
                games, lines = _result(ray, done[0])
                for name, level, text in lines:
                    logging.getLogger(name).log(level, "%s", text)
                record(games)
                batch = next(batches, None)
                if batch is not None:
                    pending[player.play.remote(shared, batch)] = player
        finally:
            _dismiss(ray, players, cleanly=not pending)


@contextlib.contextmanager
def ray_session(address: str | None, cpus: int) -> Iterator[int]:
    """Ray joined at `address` (or started locally with `cpus` CPUs) for several runs in a row,
    yielding its CPU count: the runs inside join it rather than start and stop an instance
    each (a league's pools); stopped after only if this call started it."""
    with _connected(load_ray(), address, cpus) as available:
        yield available


def _dismiss(ray: ModuleType, players: list[Any], cleanly: bool) -> None:
    """End the run's actors, and so its bots' processes: closed first when the run completed
    (their host processes then remove what they made), killed at once when it stopped early
    (what they were still playing is not wanted; the hosts die with them)."""
    if cleanly:
        with contextlib.suppress(Exception):
            ray.get([player.close.remote() for player in players], timeout=CLOSE_SECONDS)
    for player in players:
        with contextlib.suppress(Exception):
            ray.kill(player, no_restart=True)


def _result(ray: ModuleType, ref: Any) -> tuple[list[Played], list[LogLine]]:
    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
            ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError) as exc:
        raise WorkerDiedError(
            f"a Ray worker died {RETRIES + 1} times running the same batch (a bot may crash "
            f"the interpreter; {type(exc).__name__}); the games finished so far are saved, "
            f"run again to resume") from None


@contextlib.contextmanager
def _connected(ray: ModuleType, address: str | None, cpus: int) -> Iterator[int]:
    """Ray initialised (joined at `address`, or started locally), yielding its CPU count; shut
    down after only if this call started it."""
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address, num_cpus=None if address else cpus,
                     include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise RayBackendError(f"cannot start or reach {where}: {first}") from None
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if started:
            ray.shutdown()


def _check_versions(ray: ModuleType) -> None:
    """Refuse to run when the workers' card-arena differs from the driver's: the games would
    not be the same games."""
    theirs = ray.get(ray.remote(installed_version).remote())
    ours = installed_version()
    if theirs != ours:
        raise RayBackendError(f"the Ray workers run card-arena {theirs}, this machine {ours}; "
                              f"install the same version on every node")

