"""Memorandum bots: `elephant` (perfect memory), `goldfish` (a partial, fading memory) and
`chancer` (perfect memory, and claims cards that are not its own when that costs the others).

All three deal when they are the dealer (the only legal action then) and otherwise say "Mine!"
for the cards they remember of the hand shown to them at the start of each deal.

Why `chancer` claims what it does (see also docs/rules/memorandum.md, "The dispute rule"):

* A player's own score depends only on what happens to the cards of its own hand: 1 for each
  it receives alone, `p` for each that ends in the dispute pile. Claiming an own card is never
  worse than keeping quiet, so every bot with perfect memory claims all of its cards, and no
  claim of a card it does not hold can raise its own score. `chancer` therefore scores exactly
  what `elephant` scores in the same seat; its only lever is what the others get.
* A claim of a card that is not its own changes something only when exactly one other player
  claims it too (with nobody else, the card comes back to the unclaimed pile at the end, as if
  unclaimed; with two or more, it is disputed anyway). Then the card goes to the dispute pile
  instead of to that player, and:
  - if the card belongs to that claimant, they score `p` instead of 1: a gift of `p - 1`;
  - if it belongs to another player, the `p` points move from the dealer to its owner: no
    change for the other seats taken together;
  - if it was set aside (it belongs to nobody), the dealer loses the `p` points that the
    returned card would have earned: a loss of `p` for the others.
* So claiming a foreign card pays only when cards are set aside and some player claims cards
  that are not theirs. `chancer` estimates, for every other seat, how often it claims its own
  cards and how often cards that are not its own (from the claims it sees on its own cards
  during a deal, and from every call once the hands are shown), and says "Mine!" for a foreign
  card when the expected loss it inflicts on the others (set-aside cards) exceeds the expected
  gift (the owner's lone claims). Against players that never claim wrongly, and in deals where
  nothing is set aside, it plays exactly like `elephant`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card
from arena.games.memorandum import DealStarted, HandDealt, HandsShown, MemorandumView, Resolved, Say


class HandBot(Bot):
    """Base of the Memorandum bots: remembers (some of) its hand and claims what it remembers."""

    games: ClassVar[tuple[str, ...]] = ("memorandum",)

    def start(self, info: GameInfo) -> None:
        """Start with an empty memory."""
        super().start(info)
        self.memory: set[Card] = set()

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when dealing; otherwise "Mine!" for a card this bot decides to claim."""
        self.observe(obs.events)
        if Say.DEAL in obs.legal:
            return Say.DEAL
        view: MemorandumView = obs.view
        assert view.called is not None
        return Say.MINE if self.claims(view.called, view) else Say.PASS

    def observe(self, events: Iterable[Event]) -> None:
        """Follow the events since the last decision (the hand arrives in a HandDealt)."""
        for event in events:
            if isinstance(event, HandDealt):
                self.memory = self.remember(event.cards)

    def remember(self, hand: Sequence[Card]) -> set[Card]:
        """What this bot keeps of the hand it is shown: all of it."""
        return set(hand)

    def claims(self, card: Card, view: MemorandumView) -> bool:
        """Whether to say "Mine!" for the called card: when it is remembered."""
        return card in self.memory


class ElephantBot(HandBot):
    """Perfect memory: claims exactly the cards of its own hand."""


class GoldfishBot(HandBot):
    """A limited memory: keeps `capacity` cards of its hand, chosen at random, and forgets each
    remembered card with probability `fade` after every call; claims what it still remembers.

    Defaults: capacity 8 (about what a person keeps after a short look) and fade 0 (no fading).
    capacity 0 remembers nothing; a capacity of the hand size or more, with fade 0, is perfect.
    """

    def __init__(self, capacity: int = 8, fade: float = 0.0) -> None:
        if capacity < 0:
            raise ValueError(f"capacity must be 0 or more, not {capacity}")
        if not 0.0 <= fade <= 1.0:
            raise ValueError(f"fade must be between 0 and 1, not {fade}")
        self.capacity = capacity
        self.fade = fade

    def observe(self, events: Iterable[Event]) -> None:
        """Take in a new hand; let memories fade after each call."""
        for event in events:
            if isinstance(event, HandDealt):
                self.memory = self.remember(event.cards)
            elif isinstance(event, Resolved) and self.fade and self.memory:
                rng, fade = self.rng, self.fade
                self.memory = {c for c in sorted(self.memory, key=hash) if rng.random() >= fade}

    def remember(self, hand: Sequence[Card]) -> set[Card]:
        """A random `capacity` cards of the hand."""
        return set(self.rng.sample(list(hand), min(self.capacity, len(hand))))


