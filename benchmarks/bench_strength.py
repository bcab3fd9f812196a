"""The strongest bot of each game against the previous best bundled bot and against random.

For each game: the mean score margin per deal of the strongest bot (its score less the mean of
the others'), with a 95% interval, on duplicate deals: every deal is played once per rotation of
the seats, and the margin of a deal is the mean over its rotations, so the luck of the cards
cancels out and deals are the independent units (interval: mean +- 1.96 standard errors over
deals, a normal approximation, which hundreds of deals make safe). Also the strongest bot's mean
time per decision.

    python benchmarks/bench_strength.py                 # every game, the default deals
    python benchmarks/bench_strength.py --deals 100 --games dig,old-mans-bundle --jobs 2

Concentration's rows come from benchmarks/strength_concentration.py (`concentration_rows()`)
where that module exists.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.api import Action, Bot, Observation
from arena.engine import ScoreOrder, find_game
from arena.loader import BotSpec, resolve_bot
from arena.record import GameRecord
from arena.session import play_series


@dataclass(frozen=True)
class Pairing:
    """One bot's rows: against the best bundled bot before it (none where the bot is that bot)
    and against random, on how many deals, at how many seats (the others all the opponent)."""

    bot: str
    best: str | None
    deals_best: int
    deals_random: int
    seats: int = 2


GAMES: dict[str, tuple[Pairing, ...]] = {
    "dig": (Pairing("dig-search", "dig-sharp", 400, 100), Pairing("search", "dig-sharp", 100, 0)),
    "old-mans-bundle": (Pairing("bundle-search", "bundle-sharp", 400, 100),
                        Pairing("search", "bundle-sharp", 60, 0)),
    "frogs-in-the-pond": (Pairing("frogs-search", "frogs-sharp", 200, 100),
                          Pairing("search", "frogs-sharp", 30, 0)),
    "paved-with-gold": (Pairing("paved-search", "prospector", 400, 50),
                        Pairing("assayer", "prospector", 2000, 200),
                        Pairing("search", "prospector", 12, 6)),
    "animals": (Pairing("search", "animals-sharp", 60, 20, seats=3),),
    "cuckoo": (Pairing("search", "cuckoo-sharp", 60, 20, seats=6),),
    "memorandum": (Pairing("search", "chancer", 30, 10, seats=3),),
    "cribbage-square": (Pairing("square-pimc", "square-search", 400, 100),
                        Pairing("search", "square-search", 20, 10)),
}
"""Each game's bots measured: its strongest first, against the best bundled bot before it (none
where the strongest is that bot), then its other strong bots (in Paved with Gold `assayer`,
the memory `paved-search` searches on) and `search` where another bot is stronger. Fewer deals
where a game is slow (a game of Frogs is many deals to 100 points; Cuckoo seats six) or the
edge is large (against random; 0: not measured); a whole run takes about an hour and a half on
a quiet two-core machine with `--jobs 2`, and `--games` picks games (Concentration's rows:
`concentration`)."""


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    game: str
    bot: str
    opponent: str
    deals: int
    margin: float
    ci95: float
    ms_per_decision: float
    note: str = ""


class Timed:
    """Makes bots of a spec whose decisions are timed together."""

    def __init__(self, spec: BotSpec) -> None:
        """Time every bot made from `spec`."""
        self.spec = spec
        self.seconds = 0.0
        self.decisions = 0

    def make(self) -> Bot:
        """A bot whose `act` adds its time to the tally."""
        bot = self.spec.make()
        inner: Callable[[Observation[Any]], Action] = bot.act

        def act(obs: Observation[Any]) -> Action:
            start = time.perf_counter()
            try:
                return inner(obs)
            finally:
                self.seconds += time.perf_counter() - start
                self.decisions += 1

        bot.act = act  # type: ignore[method-assign]
        return bot

    @property
    def name(self) -> str:
        """The spec's display name."""
        return self.spec.name


def entry_margin(record: GameRecord, seat: int) -> float:
    """The seat's score less the mean of the others' (negated where lower wins)."""
    scores = record.scores
    value = scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)
    return -value if record.order is ScoreOrder.LOWER_WINS else value


