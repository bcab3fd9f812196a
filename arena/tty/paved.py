"""Paved with Gold at a terminal: the 5 x 5 square as a grid, moves typed as 'b3', 'run',
'put back'."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.api import Action, Event, Reveal
from arena.cards import Card
from arena.games.paved_with_gold.actions import BONUS_TO, CLAIM, END, LOOK, PUT_BACK, TURN_UP
from arena.games.paved_with_gold.combos import BEST_FIRST, Combo
from arena.games.paved_with_gold.narration import position_name
from arena.games.paved_with_gold.table import (
    Announce,
    Bonus,
    EndClaim,
    Failed,
    GameOver,
    Look,
    PavedView,
    Phase,
    PutBack,
    Refill,
    Spot,
    Verdict,
    Won,
)
from arena.games.paved_with_gold.variants import SIDE
from arena.tty.generic import wrap
from arena.tty.interface import HumanInterface

CELL = 6
_SPOTS = {Spot.DOWN: "##", Spot.EMPTY: "..", Spot.HELD: "()"}
_TASKS = {Phase.LOOK: "look at a card (b3), claim a pair, or end",
          Phase.HOLD: "look at another card, claim a combination, or put back",
          Phase.TURN_UP: "turn up a card for your claim",
          Phase.BONUS_TO: "give the bonus cards to an opponent"}


class PavedInterface(HumanInterface):
    """The square: '##' face down, '()' picked up by the player to act, '..' empty, face-up
    cards as they lie; the cards you hold are shown with a '*'."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.looked: int | None = None  # where the last Look picked up a card

    def draw(self, view: PavedView, seat: int) -> list[str]:
        """Turn, claim, the square, your hand, stock, scores, the cards won."""
        held = dict(view.hand)
        lines = [f"Turn {view.turn + 1}: {self.name(view.to_act)} to act | stock {view.stock}"]
        if view.claim is not None:
            lines.append(f"  Claim: {view.claim.label} ({view.claim.size} cards, "
                         f"{view.claim.points} points)")
        lines.append("    " + "".join(f"{c + 1:>{CELL}}" for c in range(SIDE)))
        for r in range(SIDE):
            cells = (self._cell(view.cells[r * SIDE + c], held.get(r * SIDE + c))
                     for c in range(SIDE))
            lines.append(f"  {chr(ord('A') + r)} " + "".join(cells))
        if view.hand:
            lines += wrap("You hold: " + ", ".join(f"{c} from {position_name(p)}"
                                                   for p, c in view.hand), indent="  ")
        scores = ", ".join(f"{self.name(s)} {t}" + (f" ({p}+{b} bonus)" if b else "")
                           for s, (t, p, b) in enumerate(zip(view.scores, view.points,
                                                             view.bonus, strict=True)))
        lines += wrap(f"Scores: {scores}", indent="  ")
        if view.out:
            lines += wrap(f"Won so far (face up): {' '.join(map(str, view.out))}", indent="  ")
        return lines

    def _cell(self, cell: Card | Spot, mine: Card | None) -> str:
        if mine is not None:
            return self.style.bold(self.style.card(mine, CELL - 1)) + "*"
        if isinstance(cell, Spot):
            text = _SPOTS[cell].rjust(CELL)
            return self.style.dim(text) if cell is Spot.EMPTY else text
        return self.style.card(cell, CELL)

    def describe(self, event: Event, seat: int) -> list[str]:
        """Looks (and what you saw), claims, cards turned up, wins, bonuses, refills, the end."""
        who = self.name(event.seat)
        if isinstance(event, Look):
            self.looked = event.position
            return [f"{who} picks up {position_name(event.position)} and looks at it"]
        if isinstance(event, Reveal):
            if event.seat == seat and event.position == self.looked:
                self.looked = None
                return [f"  it is {event.card}"]
            return [f"  {who if event.seat is not None else 'turned up:'} "
                    f"{'turns up ' if event.seat is not None else ''}{event.card} at "
                    f"{position_name(event.position)}"]
        self.looked = None
        if isinstance(event, PutBack):
            return [f"  {who} puts back {_names(event.positions)}"]
        if isinstance(event, Announce):
            holding = (f", holding {_names(event.held)}" if event.held
                       else " before picking up")
            return [f"  {who} claims {event.combo.label}{holding}"]
        if isinstance(event, Won):
            return wrap(f"  {who} wins {' '.join(map(str, event.cards))}: {event.combo.label},"
                        f" {event.points} points")
        if isinstance(event, Failed):
            return wrap(f"  false claim: {' '.join(map(str, event.cards))} is not "
                        f"{event.combo.label}")
        if isinstance(event, Bonus):
            n = len(event.cards)
            return [f"  {who} gets {n} bonus card{'s' if n != 1 else ''}"]
        if isinstance(event, Refill):
            if not event.positions:
                return []
            return wrap(f"  refilled {_names(event.positions)} from the stock "
                        f"({event.stock} left)")
        if isinstance(event, EndClaim):
            return wrap(f"{who} claims that no combination remains among "
                        f"{len(event.positions)} cards")
        if isinstance(event, Verdict):
            if event.right:
                return ["  right: no combination among them"]
            combo = event.combo.label if event.combo else "a combination"
            return [f"  wrong: {_names(event.positions)} make {combo}"]
        if isinstance(event, GameOver):
            return [f"Game over ({event.reason.value})."]
        return super().describe(event, seat)

    def action_text(self, action: Action) -> str:
        """'look B3', 'claim pair', 'claim run', 'put back', 'turn up B3', 'bonus to seat 1',
        'end claim'."""
        assert isinstance(action, tuple)
        verb = action[0]
        if verb == LOOK:
            return f"look {position_name(action[1])}"
        if verb == CLAIM:
            return f"claim {action[1]}"
        if verb == PUT_BACK:
            return "put back"
        if verb == TURN_UP:
            return f"turn up {position_name(action[1])}"
        if verb == BONUS_TO:
            return f"bonus to {self.name(action[1])}"
        if verb == END:
            return "end claim"
        return super().action_text(action)

    def task(self, view: PavedView, legal: Sequence[Action]) -> str:
        """What this phase asks for."""
        return _TASKS.get(view.phase, "your move")

    def syntax(self) -> list[str]:
        """Places and combinations."""
        combos = ", ".join(f"{c.value} ({c.size} cards, {c.points})" for c in BEST_FIRST)
        return [*wrap("Name a place by row letter and column number (b3) to look at it or "
                      "turn it up; claim by the combination's name (pair, run, flush, "
                      "three-of-a-kind, prime, five-of-a-colour); 'put back' ends your turn; "
                      "'end' claims that no combination remains."),
                *wrap(f"Combinations: {combos}.")]

    def aliases(self) -> dict[str, str]:
        """Combination names alone claim them; 'back' puts back; 'end' claims the end."""
        out = {c.value.replace("-", " "): f"claim {c.value.replace('-', ' ')}" for c in Combo}
        out.update({"back": "put back", "end": "end claim", "pb": "put back"})
        return out


def _names(positions: Sequence[int]) -> str:
    return ", ".join(position_name(p) for p in positions)
