"""Progress on stderr: a bar per pool counting only the games it has to play, each pool's line
as it starts, and a line a minute when stderr is not a terminal."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress as Bar
from typer.testing import CliRunner

from arena.cli.progress import ProgressView
from arena.tournament.playing.runner import Progress
from tests.helpers import run


def test_the_bar_counts_only_the_games_to_play_and_names_its_pool() -> None:
    """An update that kept 96 of 160 games and has 64 to play: 2 played shows as 2/64 (it
    showed 98/160), under the pool's name."""
    with Bar(console=Console(file=io.StringIO(), force_terminal=True)) as bar:
        view = ProgressView(bar)
        view.section("dig-standard-2p")
        view(Progress(done=96, total=160, faults=0, played=0, seconds=0.0))
        view(Progress(done=98, total=160, faults=0, played=2, seconds=1.0))
        (task,) = bar.tasks
        assert (task.description, task.completed, task.total) == ("dig-standard-2p", 2, 64)
        view.section("memorandum-standard-4p")
        view(Progress(done=10, total=10, faults=0, played=0, seconds=0.0))  # nothing to play
        assert len(bar.tasks) == 1  # no empty bar


def test_without_a_terminal_a_line_comes_a_minute_apart(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    now = [0.0]
    view = ProgressView(None, clock=lambda: now[0])
    view.section("concentration-standard-2p")
    for second in range(0, 301, 5):  # five minutes of reports every 5 s: 64 games to play
        now[0] = float(second)
        played = min(63, second // 5)
        view(Progress(done=96 + played, total=160, faults=1, played=played,
                      seconds=float(second)))
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 5, lines  # at 60, 120, 180, 240 and 300 s
    assert lines[0] == ("arena: concentration-standard-2p: 12 of 64 games played (19%), "
                        "0.2 games/s, about 4 min to go; 1 faults")


def test_each_pools_line_comes_as_it_starts(runner: CliRunner, tmp_path: Path) -> None:
    league = str(tmp_path / "L")
    for args in (("league", "new", league, "--game", "concentration", "--game", "dig",
                  "--deals", "1"), ("submit", league, "greedy"), ("submit", league, "random"),
                 ("submit", league, "dig-sharp")):
        assert run(runner, *args).exit_code == 0
    first = run(runner, "league", "update", league, "--isolation", "none", "--workers", "1")
    assert first.exit_code == 0, first.stderr
    assert run(runner, "submit", league, "tracker").exit_code == 0
    second = run(runner, "league", "update", league, "--isolation", "none", "--workers", "1")
    lines = second.stderr.splitlines()
    starts = [i for i, line in enumerate(lines) if "games to play" in line]
    assert [lines[i] for i in starts] == [
        "arena: concentration-standard-2p: 3 bots; 4 of 6 games to play, 2 kept",
        "arena: dig-standard-2p: 2 bots; 0 of 2 games to play, 2 kept"]
    # each said before the update's summary of the pools
    assert starts[-1] < min(i for i, line in enumerate(lines) if "played now" in line)
