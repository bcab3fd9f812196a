"""`arena new-bot`'s template for Concentration: `arena/newbot.py` writes it with its HEADER (the
new bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Bot, GameInfo, Observation, Recall, Reveal
from arena.cards import Card
from arena.games.concentration import ConcentrationView, MatchRule, cards_match


class __CLASS__(Bot):
    """Remembers the cards it turns up itself: takes a set it knows, else turns up a card it
    has not seen. It forgets what the others turn up: the first thing to improve."""

    # The games this bot plays; the arena will not seat it at any other.
    games: ClassVar[tuple[str, ...]] = ("concentration",)

    def start(self, info: GameInfo) -> None:
        """Read the variant and start with an empty memory."""
        # Bot.start keeps `info` as self.info and the bot's own random generator as self.rng.
        # Use self.rng for every random choice, never the `random` module: it is seeded from
        # the deal and the seat, so the same game always replays the same way.
        super().start(info)
        # info.params holds the variant's parameters as plain values. "match" says which cards
        # pair ("rank-colour" by default; "rank", "opposite-colour", "identical"); "set_size"
        # is 2, or 4 in four-of-a-kind. info.seat is this bot's seat, info.players the count.
        self.rule = MatchRule(info.params["match"])
        self.set_size = int(info.params["set_size"])
        # Remembering is the bot's job: an observation carries only what happened since this
        # bot last decided. Recall keeps "position -> card last seen there" from those events.
        self.recall: Recall[Card] = Recall()

    def act(self, obs: Observation[Any]) -> int:
        """Choose the position to turn up next: one of obs.legal."""
        # obs.events lists what this seat saw since its last decision, oldest first:
        # Reveal(seat, position, card) for every card turned up by anyone, Claim when a set is
        # taken (its positions leave the table), Miss when cards go face down again, Move when
        # face-down cards change places (the "moving" variant). Recall follows them all.
        #
        # FIRST IMPROVEMENT: remember the cards the others turn up too. This bot keeps only the
        # Reveals of its own seat, so it forgets half of what it sees. In Concentration every
        # card turned up is shown to all the players (docs/rules/concentration.md), so
        # `self.recall.update(obs.events)` would remember them all, at no cost.
        self.recall.update([e for e in obs.events
                            if not isinstance(e, Reveal) or e.seat == obs.seat])
        # obs.view is the table now. view.cells[p] is a Card while face up this turn, a Back
        # while face down, None once taken; view.face_up lists this turn's cards in order;
        # view.scores, view.turn, view.field (the positions you may use: your own in the duel).
        view: ConcentrationView = obs.view
        up = [card for card in (view.cells[p] for p in view.face_up) if isinstance(card, Card)]
        # obs.legal holds the positions this seat may turn up now. Return one of them: anything
        # else is a fault, and a fault forfeits the game.
        known = {p: card for p, card in self.recall.cards.items() if p in obs.legal}

        # cards_match(a, b, rule) says whether two cards pair under this variant's rule.
        if up:
            # Part of a set is face up: complete it if we remember a card that matches.
            for p, card in known.items():
                if all(cards_match(card, other, self.rule) for other in up):
                    return p
        else:
            # Nothing is face up yet: start on a set we know all the cards of.
            for p, card in known.items():
                mates = [q for q, other in known.items()
                         if q != p and cards_match(card, other, self.rule)]
                if len(mates) >= self.set_size - 1:
                    return p

        # Otherwise explore: turn up a card we have never seen.
        # Where to improve next:
        # - When the first card of a turn is new and its mate unknown, turning up a known card
        #   second (a "0-move") shows the others only one new card; docs/strategy.md works out
        #   when that beats turning up another unseen card (the bundled `optimal` does it).
        # - Towards the end, count the cards still unseen: the last few pairs can be certain.
        # - With moving cards, a Move event whose swaps is None means memory may be stale.
        unseen = [p for p in obs.legal if p not in known]
        return self.rng.choice(unseen or list(obs.legal))
