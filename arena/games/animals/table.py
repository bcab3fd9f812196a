"""What players see at an Animals table: the actions, the events and the view."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card

QUIET = "quiet"
"""The action of a player who says nothing after a card is faced."""

CALL = "call"


def call(seat: int) -> tuple[str, int]:
    """The action that calls the animal of the player in `seat`: `("call", seat)`."""
    return (CALL, seat)


def partners(tops: Sequence[Card | None], seat: int,
             places: Sequence[int | None] | None = None) -> tuple[int, ...]:
    """The other players whose top card has the rank of `seat`'s top card (players still in)."""
    mine = tops[seat]
    if mine is None:
        return ()
    rank = mine.rank
    return tuple(s for s, top in enumerate(tops)
                 if s != seat and top is not None and top.rank == rank
                 and (places is None or places[s] is None))


class Verdict(enum.Enum):
    """How a call turned out."""

    WON = "won"  # a right call heard first: it takes the named player's up-pile
    BEATEN = "beaten"  # a right call, but another right call was heard first
    WRONG = "wrong"  # the caller's top card does not match the named player's: a penalty


class Source(enum.Enum):
    """Where a penalty card comes from."""

    PILE = "pile"  # the top of the payer's up-pile
    PACK = "pack"  # the top of the payer's face-down pack (the up-pile was empty)


class End(enum.Enum):
    """Why the game ended."""

    ALL_CARDS = "all-cards"  # one player holds every card
    LIMIT = "limit"  # the length limit was reached


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """`seat` dealt the pack out one at a time from its left; `cards` holds each pack's size."""

    animals: tuple[str, ...]
    cards: tuple[int, ...]

    kind: ClassVar[str] = "dealt"


@dataclass(frozen=True, slots=True)
class TurnedOver(Event):
    """`seat`'s pack ran out: it turned its up-pile of `count` cards over as a new pack."""

    count: int

    kind: ClassVar[str] = "turned-over"


@dataclass(frozen=True, slots=True)
class Faced(Event):
    """`seat` faced `card` onto its up-pile; `number` counts the cards faced in the game."""

    number: int
    card: Card

    kind: ClassVar[str] = "faced"


@dataclass(frozen=True, slots=True)
class Called(Event):
    """`seat` called the animal of `named`, with this `verdict`."""

    named: int
    verdict: Verdict

    kind: ClassVar[str] = "called"


@dataclass(frozen=True, slots=True)
class Took(Event):
    """`seat` won the race and put `loser`'s up-pile of `count` cards under its own."""

    loser: int
    count: int

    kind: ClassVar[str] = "took"


@dataclass(frozen=True, slots=True)
class Paid(Event):
    """`seat` called wrongly and paid one card, from `source`, face up under `to`'s up-pile."""

    to: int
    source: Source

    kind: ClassVar[str] = "paid"


@dataclass(frozen=True, slots=True)
class Left(Event):
    """`seat` has no cards left and leaves the game in this finishing `place`."""

    place: int

    kind: ClassVar[str] = "left"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over (`end` says why); `cards` held by seat; `winners` hold the most."""

    end: End
    cards: tuple[int, ...]
    winners: tuple[int, ...]

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class AnimalsView:
    """What every seat sees now (the same for all): the top card of each up-pile and counts.

    `tops` by seat (None for an empty up-pile); `piles` and `packs` are the sizes of each
    seat's up-pile and face-down pack; `places` is None for a player still in, else the
    finishing place it left in. `facer` just faced the card `tops[facer]`; `faces` counts
    the cards faced so far and `limit` is the most the game allows.
    """

    players: int
    dealer: int
    animals: tuple[str, ...]
    tops: tuple[Card | None, ...]
    piles: tuple[int, ...]
    packs: tuple[int, ...]
    places: tuple[int | None, ...]
    facer: int
    faces: int
    limit: int
