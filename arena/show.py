"""Spectator output for `arena play --show`: the game narrated line by line as it unfolds."""

from __future__ import annotations

import textwrap
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
        self.names = [shorten(name) for name in names]
        self.emit(f"== {variant}, seed {seed} ==")
        for line in fit(" vs ".join(self.names)):
            self.emit(line)
        for line in state.narrate_deal():
            self.emit(line)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Narrate the new events."""
        for event in events:
            for line in state.narrate(event, self.names):
                self.emit(line)


NAME_WIDTH = 20
"""Bot names longer than this are shortened in spectator output, to keep lines within 80 columns."""


def shorten(name: str, width: int = NAME_WIDTH) -> str:
    """The name, cut to `width` characters with an ellipsis if it is longer."""
    return name if len(name) <= width else name[: width - 1] + "…"


def fit(text: str, indent: str = "  ", width: int = 80) -> list[str]:
    """The text wrapped into lines of at most `width` columns, continuation lines indented."""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False) or [indent.rstrip()]
