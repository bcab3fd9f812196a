"""Sequential duels: games to H1 against a fixed 2,000-game match, and the false-positive rate.

    python benchmarks/bench_duel.py [--seeds 20]
"""

from __future__ import annotations

import argparse
import tempfile
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
    args = parser.parse_args()
    settings = SprtSettings(0, 20)
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


if __name__ == "__main__":
    main()
