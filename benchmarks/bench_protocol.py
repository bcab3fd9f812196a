"""The line protocol's cost: standard two-player Concentration, greedy against greedy, played
three ways side by side in one run: both seats the C reference client (clients/c, compiled here)
sandboxed, both the bundled Python `greedy` sandboxed (as an untrusted file bot, imported in
every game process, as a submitted bot would be), and both `greedy` in the arena's process.
Every game of the three is the same game, move for move (the C client draws what `greedy` draws).

The three take turns, a chunk of games each, in an order rotated every round, so that a change
of the machine's load falls on all three alike; each round plays new deals (the same for the
three). Prints games per second of each (mean of the rounds, 95% interval), the ratio of C to
sandboxed Python (the target: at least 1), paired by round; where a sandboxed game's time goes
(the stand-ins' `start`, `act` and `end`, as the match loop waits for them, per game); and the
arena's cost per decision of each wire: the pickle a Python bot's game process is sent against
the `act` line a program is sent (`act_line`), on the same observations. Asserts nothing.

    python benchmarks/bench_protocol.py [--games 20] [--rounds 10]
"""

from __future__ import annotations

import argparse
import math
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.api import Bot, Observation
from arena.engine import Variant, find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.protocol.forms import act_line
from arena.sandbox import Limits, SandboxedBot, sandboxed
from arena.sandbox.program import ProgramBot
from arena.sandbox.wire import Outbox

ROOT = Path(__file__).resolve().parent.parent
C_KIND, PY_KIND, IN_KIND = "C client, sandboxed", "Python greedy, sandboxed", \
    "Python greedy, in-process"

