"""Dig bots: `dig-simple` and `dig-sharp`.

`dig-simple` (DigSimpleBot) plays the first legal card (hand order: by suit, then rank) and,
after an eight, names the suit it holds most of.

`dig-sharp` (DigSharpBot) keeps its eights until it has nothing else to play (or the eight is
its last card), and chooses what to leave on the pile by two measures, added up:

* how many cards the opponent is expected to dig in answer. The cards it has not seen on the
  pile or in its own hand are the opponent's hand plus the stock; from those it works out the
  chance that the opponent holds a card that follows, and if not, how deep they must dig. It
  also reads the opponent's digs and passes: a player who digs (or passes) could not follow,
  so they hold no card of the suit and rank asked for, and no eight. The suit and rank stay
  ruled out until they dig again for something else; the eights for good, since a dug eight
  is always played at once. So it plays to change to suits the opponent lacks.
* how many cards of its own could follow it next time: it sheds from the suits it holds most
  of, so that it can keep following.

The first is weighted by `pressure` (default 3, doubled when the opponent holds two cards or
fewer). After an eight it names, among the suits (and ranks, where the variant allows), the one
that scores best the same way: usually the suit it holds most of, unless the opponent is known
to lack another.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from math import comb
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card, Rank, Suit, standard_deck
from arena.games.dig import (
    WILD,
    DigView,
    Dug,
    Named,
    Passed,
    Phase,
    Played,
    Reshuffled,
    Started,
    Target,
)
from arena.games.dig import actions as act

PACK = tuple(standard_deck())


def most_held_suit(hand: Iterable[Card]) -> Suit:
    """The suit with the most cards in `hand` (eights left out; ties: the first suit)."""
    counts = Counter(c.suit for c in hand if c.rank is not WILD)
    return max(act.SUITS, key=lambda s: (counts[s], -act.SUITS.index(s)))


class DigSimpleBot(Bot):
    """Plays the first legal card; names the suit it holds most of."""

    games: ClassVar[tuple[str, ...]] = ("dig",)

    def act(self, obs: Observation[Any]) -> Action:
        """The first playable card, or its most common suit after an eight."""
        view: DigView = obs.view
        if view.phase is Phase.NAME:
            return act.name(most_held_suit(view.hand))
        return obs.legal[0]


def chance_of_any(wanted: int, unseen: int, hand: int) -> float:
    """The chance that `hand` cards drawn at random from `unseen` include one of `wanted`."""
    if wanted <= 0 or hand <= 0:
        return 0.0
    if wanted > unseen - hand:
        return 1.0
    return 1.0 - comb(unseen - wanted, hand) / comb(unseen, hand)


class DigSharpBot(Bot):
    """Keeps eights, reads the opponent's digs, leaves what the opponent cannot follow, sheds
    its long suits."""

    games: ClassVar[tuple[str, ...]] = ("dig",)

    def __init__(self, pressure: float = 3.0) -> None:
        """`pressure`: what each card the opponent is expected to dig is worth, in cards of the
        bot's own that could follow the card left on the pile (doubled when the opponent holds
        two cards or fewer)."""
        self.weight_of_digs = pressure

    def start(self, info: GameInfo) -> None:
        """Nothing known of the opponent yet."""
        super().start(info)
        self.target: Target | None = None  # what the pile asks for, followed from the events
        self.top: Card | None = None
        self.pile: set[Card] = set()  # the cards in the pile (all seen as they were played)
        self.lacks_suits: set[Suit] = set()  # the opponent holds none of these
        self.lacks_ranks: set[Rank] = set()
        self.lacks_eights = False

    def observe(self, events: Iterable[Event]) -> None:
        """Follow the pile and what the opponent's digs and passes show."""
        me = self.info.seat
        for event in events:
            if isinstance(event, Started | Played):
                card = event.upcard if isinstance(event, Started) else event.card
                self.pile.add(card)
                self.top, self.target = card, Target.of(card)
            elif isinstance(event, Named):
                self.target = Target(event.suit, event.rank)
            elif isinstance(event, Reshuffled):
                self.pile = {self.top} if self.top is not None else set()
            elif isinstance(event, Dug | Passed) and event.seat != me and self.target:
                # It could not follow: it holds none of the suit or rank asked for, and no eight.
                # Cards dug now are of anything else, so earlier conclusions about suits and
                # ranks lapse; it never keeps an eight it digs (an eight can always be played).
                if isinstance(event, Dug):
                    self.lacks_suits, self.lacks_ranks = set(), set()
                if self.target.suit is not None:
                    self.lacks_suits.add(self.target.suit)
                if self.target.rank is not None:
                    self.lacks_ranks.add(self.target.rank)
                self.lacks_eights = True

    def act(self, obs: Observation[Any]) -> Action:
        """Name or play by the measures in the module docstring."""
        self.observe(obs.events)
        view: DigView = obs.view
        if view.phase is Phase.NAME:
            return max(obs.legal, key=lambda a: self.naming_value(act.read_name(a), view))
        plays = [act.read_play(a) for a in obs.legal]
        others = [c for c in plays if c.rank is not WILD]
        if len(view.hand) == 1 or not others:
            return obs.legal[0]
        best = max(others, key=lambda c: (self.play_value(c, view), -plays.index(c)))
        return act.play(best)

    # -- the measures ---------------------------------------------------------------------------

    def pressure(self, target: Target, view: DigView) -> float:
        """The cards the opponent is expected to dig in answer to `target`: none if they hold a
        card it accepts, else until the stock gives one (a pass counts as one)."""
        opp = 1 - view.seat
        mine = set(view.hand)
        unseen = [c for c in PACK if c not in mine and c not in self.pile]
        possible = [c for c in unseen if self.could_hold(c)]
        wanted = sum(1 for c in possible if target.accepts(c))
        follows = chance_of_any(wanted, len(possible), min(view.hands[opp], len(possible)))
        stock = view.stock
        in_stock = sum(1 for c in unseen if target.accepts(c))  # all of them, if it cannot follow
        digs = min((stock + 1) / (in_stock + 1), stock) if stock else 1.0
        return (1.0 - follows) * digs

    def could_hold(self, card: Card) -> bool:
        """Whether what the opponent's digs showed still allows them to hold `card`."""
        if card.rank is WILD:
            return not self.lacks_eights
        return card.suit not in self.lacks_suits and card.rank not in self.lacks_ranks

    def weight(self, view: DigView) -> float:
        """How much the opponent's expected digging counts: more as they near going out."""
        return self.weight_of_digs * (2.0 if view.hands[1 - view.seat] <= 2 else 1.0)

    def play_value(self, card: Card, view: DigView) -> float:
        """Cards of its own that could follow `card`, plus the weighted digs it forces."""
        target = Target.of(card)
        rest = [c for c in view.hand if c != card and c.rank is not WILD]
        mine = sum(1 for c in rest if target.accepts(c))
        return mine + self.weight(view) * self.pressure(target, view)

    def naming_value(self, choice: Suit | Rank, view: DigView) -> float:
        """Cards of its own that `choice` accepts, plus the weighted digs it forces."""
        target = Target(choice, None) if isinstance(choice, Suit) else Target(None, choice)
        mine = sum(1 for c in view.hand if c.rank is not WILD and target.accepts(c))
        return mine + self.weight(view) * self.pressure(target, view)
