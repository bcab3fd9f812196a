"""Hostile bots for the sandbox tests that attack through their files and their time outside
`act` (Concentration): symbolic links and huge files beside the bot, slow `start` and `end`, and
an answer of their own written at import.

The tests copy this file into a folder of the test's own and put the attack beside it there (a
symbolic link, a sparse file); nothing of that is kept in the repository.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import os
import stat
import time
from pathlib import Path
from typing import Any

from arena.api import Bot, GameInfo, Observation, Result

if Path(__file__).stem.startswith("shouter"):  # a copy named so answers before it is asked
    with contextlib.suppress(OSError):
        if stat.S_ISSOCK(os.fstat(3).st_mode):  # the game's socket, in a game process
            os.write(3, b'["action",' + b"9" * 5001 + b"]\n")


class Plain(Bot):
    """Plays the first legal card: the bot beside which the attack lies."""

    games = ("concentration",)

    def act(self, obs: Observation[Any]) -> Any:
        return obs.legal[0]


class Peeker(Plain):
    """Looks for `secret` (text it was told) in a file beside it, `target` (a symbolic link to
    what it may not read: another bot's file, the run's key): by reading it, and in the source
    its host compiled for it ahead (kept for the game processes' imports, in the closure of the
    source loader). Raises at `start` when it finds it, naming the way, so that the record
    says so."""

    def __init__(self, target: str = "", secret: str = "") -> None:
        self.target, self.secret = target, secret

    def start(self, info: GameInfo) -> None:
        super().start(info)
        found = []
        with contextlib.suppress(OSError), open(self.target, "rb") as f:
            if self.secret.encode() in f.read():
                found.append("by reading it")
        if any(self.secret.encode() in source for source in _compiled_ahead()):
            found.append("in the compiled code")
        if found:
            raise RuntimeError(f"leaked {' and '.join(found)}")


def _compiled_ahead() -> list[bytes]:
    """The sources the host compiled ahead, as the game process holds them (none in-process)."""
    cells = getattr(importlib.machinery.SourceFileLoader.source_to_code, "__closure__", None)
    sources: list[bytes] = []
    for cell in cells or ():
        with contextlib.suppress(ValueError):  # an empty cell
            value = cell.cell_contents
            if isinstance(value, dict):
                sources += [known[0] for known in value.values()
                            if isinstance(known, tuple) and isinstance(known[0], bytes)]
    return sources


class SlowStart(Plain):
    """Takes `seconds` over its `start`."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def start(self, info: GameInfo) -> None:
        super().start(info)
        time.sleep(self.seconds)


class SlowEnd(Plain):
    """Takes `seconds` over its `end`."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def end(self, result: Result) -> None:
        time.sleep(self.seconds)
