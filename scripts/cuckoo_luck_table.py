"""Make the table of paying chances that Cuckoo's value function ships with
(`arena/games/cuckoo/paying.py`).

Offline, once: six-seat games of `cuckoo-sharp` and `cuckoo-simple` alternating round the table
(both ways round) on deals from seed 91,000,000 on, which no test, benchmark or shipped config
uses. For every deal and every seat in it, the seat's place in the turn order (0 = the dealer's
left, the dealer last), the rank it was dealt and whether it paid a chip at the showdown. The
table gives, by seats still in, place and rank, the share that paid, shrunk towards the chance
that the rank alone gives (`cuckoo-rank/1`'s `paying_chance`) with the weight of `PRIOR` deals,
so that a rare cell keeps close to the rank's own chance. Seats in deals of more than six
players have no cells: the model uses the rank's chance there.

    python scripts/cuckoo_luck_table.py --games 3000 > arena/games/cuckoo/paying.py
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from arena.api import Event
from arena.cards import Card
from arena.engine import State, find_game
from arena.games.cuckoo.luck import paying_chance
from arena.games.cuckoo.table import DealStarted, Showdown
from arena.loader import resolve_bot
from arena.match import play_game

SEED_BASE = 91_000_000
SEATS = 6
PAIR = ("cuckoo-sharp", "cuckoo-simple")
PRIOR = 50
"""How many deals' worth of weight the rank's own chance has in each cell."""

Key = tuple[int, int, int]
"""Seats still in, place in the turn order, rank dealt (1 = ace ... 13 = king)."""


class Collector:
    """Watches a game: at each deal the places and ranks dealt; at its showdown who paid."""

    def __init__(self) -> None:
        self.dealt: dict[int, tuple[int, int]] = {}  # seat: (place, rank)
        self.seen: dict[Key, list[int]] = {}  # key: [deals, paid]

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Note the cards of each deal and, at its showdown, who paid."""
        for event in events:
            if isinstance(event, DealStarted):
                hands: dict[int, Card] = state.hands  # type: ignore[attr-defined]
                self.dealt = {seat: (place, int(hands[seat].rank))
                              for place, seat in enumerate(event.order)}
            elif isinstance(event, Showdown):
                seats = len(self.dealt)
                for seat, (place, rank) in self.dealt.items():
                    counts = self.seen.setdefault((seats, place, rank), [0, 0])
                    counts[0] += 1
                    counts[1] += seat in event.payers


class Watcher:
    """The match loop's spectator protocol over a `Collector`."""

    def __init__(self, collector: Collector) -> None:
        self.collector = collector

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """Nothing to note before the first deal."""

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Pass the events on."""
        self.collector.happened(state, events)


def collect(games: int) -> dict[Key, list[int]]:
    """Deals and payments by key over `games` games (half of them with the bots swapped)."""
    variant = find_game("cuckoo").variant("standard")
    bots = [resolve_bot(spec, "cuckoo") for spec in PAIR]
    collector = Collector()
    for game in range(games):
        seed, swap = SEED_BASE + game // 2, game % 2
        seated = [bots[(seat + swap) % 2] for seat in range(SEATS)]
        play_game(variant, [b.make() for b in seated], [b.name for b in seated], seed,
                  watcher=Watcher(collector), luck=False)
    return collector.seen


def main() -> int:
    """Print the module of the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    seen = collect(args.games)
    deals = sum(counts[0] for (seats, place, _), counts in seen.items() if place == 0)
    print(f'"""The chance that a seat pays a chip in a deal of Cuckoo, by seats still in, its\n'
          f"place in the turn order (0 = the dealer's left, the dealer last) and the rank it was\n"
          f"dealt; made offline by `python scripts/cuckoo_luck_table.py --games {args.games}`\n"
          f"({deals} deals of {' and '.join(PAIR)} alternating round six seats, from seed\n"
          f"{SEED_BASE:,}), each cell shrunk towards the rank's own chance with the weight of\n"
          f'{PRIOR} deals. Generated: do not edit; a new table is a new model version."""\n')
    print("PAYING: dict[tuple[int, int], tuple[float, ...]] = {")
    print("    # (seats, place): chance of paying for ranks ace to king")
    for seats in range(2, SEATS + 1):
        for place in range(seats):
            cells = []
            for rank in range(1, 14):
                n, paid = seen.get((seats, place, rank), [0, 0])
                prior = paying_chance(rank, seats)
                cells.append((paid + PRIOR * prior) / (n + PRIOR))
            print(f"    ({seats}, {place}): ({', '.join(f'{c:.4f}' for c in cells[:7])},")
            print(f"             {', '.join(f'{c:.4f}' for c in cells[7:])}),")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
