"""Animals bots: `animals-sharp` (calls exactly when it has a match) and `animals-simple`
(notices a match only some of the time, and now and then calls by mistake).

After every faced card each player still in may call one other player or keep quiet. A call
is right when the caller's top card has the rank of the named player's top card: the first
right call heard takes the named player's whole up-pile. A wrong call pays a card to the named
player. So calling a match is never worse than keeping quiet (a rival's right call of you
takes your pile whatever you do), and a call without a match only ever loses a card.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.animals import QUIET, AnimalsView, call, partners


def best_target(view: AnimalsView, seat: int) -> int | None:
    """The matching player with the largest up-pile (the nearest to the left on a tie)."""
    found = partners(view.tops, seat, view.places)
    if not found:
        return None
    n = view.players
    return max(found, key=lambda s: (view.piles[s], -((s - seat) % n)))


class AnimalsSharpBot(Bot):
    """Calls at once whenever its top card matches another player's, naming the one with the
    biggest up-pile; never calls without a match."""

    games: ClassVar[tuple[str, ...]] = ("animals",)

    def act(self, obs: Observation[Any]) -> Action:
        """Call the best matching player, or keep quiet."""
        target = best_target(obs.view, obs.seat)
        return QUIET if target is None else call(target)


class AnimalsSimpleBot(Bot):
    """A slower player: notices a match with chance `alertness` (a reaction delay modelled by
    probability) and then calls one matching player at random; with chance `slip` it calls a
    random other player when it has no match (a call at the wrong time)."""

    games: ClassVar[tuple[str, ...]] = ("animals",)

    def __init__(self, alertness: float = 0.5, slip: float = 0.02) -> None:
        for name, value in (("alertness", alertness), ("slip", slip)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        self.alertness = alertness
        self.slip = slip

    def act(self, obs: Observation[Any]) -> Action:
        """Maybe call a matching player; rarely call someone without a match."""
        view: AnimalsView = obs.view
        found = partners(view.tops, obs.seat, view.places)
        rng = self.rng
        if found:
            return call(rng.choice(found)) if rng.random() < self.alertness else QUIET
        calls = [a for a in obs.legal if a != QUIET]
        if calls and rng.random() < self.slip:
            return rng.choice(calls)
        return QUIET
