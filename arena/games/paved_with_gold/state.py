"""A game of Paved with Gold in progress: the deal, the turn as a sequence of decisions, claims,
bonus cards, refills and the end claim."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from arena.api import Action, Event, Reveal
from arena.cards import Card, standard_deck
from arena.engine import Outcome, ScoreOrder, State
from arena.games.common import stacked
from arena.games.paved_with_gold import actions as act
from arena.games.paved_with_gold.combos import Combo
from arena.games.paved_with_gold.narration import Narrator
from arena.games.paved_with_gold.table import (
    Announce,
    Bonus,
    End,
    EndClaim,
    Failed,
    GameOver,
    Look,
    PavedView,
    Phase,
    PutBack,
    Refill,
    Spot,
    Verdict,
    Won,
)
from arena.games.paved_with_gold.variants import END_BELOW, SQUARE, PavedParams


class PavedState(State):
    """A game of Paved with Gold in progress."""

    def __init__(self, params: PavedParams, players: int, rng: random.Random,
                 deck: Sequence[Card] | None = None) -> None:
        """Shuffle a pack from `rng`, or use `deck` (the whole pack in deal order, for stacked
        tests): its first 25 cards fill the square row by row, the rest is the stock, drawn in
        order."""
        super().__init__()
        self.params = params
        self.rules = params.rules
        self.players = players
        cards = standard_deck()
        rng.shuffle(cards)
        if deck is not None:
            cards = stacked(deck, cards)
        self.square: list[Card | None] = list(cards[:SQUARE])
        self.stock: list[Card] = cards[:SQUARE - 1:-1]  # the next card to draw is last
        self.won: list[list[Card]] = [[] for _ in range(players)]
        self.bonus: list[list[Card]] = [[] for _ in range(players)]
        self.points = [0] * players
        self.claims = [0] * players
        self.failed = [0] * players
        self.seat = 0
        self.phase = Phase.LOOK
        self.held: list[int] = []
        self.combo: Combo | None = None
        self.face_up: list[int] = []  # the claim's cards (held, then turned up), or the end's
        self.claimant = 0  # whose false or end claim the pending bonus cards come from
        self.ending = False  # the pending bonus cards are the end claim's
        self.turns = 0
        self.ended: End | None = None
        self.end_claim: dict[str, Any] | None = None
        self._taken: list[Card] = []  # every card won or given, in order
        self._out: tuple[Card, ...] | None = ()
        self.narrator = Narrator(self)

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The seat whose turn it is, or nobody once the game is over."""
        return () if self.phase is Phase.OVER else (self.seat,)

    def live(self) -> list[int]:
        """The places that hold a card."""
        return [p for p, card in enumerate(self.square) if card is not None]

    def end_allowed(self) -> bool:
        """Whether the end claim may be made: stock empty and fewer than nine cards left."""
        return not self.stock and len(self.live()) < END_BELOW

    def legal(self, seat: int) -> tuple[Action, ...]:
        """The decisions open to the seat to act in the current phase (see actions.py)."""
        phase, live = self.phase, self.live()
        if phase is Phase.LOOK:
            out: list[Action] = [act.look(p) for p in live]
            if len(live) >= Combo.PAIR.size:
                out.append(act.claim(Combo.PAIR, ()))
            if self.end_allowed():
                out.append(act.END_ACTION)
            return tuple(out)
        if phase is Phase.HOLD:
            held = self.held
            out = [act.look(p) for p in live if p not in held] if len(held) == 1 else []
            out.append(act.PUT_BACK_ACTION)
            others = len(live) - len(held)
            out += [act.claim(c, tuple(held)) for c in Combo
                    if len(held) < c.size <= len(held) + others]
            return tuple(out)
        if phase is Phase.TURN_UP:
            return tuple(act.turn_up(p) for p in live if p not in self.face_up)
        if phase is Phase.BONUS_TO:
            return tuple(act.bonus_to(s) for s in self._opponents(self.claimant))
        return ()

    def view(self, seat: int) -> PavedView:
        """The square as `seat` sees it, its own cards in hand, the claim, stock and scores."""
        face_up, held = self.face_up, self.held
        cells: list[Card | Spot] = []
        for p, card in enumerate(self.square):
            if card is None:
                cells.append(Spot.EMPTY)
            elif p in face_up:
                cells.append(card)
            elif p in held:
                cells.append(Spot.HELD)
            else:
                cells.append(Spot.DOWN)
        hand = tuple((p, self._card(p)) for p in held) if seat == self.seat else ()
        claim_positions = tuple(face_up) if self.combo is not None else ()
        return PavedView(tuple(cells), hand, self.phase, self.seat, self.combo, claim_positions,
                         len(self.stock), self.out(), tuple(self.points),
                         tuple(len(b) for b in self.bonus), tuple(self.scores()), self.turns)

    def apply(self, seat: int, action: Action) -> None:
        """Carry out one legal decision of the seat to act."""
        assert isinstance(action, tuple)
        verb = act.verb(action)
        if verb == act.LOOK:
            self._look(seat, action[1])
        elif verb == act.CLAIM:
            self._claim(seat, Combo(action[1]), action[2])
        elif verb == act.PUT_BACK:
            self.log.append(PutBack(seat, tuple(self.held)))
            self._end_turn(seat, again=False)
        elif verb == act.TURN_UP:
            self._turn_up(seat, action[1])
        elif verb == act.BONUS_TO:
            self._give(action[1])
        elif verb == act.END:
            self._end_claim(seat)
        else:
            raise ValueError(f"not a Paved with Gold action: {action!r}")

    def outcome(self) -> Outcome:
        """Scores (points plus one per bonus card, higher wins) and the game's summary."""
        final: dict[str, Any] = {
            "end": (self.ended or End.TURN_LIMIT).value,
            "points": list(self.points),
            "bonus": [len(b) for b in self.bonus],
            "claims": list(self.claims),
            "false_claims": list(self.failed),
            "end_claim": self.end_claim,
            "left": len(self.live()) + len(self.stock),
        }
        return Outcome(tuple(float(s) for s in self.scores()), ScoreOrder.HIGHER_WINS,
                       self.turns, final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """Cards face up (a claim's, the end's), every card won or given, and the seat's hand."""
        shown = [self._card(p) for p in self.face_up]
        if seat == self.seat and self.phase is Phase.HOLD:
            shown += [self._card(p) for p in self.held]
        return shown + list(self.out())

    def inventory(self) -> Collection[Card]:
        """Every card: in the square, in the stock, won, or held as bonus cards."""
        cards = [c for c in self.square if c is not None] + self.stock
        for pile in (*self.won, *self.bonus):
            cards += pile
        return cards

    def narrate_deal(self) -> list[str]:
        """The square as dealt, all face down, and the stock."""
        return self.narrator.deal()

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines for one public event (no private card ever appears)."""
        return self.narrator.event(event, names) or super().narrate(event, names)

    # -- helpers --------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Points plus one per bonus card, per seat."""
        return [p + len(b) for p, b in zip(self.points, self.bonus, strict=True)]

    def out(self) -> tuple[Card, ...]:
        """Every card won or given as bonus so far, in the order they left the square."""
        if self._out is None:
            self._out = tuple(self._taken)
        return self._out

    def _card(self, pos: int) -> Card:
        card = self.square[pos]
        assert card is not None, f"no card at position {pos}"
        return card

    def _opponents(self, seat: int) -> list[int]:
        return [(seat + k) % self.players for k in range(1, self.players)]

    # -- a turn ---------------------------------------------------------------------------------

    def _look(self, seat: int, pos: int) -> None:
        self.held.append(pos)
        self.phase = Phase.HOLD
        self.log.append(Look(seat, pos))
        self.tell([seat], Reveal(seat, pos, self._card(pos)))

    def _claim(self, seat: int, combo: Combo, held: tuple[int, ...]) -> None:
        self.combo = combo
        self.face_up = list(held)
        self.held = []
        self.phase = Phase.TURN_UP
        self.log.append(Announce(seat, combo, held))
        for p in held:
            self.log.append(Reveal(seat, p, self._card(p)))

    def _turn_up(self, seat: int, pos: int) -> None:
        self.face_up.append(pos)
        self.log.append(Reveal(seat, pos, self._card(pos)))
        assert self.combo is not None
        if len(self.face_up) < self.combo.size:
            return
        positions = tuple(self.face_up)
        cards = tuple(self._card(p) for p in positions)
        if self.rules.holds(self.combo, cards):
            self.points[seat] += self.combo.points
            self.claims[seat] += 1
            self.won[seat] += cards
            self._remove(positions, cards)
            self.log.append(Won(seat, positions, self.combo, cards, self.combo.points))
            self._refill(positions)
            self._end_turn(seat, again=self.params.another_turn)
            return
        self.failed[seat] += 1
        self.log.append(Failed(seat, self.combo, positions, cards))
        self._pending_bonus(seat, ending=False)

    def _pending_bonus(self, claimant: int, ending: bool) -> None:
        """The face-up cards go to an opponent: the only one, or the one the claimant picks."""
        self.claimant, self.ending = claimant, ending
        if self.players == 2:
            self._give(1 - claimant)
        else:
            self.phase = Phase.BONUS_TO

    def _give(self, receiver: int) -> None:
        positions = tuple(self.face_up)
        cards = tuple(self._card(p) for p in positions)
        if cards:
            self.bonus[receiver] += cards
            self._remove(positions, cards)
            self.log.append(Bonus(receiver, positions, cards, self.claimant))
        if self.ending:
            self._game_over(End.END_CLAIM)
            return
        self._refill(positions)
        self._end_turn(self.claimant, again=False)

    def _remove(self, positions: tuple[int, ...], cards: tuple[Card, ...]) -> None:
        for p in positions:
            self.square[p] = None
        self._taken += cards
        self._out = None
        self.face_up = []

    def _refill(self, vacated: tuple[int, ...]) -> None:
        filled = []
        for p in sorted(vacated):
            if not self.stock:
                break
            self.square[p] = self.stock.pop()
            filled.append(p)
        self.log.append(Refill(None, tuple(filled), len(self.stock)))

    def _end_turn(self, seat: int, again: bool) -> None:
        self.turns += 1
        self.held, self.face_up, self.combo = [], [], None
        if self.turns >= self.params.max_turns:
            self._game_over(End.TURN_LIMIT)
            return
        self.seat = seat if again else (seat + 1) % self.players
        self.phase = Phase.LOOK

    def _end_claim(self, seat: int) -> None:
        self.turns += 1
        positions = tuple(self.live())
        self.log.append(EndClaim(seat, positions))
        for p in positions:
            self.log.append(Reveal(None, p, self._card(p)))
        self.face_up = list(positions)
        found = self.rules.find([self._card(p) for p in positions])
        right = found is None
        combo, where = (None, ()) if found is None else (found[0],
                                                          tuple(positions[i] for i in found[1]))
        self.log.append(Verdict(seat, right, combo, where))
        self.end_claim = {"seat": seat, "right": right, "cards": len(positions)}
        if right:
            self.claimant, self.ending = seat, True
            self._give(seat)
        else:
            self._pending_bonus(seat, ending=True)

    def _game_over(self, reason: End) -> None:
        self.ended = reason
        self.phase = Phase.OVER
        self.held, self.combo = [], None
        self.log.append(GameOver(None, reason))
