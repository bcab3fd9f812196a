"""Spectator narration of Paved with Gold: the square and what each player did, publicly only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from arena.api import Event, Reveal
from arena.cards import Card
from arena.games.common import fit
from arena.games.paved_with_gold.table import (
    Announce,
    Bonus,
    EndClaim,
    Failed,
    GameOver,
    Look,
    PutBack,
    Refill,
    Verdict,
    Won,
)
from arena.games.paved_with_gold.variants import SIDE


class PublicTable(Protocol):
    """What a narrator reads of a game (the state satisfies it): only its public parts."""

    square: list[Card | None]
    """By place, the card there (None where the place is empty); only whether one is shown."""
    stock: list[Card]
    """The stock; only its size is shown."""
    points: list[int]
    bonus: list[list[Card]]
    """By seat, its bonus cards; only how many is shown."""
    turns: int


def position_name(pos: int) -> str:
    """A place as row letter and column number: 0 is 'A1', 7 is 'B3', 24 is 'E5'."""
    row, col = divmod(pos, SIDE)
    return f"{chr(ord('A') + row)}{col + 1}"


def _names(positions: Sequence[int]) -> str:
    return ", ".join(position_name(p) for p in positions)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


class Narrator:
    """Turns a game's public events into lines of at most 80 columns for `arena play --show`.

    It only ever reads public events and the public parts of the state (which places hold a
    card, the stock, the scores), so no privately seen card can reach a spectator.
    """

    def __init__(self, state: PublicTable) -> None:
        self.state = state
        self.turn = 0
        self.in_turn = False
        self.shown: dict[int, Card] = {}  # cards turned up publicly in this turn

    def deal(self) -> list[str]:
        """The square as dealt and the stock."""
        return [*self.render(), f"  stock: {len(self.state.stock)} cards", ""]

    def render(self) -> list[str]:
        """The square: '##' a face-down card, '..' an empty place; rows A-E, columns 1-5."""
        square = self.state.square
        lines = ["     " + "".join(f"{c + 1:>4}" for c in range(SIDE))]
        for r in range(SIDE):
            cells = ("##" if square[r * SIDE + c] is not None else ".." for c in range(SIDE))
            lines.append(f"  {chr(ord('A') + r)}  " + "".join(f"{cell:>4}" for cell in cells))
        return lines

    def scores(self, names: Sequence[str]) -> list[str]:
        """The scores: points plus bonus cards per player."""
        state = self.state
        parts = [f"{n} {p + len(b)}" + (f" ({p}+{len(b)} bonus)" if b else "")
                 for n, p, b in zip(names, state.points, state.bonus, strict=True)]
        return fit("score: " + ", ".join(parts))

    def event(self, event: Event, names: Sequence[str]) -> list[str]:
        """Lines for one public event; empty for an event this narrator does not know."""
        who = names[event.seat] if event.seat is not None else "the table"
        lines: list[str] = []
        if isinstance(event, Look | Announce | EndClaim) and not self.in_turn:
            self.turn += 1
            self.in_turn = True
            self.shown = {}
            lines.append(f"Turn {self.turn}: {who}")
        if isinstance(event, Look):
            lines.append(f"  picks up {position_name(event.position)} and looks at it")
        elif isinstance(event, PutBack):
            lines.append(f"  puts back {_names(event.positions)}")
            self.in_turn = False
        elif isinstance(event, Announce):
            holding = f", holding {_names(event.held)}" if event.held else " before picking up"
            lines.append(f"  claims {event.combo.label}{holding}")
        elif isinstance(event, Reveal):
            self.shown[event.position] = event.card
            verb = "turns up" if event.seat is not None else "turned up:"
            lines.append(f"  {verb} {event.card} at {position_name(event.position)}")
        elif isinstance(event, Won):
            lines.append(f"  wins {_cards(event.cards)}: {event.combo.label}, "
                         f"{event.points} points")
        elif isinstance(event, Failed):
            lines.append(f"  false claim: {_cards(event.cards)} is not {event.combo.label}")
        elif isinstance(event, Bonus):
            lines.append(f"  {who} gets {len(event.cards)} bonus card"
                         f"{'s' if len(event.cards) != 1 else ''}")
        elif isinstance(event, Refill):
            if event.positions:
                lines += fit(f"refilled {_names(event.positions)} from the stock "
                             f"({event.stock} left)")
            if None in self.state.square:
                lines += self.render()
            lines += [*self.scores(names), ""]
            self.in_turn = False
        elif isinstance(event, EndClaim):
            lines.append(f"  claims that no combination remains among {len(event.positions)} "
                         f"card{'s' if len(event.positions) != 1 else ''}")
        elif isinstance(event, Verdict):
            if event.right:
                lines.append("  right: no combination among them")
            else:
                found = _cards([self.shown[p] for p in event.positions])
                assert event.combo is not None
                lines.append(f"  wrong: {found} make {event.combo.label}")
        elif isinstance(event, GameOver):
            lines += [f"Game over ({event.reason.value}) after {self.state.turns} turns",
                      *self.scores(names)]
        return lines
