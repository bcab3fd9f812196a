"""Paved with Gold's hidden cards dealt again from one seat's knowledge: the face-down places it
does not know, and the stock.

What the seat knows: the card at every place it looked at (until that card leaves the square),
every card shown by a claim, every card won or given as bonus (they lie face up), and which
places each other seat looked at, so which cards each of them knows. The cards not accounted for
are exactly those of the places it does not know and of the stock; the sample shuffles them
into those places and the stock. What the others' looks reveal is kept in the sampled state
(`PavedSample.known`): each seat's known places, followed as the sample is played out, so that
a playout policy can play each seat from its own memory rather than from the true cards. Each
sample also carries the rng of its playouts (`playout_rng`), which `clone` copies in its state
then, so that every action tried on a sample is played out with the same chances (common random
numbers).
"""

from __future__ import annotations

import random
from collections import Counter

from arena.api import Reveal
from arena.cards import Card, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.paved_with_gold.narration import Narrator
from arena.games.paved_with_gold.state import PavedState
from arena.games.paved_with_gold.table import (
    Announce,
    Bonus,
    EndClaim,
    Failed,
    Look,
    PavedView,
    Phase,
    Spot,
    Verdict,
    Won,
)
from arena.games.paved_with_gold.variants import PavedParams

PACK: tuple[Card, ...] = tuple(standard_deck())

HORIZON = 3
"""Turns a playout plays past the sampled one before it is scored as it stands: the score moves
in steps of a whole claim, so a long playout adds noise that hides what one decision changes
(in a 20-deal trial, playouts to the end lost by about 44 a deal to `prospector`)."""


class PavedBelief:
    """What a seat's events say of the square: the cards it knows at their places, the places
    each seat knows, and the cards won and given so far."""

    def __init__(self, knowledge: Knowledge) -> None:
        """Read the events in order, then what the view shows."""
        players, me = knowledge.players, knowledge.seat
        self.cards: dict[int, Card] = {}
        self.known: list[set[int]] = [set() for _ in range(players)]
        self.won: list[list[Card]] = [[] for _ in range(players)]
        self.bonus: list[list[Card]] = [[] for _ in range(players)]
        self.claims = [0] * players
        self.failed = [0] * players
        self.ending = False  # pending bonus cards come from the end claim
        self.held: list[int] = []  # the places picked up this turn, in order
        public = False  # reveals are public between a claim and its verdict
        for event in knowledge.events:
            if isinstance(event, Look):
                self.known[event.seat].add(event.position)
                self.held.append(event.position)
            elif isinstance(event, Reveal):
                if public or event.seat == me:
                    self.cards[event.position] = event.card
                if public:
                    for places in self.known:
                        places.add(event.position)
            elif isinstance(event, Announce | EndClaim):
                public, self.held = True, []
                self.ending = isinstance(event, EndClaim)
            elif isinstance(event, Won | Bonus):
                pile = self.won if isinstance(event, Won) else self.bonus
                pile[event.seat] += event.cards
                if isinstance(event, Won):
                    self.claims[event.seat] += 1
                self._forget(event.positions)
            elif isinstance(event, Failed):
                self.failed[event.seat] += 1
            elif isinstance(event, Verdict):
                pass  # the end claim's cards stay face up until they are given
            elif event.kind in ("put-back", "refill"):
                public, self.held = False, []
        view: PavedView = knowledge.view
        for p, cell in enumerate(view.cells):
            if isinstance(cell, Card):
                self.cards[p] = cell
            elif cell is Spot.EMPTY:
                self.cards.pop(p, None)
        self.cards.update(view.hand)

    def _forget(self, positions: tuple[int, ...]) -> None:
        for p in positions:
            self.cards.pop(p, None)
            for places in self.known:
                places.discard(p)


class PavedSample(PavedState):
    """A sampled game that also follows which places each seat knows (`known`), for playouts,
    and the turn at which a playout may stop (`horizon`)."""

    known: list[set[int]]
    horizon: int
    playout_rng: random.Random

    def _look(self, seat: int, pos: int) -> None:
        super()._look(seat, pos)
        self.known[seat].add(pos)

    def _remove(self, positions: tuple[int, ...], cards: tuple[Card, ...]) -> None:
        super()._remove(positions, cards)
        for places in self.known:
            places.difference_update(positions)


class PavedSampler(Sampler):
    """Deals the places a seat does not know and the stock from what it knows."""

    def __init__(self, horizon: int = HORIZON) -> None:
        """`horizon`: the turns after the sampled one at which a playout may stop (0: never)."""
        self.horizon = horizon

    def playout_over(self, state: State) -> bool:
        """Whether the playout has gone `horizon` turns past the sampled one."""
        stop = getattr(state, "horizon", 0)
        return bool(stop) and state.turns >= stop  # type: ignore[attr-defined]

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states: the cards not accounted for shuffled into the unknown places and the
        stock."""
        view: PavedView = knowledge.view
        assert isinstance(knowledge.params, PavedParams)
        belief = PavedBelief(knowledge)
        live = [p for p, cell in enumerate(view.cells) if cell is not Spot.EMPTY]
        unknown = [p for p in live if p not in belief.cards]
        pool = sorted((Counter(PACK) - Counter(view.out)
                       - Counter(belief.cards[p] for p in live if p in belief.cards)).elements(),
                      key=PACK.index)
        if len(pool) != len(unknown) + view.stock:
            raise ValueError("the seat's knowledge does not add up: "
                             f"{len(pool)} cards for {len(unknown)} places and {view.stock} "
                             "in the stock")
        return [self._deal(knowledge, belief, unknown, pool, rng) for _ in range(count)]

    def _deal(self, knowledge: Knowledge, belief: PavedBelief, unknown: list[int],
              pool: list[Card], rng: random.Random) -> PavedSample:
        view: PavedView = knowledge.view
        params = knowledge.params
        assert isinstance(params, PavedParams)
        cards = list(pool)
        rng.shuffle(cards)
        square: list[Card | None] = [None] * len(view.cells)
        for p, card in belief.cards.items():
            if view.cells[p] is not Spot.EMPTY:
                square[p] = card
        for p, card in zip(unknown, cards, strict=False):
            square[p] = card
        state = object.__new__(PavedSample)
        State.__init__(state)
        players = knowledge.players
        state.params = params
        state.rules = params.rules
        state.players = players
        state.square = square
        state.stock = cards[len(unknown):]
        state.won = [list(pile) for pile in belief.won]
        state.bonus = [list(pile) for pile in belief.bonus]
        state.points = list(view.points)
        state.claims = list(belief.claims)
        state.failed = list(belief.failed)
        state.seat = view.to_act
        state.phase = view.phase
        state.held = [p for p in belief.held if view.cells[p] is Spot.HELD]
        state.combo = view.claim
        if view.claim is not None:
            state.face_up = list(view.claim_positions)
        else:
            state.face_up = [p for p, cell in enumerate(view.cells) if isinstance(cell, Card)]
        state.claimant = view.to_act
        state.ending = belief.ending and view.phase is Phase.BONUS_TO
        state.turns = view.turn
        state.ended = None
        state.end_claim = None
        state._taken = list(view.out)
        state._out = None
        state.narrator = Narrator(state)
        state.horizon = view.turn + self.horizon if self.horizon else 0
        state.playout_rng = random.Random(rng.getrandbits(64))
        state.known = [set(places) for places in belief.known]
        state.known[knowledge.seat] = {p for p in range(len(square))
                                       if square[p] is not None and p in belief.cards}
        return state
