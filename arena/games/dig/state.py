"""A game of Dig in progress: the deal, plays and namings, digging, the stock running out, and
the end."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card, Rank, Suit, standard_deck
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.games.common import stacked
from arena.games.dig import actions as act
from arena.games.dig import narration
from arena.games.dig.dealing import DEALT, split_hands
from arena.games.dig.matching import WILD, Target
from arena.games.dig.table import (
    DigView,
    Drew,
    Dug,
    End,
    GameOver,
    HandDealt,
    Named,
    Passed,
    Phase,
    Played,
    Reshuffled,
    Started,
)
from arena.games.dig.variants import DEALER, SEATS, DigParams, Naming, StockOut

_SUITS = {suit: i for i, suit in enumerate(Suit)}


def hand_order(card: Card) -> tuple[int, int]:
    """Hands are kept sorted by suit (clubs, diamonds, hearts, spades), then rank."""
    return (_SUITS[card.suit] if card.suit is not None else 0, card.rank.value)


class DigState(State):
    """A game of Dig: seat 1 deals, seat 0 plays first."""

    def __init__(self, params: DigParams, players: int, rng: random.Random,
                 deck: Sequence[Card] | None = None) -> None:
        """Shuffle a pack from `rng`, or deal `deck`, a whole pack in deal order (see
        `dealing.stack_deck`); the first player digs at once if they cannot play."""
        super().__init__()
        if players != SEATS:
            raise PlayersError(f"dig is for {SEATS} players, not {players}")
        self.params = params
        self.rng = rng
        cards = standard_deck()
        rng.shuffle(cards)
        if deck is not None:
            cards = stacked(deck, cards)
        self.hands = [sorted(h, key=hand_order) for h in split_hands(cards)]
        upcard = cards[DEALT]
        self.pile: list[Card] = [upcard]
        self.stock: list[Card] = cards[:DEALT:-1]  # the next card to dig is last
        self.target = Target.of(upcard)
        self.seat = 0
        self.phase = Phase.PLAY
        self.turns = 0
        self.passes = 0  # passes in a row
        self.digs = [0] * SEATS  # cards dug, by seat
        self.eights = [0] * SEATS
        self.reshuffles = 0
        self.ended: End | None = None
        self._legal: tuple[Action, ...] | None = None
        self.log.append(Started(DEALER, upcard, len(self.stock)))
        for seat in range(SEATS):
            self.tell([seat], HandDealt(seat, tuple(self.hands[seat])))
        self._begin_turn()

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The seat to play or name; nobody once the game is over."""
        return () if self.phase is Phase.OVER else (self.seat,)

    def legal(self, seat: int) -> tuple[Action, ...]:
        """The playable cards in hand order; or, after an eight, the suits (and ranks) to name."""
        if self._legal is None:
            if self.phase is Phase.NAME:
                choices: list[Suit | Rank] = list(act.SUITS)
                if self.params.naming is Naming.SUIT_OR_RANK:
                    choices += act.RANKS
                self._legal = tuple(act.name(c) for c in choices)
            elif self.phase is Phase.PLAY:
                accepts = self.target.accepts
                self._legal = tuple(act.play(c) for c in self.hands[seat] if accepts(c))
            else:
                self._legal = ()
        return self._legal

    def view(self, seat: int) -> DigView:
        """The seat's own hand, the top card and what it asks for, and the counts."""
        return DigView(seat, tuple(self.hands[seat]), self.pile[-1], self.target.suit,
                       self.target.rank, tuple(len(h) for h in self.hands), len(self.stock),
                       len(self.pile), self.phase, self.seat if self.ended is None else None,
                       self.turns)

    def apply(self, seat: int, action: Action) -> None:
        """Play a card, or name a suit or rank after an eight."""
        if seat != self.seat or action not in self.legal(seat):
            raise ValueError(f"seat {seat} cannot {action!r} now")
        self._legal = None
        if self.phase is Phase.NAME:
            choice = act.read_name(action)
            suit = choice if isinstance(choice, Suit) else None
            rank = choice if isinstance(choice, Rank) else None
            self.target = Target(suit, rank)
            self.log.append(Named(seat, suit, rank))
            self._end_turn()
            return
        card = act.read_play(action)
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.log.append(Played(seat, card, len(hand)))
        if not hand:
            self.turns += 1
            self._game_over(End.OUT)
        elif card.rank is WILD:
            self.eights[seat] += 1
            self.phase = Phase.NAME
        else:
            self.target = Target.of(card)
            self._end_turn()

    def outcome(self) -> Outcome:
        """Each seat scores the other's cards left less its own (higher wins) and a summary."""
        left = [len(h) for h in self.hands]
        scores = tuple(float(left[1 - s] - left[s]) for s in range(SEATS))
        final: dict[str, Any] = {
            "end": (self.ended or End.TURN_LIMIT).value,
            "left": left,
            "dug": list(self.digs),
            "eights": list(self.eights),
            "reshuffles": self.reshuffles,
            "stock": len(self.stock),
        }
        return Outcome(scores, ScoreOrder.HIGHER_WINS, self.turns, final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """The seat's hand and the pile: every card in it was played face up."""
        return [*self.hands[seat], *self.pile]

    def inventory(self) -> Collection[Card]:
        """Every card: hands, pile and stock."""
        return [*self.hands[0], *self.hands[1], *self.pile, *self.stock]

    # -- turns ----------------------------------------------------------------------------------

    def _end_turn(self) -> None:
        self.turns += 1
        self.passes = 0
        self.phase = Phase.PLAY
        self.seat = 1 - self.seat
        if self.turns >= self.params.max_turns:
            self._game_over(End.TURN_LIMIT)
        else:
            self._begin_turn()

    def _begin_turn(self) -> None:
        """Dig for the seat to act until it can play; pass when the stock cannot help."""
        while True:
            hand = self.hands[self.seat]
            accepts = self.target.accepts
            if any(accepts(c) for c in hand):
                return
            if not self._dig(hand):
                self.log.append(Passed(self.seat))
                self.turns += 1
                self.passes += 1
                self.seat = 1 - self.seat
                if self.passes >= SEATS:
                    self._game_over(End.BLOCKED)
                    return
                if self.turns >= self.params.max_turns:
                    self._game_over(End.TURN_LIMIT)
                    return

    def _dig(self, hand: list[Card]) -> bool:
        """Dig until a card can be played; False if the stock (and pile) could give none."""
        drawn: list[Card] = []
        accepts = self.target.accepts
        while not (drawn and accepts(drawn[-1])):
            if not self.stock:
                if self.params.stock_out is not StockOut.RESHUFFLE or len(self.pile) < 2:
                    break
                self._report(drawn)
                drawn = []
                self._reshuffle()
            drawn.append(self.stock.pop())
        self._report(drawn)
        return bool(drawn) and accepts(drawn[-1])

    def _report(self, drawn: list[Card]) -> None:
        if not drawn:
            return
        hand = self.hands[self.seat]
        hand += drawn
        hand.sort(key=hand_order)
        self.digs[self.seat] += len(drawn)
        self.tell([self.seat], Drew(self.seat, tuple(drawn)))
        self.log.append(Dug(self.seat, len(drawn), len(self.stock)))

    def _reshuffle(self) -> None:
        top = self.pile.pop()
        under = self.pile
        self.rng.shuffle(under)
        self.stock = under
        self.pile = [top]
        self.reshuffles += 1
        self.log.append(Reshuffled(None, len(under)))

    def _game_over(self, reason: End) -> None:
        self.ended = reason
        self.phase = Phase.OVER
        self._legal = None
        left = tuple(len(h) for h in self.hands)
        fewest = min(left)
        self.log.append(GameOver(None, reason, left,
                                 tuple(s for s in range(SEATS) if left[s] == fewest)))

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The game about to be played, the upcard, and a dig by the first player if the deal
        already forced one."""
        first = next((e for e in self.log if isinstance(e, Started)), None)
        lines = narration.opening(self.params, first)
        names = [f"seat {s}" for s in range(SEATS)]
        for i, event in enumerate(self.log):
            if i not in self.private:
                lines += narration.describe(event, names) or []
        return lines

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for a public event, at most 80 columns wide."""
        lines = narration.describe(event, names)
        return lines if lines is not None else super().narrate(event, names)
