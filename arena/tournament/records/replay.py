"""Replaying recorded games: the same variant, deal seed and seating give the same record.

A record names everything a game needs except the bots' code: its game and variant label, the
deal seed and the bot name in each seat. A run directory's `config.toml` maps each name to its
spec (and isolation) and each variant label to its preset and parameters, so `replay(run, task)`
plays the game again exactly as the runner did and compares the new record with the old one on
everything but the duration. A record taken out of a run (one line of `games.jsonl`, or a line
of `arena play --json`) replays with specs given by seat (`--bot`), by a config (`--config`), or,
failing both, with each seat's name taken as its spec (as it is for bundled bots); its variant
label is then read as `preset,key=value,...`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.api import Bot
from arena.engine import find_game
from arena.errors import ArenaError
from arena.loader import is_bundled
from arena.match import Watcher, play_game
from arena.safe_files import read_lines
from arena.sandbox import Isolation, Limits, probe
from arena.text import escape
from arena.tournament.planning.config import BotEntry, GameEntry, TournamentConfig, load_config
from arena.tournament.planning.schedule import GameTask, clone_seats
from arena.tournament.playing.tasks import Entrant, Sandboxing, TaskPlayer
from arena.tournament.records.results import (
    CONFIG,
    DIGEST,
    GAMES,
    RunDirectory,
    RunDirectoryError,
    parse_record,
    run_config,
)

COMPARED = ("game", "variant", "seed", "seats", "scores", "ranks", "turns", "faults", "final",
            "teams", "luck", "luck_model")
"""The record fields a replay must reproduce (faults by seat and kind; never the duration; the
luck only where the record has it: a record from before the luck existed is still reproduced)."""
LUCK = ("luck", "luck_model")


class ReplayError(ArenaError):
    """A record that cannot be replayed: missing, malformed, or naming unknown bots or variants."""


@dataclass(frozen=True)
class Difference:
    """One record field on which the replay differs from the recorded game."""

    field: str
    recorded: Any
    replayed: Any


@dataclass(frozen=True)
class ReplayResult:
    """A recorded game, its replay, and where they differ (nothing when it reproduces)."""

    task: int | None
    recorded: Mapping[str, Any]
    replayed: Mapping[str, Any]
    differences: tuple[Difference, ...]
    replaced: tuple[str, ...] = ()
    """The luck models the game's has replaced (a record of one is not compared on its luck)."""

    @property
    def reproduced(self) -> bool:
        """Whether the replay gave the recorded result."""
        return not self.differences

    def lines(self) -> list[str]:
        """What happened, for people: the game, the verdict, and every difference."""
        r = self.recorded
        where = f"task {self.task}: " if self.task is not None else ""
        seats = ", ".join(f"{name} {_number(score)}" for name, score
                          in zip(r.get("seats", ()), r.get("scores", ()), strict=False))
        out = [f"{where}{r.get('game')} / {r.get('variant')}, seed {r.get('seed')}: {seats}"]
        replaced = replaced_model(r, self.replaced)
        note = ([f"  (its luck came from {replaced}, which {self.replayed.get('luck_model')} "
                 f"has replaced: the luck is not compared)"] if replaced else [])
        if self.reproduced:
            return [escape(line) for line in
                    (*out, "reproduced: the replay gives the recorded result", *note)]
        out.append("MISMATCH: the replay differs from the record")
        out += [f"  {d.field}: recorded {_short(d.recorded)}, replayed {_short(d.replayed)}"
                for d in self.differences]
        out += note
        if any(f.get("kind") == "timeout" for f in r.get("faults") or ()):
            out.append("  (the recorded game has a timeout: timing faults depend on the machine "
                       "and its load, so they need not reproduce)")
        return [escape(line) for line in out]  # a record from elsewhere may hold anything


