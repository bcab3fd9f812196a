"""Parallel scaling: the same tournament with 1 worker and with N workers, side by side.

Plays a round robin of Concentration bots (at least 4,000 games by default) into fresh run
directories and prints games per second for each worker count and the speed-up. Asserts nothing.

    python benchmarks/bench_parallel.py [--deals 500] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from arena.tournament.planning.config import load_config
from arena.tournament.run import run_tournament

CONFIG = """
name = "bench-parallel"
[deals]
count = {deals}
base = 1
[[bots]]
spec = "greedy"
[[bots]]
spec = "optimal"
[[bots]]
spec = "forgetful"
[[bots]]
spec = "tracker"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def timed_run(config_path: Path, workers: int, out: Path) -> tuple[int, float]:
    """Games played and seconds taken by one fresh run."""
    config = load_config(config_path)
    start = time.perf_counter()
    report = run_tournament(config, out, workers=workers, fresh=True)
    return report.played, time.perf_counter() - start


def main() -> None:
    """Run the tournament with 1 and with N workers and print both rates and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=340)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG.format(deals=args.deals))
        games, serial = timed_run(path, 1, Path(tmp) / "one")
        _, parallel = timed_run(path, args.workers, Path(tmp) / "many")
    print(f"round robin of 4 bots, {games} games (6 tables x 2 seatings x {args.deals} deals)")
    print(f"  1 worker  : {games / serial:8.0f} games/s  ({serial:.2f} s)")
    print(f"  {args.workers} workers : {games / parallel:8.0f} games/s  ({parallel:.2f} s)")
    print(f"  speed-up  : {serial / parallel:8.2f}x  (target: at least 1.8x with 2 workers)")


if __name__ == "__main__":
    main()
