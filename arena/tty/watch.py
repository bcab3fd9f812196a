"""Watching bots play (`arena play --show`) with the drawing a person gets at the table.

Used for games whose views hold nothing private (see `HumanInterface.spectator_safe`); the others
are told by their own spectator narration (`arena.show.ShowPrinter`), which keeps hands hidden.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from arena.api import Event, GameInfo
from arena.engine import State
from arena.show import fit, shorten
from arena.tty.interface import HumanInterface
from arena.tty.registry import interface_for
from arena.tty.style import Style

SPECTATOR = -1
"""The seat number spectators watch from: nobody's, so no seat is called 'you'."""


class TableWatcher:
    """A match watcher that draws the table after every step, as the human seat sees it."""

    def __init__(self, game: str, emit: Callable[[str], None], style: Style,
                 delay: float = 0.0, sleep: Callable[[float], None] = time.sleep) -> None:
        self.game = game
        self.interface: HumanInterface = interface_for(game, style)
        self.emit, self.delay, self.sleep = emit, delay, sleep

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """Introduce the game and its seats, and draw the table as dealt."""
        players = len(names)
        info = GameInfo(self.game, variant, {}, SPECTATOR, players, random.Random(0))
        self.interface.start(info)
        self.interface.seat_names = [shorten(name) for name in names]
        self.emit(f"== {variant}, seed {seed} ==")
        for line in fit(" vs ".join(self.interface.seat_names)):
            self.emit(line)
        self._draw(state)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Tell the new events, draw the table, pause if asked."""
        for event in events:
            for line in self.interface.describe(event, SPECTATOR):
                self.emit(line)
        if state.to_act():
            self._draw(state)
        if self.delay > 0:
            self.sleep(self.delay)

    def _draw(self, state: State) -> None:
        seats = state.to_act()
        if seats:
            for line in self.interface.draw(state.view(seats[0]), SPECTATOR):
                self.emit(line)
