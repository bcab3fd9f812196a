"""Small Concentration bots used by the examples of docs/cli.md, two of them faulty on purpose.

Run them:  arena play concentration -b docs/examples/mybots.py:CrashBot:after=5 -b greedy
(tests/test_docs_examples.py runs every example that names them and checks its output.)
"""

from __future__ import annotations

from typing import Any

from arena.api import Bot, Observation


class LowestBot(Bot):
    """Always turns up the lowest legal position."""

    games = ("concentration",)

    def act(self, obs: Observation[Any]) -> Any:
        """The first legal action."""
        return obs.legal[0]


class BadBot(Bot):
    """Returns a position that is never legal: an `illegal` fault at its first decision."""

    games = ("concentration",)

    def act(self, obs: Observation[Any]) -> Any:
        """A position off the table."""
        return -1


class CrashBot(Bot):
    """Plays like LowestBot for `after` decisions, then raises: an `exception` fault."""

    games = ("concentration",)

    def __init__(self, after: int = 3) -> None:
        """Crash at decision `after` + 1."""
        self.after = after

    def act(self, obs: Observation[Any]) -> Any:
        """The first legal action, until the bot runs out of ideas."""
        self.after -= 1
        if self.after < 0:
            raise RuntimeError("out of ideas")  # the fault example names this line
        return obs.legal[0]
