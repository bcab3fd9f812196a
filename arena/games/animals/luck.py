"""The luck model of Animals: what the lots between simultaneous right calls gave each player.

Animals has two kinds of chance after the deal: the card a player faces from a pack nobody has
looked at, and the lot that settles a race when two or more players call right at once (ruling
7: one right caller drawn from the deal's rng, each equally likely). The value of a state
(`AnimalsLuck.value`) is each player's score as it stands: the cards it holds, or 1 less its
place once it has left. A faced card moves no card, so only the lots have luck: a race's value
after the lot less its mean over every right caller winning it (`joint_reveals`: the state with
the lot fixed for each caller in turn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena.api import Action
from arena.games.animals.calls import settle
from arena.games.animals.sampler import AnimalsSampler
from arena.games.animals.state import AnimalsState
from arena.games.animals.table import QUIET
from arena.luck.model import Alternatives, LuckModel, Values

_copy = AnimalsSampler().clone

SCALE = 0.27
"""What a card held now is worth at the end, on average: cards won in one race are often lost
in the next, so a swing counts for less than its cards. Fitted offline once by
`python scripts/animals_luck_scale.py --deals 200` (seeds no test or benchmark uses).
"""


class Lot(random.Random):
    """A deal's rng with the lot of a race fixed: `choice` gives `winner` (the first offered
    when None) and keeps what it was offered."""

    def __init__(self, winner: int | None = None) -> None:
        super().__init__(0)
        self.winner = winner
        self.offered: tuple[Any, ...] = ()

    def choice(self, seq: Sequence[Any]) -> Any:
        """The fixed winner of the lot among `seq`."""
        self.offered = tuple(seq)
        return seq[0] if self.winner is None else self.winner


class AnimalsLuck(LuckModel[AnimalsState]):
    """Each player's score as it stands; luck from the lots between right calls."""

    name = "animals-lots"
    version = 1

    def value(self, state: AnimalsState) -> Values:
        """`SCALE` times the scores as they stand (cards held, or 1 - place once out)."""
        return tuple(SCALE * score for score in state.scores())

    def reveals(self, state: AnimalsState, seat: int, action: Action
                ) -> Alternatives[AnimalsState] | None:
        """The one-seat case of `joint_reveals` (every decision of Animals is joint)."""
        return self.joint_reveals(state, {seat: action})

    def joint_reveals(self, state: AnimalsState, actions: Mapping[int, Action]
                      ) -> Alternatives[AnimalsState] | None:
        """Calls of which two or more are right: the state with the lot won by each right
        caller, equally likely; None when no lot is drawn."""
        right = lot_entrants(state, actions)
        if len(right) < 2:
            return None
        out: list[tuple[float, AnimalsState]] = []
        for winner in right:
            twin = _copy(state)
            assert isinstance(twin, AnimalsState)
            twin.rng = Lot(winner)
            out.append((1 / len(right), twin))
        return out


def lot_entrants(state: AnimalsState, actions: Mapping[int, Action]) -> tuple[int, ...]:
    """The right callers among `actions` a lot would be drawn between (none when fewer than
    two are right), found by settling the calls as the state will, on a probe of the rng."""
    calls = {seat: action[1] for seat, action in actions.items()  # type: ignore[index]
             if action != QUIET}
    probe = Lot()
    settle(state.tops(), calls, state.facer, probe)
    return probe.offered
