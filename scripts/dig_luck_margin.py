"""Fit the weights of Dig's value function (`arena/games/dig/margin.py`), offline.

    python scripts/dig_luck_margin.py [--deals 4000]

Plays dig-sharp against dig-simple (deals from 5,100,000) and dig-sharp against itself (deals
from 5,200,000), both seatings, seeds no test, benchmark or shipped config uses, and at every
turn of every game notes the counts of `margin.features` for the seat to play and the margin it
finally won by. The weights are the least-squares fit of that margin on the features; they are
printed as Python, to be pasted into `margin.py` under a new version of the luck model.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from arena.api import Event
from arena.engine import State, find_game
from arena.games.dig.margin import FEATURES, features
from arena.games.dig.matching import WILD
from arena.games.dig.state import DigState
from arena.games.dig.table import Phase
from arena.loader import resolve_bot
from arena.match import play_game

REFERENCES = ((("dig-sharp", "dig-simple"), 5_100_000), (("dig-sharp", "dig-sharp"), 5_200_000))
"""The pairs of bundled bots played, and their first deal."""


class Turns:
    """Watches a game: the features of each turn, from the seat to play's point of view."""

    def __init__(self) -> None:
        self.turns: list[tuple[int, tuple[float, ...]]] = []  # (seat to play, features)

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """The first turn (after seat 0's dig, if it had to)."""
        self._note(state)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Every later turn."""
        self._note(state)

    def _note(self, state: State) -> None:
        assert isinstance(state, DigState)
        if state.phase is not Phase.PLAY:
            return
        seat, hands = state.seat, state.hands
        mine, theirs = hands[seat], hands[1 - seat]
        eights = [sum(1 for c in hand if c.rank is WILD) for hand in (mine, theirs)]
        self.turns.append((seat, features(len(mine), len(theirs), *eights, len(state.stock))))


def collect(deals: int) -> tuple[np.ndarray, np.ndarray]:
    """The features and final margins of every turn of the reference games."""
    variant = find_game("dig").variant("standard")
    rows: list[tuple[float, ...]] = []
    margins: list[float] = []
    for pair, base in REFERENCES:
        bots = [resolve_bot(spec, "dig") for spec in pair]
        for seed in range(base, base + deals):
            for order in ((0, 1), (1, 0)):
                watcher = Turns()
                record = play_game(variant, [bots[i].make() for i in order], ["a", "b"], seed,
                                   watcher=watcher, luck=False)
                for seat, terms in watcher.turns:
                    rows.append(terms)
                    margins.append(record.scores[seat])
    return np.array(rows), np.array(margins)


def main() -> int:
    """Print the fitted weights as Python."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals of each pair")
    args = parser.parse_args()
    rows, margins = collect(args.deals)
    weights, *_ = np.linalg.lstsq(rows, margins, rcond=None)
    residual = float(np.mean((margins - rows @ weights) ** 2))
    print(f"# {len(margins)} turns, {args.deals} deals of each pair; variance of the margin "
          f"{float(np.var(margins)):.2f}, mean squared error of the fit {residual:.2f}")
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"#   {name}: {weight:+.4f}")
    numbers = [f"{w:.4f}" for w in weights]
    print(f"MARGIN = Margin(({', '.join(numbers[:9])},\n                  "
          f"{', '.join(numbers[9:])}))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
