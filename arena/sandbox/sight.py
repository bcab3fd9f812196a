"""What a sandboxed game may not see, decided in one place for every command that starts one
(`arena play`, `validate`, `run`, `duel`, `replay`, and the check of a config's bots): what the
arena keeps (the run directory with its key and records, the other runs that share its key) and
the code of every other bot at the table or in the tournament."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Sequence
from pathlib import Path

from arena.loader import bot_sources


def unseen_by(spec: str, specs: Iterable[str], kept: Sequence[Path] = ()) -> tuple[Path, ...]:
    """What the games of bot `spec` may not see, among bots `specs` (all of them, `spec` too if
    it likes): the arena's folders `kept`, and the code of the other bots (their folders, or
    their files with their compiled code where a bot shares the folder, or their packages), so
    that no bot copies another at run time. Bundled bots are public, and code a bot shares
    with another (the same file, folder or package) stays its own."""
    own = {path.resolve() for path in bot_sources(spec)}
    others = {path.resolve() for other in specs if other != spec for path in bot_sources(other)}
    # a bot file's whole folder (its helpers, its data) is the other bot's, unless the two
    # share it
    folders = {path.parent for path in others if path.suffix == ".py"}
    others |= {folder for folder in folders
               if not any(mine.is_relative_to(folder) for mine in own)}
    hidden = [path for path in others - own if not any(mine.is_relative_to(path) for mine in own)]
    code = tuple(found for path in sorted(hidden) for found in (
        (path,) if path.is_dir() or path.suffix != ".py"
        else (path, Path(importlib.util.cache_from_source(str(path))))))
    return tuple(dict.fromkeys((*(Path(folder) for folder in kept), *code)))
