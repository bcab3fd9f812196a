"""A run directory: the resolved config, the append-only game records, and resuming from them.

    results/<run>/config.toml     the fully resolved config (seeds included)
    results/<run>/config.sha256   its digest: the config the run was last brought up to date to
    results/<run>/games.jsonl     one JSON record per finished game of the config's schedule,
                                  appended and flushed (each with its identity: see
                                  `arena.tournament.update.reconcile`)
    results/<run>/numbers.json    once brought up to date: how its games are numbered (a game
                                  keeps its number for good) and the numbers of those its
                                  config no longer schedules (kept on record, not rated)
    results/<run>/retired.jsonl   records that earlier versions moved out of games.jsonl when
                                  no longer scheduled: kept, not rated (read, never written)
    results/<run>/draw.json       a sampled or gauntlet schedule's tables and the history of its
                                  field: grown (not redrawn) as the field changes
    results/<run>/log.txt         the run's log (workers included)
    results/<run>/bots/<bot>.log  what each sandboxed bot printed (capped per game)
    results/<run>/bots.json       what each bot's code was when the run was last brought up to
                                  date: spec, kind and digest (see
                                  `arena.tournament.update.identity`)
    results/<run>/key             the run's secret key, if it has sandboxed bots (see
                                  `arena.match.deal_rng`) or was dealt like a run with one;
                                  kept from the sandboxed bots
    results/<run>/key-shared      the other run directories holding this run's key (`arena run
                                  --deals-like`), one a line; kept from the sandboxed bots too
    results/<run>/ratings.*       ratings and crosstable, written at the end (`arena ratings`)
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError
from arena.safe_files import (
    UnsafeFileError,
    check_entry,
    decode,
    open_append,
    open_update,
    parse_json,
    read_bytes,
    read_json,
    read_lines,
    read_text,
    real_folder,
    remove,
    write_bytes,
    write_text,
)
from arena.text import is_safe
from arena.tournament.planning.config import TournamentConfig, load_config
from arena.tournament.planning.schedule import FieldStep

CONFIG = "config.toml"
DIGEST = "config.sha256"
GAMES = "games.jsonl"
LOG = "log.txt"
BOT_LOGS = "bots"
KEY = "key"
KEY_SHARED = "key-shared"
BOTS = "bots.json"
RETIRED = "retired.jsonl"
NUMBERS = "numbers.json"
DRAW = "draw.json"
REPORT_SUFFIXES = {"txt": "table", "md": "markdown", "csv": "csv", "json": "json"}
"""The report files of a run (ratings.*, crosstable.*), by suffix and the format each holds."""
RESULT_FILES = tuple(f"{name}.{suffix}" for name in ("ratings", "crosstable")
                     for suffix in REPORT_SUFFIXES)
REPORT = "report.md"
"""The picture report of a run (`arena report`), beside its images."""
REPORT_IMAGES = ("ratings-*.png", "progression-*.png", "headtohead-*.png")


class RunDirectoryError(ArenaError):
    """A run directory that cannot be used: another config's, or damaged records."""


KEY_BYTES = 33
"""The size of a key file: 32 hex digits and a newline (an empty one means no key)."""
DIGEST_BYTES = 1024
"""The most of config.sha256 that is read (a digest and a newline)."""
MAX_KEY_SHARED = 1024 * 1024
"""The most of key-shared that is read."""
MAX_NUMBER = 1e15
"""The largest score a record may hold (a game's scores are small; larger is damage)."""
MAX_TASK = 2**63 - 1
"""The largest task id or seed a record may hold."""


