"""A program bot submitted to a league: its folder stored whole by digest, found again as a bot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.league.folder import League, LeagueError
from arena.league.submissions import read_submissions, submit
from arena.loader import resolve_bot
from tests.league.conftest import league, passing  # noqa: F401  (the fixture)
from tests.protocol.conftest import CLIENTS


def test_a_program_folder_is_stored_whole_and_plays_from_the_store(league: League,  # noqa: F811
                                                                   tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    shutil.copytree(CLIENTS / "python-stdio", folder)
    version = submit(league, str(folder), validator=passing)
    assert (version.kind, version.games, version.passed) == ("program", ("concentration",), True)
    stored = league.path / version.spec
    assert sorted(p.name for p in stored.iterdir()) == ["README.md", "bot.py", "bot.toml"]
    assert (stored / "bot.py").stat().st_mode & 0o111  # still executable
    (read,) = read_submissions(league).values()
    assert read.versions[-1] == version
    assert resolve_bot(str(stored.resolve()), "concentration").name == "python-stdio"
    assert submit(league, str(folder), validator=passing).digest == version.digest


def test_a_bare_command_is_refused_with_what_to_submit(league: League) -> None:  # noqa: F811
    with pytest.raises(LeagueError, match="submit a program bot as its folder, with a bot"):
        submit(league, f"cmd:python3 {CLIENTS / 'python-stdio' / 'bot.py'}", name="x",
               validator=passing)