# Prior beliefs about another player, as pseudo-counts: it claims 9 in 10 of its own cards and
# 1 in 20 of the cards that are not its own, until what it does says otherwise.
PRIOR_SEEN = 10.0
PRIOR_OWN_CLAIMS = 9.0
PRIOR_FALSE_CLAIMS = 0.5


class ChancerBot(HandBot):
    """Perfect memory, and weighs the dispute rule: also claims a card it does not hold when that
    is expected to cost the other seats more than it gives them (see the module docstring)."""

    def start(self, info: GameInfo) -> None:
        """Start with prior beliefs about every other seat."""
        super().start(info)
        n = info.players
        self.own_claims = [PRIOR_OWN_CLAIMS] * n
        self.own_seen = [PRIOR_SEEN] * n
        self.false_claims = [PRIOR_FALSE_CLAIMS] * n
        self.false_seen = [PRIOR_SEEN] * n
        self.others: tuple[int, ...] = ()
        self.aside_chance = 0.0
        self.calls: list[tuple[Card, tuple[int, ...]]] = []

    def observe(self, events: Iterable[Event]) -> None:
        """Learn the deal's shape, the hand, and how the other players claim."""
        for event in events:
            if isinstance(event, DealStarted):
                self.others = tuple(s for s in event.holders if s != self.info.seat)
                foreign = event.pack_size - event.hand_size  # cards that are not in my hand
                self.aside_chance = event.set_aside / foreign
                self.calls = []
            elif isinstance(event, HandDealt):
                self.memory = set(event.cards)
            elif isinstance(event, Resolved):
                self.calls.append((event.card, event.claimants))
                if event.card in self.memory:  # my card: any other claim of it is a false one
                    self._count(event.card, event.claimants, owner=None)
            elif isinstance(event, HandsShown):
                owner = {card: seat for seat, hand in enumerate(event.hands) for card in hand}
                for card, claimants in self.calls:
                    if card not in self.memory:
                        self._count(card, claimants, owner.get(card))

    def _count(self, card: Card, claimants: tuple[int, ...], owner: int | None) -> None:
        for seat in self.others:
            if seat == owner:
                self.own_seen[seat] += 1
                self.own_claims[seat] += seat in claimants
            else:
                self.false_seen[seat] += 1
                self.false_claims[seat] += seat in claimants

    def claims(self, card: Card, view: MemorandumView) -> bool:
        """Its own cards always; another card when the expected cost to the others is positive."""
        if card in self.memory:
            return True
        if not self.aside_chance or not self.others:
            return False
        return self.spoil_value(view.players) > 0

    def spoil_value(self, p: int) -> float:
        """Expected points a claim of a card not in this hand takes from the other seats together.

        Set aside (chance `a`): exactly one other claimant would have sent it back to the
        unclaimed pile, worth `p` to the dealer; the claim disputes it instead. Someone's card:
        if its owner alone claims it, the claim turns their 1 point into `p`.
        """
        f = {s: self.false_claims[s] / self.false_seen[s] for s in self.others}
        t = {s: self.own_claims[s] / self.own_seen[s] for s in self.others}

        def quiet_but(seat: int) -> float:
            return math.prod(1.0 - f[k] for k in self.others if k != seat)

        a = self.aside_chance
        lone_false = sum(f[s] * quiet_but(s) for s in self.others)
        lone_owner = sum(t[s] * quiet_but(s) for s in self.others) / len(self.others)
        return a * p * lone_false - (1.0 - a) * (p - 1) * lone_owner
