"""A run directory: the resolved config, the append-only game records, and resuming from them.

    results/<run>/config.toml     the fully resolved config (seeds included)
    results/<run>/config.sha256   its digest: a run directory belongs to one config
    results/<run>/games.jsonl     one JSON record per finished game, appended and flushed
    results/<run>/log.txt         the run's log (workers included)
    results/<run>/bots/<bot>.log  what each sandboxed bot printed (capped per game)
    results/<run>/bots.json       what each bot's code was when the run began: spec, kind and
                                  digest (see `arena.tournament.identity`); a resume checks it
    results/<run>/key             the run's secret key, if it has sandboxed bots (see
                                  `arena.match.deal_rng`) or was dealt like a run with one;
                                  kept from the sandboxed bots
    results/<run>/key-shared      the other run directories holding this run's key (`arena run
                                  --deals-like`), one a line; kept from the sandboxed bots too
    results/<run>/ratings.*       ratings and crosstable, written at the end (`arena ratings`)
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError
from arena.tournament.config import TournamentConfig, load_config

CONFIG = "config.toml"
DIGEST = "config.sha256"
GAMES = "games.jsonl"
LOG = "log.txt"
BOT_LOGS = "bots"
KEY = "key"
KEY_SHARED = "key-shared"
BOTS = "bots.json"
REPORT_SUFFIXES = {"txt": "table", "md": "markdown", "csv": "csv", "json": "json"}
"""The report files of a run (ratings.*, crosstable.*), by suffix and the format each holds."""
RESULT_FILES = tuple(f"{name}.{suffix}" for name in ("ratings", "crosstable")
                     for suffix in REPORT_SUFFIXES)
REPORT = "report.md"
"""The picture report of a run (`arena report`), beside its images."""
REPORT_IMAGES = ("ratings-*.png", "progression-*.png", "headtohead-*.png")


class RunDirectoryError(ArenaError):
    """A run directory that cannot be used: another config's, or damaged records."""


class RunDirectory:
    """The files of one tournament run."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def prepare(cls, path: Path, canonical_config: str, digest: str,
                fresh: bool = False) -> RunDirectory:
        """Create the directory for a config, or reopen it to resume the same config.

        A directory holding another config's run is refused unless `fresh`, which removes that
        run's files (and nothing else); a non-empty directory that holds no run is refused.
        """
        run = cls(path)
        if path.exists() and not path.is_dir():
            raise RunDirectoryError(f"{path}: exists and is not a directory")
        old = run.file(DIGEST)
        if path.exists() and not old.exists() and any(path.iterdir()):
            raise RunDirectoryError(f"{path}: is not empty and holds no run (no {DIGEST})")
        same = old.exists() and old.read_text().strip() == digest
        if old.exists() and not same and not fresh:
            raise RunDirectoryError(
                f"{path}: holds a run of a different config (use --fresh to start it over, "
                f"or --out to choose another directory)")
        if fresh:
            run._remove_run_files()
        path.mkdir(parents=True, exist_ok=True)
        if fresh or not same:
            run.file(CONFIG).write_text(canonical_config, encoding="utf-8")
            run.file(DIGEST).write_text(digest + "\n")
        return run

    def _remove_run_files(self) -> None:
        """Remove what a run wrote here (records, log, bot logs, reports), and nothing else."""
        for name in (CONFIG, DIGEST, GAMES, LOG, REPORT, KEY, KEY_SHARED, BOTS,
                     *RESULT_FILES):
            self.file(name).unlink(missing_ok=True)
        for pattern in (*REPORT_IMAGES, f"{BOT_LOGS}/*.log"):
            for path in self.path.glob(pattern):
                path.unlink()
        logs = self.file(BOT_LOGS)
        if logs.is_dir() and not any(logs.iterdir()):
            logs.rmdir()

    def file(self, name: str) -> Path:
        """A file of this run."""
        return self.path / name

    def key(self, create: bool = False) -> str:
        """The run's secret key ("" if it has none: no key file, or an empty one); with
        `create`, one is made if missing (readable by its owner only)."""
        path = self.file(KEY)
        try:
            key = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            key = ""
        if key or not create:
            return key
        key = secrets.token_hex(16)
        self.set_key(key)
        return key

    def set_key(self, key: str) -> None:
        """Give the run this secret key (readable by its owner only); "" removes its key."""
        path = self.file(KEY)
        if not key:
            path.unlink(missing_ok=True)
            return
        made = path.with_name(KEY + ".new")  # renamed into place whole: never a half-written key
        made.unlink(missing_ok=True)  # a leftover of a killed run may have other permissions
        with os.fdopen(os.open(made, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w",
                       encoding="ascii") as f:
            f.write(key + "\n")
        os.replace(made, path)

    def key_shared_with(self) -> tuple[Path, ...]:
        """The other run directories that hold this run's key (dealt like it, or it like them)."""
        try:
            text = self.file(KEY_SHARED).read_text(encoding="utf-8")
        except FileNotFoundError:
            return ()
        return tuple(Path(line) for line in dict.fromkeys(text.splitlines()) if line.strip())

    def share_key_with(self, runs: tuple[Path, ...]) -> None:
        """Note the run directories that hold this run's key, besides those noted already."""
        known = self.key_shared_with()
        mine = self.path.resolve()
        added = [run for run in dict.fromkeys(p.resolve() for p in runs)
                 if run != mine and run not in known]
        if added:
            text = "".join(f"{run}\n" for run in (*known, *added))
            self.file(KEY_SHARED).write_text(text, encoding="utf-8")

    def repair(self) -> int:
        """Cut a record left half-written by a killed run (it will be replayed); bytes cut."""
        games = self.file(GAMES)
        if not games.exists():
            return 0
        size = games.stat().st_size
        with games.open("rb+") as f:
            if size == 0:
                return 0
            f.seek(-1, os.SEEK_END)
            if f.read(1) == b"\n":
                return 0
            keep = _last_newline(f, size) + 1
            f.truncate(keep)
        return size - keep

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record, in file (completion) order; a damaged line is a RunDirectoryError."""
        games = self.file(GAMES)
        if not games.exists():
            return
        with games.open(encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.endswith("\n"):
                    break  # a half-written last record: not finished, it will be replayed
                try:
                    record = json.loads(line)
                    int(record["task"])
                except (ValueError, KeyError, TypeError):
                    raise RunDirectoryError(
                        f"{games}: line {number}: not a game record") from None
                yield record

    def finished(self) -> set[int]:
        """Ids of the tasks already played; a task recorded twice is a RunDirectoryError."""
        done: set[int] = set()
        for record in self.records():
            task = int(record["task"])
            if task in done:
                raise RunDirectoryError(f"{self.file(GAMES)}: task {task} is recorded twice")
            done.add(task)
        return done

    def open_games(self) -> IO[str]:
        """The records file, opened for appending one line per game."""
        return self.file(GAMES).open("a", encoding="utf-8")


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


def run_config(run_dir: Path) -> TournamentConfig:
    """The resolved config of a run directory (bots are not loaded); a RunDirectoryError if
    the directory has none."""
    path = run_dir / CONFIG
    if not path.is_file():
        raise RunDirectoryError(f"{run_dir}: not a run directory (no {CONFIG})")
    return load_config(path, check_bots=False)
