"""Schedule formats: the size of the issue's 30-bot, 8-seat Cuckoo class as a round robin and
sampled, how long the draw takes, how evenly pairs meet, and the sampled class played on N
workers. Prints figures, asserts nothing.

    python benchmarks/bench_schedules.py [--deals 2] [--tables-per-bot 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

from arena.tournament.config import load_config
from arena.tournament.run import run_tournament, schedule_of


def class_config(folder: Path, deals: int, schedule: str) -> Path:
    """A config of 30 cuckoo-simple bots at 8-seat Cuckoo, with the given [schedule] lines."""
    bots = "".join(f'\n[[bots]]\nspec = "cuckoo-simple"\nname = "c{i:02d}"\n' for i in range(30))
    path = folder / f"class-{len(schedule)}.toml"
    path.write_text(f'name = "class"\n[schedule]\n{schedule}\n[deals]\ncount = {deals}\n'
                    f'base = 1\n{bots}\n[[games]]\ngame = "cuckoo"\nplayers = 8\n'
                    f'variants = ["standard"]\n')
    return path


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--tables-per-bot", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        full = schedule_of(load_config(class_config(folder, args.deals, "")))
        print(f"round robin: {len(full):,} games")
        config = load_config(class_config(
            folder, args.deals, f'format = "sampled"\ntables_per_bot = {args.tables_per_bot}'))
        started = time.perf_counter()
        sampled = schedule_of(config)
        drawn = sampled.tables_of(sampled.games[0])
        draw_seconds = time.perf_counter() - started
        names = [b.name for b in config.bots]
        met = Counter(p for t in drawn for p in combinations(sorted(t), 2))
        meetings = Counter(met[p] for p in combinations(names, 2))
        print(f"sampled (tables_per_bot = {args.tables_per_bot}): {len(drawn)} tables, "
              f"{len(sampled):,} games, drawn in {draw_seconds:.2f} s")
        print("pair meetings (times met: pairs): "
              + ", ".join(f"{k}: {v}" for k, v in sorted(meetings.items())))
        started = time.perf_counter()
        report = run_tournament(config, folder / "run", workers=args.workers)
        seconds = time.perf_counter() - started
        print(f"played {report.played:,} games on {args.workers} worker(s) in {seconds:.1f} s "
              f"({report.played / seconds:.0f} games/s)")


if __name__ == "__main__":
    main()
