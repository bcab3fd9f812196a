"""A game of Cribbage Square in progress: cards turned up one at a time, every seat laying each
into its own square, then the starter and the scoring."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card, standard_deck
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.frozen import maker
from arena.games.common import stacked
from arena.games.cribbage_square import narration
from arena.games.cribbage_square.dealing import LAID
from arena.games.cribbage_square.placement import ORIGIN, Position, legal_positions, rows_of
from arena.games.cribbage_square.scoring import LayoutScore, score_layout
from arena.games.cribbage_square.table import (
    Cells,
    GameOver,
    Laid,
    Scored,
    SquareView,
    Started,
    StarterTurned,
    TurnedUp,
)
from arena.games.cribbage_square.variants import MAX_SEATS, Placement, SquareParams

_new_view = maker(SquareView)
_new_laid = maker(Laid)


class SquareState(State):
    """A game of Cribbage Square: every seat lays the same sixteen cards, one at a time, into a
    square of its own; all seats decide each card at the same moment."""

    def __init__(self, params: SquareParams, players: int, rng: random.Random,
                 deck: Sequence[Card] | None = None) -> None:
        """Shuffle a pack from `rng`, or use `deck`, a whole pack in deal order (see
        `dealing.stack_pack`); the first card is turned up (and, in the adjacent placement,
        laid at (0, 0) for every seat)."""
        super().__init__()
        if not 1 <= players <= MAX_SEATS:
            raise PlayersError(f"cribbage-square takes 1 to {MAX_SEATS} players, not {players}")
        self.params = params
        self.players = players
        pack = standard_deck()
        rng.shuffle(pack)
        if deck is not None:
            pack = stacked(deck, pack)
        self.pack = pack
        self.next = 0  # index in the pack of the next card to turn up
        self.card: Card | None = None  # the card every seat lays now
        self.starter: Card | None = None
        self.cells: list[dict[Position, Card]] = [{} for _ in range(players)]
        self.order: list[list[tuple[Position, Card]]] = [[] for _ in range(players)]
        self.scores: list[LayoutScore] = []
        self._seats = tuple(range(players))
        self._legal: list[tuple[Position, ...] | None] = [None] * players
        self._cells: list[Cells | None] = [None] * players
        self._views: list[SquareView | None] = [None] * players
        self.log.append(Started(None, players, params.placement))
        self._turn_up()

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """Every seat lays the card turned up, at the same moment; nobody once it is over."""
        return self._seats if self.card is not None else ()

    def legal(self, seat: int) -> tuple[Action, ...]:
        """The empty places of the seat's layout where the card may go, in row-major order."""
        if self.card is None:
            return ()
        found = self._legal[seat]
        if found is None:
            found = self._legal[seat] = legal_positions(self.cells[seat], self.params.placement)
        return found

    def view(self, seat: int) -> SquareView:
        """The card to lay, every seat's layout, and the starter once turned."""
        view = self._views[seat]
        if view is None:
            layouts = tuple(self._cells_of(s) for s in self._seats)
            view = self._views[seat] = _new_view(
                seat, self.card, self.next, layouts, self.params.placement,
                self.starter)
        return view

    def _cells_of(self, seat: int) -> Cells:
        cells = self._cells[seat]
        if cells is None:
            cells = self._cells[seat] = tuple(self.order[seat])
        return cells

    def apply(self, seat: int, action: Action) -> None:
        """Lay the card at a position (one seat: the solitaire case of `apply_joint`)."""
        self.apply_joint({seat: action})

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        """Every seat lays the card at the position it chose; then the next card is turned up,
        or, after the sixteenth, the starter, and every square is scored."""
        if set(actions) != set(self.to_act()):
            raise ValueError(f"every seat lays each card: expected seats {list(self.to_act())}, "
                             f"got {sorted(actions)}")
        for seat in self._seats:
            if actions[seat] not in self.legal(seat):
                raise ValueError(f"seat {seat} cannot lay a card at {actions[seat]!r} now")
        for seat in self._seats:
            self._lay(seat, actions[seat])  # type: ignore[arg-type]  # a legal position
        if self.next < LAID:
            self._turn_up()
        else:
            self._finish()

    def outcome(self) -> Outcome:
        """Each seat's total (higher wins), the cards laid, and every square with its scores."""
        totals = tuple(float(s.total) for s in self.scores) or (0.0,) * self.players
        final: dict[str, Any] = {
            "starter": str(self.starter) if self.starter is not None else None,
            "layouts": [_summary(score) for score in self.scores],
        }
        return Outcome(totals, ScoreOrder.HIGHER_WINS, len(self.order[0]), final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """Every square on the table (they are laid face up), the card to lay, the starter."""
        seen = [card for cells in self.cells for card in cells.values()]
        return seen + [c for c in (self.card, self.starter) if c is not None]

    def inventory(self) -> Collection[Card]:
        """Every seat's own pack: its square, the card in hand, the starter, the rest."""
        rest = self.pack[self.next:]
        extra = [c for c in (self.card, self.starter) if c is not None]
        return [card for cells in self.cells for card in (*cells.values(), *extra, *rest)]

    # -- the play -------------------------------------------------------------------------------

    def _turn_up(self) -> None:
        card = self.card = self.pack[self.next]
        self.next += 1
        self._views = [None] * self.players
        self.log.append(TurnedUp(None, card, self.next))
        if self.next == 1 and self.params.placement is Placement.ADJACENT:
            for seat in self._seats:
                self._lay(seat, ORIGIN)
            self._turn_up()

    def _lay(self, seat: int, position: Position) -> None:
        card = self.card
        assert card is not None
        self.cells[seat][position] = card
        self.order[seat].append((position, card))
        self._legal[seat] = self._cells[seat] = None
        self.log.append(_new_laid(seat, position, card))

    def _finish(self) -> None:
        self.card = None
        starter = self.starter = self.pack[self.next]
        self.next += 1
        self._views = [None] * self.players
        self.log.append(StarterTurned(None, starter))
        for seat in self._seats:
            score = score_layout(rows_of(self.cells[seat], self.params.placement), starter)
            self.scores.append(score)
            self.log.append(Scored(seat, tuple(h.total for h in score.rows),
                                   tuple(h.total for h in score.columns), score.total))
        totals = tuple(s.total for s in self.scores)
        best = max(totals)
        self.log.append(GameOver(None, totals, tuple(s for s in self._seats
                                                     if totals[s] == best)))

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The game about to be played and the first card (laid already in the standard game)."""
        names = [f"seat {s}" for s in self._seats]
        lines = narration.opening(self.params, self.players)
        for event in self.log:
            lines += narration.describe(event, names) or []
        return lines

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for an event, at most 80 columns wide."""
        lines = narration.describe(event, names)
        if isinstance(event, Scored) and self.scores:
            lines = narration.square(self.scores[event.seat]) + (lines or [])
        return lines if lines is not None else super().narrate(event, names)


def _summary(score: LayoutScore) -> dict[str, Any]:
    """A scored square as plain JSON: its rows of card codes, line scores and total."""
    return {
        "layout": [[str(card) for card in row.cards] for row in score.rows],
        "rows": [h.total for h in score.rows],
        "columns": [h.total for h in score.columns],
        "total": score.total,
    }
