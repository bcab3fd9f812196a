"""Who pays at a Cuckoo showdown, and the scores that rank players by when they dropped out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.cards import Card


def payers(cards: Mapping[int, Card], dealer: int,
           dealer_king: bool) -> tuple[int, tuple[int, ...]]:
    """The lowest rank held (ace low, king high) and the seats that pay a chip, in seat order:
    every holder of the lowest rank, or the dealer alone after drawing a king."""
    low = min(int(card.rank) for card in cards.values())
    if dealer_king:
        return low, (dealer,)
    return low, tuple(sorted(s for s, card in cards.items() if card.rank == low))


def survival_scores(out_deal: Sequence[int | None], chips: Sequence[int],
                    deals: int) -> tuple[int, ...]:
    """Each seat's score (higher is better): the number (1, 2, ...) of the deal in which it
    dropped out, or, for a seat still in, the deals played plus its chips left. So players
    rank by the order they dropped out, those out in the same deal share a place, and players
    still in at a deal limit rank above them by their chips."""
    return tuple(out if out is not None else deals + left
                 for out, left in zip(out_deal, chips, strict=True))
