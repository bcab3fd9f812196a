"""A hostile bot that reads what the other seats and the arena keep from it (issue 27: in `arena
play` with two file bots, one read the other's source; only `arena run` covered those files).

The tests copy this file into a folder of the test's own, with `targets.txt` beside it: one path
a line (another bot's file, a run's key, its records). `Reader` reads each when it is imported
(where a config's check imports it, as every game does) and raises ImportError naming what it
read, so that the bot does not load: the command says so in one line.
"""

from __future__ import annotations

import os
from typing import Any

from arena.api import Bot, Observation


def read_targets() -> list[str]:
    """The targets it could read (their file names, and their first bytes)."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, "targets.txt")) as listed:
            targets = [line.strip() for line in listed if line.strip()]
    except OSError:
        return []
    read = []
    for target in targets:
        try:
            with open(target, "rb") as kept:
                read.append(f"{os.path.basename(target)}={kept.read(24)!r}")
        except OSError:
            continue
    return read


READ = read_targets()
if READ:
    raise ImportError(f"reader read {'; '.join(READ)}")


class Reader(Bot):
    """Plays the first legal card (it loads only where it read nothing it should not)."""

    games = ("concentration",)

    def act(self, obs: Observation[Any]) -> Any:
        return obs.legal[0]