class RunDirectory:
    """The files of one tournament run."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def prepare(cls, path: Path, canonical_config: str, digest: str,
                fresh: bool = False, update: bool = False) -> RunDirectory:
        """Create the directory for a config, or reopen it to resume the same config.

        A directory holding another config's run is refused unless `fresh`, which removes that
        run's files (and nothing else), or `update`, which leaves them for the caller to bring
        up to date (and then `set_config`); a non-empty directory that holds no run is refused,
        and so is one where a file of the run is a link, a pipe or a device (`check`).
        """
        run = cls(path)
        if path.exists() and not path.is_dir():
            raise RunDirectoryError(f"{path}: exists and is not a directory")
        if path.exists():
            run.check()
        old = run.file(DIGEST)
        if path.exists() and not old.exists() and any(path.iterdir()):
            raise RunDirectoryError(f"{path}: is not empty and holds no run (no {DIGEST})")
        same = old.exists() and read_text(old, DIGEST_BYTES).strip() == digest
        if old.exists() and not same and not fresh and not update:
            raise RunDirectoryError(
                f"{path}: holds a run of a different config (use --fresh to start it over, "
                f"or --out to choose another directory)")
        if fresh:
            run._remove_run_files()
        path.mkdir(parents=True, exist_ok=True)
        if fresh or not old.exists():
            run.set_config(canonical_config, digest)
        return run

    def set_config(self, canonical_config: str, digest: str) -> None:
        """Make the run one of this config (its canonical text and digest)."""
        write_text(self.file(CONFIG), canonical_config)
        write_text(self.file(DIGEST), digest + "\n")

    def config_digest(self) -> str:
        """The digest of the config the run holds ("" if none)."""
        try:
            return read_text(self.file(DIGEST), DIGEST_BYTES).strip()
        except FileNotFoundError:
            return ""

    def check(self) -> None:
        """An UnsafeFileError if a file of the run is anything but a regular file (a link, a
        folder, a pipe, a device), or its bot logs' folder is not a real folder: the arena
        writes there, and would write through a link to a file outside the run."""
        for name in (CONFIG, DIGEST, GAMES, RETIRED, NUMBERS, DRAW, LOG, REPORT, KEY, KEY_SHARED,
                     BOTS, *RESULT_FILES):
            check_entry(self.file(name))
        for pattern in REPORT_IMAGES:
            for path in self.path.glob(pattern):
                check_entry(path)
        logs = self.file(BOT_LOGS)
        if check_entry(logs, folder=True):
            for path in logs.glob("*.log"):
                check_entry(path)

    def _remove_run_files(self) -> None:
        """Remove what a run wrote here (records, log, bot logs, reports), and nothing else."""
        self.check()
        for name in (CONFIG, DIGEST, GAMES, RETIRED, NUMBERS, DRAW, LOG, REPORT, KEY, KEY_SHARED,
                     BOTS, *RESULT_FILES):
            remove(self.file(name))
        for pattern in REPORT_IMAGES:
            for path in self.path.glob(pattern):
                remove(path)
        logs = self.file(BOT_LOGS)
        if check_entry(logs, folder=True):
            for path in logs.glob("*.log"):
                remove(path)
            if not any(logs.iterdir()):
                logs.rmdir()

    def file(self, name: str) -> Path:
        """A file of this run."""
        return self.path / name

    def bot_logs(self) -> Path:
        """The folder of the bots' logs, a real folder of the run (made if missing)."""
        return real_folder(self.file(BOT_LOGS), make=True)

    def key(self, create: bool = False) -> str:
        """The run's secret key ("" if it has none: no key file, or an empty one); with
        `create`, one is made if missing (readable by its owner only). The key file is read
        only if it is a regular file (never through a link) of the size of a key."""
        path = self.file(KEY)
        try:
            data = read_bytes(path, KEY_BYTES, follow=False)
        except FileNotFoundError:
            data = b""
        key = data.decode("ascii", "replace").strip()
        if key and not (len(data) == KEY_BYTES and _HEX_KEY.fullmatch(key)):
            raise RunDirectoryError(f"{path}: not a key (a key file holds 32 hex digits and a "
                                    f"newline, {KEY_BYTES} bytes; this one has {len(data)})")
        if key or not create:
            return key
        key = secrets.token_hex(16)
        self.set_key(key)
        return key

    def set_key(self, key: str) -> None:
        """Give the run this secret key (readable by its owner only); "" removes its key."""
        path = self.file(KEY)
        if not key:
            remove(path)
            return
        # renamed into place whole: never a half-written key, never written through a link
        write_bytes(path, (key + "\n").encode("ascii"), mode=0o600)

    def key_shared_with(self) -> tuple[Path, ...]:
        """The other run directories that hold this run's key (dealt like it, or it like them)."""
        try:
            text = read_text(self.file(KEY_SHARED), MAX_KEY_SHARED)
        except FileNotFoundError:
            return ()
        return tuple(Path(line) for line in dict.fromkeys(text.split("\n")) if line.strip())

    def holds_key(self, key: str) -> bool:
        """Whether this is a run directory holding `key` (a key-shared from elsewhere may name
        any folder: only one that holds the key is kept from the bots or written in)."""
        try:
            return (check_entry(self.file(DIGEST)) and bool(key)
                    and secrets.compare_digest(self.key().encode(), key.encode()))
        except (OSError, ArenaError):
            return False

    def share_key_with(self, runs: tuple[Path, ...]) -> None:
        """Note the run directories that hold this run's key, besides those noted already."""
        known = self.key_shared_with()
        mine = self.path.resolve()
        added = [run for run in dict.fromkeys(p.resolve() for p in runs)
                 if run != mine and run not in known]
        if added:
            text = "".join(f"{run}\n" for run in (*known, *added))
            write_text(self.file(KEY_SHARED), text)

    def repair(self) -> int:
        """Cut a record left half-written by a killed run (it will be replayed); bytes cut."""
        games = self.file(GAMES)
        try:
            f = open_update(games)
        except FileNotFoundError:
            return 0
        with f:
            size = os.fstat(f.fileno()).st_size
            if size == 0:
                return 0
            f.seek(-1, os.SEEK_END)
            if f.read(1) == b"\n":
                return 0
            keep = _last_newline(f, size) + 1
            f.truncate(keep)
        return size - keep

    def records(self) -> Iterator[dict[str, Any]]:
        """The records the run rates, in file order: every game on record (`on_record`) but
        those its config no longer schedules (numbers.json's retired numbers)."""
        numbers = read_numbers(self)
        retired = numbers.retired if numbers is not None else frozenset()
        for record in self._read(numbers):
            if record["task"] not in retired:
                yield record

    def on_record(self) -> Iterator[dict[str, Any]]:
        """Every record of games.jsonl, in file (completion) order, each under its game's
        number (`task`), rated or not; a damaged line is a RunDirectoryError naming it (an
        UnsafeFileError if the file is no regular file, or too long a line)."""
        return self._read(read_numbers(self))

    def _read(self, numbers: Numbers | None) -> Iterator[dict[str, Any]]:
        """The records of games.jsonl, those written without an identity given the one
        numbers.json keeps for them."""
        games = self.file(GAMES)
        named = numbers.identities if numbers is not None else {}
        known: set[str] = set()  # names found printable: a run's records repeat them
        try:
            for number, line, whole in read_lines(games):
                if not whole:
                    break  # a half-written last record: not finished, it will be replayed
                record = parse_record(line, games, number, known=known)
                if named and "identity" not in record and record["task"] in named:
                    record["identity"] = named[record["task"]]
                yield record
        except FileNotFoundError:
            return

    def finished(self) -> set[int]:
        """Numbers of the games on record; a number recorded twice is a RunDirectoryError."""
        done: set[int] = set()
        for record in self.on_record():
            task = int(record["task"])
            if task in done:
                raise RunDirectoryError(f"{self.file(GAMES)}: task {task} is recorded twice")
            done.add(task)
        return done

    def open_games(self) -> IO[str]:
        """The records file, opened for appending one line per game (never through a link)."""
        return io.TextIOWrapper(open_append(self.file(GAMES)), encoding="utf-8", newline="\n")


