"""Build the shipped tables of the any-colour Concentration minimax (bots/any_colour_*.xz).

    python scripts/make_concentration_tables.py [--check]

Solves every state of up to 14 groups (13 ranks and the jokers) with
bots.concentration_groups.solve, for the standard rule and for one-flip, writes the minimax's
choices, compressed, next to the module, and prints the value of the game from the start. With
`--check` it writes nothing and says whether the shipped tables equal freshly computed ones.
It takes a minute or two of CPU per rule.
"""

from __future__ import annotations

import argparse
import lzma
import sys
from pathlib import Path

from bots.concentration_groups import TABLE_FILES, TABLE_GROUPS, encode, solve, start_state

BOTS = Path(__file__).resolve().parents[1] / "bots"


def main() -> int:
    """Write (or check) both tables; print the values of the game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    same = True
    for again in (True, False):
        value, firsts, seconds = solve(TABLE_GROUPS, again)
        table = encode(firsts, seconds)
        path = BOTS / TABLE_FILES[again]
        rule = "standard" if again else "one-flip"
        print(f"any-colour, {rule}: value of the game from the start "
              f"(first mover's expected margin) {value[(0, start_state())]:+.6f}; "
              f"with two jokers {value[(0, start_state(13, 1))]:+.6f}")
        if args.check:
            shipped = lzma.decompress(path.read_bytes())
            same = same and shipped == table
            print(f"{path.name}: {'equal' if shipped == table else 'DIFFERENT'}")
        else:
            path.write_bytes(lzma.compress(table, preset=9))
            print(f"wrote {path.name}: {path.stat().st_size} bytes")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
