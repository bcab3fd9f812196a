"""Spectator narration of Cribbage Square: every event is public; 80 columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.api import Event
from arena.cards import Card
from arena.games.common import fit
from arena.games.cribbage_square.placement import Position, span
from arena.games.cribbage_square.scoring import LayoutScore
from arena.games.cribbage_square.table import (
    GameOver,
    Laid,
    Scored,
    Started,
    StarterTurned,
    TurnedUp,
)
from arena.games.cribbage_square.variants import Placement, SquareParams


def opening(params: SquareParams, players: int) -> list[str]:
    """What the game will be."""
    where = ("each next to a card already down (sides or corners), the first at (0, 0)"
             if params.placement is Placement.ADJACENT
             else "each on any empty place of a 4 x 4 grid")
    who = "one square" if players == 1 else f"{players} squares from the same pack order"
    return fit(f"Cribbage Square, {who}: sixteen cards turned up one at a time and laid, {where}; "
               "then the starter, and every row and column scores as a cribbage hand",
               indent="")


def place(position: Position) -> str:
    """A position as written in the rules: '(1, -2)'."""
    return f"({position[0]}, {position[1]})"


def describe(event: Event, names: Sequence[str]) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    who = names[event.seat] if event.seat is not None else "the table"
    if isinstance(event, Started):
        return []
    if isinstance(event, TurnedUp):
        return fit(f"card {event.number} of 16: {event.card}", indent="")
    if isinstance(event, Laid):
        return fit(f"{who} lays {event.card} at {place(event.position)}")
    if isinstance(event, StarterTurned):
        return ["", *fit(f"The starter is {event.card}", indent="")]
    if isinstance(event, Scored):
        rows = " ".join(map(str, event.rows))
        cols = " ".join(map(str, event.columns))
        return fit(f"{who} scores {event.total}: rows {rows}, columns {cols}")
    if isinstance(event, GameOver):
        if len(event.totals) == 1:
            return [*fit(f"Game over: {event.totals[0]} points", indent="")]
        verb = ("tie: " + ", ".join(names[s] for s in event.winners) if len(event.winners) > 1
                else f"{names[event.winners[0]]} wins")
        return ["", *fit(f"Game over: {verb}", indent="")]
    return None


def grid(cells: Mapping[Position, Card], placement: Placement,
         marks: Mapping[Position, str] | None = None) -> list[str]:
    """A layout drawn as a grid of its places, rows and columns numbered by position; empty
    places where a card may still go show `marks` (e.g. a letter to type), else '.'."""
    places = set(cells) | set(marks or {})
    if placement is Placement.GRID:
        places |= {(0, 0), (3, 3)}
    if not places:
        return []
    top, left, bottom, right = span(places)
    header = "      " + "".join(f"{c:>5}" for c in range(left, right + 1))
    lines = [header]
    for r in range(top, bottom + 1):
        row = []
        for c in range(left, right + 1):
            card = cells.get((r, c))
            text = str(card) if card is not None else (marks or {}).get((r, c), ".")
            row.append(f"{text:>5}")
        lines.append(f"{r:>6}" + "".join(row))
    return lines


def square(score: LayoutScore) -> list[str]:
    """A scored square: each row with its points, and the columns' points beneath."""
    lines = [""]
    for hand in score.rows:
        lines.append("  " + " ".join(f"{c!s:>3}" for c in hand.cards) + f"   {hand.total:>3}")
    lines.append("  " + " ".join(f"{h.total:>3}" for h in score.columns)
                 + f"   {score.total:>3} with starter {score.starter}")
    return lines
