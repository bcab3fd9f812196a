"""Dig's hidden cards dealt again from one seat's knowledge: the opponent's hand and the stock.

What the seat knows: its own hand, every card played on the pile (and which of them went back
into the stock at a reshuffle), the hand sizes, and what the opponent's digs and passes reveal.
A player digs (or passes) only when no card of theirs matches what the pile asks for, and the
cards dug before the last one did not match it either; an eight always matches. So each card
of the opponent's hand is a *slot* carrying the targets it failed. When the opponent plays a
card, the oldest slot that card could fill leaves the hand: the slots are nested (an older slot
failed every target a newer one failed), so that leaves the weakest behind, which admit every
hand the events allow (after a dig only the dug card's slot fits).
The sample then deals the unseen cards to the slots, the most constrained first, and the rest
to the stock in random order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from arena.cards import Card, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.dig.matching import WILD, Target
from arena.games.dig.state import DigState, hand_order
from arena.games.dig.table import (
    DigView,
    Dug,
    Named,
    Passed,
    Played,
    Reshuffled,
    Started,
)
from arena.games.dig.variants import SEATS, DigParams

PACK = tuple(standard_deck())
_TRIES = 20


@dataclass(frozen=True, slots=True)
class NoneButEights:
    """A reading of a player who keeps its eights: the hand held no card but an eight that
    `target` accepts (a slot failing it may still be an eight)."""

    target: Target

    def accepts(self, card: Card) -> bool:
        """Whether `card` is one the hand did not hold: a card `target` accepts, not an eight."""
        return card.rank is not WILD and self.target.accepts(card)


Failed = Target | NoneButEights
"""What a slot of the opponent's hand is known not to be: a card that one of these accepts."""


def fits(card: Card, failed: Sequence[Failed]) -> bool:
    """Whether `card` could be a card that matched none of `failed`."""
    return not any(t.accepts(card) for t in failed)


class DigBelief:
    """What a seat's events say of the hidden cards: the pile, and the opponent's slots."""

    def __init__(self, knowledge: Knowledge, eights_last: bool = False) -> None:
        """Read the events in order. With `eights_last`, read the opponent as a player who plays
        an eight only when nothing else follows (or it is its last card), as `dig-sharp` does:
        an eight it plays with cards left says the rest of its hand held no other card that
        followed. That is a model of the opponent, not a rule: off by default."""
        me = knowledge.seat
        self.pile: list[Card] = []
        self.slots: list[list[Failed]] = [[] for _ in range(7)]  # the opponent's hand
        target: Target | None = None
        passes = 0
        for event in knowledge.events:
            if isinstance(event, Started):
                self.pile = [event.upcard]
                target = Target.of(event.upcard)
            elif isinstance(event, Played):
                passes = 0
                self.pile.append(event.card)
                if event.seat != me:
                    self._played(event.card)
                    if eights_last and event.card.rank is WILD and event.left and target:
                        for slot in self.slots:
                            slot.append(NoneButEights(target))
                target = Target.of(event.card)
            elif isinstance(event, Named):
                target = Target(event.suit, event.rank)
            elif isinstance(event, Reshuffled):
                self.pile = self.pile[-1:]
            elif isinstance(event, Dug) and event.seat != me and target is not None:
                for slot in self.slots:
                    slot.append(target)
                self.slots += [[target] for _ in range(event.count - 1)] + [[]]
            elif isinstance(event, Passed):
                passes += 1
                if event.seat != me and target is not None:
                    for slot in self.slots:
                        if target not in slot:
                            slot.append(target)
        self.passes = passes

    def _played(self, card: Card) -> None:
        # The slots are nested: an older one failed every target a newer one failed, and more.
        # Any slot the card fits may be the one it came from; taking the oldest leaves the
        # weakest slots behind, which admit every hand the other choices would (taking the
        # newest would keep a target the hand may well hold cards of). After a dig only the
        # newest slot, the card dug last, fits.
        for i, failed in enumerate(self.slots):
            if fits(card, failed):
                del self.slots[i]
                return
        if self.slots:  # no slot fits: our reading was too strict; drop the weakest
            del self.slots[min(range(len(self.slots)), key=lambda i: len(self.slots[i]))]


class DigSampler(Sampler):
    """Deals the opponent's hand and the stock from what a seat knows."""

    def __init__(self, eights_last: bool = False) -> None:
        """`eights_last`: read the opponent as a player who keeps its eights (see
        `DigBelief`); the game's own sampler reads only the rules."""
        self.eights_last = eights_last

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states: the unseen cards dealt to the opponent's slots, then the stock."""
        view: DigView = knowledge.view
        assert isinstance(knowledge.params, DigParams)
        belief = DigBelief(knowledge, self.eights_last)
        seen = set(view.hand) | set(belief.pile)
        unseen = [c for c in PACK if c not in seen]
        opp = 1 - knowledge.seat
        size = view.hands[opp]
        slots = sorted(belief.slots, key=len, reverse=True)
        # the reading keeps exactly one slot a card; should it ever disagree, trust the count
        slots = (slots + [[] for _ in range(size)])[:size]
        return [self._deal(knowledge, belief, unseen, slots, rng) for _ in range(count)]

    def _deal(self, knowledge: Knowledge, belief: DigBelief, unseen: list[Card],
              slots: list[list[Failed]], rng: random.Random) -> DigState:
        view: DigView = knowledge.view
        hand: list[Card] = []
        pool = list(unseen)
        for _ in range(_TRIES):
            pool = list(unseen)
            rng.shuffle(pool)
            hand = []
            for failed in slots:
                pick = next((i for i, c in enumerate(pool) if fits(c, failed)), None)
                if pick is None:
                    break
                hand.append(pool.pop(pick))
            if len(hand) == len(slots):
                break
        else:  # the constraints could not be met: deal the slots freely
            pool = list(unseen)
            rng.shuffle(pool)
            hand, pool = pool[:len(slots)], pool[len(slots):]
        stock = pool[:view.stock]
        me = knowledge.seat
        state = object.__new__(DigState)
        State.__init__(state)
        state.params = knowledge.params
        state.rng = random.Random(rng.getrandbits(64))
        hands: list[list[Card]] = [[], []]
        hands[me] = sorted(view.hand, key=hand_order)
        hands[1 - me] = sorted(hand, key=hand_order)
        state.hands = hands
        state.pile = list(belief.pile)
        state.stock = stock
        state.target = Target(view.suit, view.rank)
        state.seat = view.to_act if view.to_act is not None else me
        state.phase = view.phase
        state.turns = view.turn
        state.passes = belief.passes
        state.digs = [0] * SEATS
        state.eights = [0] * SEATS
        state.reshuffles = 0
        state.ended = None
        state._legal = None
        return state
