"""Dig at a terminal: the pile's top card and what it asks for, your hand, a card to play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import CardParseError, Rank, Suit, parse_card
from arena.games.dig import narration
from arena.games.dig.actions import NAME, PLAY
from arena.games.dig.matching import RANK_NAMES, SUIT_NAMES
from arena.games.dig.table import DigView, Drew, HandDealt, Phase, Started
from arena.games.dig.variants import DigParams
from arena.tty.generic import wrap
from arena.tty.interface import BadInput, HumanInterface, normalise

_SUIT_WORDS = {w: s for s in Suit for w in (s.value.lower(), SUIT_NAMES[s], SUIT_NAMES[s] + "s")}
_RANK_WORDS = {w: r for r in RANK_NAMES for w in (r.code.lower(), RANK_NAMES[r],
                                                    narration.plural(RANK_NAMES[r]))}
_RANK_WORDS["1"] = Rank.ACE


def asked(view: DigView) -> str:
    """What the next card must be: 'a spade or an ace', 'a queen'."""
    parts = []
    if view.suit is not None:
        parts.append(f"a {SUIT_NAMES[view.suit]}")
    if view.rank is not None:
        word = RANK_NAMES[view.rank]
        parts.append(f"{'an' if word[0] in 'aeiou' else 'a'} {word}")
    return " or ".join(parts) or "any card"


class DigInterface(HumanInterface):
    """Play a card by its code ('7h'); after an eight, name a suit ('spades', 's') or a rank
    ('queens', '7')."""

    def opening(self) -> list[str]:
        """Eights, naming, what happens when the stock is out."""
        params = self.params
        return narration.opening(params, None) if isinstance(params, DigParams) else []

    def describe(self, event: Event, seat: int) -> list[str]:
        """Your hand and your digs; the table's events as everyone sees them."""
        if isinstance(event, HandDealt):
            return wrap(f"Your hand: {' '.join(map(str, event.cards))}") if event.seat == seat \
                else []
        if isinstance(event, Drew):
            return wrap(f"You dig {' '.join(map(str, event.cards))}") if event.seat == seat \
                else []
        if isinstance(event, Started):
            return wrap(f"{self.name(event.seat)} deals seven cards each and turns up "
                        f"{event.upcard} ({event.stock} cards in the stock).")
        lines = narration.describe(event, self.names)
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: DigView, seat: int) -> list[str]:
        """The pile, what it asks for, the counts, your hand."""
        target = asked(view)
        counts = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(view.hands))
        return [f"Pile: {view.top} on top ({view.pile} cards); next: {target} (or an eight)",
                *wrap(f"Cards in hand: {counts} | stock {view.stock}", indent="  "),
                *wrap(f"Your hand: {' '.join(map(str, view.hand))}", indent="  ")]

    def action_text(self, action: Action) -> str:
        """'play 7H', 'name spades', 'name queens'."""
        assert isinstance(action, tuple)
        verb, code = action
        if verb == PLAY:
            return f"play {code}"
        if code in {s.value for s in Suit}:
            return f"name {SUIT_NAMES[Suit(code)]}s"
        rank = next(r for r in RANK_NAMES if r.code == code)
        return f"name {narration.plural(RANK_NAMES[rank])}"

    def task(self, view: DigView, legal: Sequence[Action]) -> str:
        """Play, or name."""
        if view.phase is Phase.NAME:
            ranks = len(legal) > len(Suit)
            return "name a suit" + (" or a rank" if ranks else "") + " for the next card"
        return "play a card"

    def listed(self, legal: Sequence[Action]) -> list[str]:
        """Plays are numbered; namings are typed as words."""
        if legal and legal[0][0] == NAME:  # type: ignore[index]
            return wrap("Name: spades, hearts, diamonds, clubs" +
                        (", or a rank: aces, 2 .. 10, jacks, queens, kings"
                         if len(legal) > len(Suit) else ""), indent="  ")
        return super().listed(legal)

    def syntax(self) -> list[str]:
        """Cards by code; namings by word."""
        return wrap("Play a card by its code: 7h, 10s, qd (or its number, or 'play 7h'). "
                    "After an eight, name a suit (spades or s, hearts or h, ...) or a rank "
                    "(aces or a, 2 to 10, jacks or j, queens, kings or k; q leaves the game, so "
                    "type queens in full).")

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """A card code to play; a suit or rank word to name; else the generic reading."""
        words = normalise(text)
        if legal and legal[0][0] == NAME:  # type: ignore[index]
            return self._naming(words, text, legal)
        if " " not in words and words and not words.isdigit():
            try:
                card = parse_card(words)
            except CardParseError:
                return self.pick(text, legal)
            action = (PLAY, str(card))
            if action in legal:
                return action
            if isinstance(view, DigView) and card not in view.hand:
                raise BadInput(f"you do not hold {card}")
            wanted = asked(view) if isinstance(view, DigView) else "what the pile asks for"
            raise BadInput(f"{card} cannot be played: the next card must be {wanted} "
                           f"(or an eight)")
        return self.pick(text, legal)

    def _naming(self, words: str, text: str, legal: Sequence[Action]) -> Action:
        word = words.removeprefix("name ").strip()
        choice: Suit | Rank | None = _SUIT_WORDS.get(word) or _RANK_WORDS.get(word)
        if choice is None:
            raise BadInput(f"{text.strip()!r} is not a suit or a rank: type e.g. spades, s, "
                           f"queens, 7")
        action = (NAME, choice.value if isinstance(choice, Suit) else choice.code)
        if action not in legal:
            raise BadInput("you may name a suit only" if isinstance(choice, Rank)
                           and choice is not Rank.EIGHT else "eights cannot be named")
        return action
