"""Train the learned line values of Cribbage Square (`bots/cribbage_square/square_values.json`)
by self-play.

Each iteration plays `--games` deals of the `standard` preset (seeds fixed: iteration i plays
seeds i * 1,000,000 + 1 ...) with the greedy policy on the current table, its residuals taken
at `--weight` as `square-expert` takes them (the first iteration on no table: random-fill
values only). After every deal, for each of the eight final lines and each stage s (cards
down, 1 to 15), it records the line's final value (its exact average over the starter, which
has the same expectation as its score and less noise) minus its random-fill value at stage s,
under the line's abstract state then (`bots.cribbage_square.values.abstract`) and its coarse state.
The new table is the mean residual of each state, shrunk towards its coarse state's mean
(`--shrink` pseudo-observations): Monte Carlo evaluation of the current policy, then the next
iteration plays by it (policy iteration). Reproducible: same arguments, same table.

    python benchmarks/train_cribbage_square.py [--iterations 3] [--games 10000] [--workers 2]
        [--weight 0.5] [--shrink 40] [--out bots/cribbage_square/square_values.json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.games.cribbage_square.placement import legal_positions, span
from arena.games.cribbage_square.scoring import SIDE, hand_points
from arena.games.cribbage_square.variants import Placement
from bots.cribbage_square.heuristic import EMPTY, PACK, Layout, LineValues
from bots.cribbage_square.values import STAGES, LearnedValues, Residuals, abstract, coarse

Sums = dict[tuple[int, str], list[float]]
"""(stage, state) -> [sum of residuals, count]."""

OUT = Path(__file__).resolve().parent.parent / "bots" / "cribbage_square" / "square_values.json"


def play_deal(seed: int, table: Residuals, fine: Sums, back: Sums) -> int:
    """Play one deal greedily on `table`, add its residuals to the sums; its total score."""
    pack = list(PACK)
    random.Random(seed).shuffle(pack)
    layout = Layout(())
    layout.lay((0, 0), pack[0])
    cells = {(0, 0): pack[0]}
    unseen = set(pack[1:])
    snaps = [(dict(layout.rows), dict(layout.cols), LineValues(unseen, deep=True))]
    for i in range(1, STAGES):
        card = pack[i]
        unseen.discard(card)
        base = LineValues(unseen, deep=True)
        values = LearnedValues(base, i + 1, table)
        legal = legal_positions(layout.occupied, Placement.ADJACENT)
        gains = layout.gains(card, legal, values)  # type: ignore[arg-type]
        place = max(legal, key=gains.__getitem__)
        layout.lay(place, card)
        cells[place] = card
        snaps.append((dict(layout.rows), dict(layout.cols), base))
    starter = pack[STAGES]
    top, left, _, _ = span(cells)
    total = 0
    for axis in (0, 1):
        for n in range(SIDE):
            if axis == 0:
                index, line = top + n, [cells[(top + n, left + c)] for c in range(SIDE)]
            else:
                index, line = left + n, [cells[(top + r, left + n)] for r in range(SIDE)]
            total += hand_points(line, starter)
            # the full line's average over the starter: its score less the starter's noise
            final = snaps[-1][2].value(snaps[-1][axis][index])
            for stage, snap in enumerate(snaps[:-1], start=1):
                key = snap[axis].get(index, EMPTY)
                residual = final - snap[2].value(key)
                for sums, state in ((fine, abstract(key)), (back, coarse(key))):
                    acc = sums[(stage, state)]
                    acc[0] += residual
                    acc[1] += 1
    return total


def play_many(seeds: list[int], table_json: dict) -> tuple[Sums, Sums, list[int]]:
    """Play these deals on a table (its JSON form); the residual sums and the scores."""
    table = Residuals.from_json(table_json)
    fine: Sums = defaultdict(lambda: [0.0, 0])
    back: Sums = defaultdict(lambda: [0.0, 0])
    scores = [play_deal(seed, table, fine, back) for seed in seeds]
    return dict(fine), dict(back), scores


def fit(fine: Sums, back: Sums, shrink: float, least: int, weight: float) -> Residuals:
    """The table of mean residuals, each state shrunk towards its coarse state."""
    table = Residuals.zero()
    table.weight = weight
    for (stage, state), (total, count) in sorted(back.items()):
        if int(state[0]) < SIDE:  # a full line has no residual
            table.back[stage][state] = round(total / count, 3)
    for (stage, state), (total, count) in sorted(fine.items()):
        if count < least or len(state) > SIDE:
            continue
        prior = table.back[stage].get(f"{len(state) - 1}{state[-1]}", 0.0)
        table.fine[stage][state] = round((total + shrink * prior) / (count + shrink), 2)
    return table


def main() -> None:
    """Run the iterations and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--games", type=int, default=10000, help="deals per iteration")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shrink", type=float, default=40.0)
    parser.add_argument("--weight", type=float, default=0.5,
                        help="how much of the residuals the policy (and the bot) uses")
    parser.add_argument("--least", type=int, default=5, help="fewest visits to keep a state")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    table = Residuals.zero()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for iteration in range(args.iterations):
            seeds = list(range(iteration * 1_000_000 + 1, iteration * 1_000_000 + 1 + args.games))
            chunks = [seeds[i::args.workers] for i in range(args.workers)]
            fine: Sums = defaultdict(lambda: [0.0, 0])
            back: Sums = defaultdict(lambda: [0.0, 0])
            scores: list[int] = []
            for part_fine, part_back, part_scores in pool.map(
                    play_many, chunks, [table.to_json()] * len(chunks)):
                for sums, part in ((fine, part_fine), (back, part_back)):
                    for state, (total, count) in part.items():
                        sums[state][0] += total
                        sums[state][1] += count
                scores += part_scores
            table = fit(fine, back, args.shrink, args.least, args.weight)
            kept = sum(len(d) for d in table.fine)
            print(f"iteration {iteration + 1}: {args.games} deals, mean score "
                  f"{sum(scores) / len(scores):.2f} (playing by the previous table), "
                  f"{kept} states kept, {time.perf_counter() - started:.0f} s so far")
    text = json.dumps(table.to_json(), separators=(",", ":"), sort_keys=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(text) / 1000:.0f} kB) in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
