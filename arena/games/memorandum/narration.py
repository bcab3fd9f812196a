"""Spectator narration of Memorandum for `arena play --show`: public events only, 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from arena.api import Event
from arena.cards import Card
from arena.games.common import fit
from arena.games.memorandum.table import (
    Called,
    DealScored,
    DealStarted,
    GameOver,
    HandDealt,
    HandsShown,
    Pile,
    Resolved,
    Returned,
)
from arena.games.memorandum.variants import MemorandumParams, Pack

_KINDS = {Pack.FULL: "", Pack.SHORT: " (ace to ten)", Pack.JOKERS: " (with two jokers)"}
_WHERE = {Pile.TAKEN: "", Pile.UNCLAIMED: "unclaimed pile", Pile.DISPUTED: "dispute pile"}


def opening(params: MemorandumParams, seats: int, hand_size: int) -> list[str]:
    """What the game will be: the packs, one deal per seat, the hand size and `p`."""
    return fit(f"Memorandum: two {params.pack_size}-card packs{_KINDS[params.pack]}; "
               f"{seats} deals, each seat dealing once in turn; hands of {hand_size}; "
               f"disputed and unclaimed cards are worth p = {seats}", indent="")


def describe(event: Event, names: Sequence[str], seats: int) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    if isinstance(event, Called | HandDealt):
        return []  # the call is told with its outcome; hands stay hidden until the end
    if isinstance(event, Resolved):
        said = f"Mine! from {_names(event.claimants, names)}" if event.claimants else "no claim"
        where = (f"given to {names[event.claimants[0]]}" if event.pile is Pile.TAKEN
                 else _WHERE[event.pile])
        return fit(f"{event.number:>2}. {event.card!s:<4}{said} -> {where}", indent="  ")
    if isinstance(event, DealStarted):
        text = (f"Deal {event.deal + 1} of {seats}: {names[event.seat or 0]} deals "
                f"{event.hand_size} cards each to {_names(event.holders, names)}")
        if event.set_aside:
            text += f"; {event.set_aside} set aside"
        return ["", *fit(text, indent="")]
    if isinstance(event, HandsShown):
        lines = [f"End of deal {event.deal + 1}: the hands are shown"]
        for seat, hand in enumerate(event.hands):
            if hand:
                lines += fit(f"{names[seat]}: {_cards(hand)}")
        if event.set_aside:
            lines += fit(f"set aside: {_cards(event.set_aside)}")
        return lines
    if isinstance(event, Returned):
        return fit(f"{names[event.seat or 0]} gives back {_cards(event.cards)} "
                   f"to the unclaimed pile")
    if isinstance(event, DealScored):
        return _scores(event, names, seats)
    if isinstance(event, GameOver):
        best = event.totals[event.winners[0]]
        verb = "wins" if len(event.winners) == 1 else "share the win"
        return ["", *fit(f"Game over: {_names(event.winners, names)} {verb} with {best}",
                         indent="")]
    return None


def _scores(event: DealScored, names: Sequence[str], p: int) -> list[str]:
    parts = []
    for seat, points in enumerate(event.points):
        if seat == event.seat:
            parts.append(f"{names[seat]} {points} (dealer: {event.unclaimed} unclaimed x {p})")
        else:
            extra = f" + {event.disputed[seat]} disputed x {p}" if event.disputed[seat] else ""
            parts.append(f"{names[seat]} {points} ({event.right[seat]} right{extra})")
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, event.totals, strict=True))
    return [*fit("points: " + ", ".join(parts)), *fit(f"totals: {totals}")]


def _names(seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(names[s] for s in seats)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))
