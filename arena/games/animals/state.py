"""A game of Animals in progress: faces, simultaneous calls, races, penalties, the end."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.api import Action, Event
from arena.cards import Card
from arena.engine import Outcome, ScoreOrder, State
from arena.errors import PlayersError
from arena.games.animals import narration
from arena.games.animals.calls import clockwise, settle
from arena.games.animals.dealing import Stack, dealer_of, shuffled_table
from arena.games.animals.table import (
    QUIET,
    AnimalsView,
    Called,
    Dealt,
    End,
    Faced,
    GameOver,
    Left,
    Paid,
    Source,
    Took,
    TurnedOver,
    Verdict,
    call,
)
from arena.games.animals.variants import AnimalsParams, animal


class AnimalsState(State):
    """A game of Animals for `players` seats; the last seat deals, seat 0 faces first."""

    def __init__(self, params: AnimalsParams, players: int, rng: random.Random,
                 stack: Stack | None = None) -> None:
        """A new game, dealt from `rng`, or laid out as `stack` says (for tests)."""
        super().__init__()
        if players not in params.players_allowed():
            raise PlayersError(f"animals takes 3 to 6 players, not {players}")
        self.params = params
        self.seats = players
        self.rng = rng
        self.dealer = dealer_of(players)
        table = stack.table(players) if stack is not None else shuffled_table(players, rng)
        self.packs = [list(p) for p in table.packs]  # face down, top card last
        self.piles = [list(p) for p in table.piles]  # face up, top card last
        self.places: list[int | None] = [None] * players  # finishing place once out
        self.faces = 0
        self.facer = table.first
        self.won = [0] * players  # races won
        self.wrong = [0] * players  # wrong calls
        self.end: End | None = None
        self._to_act: tuple[int, ...] = ()
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._view: AnimalsView | None = None
        animals = tuple(animal(s) for s in range(players))
        self.log.append(Dealt(self.dealer, animals, tuple(map(self.held, range(players)))))
        self._leave_if_empty()
        self._next(table.first)

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """Every player still in, at once, after each faced card; nobody once the game is over."""
        return self._to_act

    def legal(self, seat: int) -> tuple[Action, ...]:
        """Keep quiet, or call the animal of any other player still in."""
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = (QUIET, *(call(s) for s in self._to_act if s != seat))
        return found

    def view(self, seat: int) -> AnimalsView:
        """The public table: the top card of every up-pile and the size of every pile and pack."""
        if self._view is None:
            self._view = AnimalsView(
                self.seats, self.dealer, tuple(animal(s) for s in range(self.seats)),
                self.tops(), tuple(map(len, self.piles)), tuple(map(len, self.packs)),
                tuple(self.places), self.facer, self.faces, self.params.limit)
        return self._view

    def apply(self, seat: int, action: Action) -> None:
        """One seat's choice, as a round of calls in which it alone decides (the game always
        has two or more players deciding at once, so this only passes it to apply_joint)."""
        self.apply_joint({seat: action})

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        """Every player still in has called or kept quiet: settle, then the next card is faced."""
        if set(actions) != set(self._to_act):
            raise ValueError(f"every player still in decides at once, not {sorted(actions)}")
        calls: dict[int, int] = {}
        for seat, action in actions.items():
            if action not in self.legal(seat):
                raise ValueError(f"seat {seat} cannot {action!r} now")
            if action != QUIET:
                calls[seat] = action[1]  # type: ignore[index]
        result = settle(self.tops(), calls, self.facer, self.rng)
        for caller, named, verdict in result.verdicts:
            self.log.append(Called(caller, named, verdict))
            self.wrong[caller] += verdict is Verdict.WRONG
        for payer, receiver in result.penalties:
            self._pay(payer, receiver)
        if result.race is not None:
            winner, loser = result.race
            self.won[winner] += 1
            count = len(self.piles[loser])
            self.piles[winner][:0] = self.piles[loser]
            self.piles[loser] = []
            self.log.append(Took(winner, loser, count))
        self._leave_if_empty()
        leader = result.leader if result.leader is not None else (self.facer + 1) % self.seats
        self._next(leader)

    def outcome(self) -> Outcome:
        """Cards held by the players still in; a player who left scores 1 - its place."""
        final: dict[str, Any] = {
            "end": self.end.value if self.end else None,
            "cards": [self.held(s) for s in range(self.seats)],
            "left": list(self.places), "faces": self.faces,
            "races_won": list(self.won), "wrong_calls": list(self.wrong)}
        return Outcome(self.scores(), ScoreOrder.HIGHER_WINS, self.faces, final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """The top card of every up-pile."""
        return [top for top in self.tops() if top is not None]

    def inventory(self) -> Collection[Card]:
        """Every card: the packs and the up-piles."""
        return [card for cards in (*self.packs, *self.piles) for card in cards]

    # -- the table ------------------------------------------------------------------------------

    def tops(self) -> tuple[Card | None, ...]:
        """The top card of each seat's up-pile (None when it is empty)."""
        return tuple(pile[-1] if pile else None for pile in self.piles)

    def held(self, seat: int) -> int:
        """Cards a seat holds: its pack and its up-pile."""
        return len(self.packs[seat]) + len(self.piles[seat])

    def scores(self) -> tuple[float, ...]:
        """Cards held by a player still in (or the winner); 1 - place for one who left."""
        return tuple(float(self.held(s) if place is None else 1 - place)
                     for s, place in enumerate(self.places))

    def _pay(self, payer: int, receiver: int) -> None:
        source = Source.PILE if self.piles[payer] else Source.PACK
        card = (self.piles[payer] if source is Source.PILE else self.packs[payer]).pop()
        self.piles[receiver].insert(0, card)
        self.log.append(Paid(payer, receiver, source))

    def _leave_if_empty(self) -> None:
        """Players left with no cards leave; those leaving together share a place."""
        leaving = [s for s in range(self.seats) if self.places[s] is None and not self.held(s)]
        if not leaving:
            return
        place = sum(p is None for p in self.places) - len(leaving) + 1
        for seat in leaving:
            self.places[seat] = place
            self.log.append(Left(seat, place))

    def _next(self, leader: int) -> None:
        """End the game if it is over; otherwise the leader (or the next player still in to
        its left) faces a card and everyone still in decides."""
        self._view = None
        self._legal = {}
        still_in = [s for s in range(self.seats) if self.places[s] is None]
        if len(still_in) <= 1 or self.faces >= self.params.limit:
            self._finish(End.ALL_CARDS if len(still_in) <= 1 else End.LIMIT)
            return
        seat = next(s for s in clockwise(leader, self.seats) if self.places[s] is None)
        if not self.packs[seat]:
            pile = self.piles[seat]
            self.packs[seat] = pile[::-1]  # turned over: the bottom card is the new top
            self.piles[seat] = []
            self.log.append(TurnedOver(seat, len(pile)))
        card = self.packs[seat].pop()
        self.piles[seat].append(card)
        self.faces += 1
        self.facer = seat
        self.log.append(Faced(seat, self.faces, card))
        self._to_act = tuple(still_in)

    def _finish(self, end: End) -> None:
        self.end = end
        self._to_act = ()
        scores = self.scores()
        best = max(scores)
        winners = tuple(s for s, score in enumerate(scores) if score == best)
        self.log.append(GameOver(None, end, tuple(map(self.held, range(self.seats))), winners))

    # -- spectators -----------------------------------------------------------------------------

    def narrate_deal(self) -> list[str]:
        """The table as dealt: each seat's animal and cards, and the first card faced."""
        return narration.opening(self.params, self.log)

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for a public event, at most 80 columns wide."""
        lines = narration.describe(event, names, self.params.calls)
        return lines if lines is not None else super().narrate(event, names)
