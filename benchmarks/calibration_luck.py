"""Section 9 of bench_calibration.py: the verdicts with the luck adjustment on, on games really
played with their luck models (issue 42).

For each game with a luck model, a pool of deals is played once for a pair of different bots
and once for two copies of one bot (each copy's chance seeded by its seat: they do not mirror
each other), every deal in both seat orders (`bench_luck.play_deal`). The pool is then cut into
disjoint runs of `deals` deals, each run rated as `arena ratings` rates it (`rate`, the luck
on), so that:

- **coverage of edges**: the share of runs of the different bots whose adjusted 95% interval
  holds the edge of the whole pool (the truth, up to its own small error; target 93-97%);
- **equal-bot false flags**: the share of runs of the copies whose adjusted edge is significant
  (the true edge is 0 by symmetry; target at most 5%);
- **A/A compare**: pairs of runs of the copies compared as `arena compare` does (Welch's t on
  the two adjusted edges): the spread of z = delta / sqrt(se_before² + se_after²) (target
  0.8-1.2) and the share flagged (target 5%);
- **duel false H1**: the copies' pool cut into duels of at most `duel_pairs` deal pairs, each
  tested as `arena duel` tests it with the luck on (`PairResults.test`: the normal GSPRT on
  the pair scores adjusted with a predictable coefficient, a look every 32 pairs): the share
  that accept H1 (target at most 5%).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_luck import Pair, play_deal

from arena.ratings.sprt import SprtSettings, Verdict, pair_cell
from arena.ratings.tables import HeadToHead, rate
from arena.ratings.verdicts import t_quantile, welch_difference
from arena.tournament.duel import CHUNK_PAIRS, PairResults

GAMES = (
    ("concentration", "forgetful:recall=1.0,capacity=0", "forgetful:recall=0.9,capacity=0",
     "forgetful:recall=0.9,capacity=0", 2),
    ("dig", "dig-sharp", "dig-simple", "dig-sharp", 2),
    ("cuckoo", "cuckoo-sharp", "cuckoo-simple", "cuckoo-sharp", 6),
)
"""Per game: the different bots, the bot whose copies meet, the seats."""


def _played(pair: Pair, deals: int, workers: int
            ) -> list[tuple[list[dict[str, Any]], float, float | None]]:
    seeds = list(range(1, deals + 1))
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(play_deal, [pair] * deals, seeds, chunksize=4))
    return [play_deal(pair, seed) for seed in seeds]


def _edge(records: Sequence[dict[str, Any]], luck: bool = True) -> HeadToHead:
    pool = rate(records, luck=luck).pools[0]
    return next(h for h in pool.crosstable if (h.bot, h.opponent) == ("A", "B"))


def _runs(played: list[Any], deals: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(played) - deals + 1, deals):
        yield [r for records, _, _ in played[start:start + deals] for r in records]


def _pair_results(played: list[Any]) -> PairResults:
    """A duel's PairResults from deals played by bench_luck (A in the first seat first)."""
    counts = [0] * 5
    scores, luck, margins = [], [], []
    for records, d, found in played:
        results = []
        for record in records:
            seats, ranks = record["seats"], record["ranks"]
            a, b = seats.index("A"), seats.index("B")
            results.append(1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0)
        counts[pair_cell(results[0], results[1])] += 1
        scores.append(sum(results) / 2)
        luck.append(2 * float(found))
        margins.append(2 * d)
    five = (counts[0], counts[1], counts[2], counts[3], counts[4])
    model = str(played[0][0][0]["luck_model"])
    return PairResults(five, tuple(margins), 0, tuple(scores), tuple(luck), model)


def _share(hits: int, n: int) -> str:
    p = hits / n if n else 0.0
    return f"{100 * p:.1f} ± {100 * (p * (1 - p) / n) ** 0.5 if n else 0:.1f}% (of {n})"


def luck_figures(deals: int, runs: int, duel_pairs: int, duels: int, workers: int,
                 games: Sequence[str] | None = None) -> Iterator[str]:
    """Lines of section 9."""
    yield (f"9. verdicts with the luck adjustment on (real games, {deals} deals a run, both seat "
           f"orders each)")
    settings = SprtSettings(0, 20)
    for game, first, second, same, players in GAMES:
        if games and game not in games:
            continue
        different = _played(Pair(game, first, second, players, "far"), deals * runs, workers)
        if any(luck is None for _, _, luck in different):
            yield f"   {game}: its games carry no luck (no luck model): nothing to calibrate"
            continue
        model = different[0][0][0].get("luck_model")
        whole = _edge([r for records, _, _ in different for r in records])
        covered = n = 0
        for run in _runs(different, deals):
            found = _edge(run)
            covered += abs(found.edge - whole.edge) <= found.edge_ci95
            n += 1
        yield (f"   {game} ({model}), {first} vs {second}: coverage of the edge "
               f"{whole.edge:+.3f} (the whole pool's, ± {whole.edge_ci95:.3f}) "
               f"{_share(covered, n)}; target 93-97%")
        copies = _played(Pair(game, same, same, players, "equal"),
                         max(deals * runs, duel_pairs * duels), workers)
        edges = [_edge(run) for run in _runs(copies, deals)]
        flagged = sum(e.significant for e in edges)
        yield (f"   {game}, {same} vs its copy: edges flagged {_share(flagged, len(edges))}; "
               f"target <= 5%")
        zs, moved = [], 0
        for before, after in zip(edges[::2], edges[1::2], strict=False):
            se = [e.edge_ci95 / t_quantile(e.deals - 1) for e in (before, after)]
            test = welch_difference(after.edge, se[1], after.deals - 1, before.edge, se[0],
                                    before.deals - 1)
            if test is None:
                continue
            zs.append(test.delta / test.se)
            moved += test.significant
        spread = statistics.stdev(zs) if len(zs) > 1 else float("nan")
        yield (f"   {game}, A/A compare of the copies' runs: z spread {spread:.2f} (target "
               f"0.8-1.2), flagged {_share(moved, len(zs))}")
        if players > 2:
            yield (f"   {game}: duels at {players} seats seat A and B with a fill "
                   f"(bench_duel.py --luck --game {game}); not simulated here")
            continue
        h1 = tested = 0
        for start in range(0, len(copies) - duel_pairs + 1, duel_pairs):
            segment = copies[start:start + duel_pairs]
            for looks in range(CHUNK_PAIRS, duel_pairs + 1, CHUNK_PAIRS):
                state = _pair_results(segment[:looks]).test(settings)
                if state.verdict is not Verdict.INCONCLUSIVE:
                    break
            h1 += state.verdict is Verdict.H1
            tested += 1
        yield (f"   {game}, duels of the copies (at most {duel_pairs} pairs, adjusted test): "
               f"H1 {_share(h1, tested)}; target <= 5%")
