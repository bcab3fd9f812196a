"""Memorandum at a terminal: your hand told once at the deal, 'm'/'p' for each called card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.api import Action, Event
from arena.cards import Card
from arena.games.memorandum import narration
from arena.games.memorandum.table import Called, HandDealt, MemorandumView, Phase, Say
from arena.games.memorandum.variants import MemorandumParams
from arena.tty.generic import wrap
from arena.tty.interface import HumanInterface

_ALIASES = {"m": "mine", "y": "mine", "yes": "mine", "mine": "mine", "p": "pass", "n": "pass",
            "no": "pass", "pass": "pass", "d": "deal", "deal": "deal"}


def sorted_hand(cards: Sequence[Card]) -> list[Card]:
    """A hand in suit order, then rank (jokers last): easier for a person to take in."""
    return sorted(cards, key=lambda c: (c.suit is None, c.suit.value if c.suit else "",
                                        c.rank))


class MemorandumInterface(HumanInterface):
    """Your hand is shown once, when it is dealt, and never again (as the bots get it); each
    called card asks "Mine!" (m) or pass (p)."""

    def opening(self) -> list[str]:
        """The packs, the deals, the hand size."""
        params = self.params
        if not isinstance(params, MemorandumParams):
            return []
        return narration.opening(params, self.players, params.hand_size(self.players))

    def describe(self, event: Event, seat: int) -> list[str]:
        """Your hand once, then each call's outcome and the scoring as the table sees it."""
        if isinstance(event, HandDealt):
            if event.seat != seat:
                return []
            return [*wrap(f"Your hand: {' '.join(map(str, sorted_hand(event.cards)))}"),
                    "  (shown only now: remember it; it is not shown again)"]
        if isinstance(event, Called):
            return []  # the called card is drawn with the table
        lines = narration.describe(event, self.names, self.players)
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: MemorandumView, seat: int) -> list[str]:
        """The deal, the called card, the cards given out and the two piles, the totals."""
        totals = ", ".join(f"{self.name(s)} {t}" for s, t in enumerate(view.totals))
        lines = wrap(f"Deal {view.deal + 1} of {view.deals}, dealer {self.name(view.dealer)}"
                     f" | totals: {totals}")
        if view.phase is Phase.DEAL:
            return lines
        given = "; ".join(f"{self.name(s)}: {' '.join(map(str, cards))}"
                          for s, cards in enumerate(view.received) if cards)
        lines += wrap(f"Handed out this deal: {given or 'nothing yet'}", indent="  ")
        lines += wrap(f"Unclaimed pile: {' '.join(map(str, view.unclaimed)) or '-'}",
                      indent="  ")
        lines += wrap(f"Dispute pile: {' '.join(map(str, view.disputed)) or '-'}", indent="  ")
        if view.called is not None:
            lines.append(f"Card {view.number} of {view.pack_size} called: {view.called}")
        return lines

    def task(self, view: MemorandumView, legal: Sequence[Action]) -> str:
        """Is the called card yours?"""
        if view.called is not None and Say.MINE in legal:
            return f"{view.called}: Mine! (m) or pass (p)?"
        return "your move"

    def listed(self, legal: Sequence[Action]) -> list[str]:
        """The prompt says it all."""
        return [] if Say.MINE in legal else super().listed(legal)

    def hint(self, legal: Sequence[Action]) -> str:
        """The short answers."""
        if Say.MINE in legal:
            return "type m for \"Mine!\" or p to pass, ? for help"
        return super().hint(legal)

    def aliases(self) -> Mapping[str, str]:
        """m / y / yes for "Mine!", p / n / no for pass."""
        return _ALIASES

    def syntax(self) -> list[str]:
        """The short answers."""
        return ["m, y or mine says \"Mine!\"; p, n or pass keeps quiet."]