_HEX_KEY = re.compile(r"[0-9a-f]{32}")
_IDENTITY = re.compile(r"[0-9a-f]{32}")


def parse_record(line: bytes, where: Path | str, number: int, need_task: bool = True,
                 known: set[str] | None = None) -> dict[str, Any]:
    """One line of a records file as a game record, its fields checked (those it has: a run's
    records carry them all, a record taken out of a run may lack its task id unless
    `need_task`); a RunDirectoryError naming the file and line otherwise. `known` holds names
    found printable already (a run's records repeat them), and gets the new ones."""
    at = f"{where}: line {number}"
    try:
        record = parse_json(decode(line, where, number), at)
    except UnsafeFileError as exc:
        why = str(exc).removeprefix(f"{at}: ")
        raise RunDirectoryError(f"{at}: not a game record ({why})") from None
    if not isinstance(record, dict):
        raise RunDirectoryError(f"{at}: not a game record (not a JSON object)")
    problem = record_problem(record, need_task, set() if known is None else known)
    if problem is not None:
        raise RunDirectoryError(f"{at}: not a game record ({problem})")
    return record


def record_problem(record: dict[str, Any], need_task: bool = True,
                   known: set[str] | None = None) -> str | None:
    """What is wrong with a game record's fields, in a few words (None if nothing): each field
    it has must be of its kind, its names free of control characters, its numbers finite; its
    task id is needed unless not `need_task`. Names in `known` pass unchecked; those checked
    are added to it."""
    known = set() if known is None else known
    get = record.get
    task = get("task")
    if (need_task or "task" in record) and not (type(task) is int and 0 <= task <= MAX_TASK):
        return f"the task id {_shown(task)} is not an integer from 0 to 2**63 - 1"
    identity = get("identity")
    if "identity" in record and not (type(identity) is str and _IDENTITY.fullmatch(identity)):
        return "'identity' is not a game identity (32 hex digits)"
    for name in ("game", "variant", "order"):
        if name in record and not _names((record[name],), known):
            return f"{name!r} is not a name of printable characters"
    seed = get("seed")
    if "seed" in record and not (type(seed) is int and -MAX_TASK <= seed <= MAX_TASK):
        return "'seed' is not an integer of at most 63 bits"
    seats = get("seats")
    if "seats" in record and not (type(seats) is list and seats and _names(seats, known)):
        return "'seats' is not a list of bot names"
    n = len(seats) if type(seats) is list else None
    scores = get("scores")
    if "scores" in record and not (
            type(scores) is list and len(scores) == (n or len(scores))
            and all(type(s) in _NUMBERS and -MAX_NUMBER <= s <= MAX_NUMBER for s in scores)):
        return f"'scores' is not a list of finite numbers (at most {MAX_NUMBER:g}), one a seat"
    ranks = get("ranks")
    if "ranks" in record and not (
            type(ranks) is list and len(ranks) == (n or len(ranks))
            and all(type(r) is int and 1 <= r <= len(ranks) for r in ranks)):
        return "'ranks' is not a list of places (1 to the number of seats), one a seat"
    faults = get("faults")
    seats_at_most = n or 1 << 16
    if faults and not (type(faults) is list and all(
            type(f) is dict and type(f.get("seat")) is int and 0 <= f["seat"] < seats_at_most
            and _names((f.get("kind", "exception"),), known) for f in faults)):
        return "'faults' is not a list of faults, each naming a seat of the game and a kind"
    teams = get("teams")
    if teams and not (type(teams) is list and all(
            type(t) is list and all(type(s) is int and 0 <= s < seats_at_most for s in t)
            for t in teams)):
        return "'teams' is not a list of teams of seats"
    final = get("final")
    if final is not None and type(final) is not dict:
        return "'final' is not a JSON object"
    return _luck_problem(record, n, known)


