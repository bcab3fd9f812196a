"""Rating cost: today's one-pass TrueSkill fold against the order-free posterior (EP).

Builds a synthetic league (bots with known skills, Thurstone performances, draws) as matches,
then rates it both ways, side by side in this run, each measurement in its own forked child:
seconds of rating and the child's peak resident memory (getrusage RUSAGE_SELF ru_maxrss, read
in the child; it includes the matches, built in the child too, whose own peak is shown as
"matches only"). Prints the figures and the ratios; asserts nothing.

    python benchmarks/bench_ratings.py [--sizes 2x100000,2x1000000,6x100000] [--bots 60]
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

import numpy as np

from arena.ratings.fold import fold
from arena.ratings.pools import Match
from arena.ratings.posterior import posterior
from arena.ratings.settings import TrueSkillSettings

SETTINGS = TrueSkillSettings()
CHUNK = 20_000


def league(seats: int, games: int, bots: int, seed: int = 1) -> list[Match]:
    """`games` random tables of `seats` among `bots` with skills N(25, 8^2); performance =
    skill + N(0, beta^2), rounded to 1.5 points so that close games draw (tuples shared, as
    `rating_pools` shares them)."""
    rng = np.random.default_rng(seed)
    skills = rng.normal(25.0, 8.0, bots)
    names = [f"bot{i:03d}" for i in range(bots)]
    shared: dict[tuple[object, ...], tuple[object, ...]] = {}
    units = tuple(range(seats))
    faults = (0,) * seats
    out = []
    for first in range(0, games, CHUNK):  # in chunks: a (games, bots) array would be large
        size = min(CHUNK, games - first)
        seatings = np.argsort(rng.random((size, bots)), axis=1)[:, :seats]
        perfs = np.round((skills[seatings] + rng.normal(0, SETTINGS.beta, seatings.shape)) / 1.5)
        ranks = 1 + (perfs[:, None, :] > perfs[:, :, None]).sum(axis=2)
        for row in range(size):
            bots_t = tuple(names[i] for i in seatings[row])
            ranks_t = tuple(int(r) for r in ranks[row])
            scores_t = tuple(float(p) for p in perfs[row])
            out.append(Match(first + row, shared.setdefault(bots_t, bots_t),  # type: ignore[arg-type]
                             shared.setdefault(scores_t, scores_t),  # type: ignore[arg-type]
                             shared.setdefault(ranks_t, ranks_t),  # type: ignore[arg-type]
                             units, faults, 1))
    return out


def one_pass(matches: list[Match]) -> None:
    """The one-pass fold the ratings table made before the posterior: one TrueSkill update per
    match, in order."""
    fold(matches, SETTINGS)


def by_posterior(matches: list[Match]) -> str:
    """The posterior of all matches at once; its sweep count and convergence, as text."""
    got = posterior(matches, SETTINGS)
    return f"{got.sweeps} sweeps, {'converged' if got.converged else 'NOT converged'}"


def _child(pipe: Connection, method: str, seats: int, games: int, bots: int) -> None:
    matches = league(seats, games, bots)
    start = time.perf_counter()
    note = ""
    if method == "one-pass":
        one_pass(matches)
    elif method == "posterior":
        note = by_posterior(matches)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux -> MB
    pipe.send((seconds, peak, note))


def measure(method: str, seats: int, games: int, bots: int) -> tuple[float, float, str]:
    """(seconds, peak MB, note) of one method in a fresh forked child."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, method, seats, games, bots))
    child.start()
    result: tuple[float, float, str] = receive.recv()
    child.join()
    return result


def main() -> None:
    """Measure every size, both methods, and print them side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2x100000,6x100000,2x1000000",
                        help="comma-separated SEATSxGAMES")
    parser.add_argument("--bots", type=int, default=60)
    args = parser.parse_args()
    report: Callable[[str], None] = print
    report(f"league of {args.bots} bots, skills N(25, 8^2), beta {SETTINGS.beta:.3f}, "
           "performances rounded to 1.5 (draws)")
    for size in args.sizes.split(","):
        seats, games = (int(part) for part in size.lower().split("x"))
        _, base, _ = measure("none", seats, games, args.bots)
        fold_s, fold_mb, _ = measure("one-pass", seats, games, args.bots)
        ep_s, ep_mb, note = measure("posterior", seats, games, args.bots)
        report(f"{seats}-player, {games} matches (matches only: peak {base:.0f} MB)")
        report(f"  one-pass fold: {fold_s:8.1f} s  peak {fold_mb:6.0f} MB")
        report(f"  posterior EP : {ep_s:8.1f} s  peak {ep_mb:6.0f} MB  ({note})")
        report(f"  ratio        : {ep_s / fold_s:8.2f}x time (target: at most 3x)")


if __name__ == "__main__":
    main()
