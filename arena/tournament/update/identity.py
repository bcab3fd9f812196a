"""What a run was played on: its bots' code and its deals.

A run's config names its bots, but not what their code was: a bot file edited after a run began
would play the rest of the run as another bot, and a run resumed after the edit would report
the old bot's games as the new one's. So a run records the code of each bot when it begins
(`<run>/bots.json`), and a resume checks it:

- a **file bot** (`path/file.py:Class`) is the SHA-256 of each `.py` file in its file's folder:
  the file itself and the siblings it may import (the files its sandbox compiles for it, see
  `arena.sandbox.bytecode.source_files`), except the files of the run's other file bots, which
  its sandbox keeps from it. Keep a bot in a folder of its own, so that editing a neighbour does
  not count as changing it.
- a **module** or **registered bot** (`package.module:Class`, or a name of the `arena.bots`
  entry point group) is the distribution that provides its top-level package, with its version
  (`card-arena` for the bundled bots), and the SHA-256 of each `.py` file of that package.

A bot's digest is the SHA-256 of the sorted relative paths and digests of its files.

The deals of a run are its resolved seeds (in its `config.toml`) and its key (`<run>/key`, for
runs with sandboxed bots): `arena run --deals-like RUN` plays a new run on another's seeds with
its key (`like_deals`), and `deals_differ` tells whether two runs were dealt alike. A key is
never shown, nor anything made from it.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.loader import bot_file, by_target, code_roots, metadata_path
from arena.safe_files import UnsafeFileError, read_json, write_text
from arena.tournament.planning.config import TournamentConfig
from arena.tournament.planning.deals import DealSet
from arena.tournament.records.results import BOTS, RunDirectory, RunDirectoryError, run_config

SHOWN_FILES = 3
"""A change names at most this many files, then counts the rest."""

SHORT = 8
"""Digests are shown by their first this many hex digits."""


class BotKind(enum.Enum):
    """How a bot's spec names its code."""

    FILE = "file"
    MODULE = "module"
    REGISTERED = "registered"


@dataclass(frozen=True)
class BotCode:
    """What a bot's code is: its spec, kind, source files (relative path and SHA-256, sorted)
    and, for a module or registered bot, the distribution providing it and its version."""

    spec: str
    kind: BotKind
    files: tuple[tuple[str, str], ...]
    distribution: str = ""
    version: str = ""

    @property
    def digest(self) -> str:
        """The SHA-256 of the bot's files: their sorted relative paths and digests."""
        h = hashlib.sha256()
        for name, digest in self.files:
            h.update(f"{name}\0{digest}\n".encode())
        return h.hexdigest()

    def to_json(self) -> dict[str, Any]:
        """The bot's entry in bots.json."""
        entry: dict[str, Any] = {"spec": self.spec, "kind": self.kind.value,
                                 "digest": self.digest}
        if self.kind is not BotKind.FILE:
            entry |= {"distribution": self.distribution, "version": self.version}
        return entry | {"files": dict(self.files)}

    @classmethod
    def from_json(cls, entry: Any) -> BotCode:
        """A bot's entry read back from bots.json; ValueError if it is not one."""
        if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict):
            raise ValueError("not a bot entry")
        files = tuple(sorted((str(k), str(v)) for k, v in entry["files"].items()))
        return cls(str(entry["spec"]), BotKind(entry["kind"]), files,
                   str(entry.get("distribution", "")), str(entry.get("version", "")))


def bot_code(spec: str, others: Iterable[str] = (),
             providers: Mapping[str, list[str]] | None = None,
             hashed: dict[tuple[Path, ...], tuple[tuple[str, str], ...]] | None = None,
             versions: dict[str, tuple[str, str]] | None = None) -> BotCode:
    """The code of the bot a spec names, as it is now (nothing is imported); `others` are the
    specs of the other bots of its run, whose files a file bot's code leaves out; `providers`
    the installed distributions by top-level package, if already known; `hashed` the files of
    packages already hashed for the same look (several bots of one package hash it once), and
    `versions` the distributions already found by top-level package (their metadata read once)."""
    path = bot_file(spec)
    if path is not None:
        hidden = {found.resolve() for other in others
                  if (found := bot_file(other)) is not None}
        files = _file_bot_files(path, hidden)
        return BotCode(spec, BotKind.FILE, _digests(files))
    target = by_target(spec)
    kind = BotKind.MODULE if target == spec else BotKind.REGISTERED
    roots = code_roots(target)
    top = target.partition(":")[0].partition(".")[0]
    if versions is None:
        versions = {}
    if top not in versions:
        versions[top] = _distribution(top, providers)
    distribution, version = versions[top]
    if hashed is None:
        hashed = {}
    if roots not in hashed:
        hashed[roots] = _digests(_package_files(roots))
    return BotCode(spec, kind, hashed[roots], distribution, version)


