"""A game of Cuckoo in progress: one card each, stand or change round the table, the showdown,
chips paid, players dropping out until one is left."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card, Rank
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.games.cuckoo import narration
from arena.games.cuckoo.dealing import (
    PACK,
    Stack,
    next_dealer,
    shuffled_pack,
    stacked_pack,
    turn_order,
)
from arena.games.cuckoo.scoring import payers, survival_scores
from arena.games.cuckoo.table import (
    CardDealt,
    Changed,
    CuckooView,
    DealStarted,
    Drew,
    End,
    GameOver,
    KingShown,
    Phase,
    Received,
    Say,
    Showdown,
    Stood,
    Turn,
)
from arena.games.cuckoo.variants import CuckooParams

DEALING: tuple[Say, ...] = (Say.DEAL,)
PLAYING: tuple[Say, ...] = (Say.STAND, Say.CHANGE)
DEALER: tuple[Say, ...] = (Say.STAND, Say.DRAW)


class CuckooState(State):
    """A game of Cuckoo: `players` seats with `params.chips` chips each; seat 0 deals first."""

    def __init__(self, params: CuckooParams, players: int, rng: random.Random,
                 stacks: Mapping[int, Stack] | None = None) -> None:
        """A new game; `stacks` prearranges deals by their number (0-based), for tests."""
        super().__init__()
        if players not in params.players_allowed():
            raise PlayersError(f"cuckoo cannot seat {players} (6 to 20 players)")
        self.params = params
        self.seats = players
        self.rng = rng
        self.stacks = dict(stacks or {})
        self.limit = params.deal_limit(players)
        self.chips = [params.chips] * players
        self.out_deal: list[int | None] = [None] * players
        self.active = list(range(players))
        self.deal_no = 0  # the deal in progress, or the next one between deals
        self.dealer = 0
        self.phase = Phase.DEAL
        self.order = turn_order(0, self.active)
        self.pos = 0  # index into `order` of the seat to decide
        self.skipped: set[int] = set()  # kings shown: their turn has passed
        self.hands: dict[int, Card] = {}
        self.stock: list[Card] = list(PACK)  # the rest of the pack, drawn from the front
        self.aside: list[Card] = []  # the dealer's card after a draw
        self.drew_king = False
        self.kings: list[tuple[int, Card]] = []
        self.turns: list[tuple[int, Turn]] = []
        self.shown: tuple[Card | None, ...] = ()
        self.rounds: list[dict[str, Any]] = []
        self.end: End | None = None

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The dealer about to deal, or the one seat whose turn it is; none once over."""
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.DEAL:
            return (self.dealer,)
        return (self.order[self.pos],)

    def legal(self, seat: int) -> tuple[Action, ...]:
        """`deal`; `stand` or `change` for a player; `stand` or `draw` for the dealer."""
        if self.phase is Phase.DEAL:
            return DEALING
        if self.phase is Phase.OVER:
            return ()
        return DEALER if seat == self.dealer else PLAYING

    def view(self, seat: int) -> CuckooView:
        """The public table plus the seat's own card during a deal."""
        playing = self.phase is Phase.PLAY
        return CuckooView(
            self.deal_no, self.limit, self.dealer, self.phase, self.order,
            self.order[self.pos] if playing else None, tuple(self.turns), tuple(self.chips),
            self.hands.get(seat) if playing and seat in self.order else None,
            tuple(self.kings), () if playing else self.shown)

    def apply(self, seat: int, action: Action) -> None:
        """Carry out the action of the seat to act; ValueError for anything else."""
        if seat not in self.to_act() or action not in self.legal(seat):
            raise ValueError(f"seat {seat} cannot {action!r} now")
        if self.phase is Phase.DEAL:
            self._start_deal()
            return
        if action == Say.STAND:
            self.log.append(Stood(seat))
            self.turns.append((seat, Turn.STOOD))
        elif action == Say.DRAW:
            self._draw(seat)
        else:
            self._change(seat, self.order[self.pos + 1])
        self.pos += 1
        while self.pos < len(self.order) and self.order[self.pos] in self.skipped:
            self.pos += 1
        if self.pos == len(self.order):
            self._showdown()

    def outcome(self) -> Outcome:
        """Survival scores (higher wins: see `survival_scores`) and a summary of every deal."""
        scores = survival_scores(self.out_deal, self.chips, self.deal_no)
        final: dict[str, Any] = {
            "end": self.end.value if self.end else None, "deals": self.deal_no,
            "chips": list(self.chips), "out": list(self.out_deal), "rounds": list(self.rounds)}
        return Outcome(tuple(float(s) for s in scores), ScoreOrder.HIGHER_WINS, self.deal_no,
                       final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """During a deal: the seat's own card and the kings shown; between deals and at the
        end: the cards of the last showdown, face up on the table."""
        if self.phase is not Phase.PLAY:
            return [c for c in self.shown if c is not None]
        own = [self.hands[seat]] if seat in self.order else []
        return own + [card for _, card in self.kings]

    def inventory(self) -> Collection[Card]:
        """The pack wherever it lies: held, the rest of the pack, the dealer's card put aside."""
        return [*self.hands.values(), *self.stock, *self.aside]

    # -- the deal -------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        stack = self.stacks.get(self.deal_no)
        self.order = turn_order(self.dealer, self.active)
        deck = (stacked_pack(self.order, stack) if stack is not None
                else shuffled_pack(self.rng))
        self.hands = dict(zip(self.order, deck, strict=False))
        self.stock = deck[len(self.order):]
        self.aside = []
        self.pos, self.skipped, self.drew_king = 0, set(), False
        self.kings, self.turns, self.shown = [], [], ()
        self.phase = Phase.PLAY
        self.log.append(DealStarted(self.dealer, self.deal_no, self.order, tuple(self.chips)))
        for seat in self.order:
            self.tell([seat], CardDealt(seat, self.hands[seat]))

    def _change(self, seat: int, neighbour: int) -> None:
        held = self.hands[neighbour]
        if held.rank is Rank.KING:
            self.log.append(KingShown(neighbour, seat, held))
            self.kings.append((neighbour, held))
            self.skipped.add(neighbour)
            self.turns += [(seat, Turn.REFUSED), (neighbour, Turn.KING)]
            return
        mine = self.hands[seat]
        self.hands[seat], self.hands[neighbour] = held, mine
        self.log.append(Changed(seat, neighbour))
        self.tell([seat], Received(seat, held, neighbour))
        self.tell([neighbour], Received(neighbour, mine, seat))
        self.turns.append((seat, Turn.CHANGED))

    def _draw(self, dealer: int) -> None:
        self.aside.append(self.hands[dealer])
        card = self.stock.pop(0)
        self.hands[dealer] = card
        self.drew_king = card.rank is Rank.KING
        self.log.append(Drew(dealer))
        self.tell([dealer], Received(dealer, card, None))
        self.turns.append((dealer, Turn.DREW))

    def _showdown(self) -> None:
        held = {seat: self.hands[seat] for seat in self.order}
        low, paying = payers(held, self.dealer, self.drew_king)
        dropped = []
        for seat in paying:
            self.chips[seat] -= 1
            if self.chips[seat] == 0:
                dropped.append(seat)
                self.out_deal[seat] = self.deal_no + 1
                self.active.remove(seat)
        self.shown = tuple(held.get(seat) for seat in range(self.seats))
        self.log.append(Showdown(None, self.deal_no, self.shown, low, paying, self.drew_king,
                                 tuple(self.chips), tuple(dropped)))
        self.rounds.append({"dealer": self.dealer, "low": low, "payers": list(paying),
                            "dealer_king": self.drew_king, "dropped": dropped})
        self.deal_no += 1
        self.kings, self.turns = [], []
        if len(self.active) <= 1 or self.deal_no >= self.limit:
            self._game_over()
            return
        self.dealer = next_dealer(self.dealer, self.active)
        self.order = turn_order(self.dealer, self.active)
        self.phase = Phase.DEAL

    def _game_over(self) -> None:
        self.end = (End.SURVIVOR if len(self.active) == 1 else
                    End.ALL_OUT if not self.active else End.LIMIT)
        self.phase = Phase.OVER
        self.order = ()
        scores = survival_scores(self.out_deal, self.chips, self.deal_no)
        best = max(scores)
        winners = tuple(s for s, v in enumerate(scores) if v == best)
        self.log.append(GameOver(None, self.end, self.deal_no, scores, winners))

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The game about to be played: seats, chips and the deal limit."""
        return narration.opening(self.params, self.seats, self.limit)

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for a public event, at most 80 columns wide."""
        lines = narration.describe(event, names)
        return lines if lines is not None else super().narrate(event, names)
