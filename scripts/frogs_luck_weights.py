"""Make the table of card weights that Frogs in the Pond's value function ships with.

Offline, once: `frogs-sharp` plays every seat of deals from seed 90000000 on (seeds no test or
benchmark uses), and for each table (seats, partners, tadpole) a least-squares fit gives the
points a side wins in a deal as a constant plus a weight per card rank held in its hands (the
jack of spades its own weight with the tadpole). The weights are printed as Python, to be
pasted into `arena/games/frogs_in_the_pond/luck.py` under a new model version.

    python scripts/frogs_luck_weights.py --deals 1500
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from arena.api import Event
from arena.cards import Rank
from arena.engine import State, find_game
from arena.games.frogs_in_the_pond import DealScored, DealStarted, FrogsState
from arena.games.frogs_in_the_pond.variants import TADPOLE
from arena.loader import resolve_bot
from arena.match import play_game

RANKS = tuple(r for r in Rank if r is not Rank.JOKER)
SEED_BASE = 90_000_000
TABLES = ((2, True), (3, True), (4, True), (4, False), (5, True))


class Collector:
    """Watches a game and keeps, for each deal, each side's hand features and points."""

    def __init__(self, tadpole: bool) -> None:
        self.tadpole = tadpole
        self.rows: list[tuple[list[float], float]] = []
        self.state: FrogsState | None = None
        self.features: list[list[float]] = []

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """Keep the state to read the hands from."""
        assert isinstance(state, FrogsState)
        self.state = state

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """At a deal's start, the sides' hand features; at its end, their points."""
        frogs = self.state
        assert frogs is not None
        for event in events:
            if isinstance(event, DealStarted):
                self.features = [self.side_features(frogs, side) for side in frogs.sides]
            elif isinstance(event, DealScored):
                for side, features in zip(frogs.sides, self.features, strict=True):
                    self.rows.append((features, float(sum(event.points[s] for s in side))))

    def side_features(self, state: FrogsState, side: Sequence[int]) -> list[float]:
        """Counts of each rank in the side's hands (and the tadpole held, if it counts)."""
        counts = [0.0] * (len(RANKS) + 1)
        for seat in side:
            for card in state.hands[seat]:
                counts[RANKS.index(card.rank)] += 1
                if self.tadpole and card == TADPOLE:
                    counts[-1] += 1
        return counts if self.tadpole else counts[:-1]


def fit(players: int, partners: bool, tadpole: bool, deals: int) -> list[float]:
    """The least-squares weights (rank order, then the tadpole's) for one table."""
    game = find_game("frogs-in-the-pond")
    variant = game.variant("standard", {"partners": str(partners).lower(),
                                        "tadpole": str(tadpole).lower(), "target": "1",
                                        "max-deals": "1"})
    collector = Collector(tadpole)
    for seed in range(SEED_BASE, SEED_BASE + deals):
        bots = [resolve_bot("frogs-sharp", game.name).make() for _ in range(players)]
        play_game(variant, bots, ["frogs-sharp"] * players, seed, collector)
    x = np.array([[1.0, *f] for f, _ in collector.rows])
    y = np.array([p for _, p in collector.rows])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    return [round(float(c), 3) for c in coef[1:]]


def main() -> None:
    """Fit every table and print the weights as Python."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1500)
    args = parser.parse_args()
    print("WEIGHTS = {")
    for players, partners in TABLES:
        for tadpole in (False, True):
            weights = fit(players, partners, tadpole, args.deals)
            print(f"    ({players}, {partners}, {tadpole}): (")
            for start in range(0, len(weights), 7):
                print("        " + ", ".join(map(repr, weights[start:start + 7])) + ",")
            print("    ),")
    print("}")


if __name__ == "__main__":
    main()