def _luck_problem(record: dict[str, Any], seats: int | None, known: set[str]) -> str | None:
    """What is wrong with a record's luck (arena/luck/), if it has any: a list of finite numbers,
    one a seat, beside the id of the model that gave them. A record without luck (from before
    it, or of a game without a model) is judged on its raw scores."""
    if "luck" not in record and "luck_model" not in record:
        return None
    luck = record.get("luck")
    if not (type(luck) is list and luck and len(luck) == (seats or len(luck))
            and all(type(v) in _NUMBERS and -MAX_NUMBER <= v <= MAX_NUMBER for v in luck)):
        return f"'luck' is not a list of finite numbers (at most {MAX_NUMBER:g}), one a seat"
    if not _names((record.get("luck_model"),), known):
        return "'luck_model' is not the name of a luck model"
    return None


_NUMBERS = (int, float)


def _names(values: Any, known: set[str]) -> bool:
    """Whether every value is a name: a string of printable characters, 1 to 1000 of them."""
    for value in values:
        if type(value) is not str:
            return False
        if value not in known:
            if not (0 < len(value) <= 1000 and is_safe(value)):
                return False
            known.add(value)
    return True


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _last_newline(f: IO[bytes], size: int) -> int:
    """Offset of the last b'\\n' in the file, or -1."""
    block = 4096
    end = size
    while end > 0:
        start = max(0, end - block)
        f.seek(start)
        chunk = f.read(end - start)
        at = chunk.rfind(b"\n")
        if at >= 0:
            return start + at
        end = start
    return -1


