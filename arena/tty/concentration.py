"""Concentration at a terminal: the layout as a lettered grid, positions typed as 'b7'."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from arena.api import Action, Event, Move, Reveal
from arena.cards import Card
from arena.games.concentration import (
    Back,
    Claim,
    ConcentrationParams,
    ConcentrationView,
    GameOver,
    Miss,
    Role,
)
from arena.tty.generic import wrap
from arena.tty.interface import BadInput, HumanInterface, normalise

CELL = 4
"""Columns of one grid cell."""

_LETTER_COLUMN = re.compile(r"^([a-z])\s*(\d+)$")
_ROW_COLUMN = re.compile(r"^(\d+)\s+(\d+)$")
_BACKS = {Back.PLAIN: "##", Back.RED: "r#", Back.BLUE: "b#"}


def row_name(row: int) -> str:
    """A row's letter: 0 is 'A'."""
    return chr(ord("A") + row)


class ConcentrationInterface(HumanInterface):
    """The layout as a grid: rows lettered A.., columns numbered 1..; '##' a face-down card
    ('r#'/'b#' by back in the checkerboard), '..' a place whose card was taken, and the cards
    turned up this turn face up. Cards seen earlier are not shown again: remembering is yours."""

    spectator_safe = True  # every seat sees the same public table

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown: dict[int, Card] = {}  # cards turned up in the turn being told

    # -- geometry -------------------------------------------------------------------------------

    def _shape(self, view: ConcentrationView) -> tuple[int, int, int]:
        """Rows, columns and places per field."""
        return view.rows, view.cols, view.rows * view.cols

    def _fields(self) -> int:
        params = self.params
        return params.fields if isinstance(params, ConcentrationParams) else 1

    def position_name(self, pos: int, cols: int, per: int) -> str:
        """'B7', or in the duel 'B7 in your field' / 'B7 in seat 0's field'."""
        field, rest = divmod(pos, per)
        name = f"{row_name(rest // cols)}{rest % cols + 1}"
        if self._fields() > 1:
            whose = "your" if field == self.seat else f"seat {field}'s"
            name += f" in {whose} field"
        return name

    # -- showing --------------------------------------------------------------------------------

    def draw(self, view: ConcentrationView, seat: int) -> list[str]:
        """Scores, then the grid of every field (yours first in the duel)."""
        rows, cols, per = self._shape(view)
        scores = ", ".join(f"{self.name(s)} {p}" for s, p in enumerate(view.scores))
        lines = wrap(f"Turn {view.turn + 1}" + (f" | sets: {scores}" if self.players > 1
                                                 else f" | sets taken: {view.scores[0]}"))
        fields = len(view.cells) // per
        order = sorted(range(fields), key=lambda f: f != seat) if fields > 1 else [0]
        for field in order:
            if fields > 1:
                whose = "Your field" if field == seat else f"Seat {field}'s field"
                lines.append(f"  {whose}" + (" (you turn up here)"
                                             if view.field.start == field * per else ""))
            lines.append("    " + "".join(f"{c + 1:>{CELL}}" for c in range(cols)))
            for r in range(rows):
                cells = (self._cell(view.cells[field * per + r * cols + c])
                         for c in range(cols))
                lines.append(f"  {row_name(r)} " + "".join(cells))
        if view.face_up:
            up = ", ".join(f"{view.cells[p]} at {self.position_name(p, cols, per)}"
                           for p in view.face_up)
            lines += wrap(f"Face up this turn: {up}")
        return lines

    def _cell(self, cell: Card | Back | None) -> str:
        style = self.style
        if cell is None:
            return style.dim("..".rjust(CELL))
        if isinstance(cell, Back):
            text = _BACKS[cell].rjust(CELL)
            if cell is Back.RED:
                return style.red(text)
            return style.blue(text) if cell is Back.BLUE else text
        return style.bold(style.card(cell, CELL))

    def describe(self, event: Event, seat: int) -> list[str]:
        """Each card turned up, each set taken, each miss, cards moving, the end."""
        who = self.name(event.seat)
        params = self.params
        cols = params.cols if isinstance(params, ConcentrationParams) else 13
        per = params.field_size if isinstance(params, ConcentrationParams) else 52
        if isinstance(event, Reveal):
            self.shown[event.position] = event.card
            return [f"{who} turns up {event.card} at "
                    f"{self.position_name(event.position, cols, per)}"]
        if isinstance(event, Claim):
            self.shown = {}
            worth = f" ({event.points} points)" if event.points > 1 else ""
            return wrap(f"  {who} takes {' '.join(map(str, event.cards))}{worth}")
        if isinstance(event, Miss):
            cards = " ".join(str(self.shown.get(p, "?")) for p in event.positions)
            self.shown = {}
            return wrap(f"  no match: {cards} go face down again")
        if isinstance(event, Move):
            where = ""
            if event.swaps:
                where = ": " + ", ".join(f"{self.position_name(a, cols, per)} <-> "
                                         f"{self.position_name(b, cols, per)}"
                                         for a, b in event.swaps)
            elif event.count:
                where = " (where, nobody saw)"
            return wrap(f"  {event.count} swap(s) of face-down cards{where}")
        if isinstance(event, GameOver):
            return [f"Game over ({event.reason.value})."]
        return super().describe(event, seat)

    def action_text(self, action: Action) -> str:
        """'turn up B7'."""
        params = self.params
        if not isinstance(params, ConcentrationParams) or not isinstance(action, int):
            return super().action_text(action)
        return f"turn up {self.position_name(action, params.cols, params.field_size)}"

    def task(self, view: ConcentrationView, legal: Sequence[Action]) -> str:
        """Which card of the turn this is."""
        if view.role is Role.ANSWER:
            return "answer: turn up a card in your field"
        params = self.params
        if isinstance(params, ConcentrationParams) and params.duel:
            return "turn up a card in your field (the other player answers)"
        size = params.set_size if isinstance(params, ConcentrationParams) else 2
        return f"turn up card {len(view.face_up) + 1} of {size}"

    def listed(self, legal: Sequence[Action]) -> list[str]:
        """Positions are typed, not chosen from a list."""
        return []

    def help(self, legal: Sequence[Action]) -> list[str]:
        """How to name a position, and the rules that limit the choice."""
        return [
            "Type the position of a face-down card to turn it up:",
            "  b7 or B 7  row letter and column number",
            "  2 7        row number and column number",
            "  19         a position number, counted row by row from 0 (A1 is 0)",
            *wrap("In the duel, letters and numbers name places in the field you turn up in. "
                  "A turn must show a card nobody has seen since it last moved, unless it "
                  "takes a set: when every card turned up so far this turn was seen before, "
                  "the last must be unseen or complete the set (the no-idle-turn rule)."),
            *self.commands(len(legal) == 1),
        ]

    def hint(self, legal: Sequence[Action]) -> str:
        """How to type a position."""
        return "type a position such as b7, or ? for help"

    # -- reading --------------------------------------------------------------------------------

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """A position as 'b7', 'B 7', '2 7' (row and column numbers) or a position number."""
        if not isinstance(view, ConcentrationView):
            raise TypeError("reading a Concentration position needs the view")
        rows, cols, _ = self._shape(view)
        words = normalise(text)
        if not words:
            if len(legal) == 1:
                return legal[0]
            raise BadInput("type a position such as b7 (? for help)")
        if words.isdigit():
            return self._check(int(words), legal, view)
        found = _LETTER_COLUMN.match(words)
        if found:
            row, col = ord(found.group(1)) - ord("a"), int(found.group(2)) - 1
        else:
            found = _ROW_COLUMN.match(words)
            if not found:
                raise BadInput(f"{text.strip()!r} is not a position: type e.g. b7, 2 7, or ? "
                               f"for help")
            row, col = int(found.group(1)) - 1, int(found.group(2)) - 1
        if not 0 <= row < rows:
            raise BadInput(f"there is no row {_row_words(row)}: rows are A to "
                           f"{row_name(rows - 1)} (1 to {rows})")
        if not 0 <= col < cols:
            raise BadInput(f"there is no column {col + 1}: columns are 1 to {cols}")
        return self._check(view.field.start + row * cols + col, legal, view)

    def _check(self, pos: int, legal: Sequence[Action], view: ConcentrationView) -> Action:
        """The position if it is legal; else BadInput saying why not."""
        if pos in legal:
            return pos
        _, cols, per = self._shape(view)
        if not 0 <= pos < len(view.cells):
            raise BadInput(f"there is no position {pos}: positions are 0 to {len(view.cells) - 1}")
        where = self.position_name(pos, cols, per)
        cell = view.cells[pos]
        if cell is None:
            raise BadInput(f"{where} is empty: its card was taken")
        if pos in view.face_up:
            raise BadInput(f"{where} is already face up")
        if pos not in view.field:
            raise BadInput(f"{where} is not in the field you turn up in")
        raise BadInput(f"{where} is not allowed now: this turn must show a card nobody has "
                       f"seen, or complete a set (no-idle-turn rule; ? for help)")


def _row_words(row: int) -> str:
    return f"{row + 1}" if row >= 26 or row < 0 else f"{row_name(row)} ({row + 1})"
