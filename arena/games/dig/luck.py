"""Dig's luck model: a count of the cards in hand and the eights held, and the digs that add to
them.

The chance after the deal is the stock: nobody has seen it, so given everything that happened
its order is equally likely to be any (after a reshuffle too: the new stock's order is the deal's
rng's). A dig turns up cards from its top until one can be played, so a dig's luck is the value
after it less the mean over every order of the stock. The value of a seat (`value`) is its
expected final score read as a simple count: the other's cards in hand less its own, plus
`EIGHT` for each eight it holds less each the other holds; at the end, the score itself. Since it
is linear in the cards dug and in whether the card that stops the dig is an eight, its mean over
the stock's orders is the value at the mean depth, ``N / (A + 1)`` cards that cannot be played
before one of the ``A`` that can (of ``N`` that cannot), an eight with chance ``e / A``
(`expected`). `reveals` lists, for the reference, one order of the stock for each depth and kind
of last card, with its chance.

The deal is taken in two stages: the hands (each seat's eights less the other's, whose mean over
deals is zero, the hands being alike), then seat 0's dig at once if it cannot play, valued like
any other dig.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

from arena.api import Action
from arena.cards import Card, Rank, Suit, standard_deck
from arena.games.dig import actions as act
from arena.games.dig.matching import WILD, Target
from arena.games.dig.state import DigState
from arena.games.dig.table import Drew, Phase
from arena.games.dig.variants import DigParams, StockOut
from arena.luck.model import Alternatives, LuckModel, Values, detached

EIGHT = 3.0
"""What an eight in hand is worth, in cards of the margin: a constant of the model, chosen once,
offline, on deals no verdict judges (`python scripts/dig_luck_eight.py`: 0 to 4 on deals
5,000,000 to 5,000,299 of dig-sharp against dig-simple; 3 left the least variance in the score
less its luck). A new constant is a new version of the model."""


class DigLuck(LuckModel[DigState]):
    """Luck of the digs (and the deal), valued by cards in hand and eights held."""

    name = "dig-count"
    version = 1

    def __init__(self, params: DigParams) -> None:
        self.reshuffle = params.stock_out is StockOut.RESHUFFLE

    def value(self, state: DigState) -> Values:
        """The other's cards less one's own, and `EIGHT` an eight held more than the other;
        the score once the game is over."""
        if not state.to_act():
            return state.outcome().scores
        hands = state.hands
        return _count(len(hands[0]), len(hands[1]), _eights(hands[0]), _eights(hands[1]))

    def deal_luck(self, state: DigState) -> Values:
        """The hands' eights (mean zero over deals), then seat 0's dig if it could not play."""
        drawn = next((e.cards for e in state.log if isinstance(e, Drew)), ())
        hand = list(state.hands[0])
        for card in drawn:
            hand.remove(card)
        eights = (_eights(hand), _eights(state.hands[1]))
        dealt = _count(len(hand), len(state.hands[1]), *eights)
        if not drawn:
            return dealt
        stock = [*state.stock, *drawn]
        mean = self._mean_dig(0, (len(hand), len(state.hands[1])), eights, stock, state.target)
        after = self.value(state)
        return tuple(d + a - m for d, a, m in zip(dealt, after, mean, strict=True))

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
        random order until a card `target` accepts."""
        playable = [c for c in stock if target.accepts(c)]
        depth = (len(stock) - len(playable)) / (len(playable) + 1) + 1
        eight = _eights(playable) / len(playable)
        grown = [float(sizes[0]), float(sizes[1])]
        grown[digger] += depth
        held = [float(eights[0]), float(eights[1])]
        held[digger] += eight
        return _count(grown[0], grown[1], held[0], held[1])


def _count(size0: float, size1: float, eights0: float, eights1: float) -> Values:
    lead = size1 - size0 + EIGHT * (eights0 - eights1)
    return (lead, -lead)


def _eights(cards: Any) -> int:
    return sum(1 for c in cards if c.rank is WILD)


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
