"""The luck model of Paved with Gold: what the cards turned up for claims gave each player.

Chance after the deal is every card nobody has seen that comes into play: a look at such a
place (only the looker sees it), the refills from the stock, and a place nobody has seen turned
up for a claim, in public. Points move only when a claim is judged, so the value of a state
(`PavedLuck.value`) is each seat's score as it stands (points plus bonus cards), and the luck is
taken at the turn-ups of places nobody has seen: the card is swapped with every card nobody has
seen (the other such places and the stock), all equally likely (`reveals`). The claim's last
card decides it, so its luck is the claim's outcome less its chance over the cards it could
have found. Looks carry no luck here: what a look is worth is what the looker knows afterwards,
which no state holds. Between bots that claim only cards they know, the luck is 0. `expected`
computes the mean directly; the tests hold it equal to the mean over `reveals`.
"""

from __future__ import annotations

from arena.api import Action, Reveal
from arena.games.paved_with_gold import actions as act
from arena.games.paved_with_gold.sampler import PavedSampler
from arena.games.paved_with_gold.state import PavedState
from arena.games.paved_with_gold.table import Phase, Refill
from arena.luck.model import Alternatives, LuckModel, Values

_copy = PavedSampler().clone


def _clone(state: PavedState) -> PavedState:
    """A copy of `state` that plays on (the sampler's copy; its narrator still tells of the
    original, which valuing the copy never asks for)."""
    twin = _copy(state)
    assert isinstance(twin, PavedState)
    return twin


class PavedLuck(LuckModel[PavedState]):
    """Each seat's score as it stands; luck from places nobody has seen turned up for claims."""

    name = "paved-claims"
    version = 1

    def value(self, state: PavedState) -> Values:
        """The scores: points plus one per bonus card."""
        return tuple(float(score) for score in state.scores())

    def reveals(self, state: PavedState, seat: int, action: Action
                ) -> Alternatives[PavedState] | None:
        """Turning up, for a claim, a place nobody has seen: its card swapped with the card of
        every other such place and of the stock, each equally likely."""
        if self.reveals_nothing(state, action):
            return None
        place = action[1]  # type: ignore[index]
        pool = unseen_places(state)
        others = [p for p in pool if p != place]
        count = 1 + len(others) + len(state.stock)
        out: list[tuple[float, PavedState]] = [(1 / count, _clone(state))]
        for other in others:
            twin = _clone(state)
            twin.square[place], twin.square[other] = twin.square[other], twin.square[place]
            out.append((1 / count, twin))
        for index in range(len(state.stock)):
            twin = _clone(state)
            card = twin.square[place]
            assert card is not None
            twin.square[place], twin.stock[index] = twin.stock[index], card
            out.append((1 / count, twin))
        return out

    def expected(self, state: PavedState, seat: int, action: Action) -> Values | None:
        """The mean over `reveals`, directly: a turn-up before the claim's last changes no
        score; the last one scores the claim's points for the claimant with the chance that
        the card found completes it, and, with two players, the claim's cards for the opponent
        with the chance that it does not (with three, the claimant gives them later)."""
        if self.reveals_nothing(state, action):
            return None
        now = list(self.value(state))
        combo = state.combo
        assert combo is not None
        if len(state.face_up) + 1 < combo.size:
            return tuple(now)
        place = action[1]  # type: ignore[index]
        shown = [state.square[p] for p in state.face_up]
        found = [state.square[p] for p in unseen_places(state)] + state.stock
        assert place in unseen_places(state)
        good = sum(1 for card in found
                   if state.rules.holds(combo, (*shown, card)))  # type: ignore[arg-type]
        chance = good / len(found)
        now[seat] += chance * combo.points
        if state.players == 2:
            now[1 - seat] += (1 - chance) * combo.size
        return tuple(now)

    def reveals_nothing(self, state: PavedState, action: Action) -> bool:
        """Whether `action` turns up no place nobody has seen."""
        return (state.phase is not Phase.TURN_UP or action[0] != act.TURN_UP  # type: ignore[index]
                or action[1] not in unseen_places(state))  # type: ignore[index]


def unseen_places(state: PavedState) -> list[int]:
    """The places holding a card nobody has seen: no `Reveal` of the place since its card was
    dealt or refilled, and not in hand or face up now."""
    seen: set[int] = set()
    for event in state.log:
        if isinstance(event, Reveal):
            seen.add(event.position)
        elif isinstance(event, Refill):
            seen.difference_update(event.positions)
    busy = {*state.face_up, *state.held}
    return [p for p in state.live() if p not in seen and p not in busy]
