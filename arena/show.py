"""Spectator output for `arena play --show`: the game narrated line by line as it unfolds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.api import Event
from arena.engine import State


class ShowPrinter:
    """A match watcher that narrates each game through `emit` (one call per line)."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self.emit = emit
        self.names: Sequence[str] = ()

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """Announce the game and show the table as dealt."""
        self.names = names
        self.emit(f"== {variant}, seed {seed}: " + " vs ".join(names) + " ==")
        for line in state.narrate_deal():
            self.emit(line)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Narrate the new events."""
        for event in events:
            for line in state.narrate(event, self.names):
                self.emit(line)
