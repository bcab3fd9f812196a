"""Sequential duels: games to H1 against a fixed 2,000-game match, and the false-positive rate;
with `--luck`, games to a verdict with and without the luck adjustment on the same seeds.

    python benchmarks/bench_duel.py [--seeds 20]
    python benchmarks/bench_duel.py --luck [--seeds 20] [--pair A B] [--game concentration]

With `--luck`, each seed's duel between two close bots is run with the adjustment on (the
normal GSPRT on pair scores adjusted for luck), then with it off (the pentanomial test) in the
same run directory: the same deals, the same games, only the test differs. The mean games to
a verdict and the verdicts are printed for both. (Copies of one bot replay each other's games
on a deal's two seat orders, so their duels say nothing of the false H1 rate with the luck on:
bench_calibration.py --only luck measures it on pairs of deals.)
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from arena.ratings.sprt import SprtSettings, Verdict, sprt
from arena.tournament.duel import duel_config, pair_counts, run_duel


def main() -> None:
    """Print the duel figures of issue 19."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--same", default="forgetful",
                        help="the bot that meets its twin for the false-positive rate: one that "
                             "plays with chance (greedy is deterministic: every pair is a 1-1 "
                             "split, which never reaches H1)")
    parser.add_argument("--luck", action="store_true",
                        help="games to a verdict with and without the luck adjustment")
    parser.add_argument("--game", default="concentration")
    parser.add_argument("--pair", nargs=2, metavar=("A", "B"),
                        default=["forgetful:recall=0.9,capacity=0",
                                 "forgetful:recall=0.8,capacity=0"])
    parser.add_argument("--max-games", type=int, default=4000)
    args = parser.parse_args()
    settings = SprtSettings(0, 20)
    if args.luck:
        luck_figures(args, settings)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for variant in ("standard", "one-flip"):
            out = Path(tmp) / f"duel-{variant}"
            report = run_duel(duel_config("optimal", "greedy", "concentration", variant, 2000),
                              settings, out, args.workers)
            fixed = Path(tmp) / f"fixed-{variant}"
            run_duel(duel_config("optimal", "greedy", "concentration", variant, 2000),
                     SprtSettings(0, 20, 1e-12, 1e-12), fixed, args.workers)
            match = sprt(pair_counts(fixed, 1000, "optimal", "greedy"), settings)
            print(f"optimal vs greedy, {variant}: duel {report.state.verdict.value} after "
                  f"{report.state.games} games ({report.state.elo.elo:+.1f} Elo); fixed 2,000 "
                  f"games: {match.verdict.value}, {match.elo.elo:+.1f} Elo "
                  f"[{match.elo.low:+.1f}, {match.elo.high:+.1f}]")
        false = 0
        for seed in range(args.seeds):
            out = Path(tmp) / f"same-{seed}"
            state = run_duel(duel_config(args.same, args.same, "concentration", "standard", 2000,
                                         seed * 100_003 + 1), settings, out, args.workers).state
            false += state.verdict is Verdict.H1
        print(f"{args.same} vs {args.same}: H1 in {false} of {args.seeds} duels "
              f"(false-positive rate {false / args.seeds:.2f}, alpha {settings.alpha})")


def luck_figures(args: argparse.Namespace, settings: SprtSettings) -> None:
    """Games to a verdict with and without the adjustment, the same seeds, for the close pair."""
    first, second = args.pair
    for a, b, what in ((first, second, "close pair"),):
        games: dict[bool, list[int]] = {True: [], False: []}
        verdicts: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
        model = None
        with tempfile.TemporaryDirectory() as tmp:
            for seed in range(args.seeds):
                out = Path(tmp) / f"{seed}"
                config = duel_config(a, b, args.game, "standard", args.max_games,
                                     seed * 100_003 + 1)
                for lucky in (True, False):
                    report = run_duel(config, settings, out, args.workers, luck=lucky)
                    games[lucky].append(report.state.games)
                    verdicts[lucky][report.state.verdict.value] += 1
                    model = model or report.luck_model
        print(f"{args.game} {what}: {a} vs {b}, {args.seeds} seeds, at most {args.max_games} "
              f"games, elo0 {settings.elo0:g}, elo1 {settings.elo1:g}")
        if model is None:
            print("  the games carry no luck: both runs are the raw test")
        for lucky in (True, False):
            mean = statistics.fmean(games[lucky])
            spread = statistics.stdev(games[lucky]) / math.sqrt(len(games[lucky]))
            name = f"adjusted ({model})" if lucky else "raw (pentanomial)"
            counts = ", ".join(f"{v} {n}" for v, n in sorted(verdicts[lucky].items()))
            print(f"  {name:40} mean games to a verdict {mean:7.1f} ± {spread:5.1f}; {counts}")
        ratio = statistics.fmean(games[True]) / statistics.fmean(games[False])
        print(f"  ratio of mean games (adjusted / raw): {ratio:.2f}")


if __name__ == "__main__":
    main()
