"""`arena new-bot`'s template for Frogs in the Pond: `arena/newbot.py` writes it with its HEADER
(the new bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.cards import Card
from arena.games.frogs_in_the_pond import CARD_POINTS, FrogsView, Say, power, winning_play


def points(card: Card) -> int:
    """What the card counts when won: ten 10, five 5, ace 4, king 3, queen 2, jack 1."""
    return CARD_POINTS.get(card.rank, 0)


class __CLASS__(Bot):
    """Leads its highest card; following, takes the trick with its lowest winning card when it
    can, else throws the card that counts least."""

    games: ClassVar[tuple[str, ...]] = ("frogs-in-the-pond",)

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when dealing; else play a card to the trick."""
        if Say.DEAL in obs.legal:
            return Say.DEAL
        # obs.legal holds the cards you may play: the suit led if you have it, else any.
        view: FrogsView = obs.view  # hand, trick (seat, card) so far, sides, tricks_won, totals
        cards: list[Card] = [c for c in obs.legal if isinstance(c, Card)]
        if not view.trick:
            return max(cards, key=power)  # leading: our strongest card (ace high)
        # Every trick won also takes a frog from the pond, so a trick is worth having even
        # with no counters in it. winning_play(trick) is the (seat, card) winning it so far.
        _, best = winning_play(view.trick)
        winners = [c for c in cards if c.suit is best.suit and power(c) > power(best)]
        if winners:
            return min(winners, key=power)
        # FIRST IMPROVEMENT: never overtake your partner; throw them your tens and fives. With
        # four players, seats 0 and 2 are partners (view.sides): when your partner is winning
        # the trick, feed it counters, as the traditional rules advise partners
        # (docs/rules/frogs-in-the-pond.md).
        # Where to improve next: count the cards played (Played events) to know which of yours
        # are masters, and lead those; keep tens back until they are sure to win.
        return min(cards, key=lambda c: (points(c), power(c)))
