"""Spectator narration of Stealing the Old Man's Bundle: public events only, 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from arena.api import Event
from arena.cards import Card
from arena.games.common import fit
from arena.games.old_mans_bundle.table import (
    Dealt,
    GameOver,
    HandDealt,
    Stole,
    TableLeft,
    Took,
    Trailed,
)
from arena.games.old_mans_bundle.variants import BundleParams, Leftover, TakeRule


def cards_text(cards: Sequence[Card]) -> str:
    """Cards in short form, space separated ('-' for none)."""
    return " ".join(map(str, cards)) or "-"


def opening(params: BundleParams, table: Sequence[Card] = ()) -> list[str]:
    """What the game will be, and the table as dealt."""
    takes = "every table card of its rank" if params.take is TakeRule.ALL else "one table card"
    left = ("go to the last player to take in" if params.leftover is Leftover.LAST_TAKER
            else "count for nobody")
    lines = fit(f"Stealing the Old Man's Bundle: four cards each, six rounds; a card takes "
                f"{takes}; cards left on the table at the end {left}", indent="")
    if table:
        lines += fit(f"Round 1: the table is {cards_text(table)}", indent="")
    return lines


def describe(event: Event, names: Sequence[str]) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    who = names[event.seat] if event.seat is not None else "nobody"
    if isinstance(event, HandDealt):
        return []
    if isinstance(event, Dealt):
        table = f"; the table is {cards_text(event.table)}" if event.table else ""
        return fit(f"Round {event.round}: four cards each ({event.stock} left to deal){table}",
                   indent="")
    if isinstance(event, Took):
        return fit(f"{who} takes in {cards_text(event.taken)} with {event.card} "
                   f"(bundle {event.bundle})")
    if isinstance(event, Stole):
        return fit(f"{who} steals {names[event.victim]}'s bundle of {event.count} "
                   f"(top {event.top}) with {event.card} (bundle {event.bundle})")
    if isinstance(event, Trailed):
        return fit(f"{who} trails {event.card}")
    if isinstance(event, TableLeft):
        where = f"go to {who}" if event.seat is not None else "count for nobody"
        return fit(f"Left on the table: {cards_text(event.cards)}; they {where}", indent="")
    if isinstance(event, GameOver):
        sizes = ", ".join(f"{n} {b}" for n, b in zip(names, event.bundles, strict=True))
        verb = "wins" if len(event.winners) == 1 else "tie"
        winners = " and ".join(names[s] for s in event.winners)
        return ["", *fit(f"Game over: bundles {sizes}; {winners} {verb}", indent="")]
    return None
