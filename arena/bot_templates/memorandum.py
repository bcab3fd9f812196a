"""`arena new-bot`'s template for Memorandum: `arena/newbot.py` writes it with its HEADER (the new
bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, GameInfo, Observation
from arena.cards import Card, Colour, Rank
from arena.games.memorandum import DealStarted, HandDealt, MemorandumView, Say


class __CLASS__(Bot):
    """Remembers its hand as rank and colour ("a red seven") and says "Mine!" for every card
    that fits: all of its own cards, and now and then a twin that is somebody else's."""

    games: ClassVar[tuple[str, ...]] = ("memorandum",)

    def start(self, info: GameInfo) -> None:
        """Nothing remembered yet."""
        super().start(info)  # keeps self.info and self.rng (use it for every random choice)
        self.hand: set[tuple[Rank, Colour | None]] = set()

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when it is our turn to deal; otherwise claim the called card if it fits."""
        for event in obs.events:
            if isinstance(event, DealStarted):
                self.hand = set()  # a new deal: last deal's hand is gone
            elif isinstance(event, HandDealt):
                # Your hand is shown once, in this private event, and never again: what you
                # keep of it is up to you. event.cards are Card objects (print one: 7H).
                #
                # FIRST IMPROVEMENT: keep the cards themselves, `set(event.cards)`, not their
                # rank and colour. With only "a red seven" in mind this bot also claims the
                # 7D when it holds the 7H. In David Parlett's *Memorandum* a card claimed by
                # two players goes to the dispute pile and is worth p points (p = the players
                # at the table) to its real owner instead of 1: a wrong "Mine!" is a gift to
                # the owner (docs/rules/memorandum.md, "Scoring a deal").
                self.hand = {(card.rank, card.colour) for card in event.cards}
        if Say.DEAL in obs.legal:  # the dealer's only action
            return Say.DEAL
        view: MemorandumView = obs.view  # view.called is the card waiting for claims
        called: Card | None = view.called
        assert called is not None
        # Where to improve next: with exact memory, the others' claims (Resolved events) show
        # who claims cards that are not theirs; docs/rules/memorandum.md ("The dispute rule")
        # shows when a false "Mine!" costs the others more than it costs you (the bundled
        # `chancer` plays that way).
        return Say.MINE if (called.rank, called.colour) in self.hand else Say.PASS
