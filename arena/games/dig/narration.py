"""Spectator narration of Dig: public events only, 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from arena.api import Event
from arena.games.common import fit
from arena.games.dig.matching import RANK_NAMES, SUIT_NAMES
from arena.games.dig.table import (
    Drew,
    Dug,
    End,
    GameOver,
    HandDealt,
    Named,
    Passed,
    Played,
    Reshuffled,
    Started,
)
from arena.games.dig.variants import DigParams, Naming, StockOut


def opening(params: DigParams, started: Started | None) -> list[str]:
    """What the game will be, and the upcard."""
    naming = "a suit or a rank" if params.naming is Naming.SUIT_OR_RANK else "a suit"
    out = ("a player who cannot play passes" if params.stock_out is StockOut.PASS
           else "the pile is shuffled into a new stock")
    lines = fit(f"Dig: seven cards each; eights are wild and name {naming}; when the stock "
                f"is out, {out}", indent="")
    if started is not None:
        lines += fit(f"The upcard is {started.upcard} ({started.stock} cards in the stock)",
                     indent="")
    return lines


def plural(word: str) -> str:
    """'sixes', 'sevens'."""
    return word + ("es" if word.endswith("x") else "s")


def describe(event: Event, names: Sequence[str]) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    who = names[event.seat] if event.seat is not None else "the table"
    if isinstance(event, HandDealt | Drew | Started):
        return []
    if isinstance(event, Played):
        return fit(f"{who} plays {event.card} ({event.left} left)")
    if isinstance(event, Named):
        named = (f"{SUIT_NAMES[event.suit]}s" if event.suit is not None
                 else plural(RANK_NAMES[event.rank]) if event.rank is not None else "?")
        return fit(f"{who} names {named}")
    if isinstance(event, Dug):
        return fit(f"{who} digs {event.count} card{'s' if event.count != 1 else ''} "
                   f"({event.stock} left in the stock)")
    if isinstance(event, Reshuffled):
        return fit(f"the pile is shuffled into a new stock of {event.count}")
    if isinstance(event, Passed):
        return fit(f"{who} cannot play and passes")
    if isinstance(event, GameOver):
        left = ", ".join(f"{n} {h}" for n, h in zip(names, event.hands, strict=True))
        why = {End.OUT: "a player went out", End.BLOCKED: "blocked",
               End.TURN_LIMIT: "turn limit"}[event.reason]
        verb = ("tie" if len(event.winners) > 1
                else f"{names[event.winners[0]]} wins")
        return ["", *fit(f"Game over ({why}): cards left {left}; {verb}", indent="")]
    return None
