"""Cribbage Square at a terminal: your square drawn on its grid of positions, the places the card
may go numbered in it, the card turned up; a place by its number or by row and column."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from arena.api import Action, Event
from arena.games.cribbage_square import narration
from arena.games.cribbage_square.placement import legal_positions, span
from arena.games.cribbage_square.table import Laid, SquareView, TurnedUp
from arena.games.cribbage_square.variants import Placement, SquareParams
from arena.tty.generic import wrap
from arena.tty.interface import BadInput, HumanInterface

_PLACE = re.compile(r"^\(?\s*(-?\d+)\s*[,\s]\s*(-?\d+)\s*\)?$")


class SquareInterface(HumanInterface):
    """Lay the card by the number of a place in the grid ('3') or its row and column ('1 -1')."""

    spectator_safe = True  # every square and the card turned up are public
    list_limit = 0  # the places are numbered in the drawing itself

    def opening(self) -> list[str]:
        """How cards are laid and scored."""
        params = self.params
        if not isinstance(params, SquareParams):
            return []
        return narration.opening(params, self.players)

    def describe(self, event: Event, seat: int) -> list[str]:
        """The other squares' cards and the scores; your own card is drawn, not told."""
        if isinstance(event, TurnedUp):
            return []
        if isinstance(event, Laid) and event.seat == seat:
            return wrap(f"You lay {event.card} at {narration.place(event.position)}")
        lines = narration.describe(event, self.names)
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: SquareView, seat: int) -> list[str]:
        """Your square with the free places numbered, the card to lay, the other squares."""
        if not 0 <= seat < len(view.layouts):  # a spectator: every square, nothing numbered
            lines = [f"Card {view.number} of 16: {view.card}"] if view.card is not None else []
            for other, layout in enumerate(view.layouts):
                lines += [f"{self.name(other)}:", *self._grid(dict(layout), view.placement, {})]
            return lines
        cells = dict(view.cells)
        lines = []
        if view.card is not None:
            places = legal_positions(cells, view.placement)
            marks = {p: str(i) for i, p in enumerate(places, 1)}
            lines.append(f"Card {view.number} of 16: {view.card}")
            lines += self._grid(cells, view.placement, marks)
        else:
            lines += self._grid(cells, view.placement, {})
        for other, layout in enumerate(view.layouts):
            if other != seat:
                lines.append(f"{self.name(other)}:")
                lines += self._grid(dict(layout), view.placement, {})
        return lines

    @staticmethod
    def _grid(cells: dict[Any, Any], placement: Placement, marks: dict[Any, str]) -> list[str]:
        return narration.grid(cells, placement, marks)

    def action_text(self, action: Action) -> str:
        """'(1, -1)'."""
        assert isinstance(action, tuple)
        return narration.place(action)

    def task(self, view: SquareView, legal: Sequence[Action]) -> str:
        """Lay the card."""
        return f"lay {view.card}" if view.card is not None else "your move"

    def listed(self, legal: Sequence[Action]) -> list[str]:
        """A reminder of the input instead of the list: the places are numbered in the grid."""
        return [f"  type a place's number (1 to {len(legal)}) or its row and column"]

    def syntax(self) -> list[str]:
        """Numbers or coordinates."""
        return wrap("Type the number shown at a free place, or its row and column as drawn "
                    "('1 -1' or '(1, -1)'): rows are numbered down the left, columns along "
                    "the top, counted from the first card at (0, 0).")

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """Row and column, or a place's number (the generic reading)."""
        found = _PLACE.match(text.strip())
        if not found:
            return self.pick(text, legal)
        place = (int(found.group(1)), int(found.group(2)))
        if place in legal:
            return place
        raise BadInput(f"{narration.place(place)} cannot take the card: {self._why(place, view)}")

    @staticmethod
    def _why(place: tuple[int, int], view: Any) -> str:
        if not isinstance(view, SquareView):
            return "choose a numbered place"
        cells = dict(view.cells)
        if place in cells:
            return f"{cells[place]} is there"
        if view.placement is Placement.GRID:
            return "the grid's rows and columns are 0 to 3"
        if all(max(abs(place[0] - r), abs(place[1] - c)) > 1 for r, c in cells):
            return "it touches no card (sides or corners)"
        top, left, bottom, right = span([*cells, place])
        return (f"the cards would span {bottom - top + 1} rows and {right - left + 1} "
                f"columns: the square is 4 by 4")