# Student's t at 97.5% by degrees of freedom (a 95% two-sided interval)
_T975 = {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042}


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and the half-width of its 95% interval (Student's t)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    dof = len(values) - 1
    t = _T975[max(k for k in _T975 if k <= dof)] if dof < 30 else 1.96
    return mean, t * statistics.stdev(values) / math.sqrt(len(values))


def shown(values: Sequence[float], digits: int = 1) -> str:
    """A mean with its 95% interval, as text."""
    mean, half = interval(values)
    return f"{mean:.{digits}f} ± {half:.{digits}f}"


def rate(variant: Variant, makers: list[Any], seeds: range) -> float:
    """Games per second for games on `seeds` between these seats."""
    start = time.perf_counter()
    for seed in seeds:
        record = play_game(variant, [m.make() for m in makers], ["a", "b"], seed)
        assert not record.faults, record.faults
    return len(seeds) / (time.perf_counter() - start)


@contextmanager
def timed_calls(kinds: Sequence[type]) -> Iterator[dict[tuple[str, str], list[float]]]:
    """The seconds of every `start`, `act` and `end` of these stand-in classes while inside
    (as the match loop waits for them), by class name and call."""
    seen: dict[tuple[str, str], list[float]] = {}
    kept: list[tuple[type, str, Callable[..., Any]]] = []

    def timing(cls: type, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        times = seen.setdefault((cls.__name__, name), [])

        def timed(self: Any, *args: Any) -> Any:
            started = time.perf_counter()
            try:
                return call(self, *args)
            finally:
                times.append(time.perf_counter() - started)
        return timed

    for cls in kinds:
        for name in ("start", "act", "end"):
            call = cls.__dict__[name]
            kept.append((cls, name, call))
            setattr(cls, name, timing(cls, name, call))
    try:
        yield seen
    finally:
        for cls, name, call in kept:
            setattr(cls, name, call)


def wire_costs(variant: Variant, games: int = 20, passes: int = 10
               ) -> tuple[list[float], list[float], int]:
    """Microseconds a decision, one figure a pass over the same observations: today's wire
    (pickling the observation, one memo a game, as a Python bot's game process is sent it),
    and the protocol's `act` line (as a program is sent it); and the decisions of a pass."""
    observations: list[list[Observation[Any]]] = []

    class Keeper(Bot):
        def act(self, obs: Observation[Any]) -> Any:
            observations[-1].append(obs)
            return obs.legal[self.rng.randrange(len(obs.legal))]

    for seed in range(games):
        observations.append([])
        play_game(variant, [Keeper(), resolve_bot("greedy").make()], ["k", "g"], seed)
    count = sum(len(game) for game in observations)
    pickled, lined = [], []
    for _ in range(passes):
        start = time.perf_counter()
        for game in observations:
            outbox = Outbox()
            for obs in game:
                outbox.pack("act", obs)
        pickled.append((time.perf_counter() - start) / count * 1e6)
        start = time.perf_counter()
        for game in observations:
            for obs in game:
                act_line(obs)
        lined.append((time.perf_counter() - start) / count * 1e6)
    return pickled, lined, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each kind a round")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("needs a C compiler (cc)")
    work = Path(tempfile.mkdtemp(prefix="bench-protocol-"))
    subprocess.run([compiler, "-O2", "-o", str(work / "bot"), str(ROOT / "clients/c/bot.c")],
                   check=True)
    # the bundled greedy as a submitted file bot: a game process imports it, as it would a bot
    greedy_file = work / "greedy_copy.py"
    greedy_file.write_text((ROOT / "bots" / "concentration" / "greedy.py").read_text())
    variant = find_game("concentration").variant("standard")
    limits = Limits(move_seconds=5.0)
    kinds = {
        C_KIND: [sandboxed(f"cmd:{work / 'bot'}", "concentration", limits) for _ in range(2)],
        PY_KIND: [sandboxed(f"{greedy_file}:GreedyBot", "concentration", limits)
                  for _ in range(2)],
        IN_KIND: [resolve_bot("greedy"), resolve_bot("greedy")],
    }
    rates: dict[str, list[float]] = {kind: [] for kind in kinds}
    names = list(kinds)
    try:
        for makers in kinds.values():  # a warm-up game each (hosts start, code warms)
            rate(variant, makers, range(10_000, 10_002))
        print(f"{args.rounds} rounds of {args.games} games of each kind, standard "
              "Concentration, 2 seats, the same deals for the three\n")
        with timed_calls([SandboxedBot, ProgramBot]) as calls:
            for number in range(args.rounds):
                seeds = range(number * args.games, (number + 1) * args.games)
                order = names[number % 3:] + names[:number % 3]
                for kind in order:
                    rates[kind].append(rate(variant, kinds[kind], seeds))
                print(f"round {number + 1}: " + " | ".join(
                    f"{kind}: {rates[kind][-1]:6.1f}" for kind in names)
                    + f" games/s | C / Python {rates[C_KIND][-1] / rates[PY_KIND][-1]:.2f}",
                    flush=True)
    finally:
        for makers in kinds.values():
            for maker in makers:
                if hasattr(maker, "close"):
                    maker.close()
        shutil.rmtree(work, ignore_errors=True)
    deals = args.rounds * args.games
    print(f"\ngames per second (mean of {args.rounds} rounds, 95% interval; {deals} deals, "
          "each played by each kind):")
    for kind in names:
        mean = statistics.fmean(rates[kind])
        print(f"  {kind:28s} {shown(rates[kind]):>16s}   ({1000 / mean:6.2f} ms a game)")
    ratios = [c / p for c, p in zip(rates[C_KIND], rates[PY_KIND], strict=True)]
    print(f"  C client / sandboxed Python: {shown(ratios, 2)} (by round; target: >= 1)")
    print(f"  C client / in-process:       "
          f"{shown([c / i for c, i in zip(rates[C_KIND], rates[IN_KIND], strict=True)], 3)}")
    games = args.rounds * args.games * 2  # stand-ins: two seats a game
    print("\nwhere a sandboxed game's time goes: the stand-ins' calls, ms a game (both seats), "
          "and µs a call (median):")
    for cls, label in ((ProgramBot, C_KIND), (SandboxedBot, PY_KIND)):
        parts = []
        for name in ("start", "act", "end"):
            times = calls.get((cls.__name__, name), [])
            total = sum(times) / (games / 2) * 1000
            median = statistics.median(times) * 1e6 if times else 0.0
            parts.append(f"{name} {total:5.2f} ms ({len(times) / games:4.1f} a seat, "
                         f"{median:6.0f} µs)")
        print(f"  {label:28s} " + " | ".join(parts))
    pickled, lined, count = wire_costs(variant)
    print(f"\nthe arena's cost per decision of each wire (µs, {count} decisions of 20 deals, "
          "mean of 10 passes, 95% interval):")
    print(f"  today's wire (a Python bot's game process): the observation pickled "
          f"{shown(pickled, 2)}")
    print(f"  the protocol (a program, no relay):         the act line in JSON   "
          f"{shown(lined, 2)}")
    extra = [line - pickle for pickle, line in zip(pickled, lined, strict=True)]
    print(f"  the protocol's own cost: {shown(extra, 2)} µs more a decision")


if __name__ == "__main__":
    main()
