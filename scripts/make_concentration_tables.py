"""Build the shipped tables of the two-player Concentration minimax: its choices for the bots
(bots/concentration/*_minimax.xz) and its margins for the game's luck model
(arena/games/concentration/margins*.f64.xz).

    python scripts/make_concentration_tables.py [--check]

Solves every position of up to 52 pairs with arena.games.concentration.minimax.evaluate (cards
with one mate) and every state of up to 14 groups (13 ranks and the jokers) with
bots.concentration.groups.solve (any-colour), for the standard rule and for one-flip; writes the
minimax's choices and margins, compressed, next to the modules that read them, and prints the
any-colour value of the game from the start. With `--check` it writes nothing and says whether
the shipped tables equal freshly computed ones.
It takes a minute or two of CPU per rule.
"""

from __future__ import annotations

import argparse
import lzma
import sys
from pathlib import Path

from arena.games.concentration import margins
from bots.concentration import minimax as pairs
from bots.concentration.groups import TABLE_FILES, TABLE_GROUPS, encode, solve, start_state

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "bots" / "concentration"
GAME = ROOT / "arena" / "games" / "concentration"


def main() -> int:
    """Write (or check) both tables; print the values of the game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    same = True
    for again in (True, False):
        solved = pairs.evaluate(max(pairs.TABLE_PAIRS, margins.MARGIN_PAIRS), again)
        table = pairs.encode(solved)
        same = _write_or_check(BOTS / pairs.TABLE_FILES[again], table, args.check) and same
        values = margins.encode_margins(solved)
        same = _write_or_check(GAME / margins.MARGIN_FILES[again], values, args.check) and same
    for again in (True, False):
        value, firsts, seconds = solve(TABLE_GROUPS, again)
        table = encode(firsts, seconds)
        path = BOTS / TABLE_FILES[again]
        rule = "standard" if again else "one-flip"
        print(f"any-colour, {rule}: value of the game from the start "
              f"(first mover's expected margin) {value[(0, start_state())]:+.6f}; "
              f"with two jokers {value[(0, start_state(13, 1))]:+.6f}")
        same = _write_or_check(path, table, args.check) and same
    return 0 if same else 1


def _write_or_check(path: Path, table: bytes, check: bool) -> bool:
    """Write the table compressed, or say whether the shipped one equals it."""
    if check:
        equal = lzma.decompress(path.read_bytes()) == table
        print(f"{path.name}: {'equal' if equal else 'DIFFERENT'}")
        return equal
    path.write_bytes(lzma.compress(table, preset=9))
    print(f"wrote {path.name}: {path.stat().st_size} bytes")
    return True


if __name__ == "__main__":
    sys.exit(main())
