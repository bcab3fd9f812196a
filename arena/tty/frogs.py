"""Frogs in the Pond at a terminal: the trick, your hand and frogs; a card code plays it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card, CardParseError, parse_card
from arena.games.frogs_in_the_pond import narration
from arena.games.frogs_in_the_pond.table import FrogSeen, FrogsView, HandDealt, Phase
from arena.games.frogs_in_the_pond.variants import FrogsParams
from arena.tty.generic import wrap
from arena.tty.interface import BadInput, HumanInterface, normalise


class FrogsInterface(HumanInterface):
    """Type a card ('7h') to play it; you must follow the suit led if you can."""

    def _sides(self) -> tuple[tuple[int, ...], ...]:
        params = self.params
        if isinstance(params, FrogsParams):
            return params.sides(self.players)
        return tuple((s,) for s in range(self.players))

    def name(self, seat: int | None) -> str:
        """'seat 2 (partner)' for your partner in the partnership game."""
        text = super().name(seat)
        if seat is not None and seat != self.seat and any(
                seat in side and self.seat in side for side in self._sides()):
            text += " (partner)"
        return text

    def opening(self) -> list[str]:
        """Sides and target."""
        sides = self._sides()
        params = self.params
        target = params.target if isinstance(params, FrogsParams) else 100
        who = (" and ".join("+".join(f"seat {s}" for s in side) for side in sides)
               if len(sides) < self.players else "each for themselves")
        return wrap(f"Sides: {who}. First to {target} points wins. Tens 10, fives 5, aces 4, "
                    "kings 3, queens 2, jacks 1; each trick's winner also takes a frog.")

    def describe(self, event: Event, seat: int) -> list[str]:
        """Your hand and frogs; tricks and scores as everyone sees them."""
        if isinstance(event, HandDealt):
            return wrap(f"Your hand: {' '.join(map(str, event.cards))}") if event.seat == seat \
                else []
        if isinstance(event, FrogSeen):
            return [f"Your frog: {event.card}"] if event.seat == seat else []
        lines = narration.describe(event, self.names, self._sides())
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: FrogsView, seat: int) -> list[str]:
        """Deal, totals, the trick so far, the last trick, your hand and frogs."""
        totals = ", ".join(f"{'+'.join(self.name(s) for s in side)} {view.totals[side[0]]}"
                           for side in view.sides)
        lines = wrap(f"Deal {view.deal + 1}, dealer {self.name(view.dealer)} | totals: "
                     f"{totals} (target {view.target})")
        if view.phase is not Phase.PLAY:
            return lines
        if view.last_trick and view.last_winner is not None:
            lines += wrap(f"Last trick: {_plays(view.last_trick, self)} -> "
                          f"{self.name(view.last_winner)}", indent="  ")
        trick = _plays(view.trick, self) if view.trick else "(you lead)"
        lines += wrap(f"Trick {view.number}: {trick}", indent="  ")
        won = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(view.tricks_won))
        lines += wrap(f"Tricks won: {won} | frogs left in the pond: {view.frogs_left}",
                      indent="  ")
        lines += wrap(f"Your frogs: {' '.join(map(str, view.frogs)) or '-'}", indent="  ")
        lines += wrap(f"Your hand: {' '.join(map(str, view.hand))}", indent="  ")
        return lines

    def action_text(self, action: Action) -> str:
        """'play 7H', or 'deal'."""
        return f"play {action}" if isinstance(action, Card) else super().action_text(action)

    def task(self, view: FrogsView, legal: Sequence[Action]) -> str:
        """Lead or follow."""
        return "lead a card" if not view.trick else "play a card"

    def syntax(self) -> list[str]:
        """Cards by code."""
        return wrap("Type a card by its code (7h, 10s, qd) or its number. Follow the suit led "
                    "if you can.")

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """A card code plays it, with a reason when it may not be played."""
        words = normalise(text)
        if not words or " " in words or words.isdigit():
            return self.pick(text, legal)
        try:
            card = parse_card(words)
        except CardParseError:
            return self.pick(text, legal)
        if card in legal:
            return card
        if isinstance(view, FrogsView):
            if card not in view.hand:
                raise BadInput(f"you do not hold {card}")
            if view.trick:
                led = view.trick[0][1]
                raise BadInput(f"you must follow suit: play a card of {led}'s suit")
        raise BadInput(f"{card} cannot be played now")


def _plays(plays: Sequence[tuple[int, Card]], ui: HumanInterface) -> str:
    return ", ".join(f"{ui.name(s)} {c}" for s, c in plays)
