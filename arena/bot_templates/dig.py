"""`arena new-bot`'s template for Dig: `arena/newbot.py` writes it with its HEADER (the new bot's
docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.cards import Rank
from arena.games.dig import WILD, DigView, Phase, actions


class __CLASS__(Bot):
    """Keeps its eights for when nothing else follows and sheds the suit it holds most of;
    after an eight, names the rank it holds most of (or, where ranks may not be named, its
    longest suit)."""

    games: ClassVar[tuple[str, ...]] = ("dig",)

    def act(self, obs: Observation[Any]) -> Action:
        """Play a card, or name a suit or rank after playing an eight."""
        view: DigView = obs.view  # hand, top (the pile's top card), suit and rank to follow
        # What we hold of each suit and rank, eights left out.
        rest = [c for c in view.hand if c.rank is not WILD]
        suits = Counter(c.suit for c in rest)
        ranks = Counter(c.rank for c in rest)
        if view.phase is Phase.NAME:
            # obs.legal holds ("name", "H") for each suit and, in `standard`, ("name", "Q") for
            # each rank; actions.read_name gives the Suit or Rank. A rank has four cards and a
            # suit thirteen, so the opponent follows a named rank far less often: name the
            # rank we hold most of, so that we can follow it ourselves.
            def held(action: Action) -> tuple[bool, int]:
                named = actions.read_name(action)
                if isinstance(named, Rank):
                    return (True, ranks[named])
                return (False, suits[named])
            return max(obs.legal, key=held)
        # obs.legal lists ("play", "7H") for every card that may be played now (a player who
        # cannot follow digs from the stock automatically); actions.read_play gives its Card.
        cards = [(actions.read_play(a), a) for a in obs.legal]
        # Eights are wild: keep them for the turn nothing else follows.
        plain = [(c, a) for c, a in cards if c.rank is not WILD] or cards
        # FIRST IMPROVEMENT: read the opponent's digs, and play and name toward what they lack.
        # A player who digs (a Dug event) or passes could not follow: in Dig they then hold no
        # card of the suit and rank asked for, and no eight (docs/rules/dig.md).
        # Where to improve next: count the cards not yet seen to judge how likely they are to
        # follow, and press harder when they are down to a card or two (`dig-sharp` does).
        return max(plain, key=lambda card_action: suits[card_action[0].suit])[1]
