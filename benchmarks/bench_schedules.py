"""Schedule formats: the size of the issue's 30-bot, 8-seat Cuckoo class as a round robin and
sampled, how long the draw takes, how evenly pairs meet, and the sampled class played on N
workers; and how well sampled ratings recover the order of a full round robin on a field small
enough to play both ways (Kendall tau between the two mu orders, with the games each took).
Prints figures, asserts nothing.

    python benchmarks/bench_schedules.py [--deals 2] [--tables-per-bot 8] [--workers 2]
    python benchmarks/bench_schedules.py --part recovery [--recovery-deals 4] [--replicates 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

from arena.ratings.tables import Ratings, rate
from arena.tournament.planning.config import TournamentConfig, load_config
from arena.tournament.planning.plan import schedule_of
from arena.tournament.records.results import RunDirectory
from arena.tournament.run import run_tournament

FIELD = [("random", "random"), ("elephant", "elephant"), ("chancer", "chancer"),
         *((f"goldfish-{c}", f"goldfish:capacity={c}") for c in (0, 1, 2, 3, 4, 6, 8, 12, 16))]
"""The recovery field: twelve Memorandum bots, nine of them goldfish of different memories."""


def class_config(folder: Path, deals: int, schedule: str) -> Path:
    """A config of 30 cuckoo-simple bots at 8-seat Cuckoo, with the given [schedule] lines."""
    bots = "".join(f'\n[[bots]]\nspec = "cuckoo-simple"\nname = "c{i:02d}"\n' for i in range(30))
    path = folder / f"class-{len(schedule)}.toml"
    path.write_text(f'name = "class"\n[schedule]\n{schedule}\n[deals]\ncount = {deals}\n'
                    f'base = 1\n{bots}\n[[games]]\ngame = "cuckoo"\nplayers = 8\n'
                    f'variants = ["standard"]\n')
    return path


def field_config(folder: Path, name: str, players: int, deals: int, base: int,
                 schedule: str) -> TournamentConfig:
    """A config of the recovery field at Memorandum, with the given [schedule] lines."""
    bots = "".join(f'\n[[bots]]\nspec = "{spec}"\nname = "{bot}"\n' for bot, spec in FIELD)
    path = folder / f"{name}.toml"
    path.write_text(f'name = "{name}"\n[schedule]\n{schedule}\n[deals]\ncount = {deals}\n'
                    f'base = {base}\n{bots}\n[[games]]\ngame = "memorandum"\n'
                    f'players = {players}\nvariants = ["standard"]\n')
    return load_config(path)


def mus(ratings: Ratings) -> dict[str, float]:
    """Each bot's mu in a run's one pool."""
    (pool,) = ratings.pools
    return {row.bot: row.mu for row in pool.bots}


def kendall_tau(x: dict[str, float], y: dict[str, float]) -> float:
    """Kendall's tau-b between two scorings of the same bots."""
    concordant = discordant = tied_x = tied_y = 0
    for a, b in combinations(sorted(x), 2):
        dx, dy = x[a] - x[b], y[a] - y[b]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            tied_x += 1
        elif dy == 0:
            tied_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    n = concordant + discordant
    return (concordant - discordant) / ((n + tied_x) * (n + tied_y)) ** 0.5


def played(config: TournamentConfig, out: Path, workers: int) -> tuple[dict[str, float], int,
                                                                        float]:
    """Play a config; each bot's mu, the games and the seconds."""
    started = time.perf_counter()
    report = run_tournament(config, out, workers=workers)
    seconds = time.perf_counter() - started
    ratings = rate(RunDirectory(out).records(), {g.game: g.trueskill for g in config.games})
    return mus(ratings), report.played, seconds


def spread(values: list[float]) -> str:
    """Mean, standard deviation, min and max of replicate figures."""
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5 if len(values) > 1 \
        else 0.0
    return f"{mean:.3f} ± {sd:.3f} sd (min {min(values):.3f}, max {max(values):.3f})"


def recovery(folder: Path, players: int, deals: int, per_bot: list[int], replicates: int,
             workers: int) -> None:
    """Print how well sampled schedules recover a full round robin's order (Kendall tau)."""
    full, full_games, seconds = played(field_config(folder, "full", players, deals, 1, ""),
                                       folder / "full", workers)
    print(f"recovery field: {len(FIELD)} Memorandum bots at {players} seats; full round robin "
          f"on {deals} deals: {full_games:,} games in {seconds:.0f} s")
    order = sorted(full.items(), key=lambda bm: -bm[1])
    print("full round robin order (mu): " + ", ".join(f"{b} {m:.1f}" for b, m in order))
    again, games, _ = played(field_config(folder, "again", players, deals, 100_001, ""),
                             folder / "again", workers)
    tau = kendall_tau(full, again)
    print(f"a second full round robin on other deals ({games:,} games): tau {tau:.3f} "
          f"(the ceiling: the round robin against itself)")
    for n in per_bot:
        taus, counts = [], []
        for r in range(replicates):
            base = 1 + 1000 * (r + 1)  # other deals than the full run's, one set per replicate
            config = field_config(folder, f"s{n}-{r}", players, deals, base,
                                  f'format = "sampled"\ntables_per_bot = {n}')
            sampled, games, _ = played(config, folder / f"s{n}-{r}", workers)
            taus.append(kendall_tau(full, sampled))
            counts.append(games)
        print(f"sampled, tables_per_bot = {n}: {counts[0]:,} games "
              f"({counts[0] / full_games:.1%} of the round robin); tau over {replicates} deal "
              f"sets: {spread(taus)}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--tables-per-bot", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--part", choices=("class", "recovery", "all"), default="all")
    parser.add_argument("--recovery-players", type=int, default=4)
    parser.add_argument("--recovery-deals", type=int, default=4)
    parser.add_argument("--recovery-tables-per-bot", type=int, nargs="+", default=[4, 8, 16])
    parser.add_argument("--replicates", type=int, default=3)
    args = parser.parse_args()
    if args.part in ("recovery", "all"):
        with tempfile.TemporaryDirectory() as tmp:
            recovery(Path(tmp), args.recovery_players, args.recovery_deals,
                     args.recovery_tables_per_bot, args.replicates, args.workers)
    if args.part == "recovery":
        return
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
