"""A game of Frogs in the Pond in progress: deals of tricks and frogs until a side has won."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card, standard_deck
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.frozen import maker
from arena.games.frogs_in_the_pond import narration, scoring
from arena.games.frogs_in_the_pond.dealing import Deal, Stack, shuffled_deal, stacked_deal
from arena.games.frogs_in_the_pond.table import (
    DealScored,
    DealShown,
    DealStarted,
    End,
    FrogSeen,
    FrogsView,
    FrogTaken,
    GameOver,
    HandDealt,
    Phase,
    Play,
    Played,
    Say,
    TrickWon,
)
from arena.games.frogs_in_the_pond.tricks import playable, winning_play
from arena.games.frogs_in_the_pond.variants import REMOVED, FrogsParams, hand_size

_new_view = maker(FrogsView)
_new_played = maker(Played)

DEALING: tuple[Action, ...] = (Say.DEAL,)


class FrogsState(State):
    """A game of Frogs in the Pond: `players` seats, seat 0 dealing first, the deal passing left."""

    def __init__(self, params: FrogsParams, players: int, rng: random.Random,
                 stacks: Mapping[int, Stack] | None = None) -> None:
        """A new game; `stacks` prearranges deals by their number (0-based), for tests."""
        super().__init__()
        if players not in params.players_allowed():
            raise PlayersError(f"frogs-in-the-pond cannot seat {players}")
        self.params = params
        self.seats = players
        self.rng = rng
        self.stacks = dict(stacks or {})
        self.sides = params.sides(players)
        self.removed = REMOVED[players]
        self.pack = [c for c in standard_deck() if c not in self.removed]
        self.hand_size = hand_size(players)
        self.totals = [0] * len(self.sides)  # by side
        self.summaries: list[dict[str, Any]] = []
        self.plays_total = 0
        self.end: End | None = None
        self.winners: tuple[int, ...] = ()
        # the deal in progress (or just finished)
        self.deal_no = 0
        self.dealer = 0
        self.phase = Phase.DEAL
        self.undealt: list[Card] = list(self.pack)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.pond: list[Card] = []  # the frog pile, face down; the top frog is the last
        self.won: list[list[Card]] = [[] for _ in range(players)]  # trick cards, by seat
        self.frogs: list[list[Card]] = [[] for _ in range(players)]  # frogs taken, by seat
        self.trick: list[Play] = []
        self.last_trick: tuple[Play, ...] = ()
        self.last_winner: int | None = None
        self.number = 0  # the trick in progress, 1-based
        self.leader = 1 % players
        self.to_play = 0
        self.shown: tuple[Card, ...] = self.removed  # face up between deals
        self._legal: tuple[Action, ...] | None = None
        self._views: dict[int, FrogsView] = {}

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The dealer about to deal, or the player to play a card; nobody once the game is over."""
        if self.phase is Phase.PLAY:
            return (self.to_play,)
        return (self.dealer,) if self.phase is Phase.DEAL else ()

    def legal(self, seat: int) -> tuple[Action, ...]:
        """`deal` for the dealer starting a deal; else the cards the player may play: any card
        to lead, a card of the suit led when they hold one, any card when they do not."""
        if self.phase is not Phase.PLAY:
            return DEALING
        if self._legal is None:
            led = self.trick[0][1].suit if self.trick else None
            self._legal = playable(self.hands[self.to_play], led)
        return self._legal

    def view(self, seat: int) -> FrogsView:
        """The table as `seat` sees it: its own hand and frogs, the trick, the public counts."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = _new_view(
                self.seats, self.sides, self.deal_no, self.dealer, self.phase,
                tuple(self.hands[seat]), self.number, self.leader, tuple(self.trick),
                self.last_trick, self.last_winner, tuple(self.frogs[seat]), len(self.pond),
                tuple(len(w) // self.seats for w in self.won), self.seat_totals(),
                self.params.target, self.params.tadpole, self.removed)
        return view

    def apply(self, seat: int, action: Action) -> None:
        """The dealer deals, or the player to play plays a legal card."""
        if seat not in self.to_act() or action not in self.legal(seat):
            raise ValueError(f"seat {seat} cannot {action!r} now")
        self._legal = None
        self._views.clear()
        if self.phase is Phase.DEAL:
            self._start_deal()
            return
        assert isinstance(action, Card)
        self.hands[seat].remove(action)
        self.trick.append((seat, action))
        self.plays_total += 1
        self.log.append(_new_played(seat, self.number, action))
        if len(self.trick) < self.seats:
            self.to_play = (seat + 1) % self.seats
        else:
            self._end_trick()

    def outcome(self) -> Outcome:
        """Totals (partners carry their side's; higher wins), the sides, and every deal."""
        totals = self.seat_totals()
        teams = self.sides if len(self.sides) < self.seats else None
        final: dict[str, Any] = {
            "totals": list(totals), "sides": [list(s) for s in self.sides],
            "winners": list(self.winners), "end": self.end.value if self.end else None,
            "deals": list(self.summaries)}
        return Outcome(tuple(float(t) for t in totals), ScoreOrder.HIGHER_WINS,
                       self.plays_total, final, teams)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """During a deal: the seat's hand and frogs, the trick in progress, the last trick and the
        cards out of play; between deals, everything turned up at the end of the last one."""
        if self.phase is not Phase.PLAY:
            return self.shown
        return [*self.hands[seat], *self.frogs[seat], *(c for _, c in self.trick),
                *(c for _, c in self.last_trick), *self.removed]

    def inventory(self) -> Collection[Card]:
        """The whole pack: undealt, out of play, in hands, in the pond, in the trick, won."""
        cards = [*self.undealt, *self.removed, *self.pond, *(c for _, c in self.trick)]
        for seat in range(self.seats):
            cards += self.hands[seat]
            cards += self.won[seat]
            cards += self.frogs[seat]
        return cards

    def seat_totals(self) -> tuple[int, ...]:
        """The totals of finished deals by seat (partners carry their side's)."""
        return scoring.per_seat(self.totals, self.sides, self.seats)

    # -- the deal -------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        pack = self._gather()
        stack = self.stacks.get(self.deal_no)
        deal: Deal = (stacked_deal(pack, self.seats, self.hand_size, stack) if stack is not None
                      else shuffled_deal(pack, self.seats, self.dealer, self.hand_size, self.rng))
        self.hands = [list(h) for h in deal.hands]
        self.pond = list(reversed(deal.frogs))
        self.leader = self.to_play = (self.dealer + 1) % self.seats
        self.number = 1
        self.phase = Phase.PLAY
        self.log.append(DealStarted(self.dealer, self.deal_no, self.leader, self.hand_size,
                                    self.removed))
        for seat in range(self.seats):
            self.tell([seat], HandDealt(seat, deal.hands[seat]))

    def _gather(self) -> list[Card]:
        """Pick up every card of the last deal; the pack in pack order."""
        self.undealt = []
        self.won = [[] for _ in range(self.seats)]
        self.frogs = [[] for _ in range(self.seats)]
        self.last_trick, self.last_winner = (), None
        return list(self.pack)

    def _end_trick(self) -> None:
        params = self.params
        winner, _ = winning_play(self.trick)
        cards = tuple(c for _, c in self.trick)
        self.won[winner] += cards
        self.log.append(TrickWon(winner, self.number, self.leader, cards,
                                 sum(params.points(c) for c in cards)))
        frog = self.pond.pop()
        self.frogs[winner].append(frog)
        self.log.append(FrogTaken(winner, self.number, len(self.pond)))
        self.tell([winner], FrogSeen(winner, self.number, frog))
        self.last_trick, self.last_winner = tuple(self.trick), winner
        self.trick = []
        if self.hands[winner]:
            self.number += 1
            self.leader = self.to_play = winner
        else:
            self._end_deal()

    def _end_deal(self) -> None:
        params, seats = self.params, self.seats
        self.log.append(DealShown(None, self.deal_no, tuple(map(tuple, self.won)),
                                  tuple(map(tuple, self.frogs))))
        points = scoring.seat_points([w + f for w, f in zip(self.won, self.frogs, strict=True)],
                                     params)
        sides = scoring.by_side(points, self.sides)
        self.totals = [t + p for t, p in zip(self.totals, sides, strict=True)]
        self.log.append(DealScored(self.dealer, self.deal_no, points, self.seat_totals()))
        self.summaries.append({
            "dealer": self.dealer, "points": list(points), "side_points": list(sides),
            "tricks": [len(w) // seats for w in self.won],
            "frog_points": list(scoring.seat_points(self.frogs, params))})
        self.shown = (*self.removed, *(c for w in self.won for c in w),
                      *(c for f in self.frogs for c in f))
        self.deal_no += 1
        self.end = scoring.game_end(self.totals, params.target, self.deal_no, params.max_deals)
        if self.end is None:
            self.phase = Phase.DEAL
            self.dealer = (self.dealer + 1) % seats
            return
        self.phase = Phase.OVER
        self.winners = scoring.winning_seats(self.totals, self.sides)
        self.log.append(GameOver(None, self.seat_totals(), self.winners, self.end))

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The game about to be played: the table, the sides, the deal and the target."""
        return narration.opening(self.params, self.seats, self.hand_size, self.removed)

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for a public event, at most 80 columns wide."""
        lines = narration.describe(event, names, self.sides)
        return lines if lines is not None else super().narrate(event, names)