class Replayer:
    """Replays records with a fixed set of bots and variants; bots are resolved once and cached.

    Use it as a context manager, or call `close()`: sandboxed bots keep a host process.
    """

    def __init__(self, bots: Mapping[str, Entrant], games: Sequence[GameEntry] = (),
                 limits: Limits | None = None, run_dir: Path | None = None) -> None:
        self.entrants = dict(bots)
        self.games = tuple(games)
        self.limits = limits or Limits()
        # the games of a run are played again with its key (see `deal_rng`), if it has one
        # and its key is kept from the bots wherever it is (runs dealt like it hold it too)
        key = RunDirectory(run_dir).key() if run_dir is not None else ""
        private = (run_dir, *RunDirectory(run_dir).key_shared_with()) if run_dir else ()
        self.player = TaskPlayer(self.entrants, Sandboxing(self.limits, None, private, key))
        self._checked: set[tuple[str, str]] = set()

    @classmethod
    def of_config(cls, config: TournamentConfig, run_dir: Path | None = None) -> Replayer:
        """A replayer with a run config's bots, isolation, variants and limits (and the key of
        its run directory, if given)."""
        bots = {b.name: Entrant(b.spec, b.isolation is Isolation.PROCESS) for b in config.bots}
        return cls(bots, config.games, config.limits.sandbox(), run_dir)

    def __enter__(self) -> Replayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the sandboxed bots' host processes."""
        self.player.close()

    def task_of(self, record: Mapping[str, Any]) -> GameTask:
        """The task that plays the record's game again."""
        game = find_game(str(_need(record, "game")))
        label = str(_need(record, "variant"))
        seats = tuple(str(s) for s in _need(record, "seats"))
        seed = _need(record, "seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ReplayError(f"{_where(record)}: the seed {seed!r} is not an integer")
        missing = sorted({s for s in seats if s not in self.entrants})
        if missing:
            raise ReplayError(f"{_where(record)}: no bot spec for {', '.join(map(repr, missing))}"
                              f" (known: {', '.join(self.entrants) or 'none'})")
        preset, overrides = self._variant(game.name, label, len(seats), record)
        task = record.get("task")
        return GameTask(task if isinstance(task, int) else -1, game.name, label, preset,
                        overrides, tuple(record.get("table") or seats), seats,
                        clone_seats(seats), seed)

    def _variant(self, game: str, label: str, players: int,
                 record: Mapping[str, Any]) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The preset and overrides of a variant label: from the config, else from the label."""
        entries = [g for g in self.games if g.game == game]
        for entry in sorted(entries, key=lambda g: g.players != players):
            for variant in entry.variants:
                if variant.label == label:
                    return variant.preset, variant.overrides
        if entries:
            known = ", ".join(dict.fromkeys(v.label for g in entries for v in g.variants))
            raise ReplayError(f"{_where(record)}: the config has no {game} variant {label!r} "
                              f"(known: {known})")
        preset, overrides = parse_label(label)
        if preset not in find_game(game).presets:
            raise ReplayError(f"{_where(record)}: {label!r} is not a {game} preset; a variant "
                              f"named in a config needs that config (--config)")
        return preset, overrides

    def replay(self, record: Mapping[str, Any], watcher: Watcher | None = None,
               tap: Callable[[Sequence[Bot]], None] | None = None) -> ReplayResult:
        """Play the record's game again and compare the two records; `tap` sees the seats' bots
        before the game starts (the seat's-eye replay listens to one of them)."""
        task = self.task_of(record)
        for name in dict.fromkeys(task.seats):
            self._check(name, task.game)
        bots = [self.player.bot(name, task.game).make() for name in task.seats]
        if tap is not None:
            tap(bots)
        variant = self.player.variant(task)
        replayed = play_game(variant, bots, task.seats, task.seed, watcher,
                             self.player.sandboxing.key)
        again = json.loads(replayed.to_line())
        recorded = dict(record)
        model = variant.game.luck_model(variant.params, len(task.seats))
        replaced = model.replaces if model is not None else ()
        return ReplayResult(record.get("task") if isinstance(record.get("task"), int) else None,
                            recorded, again, differences(recorded, again, replaced), replaced)


    def _check(self, name: str, game: str) -> None:
        """Make sure a sandboxed bot loads (in its sandbox) before it plays: a bot that does not
        is a ReplayError, not a fault in the replayed game."""
        entrant = self.entrants[name]
        if not entrant.sandboxed or (name, game) in self._checked:
            return
        problem = probe(entrant.spec, game, self.limits, self.player.unseen(name))
        if problem is not None:
            raise ReplayError(f"cannot load the bot seated as {name!r}: {problem} (give a spec "
                              f"per seat with --bot, or the run's config with --config)")
        self._checked.add((name, game))


def differences(recorded: Mapping[str, Any], replayed: Mapping[str, Any],
                replaced: Sequence[str] = ()) -> tuple[Difference, ...]:
    """The compared fields on which two records differ (faults by seat and kind only; the luck
    not where it came from a model of `replaced`, which the game's has replaced)."""
    out = []
    for name in COMPARED:
        a, b = recorded.get(name), replayed.get(name)
        if name == "faults":
            a, b = _fault_keys(a), _fault_keys(b)
        elif (name == "teams" and not a and not b) or (name in LUCK and (
                not any(field in recorded for field in LUCK)
                or replaced_model(recorded, replaced))):
            continue
        if a != b:
            out.append(Difference(name, a, b))
    return tuple(out)


def replaced_model(recorded: Mapping[str, Any], replaced: Sequence[str]) -> str | None:
    """The luck model the record's luck came from, where the game's model has replaced it since
    (`LuckModel.replaces`): its luck cannot be reproduced, only its game."""
    model = recorded.get("luck_model")
    return model if isinstance(model, str) and model in replaced else None


def parse_label(label: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A variant label written as `preset` or `preset,key=value,...`: its preset and overrides."""
    preset, *parts = label.split(",")
    overrides = []
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ReplayError(f"variant label {label!r}: {part!r} is not key=value (give the "
                              f"run's config with --config to resolve a named variant)")
        overrides.append((key.strip(), value.strip()))
    return preset.strip(), tuple(sorted(overrides))


def replay_record(record: Mapping[str, Any], specs: Mapping[str, str | BotEntry],
                  watcher: Watcher | None = None, games: Sequence[GameEntry] = (),
                  limits: Limits | None = None) -> ReplayResult:
    """Replay one record with bots given by seat name: a spec (sandboxed unless bundled, as in
    configs) or a config's BotEntry; `games` (a config's) resolve its variant label."""
    with Replayer(entrants(specs), games, limits) as replayer:
        return replayer.replay(record, watcher)


def entrants(specs: Mapping[str, str | BotEntry]) -> dict[str, Entrant]:
    """Runner entrants for bot specs by name: a BotEntry keeps its isolation; a bare spec plays
    sandboxed unless it names a bundled bot."""
    out = {}
    for name, spec in specs.items():
        if isinstance(spec, BotEntry):
            out[name] = Entrant(spec.spec, spec.isolation is Isolation.PROCESS)
        else:
            out[name] = Entrant(spec, not is_bundled(spec))
    return out


def replay(run_dir: Path, task: int, watcher: Watcher | None = None) -> ReplayResult:
    """Replay the game of task `task` of a run directory and compare it with its record."""
    config = run_config(run_dir)
    record = find_record(RunDirectory(run_dir).on_record(), task, run_dir / GAMES)
    with Replayer.of_config(config, run_dir) as replayer:
        return replayer.replay(record, watcher)


def replay_all(run_dir: Path) -> list[ReplayResult]:
    """Replay every record a run directory rates (the games its config schedules), in number
    order; the ones that do not reproduce."""
    config = run_config(run_dir)
    records = sorted(RunDirectory(run_dir).records(), key=lambda r: int(r["task"]))
    with Replayer.of_config(config, run_dir) as replayer:
        results = (replayer.replay(record) for record in records)
        return [result for result in results if not result.reproduced]


def replay_path(path: Path, task: int | None = None, bots: Sequence[str] = (),
                config: Path | None = None, watcher: Watcher | None = None) -> ReplayResult:
    """Replay a game named on the command line: a run directory and a task, or a record file.

    A record file holds JSON records, one a line (`games.jsonl`, a line copied from it, the
    output of `arena play --json`); `task` picks one, else the file must hold exactly one. Its
    bots come from `bots` (specs in seat order), else from `config` or the `config.toml`
    beside the file, else each seat's name is taken as its spec; its variant from that config,
    else from its label.
    """
    with opened(path, task, bots, config) as (replayer, record):
        return replayer.replay(record, watcher)


@contextmanager
def opened(path: Path, task: int | None = None, bots: Sequence[str] = (),
           config: Path | None = None) -> Iterator[tuple[Replayer, dict[str, Any]]]:
    """The record a command line names (see `replay_path`) and the replayer that plays it."""
    if path.is_dir():
        if task is None:
            raise ReplayError(f"{path}: a run directory: say which game (its task id) to replay")
        if not bots and config is None:
            loaded = run_config(path)
            record = find_record(RunDirectory(path).on_record(), task, path / GAMES)
            with Replayer.of_config(loaded, path) as replayer:
                yield replayer, record
            return
        record = find_record(RunDirectory(path).on_record(), task, path / GAMES)
        config = config or path / CONFIG
    else:
        record = read_record(path, task)
    with _replayer_for(record, bots, config, path) as replayer:
        yield replayer, record


@contextmanager
def _replayer_for(record: Mapping[str, Any], bots: Sequence[str], config: Path | None,
                  path: Path) -> Iterator[Replayer]:
    """The replayer for a record given on its own (with the key of the run it is from)."""
    beside = path.parent / CONFIG if path.is_file() else None
    run_dir = _run_of(path, beside, config)
    loaded = None
    if config is not None:
        loaded = load_config(config, check_bots=False)
    elif beside is not None and beside.is_file():
        loaded = load_config(beside, check_bots=False)
    if bots:
        seats = [str(s) for s in _need(record, "seats")]
        if len(bots) != len(seats):
            raise ReplayError(f"{_where(record)}: {len(seats)} seats but {len(bots)} --bot specs "
                              f"(give one per seat, in seat order)")
        given: dict[str, str] = {}
        for name, spec in zip(seats, bots, strict=True):
            if given.setdefault(name, spec) != spec:
                raise ReplayError(f"{_where(record)}: {name!r} sits in two seats, so it needs "
                                  f"the same spec in both (got {given[name]!r} and {spec!r})")
        replayer = Replayer(entrants(given), loaded.games if loaded else (),
                            loaded.limits.sandbox() if loaded else None, run_dir)
    elif loaded is not None:
        replayer = Replayer.of_config(loaded, run_dir)
    else:
        seats = [str(s) for s in _need(record, "seats")]
        replayer = Replayer(entrants({name: name for name in seats}), run_dir=run_dir)
    with replayer:
        yield replayer


def replayed_run(path: Path, bots: Sequence[str] = (), config: Path | None = None) -> Path | None:
    """The run directory whose bots a replay of `path` plays (as `replay_path` finds it); None
    when the bots are given by seat (`bots`) or come from no run."""
    if bots:
        return None
    if path.is_dir() and config is not None:
        return path if config.resolve() == (path / CONFIG).resolve() else None
    beside = path.parent / CONFIG if path.is_file() else None
    return _run_of(path, beside, config)


def _run_of(path: Path, beside: Path | None, config: Path | None) -> Path | None:
    """The run directory a record given on its own comes from (its games were dealt with that
    run's key): the one it lies in, or the one whose config is given; None if neither."""
    if path.is_dir():
        return path
    if beside is not None and beside.is_file():
        return path.parent
    if config is not None and (config.parent / DIGEST).is_file():
        return config.parent
    return None


def find_record(records: Iterable[Mapping[str, Any]], task: int,
                where: Path | str = GAMES) -> dict[str, Any]:
    """The record of task `task`; ReplayError naming the tasks there are otherwise."""
    tasks = []
    for record in records:
        if record.get("task") == task:
            return dict(record)
        if isinstance(record.get("task"), int):
            tasks.append(record["task"])
    span = f"tasks {min(tasks)} to {max(tasks)}" if tasks else "no records"
    raise ReplayError(f"{where}: no record of task {task} ({span})")


def read_record(path: Path, task: int | None = None) -> dict[str, Any]:
    """One record from a file of JSON records (one a line): task `task`, or the only one."""
    records = []
    try:
        for number, line, _ in read_lines(path):  # split on "\n" only: JSON may hold U+2028
            if line.strip():
                records.append(parse_record(line, path, number, need_task=False))
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such run directory or record file") from None
    except RunDirectoryError as exc:
        raise ReplayError(str(exc)) from None
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if task is not None:
        return find_record(records, task, path)
    if len(records) != 1:
        raise ReplayError(f"{path}: holds {len(records)} records; say which task to replay")
    return records[0]


def _need(record: Mapping[str, Any], key: str) -> Any:
    if key not in record:
        raise ReplayError(f"{_where(record)}: no {key!r} in the record")
    return record[key]


def _where(record: Mapping[str, Any]) -> str:
    task = record.get("task")
    return f"task {task}" if isinstance(task, int) else "the record"


def _fault_keys(faults: Any) -> list[tuple[Any, Any]]:
    return sorted(((f.get("seat"), f.get("kind")) for f in faults or ()
                   if isinstance(f, Mapping)), key=repr)


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) else repr(value)


def _short(value: Any, width: int = 200) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return text if len(text) <= width else text[: width - 3] + "..."
