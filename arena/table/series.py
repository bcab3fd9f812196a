"""A series of games at a table with people in the browser: the match watcher that shows each
step to the people's pages (`Table`) and records it for the game's replay page, which the
server serves once the game is over."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from arena.api import Event
from arena.engine import Action, State
from arena.record import GameRecord
from arena.table.seat import Table
from arena.viewer.game_steps import StepRecorder
from arena.viewer.replay_page import page_data, render


class TableSeries:
    """Watches each game for the table and for its replay page (`pages`: game number -> HTML);
    `finished` tells the pages a game's result and the running score."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.recorder = StepRecorder()
        self.pages: dict[int, str] = {}
        self.totals: list[float] = []

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """A game starts."""
        self.recorder = StepRecorder()
        self.recorder.dealt(state, variant, seed, names)
        self.table.dealt(state, variant, seed, names)

    def decided(self, seat: int, action: Action) -> None:
        """A seat's choice, for the replay page."""
        self.recorder.decided(seat, action)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """A step, to the pages and the replay."""
        self.recorder.happened(state, events)
        self.table.happened(state, events)

    def finished(self, record: GameRecord) -> None:
        """A game is over: its replay page is kept, and the pages are told the result."""
        data: dict[str, Any] = json.loads(record.to_line(timings=True))
        number = self.table.games
        self.pages[number] = render(page_data(data, self.recorder)).html
        if not self.totals:
            self.totals = [0.0] * len(record.scores)
        self.totals = [t + s for t, s in zip(self.totals, record.scores, strict=True)]
        self.table.over(data, number, self.totals)

    @property
    def left(self) -> bool:
        """Whether a person left: no more games."""
        return self.table.left
