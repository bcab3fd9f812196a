"""What the browser pages cost: the size of a replay page (the viewer included) for every game,
and the time to build it, measured beside playing the same game without a page.

Budget: a replay page of a standard Concentration game stays under 300 KB with the viewer
included, even between random bots (the longest games); the viewer itself (JS and CSS) is
counted in every page. For each game's default preset, games are played on `--games` seeds
between the game's bundled bots (`--level`, or `random`), and the page built for each; printed
are the steps, the page size (median and largest), the time to play alone and to play and build
the page (best of `--repeats`, side by side), and the budget's verdict for Concentration.
The budget of every page, under 1 MB, is checked on the heaviest case: two decks with jokers
between random bots. Then the live table (`arena play --web`): a whole game of each game with a
person's seat answered by a WebSocket client at random against a bundled bot, the bots' pace
0; for each of the person's moves, the time from sending it until the server's next message
(the game applied the move and the page is shown the step): median and 99th percentile.
The report page's figures follow, where that benchmark is present (`pages_report.py`).
Asserts nothing.

    python benchmarks/bench_pages.py [--games 5] [--level hard|random] [--repeats 3]
                                     [--report-games 10000] [--table-games 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from arena.engine import all_games, find_game
from arena.levels import level_spec, table_size
from arena.loader import resolve_bot
from arena.match import play_game
from arena.viewer.page import asset
from arena.viewer.replay_page import played_page

BUDGET_KB = 300
"""A standard Concentration game's replay page, viewer included, stays under this many KB."""


