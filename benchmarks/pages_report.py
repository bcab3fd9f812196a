"""What a report page costs for a big run: `arena report RUN --html` on a 10,000-game run, its
build time by part (ratings, progression, the bots' games and faults, the HTML) and the page's
size, beside the PNG report (`arena report RUN`) of the same run for scale.

The run is real, then grown: a small tournament of bundled bots is played (with a bot that
faults now and then), and its records are copied onto new deals (seeds shifted, tasks
renumbered) until the run holds the games asked for. Asserts nothing.

    python benchmarks/pages_report.py [--games 10000] [--png]

`report_rows()` gives the same figures as rows, for benchmarks/bench_pages.py.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

FAULTY = '''
from arena.api import Bot


class Sometimes(Bot):
    """Plays the first legal move, and raises on every 40th decision."""

    def start(self, info):
        self.calls = 0

    def act(self, obs):
        self.calls += 1
        if self.calls % 40 == 0:
            raise RuntimeError("gave up")
        return obs.legal[0]
'''

CONFIG = """
name = "bench-pages"
[deals]
count = 10
base = 1
[[bots]]
spec = "greedy"
[[bots]]
spec = "optimal"
[[bots]]
spec = "random"
[[bots]]
spec = "forgetful:recall=0.5"
name = "forgetful-half"
[[bots]]
spec = "forgetful:recall=0.9"
name = "forgetful-most"
[[bots]]
spec = "sometimes.py:Sometimes"
name = "sometimes"
isolation = "none"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def make_run(folder: Path, games: int) -> Path:
    """A real small run in `folder/run`, its records copied onto new deals up to `games`."""
    from arena.tournament.planning.config import parse_config
    from arena.tournament.records.results import GAMES
    from arena.tournament.run import run_tournament

    (folder / "sometimes.py").write_text(FAULTY)
    run = folder / "run"
    run_tournament(parse_config(CONFIG, folder / "bench.toml"), run, workers=1)
    lines = (run / GAMES).read_text().splitlines()
    records = [json.loads(line) for line in lines]
    out = []
    copy = 0
    while len(out) < games:
        for record in records:
            if len(out) == games:
                break
            out.append(record | {"task": len(out), "seed": record["seed"] + 1_000_003 * copy})
        copy += 1
    (run / GAMES).write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in out))
    return run


def report_rows(games: int = 10_000, png: bool = False) -> list[dict[str, Any]]:
    """The figures, one row per measure: what, games, seconds, bytes (None where it has none)."""
    from arena.ratings.plots import rating_progression
    from arena.ratings.tables import rate
    from arena.tournament.rating import write_report
    from arena.tournament.records.results import RunDirectory
    from arena.viewer.report_page import report_html
    from arena.viewer.report_run import REPLAYS, run_bots, run_page, write_run_page

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as temporary:
        run = make_run(Path(temporary), games)

        def timed(what: str, work: Any) -> Any:
            started = time.perf_counter()
            result = work()
            rows.append({"what": what, "games": games,
                         "seconds": time.perf_counter() - started, "bytes": None})
            return result

        records = timed("read the records", lambda: list(RunDirectory(run).records()))
        ratings = timed("ratings (the table)", lambda: rate(records))
        timed("progression (the table at 12 points)", lambda: rating_progression(records))
        timed("bots' worst games, faults, output", lambda: run_bots(run, ratings, records,
                                                                    REPLAYS, run / REPLAYS))
        page, _ = run_page(run)
        text = timed("HTML from the page's data", lambda: report_html(page))
        rows[-1]["bytes"] = len(text.encode())
        written = timed("arena report RUN --html, all told", lambda: write_run_page(run))
        rows[-1]["bytes"] = written.page.stat().st_size
        if png:
            files = timed("arena report RUN (PNG plots and report.md), for scale",
                          lambda: write_report(run))
            rows[-1]["bytes"] = sum(p.stat().st_size for p in files)
    return rows


def main() -> None:
    """Build the page of a big run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--png", action="store_true", help="time the PNG report too")
    args = parser.parse_args()
    rows = report_rows(args.games, args.png)
    print(f"report page of a {args.games:,}-game run (6 bots, 2-player Concentration)")
    for row in rows:
        size = "" if row["bytes"] is None else f"{row['bytes'] / 1024:9,.1f} KB"
        print(f"  {row['what']:<55} {row['seconds']:7.2f} s {size}")


if __name__ == "__main__":
    main()
