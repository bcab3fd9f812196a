"""A game of Stealing the Old Man's Bundle in progress: rounds of four cards, takes, steals and
trails, and the end when the pack is exhausted."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card, Suit, standard_deck
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.games.common import stacked
from arena.games.old_mans_bundle import actions as act
from arena.games.old_mans_bundle import narration
from arena.games.old_mans_bundle.actions import Verb
from arena.games.old_mans_bundle.dealing import ROUNDS, split_round
from arena.games.old_mans_bundle.table import (
    BundleView,
    Dealt,
    GameOver,
    HandDealt,
    Stole,
    TableLeft,
    Took,
    Trailed,
)
from arena.games.old_mans_bundle.variants import (
    DEALER,
    HAND,
    SEATS,
    TABLE,
    BundleParams,
    Leftover,
    TakeRule,
)

_SUITS = {suit: i for i, suit in enumerate(Suit)}


def hand_order(card: Card) -> tuple[int, int]:
    """Hands are kept sorted by rank, then suit (clubs, diamonds, hearts, spades)."""
    return (card.rank.value, _SUITS[card.suit] if card.suit is not None else 0)


class BundleState(State):
    """A game of Stealing the Old Man's Bundle: seat 1 deals, seat 0 leads."""

    def __init__(self, params: BundleParams, players: int, rng: random.Random,
                 deck: Sequence[Card] | None = None) -> None:
        """Shuffle a pack from `rng`, or deal `deck`, a whole pack in deal order (see
        `dealing.stack_deck`), and deal the first round."""
        super().__init__()
        if players != SEATS:
            raise PlayersError(f"old-mans-bundle is for {SEATS} players, not {players}")
        self.params = params
        cards = standard_deck()
        rng.shuffle(cards)
        if deck is not None:
            cards = stacked(deck, cards)
        self.stock: list[Card] = cards[::-1]  # the next card to deal is last
        self.hands: list[list[Card]] = [[] for _ in range(SEATS)]
        self.table: list[Card] = []
        self.bundles: list[list[Card]] = [[] for _ in range(SEATS)]  # bottom first
        self.takes = [0] * SEATS
        self.steals = [0] * SEATS
        self.trails = [0] * SEATS
        self.last_taker: int | None = None
        self.left: tuple[Card, ...] = ()
        self.round = 0
        self.turns = 0
        self.seat: int | None = 0
        self._legal: tuple[Action, ...] | None = None
        self._deal_round()

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The seat whose turn it is; nobody once the last hand is played."""
        return () if self.seat is None else (self.seat,)

    def legal(self, seat: int) -> tuple[Action, ...]:
        """For each card in hand (in hand order): steal, take(s), then trail."""
        if self._legal is None:
            self._legal = self._moves(seat)
        return self._legal

    def _moves(self, seat: int) -> tuple[Action, ...]:
        other = self.bundles[1 - seat]
        top = other[-1].rank if other else None
        one = self.params.take is TakeRule.ONE
        out: list[Action] = []
        for card in self.hands[seat]:
            if card.rank == top:
                out.append(act.steal(card))
            same = [t for t in self.table if t.rank == card.rank]
            if same and one:
                out += [act.take(card, t) for t in same]
            elif same:
                out.append(act.take(card))
            out.append(act.trail(card))
        return tuple(out)

    def view(self, seat: int) -> BundleView:
        """The seat's own hand, the table, the top card and size of each bundle, the counts."""
        return BundleView(
            seat, tuple(self.hands[seat]), tuple(self.table),
            tuple(b[-1] if b else None for b in self.bundles),
            tuple(len(b) for b in self.bundles), tuple(len(h) for h in self.hands),
            len(self.stock), self.round, ROUNDS, self.turns, self.seat, DEALER)

    def apply(self, seat: int, action: Action) -> None:
        """Play one card from hand: take in, steal or trail; then deal or end as needed."""
        if seat != self.seat or action not in self.legal(seat):
            raise ValueError(f"seat {seat} cannot play {action!r} now")
        move = act.read(action)
        card = move.card
        self.hands[seat].remove(card)
        mine = self.bundles[seat]
        if move.verb is Verb.STEAL:
            victim = 1 - seat
            stolen = self.bundles[victim]
            self.bundles[victim] = []
            mine += stolen
            mine.append(card)
            self.steals[seat] += 1
            self.last_taker = seat
            self.log.append(Stole(seat, card, victim, stolen[-1], len(stolen), len(mine)))
        elif move.verb is Verb.TAKE:
            taken = [t for t in self.table if t.rank == card.rank
                     and (move.target is None or t == move.target)]
            self.table = [t for t in self.table if t not in taken]
            mine += taken
            mine.append(card)
            self.takes[seat] += 1
            self.last_taker = seat
            self.log.append(Took(seat, card, tuple(taken), len(mine)))
        else:
            self.table.append(card)
            self.trails[seat] += 1
            self.log.append(Trailed(seat, card))
        self.turns += 1
        self._legal = None
        self.seat = 1 - seat
        if not any(self.hands):
            if self.stock:
                self._deal_round()
            else:
                self._game_over()

    def outcome(self) -> Outcome:
        """Bundle sizes (higher wins) and the game's summary."""
        sizes = [len(b) for b in self.bundles]
        final: dict[str, Any] = {
            "bundles": sizes,
            "takes": list(self.takes),
            "steals": list(self.steals),
            "trails": list(self.trails),
            "left_on_table": len(self.left),
            "leftover_to": self.last_taker if self._leftover_taken() else None,
        }
        return Outcome(tuple(float(s) for s in sizes), ScoreOrder.HIGHER_WINS, self.turns, final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """The seat's hand, the table, and every card in the bundles: each was face up in
        public when it went in."""
        cards = [*self.hands[seat], *self.table]
        for bundle in self.bundles:
            cards += bundle
        return cards

    def inventory(self) -> Collection[Card]:
        """Every card: stock, hands, table and bundles."""
        cards = [*self.stock, *self.table]
        for pile in (*self.hands, *self.bundles):
            cards += pile
        return cards

    # -- dealing and the end --------------------------------------------------------------------

    def _deal_round(self) -> None:
        self.round += 1
        dealt = [self.stock.pop() for _ in range(SEATS * HAND)]
        table: tuple[Card, ...] = ()
        if self.round == 1:
            table = tuple(self.stock.pop() for _ in range(TABLE))
            self.table = list(table)
        self.log.append(Dealt(DEALER, self.round, table, len(self.stock)))
        for seat, hand in enumerate(split_round(dealt)):
            self.hands[seat] = sorted(hand, key=hand_order)
            self.tell([seat], HandDealt(seat, self.round, tuple(self.hands[seat])))
        self.seat = 0
        self._legal = None

    def _leftover_taken(self) -> bool:
        return self.params.leftover is Leftover.LAST_TAKER and self.last_taker is not None

    def _game_over(self) -> None:
        self.seat = None
        left = tuple(self.table)
        self.left = left
        if left:
            taker = self.last_taker if self._leftover_taken() else None
            if taker is not None:
                self.bundles[taker] += left
                self.table = []
            self.log.append(TableLeft(taker, left))
        sizes = tuple(len(b) for b in self.bundles)
        best = max(sizes)
        self.log.append(GameOver(None, sizes, tuple(s for s in range(SEATS) if sizes[s] == best)))

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The game about to be played and the table as dealt."""
        first = next((e for e in self.log if isinstance(e, Dealt)), None)
        return narration.opening(self.params, first.table if first is not None else ())

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for a public event, at most 80 columns wide."""
        lines = narration.describe(event, names)
        return lines if lines is not None else super().narrate(event, names)
