"""Playing cards: ranks, suits, colours, decks, and the short text form ('10H', 'QS', 'JK')."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from arena.errors import ArenaError


class Colour(enum.Enum):
    """The colour of a card's face."""

    RED = "red"
    BLACK = "black"

    # an Enum hashes its member's name in Python, and bots group cards by colour and suit
    # millions of times a game; a member is its only equal, so its identity hashes it as well
    __hash__ = object.__hash__


class Suit(enum.Enum):
    """A French suit; the value is its one-letter code."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    __hash__ = object.__hash__  # as Colour's

    @property
    def colour(self) -> Colour:
        """Red for hearts and diamonds, black for clubs and spades."""
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def symbol(self) -> str:
        """The suit's pip symbol."""
        return _SYMBOLS[self]


_SUIT_NUMBERS = {None: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3, Suit.SPADES: 4}
_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """A card rank; aces are low (1) and the joker stands apart (0)."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        """The rank's code in the short text form ('A', '2'..'10', 'J', 'Q', 'K', 'JK')."""
        return _RANK_CODES[self]


_RANK_CODES = {r: str(int(r)) for r in Rank}
_RANK_CODES.update({Rank.JOKER: "JK", Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q",
                    Rank.KING: "K"})
_CODE_RANKS = {code: rank for rank, code in _RANK_CODES.items()}


@dataclass(frozen=True, slots=True)
class Card:
    """A card face. Jokers have no suit; a pack's two jokers are told apart by colour."""

    rank: Rank
    suit: Suit | None = None
    joker_colour: Colour | None = None
    _hash: int = field(init=False, repr=False, compare=False)
    _colour: Colour | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise ValueError(f"a joker has no suit and every other card has one: {self!r}")
        # Cards are hashed constantly by memory bots; enum hashing is slow, so hash once.
        # Built from ints only, so equal cards hash alike in every process (str hashes are salted).
        suit = _SUIT_NUMBERS[self.suit]
        colour = 0 if self.joker_colour is None else 1 + (self.joker_colour is Colour.RED)
        object.__setattr__(self, "_hash", self.rank.value * 16 + suit * 4 + colour)
        face = self.joker_colour if self.suit is None else self.suit.colour
        object.__setattr__(self, "_colour", face)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return _card_by_code, (self._hash,)

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank is Rank.JOKER

    @property
    def colour(self) -> Colour | None:
        """The face colour; a joker's colour is its own (or None when unspecified)."""
        return self._colour

    def __str__(self) -> str:
        if self.suit is None:
            return "JK" if self.joker_colour is None else f"JK{self.joker_colour.value[0].upper()}"
        return f"{self.rank.code}{self.suit.value}"

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. '10♥' or 'JK'."""
        if self.suit is None:
            return str(self)
        return f"{self.rank.code}{self.suit.symbol}"


class CardParseError(ArenaError):
    """A text that is not a card."""


def parse_card(text: str) -> Card:
    """Read a card from its short form: '10H', 'qs', 'AD', 'JK' (joker), 'JKR'/'JKB' (coloured)."""
    code = text.strip().upper()
    if code in ("JK", "JKR", "JKB"):
        colour = {"JK": None, "JKR": Colour.RED, "JKB": Colour.BLACK}[code]
        return Card(Rank.JOKER, None, colour)
    rank = _CODE_RANKS.get(code[:-1])
    try:
        suit = Suit(code[-1:])
    except ValueError:
        suit = None
    if rank is None or suit is None or rank is Rank.JOKER:
        raise CardParseError(f"not a card: {text!r} (expected e.g. '10H', 'QS', 'AD', 'JK')")
    return Card(rank, suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas: '10H QS JK'."""
    return tuple(parse_card(part) for part in text.replace(",", " ").split())


def standard_deck(jokers: bool = False) -> list[Card]:
    """A new 52-card pack in suit-then-rank order, plus a red and a black joker if asked."""
    return list(_PACK_WITH_JOKERS if jokers else _PACK)


def _card_by_code(code: int) -> Card:
    """The card whose hash is `code` (how cards travel in pickles: one small int)."""
    return _BY_CODE[code]


_PACK = tuple(Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER)
_PACK_WITH_JOKERS = (*_PACK, Card(Rank.JOKER, None, Colour.RED),
                     Card(Rank.JOKER, None, Colour.BLACK))
_BY_CODE = {card._hash: card for card in _PACK_WITH_JOKERS} | {
    Card(Rank.JOKER)._hash: Card(Rank.JOKER)}
