"""Cuckoo bots: `cuckoo-simple` (changes below a fixed rank) and `cuckoo-sharp` (weighs the
chance of holding the lowest card after every way the rest of the deal can go).

Both deal when they are the dealer about to deal (the only legal action then).

How `cuckoo-sharp` decides (see also docs/rules/cuckoo.md, "Playing well"):

* A player pays when its final card is the lowest, or tied lowest, at the table, unless the
  dealer draws a king (then only the dealer pays). Once a player has had its turn its card is
  final: only the player at its right may ask it to change, and that player has already had
  its turn. So each decision is one comparison: the chance of paying after standing against
  the chance of paying after changing.
* It counts the cards of the deal: its own card, the card it held before the player at its
  right changed with it (that player holds it now), and the kings shown. The other cards are
  equally likely to be anywhere it cannot see.
* For every other player it builds the distribution of that player's final card: exact for a
  king shown or for its own old card; for a player that stood, the cards such a player stands
  on; for one that changed, a card of the neighbour's; for players still to come, the chances
  that they stand or change on each card, followed round the table to the dealer, who may
  draw (and pays alone on drawing a king).
* How likely each player is to stand on each card is learnt during the game from the
  showdowns (a player that stood shows the card it stood on; a card changed away shows up in
  the hand of a neighbour that then stood), starting from a prior of standing on about seven
  and up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card
from arena.games.cuckoo import (
    CardDealt,
    Changed,
    CuckooView,
    DealStarted,
    Drew,
    KingShown,
    Received,
    Say,
    Showdown,
    Stood,
    Turn,
)

KING = 13
RANKS = range(1, KING + 1)
Dist = list[float]  # probabilities indexed by rank 1..13 (index 0 unused)


class CuckooSimpleBot(Bot):
    """Changes (or, as dealer, draws) when its card ranks below `threshold` (default 7: ace to
    six); stands otherwise."""

    games: ClassVar[tuple[str, ...]] = ("cuckoo",)

    def __init__(self, threshold: int = 7) -> None:
        if not 1 <= threshold <= KING + 1:
            raise ValueError(f"threshold must be 1 (never change) to 14 (always), not {threshold}")
        self.threshold = threshold

    def act(self, obs: Observation[Any]) -> Action:
        """Deal; otherwise change or draw below the threshold, else stand."""
        if Say.DEAL in obs.legal:
            return Say.DEAL
        view: CuckooView = obs.view
        assert view.card is not None
        if view.card.rank >= self.threshold:
            return Say.STAND
        return Say.DRAW if Say.DRAW in obs.legal else Say.CHANGE


def prior_stand(rank: int) -> float:
    """The chance a player stands on `rank` before anything is learnt about it."""
    return 0.99 if rank == KING else 1.0 / (1.0 + math.exp(-(rank - 6.5)))


class CuckooSharpBot(Bot):
    """Counts the deal's cards, models how each player stands and changes, and takes whichever
    of standing or changing (drawing, as dealer) leaves the smaller chance of paying."""

    games: ClassVar[tuple[str, ...]] = ("cuckoo",)

    def __init__(self, learn: bool = True, prior_weight: float = 3.0) -> None:
        if prior_weight <= 0:
            raise ValueError(f"prior_weight must be above 0, not {prior_weight}")
        self.learn = learn
        self.prior_weight = prior_weight

    def start(self, info: GameInfo) -> None:
        """Start with prior beliefs about every seat and no deal."""
        super().start(info)
        self.me = info.seat
        self.stands = [[0.0] * (KING + 1) for _ in range(info.players)]  # by seat, then rank
        self.seen = [[0.0] * (KING + 1) for _ in range(info.players)]
        self.order: tuple[int, ...] = ()
        self.turns: dict[int, Turn] = {}
        self.original: Card | None = None
        self.got_from_right: Card | None = None
        self.kings: dict[int, Card] = {}

    # -- following the game ---------------------------------------------------------------------

    def observe(self, events: Iterable[Event]) -> None:
        """Follow the deal's turns and learn from its showdown."""
        for event in events:
            if isinstance(event, DealStarted):
                self.order, self.turns, self.kings = event.order, {}, {}
                self.original = self.got_from_right = None
            elif isinstance(event, CardDealt):
                self.original = event.card
            elif isinstance(event, Received) and event.giver is not None:
                if self.turns.get(event.giver) is Turn.CHANGED:
                    self.got_from_right = event.card  # the card the player at the right passed
            elif isinstance(event, Stood):
                self.turns[event.seat or 0] = Turn.STOOD
            elif isinstance(event, Changed):
                self.turns[event.seat or 0] = Turn.CHANGED
            elif isinstance(event, KingShown):
                self.turns[event.asker] = Turn.REFUSED
                self.turns[event.seat or 0] = Turn.KING
                self.kings[event.seat or 0] = event.card
            elif isinstance(event, Drew):
                self.turns[event.seat or 0] = Turn.DREW
            elif isinstance(event, Showdown) and self.learn:
                self._learn(event.cards)

    def _learn(self, cards: Sequence[Card | None]) -> None:
        order = self.order
        for idx, seat in enumerate(order):
            turn = self.turns.get(seat)
            if seat == self.me or turn is None:
                continue
            held = cards[seat]
            if turn is Turn.STOOD and held is not None:
                self._count(seat, int(held.rank), True)
            elif turn is Turn.REFUSED and held is not None:
                self._count(seat, int(held.rank), False)
            elif turn is Turn.CHANGED and idx + 1 < len(order):
                after = order[idx + 1]
                if after == self.me:
                    passed = self.got_from_right
                elif self.turns.get(after) in (Turn.STOOD, Turn.REFUSED):
                    passed = cards[after]  # the neighbour kept what it was given
                else:
                    passed = None
                if passed is not None:
                    self._count(seat, int(passed.rank), False)

    def _count(self, seat: int, rank: int, stood: bool) -> None:
        self.seen[seat][rank] += 1.0
        self.stands[seat][rank] += stood

    def stand_chance(self, seat: int, rank: int) -> float:
        """How likely `seat` is to stand on `rank`: the prior, moved by what it has done."""
        w = self.prior_weight
        return (w * prior_stand(rank) + self.stands[seat][rank]) / (w + self.seen[seat][rank])

    # -- deciding -------------------------------------------------------------------------------

    def act(self, obs: Observation[Any]) -> Action:
        """Deal; otherwise the choice with the smaller chance of paying (standing on a tie)."""
        self.observe(obs.events)
        if Say.DEAL in obs.legal:
            return Say.DEAL
        view: CuckooView = obs.view
        assert view.card is not None
        stand, move = self.losing_chances(view.card)
        if move < stand:
            return Say.DRAW if Say.DRAW in obs.legal else Say.CHANGE
        return Say.STAND

    def losing_chances(self, card: Card) -> tuple[float, float]:
        """The chances of paying this deal after standing and after changing (or drawing)."""
        order, me = self.order, self.me
        p = order.index(me)
        mine = int(card.rank)
        right_changed = p > 0 and self.turns.get(order[p - 1]) is Turn.CHANGED
        known = [card, *self.kings.values()]
        if right_changed and self.original is not None:
            known.append(self.original)
        base = unseen(known)
        p_king = base[KING]
        before = [self._before(idx, base, right_changed) for idx in range(p)]
        if p == len(order) - 1:  # the dealer: everyone else has had a turn
            draw = p_king + sum(base[x] * lose(x, before) for x in RANKS if x != KING)
            return lose(mine, before), draw
        after, king = self._chain(p + 1, base, base)
        stand = (1 - king) * lose(mine, before + after)
        passed = point(mine)
        after_u, king_u = self._chain(p + 1, passed, base)
        no_king = without_king(base)
        unblocked = (1 - king_u) * sum(no_king[x] * lose(x, before + after_u) for x in RANKS)
        rest, king_b = self._chain(p + 2, base, base)
        blocked = (1 - king_b) * lose(mine, [*before, point(KING), *rest])
        return stand, p_king * blocked + (1 - p_king) * unblocked

    def _before(self, idx: int, base: Dist, right_changed: bool) -> Dist:
        """The final card of the player at `idx` in the order, who has had its turn."""
        seat = self.order[idx]
        turn = self.turns.get(seat)
        if turn is Turn.KING:
            return point(KING)
        if turn is Turn.CHANGED:
            if idx == self.order.index(self.me) - 1 and right_changed and self.original:
                return point(int(self.original.rank))
            return without_king(base)  # the neighbour's card, which was no king
        prior = base
        if idx > 0 and self.turns.get(self.order[idx - 1]) is Turn.CHANGED:
            giver = self.order[idx - 1]
            prior = weighted(base, lambda r: 1 - self.stand_chance(giver, r))
        if turn is Turn.REFUSED:
            return weighted(prior, lambda r: 1 - self.stand_chance(seat, r))
        return weighted(prior, lambda r: self.stand_chance(seat, r))

    def _chain(self, start: int, first: Dist, base: Dist) -> tuple[list[Dist], float]:
        """The final cards of the players from `start` to the dealer, the first of them holding
        a card distributed as `first`, and the chance that the dealer draws a king."""
        finals: list[Dist] = []
        held = first
        p_king = base[KING]
        no_king = without_king(base)
        last = len(self.order) - 1
        for idx in range(start, last + 1):
            seat = self.order[idx]
            s = [0.0] + [self.stand_chance(seat, r) for r in RANKS]
            change = [held[r] * (1 - s[r]) if r else 0.0 for r in range(KING + 1)]
            moving = sum(change)
            if idx == last:
                final = [held[r] * s[r] + moving * base[r] if r else 0.0 for r in range(KING + 1)]
                finals.append(final)
                return finals, moving * p_king
            final = [held[r] * s[r] + p_king * change[r] + (1 - p_king) * moving * no_king[r]
                     if r else 0.0 for r in range(KING + 1)]
            finals.append(final)
            if moving > 0:
                gone = [c / moving for c in change]
                passed = [(1 - p_king) * g for g in gone]
                passed[KING] += p_king
                held = [(1 - moving) * b + moving * q for b, q in zip(base, passed, strict=True)]
            else:
                held = base
        return finals, 0.0


