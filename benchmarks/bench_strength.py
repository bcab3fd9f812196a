"""The strongest bundled bot of each game against the previous best and against random, with 95%
intervals, and the exploitability of the Concentration minimax (issue 33).

    python benchmarks/bench_strength.py [--deals 400]

Each game's rows come from its own module (`strength_<game>.py` beside this file), so that the
sections can grow apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from strength_concentration import HEADER, concentration_rows


def main() -> None:
    """Print every game's rows as one Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    args = parser.parse_args()
    print(HEADER)
    for row in concentration_rows(args.deals):
        print(row.line())


if __name__ == "__main__":
    main()
