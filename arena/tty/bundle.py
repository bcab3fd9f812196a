"""Stealing the Old Man's Bundle at a terminal: the table, the bundles' top cards, your hand;
a card code picks the move that plays it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import CardParseError, parse_card
from arena.games.old_mans_bundle import narration
from arena.games.old_mans_bundle.actions import Verb, read
from arena.games.old_mans_bundle.table import BundleView, HandDealt
from arena.games.old_mans_bundle.variants import BundleParams
from arena.tty.generic import wrap
from arena.tty.interface import BadInput, HumanInterface, normalise


class BundleInterface(HumanInterface):
    """Type a card from your hand ('7h') to play it; if it could take, steal or trail, say which
    ('steal 7h', 'trail 7h')."""

    def opening(self) -> list[str]:
        """What a card takes, where leftovers go."""
        params = self.params
        return narration.opening(params) if isinstance(params, BundleParams) else []

    def describe(self, event: Event, seat: int) -> list[str]:
        """Your new hand each round; the table's events as everyone sees them."""
        if isinstance(event, HandDealt):
            if event.seat != seat:
                return []
            return wrap(f"Round {event.round}: your hand is {' '.join(map(str, event.cards))}")
        lines = narration.describe(event, self.names)
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: BundleView, seat: int) -> list[str]:
        """Round, stock, the table, each bundle's size and top card, your hand."""
        bundles = "; ".join(f"{self.name(s)} {n} card{'s' if n != 1 else ''}"
                            + (f", {view.tops[s]} on top" if view.tops[s] else "")
                            for s, n in enumerate(view.bundles))
        return [f"Round {view.round} of {view.rounds} | stock {view.stock}",
                *wrap(f"Table: {' '.join(map(str, view.table)) or '(empty)'}", indent="  "),
                *wrap(f"Bundles: {bundles}", indent="  "),
                *wrap(f"Your hand: {' '.join(map(str, view.hand))}", indent="  ")]

    def action_text(self, action: Action) -> str:
        """'steal with 7H', 'take with 7H', 'take 7C with 7H', 'trail 7H'."""
        move = read(action)
        if move.verb is Verb.TRAIL:
            return f"trail {move.card}"
        if move.target is not None:
            return f"take {move.target} with {move.card}"
        return f"{move.verb.value} with {move.card}"

    def task(self, view: BundleView, legal: Sequence[Action]) -> str:
        """Play a card."""
        return "play a card"

    def syntax(self) -> list[str]:
        """Cards by code."""
        return wrap("Type a card from your hand (7h, 10s, qd) to play it; when it could do "
                    "more than one thing, add the word: steal 7h, take 7h, trail 7h.")

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """A card code picks the moves playing that card; several: ask which."""
        words = normalise(text)
        if " " in words or not words or words.isdigit():
            return self.pick(text, legal)
        try:
            card = parse_card(words)
        except CardParseError:
            return self.pick(text, legal)
        found = [a for a in legal if read(a).card == card]
        if len(found) == 1:
            return found[0]
        if not found:
            raise BadInput(f"you do not hold {card}")
        options = ", ".join(repr(self.action_text(a)) for a in found)
        raise BadInput(f"{card} can do more than one thing: type {options} (or its number)")
