"""`arena new-bot`'s template for Cuckoo: `arena/newbot.py` writes it with its HEADER (the new bot's
docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.cuckoo import CuckooView, Say

STAND = 7  # stand on a seven or better (the middle of the pack); change below it
DEALER_STAND = 2  # the dealer draws only on an ace (see act)


class __CLASS__(Bot):
    """Stands on a seven or better and changes below it; as the dealer, draws only on an ace,
    since a dealer who draws a king pays alone."""

    games: ClassVar[tuple[str, ...]] = ("cuckoo",)

    def act(self, obs: Observation[Any]) -> Action:
        """Deal, or stand, or change with the player at the left (the dealer: draw)."""
        if Say.DEAL in obs.legal:  # the dealer about to deal has this one action
            return Say.DEAL
        view: CuckooView = obs.view  # card: your own card; order, turns, chips, kings shown
        assert view.card is not None
        if Say.DRAW in obs.legal:
            # The dealer goes last and may draw from the pack: about one draw in thirteen is
            # a king, and then the dealer pays alone (docs/rules/cuckoo.md, "Showdown"). An
            # ace is the lowest card or tied for it, so with an ace the draw is worth the risk.
            return Say.DRAW if view.card.rank < DEALER_STAND else Say.STAND
        # FIRST IMPROVEMENT: move the bar with the number of players still in. With many
        # players the lowest card is nearly always an ace or a two, so a four is safe; with two
        # or three left it is a coin toss around the seven (docs/rules/cuckoo.md, "Playing
        # well"). Count the players still in (view.chips) and set the bar from it; the dealer,
        # who sees every turn, can do the same with view.turns.
        # Where to improve next: the player at your right who changed with you gave you the
        # card they did not want and now holds yours (docs/rules/cuckoo.md, "Playing well").
        return Say.STAND if view.card.rank >= STAND else Say.CHANGE
