"""Spectator output for `arena play --show`: the game narrated line by line as it unfolds."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from arena.api import Event
from arena.engine import State
from arena.games.common import fit


class ShowPrinter:
    """A match watcher that narrates each game through `emit` (one call per line), pausing
    `delay` seconds after each step that printed something (`--show --delay S`)."""

    def __init__(self, emit: Callable[[str], None], delay: float = 0.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.emit = emit
        self.names: Sequence[str] = ()
        self.delay = delay
        self.sleep = sleep

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """Announce the game and show the table as dealt."""
        self.names = [shorten(name) for name in names]
        self.emit(f"== {variant}, seed {seed} ==")
        for line in fit(" vs ".join(self.names)):
            self.emit(line)
        for line in state.narrate_deal():
            self.emit(line)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Narrate the new events, then pause if a delay was asked for."""
        said = False
        for event in events:
            for line in state.narrate(event, self.names):
                self.emit(line)
                said = True
        if said and self.delay > 0:
            self.sleep(self.delay)


NAME_WIDTH = 20
"""Bot names longer than this are shortened in spectator output, to keep lines within 80 columns."""


def shorten(name: str, width: int = NAME_WIDTH) -> str:
    """The name, cut to `width` characters with an ellipsis if it is longer."""
    return name if len(name) <= width else name[: width - 1] + "…"
