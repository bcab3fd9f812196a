"""Playing tasks: who plays (`Entrant`, `Sandboxing`), a task played into its record line
(`TaskPlayer`), and tasks in batches; shared by the runner's backends."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from arena.engine import Variant, find_game
from arena.errors import ArenaError
from arena.loader import BotSpec, is_bundled, resolve_bot
from arena.match import play_game
from arena.sandbox import BotHost, Limits, SandboxedSpec, unseen_by
from arena.tournament.planning.schedule import GameTask

log = logging.getLogger("arena.runner")  # the runner's log, as the records of faults always said


class WorkerDiedError(ArenaError):
    """A worker process ended abruptly (a bot may have crashed the interpreter)."""


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game as it travels back from a worker: its record line and its fault count."""

    line: str
    faults: int


@dataclass(frozen=True, slots=True)
class Entrant:
    """A bot entry as the runner needs it: its spec, and whether it plays sandboxed."""

    spec: str
    sandboxed: bool = False


@dataclass(frozen=True, slots=True)
class Sandboxing:
    """How sandboxed bots run: their limits, the folder of their output logs, the folders they
    may not look into (the run directory), and the run's secret key, which every deal and bot
    rng is seeded with too (see `arena.match.deal_rng`)."""

    limits: Limits = field(default_factory=Limits)
    logs: Path | None = None
    private: tuple[Path, ...] = ()
    key: str = ""


class TaskPlayer:
    """Plays tasks into record lines; bots and variants are resolved once and cached.

    A sandboxed bot gets a host process (per game name) the first time it plays.
    """

    def __init__(self, bots: Mapping[str, Entrant], sandboxing: Sandboxing | None = None) -> None:
        self.entrants = dict(bots)
        self.sandboxing = sandboxing or Sandboxing()
        self._bots: dict[tuple[str, str], BotSpec | SandboxedSpec] = {}
        self._variants: dict[tuple[str, str, tuple[tuple[str, str], ...]], Variant] = {}

    def bot(self, name: str, game: str) -> BotSpec | SandboxedSpec:
        """The resolved bot of a config entry, or its sandbox."""
        found = self._bots.get((name, game))
        if found is None:
            entrant = self.entrants[name]
            if entrant.sandboxed:
                logs = self.sandboxing.logs
                log = None if logs is None else logs / f"{_file_name(name)}.log"
                host = BotHost(entrant.spec, game, self.sandboxing.limits, log,
                               trusted=is_bundled(entrant.spec),
                               private=self.unseen(name))
                found = SandboxedSpec(name, host)
            else:
                found = resolve_bot(entrant.spec, game)
            self._bots[(name, game)] = found
        return found

    def unseen(self, name: str) -> tuple[Path, ...]:
        """What bot `name`'s games may not see: the run directory (`Sandboxing.private`) and
        the other bots' code (see `arena.sandbox.unseen_by`)."""
        return unseen_by(self.entrants[name].spec,
                         [entrant.spec for entrant in self.entrants.values()],
                         self.sandboxing.private)

    def close(self) -> None:
        """End the sandboxes' host processes."""
        for bot in self._bots.values():
            if isinstance(bot, SandboxedSpec):
                bot.close()

    def variant(self, task: GameTask) -> Variant:
        """The resolved variant of a task."""
        key = (task.game, task.preset, task.overrides)
        found = self._variants.get(key)
        if found is None:
            chosen = find_game(task.game).variant(task.preset, dict(task.overrides))
            found = self._variants[key] = Variant(chosen.game, task.variant, chosen.params)
        return found

    def play(self, task: GameTask) -> Played:
        """Play one task: its record as one JSON line (no newline), and its number of faults."""
        bots = [self.bot(name, task.game).make() for name in task.seats]
        record = play_game(self.variant(task), bots, task.seats, task.seed,
                           key=self.sandboxing.key, task=task.task)
        body = record.to_json(timings=True)
        named = {"identity": task.identity} if task.identity else {}
        line = {"task": task.task, **named, "game": body.pop("game"),
                "variant": body.pop("variant"),
                "table": list(task.table), "seed": body.pop("seed"), "seats": body.pop("seats"),
                "clones": list(task.clones), **body}
        for fault in record.faults:
            log.warning("task %d: %s in seat %d faulted: %s", task.task,
                        task.seats[fault.seat], fault.seat, fault.detail)
        return Played(json.dumps(line, separators=(",", ":"), ensure_ascii=False),
                      len(record.faults))


def _file_name(name: str) -> str:
    """A bot name made safe as a file name."""
    return re.sub(r"[^\w.-]", "_", name)


def in_batches(tasks: Iterable[GameTask], size: int) -> Iterator[list[GameTask]]:
    """The tasks in lists of `size` (the last may be shorter), drawn lazily."""
    it = iter(tasks)
    while batch := list(islice(it, size)):
        yield batch


def batch_size(remaining: int, workers: int, largest: int = 50) -> int:
    """Big enough to keep inter-process traffic small, small enough to spread the work evenly."""
    return max(1, min(largest, remaining // (workers * 20)))
