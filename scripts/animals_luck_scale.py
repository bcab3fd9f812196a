"""Fit the one number of Animals' value function: what a card held now is worth at the end.

Offline, once: tables of bundled bots play deals from seed 90000000 on (seeds no test or
benchmark uses) with the scale set to 1, and the least-squares coefficient of each bot's score
on its luck (pooled over the tables, seats rotated) is printed, to be fixed as `SCALE` in
`arena/games/animals/luck.py` under a new model version.

    python scripts/animals_luck_scale.py --deals 300
"""

from __future__ import annotations

import argparse
import statistics

import arena.games.animals.luck as animals_luck
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game

SEED_BASE = 90_000_000
TABLES = (("animals-sharp", "animals-sharp", "animals-simple"),
          ("animals-sharp", "animals-simple", "random"),
          ("animals-sharp", "animals-simple", "animals-simple", "random"))


def main() -> None:
    """Play the tables and print the pooled coefficient of score on luck."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()
    animals_luck.SCALE = 1.0
    game = find_game("animals")
    variant = game.variant("standard")
    scores: list[float] = []
    lucks: list[float] = []
    for table in TABLES:
        for seed in range(SEED_BASE, SEED_BASE + args.deals):
            shift = seed % len(table)
            names = list(table[shift:] + table[:shift])
            record = play_game(variant, [resolve_bot(n, game.name).make() for n in names],
                               names, seed)
            assert record.luck is not None
            for seat in range(len(names)):
                scores.append(record.scores[seat] - statistics.fmean(record.scores))
                lucks.append(record.luck[seat] - statistics.fmean(record.luck))
    coefficient = statistics.covariance(scores, lucks) / statistics.variance(lucks)
    print(f"SCALE = {coefficient:.2f}  ({len(scores)} seats)")


if __name__ == "__main__":
    main()
