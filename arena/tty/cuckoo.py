"""Cuckoo at a terminal: your card, the turns so far, 's' to stand, 'c' to change."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.api import Action, Event
from arena.games.cuckoo import narration
from arena.games.cuckoo.table import CardDealt, CuckooView, Phase, Received, Say, Turn
from arena.games.cuckoo.variants import CuckooParams
from arena.tty.generic import wrap
from arena.tty.interface import HumanInterface

_DID = {Turn.STOOD: "stood", Turn.CHANGED: "changed", Turn.REFUSED: "was refused (king)",
        Turn.KING: "showed a king", Turn.DREW: "drew"}
_ALIASES = {"keep": "stand", "k": "stand", "swap": "change", "exchange": "change"}


class CuckooInterface(HumanInterface):
    """Your card (king high, ace low), the order of turns and what each did, the chips."""

    def opening(self) -> list[str]:
        """Seats, chips each, the deal limit."""
        params = self.params
        if not isinstance(params, CuckooParams):
            return []
        return narration.opening(params, self.players, params.deal_limit(self.players))

    def describe(self, event: Event, seat: int) -> list[str]:
        """Your own card as dealt and received; the table's events as everyone sees them."""
        if isinstance(event, CardDealt):
            return [f"You are dealt {event.card}."] if event.seat == seat else []
        if isinstance(event, Received):
            if event.seat != seat:
                return []
            source = ("from the pack" if event.giver is None
                      else f"from {self.name(event.giver)}")
            return [f"You receive {event.card} {source}."]
        lines = narration.describe(event, self.names)
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: CuckooView, seat: int) -> list[str]:
        """The deal, your card, the turns so far, kings shown, chips."""
        lines = [f"Deal {view.deal + 1} (at most {view.deal_limit}), dealer "
                 f"{self.name(view.dealer)}"]
        if view.phase is Phase.PLAY:
            lines.append(f"  Your card: {view.card if view.card else '- (you are out)'}")
            order = ", ".join(self.name(s) for s in view.order)
            lines += wrap(f"Order of turns: {order}", indent="  ")
            done = "; ".join(f"{self.name(s)} {_DID[t]}" for s, t in view.turns)
            lines += wrap(f"So far: {done or 'nobody has had a turn'}", indent="  ")
            if view.kings:
                kings = ", ".join(f"{self.name(s)} {c}" for s, c in view.kings)
                lines += wrap(f"Kings shown: {kings}", indent="  ")
        elif view.shown:
            shown = ", ".join(f"{self.name(s)} {c}" for s, c in enumerate(view.shown)
                              if c is not None)
            lines += wrap(f"Last showdown: {shown}", indent="  ")
        chips = ", ".join(f"{self.name(s)} {c}" for s, c in enumerate(view.chips) if c)
        lines += wrap(f"Chips: {chips}", indent="  ")
        return lines

    def task(self, view: CuckooView, legal: Sequence[Action]) -> str:
        """Stand or change (the dealer: stand or draw)."""
        if Say.DRAW in legal:
            return "stand (s) or draw from the pack (d)?"
        if Say.CHANGE in legal:
            return "stand (s) or change with your left neighbour (c)?"
        return "your move"

    def listed(self, legal: Sequence[Action]) -> list[str]:
        """The prompt says it all."""
        return [] if len(legal) == 2 else super().listed(legal)

    def hint(self, legal: Sequence[Action]) -> str:
        """The short answers."""
        if len(legal) == 2:
            words = [self.action_text(a) for a in legal]
            return " or ".join(f"{w[0]} ({w})" for w in words) + ", ? for help"
        return super().hint(legal)

    def aliases(self) -> Mapping[str, str]:
        """keep / k for stand, swap / exchange for change."""
        return _ALIASES

    def syntax(self) -> list[str]:
        """The short answers."""
        return wrap("s or stand keeps your card; c or change swaps it with the next player "
                    "still in; the dealer may d(raw) from the pack instead.")
