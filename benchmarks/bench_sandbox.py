"""Sandbox cost: standard two-player Concentration, greedy against greedy, with both bots
sandboxed in processes of their own next to both in the arena's process, measured in one run.
Prints games per second for each and the ratio (target: sandboxed at least 15% of in-process).
Asserts nothing.

    python benchmarks/bench_sandbox.py [--games 200] [--trusted]
"""

from __future__ import annotations

import argparse
import time

from arena.engine import find_game
from arena.loader import BotSpec, resolve_bot
from arena.match import play_game
from arena.sandbox import BotHost, Limits, SandboxedSpec


def rate(variant: object, seats: list[BotSpec | SandboxedSpec], games: int) -> float:
    """Games per second for `games` games between these seats."""
    start = time.perf_counter()
    for seed in range(games):
        play_game(variant, [s.make() for s in seats], [s.name for s in seats], seed)  # type: ignore[arg-type]
    return games / (time.perf_counter() - start)


def main() -> None:
    """Measure in-process and sandboxed play alternately; print the best rate of each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--trusted", action="store_true",
                        help="import the bot once in the host, as for a bundled bot")
    args = parser.parse_args()
    variant = find_game("concentration").variant("standard")
    limits = Limits(move_seconds=1.0, memory_mb=512)
    hosts = [BotHost("greedy", "concentration", limits, trusted=args.trusted) for _ in range(2)]
    sandboxed = [SandboxedSpec(f"greedy{i}", host) for i, host in enumerate(hosts)]
    in_process = [resolve_bot("greedy"), resolve_bot("greedy")]
    best_in = best_out = 0.0
    try:
        rate(variant, sandboxed, 5)  # start the hosts
        for _ in range(args.rounds):
            best_in = max(best_in, rate(variant, in_process, args.games * 5))
            best_out = max(best_out, rate(variant, sandboxed, args.games))
    finally:
        for host in hosts:
            host.close()
    kind = ("trusted (imported once by the host)" if args.trusted
            else "untrusted (imported per game)")
    print(f"standard 2-player concentration, greedy vs greedy, best of {args.rounds} rounds")
    print(f"  in-process : {best_in:8.0f} games/s")
    print(f"  sandboxed  : {best_out:8.0f} games/s  (both bots; {kind})")
    print(f"  ratio      : {best_out / best_in:8.1%}  (target: at least 15%)")


if __name__ == "__main__":
    main()