@dataclass(frozen=True)
class Numbers:
    """How a run brought up to date numbers its games for the config it now holds: a game's
    number (its record's `task`) is given once and kept for good.

    `config` names the config and code the numbers were given for (a digest); `first` is the
    first number given to the games that config added (every game on record numbered below it
    was on record before); `retired` the numbers of games on record (in games.jsonl) that the
    config no longer schedules: kept, not rated; `identities` those of records written before
    identities were kept, by number."""

    config: str
    first: int
    retired: frozenset[int] = frozenset()
    identities: Mapping[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Its form in numbers.json (the retired numbers as runs of consecutive numbers)."""
        return {"config": self.config, "first": self.first, "retired": _runs(self.retired),
                "identities": {str(n): i for n, i in sorted(self.identities.items())}}


def _runs(numbers: Iterable[int]) -> list[list[int]]:
    """Numbers as [first, last] runs of consecutive numbers, in order."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return runs


MAX_NUMBERS_BYTES = 64 * 1024 * 1024
"""The most of numbers.json that is read."""


def read_numbers(run: RunDirectory) -> Numbers | None:
    """A run's numbers.json (None if it has none: a run never brought up to date numbers its
    games by their place in its schedule); a RunDirectoryError if damaged."""
    path = run.file(NUMBERS)
    try:
        data = read_json(path, MAX_NUMBERS_BYTES)
    except FileNotFoundError:
        return None
    except (UnsafeFileError, OSError, ValueError) as exc:
        raise RunDirectoryError(f"{path}: damaged ({exc})") from None
    try:
        config, first = data["config"], data["first"]
        if not (type(config) is str and type(first) is int and 0 <= first <= MAX_TASK):
            raise ValueError("not a run's numbers")
        retired: set[int] = set()
        for a, b in data.get("retired", ()):
            if not (type(a) is int and type(b) is int and 0 <= a <= b <= MAX_TASK):
                raise ValueError("retired numbers are not runs of game numbers")
            retired.update(range(a, b + 1))
        identities = {}
        for number, identity in data.get("identities", {}).items():
            if not (number.isdigit() and type(identity) is str
                    and _IDENTITY.fullmatch(identity)):
                raise ValueError("not an identity by number")
            identities[int(number)] = identity
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RunDirectoryError(f"{path}: damaged ({exc})") from None
    return Numbers(config, first, frozenset(retired), identities)


def write_numbers(run: RunDirectory, numbers: Numbers) -> None:
    """Keep a run's numbers (numbers.json, replaced whole)."""
    write_text(run.file(NUMBERS), json.dumps(numbers.to_json(), separators=(",", ":")) + "\n")


@dataclass(frozen=True)
class Drawn:
    """A draw kept in a run, for one game at one table size: its tables as first drawn, the
    history of the field since (the first step is the field of the first draw), and its tables
    now (the first grown through each later step: `schedule.replay_draw`). For a gauntlet at
    three seats or more these are its field tables (one seat fewer), played by every
    challenger."""

    first: tuple[tuple[str, ...], ...]
    history: tuple[FieldStep, ...]
    tables: tuple[tuple[str, ...], ...]
    format: str = "sampled"
    """The schedule's format the draw is of: "sampled" or "gauntlet"."""

    @property
    def bots(self) -> tuple[str, ...]:
        """The field the tables are drawn for now."""
        return self.history[-1].bots

    @property
    def per_bot(self) -> int:
        """The tables per bot the draw seats now."""
        return self.history[-1].tables_per_bot


@dataclass(frozen=True)
class Draws:
    """The draws of a run, by game and table size."""

    draws: dict[tuple[str, int], Drawn]

    def get(self, key: tuple[str, int]) -> Drawn | None:
        """The draw of a game at a table size, if kept."""
        return self.draws.get(key)


def _tables(value: Any, size: int, field: set[str]) -> tuple[tuple[str, ...], ...]:
    """Tables of `size` distinct bots of a field, checked."""
    tables = tuple(tuple(t) for t in value)
    if not all(len(t) == size == len(set(t)) and all(type(b) is str and b in field for b in t)
               for t in tables):
        raise ValueError("not tables of the field")
    return tables


def _step(value: Any) -> FieldStep:
    """One step of a draw's history, checked."""
    bots = tuple(value["bots"])
    per_bot = value["tables_per_bot"]
    ratings = tuple((name, mu) for name, mu in value.get("ratings", ()))
    if not (all(type(b) is str for b in bots) and len(set(bots)) == len(bots)
            and type(per_bot) is int and per_bot >= 1
            and all(type(n) is str and type(mu) in (int, float) for n, mu in ratings)):
        raise ValueError("not a step of the field's history")
    return FieldStep(bots, per_bot, tuple((n, float(mu)) for n, mu in ratings))


def read_draw(run: RunDirectory) -> Draws | None:
    """A run's kept draws (None if it has none); a RunDirectoryError if damaged. A draw.json of
    an earlier version (one field, its tables) reads as a history of one step."""
    path = run.file(DRAW)
    try:
        data = read_json(path)
    except FileNotFoundError:
        return None
    except (UnsafeFileError, OSError, ValueError) as exc:
        raise RunDirectoryError(f"{path}: damaged ({exc}); remove it to draw anew") from None
    try:
        draws = {}
        for entry in data["draws"]:
            game, players = entry["game"], entry["players"]
            fmt = entry.get("format", "sampled")
            if not (type(game) is str and type(players) is int and players >= 2
                    and fmt in ("sampled", "gauntlet")):
                raise ValueError("not a draw")
            size = players - (fmt == "gauntlet")
            if "history" in entry:
                history = tuple(_step(s) for s in entry["history"])
            else:  # one field and its tables, as an earlier version kept them
                history = (_step({"bots": data["bots"],
                                  "tables_per_bot": data["tables_per_bot"] or 1}),)
            if not history:
                raise ValueError("no field")
            first = _tables(entry.get("first", entry["tables"]), size, set(history[0].bots))
            draws[(game, players)] = Drawn(
                first, history, _tables(entry["tables"], size, set(history[-1].bots)), fmt)
    except (KeyError, TypeError, ValueError) as exc:
        raise RunDirectoryError(f"{path}: damaged ({exc}); remove it to draw anew") from None
    return Draws(draws)


def write_draw(run: RunDirectory, draws: dict[tuple[str, int], Drawn]) -> None:
    """Keep a run's draws (draw.json), by game and table size."""
    data = {"draws": [
        {"game": game, "players": players, "format": drawn.format,
         "history": [{"bots": list(s.bots), "tables_per_bot": s.tables_per_bot,
                      "ratings": [list(r) for r in s.ratings]} for s in drawn.history],
         "first": [list(t) for t in drawn.first],
         "tables": [list(t) for t in drawn.tables]}
        for (game, players), drawn in draws.items()]}
    write_text(run.file(DRAW), json.dumps(data, ensure_ascii=False) + "\n")


def run_config(run_dir: Path) -> TournamentConfig:
    """The resolved config of a run directory (bots are not loaded); a RunDirectoryError if
    the directory has none."""
    path = run_dir / CONFIG
    if not path.exists() and not path.is_symlink():
        raise RunDirectoryError(f"{run_dir}: not a run directory (no {CONFIG})")
    return load_config(path, check_bots=False)
