"""`arena new-bot`'s template for Animals: `arena/newbot.py` writes it with its HEADER (the new
bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.animals import QUIET, AnimalsView, Faced, call, partners


class __CLASS__(Bot):
    """Watches its own cards only: when the card it has just faced matches another player's top
    card, calls that player; otherwise keeps quiet."""

    games: ClassVar[tuple[str, ...]] = ("animals",)

    def act(self, obs: Observation[Any]) -> Action:
        """After every faced card: call a matching player's animal, or keep quiet."""
        # obs.legal is QUIET or call(seat) for every other player still in. All seats answer
        # at once; the first right call heard (by lot among the right calls) takes the named
        # player's whole up-pile, and a wrong call pays them a card.
        view: AnimalsView = obs.view  # tops (top card of each up-pile), piles, packs, places
        # Every decision follows one Faced(seat, number, card) event: the card just faced.
        faced = [e for e in obs.events if isinstance(e, Faced)]
        mine = bool(faced) and faced[-1].seat == obs.seat
        # FIRST IMPROVEMENT: watch every faced card, not only your own. A match is made by
        # either of its two cards: when another player faces a card that matches YOUR top
        # card, they call you and take your pile unless you call them too (right calls are
        # heard by lot): in *Animals or Menagerie* both players of a match race to call. Drop
        # the `mine` test.
        matching = partners(view.tops, obs.seat, view.places) if mine else []
        # Where to improve next: when several players match, name the one with the biggest
        # up-pile (view.piles), as the bundled `animals-sharp` does.
        return call(matching[0]) if matching else QUIET
