"""Settling the calls made after a card is faced: the race, the penalties, who leads next.

All calls are made at the same moment and judged against the table as it stood when the card
was faced. A call is right when the caller's top card has the rank of the named player's top
card. Of several right calls, one drawn by lot from the deal's rng is heard first and wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.cards import Card
from arena.games.animals.table import Verdict, partners


@dataclass(frozen=True)
class Settlement:
    """What a round of calls comes to.

    `verdicts`: (caller, named, verdict) for every call, callers clockwise from the facer.
    `race`: (winner, loser) when a right call won. `penalties`: (payer, receiver) for every
    wrong call, payers clockwise from the facer. `leader`: who faces next (the race's loser,
    else the first wrong caller), None when nobody lost a call.
    """

    verdicts: tuple[tuple[int, int, Verdict], ...]
    race: tuple[int, int] | None
    penalties: tuple[tuple[int, int], ...]
    leader: int | None


NO_CALLS = Settlement((), None, (), None)


def clockwise(start: int, seats: int) -> list[int]:
    """Every seat, from `start` round to the left."""
    return [(start + i) % seats for i in range(seats)]


def settle(tops: Sequence[Card | None], calls: Mapping[int, int], facer: int,
           rng: random.Random) -> Settlement:
    """Judge `calls` (caller -> named seat) against the top cards `tops`.

    The rng is drawn from only when two or more calls are right: `rng.choice` among the right
    callers listed clockwise from the facer, each equally likely to have been heard first.
    """
    if not calls:
        return NO_CALLS
    callers = [s for s in clockwise(facer, len(tops)) if s in calls]
    right = [s for s in callers if calls[s] in partners(tops, s)]
    winner = None
    if right:
        winner = right[0] if len(right) == 1 else rng.choice(right)
    verdicts = []
    for s in callers:
        verdict = (Verdict.WON if s == winner else Verdict.BEATEN if s in right
                   else Verdict.WRONG)
        verdicts.append((s, calls[s], verdict))
    penalties = tuple((s, calls[s]) for s in callers if s not in right)
    race = None if winner is None else (winner, calls[winner])
    leader = race[1] if race else penalties[0][0] if penalties else None
    return Settlement(tuple(verdicts), race, penalties, leader)
