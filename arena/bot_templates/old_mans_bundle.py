"""`arena new-bot`'s template for Stealing the Old Man's Bundle: `arena/newbot.py` writes it with
its HEADER (the new bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.old_mans_bundle import BundleView, Verb, actions


class __CLASS__(Bot):
    """Steals the opponent's bundle when it can, else takes in the most cards, else trails its
    lowest card."""

    games: ClassVar[tuple[str, ...]] = ("old-mans-bundle",)

    def act(self, obs: Observation[Any]) -> Action:
        """Steal, take or trail."""
        # obs.legal holds ("take", "7H"), ("steal", "7H") and ("trail", "7H") actions;
        # actions.read turns one into a Move with its verb, card and target.
        view: BundleView = obs.view  # hand, table, tops and sizes of both bundles, stock
        moves = [(actions.read(a), a) for a in obs.legal]
        steals = [a for m, a in moves if m.verb is Verb.STEAL]
        if steals:
            return steals[0]
        takes = [(sum(t.rank == m.card.rank for t in view.table), a)
                 for m, a in moves if m.verb is Verb.TAKE]
        if takes:
            return max(takes, key=lambda t: t[0])[1]
        # FIRST IMPROVEMENT: protect your bundle's top card. The opponent steals the bundle
        # whole by playing a card of the rank of its top card (the rules of Stealing the Old
        # Man's Bundle, docs/rules/old-mans-bundle.md). Every card that leaves a hand is shown,
        # so the cards you have not seen are the opponent's hand and the stock: among the
        # takes, choose the one whose new top card they are least likely to hold, and trail
        # what they can take least.
        trails = [(m.card.rank, a) for m, a in moves]
        return min(trails, key=lambda t: t[0])[1]
