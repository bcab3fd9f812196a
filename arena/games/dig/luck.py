"""Dig's luck model: the final margin the counts of a state promise (cards and eights in each
hand, the stock left), and the digs that change them.

The chance after the deal is the stock: nobody has seen it, so given everything that happened
its order is equally likely to be any (after a reshuffle too: the new stock's order is the deal's
rng's). A dig turns up cards from its top until one can be played, so a dig's luck is the value
after it less the mean over every order of the stock. The value of a seat (`value`) is the final
margin the seat to play can expect (`margin.MARGIN`, a closed form fitted offline), its negative
for the other; at the end, the score itself. It depends on a dig only through the number of
cards turned up before one that can be played and whether that one is an eight, so its mean
over the stock's orders sums over every such number, with its chance, and both kinds of last
card (`expected`, exact). `reveals` lists, for the reference, one order of the stock for each
depth and kind of last card, with its chance.

The deal is taken in two stages: the hands (seat 0's margin as dealt, from the eights in each
hand, less its mean over every place of the four eights in the pack), then seat 0's dig at once
if it cannot play, valued like any other dig.
"""

from __future__ import annotations

import math
import random
from collections.abc import MutableSequence
from typing import Any

from arena.api import Action
from arena.cards import Card, Rank, Suit, standard_deck
from arena.games.dig import actions as act
from arena.games.dig.margin import MARGIN, STOCK
from arena.games.dig.matching import WILD, Target
from arena.games.dig.state import DigState
from arena.games.dig.table import Drew, Phase
from arena.games.dig.variants import HAND, DigParams, StockOut
from arena.luck.model import Alternatives, LuckModel, Values, detached


class DigLuck(LuckModel[DigState]):
    """Luck of the digs (and the deal), valued by the margin the counts of a state promise."""

    name = "dig-margin"
    version = 1
    replaces = ("dig-count/1",)

    def __init__(self, params: DigParams) -> None:
        self.reshuffle = params.stock_out is StockOut.RESHUFFLE
        self.margin = MARGIN

    def value(self, state: DigState) -> Values:
        """The expected final margin of the seat to play next (`margin`) for it, its negative
        for the other; the score once the game is over."""
        if not state.to_act():
            return state.outcome().scores
        mover = state.seat if state.phase is Phase.PLAY else 1 - state.seat
        hands = state.hands
        mine, theirs = hands[mover], hands[1 - mover]
        return _values(mover, self.margin(len(mine), len(theirs), _eights(mine), _eights(theirs),
                                          len(state.stock)))

    def deal_luck(self, state: DigState) -> Values:
        """The hands' eights against their mean over deals, then seat 0's dig if it could not
        play."""
        drawn = next((e.cards for e in state.log if isinstance(e, Drew)), ())
        hand = list(state.hands[0])
        for card in drawn:
            hand.remove(card)
        eights = (_eights(hand), _eights(state.hands[1]))
        dealt = _values(0, self.margin(HAND, HAND, eights[0], eights[1], STOCK))
        mean = _values(0, self.mean_hands())
        if not drawn:
            return tuple(d - m for d, m in zip(dealt, mean, strict=True))
        stock = [*state.stock, *drawn]
        dug = self._mean_dig(0, (len(hand), len(state.hands[1])), eights, stock, state.target)
        after = self.value(state)
        return tuple(d - m + a - g for d, m, a, g in zip(dealt, mean, after, dug, strict=True))

    def mean_hands(self) -> float:
        """Seat 0's margin as dealt, averaged over the deals' eights in the two hands (the
        four eights among the 52 places, seven in each hand)."""
        total = 0.0
        for mine in range(EIGHTS + 1):
            for theirs in range(EIGHTS + 1 - mine):
                chance = (math.comb(HAND, mine) * math.comb(HAND, theirs)
                          * math.comb(PACK - 2 * HAND, EIGHTS - mine - theirs)
                          / math.comb(PACK, EIGHTS))
                total += chance * self.margin(HAND, HAND, mine, theirs, STOCK)
        return total

    def expected(self, state: DigState, seat: int, action: Action) -> Values | None:
        """The mean value after `action` over the stock's orders, when the next seat will have
        to dig; None when it will not."""
        ahead = _ahead(state, seat, action)
        if ahead is None:
            return None
        digger, target, pile = ahead
        if not any(target.accepts(c) for c in state.stock):
            under = pile[:-1]
            if not (self.reshuffle and len(pile) >= 2 and any(target.accepts(c) for c in under)):
                return self._after(state, seat, action)  # the whole stock is dug, in any order
            stock, already = under, len(state.stock)  # then the pile, shuffled, until a card
        else:
            stock, already = state.stock, 0
        sizes = [len(state.hands[0]), len(state.hands[1])]
        sizes[digger] += already
        if state.phase is Phase.PLAY:
            sizes[seat] -= 1  # the card just played (never an eight: an eight is named next)
        eights = (_eights(state.hands[0]), _eights(state.hands[1]))
        return self._mean_dig(digger, (sizes[0], sizes[1]), eights, stock, target)

    def reveals(self, state: DigState, seat: int,
                action: Action) -> Alternatives[DigState] | None:
        """One order of the stock for each number of cards dug before the one that stops the
        dig and each kind of that card (an eight or not), with its chance; after a reshuffle
        (the stock dug out), the same for the new stock, arranged through the rng."""
        ahead = _ahead(state, seat, action)
        if ahead is None:
            return None
        _, target, pile = ahead
        if any(target.accepts(c) for c in state.stock):
            return [(chance, _restocked(state, order))
                    for chance, order in _orders(state.stock, target)]
        under = pile[:-1]
        if not (self.reshuffle and len(pile) >= 2 and any(target.accepts(c) for c in under)):
            return [(1.0, detached(state))]
        out = []
        for chance, order in _orders(under, target):
            twin = detached(state)
            twin.rng = _Arranged(order)
            out.append((chance, twin))
        return out

    def _after(self, state: DigState, seat: int, action: Action) -> Values:
        twin = detached(state)
        twin.apply(seat, action)
        return self.value(twin)

    def _mean_dig(self, digger: int, sizes: tuple[int, int], eights: tuple[int, int],
                  stock: list[Card], target: Target) -> Values:
        """The mean value once `digger` (with `sizes` and `eights` before) digs `stock` in a
        random order until a card `target` accepts: over the number of cards dug before it
        and whether it is an eight, each with its chance."""
        playable = [c for c in stock if target.accepts(c)]
        wild = _eights(playable) / len(playable)
        size, other = sizes[digger], sizes[1 - digger]
        mine, theirs = eights[digger], eights[1 - digger]
        margin = self.margin
        left, dead = len(stock), len(stock) - len(playable)
        total, reach = 0.0, 1.0  # reach: the chance that the first j cards cannot be played
        for j in range(dead + 1):
            stops = reach * len(playable) / (left - j)
            rest = left - j - 1
            grown = size + j + 1
            total += stops * (wild * margin(grown, other, mine + 1, theirs, rest)
                              + (1 - wild) * margin(grown, other, mine, theirs, rest))
            reach *= (dead - j) / (left - j)
        return _values(digger, total)


