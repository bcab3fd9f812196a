"""Running a schedule's games on Ray: a local Ray instance or a cluster.

The driver (the `arena run` process) sends batches of tasks as Ray tasks, keeps only a few
batches in flight (back-pressure: its memory does not grow with the schedule), and writes every
record itself as batches come back, so resume and exactly-once hold as in a local run. A batch
lost with its worker or node is run again by Ray (`max_retries`); only its result is kept.

Bots given as files on the organiser's machine travel with the batches: their source is read
once, put in Ray's object store, and written to a content-named file on the worker node.
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
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.errors import ArenaError
from arena.loader import bot_file, moved
from arena.runner import (
    Entrant,
    Played,
    Sandboxing,
    TaskPlayer,
    WorkerDiedError,
    batch_size,
    in_batches,
)
from arena.schedule import GameTask

log = logging.getLogger("arena.runner")

INSTALL_HINT = "the ray backend needs Ray: pip install 'card-arena[ray]'"
DISTRIBUTION = "card-arena"
RETRIES = 3
"""How many times Ray reruns a batch whose worker process or node was lost."""
BATCH_LIMIT = 200
"""The most games in one Ray task: a Ray task costs the driver more than a pool task, so batches
are larger than the local pool's (which halves the driver's CPU per game against 50)."""
IN_FLIGHT_PER_CPU = 3
"""Batches in flight per cluster CPU: enough to keep every CPU busy while results travel."""


class RayBackendError(ArenaError):
    """Ray is missing, unreachable, or its workers run a different card-arena."""


@dataclass(frozen=True)
class Shipment:
    """What every batch of a run needs on a worker: the run's bots (file bots' sources
    included), how sandboxed bots run, and the run's key."""

    run: str
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
    return Shipment(uuid.uuid4().hex, dict(bots), sandboxing, sources)


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

_players: dict[str, TaskPlayer] = {}
"""This Ray worker process's player for the run it serves (bots and sandboxes cached)."""


def play_batch(shipped: Shipment, tasks: list[GameTask]) -> tuple[list[Played], list[LogLine]]:
    """Play a batch on a Ray worker: the record lines, and what the 'arena' log said meanwhile."""
    player = _players.get(shipped.run)
    if player is None:
        for old in _players.values():  # a worker serves one run at a time
            old.close()
        _players.clear()
        root = Path(tempfile.gettempdir()) / "arena-ray-bots"
        player = _players[shipped.run] = TaskPlayer(unpacked(shipped, root), shipped.sandboxing)
    with _log_captured() as lines:
        games = [player.play(task) for task in tasks]
    return games, lines


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
        remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(play_batch)
        shared = ray.put(shipment(bots, sandboxing))
        batches = in_batches(tasks, batch_size(remaining, available, BATCH_LIMIT))
        pending: list[Any] = []
        try:
            for batch in islice(batches, available * IN_FLIGHT_PER_CPU):
                pending.append(remote.remote(shared, batch))
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                games, lines = _result(ray, done[0])
                for name, level, text in lines:
                    logging.getLogger(name).log(level, "%s", text)
                record(games)
                batch = next(batches, None)
                if batch is not None:
                    pending.append(remote.remote(shared, batch))
        finally:
            for ref in pending:  # stopped early: what is still running is not wanted
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)


def _result(ray: ModuleType, ref: Any) -> tuple[list[Played], list[LogLine]]:
    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
            ray.exceptions.ObjectLostError) as exc:
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