def _margins(task: tuple[str, str, str, int, int, int]) -> tuple[list[float], float, int]:
    """One chunk of deals: the margin of each deal, and the bot's decision time and count."""
    game, bot, opponent, seed, deals, seats = task
    variant = find_game(game).variant()
    timed = Timed(resolve_bot(bot, game))
    other = resolve_bot(opponent, game)
    field = [timed, *[other] * (seats - 1)]
    per_deal: dict[int, list[float]] = {}
    for played in play_series(variant, field, seed, deals,  # type: ignore[arg-type]
                              rotate=True):
        per_deal.setdefault(played.record.seed, []).append(
            entry_margin(played.record, played.entries.index(0)))
    return [statistics.fmean(v) for v in per_deal.values()], timed.seconds, timed.decisions


def duel(game: str, bot: str, opponent: str, deals: int, seed: int = 1, jobs: int = 1,
         note: str = "", seats: int = 2) -> Row:
    """`bot` against `opponent` (in every other seat) in duplicate deals: the margin per deal
    (deals split among `jobs` processes; the figures do not depend on how)."""
    chunk = max(1, math.ceil(deals / (4 * jobs)))
    tasks = [(game, bot, opponent, start, min(chunk, seed + deals - start), seats)
             for start in range(seed, seed + deals, chunk)]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_margins, tasks)
    else:
        parts = [_margins(t) for t in tasks]
    margins = [m for part in parts for m in part[0]]
    seconds = sum(p[1] for p in parts)
    decisions = sum(p[2] for p in parts)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else 0
    return Row(game, bot, opponent, len(margins), mean, half, 1000 * seconds / max(1, decisions),
               note)


def rows(games: Sequence[str], deals: int | None, jobs: int = 1,
         done: Callable[[Row], None] | None = None) -> list[Row]:
    """Every game's rows: each bot against the previous best, and against random (each passed
    to `done` as soon as it is measured)."""
    out = []
    for game in games:
        for pairing in GAMES[game]:
            n_best, n_random = ((deals, deals) if deals
                                else (pairing.deals_best, pairing.deals_random))
            for opponent, n in ((pairing.best, n_best), ("random", n_random)):
                if opponent is None or not n:
                    continue
                note = "" if n >= 400 else "fewer than 400 deals, to keep the run short"
                if pairing.seats != 2:
                    note = "; ".join(filter(None, [f"{pairing.seats} seats", note]))
                out.append(duel(game, pairing.bot, opponent, n, jobs=jobs, note=note,
                                seats=pairing.seats))
                if done is not None:
                    done(out[-1])
    return out


def table(found: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| game | bot | opponent | deals | margin per deal (95%) | ms/decision | note |",
             "|---|---|---|---|---|---|---|"]
    for r in found:
        lines.append(f"| {r.game} | {r.bot} | {r.opponent} | {r.deals} | "
                     f"{r.margin:+.2f} ± {r.ci95:.2f} | {r.ms_per_decision:.1f} | {r.note} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=None,
                        help="deals per pairing (default: each game's own, 400 where time allows)")
    parser.add_argument("--games", default=",".join([*GAMES, "concentration"]),
                        help="comma-separated games")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the deals")
    args = parser.parse_args(argv)
    chosen = [g for g in args.games.split(",") if g]
    started = time.perf_counter()
    print("Mean margin per deal (the bot's score less the mean of the others'), duplicate deals "
          "with seats rotated, 95% interval (normal, over deals); ms per decision of the bot.")
    header = table([]).splitlines()
    print("\n".join(header), flush=True)
    rows([g for g in chosen if g in GAMES], args.deals, args.jobs,
         lambda row: print(table([row]).splitlines()[-1], flush=True))
    if "concentration" in chosen:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import strength_concentration as concentration  # beside this file

        print()
        print(concentration.HEADER, flush=True)
        found = (concentration.concentration_rows(args.deals) if args.deals
                 else concentration.concentration_rows())
        for row in found:
            print(row.line(), flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
