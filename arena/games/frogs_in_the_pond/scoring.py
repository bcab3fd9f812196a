"""Scoring: card points won in a deal, side totals, and when the game is over."""

from __future__ import annotations

from collections.abc import Sequence

from arena.cards import Card
from arena.games.frogs_in_the_pond.table import End
from arena.games.frogs_in_the_pond.variants import FrogsParams


def seat_points(won: Sequence[Sequence[Card]], params: FrogsParams) -> tuple[int, ...]:
    """The card points each seat won in a deal (trick cards and frogs together)."""
    return tuple(sum(params.points(c) for c in cards) for cards in won)


def pack_points(cards: Sequence[Card], params: FrogsParams) -> int:
    """The points of a set of cards: the whole pack is worth 100 (89 with the tadpole)."""
    return sum(params.points(c) for c in cards)


def by_side(per_seat: Sequence[int], sides: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Seat numbers added up by side."""
    return tuple(sum(per_seat[s] for s in side) for side in sides)


def per_seat(per_side: Sequence[int], sides: Sequence[Sequence[int]], seats: int
             ) -> tuple[int, ...]:
    """Side numbers given to every seat of the side (partners carry their side's)."""
    out = [0] * seats
    for value, side in zip(per_side, sides, strict=True):
        for seat in side:
            out[seat] = value
    return tuple(out)


def game_end(totals: Sequence[int], target: int, deals: int, max_deals: int) -> End | None:
    """Whether the game is over after `deals` deals with these side totals.

    It is over when one side alone has the highest total and that total reaches `target`
    (sides tied for the lead at or over the target play another deal), or at the deal limit.
    """
    best = max(totals)
    if best >= target and list(totals).count(best) == 1:
        return End.TARGET
    if deals >= max_deals:
        return End.DEAL_LIMIT
    return None


def winning_seats(totals: Sequence[int], sides: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The seats of every side with the highest total (more than one side when they tie)."""
    best = max(totals)
    return tuple(sorted(s for t, side in zip(totals, sides, strict=True) if t == best
                        for s in side))
