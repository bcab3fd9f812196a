"""`arena new-bot`'s template for Paved with Gold: `arena/newbot.py` writes it with its HEADER (the
new bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, GameInfo, Observation, Recall
from arena.cards import Card
from arena.games.paved_with_gold import (
    BEST_FIRST,
    Aces,
    ComboRules,
    PavedView,
    Phase,
    Spot,
    actions,
)


class __CLASS__(Bot):
    """Perfect memory: claims the best combination it knows for sure, else looks at a card it
    has not seen and puts it back."""

    games: ClassVar[tuple[str, ...]] = ("paved-with-gold",)

    def start(self, info: GameInfo) -> None:
        """Learn the variant's run rules; nothing seen yet."""
        super().start(info)  # keeps self.info and self.rng (use it for every random choice)
        self.rules = ComboRules(Aces(info.params["aces"]), bool(info.params["suited_runs"]))
        # Your own looks arrive as Reveal events only you see; cards that leave the square
        # arrive as Won and Bonus events (both are Remove events). Recall follows them.
        self.recall: Recall[Card] = Recall()
        self.plan: list[int] = []  # the places still to turn up for the claim being made

    def act(self, obs: Observation[Any]) -> Action:
        """Look, claim, turn up or put back, depending on the phase of the turn."""
        self.recall.update(obs.events)
        view: PavedView = obs.view
        # The cards we remember that still lie face down in the square.
        known = {p: c for p, c in self.recall.cards.items() if view.cells[p] is Spot.DOWN}
        if view.phase is Phase.LOOK:
            return self.start_turn(obs, view, known)
        if view.phase is Phase.HOLD:
            return self.holding(obs, view, known)
        if view.phase is Phase.TURN_UP:
            for p in self.plan:  # the next card of our plan that is not face up yet
                if actions.turn_up(p) in obs.legal:
                    return actions.turn_up(p)
        if view.phase is Phase.BONUS_TO:  # three players: a false claim's cards go to...
            return min(obs.legal, key=lambda a: view.scores[a[1]])  # ...the lowest scorer
        return self.rng.choice(obs.legal)

    def start_turn(self, obs: Observation[Any], view: PavedView,
                   known: dict[int, Card]) -> Action:
        """Pick up the first card of a known combination, or end the game, or explore."""
        places = list(known)
        # FIRST IMPROVEMENT: hold out for the big combinations. This bot claims the best one it
        # knows now, often a pair. In David Parlett's *Paved with Gold* a pair scores 4 for two
        # cards and five of a colour 25 for five (docs/rules/paved-with-gold.md,
        # "Combinations"): cards are the scarce resource, so while a bigger combination can
        # still be made from the cards in play, spending two on a pair gives points away.
        found = self.rules.find([known[p] for p in places])
        if found is not None:
            return actions.look(places[found[1][0]])
        down = [p for p, cell in enumerate(view.cells) if cell is Spot.DOWN]
        if (actions.END_ACTION in obs.legal and len(known) == len(down)
                and not self.rules.any_combo(list(known.values()))):
            return actions.END_ACTION  # we know every card left and none combine
        unseen = [a for a in obs.legal if a[0] == actions.LOOK and a[1] not in known]
        looks = [a for a in obs.legal if a[0] == actions.LOOK]
        # Where to improve next: watch which places the others look at twice (they are building
        # a combination there), and with the stock empty, end the game when you are ahead.
        return self.rng.choice(unseen or looks or list(obs.legal))

    def holding(self, obs: Observation[Any], view: PavedView, known: dict[int, Card]) -> Action:
        """Claim the best combination the held cards complete with known ones, else put back."""
        held = [p for p, _ in view.hand]  # view.hand: the cards you hold, as (place, card)
        places = held + list(known)
        cards = [c for _, c in view.hand] + list(known.values())
        # Only a combination bigger than what you hold may be claimed (an accidental pair of two
        # picked-up cards never scores), and it must use every card you hold.
        combos = [c for c in BEST_FIRST if c.size > len(held)]
        found = self.rules.find(cards, combos, must=range(len(held)))
        if found is not None:
            combo, indices = found
            claim = actions.claim(combo, tuple(held))
            if claim in obs.legal:
                self.plan = [places[i] for i in indices if places[i] not in held]
                return claim
        # Holding one card: look at a second one we have not seen (two looks a turn learn more).
        unseen = [a for a in obs.legal if a[0] == actions.LOOK and a[1] not in known]
        return self.rng.choice(unseen) if unseen else actions.PUT_BACK_ACTION
