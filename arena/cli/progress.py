"""How a run's progress is shown on stderr: on a terminal a bar per run (a league's pool, or
`arena run`'s run) counting only the games it has to play; without one, a plain line at most
a minute apart, so that a long update sent to a file or a CI log is never silent for long.

The library reports progress through callbacks (`arena.tournament.playing.runner.Progress`, and a
league's `PoolStart`); only this module draws it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from arena.cli.app import duration, note

if TYPE_CHECKING:
    from arena.tournament.playing.runner import Progress

EVERY = 60.0
"""Seconds between two progress lines when stderr is not a terminal."""


class ProgressView:
    """The progress of one run after another: a bar each on a terminal (`bar`, a rich
    Progress), else a line at most `every` seconds apart (`clock` tells the time)."""

    def __init__(self, bar: Any | None, every: float = EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bar = bar
        self.every = every
        self.clock = clock
        self.name = "games"
        self._task: Any | None = None
        self._last = clock()

    def section(self, name: str) -> None:
        """The next progress reports are of the run called `name` (a pool): a bar of its own."""
        self.name = name
        self._task = None
        self._last = self.clock()

    def __call__(self, progress: Progress) -> None:
        """Show how far the current run has come: games played of those it has to play."""
        to_play = to_play_of(progress)
        if self.bar is not None:
            if self._task is None:
                if not to_play:
                    return  # nothing to play: its line said so, no empty bar
                self._task = self.bar.add_task(self.name, total=to_play, rate=0.0, faults=0)
            self.bar.update(self._task, completed=progress.played, total=to_play,
                            rate=progress.rate, faults=progress.faults)
            return
        now = self.clock()
        if progress.played and progress.played < to_play and now - self._last >= self.every:
            self._last = now
            note(line(self.name, progress))


def to_play_of(progress: Progress) -> int:
    """The games a run has to play: its schedule's, less those on record when it began."""
    return progress.total - (progress.done - progress.played)


def line(name: str, progress: Progress) -> str:
    """A run's progress as one plain line: `dig-standard-2p: 40 of 64 games played (63%), 2.1
    games/s, about 11 s to go; 0 faults`."""
    to_play = to_play_of(progress)
    share = 100 * progress.played / to_play if to_play else 100.0
    left = (f", about {duration((to_play - progress.played) / progress.rate)} to go"
            if progress.rate > 0 else "")
    return (f"{name}: {progress.played:,} of {to_play:,} games played ({share:.0f}%), "
            f"{progress.rate:,.1f} games/s{left}; {progress.faults:,} faults")


@contextmanager
def progress_view(quiet: bool, every: float = EVERY) -> Iterator[ProgressView | None]:
    """A progress view on stderr (a rich bar on a terminal, lines otherwise), or nothing when
    quiet."""
    if quiet:
        yield None
        return
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield ProgressView(None, every)
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]:>7.0f}/s"), TimeRemainingColumn(),
               TextColumn("faults {task.fields[faults]}"))
    with Bar(*columns, console=console, transient=False) as bar:
        yield ProgressView(bar, every)