def _values(seat: int, margin: float) -> Values:
    """Each seat's value when `seat` expects to win by `margin` (the scores sum to zero)."""
    return (margin, -margin) if seat == 0 else (-margin, margin)


def _eights(cards: Any) -> int:
    return sum(1 for c in cards if c.rank is WILD)


PACK = 52
EIGHTS = 4

_CARDS: dict[object, Card] = {str(card): card for card in standard_deck()}
"""Cards by their text, as plays name them (looked up: parsing is slow on the hot path)."""


def _ahead(state: DigState, seat: int,
           action: Action) -> tuple[int, Target, list[Card]] | None:
    """Whether `action` makes the next seat dig: its seat, what it must match, and the pile
    then; None when nobody digs (the next seat can play, the game ends, an eight was played and
    is named next, or the next seat passes)."""
    pile = list(state.pile)
    if state.phase is Phase.NAME:
        choice = act.read_name(action)
        target = Target(choice if isinstance(choice, Suit) else None,
                        choice if isinstance(choice, Rank) else None)
    else:
        card = _CARDS.get(action[1]) or act.read_play(action)  # type: ignore[index]
        if card.rank is WILD or len(state.hands[seat]) == 1:
            return None
        target = Target.of(card)
        pile.append(card)
    if state.turns + 1 >= state.params.max_turns:
        return None
    digger = 1 - seat
    if any(target.accepts(c) for c in state.hands[digger]):
        return None
    if not state.stock and not (state.params.stock_out is StockOut.RESHUFFLE and len(pile) >= 2):
        return None  # a pass: nothing is turned up
    return digger, target, pile


def _orders(stock: list[Card], target: Target) -> list[tuple[float, list[Card]]]:
    """For each number `j` of cards dug that cannot be played, and each kind of card that
    stops the dig (an eight, or another), an order of `stock` that digs so (the top last), and
    the chance of digging so."""
    playable = [c for c in stock if target.accepts(c)]
    dead = [c for c in stock if not target.accepts(c)]
    kinds = [[c for c in playable if c.rank is WILD], [c for c in playable if c.rank is not WILD]]
    out = []
    reach = 1.0  # the chance that the first j cards cannot be played
    for j in range(len(dead) + 1):
        stops = len(playable) / (len(stock) - j)
        for kind in kinds:
            if kind:
                last = kind[0]
                rest = [c for c in stock if c is not last and c not in dead[:j]]
                out.append((reach * stops * len(kind) / len(playable),
                            [*rest, last, *dead[:j][::-1]]))
        reach *= (len(dead) - j) / (len(stock) - j)
    return out


def _restocked(state: DigState, order: list[Card]) -> DigState:
    twin = detached(state)
    twin.stock = list(order)
    return twin


class _Arranged(random.Random):
    """An rng whose shuffle lays the cards in a given order (the reference's reshuffles)."""

    def __init__(self, order: list[Card]) -> None:
        super().__init__(0)
        self.order = order

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        """Lay `x` out in the order given."""
        assert sorted(map(str, x)) == sorted(map(str, self.order))
        x[:] = self.order
