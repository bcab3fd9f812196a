"""Framework overhead: the arena's match loop against a bare loop with the same greedy logic.

Plays standard two-player Concentration, greedy against greedy, in one process, and prints games
per second for both loops, measured side by side in this run, and their ratio; the arena's loop
both without each seat's luck (the match loop alone, which the target is for) and with it (what a
run computes; benchmarks/bench_luck_cost.py measures that cost in every game with a model).
Asserts nothing.

    python benchmarks/bench_match.py [--games 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import time

from arena.cards import Colour, standard_deck
from arena.engine import find_game
from arena.match import bot_rng, deal_rng, play_game
from bots.concentration.greedy import GreedyBot


def bare_game(seed: int) -> tuple[int, int]:
    """One standard two-player game of greedy against greedy with no framework at all."""
    cards = standard_deck()
    deal_rng(seed).shuffle(cards)
    keys = [c.rank.value * 2 + (c.colour is Colour.RED) for c in cards]
    rngs = [bot_rng(seed, 0), bot_rng(seed, 1)]
    memories: list[dict[int, int]] = [{}, {}]
    live = list(range(len(cards)))
    points = [0, 0]
    seat = 0
    while live:
        memory, rng = memories[seat], rngs[seat]
        first = _known_pair(memory, live)
        if first is None:
            first = _explore(memory, live, (), rng)
        for m in memories:
            m[first] = keys[first]
        mates = [p for p in live if p != first and memory.get(p) == keys[first]]
        second = mates[0] if mates else _explore(memory, live, (first,), rng)
        for m in memories:
            m[second] = keys[second]
        if keys[first] == keys[second]:
            points[seat] += 1
            live.remove(first)
            live.remove(second)
            for m in memories:
                del m[first], m[second]
        else:
            seat = 1 - seat
    return points[0], points[1]


def _known_pair(memory: dict[int, int], live: list[int]) -> int | None:
    seen: dict[int, int] = {}
    for p in live:
        key = memory.get(p)
        if key is None:
            continue
        if key in seen:
            return seen[key]
        seen[key] = p
    return None


def _explore(memory: dict[int, int], live: list[int], up: tuple[int, ...],
             rng: random.Random) -> int:
    pool = [p for p in live if p not in memory and p not in up] or [p for p in live if p not in up]
    return pool[rng.randrange(len(pool))]


def arena_games(games: int, luck: bool = False) -> float:
    """Seconds for `games` arena games, greedy against greedy (with each seat's luck or not)."""
    variant = find_game("concentration").variant("standard")
    start = time.perf_counter()
    for seed in range(games):
        play_game(variant, [GreedyBot(), GreedyBot()], ["greedy", "greedy"], seed, luck=luck)
    return time.perf_counter() - start


def bare_games(games: int) -> float:
    """Seconds for `games` bare-loop games."""
    start = time.perf_counter()
    for seed in range(games):
        bare_game(seed)
    return time.perf_counter() - start


def main() -> None:
    """Measure both loops alternately, several rounds, and print the best of each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best_arena = best_bare = best_lucky = float("inf")
    arena_games(1, luck=True)  # the luck model's minimax, solved once a process
    for _ in range(args.rounds):
        best_bare = min(best_bare, bare_games(args.games))
        best_arena = min(best_arena, arena_games(args.games))
        best_lucky = min(best_lucky, arena_games(args.games, luck=True))
    arena_rate, bare_rate = args.games / best_arena, args.games / best_bare
    lucky_rate = args.games / best_lucky
    print(f"standard 2-player concentration, greedy vs greedy, {args.games} games, "
          f"best of {args.rounds} rounds")
    print(f"  bare loop : {bare_rate:8.0f} games/s")
    print(f"  arena loop: {arena_rate:8.0f} games/s")
    print(f"  overhead  : {bare_rate / arena_rate:8.2f}x  (target: at most 3x)")
    print(f"  with luck : {lucky_rate:8.0f} games/s ({bare_rate / lucky_rate:.2f}x the bare loop; "
          f"luck costs {arena_rate / lucky_rate:.2f}x)")


if __name__ == "__main__":
    main()
