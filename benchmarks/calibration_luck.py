"""Section 9 of bench_calibration.py: the verdicts with the luck adjustment on, on games really
played with their luck models (issue 42).

For each game with a luck model, a pool of deals is played for a pair of different bots, every
deal in both seat orders (`bench_luck.play_deal`), and one for two copies of one bot. Copies
of one bot are seeded by deal and seat, so on both seat orders of a deal they replay each
other's games (their edge is 0 on every deal, which tells nothing): the copies therefore play
each deal once, in a seat order drawn for the deal (seeded), so that each deal's difference
has mean 0 by symmetry. A pool is cut into disjoint runs of `deals` deals, each run rated as
`arena ratings` rates it (`rate`, the luck on), so that:

- **coverage of edges**: the share of runs of the different bots whose adjusted 95% interval
  holds the edge of the whole pool (the truth, up to its own small error; target 93-97%);
- **equal-bot false flags**: the share of runs of the copies whose adjusted edge is significant
  (the true edge is 0 by symmetry; target at most 5%);
- **A/A compare**: pairs of runs of the copies compared as `arena compare` does (Welch's t on
  the two adjusted edges): the spread of z = delta / sqrt(se_before² + se_after²) (target
  0.8-1.2) and the share flagged (target 5%);
- **duel false H1**: duels of the copies of at most `duel_pairs` pairs, a pair being two
  deals, the first bot first on one and second on the other (copies on one deal would mirror
  each other), played a chunk of 32 pairs at a time and tested as `arena duel` tests them with
  the luck on (`PairResults.test`: the normal GSPRT on the pair scores adjusted with a
  predictable coefficient, a look every 32 pairs) until a verdict: the share that accept H1
  (target at most 5%), and the mean games to a verdict.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_luck import Pair, advantage, play_deal

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


Played = tuple[list[dict[str, Any]], float, float | None]
"""A deal's records, its D_d and its L_d (None without luck)."""


def play_once(pair: Pair, seed: int) -> Played:
    """A deal played once by `pair`: the first bot first on even seeds, second on odd ones
    (`play_deal`'s seatings, one of the two)."""
    records, _, _ = play_deal(pair, seed, (seed % 2,))
    record = records[0]
    order = [0 if name == "A" else 1 for name in record["seats"]]
    sign = -1.0 if record.get("order") == "lower" else 1.0
    luck = record.get("luck")
    return (records, sign * advantage(record["scores"], order),
            None if luck is None else sign * advantage(luck, order))


def _played(pair: Pair, seeds: Sequence[int], workers: int, once: bool = False
            ) -> list[Played]:
    play = play_once if once else play_deal
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(play, [pair] * len(seeds), seeds, chunksize=4))
    return [play(pair, seed) for seed in seeds]


def _edge(records: Sequence[dict[str, Any]], luck: bool = True) -> HeadToHead:
    pool = rate(records, luck=luck).pools[0]
    return next(h for h in pool.crosstable if (h.bot, h.opponent) == ("A", "B"))


def _runs(played: list[Any], deals: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(played) - deals + 1, deals):
        yield [r for records, _, _ in played[start:start + deals] for r in records]


def _pair_results(played: list[Played]) -> PairResults:
    """A duel's PairResults from deals played once each, two consecutive deals a pair."""
    counts = [0] * 5
    scores, luck, margins = [], [], []
    for first, second in zip(played[::2], played[1::2], strict=True):
        records = [*first[0], *second[0]]
        d = (first[1] + second[1]) / 2
        found = (float(first[2] or 0.0) + float(second[2] or 0.0)) / 2
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
        different = _played(Pair(game, first, second, players, "far"),
                            range(1, deals * runs + 1), workers)
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
        equal = Pair(game, same, same, players, "equal")
        copies = _played(equal, range(1, 2 * deals * runs + 1), workers, once=True)
        edges = [_edge(run) for run in _runs(copies, deals)]
        flagged = sum(e.significant for e in edges)
        yield (f"   {game}, {same} vs its copy: edges flagged {_share(flagged, len(edges))}; "
               f"target <= 5%")
        zs, moved = [], 0
        for before, after in zip(edges[::2], edges[1::2], strict=False):
            se = [e.edge_ci95 / t_quantile(e.freedom) for e in (before, after)]
            test = welch_difference(after.edge, se[1], after.freedom, before.edge, se[0],
                                    before.freedom)
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
        games = []
        for duel in range(duels):
            base = 1_000_000 + duel * 2 * duel_pairs
            played: list[Played] = []
            while len(played) < 2 * duel_pairs:
                start = base + len(played)
                played += _played(equal, range(start, start + 2 * CHUNK_PAIRS), workers,
                                  once=True)
                state = _pair_results(played).test(settings)
                if state.verdict is not Verdict.INCONCLUSIVE:
                    break
            h1 += state.verdict is Verdict.H1
            games.append(state.games)
            tested += 1
        yield (f"   {game}, duels of the copies (at most {duel_pairs} pairs, adjusted test): "
               f"H1 {_share(h1, tested)}; target <= 5%; mean games to a verdict "
               f"{statistics.fmean(games):.0f}")
