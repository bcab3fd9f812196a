"""A hostile bot that looks for what is not its own (issue 38): another bot's folder, a league's
store and records, a run directory, the host's `/sys`.

The tests copy this file into a folder of the test's own, with `absent.py` beside it (one path a
comment line, each of which must be absent: not empty, not refused, absent) and `unnamed.py`
(words that `/proc/self/mountinfo` must not hold), Python files so that a league's `--dir` keeps
them. `Looker` looks when it is imported (where a config's
check or a validation imports it, as every game does) and raises ImportError naming what it
found, so that the bot does not load: the command says so in one line.
"""

from __future__ import annotations

import os
from typing import Any

from arena.api import Bot, Observation

HOST_SYS = ("/sys/class/net", "/sys/devices/system/node", "/sys/block")


def _lines(name: str) -> list[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, name)) as listed:
            return [line[2:].strip() for line in listed if line.startswith("# ")]
    except OSError:
        return []


def look() -> list[str]:
    """What it found that it should not have."""
    found = []
    for path in _lines("absent.py"):
        try:
            os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            found.append(f"{os.path.basename(path)} refused ({exc.strerror})")
            continue
        found.append(f"{os.path.basename(path)} is there")
    try:
        with open("/proc/self/mountinfo") as mounts:
            text = mounts.read()
    except OSError:
        text = ""
    found += [f"mountinfo names {word}" for word in _lines("unnamed.py") if word in text]
    for folder in HOST_SYS:
        try:
            if os.listdir(folder):
                found.append(f"{folder} lists the host's")
        except OSError:
            continue
    return found


FOUND = look()
if FOUND:
    raise ImportError(f"looker found {'; '.join(FOUND)}")


class Looker(Bot):
    """Plays the first legal card (it loads only where it found nothing it should not)."""

    games = ("concentration", "dig")

    def act(self, obs: Observation[Any]) -> Any:
        return obs.legal[0]