class CodeLook:
    """What one look at bots' code has found so far, for every config it is asked about: the
    files of each package hashed (by its folders) and each distribution's version (by its
    top-level package). Shared by the runs of one league update, so that the bundled bots'
    package, which every pool plays, is hashed once; the code is taken not to change while
    one look lasts (an update's games are played on what it found)."""

    def __init__(self) -> None:
        self.hashed: dict[tuple[Path, ...], tuple[tuple[str, str], ...]] = {}
        self.versions: dict[str, tuple[str, str]] = {}


def bots_code(config: TournamentConfig, look: CodeLook | None = None) -> dict[str, BotCode]:
    """The code of every bot of a config, by name, as it is now (as `look` found it already,
    where it did: a package is hashed once in one look)."""
    specs = {b.name: b.spec for b in config.bots}
    providers = _providers(metadata_path())  # slow to find: once for all the bots
    look = CodeLook() if look is None else look
    return {name: bot_code(spec, [s for other, s in specs.items() if other != name], providers,
                           look.hashed, look.versions)
            for name, spec in specs.items()}


@functools.lru_cache(maxsize=4)
def _providers(path: tuple[str, ...]) -> Mapping[str, list[str]]:
    """The installed distributions by top-level package on this import path: ~0.1 s to find,
    and a league update asks once per pool."""
    from importlib import metadata  # slow to import: only runs need it

    return metadata.packages_distributions()


def _file_bot_files(path: Path, hidden: set[Path]) -> list[tuple[str, Path]]:
    """A bot file and the .py files beside it (not `hidden` ones), named relative to its
    folder."""
    mine = path.resolve()
    found = [path] if path.is_file() else []
    if path.parent.is_dir():
        found += [p for p in path.parent.glob("*.py")
                  if p.is_file() and p.resolve() != mine and p.resolve() not in hidden]
    return [(p.name, p) for p in found]


def _package_files(roots: tuple[Path, ...]) -> list[tuple[str, Path]]:
    """The .py files of a top-level package (its folders) or module, named from the folder
    the package lies in (`bots/concentration/greedy.py`)."""
    files: list[tuple[str, Path]] = []
    for root in roots:
        if root.is_dir():
            files += [(p.relative_to(root.parent).as_posix(), p) for p in root.rglob("*.py")
                      if p.is_file()]
        elif root.is_file():
            files.append((root.name, root))
    return files


def _digests(files: list[tuple[str, Path]]) -> tuple[tuple[str, str], ...]:
    """Each file's SHA-256 by its relative path, sorted; an unreadable file is its error. Read
    a block at a time: a bot's folder may hold a file of any size."""
    out: dict[str, str] = {}
    for name, path in files:
        try:
            with path.open("rb") as f:
                out[name] = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError as exc:
            out[name] = f"unreadable ({exc.strerror or exc})"
    return tuple(sorted(out.items()))


def _distribution(top: str, providers: Mapping[str, list[str]] | None) -> tuple[str, str]:
    """The installed distribution providing a top-level package, and its version ("" if none)."""
    from importlib import metadata

    found = _providers(metadata_path()) if providers is None else providers
    names = sorted(set(found.get(top, ())))
    if not names:
        return "", ""
    try:
        return names[0], metadata.version(names[0])
    except metadata.PackageNotFoundError:
        return names[0], ""


# --- bots.json -------------------------------------------------------------------------------


def read_bots(run_dir: Path) -> dict[str, BotCode] | None:
    """The bots' code recorded in a run directory (None if it has no bots.json: a run begun
    before it was kept); a RunDirectoryError if it cannot be read."""
    path = run_dir / BOTS
    try:
        data = read_json(path)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return {str(name): BotCode.from_json(entry) for name, entry in data.items()}
    except FileNotFoundError:
        return None
    except UnsafeFileError as exc:
        raise RunDirectoryError(f"{exc}; remove it to record the bots' code as it is "
                                f"now") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RunDirectoryError(f"{path}: damaged ({exc}); remove it to record the bots' code "
                                f"as it is now") from None


