"""A game of Memorandum in progress: one deal by each seat in turn, the calls, the scoring."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.frozen import maker
from arena.games.memorandum import narration
from arena.games.memorandum.dealing import Deal, Stack, holders_of, shuffled_deal, stacked_deal
from arena.games.memorandum.scoring import score_deal
from arena.games.memorandum.table import (
    Called,
    DealScored,
    DealStarted,
    GameOver,
    HandDealt,
    HandsShown,
    MemorandumView,
    Phase,
    Pile,
    Resolved,
    Returned,
    Say,
)
from arena.games.memorandum.variants import MemorandumParams, pack_cards

_new_view = maker(MemorandumView)
_new_called = maker(Called)
_new_resolved = maker(Resolved)

DEALING: tuple[Say, ...] = (Say.DEAL,)
CLAIMING: tuple[Say, ...] = (Say.MINE, Say.PASS)


class MemorandumState(State):
    """A game of Memorandum: `players` seats, each dealing once, seat 0 first."""

    def __init__(self, params: MemorandumParams, players: int, rng: random.Random,
                 stacks: Mapping[int, Stack] | None = None) -> None:
        """A new game; `stacks` prearranges deals by their number (0-based), for tests."""
        super().__init__()
        if players not in params.players_allowed():
            raise PlayersError(f"memorandum with these parameters cannot seat {players}")
        self.params = params
        self.seats = players
        self.rng = rng
        self.stacks = dict(stacks or {})
        self.pack = pack_cards(params.pack)
        self.order = {card: i for i, card in enumerate(self.pack)}
        self.hand_size = params.hand_size(players)
        self.totals = [0] * players
        self.summaries: list[dict[str, Any]] = []
        self.calls_total = 0
        # the deal in progress (or just finished)
        self.deal_no = 0
        self.dealer = 0
        self.phase = Phase.DEAL
        self.holders: tuple[int, ...] = ()
        self.hands: list[tuple[Card, ...]] = [() for _ in range(players)]
        self.set_aside: tuple[Card, ...] = ()
        self.to_call: list[Card] = []  # the dealer's pack, face down; the next card is the last
        self.called: Card | None = None
        self.number = 0
        self.called_cards: list[Card] = []  # every card called this deal, the current one too
        self.received: list[list[Card]] = [[] for _ in range(players)]
        self.unclaimed: list[Card] = []
        self.disputed: list[Card] = []
        self.undealt = (list(self.pack), list(self.pack))  # (playing pack, dealer's pack)
        self.shown: tuple[Card, ...] = ()  # face up since the last deal ended
        self._to_act: tuple[int, ...] = (0,)
        self._view: MemorandumView | None = None

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The dealer about to deal, or every player but the dealer once a card is called."""
        return self._to_act

    def legal(self, seat: int) -> tuple[Action, ...]:
        """`deal` for the dealer starting a deal; `mine` or `pass` for a called card."""
        return CLAIMING if self.phase is Phase.CALL else DEALING

    def view(self, seat: int) -> MemorandumView:
        """The public table; every seat sees the same, and never a hand."""
        return self._view or self._freeze_view()

    def _freeze_view(self) -> MemorandumView:
        calling = self.phase is Phase.CALL
        empty: tuple[Card, ...] = ()
        self._view = _new_view(
            self.deal_no, self.seats, self.dealer, self.seats, self.hand_size,
            len(self.pack), self.phase, self.called, self.number if calling else 0,
            tuple(tuple(r) for r in self.received) if calling else (empty,) * self.seats,
            tuple(self.unclaimed) if calling else empty,
            tuple(self.disputed) if calling else empty, tuple(self.totals))
        return self._view

    def apply(self, seat: int, action: Action) -> None:
        """The dealer deals (a one-seat decision); a lone answer to a call goes to apply_joint."""
        if self.phase is Phase.CALL:
            self.apply_joint({seat: action})
            return
        if self.phase is not Phase.DEAL or seat != self.dealer or action != Say.DEAL:
            raise ValueError(f"seat {seat} cannot {action!r} now")
        self._start_deal()

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        """Every player has said "Mine!" or passed: the called card goes to its pile."""
        if self.phase is not Phase.CALL:
            (seat, action), = actions.items()
            self.apply(seat, action)
            return
        if set(actions) != set(self._to_act):
            raise ValueError(f"every player but the dealer answers a call, not {sorted(actions)}")
        claimants = tuple(s for s in self._to_act if actions[s] == Say.MINE)
        card = self.called
        assert card is not None
        if len(claimants) == 1:
            self.received[claimants[0]].append(card)
            pile = Pile.TAKEN
        elif claimants:
            self.disputed.append(card)
            pile = Pile.DISPUTED
        else:
            self.unclaimed.append(card)
            pile = Pile.UNCLAIMED
        self.called = None
        self.calls_total += 1
        self.log.append(_new_resolved(self.dealer, self.number, card, claimants, pile))
        if self.to_call:
            self._call_next()
        else:
            self._end_deal()

    def outcome(self) -> Outcome:
        """Total points over the deals played (higher wins) and a summary of every deal."""
        final: dict[str, Any] = {"totals": list(self.totals), "deals": list(self.summaries)}
        return Outcome(tuple(float(t) for t in self.totals), ScoreOrder.HIGHER_WINS,
                       self.calls_total, final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """The cards called this deal (all public), plus the seat's own hand while it is shown
        (up to the first claim decision); between deals, everything turned up at the last end."""
        if self.phase is not Phase.CALL:
            return self.shown
        if self.number == 1 and seat != self.dealer:
            return (*self.called_cards, *self.hands[seat])
        return tuple(self.called_cards)

    def inventory(self) -> Collection[Card]:
        """Both packs wherever they are: undealt, hands, set aside, to call, called, piles."""
        cards = [*self.undealt[0], *self.undealt[1], *self.set_aside, *self.to_call,
                 *self.unclaimed, *self.disputed]
        for hand, got in zip(self.hands, self.received, strict=True):
            cards += hand
            cards += got
        if self.called is not None:
            cards.append(self.called)
        return cards

    # -- the deal -------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        playing, dealers = self._gather()
        args = (playing, dealers, self.seats, self.dealer, self.hand_size)
        stack = self.stacks.get(self.deal_no)
        deal: Deal = (stacked_deal(*args, stack) if stack is not None
                      else shuffled_deal(*args, self.rng))
        self.holders = tuple(sorted(holders_of(self.dealer, self.seats)))
        self.hands, self.set_aside = list(deal.hands), deal.set_aside
        self.to_call = list(reversed(deal.calls))
        self.shown = ()
        self.log.append(DealStarted(self.dealer, self.deal_no, holders_of(self.dealer, self.seats),
                                    self.hand_size, len(deal.set_aside), len(self.pack)))
        for seat in self.holders:
            self.tell([seat], HandDealt(seat, self.hands[seat]))
        self._to_act = self.holders
        self.phase = Phase.CALL
        self._call_next()

    def _gather(self) -> tuple[list[Card], list[Card]]:
        """Pick up both packs from wherever their cards lie, each sorted into pack order."""
        playing = [*self.undealt[0], *self.set_aside]
        dealers = [*self.undealt[1], *self.to_call, *self.unclaimed, *self.disputed]
        for hand, got in zip(self.hands, self.received, strict=True):
            playing += hand
            dealers += got
        self.undealt = ([], [])
        self.hands = [() for _ in range(self.seats)]
        self.received = [[] for _ in range(self.seats)]
        self.set_aside, self.to_call, self.unclaimed, self.disputed = (), [], [], []
        self.called_cards, self.number = [], 0
        key = self.order.__getitem__
        return sorted(playing, key=key), sorted(dealers, key=key)

    def _call_next(self) -> None:
        card = self.to_call.pop()
        self.called = card
        self.number += 1
        self.called_cards.append(card)
        self._view = None
        self.log.append(_new_called(self.dealer, self.number, card))

    def _end_deal(self) -> None:
        dealer = self.dealer
        score = score_deal(self.hands, self.received, self.unclaimed, self.disputed, dealer)
        self.log.append(HandsShown(None, self.deal_no, tuple(self.hands), self.set_aside))
        for seat, wrong in enumerate(score.returned):
            if wrong:
                self.received[seat] = [c for c in self.received[seat] if c not in wrong]
                self.log.append(Returned(seat, wrong))
        self.unclaimed = list(score.unclaimed)
        for seat, points in enumerate(score.points):
            self.totals[seat] += points
        returned = tuple(len(w) for w in score.returned)
        self.log.append(DealScored(dealer, self.deal_no, score.points, score.right,
                                   score.disputed, returned, len(self.unclaimed),
                                   len(self.disputed), tuple(self.totals)))
        self.summaries.append({
            "dealer": dealer, "points": list(score.points), "right": list(score.right),
            "disputed": list(score.disputed), "returned": list(returned),
            "unclaimed": len(self.unclaimed), "dispute_pile": len(self.disputed),
            "set_aside": len(self.set_aside)})
        self.shown = tuple(self.inventory())  # every card of both packs lies face up now
        self.deal_no += 1
        self._view = None
        if self.deal_no == self.seats:
            self.phase = Phase.OVER
            self._to_act = ()
            best = max(self.totals)
            winners = tuple(s for s, t in enumerate(self.totals) if t == best)
            self.log.append(GameOver(None, tuple(self.totals), winners))
        else:
            self.phase = Phase.DEAL
            self.dealer = self.deal_no
            self._to_act = (self.dealer,)

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The game about to be played: packs, deals, hands and the value of `p`."""
        return narration.opening(self.params, self.seats, self.hand_size)

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for a public event, at most 80 columns wide."""
        lines = narration.describe(event, names, self.seats)
        return lines if lines is not None else super().narrate(event, names)
