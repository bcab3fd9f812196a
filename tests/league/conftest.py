"""Shared makings of the league tests: a small league, small file bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.league.folder import League, new_league, parse_game

FIRST = '''from arena.api import Bot


class {cls}(Bot):
    """Always the first legal action."""

    games = ("concentration",)

    def act(self, obs):
        return obs.legal[0]
'''

LAST = '''from arena.api import Bot


class {cls}(Bot):
    """Always the last legal action."""

    games = ("concentration",)

    def act(self, obs):
        return obs.legal[-1]
'''

BROKEN = '''from arena.api import Bot


class {cls}(Bot):
    """Raises on its first move."""

    games = ("concentration",)

    def act(self, obs):
        raise RuntimeError("boom")
'''


def passing(spec: str, game: str, kept: object = ()) -> tuple[bool, list[str]]:
    """A validator that passes every bot (the sandboxed one is tested once, on its own)."""
    return True, [f"PASS (test) {game}"]


def write_bot(folder: Path, text: str, cls: str = "Mine", name: str = "mybot.py") -> str:
    """A bot file in a folder of its own; its spec."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text.format(cls=cls))
    return f"{folder / name}:{cls}"


@pytest.fixture
def league(tmp_path: Path) -> League:
    """A league of Concentration (2 seats) on two deals."""
    return new_league(tmp_path / "class", [parse_game("concentration:standard:2")], deals=2)
