"""How the constant EIGHT of Dig's luck model (arena/games/dig/luck.py) was chosen, offline.

    python scripts/dig_luck_eight.py [--deals 300]

Plays dig-sharp against dig-simple (both seatings) on deals from 5,000,000, which no test,
benchmark or shipped config uses, once for each candidate worth of an eight in hand, and prints
the variance of dig-sharp's score and of its score less its luck (raw, and with the coefficient
cross-fitted between the halves of the deals). The shipped constant is the candidate with the
smallest raw variance; changing it makes a new version of the model.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.games.dig import luck
from tests.luck.helpers import bot_luck, cross_fitted_variances, played

BASE = 5_000_000
CANDIDATES = (0.0, 1.0, 2.0, 3.0, 4.0)
PAIR = ("dig-sharp", "dig-simple")


def main() -> int:
    """Print one line per candidate worth of an eight."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()
    shipped = luck.EIGHT
    print(f"dig-sharp against dig-simple, deals {BASE} to {BASE + args.deals - 1}, both seatings")
    for eight in CANDIDATES:
        luck.EIGHT = eight
        records = list(played("dig", "standard", PAIR, range(BASE, BASE + args.deals)))
        scores = [r.scores[r.seats.index(PAIR[0])] for r in records]
        lucks = bot_luck(records, PAIR[0])
        raw = statistics.variance(scores)
        less = statistics.variance([s - lk for s, lk in zip(scores, lucks, strict=True)])
        _, fitted = cross_fitted_variances(records, PAIR[0])
        mark = "  (shipped)" if eight == shipped else ""
        print(f"EIGHT {eight:.0f}: variance of the score {raw:.2f}, less the luck {less:.2f} "
              f"({less / raw:.3f}), cross-fitted {fitted:.2f} ({fitted / raw:.3f}){mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
