"""Bytecode for an untrusted bot's source files, compiled once by its sandbox host.

A game process imports an untrusted bot afresh in every game, and may not write a bytecode cache
(it may write only in its own directory), so without this every game would compile the bot's
source again: milliseconds for a small bot, tens for a large one. The host (trusted) compiles
the files a spec names, without running any of them, before it forks anything; game processes
inherit the code objects, and their imports use one whenever the source they read is the very
source it was compiled from.
"""

from __future__ import annotations

import _imp
import importlib.machinery
import importlib.util
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import CodeType
from typing import Any

from arena.loader import bot_file, code_roots

MAX_FILES = 200
"""At most this many files are compiled ahead for one bot."""

MAX_FILE_BYTES = 512 << 10
"""A file larger than this (512 KB) is not compiled ahead (nor read): its import compiles it."""

MAX_BYTES = 1 << 20
"""Nor more source than this in all, in bytes (under a second of compiling)."""

MAX_ENTRIES = 10_000
"""At most this many directory entries are looked at to find a bot's files."""


def source_files(target: str, private: Sequence[str] = ()) -> list[Path]:
    """The Python files a bot target (`module:Class` or `path/file.py:Class`) may import from,
    each by its real path: the file and its siblings, or every file of the module's top-level
    package. Of the siblings or the package, only files whose real path lies in the bot's own
    folder (the file's, or the package's) count: a symbolic link that leads out of it is
    skipped, not followed; and nothing in or under a folder (or file) of `private` (real paths:
    what the arena keeps from the bot) ever counts. Found without importing anything; empty if
    there is nothing to find."""
    roots = code_roots(target)
    if not roots:
        return []
    kept = tuple(os.path.join(os.path.realpath(folder), "") for folder in private)
    if bot_file(target) is not None:
        (path,) = roots
        real = Path(os.path.realpath(path))
        if not _regular(real) or _kept(real, kept):
            return []
        folder = Path(os.path.realpath(path.parent))
        neighbours = [p for p in _python_files(folder, deep=False)
                      if p != real and not _kept(p, kept)]
        return [real, *neighbours[:MAX_FILES - 1]]
    found: list[Path] = []
    for root in roots:
        real = Path(os.path.realpath(root))
        if real.is_dir():
            found += (p for p in _python_files(real, deep=True) if not _kept(p, kept))
        elif real.suffix == ".py" and _regular(real) and not _kept(real, kept):
            found.append(real)
    return sorted(set(found))[:MAX_FILES]


def _kept(path: Path, kept: tuple[str, ...]) -> bool:
    """Whether a real path is one of `kept` (folders and files, each ending in a separator) or
    lies under one."""
    return os.path.join(path, "").startswith(kept)


def _regular(path: Path) -> bool:
    """Whether `path` is a regular file (not following a final symbolic link)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _python_files(folder: Path, deep: bool) -> list[Path]:
    """Up to MAX_FILES Python files in this folder (a real path) and, if `deep`, below it, each
    by its real path, which must lie in the folder too; sorted. Symbolic links to folders are
    not entered, and at most MAX_ENTRIES entries are looked at."""
    inside = os.path.join(folder, "")
    found: list[Path] = []
    for entry in _entries(folder, deep):
        if not entry.name.endswith(".py"):
            continue
        real = os.path.realpath(entry.path)
        if real.startswith(inside) and _regular(Path(real)):
            found.append(Path(real))
            if len(found) >= MAX_FILES:
                break
    return sorted(set(found))


def _entries(folder: Path, deep: bool) -> Iterator[os.DirEntry[str]]:
    """The entries of a folder and, if `deep`, of the folders below it (not through symbolic
    links), MAX_ENTRIES at most."""
    pending, seen = [str(folder)], 0
    while pending:
        try:
            with os.scandir(pending.pop()) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                return
            if deep and entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            yield entry


def compile_ahead(paths: list[Path]) -> dict[str, tuple[bytes, CodeType]]:
    """Each file's source and its code object, by real path; files that cannot be read or
    compiled are left out (the bot's import then reports the problem, in its sandbox), and so
    are files over MAX_FILE_BYTES, or beyond MAX_BYTES in all: the size is checked before
    anything is read, and no more than that is read. A path that is (now) a symbolic link, or
    not a regular file, is not opened (`source_files` gives real paths)."""
    compiled: dict[str, tuple[bytes, CodeType]] = {}
    total = 0
    for path in paths:
        if _cached(path):
            continue  # the import reads that, and compiles nothing
        source = _read(path, min(MAX_FILE_BYTES, MAX_BYTES - total))
        if source is None:
            continue
        total += len(source)
        real = os.path.realpath(path)
        try:
            compiled[real] = (source, compile(source, real, "exec", dont_inherit=True))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return compiled


def _read(path: Path, most: int) -> bytes | None:
    """A regular file's bytes, if it holds at most `most`; None otherwise, or if it cannot be
    read, without reading more than `most` + 1 bytes. Opened without following a final symbolic
    link, nor blocking (a named pipe), and checked once open (fstat)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > most:
            return None
        chunks, size = [], 0
        while size <= most:
            chunk = os.read(fd, most + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size <= most else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _cached(path: Path) -> bool:
    """Whether the file has bytecode cached next to it, at least as new as the file."""
    try:
        cache = Path(importlib.util.cache_from_source(str(path)))
        return cache.stat().st_mtime >= path.stat().st_mtime
    except (OSError, ValueError, NotImplementedError):
        return False


def use_compiled(compiled: dict[str, tuple[bytes, CodeType]]) -> None:
    """From now on, imports in this process take their code from `compiled` where the source
    they read is the same."""
    if not compiled:
        return
    loader = importlib.machinery.SourceFileLoader
    compile_source = loader.source_to_code

    def source_to_code(self: Any, data: Any, path: Any, *, _optimize: int = -1) -> CodeType:
        real = os.path.realpath(path)
        known = compiled.get(real) if _optimize == -1 else None
        if known is None or known[0] != data:
            return compile_source(self, data, path, _optimize=_optimize)  # type: ignore[no-any-return]
        code = known[1]
        if path != real:  # as a cached import does: the code names the file as imported
            _imp._fix_co_filename(code, path)
        return code

    loader.source_to_code = source_to_code  # type: ignore[method-assign]
