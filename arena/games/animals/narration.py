"""Spectator narration of Animals for `arena play --show`: public events only, 80 columns."""

from __future__ import annotations

from collections.abc import Sequence

from arena.api import Event
from arena.games.animals.table import (
    Called,
    Dealt,
    End,
    Faced,
    GameOver,
    Left,
    Paid,
    Source,
    Took,
    TurnedOver,
    Verdict,
)
from arena.games.animals.variants import ANIMALS, AnimalsParams, CallStyle, spoken
from arena.games.common import fit

_VERDICTS = {Verdict.WON: "right, and first", Verdict.BEATEN: "right, but beaten to it",
             Verdict.WRONG: "wrong"}
_STYLE = {CallStyle.NOISES: "the animal's noise", CallStyle.NAMES: "the animal's name"}


def opening(params: AnimalsParams, log: Sequence[Event]) -> list[str]:
    """The table as dealt (each seat's animal and cards) and the first card faced, by seat."""
    dealt = next(e for e in log if isinstance(e, Dealt))
    lines = fit(f"Animals: the pack dealt out by seat {dealt.seat}; a player is called by "
                f"{_STYLE[params.calls]}; at most {params.limit} cards faced", indent="")
    for seat, count in enumerate(dealt.cards):
        name, noise = ANIMALS[seat]
        said = f" ({noise})" if params.calls is CallStyle.NOISES else ""
        lines.append(f"  seat {seat}: the {name}{said}, {_cards(count)}")
    for event in log:
        if isinstance(event, Faced):
            lines.append(f"{event.number:>4}. seat {event.seat} faces {event.card}")
    return lines


def describe(event: Event, names: Sequence[str], style: CallStyle) -> list[str] | None:
    """Lines for one event; None for an event this module does not know."""
    if isinstance(event, Faced):
        return [f"{event.number:>4}. {names[_seat(event)]} faces {event.card}"]
    if isinstance(event, Called):
        return fit(f"{names[_seat(event)]}: \"{spoken(event.named, style)}\" "
                   f"(calls {names[event.named]}): {_VERDICTS[event.verdict]}", indent="      ")
    if isinstance(event, Took):
        return fit(f"{names[_seat(event)]} takes {names[event.loser]}'s up-pile "
                   f"({_cards(event.count)})", indent="      ")
    if isinstance(event, Paid):
        where = "up-pile" if event.source is Source.PILE else "pack"
        return fit(f"{names[_seat(event)]} pays the top card of the {where} to "
                   f"{names[event.to]}", indent="      ")
    if isinstance(event, TurnedOver):
        return fit(f"{names[_seat(event)]} turns the up-pile ({_cards(event.count)}) over as "
                   f"a new pack", indent="      ")
    if isinstance(event, Left):
        return fit(f"{names[_seat(event)]} has no cards left: out, place {event.place}",
                   indent="      ")
    if isinstance(event, GameOver):
        return _game_over(event, names)
    if isinstance(event, Dealt):
        return []  # told by the opening
    return None


def _game_over(event: GameOver, names: Sequence[str]) -> list[str]:
    held = ", ".join(f"{n} {c}" for n, c in zip(names, event.cards, strict=True))
    if event.end is End.ALL_CARDS:
        text = f"Game over: {names[event.winners[0]]} holds every card"
    else:
        who = ", ".join(names[s] for s in event.winners)
        text = f"Game over at the length limit: most cards, {who}; cards held: {held}"
    return ["", *fit(text, indent="")]


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _seat(event: Event) -> int:
    assert event.seat is not None
    return event.seat
