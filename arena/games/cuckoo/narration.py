"""Spectator narration of Cuckoo for `arena play --show`: public events only, 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from arena.api import Event
from arena.cards import Rank
from arena.games.common import fit
from arena.games.cuckoo.table import (
    CardDealt,
    Changed,
    DealStarted,
    Drew,
    End,
    GameOver,
    KingShown,
    Received,
    Showdown,
    Stood,
)
from arena.games.cuckoo.variants import CuckooParams


def opening(params: CuckooParams, seats: int, limit: int) -> list[str]:
    """What the game will be: seats, chips each, and when it stops at the latest."""
    bound = (f"stopping after deal {limit} at the latest" if params.max_deals
             else f"which ends within {limit} deals")
    return fit(f"Cuckoo: {seats} players with {params.chips} chip"
               f"{'s' if params.chips != 1 else ''} each, one card each deal (king high, ace "
               f"low); the lowest card pays a chip; the last player left wins, {bound}",
               indent="")


def describe(event: Event, names: Sequence[str]) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    if isinstance(event, CardDealt | Received):
        return []  # cards stay hidden until the showdown
    if isinstance(event, DealStarted):
        chips = ", ".join(f"{names[s]} {event.chips[s]}" for s in event.order)
        return ["", *fit(f"Deal {event.deal + 1}: {names[event.seat or 0]} deals one card "
                         f"each (chips: {chips})", indent="")]
    if isinstance(event, Stood):
        return fit(f"{names[event.seat or 0]} stands")
    if isinstance(event, Changed):
        return fit(f"{names[event.seat or 0]} changes with {names[event.neighbour]}")
    if isinstance(event, KingShown):
        return fit(f"{names[event.asker]} asks {names[event.seat or 0]} to change: "
                   f"{names[event.seat or 0]} shows {event.card} and keeps it")
    if isinstance(event, Drew):
        return fit(f"{names[event.seat or 0]} (dealer) draws from the rest of the pack")
    if isinstance(event, Showdown):
        return _showdown(event, names)
    if isinstance(event, GameOver):
        return _game_over(event, names)
    return None


def _showdown(event: Showdown, names: Sequence[str]) -> list[str]:
    held = ", ".join(f"{names[s]} {c}" for s, c in enumerate(event.cards) if c is not None)
    lines = fit(f"Shown: {held}")
    who = ", ".join(f"{names[s]} ({event.chips[s]} left)" for s in event.payers)
    if event.dealer_king:
        lines += fit(f"The dealer drew a king and pays alone: {who}")
    else:
        lines += fit(f"Lowest {_rank(event.low)}: {who} pay{'s' if len(event.payers) == 1 else ''}")
    if event.dropped:
        lines += fit(f"Out: {', '.join(names[s] for s in event.dropped)}")
    return lines


def _game_over(event: GameOver, names: Sequence[str]) -> list[str]:
    who = ", ".join(names[s] for s in event.winners)
    if event.end is End.SURVIVOR:
        text = f"Game over after {event.deals} deals: {who} is the last player left and wins"
    elif event.end is End.ALL_OUT:
        text = (f"Game over after {event.deals} deals: the last players dropped out together; "
                f"{who} share the win")
    else:
        verb = "wins" if len(event.winners) == 1 else "share the win"
        text = f"Game over: the deal limit ({event.deals}) is reached; {who} {verb} on chips"
    return ["", *fit(text, indent="")]


def _rank(value: int) -> str:
    return Rank(value).code