def _best(run: Callable[[], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def measure(game: str, preset: str | None, level: str, games: int,
            repeats: int) -> dict[str, Any]:
    """Steps, page sizes and times of a game's pages over `games` seeds."""
    variant = find_game(game).variant(preset, {})
    seats = table_size(variant, 0)
    spec = "random" if level == "random" else level_spec(game, level)
    names = [f"{spec}-{s}" for s in range(seats)]

    def bots() -> list[Any]:
        return [resolve_bot(spec, game).make() for _ in range(seats)]

    sizes, steps, bare, paged = [], [], 0.0, 0.0
    for seed in range(games):
        page, _ = played_page(variant, bots(), names, seed)
        sizes.append(len(page.html.encode("utf-8")))
        steps.append(page.steps)
        bare += _best(lambda s=seed: play_game(variant, bots(), names, s), repeats)
        paged += _best(lambda s=seed: played_page(variant, bots(), names, s), repeats)
    return {"game": game, "preset": variant.label, "steps": statistics.median(steps),
            "median_kb": statistics.median(sizes) / 1024, "max_kb": max(sizes) / 1024,
            "play_ms": 1000 * bare / games, "page_ms": 1000 * paged / games}


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--table-games", type=int, default=1,
                        help="games of each game at the live table whose answers are timed")
    parser.add_argument("--report-games", type=int, default=10_000,
                        help="games of the run whose report page is measured (0: none)")
    args = parser.parse_args()
    viewer = len(asset("replay.js").encode()) + len(asset("replay.css").encode())
    print(f"viewer (replay.js + replay.css, inlined in every page): {viewer / 1024:.1f} KB")
    print(f"bots: {args.level}; {args.games} games per row; times: best of {args.repeats}")
    header = (f"{'game':<20} {'preset':<12} {'steps':>6} {'median KB':>10} {'max KB':>8} "
              f"{'play ms':>8} {'+page ms':>9} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    rows = [measure(g.name, None, args.level, args.games, args.repeats) for g in all_games()]
    rows += [measure("concentration", "two-decks", args.level, args.games, args.repeats)]
    for r in rows:
        print(f"{r['game']:<20} {r['preset']:<12} {r['steps']:>6.0f} {r['median_kb']:>10.1f} "
              f"{r['max_kb']:>8.1f} {r['play_ms']:>8.1f} {r['page_ms']:>9.1f} "
              f"{r['page_ms'] / max(r['play_ms'], 1e-9):>6.1f}")
    worst = measure("concentration", None, "random", args.games, 1)
    print(f"\nbudget: a standard Concentration page under {BUDGET_KB} KB, viewer included")
    for label, r in (("bots " + args.level, rows[[x["game"] for x in rows].index(
            "concentration")]), ("random bots (longest games)", worst)):
        verdict = "within" if r["max_kb"] < BUDGET_KB else "OVER"
        print(f"  {label}: largest {r['max_kb']:.1f} KB over {args.games} games "
              f"({r['steps']:.0f} steps median): {verdict} budget")
    heavy = measure("concentration", "two-decks-jokers", "random", 2, 1)
    print(f"  every page under 1024 KB: two decks with jokers, random bots: largest "
          f"{heavy['max_kb']:.1f} KB ({heavy['steps']:.0f} steps median): "
          f"{'within' if heavy['max_kb'] < 1024 else 'OVER'} budget")
    if args.table_games > 0:
        print_table(args.table_games)
    if args.report_games > 0:
        print_report(args.report_games)


def table_answers(game: str, seed: int) -> list[float]:
    """Seconds the table's server took to answer each of a person's moves in one game."""
    import asyncio
    import random
    import threading

    import aiohttp

    from arena.table.seat import PersonSeat, Table
    from arena.table.series import TableSeries
    from arena.table.server import TableServer

    variant = find_game(game).variant(None, {})
    seats = table_size(variant, 1)
    table = Table(game, variant.game.title, variant.label, [0])
    table.pace = 0.0
    series = TableSeries(table)
    server = TableServer(table, series.pages)
    address = server.start()[0]
    spec = level_spec(game, "easy")
    bots = [PersonSeat(table.outboxes[0]),
            *[resolve_bot(spec, game).make() for _ in range(1, seats)]]
    thread = threading.Thread(target=lambda: series.finished(play_game(
        variant, bots, [f"s{i}" for i in range(seats)], seed, series)), daemon=True)
    thread.start()
    answers: list[float] = []

    async def person() -> None:
        rng = random.Random(seed)
        url = address.replace("http://", "ws://").replace("/?t=", "/ws?t=")
        origin = address.split("/?")[0]
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(url, headers={"Origin": origin}) as ws:
            sent = None
            async for message in ws:
                said = message.json()
                if sent is not None:
                    answers.append(time.perf_counter() - sent)
                    sent = None
                if said["type"] == "act":
                    sent = time.perf_counter()
                    await ws.send_json({"move": rng.randrange(len(said["legal"]))})
                if said["type"] == "over":
                    return

    try:
        asyncio.run(person())
        thread.join(30)
    finally:
        table.close("done")
        server.stop()
    return answers


def print_table(games: int) -> None:
    """The live table's time to answer a person's move, per game."""
    print(f"\nlive table (arena play --web): the server's time to answer a person's move, "
          f"{games} game(s) each, against the easy bot, pace 0")
    print(f"{'game':<20} {'moves':>6} {'median ms':>10} {'p99 ms':>8}")
    for game in all_games():
        times = sorted(t for seed in range(games) for t in table_answers(game.name, seed))
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        print(f"{game.name:<20} {len(times):>6} {1000 * statistics.median(times):>10.1f} "
              f"{1000 * p99:>8.1f}")


def print_report(games: int) -> None:
    """The report page's figures (benchmarks/pages_report.py), where that benchmark is here."""
    try:
        from benchmarks.pages_report import report_rows
    except ImportError:
        try:  # run as a script: benchmarks/ itself is on the path
            from pages_report import report_rows  # type: ignore[import-not-found,no-redef]
        except ImportError:
            print("\n(no benchmarks/pages_report.py here: the report page is not measured)")
            return
    print(f"\nreport page (benchmarks/pages_report.py), a run of {games} games:")
    for row in report_rows(games):
        seconds = "" if row.get("seconds") is None else f"{row['seconds']:.2f} s"
        size = "" if row.get("bytes") is None else f"{row['bytes'] / 1024:.1f} KB"
        print(f"  {row.get('what')!s:<40} {seconds:>10} {size:>12}")


if __name__ == "__main__":
    main()
