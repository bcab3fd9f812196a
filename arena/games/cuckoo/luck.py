"""Cuckoo's luck model: each deal's cards, valued by the chance of paying that one's own rank
and place give, and the dealer's draw, valued by who then pays.

Two chance events in every deal. The deal itself: the pack is shuffled, so each seat's card is
equally likely to be any of the 52. Its value for a seat still in is what its score would be
after the deal, `deal + 1 + chips`, less its chance of paying a chip given its own rank and its
place in the turn order, as bundled bots play (a table made offline, `paying.py`; where it has
no cell, the chance its rank gives when nobody changes, no other seat holding a lower rank:
``C(M - 1, n - 1) / C(51, n - 1)`` with ``M`` cards of that rank or higher, ``n`` seats still
in); its mean over deals is, seat by seat, the mean over the 13 ranks, exact (each seat's card
is equally likely to be any of the pack, and the value adds one term a seat). The dealer's
draw: the card drawn is equally likely to be any card of the rest of the pack, which nobody has
seen; after it the showdown settles who pays, so the value is the score after the deal (a seat
out keeps the deal it dropped out in), and its mean over the rest of the pack is exact (taken
over its ranks: who pays depends on nothing else). Between deals a seat's value is its score if
the game stopped there. Exchanges and kings shown are no chance: the
cards were dealt already and their holders knew them.
"""

from __future__ import annotations

import functools
import math
from collections import Counter

from arena.api import Action
from arena.cards import Rank
from arena.games.cuckoo.dealing import turn_order
from arena.games.cuckoo.paying import PAYING
from arena.games.cuckoo.scoring import payers, survival_scores
from arena.games.cuckoo.state import CuckooState
from arena.games.cuckoo.table import Phase, Say
from arena.luck.model import Alternatives, LuckModel, Values, detached

PACK_SIZE = 52
SUITS = 4


@functools.cache
def paying_chance(rank: int, seats: int) -> float:
    """The chance that the holder of a card of `rank` (1 = ace ... 13 = king) holds the lowest
    rank (ties pay too) among `seats` cards dealt from a pack, nobody changing."""
    higher = SUITS * (13 - rank + 1)  # cards of this rank or higher, the holder's own included
    return math.comb(higher - 1, seats - 1) / math.comb(PACK_SIZE - 1, seats - 1)


@functools.cache
def mean_paying_chance(seats: int) -> float:
    """`paying_chance` averaged over the rank dealt (every rank has four cards of 52)."""
    return sum(paying_chance(rank, seats) for rank in range(1, 14)) / 13


def placed_paying_chance(rank: int, place: int, seats: int) -> float:
    """The chance that a seat dealt `rank` at `place` in the turn order (0 = the dealer's
    left, the dealer last) among `seats` pays a chip in the deal, as bundled bots play
    (`paying.PAYING`, made offline); the rank's own chance where the table has no cell."""
    cells = PAYING.get((seats, place))
    return paying_chance(rank, seats) if cells is None else cells[rank - 1]


@functools.cache
def mean_placed_paying_chance(place: int, seats: int) -> float:
    """`placed_paying_chance` averaged over the rank dealt."""
    return sum(placed_paying_chance(rank, place, seats) for rank in range(1, 14)) / 13


class CuckooLuck(LuckModel[CuckooState]):
    """Luck of each deal's cards and of the dealer's draws."""

    name = "cuckoo-place"
    version = 1
    replaces = ("cuckoo-rank/1",)

    def value(self, state: CuckooState) -> Values:
        """During a deal, a seat's score after it less its chance of paying (by its own rank
        and its place in the turn order); between deals and at the end, the score if the game
        stopped there."""
        if state.phase is not Phase.PLAY:
            return tuple(float(s) for s in
                         survival_scores(state.out_deal, state.chips, state.deal_no))
        seats = len(state.order)
        return self._during(state, {
            s: placed_paying_chance(int(state.hands[s].rank), place, seats)
            for place, s in enumerate(state.order)})

    def expected(self, state: CuckooState, seat: int, action: Action) -> Values | None:
        """The mean value after a deal over every deal, or after a draw over the rest of the
        pack; None for every other action."""
        if state.phase is Phase.DEAL:
            order = turn_order(state.dealer, state.active)
            return self._during(state, {s: mean_placed_paying_chance(place, len(order))
                                        for place, s in enumerate(order)})
        if action != Say.DRAW:
            return None
        total = [0.0] * state.seats
        ranks = Counter(card.rank for card in state.stock)  # who pays depends on ranks only
        held = {s: state.hands[s] for s in state.order}
        for rank, count in ranks.items():
            held[seat] = next(c for c in state.stock if c.rank is rank)
            _, paying = payers(held, seat, rank is Rank.KING)
            for s, v in enumerate(self._during(state, dict.fromkeys(paying, 1.0))):
                total[s] += count * v
        return tuple(t / len(state.stock) for t in total)

    def reveals(self, state: CuckooState, seat: int,
                action: Action) -> Alternatives[CuckooState] | None:
        """The dealer's draw: the card on top of the rest of the pack swapped with each card of
        it. (A deal's alternatives, every deal of the pack, are too many to list: its mean is
        held to an enumeration of small tables in the tests.)"""
        if state.phase is not Phase.PLAY or action != Say.DRAW:
            return None
        out = []
        for i in range(len(state.stock)):
            twin = detached(state)
            twin.stock[0], twin.stock[i] = twin.stock[i], twin.stock[0]
            out.append((1.0 / len(state.stock), twin))
        return out

    def _during(self, state: CuckooState, paying: dict[int, float]) -> Values:
        """Each seat's score after this deal, less its chance of paying (`paying`: by seat, 0
        for those not named); a seat out keeps the deal it dropped out in."""
        after = state.deal_no + 1
        out = []
        for seat in range(state.seats):
            dropped = state.out_deal[seat]
            if dropped is not None:
                out.append(float(dropped))
            else:
                out.append(after + state.chips[seat] - paying.get(seat, 0.0))
        return tuple(out)
