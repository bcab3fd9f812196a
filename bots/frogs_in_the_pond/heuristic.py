"""Bots for Frogs in the Pond: a simple one and one with trick-taking sense.

`FrogsSimpleBot` leads its highest card and otherwise plays its lowest (following suit when it
must). `FrogsSharpBot` counts the cards: it remembers every card played this deal, the frogs it
took, and which players have shown out of a suit, and from that knows which of its cards are
masters (higher than every card it has not seen in their suit). It leads masters (aces first, as
the source advises partners, since a partner can then throw counters on them), wins tricks that
are worth it with a sure card, banking its most valuable one, throws counters on a partner's
trick that nobody can take any more, and otherwise gives away as few points as it can. With the
tadpole (jack of spades minus 10) the same arithmetic makes it keep out of tricks holding it
and throw it on an opponent's trick.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card, Suit, standard_deck
from arena.games.frogs_in_the_pond import (
    DealShown,
    DealStarted,
    FrogSeen,
    FrogsParams,
    FrogsView,
    Played,
    Say,
    power,
    winning_play,
)


class FrogsSimpleBot(Bot):
    """Leads its highest card; otherwise plays its lowest (of the suit led when it holds one)."""

    games: ClassVar[tuple[str, ...]] = ("frogs-in-the-pond",)

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when dealing; lead high; follow (or discard) low."""
        if Say.DEAL in obs.legal:
            return Say.DEAL
        view: FrogsView = obs.view
        cards: Sequence[Card] = obs.legal  # type: ignore[assignment]
        if not view.trick:
            return max(cards, key=power)
        return min(cards, key=power)


class FrogsSharpBot(Bot):
    """Counts the cards and plays for the points: see the module docstring."""

    games: ClassVar[tuple[str, ...]] = ("frogs-in-the-pond",)

    def start(self, info: GameInfo) -> None:
        """Learn the card values of the variant; start with nothing seen."""
        super().start(info)
        p = info.params
        self.params = FrogsParams(partners=bool(p.get("partners", True)),
                                  tadpole=bool(p.get("tadpole", False)))
        self.seen: set[Card] = set()
        self.void: list[set[Suit]] = [set() for _ in range(info.players)]
        self.led: dict[int, Suit] = {}

    # -- memory ---------------------------------------------------------------------------------

    def observe(self, events: Iterable[Event]) -> None:
        """Follow the deal: cards played, voids shown, frogs taken."""
        for event in events:
            if isinstance(event, DealStarted | DealShown):
                self.seen = set()
                self.void = [set() for _ in range(self.info.players)]
                self.led = {}
            elif isinstance(event, Played):
                assert event.seat is not None and event.card.suit is not None
                led = self.led.setdefault(event.number, event.card.suit)
                if event.card.suit is not led:
                    self.void[event.seat].add(led)
                self.seen.add(event.card)
            elif isinstance(event, FrogSeen):
                self.seen.add(event.card)

    def unknown(self, view: FrogsView) -> list[Card]:
        """Cards this bot has not seen: in other hands or still in the pond."""
        out = set(view.removed) | self.seen | set(view.hand)
        return [c for c in standard_deck() if c not in out]

    # -- play -----------------------------------------------------------------------------------

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when dealing; otherwise lead or follow as the module docstring says."""
        self.observe(obs.events)
        if Say.DEAL in obs.legal:
            return Say.DEAL
        view: FrogsView = obs.view
        cards: list[Card] = list(obs.legal)  # type: ignore[arg-type]
        unknown = self.unknown(view)
        if not view.trick:
            return self.lead(cards, view, unknown)
        return self.follow(cards, view, unknown)

    def pts(self, card: Card) -> int:
        """What the card counts when won."""
        return self.params.points(card)

    def partner(self, seat: int, view: FrogsView) -> bool:
        """Whether `seat` is on this bot's side (itself included)."""
        me = self.info.seat
        return any(me in side and seat in side for side in view.sides)

    def lead(self, cards: list[Card], view: FrogsView, unknown: list[Card]) -> Card:
        """The lead with the best expected points: a master wins its trick (aces first among
        equals), a low card gives away as little as possible."""
        others = [(self.info.seat + i) % view.players for i in range(1, view.players)]
        frog = _mean(self.pts(u) for u in unknown)

        def value(card: Card) -> tuple[float, int]:
            threats = [s for s in others if not self.partner(s, view)
                       and card.suit not in self.void[s]]
            q = self.chance(card, threats, len(view.hand), unknown)
            return self.expect(q, self.pts(card) + frog, view), power(card)

        return max(cards, key=value)

    def follow(self, cards: list[Card], view: FrogsView, unknown: list[Card]) -> Card:
        """Second hand onwards: the card with the best expected points, whether it wins the
        trick (banking its own points), throws counters on a partner's likely trick, or ducks."""
        trick = view.trick
        led = trick[0][1].suit
        win_seat, win_card = winning_play(trick)
        n = view.players
        played = {s for s, _ in trick}
        after = [s for s in ((self.info.seat + i) % n for i in range(1, n)) if s not in played]
        threats = [s for s in after if not self.partner(s, view) and led not in self.void[s]]
        size = len(view.hand)
        ours = self.partner(win_seat, view)
        held = self.chance(win_card, threats, size, unknown) if ours else 0.0
        base = sum(self.pts(c) for _, c in trick) + _mean(self.pts(u) for u in unknown)

        def value(card: Card) -> tuple[float, int]:
            beats = card.suit is led and power(card) > power(win_card)
            q = self.chance(card, threats, size, unknown) if beats else held
            return self.expect(q, base + self.pts(card), view), -power(card)

        return max(cards, key=value)

    def chance(self, card: Card, threats: Sequence[int], size: int,
               unknown: Sequence[Card]) -> float:
        """The chance that none of `threats` (holding `size` cards each) beats `card`."""
        if not threats:
            return 1.0
        p = min(1.0, len(threats) * size / max(len(unknown), 1))
        higher = sum(1 for u in unknown if u.suit is card.suit and power(u) > power(card))
        return float((1.0 - p) ** higher)

    def expect(self, q: float, value: float, view: FrogsView) -> float:
        """Expected worth of a trick worth `value` that this side takes with chance `q`: what
        another side takes counts against, shared among the other sides."""
        w = 1.0 / max(len(view.sides) - 1, 1)
        return q * value - (1.0 - q) * w * value


def _mean(values: Iterable[int]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0
