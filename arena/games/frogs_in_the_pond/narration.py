"""Spectator narration of Frogs in the Pond for `arena play --show`: public events, 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from arena.api import Event
from arena.cards import Card
from arena.games.common import fit
from arena.games.frogs_in_the_pond.table import (
    DealScored,
    DealShown,
    DealStarted,
    End,
    FrogSeen,
    FrogTaken,
    GameOver,
    HandDealt,
    Played,
    TrickWon,
)
from arena.games.frogs_in_the_pond.variants import FrogsParams

Sides = Sequence[Sequence[int]]


def opening(params: FrogsParams, seats: int, hand_size: int,
            removed: Sequence[Card]) -> list[str]:
    """What the game will be: the table, the sides, the deal, the target."""
    sides = params.sides(seats)
    paired = len(sides) < seats
    who = "two partnerships, seats 0 and 2 against 1 and 3" if paired else "each for themselves"
    first = "first side" if paired else "first player"
    out = f"; {_cards(removed)} out of play" if removed else ""
    tadpole = "; the tadpole (JS) counts -10" if params.tadpole else ""
    return fit(f"Frogs in the Pond: {seats} players, {who}; {hand_size} cards each and "
               f"{hand_size} frogs{out}{tadpole}; {first} to {params.target} points wins",
               indent="")


def describe(event: Event, names: Sequence[str], sides: Sides) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    if isinstance(event, HandDealt | FrogSeen | Played | FrogTaken):
        return []  # hands and frogs stay hidden; the plays are told with the trick
    if isinstance(event, TrickWon):
        seats = len(names)
        plays = ", ".join(f"{names[(event.leader + i) % seats]} {card}"
                          for i, card in enumerate(event.cards))
        return fit(f"{event.number:>2}. {plays} -> {names[event.seat or 0]} "
                   f"({event.points:+d} and a frog)", indent="  ")
    if isinstance(event, DealStarted):
        return ["", *fit(f"Deal {event.deal + 1}: {names[event.seat or 0]} deals "
                         f"{event.hand_size} cards each and {event.hand_size} frogs; "
                         f"{names[event.leader]} leads", indent="")]
    if isinstance(event, DealShown):
        lines = ["End of the deal: the frogs are shown"]
        for seat, frogs in enumerate(event.frogs):
            if frogs:
                lines += fit(f"{names[seat]}: {_cards(frogs)}")
        return lines
    if isinstance(event, DealScored):
        points = ", ".join(f"{n} {p}" for n, p in zip(names, event.points, strict=True))
        return [*fit(f"points: {points}"), *fit(f"totals: {_totals(event.totals, names, sides)}")]
    if isinstance(event, GameOver):
        won = [side for side in sides if side[0] in event.winners]
        who = " and ".join("+".join(names[s] for s in side) for side in won)
        verb = "wins" if len(won) == 1 else "share the win"
        why = " (deal limit)" if event.reason is End.DEAL_LIMIT else ""
        return ["", *fit(f"Game over{why}: {who} {verb} with "
                         f"{event.totals[event.winners[0]]}", indent="")]
    return None


def _totals(totals: Sequence[int], names: Sequence[str], sides: Sides) -> str:
    return ", ".join(f"{'+'.join(names[s] for s in side)} {totals[side[0]]}" for side in sides)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))