def unseen(known: Iterable[Card]) -> Dist:
    """The rank distribution of a card not among `known` (four of each rank in the pack)."""
    counts = [0.0] + [4.0] * KING
    for card in known:
        counts[int(card.rank)] = max(counts[int(card.rank)] - 1.0, 0.0)
    total = sum(counts)
    return [c / total for c in counts]


def point(rank: int) -> Dist:
    """Certainty of one rank."""
    dist = [0.0] * (KING + 1)
    dist[rank] = 1.0
    return dist


def without_king(dist: Dist) -> Dist:
    """`dist` given that the card is no king."""
    rest = 1.0 - dist[KING]
    if rest <= 0:
        return point(KING - 1)
    return [d / rest if r != KING else 0.0 for r, d in enumerate(dist)]


def weighted(dist: Dist, weight: Callable[[int], float]) -> Dist:
    """`dist` reweighted by `weight(rank)` and normalised (unchanged if every weight is 0)."""
    out = [dist[r] * weight(r) if r else 0.0 for r in range(KING + 1)]
    total = sum(out)
    return [x / total for x in out] if total > 0 else dist


def lose(rank: int, others: Sequence[Dist]) -> float:
    """The chance that `rank` is the lowest or tied lowest: every other final card at least as
    high (the cards taken as independent)."""
    chance = 1.0
    for dist in others:
        chance *= sum(dist[rank:])
    return chance
