"""What reading a run's records safely costs: `RunDirectory.records()` (lines split on "\\n" only,
each line's size and depth bounded, every field checked) against the bare loop it replaced
(`json.loads` of each line of the open file), on the same games.jsonl, side by side in one run.

Prints records per second of each, the cost per record and the ratio; and the same for
escaping a fault detail (`arena.text.escape`) of ordinary text and of hostile text. Asserts
nothing.

    python benchmarks/bench_records.py [--records 200000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from arena.text import escape
from arena.tournament.records.results import GAMES, RunDirectory

RECORD = {"game": "concentration", "variant": "standard", "seats": ["greedy", "random"],
          "scores": [20, 6], "ranks": [1, 2], "order": "higher", "turns": 40,
          "faults": [{"seat": 1, "decision": 3, "kind": "exception",
                      "detail": "act raised ValueError: gave up (at bot.py:8 in act)"}],
          "final": {"end": "cleared", "sets": [20, 6], "points": [20, 6], "left": 0}}


def _bare(path: Path) -> int:
    with path.open(encoding="utf-8") as f:
        return sum(1 for line in f if json.loads(line)["task"] >= 0)


def _best(run: object, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    """Time both readers and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run = Path(folder)
        with (run / GAMES).open("w", encoding="utf-8") as f:
            for task in range(args.records):
                f.write(json.dumps(RECORD | {"task": task, "seed": task},
                                   separators=(",", ":")) + "\n")
        safe = _best(lambda: sum(1 for _ in RunDirectory(run).records()), args.repeats)
        bare = _best(lambda: _bare(run / GAMES), args.repeats)
    n = args.records
    print(f"{n:,} records, best of {args.repeats}")
    print(f"  bare json.loads per line : {n / bare:11,.0f} records/s {bare / n * 1e6:6.2f} us")
    print(f"  RunDirectory.records()   : {n / safe:11,.0f} records/s {safe / n * 1e6:6.2f} us")
    print(f"  checked / bare           : {safe / bare:.2f}x "
          f"(+{(safe - bare) / n * 1e6:.2f} us a record)")
    detail = RECORD["faults"][0]["detail"]
    hostile = "\x1b[2J\x1b]0;x\x07" + detail + "\u2028\u202e"
    for name, text in (("ordinary", detail), ("hostile", hostile)):
        seconds = _best(lambda t=text: [escape(t) for _ in range(100_000)], args.repeats)
        print(f"  escape, {name:8} detail  : {seconds / 100_000 * 1e9:8.0f} ns each")


if __name__ == "__main__":
    main()
