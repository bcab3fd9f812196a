"""Ray against the local pool: the same tournament of short games on both, side by side, and a
projection of a large league on 1, 8 and 64 machines from the measured per-game costs.

Plays a round robin of four Concentration bots (20,400 games by default) with the local process
pool and on a local Ray instance of the same number of CPUs, into fresh run directories, and
prints games per second for each, Ray's overhead, the driver's CPU time per game, and the cost of
rating the records. Asserts nothing. Needs Ray (pip install -e '.[ray]').

    python benchmarks/bench_ray.py [--deals 1700] [--cpus 2] [--rounds 1]
"""

from __future__ import annotations

import argparse
import logging
import math
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

from arena.tournament.planning.config import TournamentConfig, load_config
from arena.tournament.playing.runner import Backend
from arena.tournament.rating import run_ratings
from arena.tournament.run import run_tournament

CONFIG = """
name = "bench-ray"
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
spec = "random"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


@dataclass(frozen=True)
class Timed:
    """One fresh run: games played, wall seconds, and this (the driver's) process CPU seconds."""

    games: int
    seconds: float
    driver_cpu: float

    @property
    def rate(self) -> float:
        """Games per second."""
        return self.games / self.seconds


def timed_run(config: TournamentConfig, out: Path, cpus: int, backend: Backend) -> Timed:
    """Play the whole config into a fresh directory on one backend."""
    wall, cpu = time.perf_counter(), time.process_time()
    report = run_tournament(config, out, workers=cpus, fresh=True, backend=backend)
    return Timed(report.played, time.perf_counter() - wall, time.process_time() - cpu)


def league_games(bots: int, variants: int, deals: int) -> int:
    """Games of a two-player round robin: every pair, variant and deal, in both seatings."""
    return math.comb(bots, 2) * variants * deals * 2


def projection(games: int, game_cpu: float, driver: float, cores: int,
               overhead: float) -> list[tuple[int, float, float, str]]:
    """(machines, games/s, hours, limited by) on 1, 8 and 64 machines of `cores` cores each."""
    rows = []
    for machines in (1, 8, 64):
        workers_rate = machines * cores / game_cpu / (1 + overhead)
        driver_rate = 1 / driver
        rate = min(workers_rate, driver_rate)
        rows.append((machines, rate, games / rate / 3600,
                     "workers" if workers_rate < driver_rate else "the driver"))
    return rows


def main() -> None:
    """Run local and Ray alternately, print both rates, Ray's overhead and the projection."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1700, help="12 games per deal")
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--sandboxed-game-ms", type=float, default=22.0,
                        help="CPU per sandboxed game (untrusted bots), from bench_sandbox.py")
    args = parser.parse_args()
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    ray_start = time.perf_counter() - started
    runs: dict[Backend, list[Timed]] = {Backend.LOCAL: [], Backend.RAY: []}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG.format(deals=args.deals))
        config = load_config(path)
        for _ in range(args.rounds):
            for backend in (Backend.LOCAL, Backend.RAY):
                out = Path(tmp) / backend.value
                runs[backend].append(timed_run(config, out, args.cpus, backend))
        rating_started = time.perf_counter()
        run_ratings(Path(tmp) / "ray")
        rating = time.perf_counter() - rating_started
        tracemalloc.start()  # a second pass: tracing slows Python down, so it is not timed
        run_ratings(Path(tmp) / "ray")
        rating_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    ray.shutdown()

    local = max(runs[Backend.LOCAL], key=lambda t: t.rate)
    on_ray = max(runs[Backend.RAY], key=lambda t: t.rate)
    games = local.games
    overhead = local.rate / on_ray.rate - 1
    driver = on_ray.driver_cpu / games
    game_cpu = args.cpus * local.seconds / games
    print(f"round robin of 4 bots, Concentration standard, {games} games "
          f"(6 tables x 2 seatings x {args.deals} deals), {args.cpus} CPUs, best of {args.rounds}")
    print(f"  local pool  : {local.rate:8.0f} games/s  ({local.seconds:.2f} s)")
    print(f"  Ray         : {on_ray.rate:8.0f} games/s  ({on_ray.seconds:.2f} s; starting the "
          f"local Ray instance took {ray_start:.1f} s more)")
    print(f"  Ray overhead: {overhead:+.1%} against the local pool (target: at most 15%)")
    print(f"  per game    : {game_cpu * 1e3:.2f} ms of worker CPU; the Ray driver "
          f"{driver * 1e6:.0f} us of CPU (its ceiling: {1 / driver:,.0f} games/s)")
    print(f"  ratings     : {rating / games * 1e6:.0f} us and {rating_peak / games:,.0f} bytes "
          f"of peak memory per record ({rating:.2f} s for the run)")

    league = league_games(200, 4, 20)
    print(f"\nprojection: 200 bots, 4 variants, 20 deals, 2 seatings: {league:,} games; "
          f"machines of {args.cpus} cores; ratings after: {league * rating / games / 60:.0f} min "
          f"and {league * rating_peak / games / 2**30:.1f} GiB on the driver")
    for label, cost in (("bundled bots in-process", game_cpu),
                        ("sandboxed bots", args.sandboxed_game_ms / 1e3)):
        print(f"  {label} ({cost * 1e3:.2f} ms per game):")
        for machines, rate, hours, limit in projection(league, cost, driver, args.cpus,
                                                       max(overhead, 0.0)):
            took = f"{hours:6.1f} h  " if hours >= 1 else f"{hours * 60:6.1f} min"
            print(f"    {machines:3d} machine(s): {rate:9,.0f} games/s  {took}  "
                  f"(limited by {limit})")
    in_process = game_cpu / (args.cpus * driver)
    sandboxed = args.sandboxed_game_ms / 1e3 / (args.cpus * driver)
    print(f"  the driver becomes the bottleneck past {in_process:.0f} machines of {args.cpus} "
          f"cores for in-process bots, past {sandboxed:,.0f} for sandboxed ones")


if __name__ == "__main__":
    main()
