"""What computing each seat's luck costs: games per second with and without it, side by side.

For each game with a luck model of its own here (Concentration, Dig, Cuckoo), plays the same
deals with the same bundled bots twice in this process, with the luck (`play_game(...,
luck=True)`, what every run does) and without it, alternating the two in rounds so that both see
the same load, and prints the best rate of each and their ratio. A first game of each, not timed,
solves what a model solves once a process (Concentration's minimax). Asserts nothing.

    python benchmarks/bench_luck_cost.py [--games 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game

CASES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("concentration", "standard", ("greedy", "greedy")),
    ("concentration", "standard", ("greedy", "forgetful:recall=0.9,capacity=0")),
    ("concentration", "standard", ("optimal", "greedy")),
    ("dig", "standard", ("dig-sharp", "dig-simple")),
    ("dig", "reshuffle", ("random", "random")),
    ("cuckoo", "standard", ("cuckoo-sharp", "cuckoo-simple", "cuckoo-simple", "cuckoo-simple",
                            "cuckoo-simple", "cuckoo-simple")),
)


def rate(game: str, variant: str, specs: Sequence[str], games: int, luck: bool) -> float:
    """Games per second over `games` deals from seed 0."""
    chosen = find_game(game).variant(variant)
    bots = [resolve_bot(spec, game) for spec in specs]
    names = [b.name for b in bots]
    began = time.perf_counter()
    for seed in range(games):
        play_game(chosen, [b.make() for b in bots], names, seed, luck=luck)
    return games / (time.perf_counter() - began)


def main() -> None:
    """Measure every case with and without the luck, alternately, and print the best of each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.games} games a case, best of {args.rounds} rounds, one process")
    print(f"{'game':<14} {'variant':<10} {'bots':<44} {'without':>9} {'with':>9} {'cost':>6}")
    for game, variant, specs in CASES:
        rate(game, variant, specs, 1, True)  # what a model works out once a process
        without = with_luck = 0.0
        for _ in range(args.rounds):
            without = max(without, rate(game, variant, specs, args.games, False))
            with_luck = max(with_luck, rate(game, variant, specs, args.games, True))
        bots = " vs ".join(dict.fromkeys(specs))  # one name a bot, however many seats
        print(f"{game:<14} {variant:<10} {bots[:44]:<44} {without:>7.0f}/s {with_luck:>7.0f}/s "
              f"{without / with_luck:>5.2f}x")


if __name__ == "__main__":
    main()
