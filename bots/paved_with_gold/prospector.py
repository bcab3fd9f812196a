"""`prospector` and `prospector-forgetful`: Paved with Gold bots that remember what they see.

`ProspectorBot` keeps every card it has seen at its place (its own private looks and every card
turned up in public), follows claims, bonus cards and refills, and plays sure things only:

- it makes the end claim as soon as that is allowed and certain: with the stock empty, every card
  not yet won or given (those lie face up) is in the square, so whether a combination remains
  among them is known without looking;
- it claims only combinations whose cards it knows for sure, and only of the most valuable kind
  still possible among the cards in play (square and stock): while five of a colour can still be
  made it claims nothing less, then primes, then the three-card combinations, then pairs. Cards
  are the scarce resource, and five of a colour scores 5 a card where a pair scores 2;
- otherwise it looks at places whose card it does not know, two a turn: after each card it checks
  whether that card completes a claim with what it remembers (after two cards, one using both),
  and claims it if so; else it puts the cards back. Unseen places are alike before they are seen,
  so it picks among them at random;
- with three players, the cards of a false claim or of a wrong end claim go to the opponent with
  the lower score (the earlier in turn order on a tie). It never makes either claim itself, since
  a fading memory loses cards but never misremembers one; the choice is there for completeness.

`ForgetfulProspectorBot` plays the same way with a memory that fades: `recall` is the chance of
keeping each card seen, `capacity` the number of places it can hold in mind (0: no limit).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation, Remove, Reveal
from arena.cards import Card, standard_deck
from arena.games.paved_with_gold import (
    BEST_FIRST,
    Aces,
    Combo,
    ComboRules,
    PavedView,
    Phase,
    Spot,
    actions,
)

FULL_PACK: tuple[Card, ...] = tuple(standard_deck())


class PlaceMemory:
    """What a player remembers of the square: the card last seen at each place.

    Every card seen is kept with probability `recall`; at most `capacity` places are held at once
    (0: no limit), the oldest memory going first. Places whose cards leave the square are
    forgotten; a refilled place holds a new, unseen card.
    """

    def __init__(self, rng: random.Random, recall: float = 1.0, capacity: int = 0) -> None:
        self.rng = rng
        self.recall = recall
        self.capacity = capacity
        self.cards: dict[int, Card] = {}

    def update(self, events: Iterable[Event]) -> None:
        """Apply the events in order."""
        for ev in events:
            if isinstance(ev, Reveal):
                self.remember(ev.position, ev.card)
            elif isinstance(ev, Remove):
                for p in ev.positions:
                    self.cards.pop(p, None)

    def remember(self, position: int, card: Card) -> None:
        """Keep `card` at `position` (with probability `recall`), as the freshest memory."""
        self.cards.pop(position, None)
        if self.recall < 1.0 and self.rng.random() >= self.recall:
            return
        self.cards[position] = card
        while self.capacity and len(self.cards) > self.capacity:
            del self.cards[next(iter(self.cards))]


class ProspectorBot(Bot):
    """Perfect memory (by default): claims sure combinations, looks at unseen places, and makes
    the end claim only when it is certain. See the module docstring for the whole policy."""

    games: ClassVar[tuple[str, ...]] = ("paved-with-gold",)

    def __init__(self, recall: float = 1.0, capacity: int = 0) -> None:
        if not 0.0 <= recall <= 1.0:
            raise ValueError(f"recall must be between 0 and 1, not {recall}")
        if capacity < 0:
            raise ValueError(f"capacity must be 0 or more, not {capacity}")
        self.recall = recall
        self.capacity = capacity

    def start(self, info: GameInfo) -> None:
        """Read the run rules of the variant and start with an empty memory."""
        super().start(info)
        self.rules = ComboRules(Aces(info.params["aces"]), bool(info.params["suited_runs"]))
        self.memory = PlaceMemory(self.rng, self.recall, self.capacity)
        self._floor: tuple[int, int] = (-1, 0)  # (cards out, the floor then), see claimable()

    def act(self, obs: Observation[Any]) -> Action:
        """Remember the new events, then decide by the phase of the turn."""
        self.memory.update(obs.events)
        view: PavedView = obs.view
        legal = obs.legal
        if view.phase is Phase.LOOK:
            choice = self._start_turn(view, legal)
        elif view.phase is Phase.HOLD:
            choice = self._holding(view, legal)
        elif view.phase is Phase.TURN_UP:
            choice = self._turn_up(view, legal)
        else:  # Phase.BONUS_TO
            choice = min(legal, key=lambda a: view.scores[a[1]])  # type: ignore[index]
        if choice in legal:
            return choice
        # Nothing planned fits (it should not happen): anything but an unsure claim.
        safe = [a for a in legal if actions.verb(a) not in (actions.END, actions.CLAIM)]
        safe = safe or list(legal)
        return safe[self.rng.randrange(len(safe))]

    # -- the phases -----------------------------------------------------------------------------

    def _start_turn(self, view: PavedView, legal: Sequence[Action]) -> Action:
        if actions.END_ACTION in legal and self.end_is_certain(view):
            return actions.END_ACTION
        known = self.known(view)
        places = list(known)
        found = self.rules.find([known[p] for p in places], self.claimable(view, 0))
        if found is not None:
            return actions.look(places[found[1][0]])
        return actions.look(self._unseen_place(view, known))

    def _holding(self, view: PavedView, legal: Sequence[Action]) -> Action:
        held = tuple(p for p, _ in view.hand)
        known = self.known(view)
        places = list(known)
        found = self.rules.find([known[p] for p in places], self.claimable(view, len(held)),
                                must=[places.index(p) for p in held])
        if found is not None:
            return actions.claim(found[0], held)
        if len(held) == 1:
            unseen = self._unseen_place(view, known)
            if unseen >= 0:
                return actions.look(unseen)
        return actions.PUT_BACK_ACTION

    def _turn_up(self, view: PavedView, legal: Sequence[Action]) -> Action:
        assert view.claim is not None
        have = view.claim_positions
        known = self.known(view)
        places = list(known)
        found = self.rules.find([known[p] for p in places], (view.claim,),
                                must=[places.index(p) for p in have])
        if found is not None:
            for i in found[1]:
                if places[i] not in have:
                    return actions.turn_up(places[i])
        unseen = self._unseen_place(view, known)
        return actions.turn_up(unseen) if unseen >= 0 else legal[0]

    # -- knowledge ------------------------------------------------------------------------------

    def known(self, view: PavedView) -> dict[int, Card]:
        """Every place whose card this bot knows now: remembered, in hand, face up, or (with the
        stock empty) the one unknown place whose card is the only one not accounted for."""
        cells = view.cells
        known = {p: c for p, c in self.memory.cards.items() if cells[p] is not Spot.EMPTY}
        known.update(view.hand)
        for p, cell in enumerate(cells):
            if isinstance(cell, Card):
                known[p] = cell
        if view.stock == 0:
            unknown = [p for p, cell in enumerate(cells)
                       if cell is not Spot.EMPTY and p not in known]
            if len(unknown) == 1:
                rest = list((Counter(FULL_PACK) - Counter(view.out)
                             - Counter(known.values())).elements())
                if len(rest) == 1:
                    known[unknown[0]] = rest[0]
        return known

    def claimable(self, view: PavedView, held: int) -> list[Combo]:
        """The combinations worth claiming with `held` cards in hand, best first: those of the
        most valuable kind still possible among the cards in play and small enough for this
        memory (two cards in hand plus `capacity` remembered), and larger than the hand (with
        two cards in hand a pair cannot be claimed)."""
        out = len(view.out)
        if self._floor[0] != out:
            reachable = [c for c in BEST_FIRST
                         if not self.capacity or c.size <= self.capacity + 2]
            in_play = list((Counter(FULL_PACK) - Counter(view.out)).elements())
            found = self.rules.find(in_play, reachable)
            self._floor = (out, found[0].points if found is not None else 0)
        floor = self._floor[1]
        return [c for c in BEST_FIRST if c.size > held and c.points >= floor]

    def end_is_certain(self, view: PavedView) -> bool:
        """Whether no combination remains: with the stock empty, the square holds exactly the
        cards not yet won or given, and those are all public."""
        if view.stock:
            return False
        left = list((Counter(FULL_PACK) - Counter(view.out)).elements())
        live = sum(1 for cell in view.cells if cell is not Spot.EMPTY)
        return len(left) == live and not self.rules.any_combo(left)

    @staticmethod
    def unknown_places(view: PavedView, known: dict[int, Card]) -> list[int]:
        """The face-down places whose cards this bot does not know."""
        return [p for p, cell in enumerate(view.cells) if cell is Spot.DOWN and p not in known]

    def _unseen_place(self, view: PavedView, known: dict[int, Card]) -> int:
        """A face-down place whose card this bot does not know, at random (-1 if none)."""
        unseen = self.unknown_places(view, known)
        return unseen[self.rng.randrange(len(unseen))] if unseen else -1


class ForgetfulProspectorBot(ProspectorBot):
    """`prospector` with a fading memory: `recall` is the chance of keeping each card it sees,
    `capacity` the places it can hold in mind at once (0: no limit)."""

    def __init__(self, recall: float = 0.7, capacity: int = 8) -> None:
        super().__init__(recall, capacity)


__all__ = ["ForgetfulProspectorBot", "PlaceMemory", "ProspectorBot"]