def write_bots(run_dir: Path, code: Mapping[str, BotCode]) -> None:
    """Record the bots' code in a run directory (bots.json)."""
    data = {name: found.to_json() for name, found in code.items()}
    write_text(run_dir / BOTS, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def code_change(name: str, before: BotCode, now: BotCode) -> str | None:
    """What changed in a bot's code, in one line (None if nothing did)."""
    parts = code_differences(before, now)
    if not parts:
        return None
    return f"bot {name!r} changed since this run began: " + ", ".join(parts)


def code_differences(before: BotCode, now: BotCode) -> list[str]:
    """What differs between two records of a bot's code: spec, distribution, files (at most
    SHOWN_FILES named); empty if the digests and provenance agree."""
    parts: list[str] = []
    if before.spec != now.spec:
        parts.append(f"its spec is now {now.spec!r}, not {before.spec!r}")
    if (before.distribution, before.version) != (now.distribution, now.version):
        parts.append(f"{before.distribution or 'no distribution'} {before.version} -> "
                     f"{now.distribution or 'no distribution'} {now.version}".replace("  ", " "))
    old, new = dict(before.files), dict(now.files)
    files = []
    for path in sorted(old.keys() | new.keys()):
        if path not in new:
            files.append(f"{path} is gone")
        elif path not in old:
            files.append(f"{path} is new")
        elif old[path] != new[path]:
            files.append(f"{path} differs (sha256 {_short(old[path])} -> {_short(new[path])})")
    if len(files) > SHOWN_FILES:
        files = [*files[:SHOWN_FILES], f"and {len(files) - SHOWN_FILES} more files"]
    parts += files
    return parts


def _short(digest: str) -> str:
    return digest[:SHORT] + "..." if len(digest) > SHORT else digest


def first_change(recorded: Mapping[str, BotCode], now: Mapping[str, BotCode]) -> str | None:
    """The first bot (in config order) whose code is not what was recorded, described in one
    line; None if every bot is as recorded."""
    for name, code in now.items():
        before = recorded.get(name)
        if before is None:
            return f"bot {name!r} changed since this run began: it has no record in {BOTS}"
        change = code_change(name, before, code)
        if change is not None:
            return change
    return None


def changed_code(run_dir: Path) -> str | None:
    """For a run's replay or report: which bot's code changed since the run began, in one line
    naming the run (None if none did, or the run has no bots.json)."""
    try:
        recorded = read_bots(run_dir)
        if recorded is None:
            return None
        change = first_change(recorded, bots_code(run_config(run_dir)))
    except RunDirectoryError as exc:
        return f"the bots' code cannot be checked: {exc}"
    return None if change is None else f"{run_dir}: {change}"


def code_between(before: Path, after: Path) -> dict[str, str | None] | None:
    """For `arena compare`: each bot recorded in both runs' bots.json, mapped to None when its
    code digest is the same in both, else to what changed, in a few words; None when either
    run does not record its bots' code. RunDirectoryError if a bots.json is damaged."""
    old, new = read_bots(before), read_bots(after)
    if old is None or new is None:
        return None
    out: dict[str, str | None] = {}
    for name in sorted(old.keys() & new.keys()):
        if old[name].digest == new[name].digest and old[name].spec == new[name].spec:
            out[name] = None
        else:
            out[name] = ", ".join(code_differences(old[name], new[name])) or "its digest differs"
    return out


# --- deals -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealsLike:
    """The deals of an earlier run, for a new run to be played on: its seeds, its key ("" if
    none) and the run directories that hold that key (it and those it shares the key with)."""

    run: Path
    deals: DealSet
    key: str
    holders: tuple[Path, ...]


def deals_of(run_dir: Path) -> DealsLike:
    """The deals an earlier run was played on; RunDirectoryError if it is not a run."""
    deals = run_config(run_dir).deals
    earlier = RunDirectory(run_dir)
    key = earlier.key()
    # the runs its key-shared names that hold its key (it comes from elsewhere: it may name any
    # folder, which the sandbox would then cover, and --deals-like write in)
    shared = tuple(p for p in earlier.key_shared_with() if RunDirectory(p).holds_key(key))
    holders = (run_dir.resolve(), *shared) if key else ()
    return DealsLike(run_dir, deals, key, holders)


def like_deals(config: TournamentConfig, earlier: DealsLike) -> TournamentConfig:
    """The config played on an earlier run's deals (its seeds, and their source, whatever the
    config's [deals] says)."""
    return dataclasses.replace(config, deals=earlier.deals)


def deals_differ(before: Path, after: Path) -> str | None:
    """None if two runs were played on the same deals (the same seeds, and the same key or none
    in both), else why not, in one line. Never shows a key, nor anything made from one."""
    a, b = run_config(before).deals, run_config(after).deals
    if a.seeds != b.seeds:
        if sorted(a.seeds) == sorted(b.seeds):
            why = "the same seeds in another order"
        elif _dealt(a) == _dealt(b):
            at = next((i for i, (x, y) in enumerate(zip(a.seeds, b.seeds, strict=False))
                       if x != y), 0)
            why = f"different seeds ({_dealt(a)} in both, differing from deal {at + 1} on)"
        else:
            why = f"different seeds ({before}: {_dealt(a)}; {after}: {_dealt(b)})"
        return f"the runs were played on different deals: {why}"
    key_a, key_b = RunDirectory(before).key(), RunDirectory(after).key()
    if secrets.compare_digest(key_a.encode(), key_b.encode()):
        return None
    if key_a and key_b:
        why = (f"the same seeds but different keys (each run dealt them with a secret key of its "
               f"own; play the later run with --deals-like {before} to share the earlier's)")
    else:
        keyed, plain = (before, after) if key_a else (after, before)
        why = (f"the same seeds, but {keyed} dealt them with a secret key (it has sandboxed "
               f"bots) and {plain} without")
    return f"the runs were played on different deals: {why}"


def _dealt(deals: DealSet) -> str:
    """A deal set in a few words: how many, and where from."""
    seeds = deals.seeds
    if seeds == tuple(range(seeds[0], seeds[0] + len(seeds))):
        return f"{len(seeds)} deals from seed {seeds[0]}"
    return f"{len(seeds)} deals, {deals.source}"
