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
from itertools import islice
from pathlib import Path
from types import CodeType
from typing import Any

from arena.loader import bot_file, code_roots

MAX_FILES = 200
"""At most this many files are compiled ahead for one bot."""

MAX_BYTES = 1 << 20
"""Nor more source than this, in bytes (under a second of compiling)."""


def source_files(target: str) -> list[Path]:
    """The Python files a bot target (`module:Class` or `path/file.py:Class`) may import from:
    the file and its siblings, or every file of the module's top-level package. Found without
    importing anything; empty if there is nothing to find."""
    roots = code_roots(target)
    if not roots:
        return []
    if bot_file(target) is not None:
        (path,) = roots
        if not path.is_file():
            return []
        neighbours = [p for p in _python_files([path.parent]) if p != path]
        return [path, *neighbours[:MAX_FILES - 1]]
    folders = [root for root in roots if root.is_dir()]
    return _python_files(folders, deep=True) if folders else list(roots)


def _python_files(folders: list[Path], deep: bool = False) -> list[Path]:
    """Up to MAX_FILES Python files in these folders (and below them, if `deep`), sorted."""
    found: list[Path] = []
    for folder in folders:
        matches = folder.rglob("*.py") if deep else folder.glob("*.py")
        found.extend(islice((p for p in matches if p.is_file()), MAX_FILES - len(found)))
    return sorted(found)


def compile_ahead(paths: list[Path]) -> dict[str, tuple[bytes, CodeType]]:
    """Each file's source and its code object, by real path; files that cannot be read or
    compiled are left out (the bot's import then reports the problem, in its sandbox)."""
    compiled: dict[str, tuple[bytes, CodeType]] = {}
    total = 0
    for path in paths:
        if _cached(path):
            continue  # the import reads that, and compiles nothing
        try:
            source = path.read_bytes()
            total += len(source)
            if total > MAX_BYTES:
                break
            real = os.path.realpath(path)
            compiled[real] = (source, compile(source, real, "exec", dont_inherit=True))
        except (OSError, SyntaxError, ValueError):
            continue
    return compiled


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
