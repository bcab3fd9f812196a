"""The line protocol's cost: standard two-player Concentration, greedy against greedy, played
three ways side by side in one run: both seats the C reference client (clients/c, compiled here)
sandboxed, both the bundled Python `greedy` sandboxed (as an untrusted file bot, imported in
every game process, as a submitted bot would be), and both `greedy` in the arena's process.
Every game of the three is the same game, move for move (the C client draws what `greedy` draws).
Prints games per second of each, per round and the best, and the ratio of C to sandboxed Python
(the target: at least 1); then the protocol's own cost per decision against today's wire,
measured on the same decisions: the arena's pickle of the observation (today's wire) against the
relay's JSON line (`act_message` and `encode`), and the JSON answer each side reads. Asserts
nothing.

    python benchmarks/bench_protocol.py [--games 100] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.api import Bot, Observation
from arena.engine import Variant, find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.protocol.forms import act_message, encode
from arena.sandbox import Limits, sandboxed
from arena.sandbox.wire import Outbox

ROOT = Path(__file__).resolve().parent.parent


def rate(variant: Variant, makers: list[Any], games: int) -> tuple[float, int]:
    """Games per second for `games` games between these seats, and the decisions made."""
    start = time.perf_counter()
    turns = 0
    for seed in range(games):
        record = play_game(variant, [m.make() for m in makers], ["a", "b"], seed)
        assert not record.faults, record.faults
        turns += record.turns
    return games / (time.perf_counter() - start), turns


def wire_costs(variant: Variant, games: int = 20) -> tuple[float, float, float, float]:
    """Microseconds a decision: today's wire (pickling the observation, with one memo a game),
    the protocol's (the JSON line of `act`); reading an answer each way."""
    observations: list[list[Observation[Any]]] = []

    class Keeper(Bot):
        def act(self, obs: Observation[Any]) -> Any:
            observations[-1].append(obs)
            return obs.legal[self.rng.randrange(len(obs.legal))]

    for seed in range(games):
        observations.append([])
        play_game(variant, [Keeper(), resolve_bot("greedy").make()], ["k", "g"], seed)
    count = sum(len(game) for game in observations)
    start = time.perf_counter()
    for game in observations:
        outbox = Outbox()
        for obs in game:
            outbox.pack("act", obs)
    pickled = (time.perf_counter() - start) / count * 1e6
    start = time.perf_counter()
    for game in observations:
        for obs in game:
            encode(act_message(obs))
    lined = (time.perf_counter() - start) / count * 1e6
    start = time.perf_counter()
    for _ in range(count):
        json.loads(b'["action",12]\n')
    wire_answer = (time.perf_counter() - start) / count * 1e6
    start = time.perf_counter()
    for _ in range(count):
        json.loads(b'{"index":12}\n')
    line_answer = (time.perf_counter() - start) / count * 1e6
    return pickled, lined, wire_answer, line_answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("needs a C compiler (cc)")
    work = Path(tempfile.mkdtemp(prefix="bench-protocol-"))
    subprocess.run([compiler, "-O2", "-o", str(work / "bot"), str(ROOT / "clients/c/bot.c")],
                   check=True)
    # the bundled greedy as a submitted file bot: a game process imports it, as it would a bot
    greedy_file = work / "greedy_copy.py"
    greedy_file.write_text((ROOT / "bots" / "greedy.py").read_text())
    variant = find_game("concentration").variant("standard")
    limits = Limits(move_seconds=5.0)
    kinds = {
        "C client, sandboxed": [sandboxed(f"cmd:{work / 'bot'}", "concentration", limits)
                                for _ in range(2)],
        "Python greedy, sandboxed": [sandboxed(f"{greedy_file}:GreedyBot", "concentration",
                                               limits) for _ in range(2)],
        "Python greedy, in-process": [resolve_bot("greedy"), resolve_bot("greedy")],
    }
    best: dict[str, float] = {}
    decisions: dict[str, float] = {}
    try:
        for makers in kinds.values():  # a warm-up game each (hosts start, code warms)
            rate(variant, makers, 2)
        print(f"{args.games} games a round, standard Concentration, 2 seats, same deals\n")
        for number in range(1, args.rounds + 1):
            figures = []
            for kind, makers in kinds.items():
                per_second, turns = rate(variant, makers, args.games)
                best[kind] = max(best.get(kind, 0.0), per_second)
                decisions[kind] = turns / args.games
                figures.append(f"{kind}: {per_second:7.1f}")
            ratio = float(figures[0].rpartition(":")[2]) / float(figures[1].rpartition(":")[2])
            print(f"round {number}: " + " | ".join(figures) + f" games/s | C / Python {ratio:.2f}")
    finally:
        for makers in kinds.values():
            for maker in makers:
                if hasattr(maker, "close"):
                    maker.close()
        shutil.rmtree(work, ignore_errors=True)
    print("\nbest of the rounds (games/s):")
    for kind, value in best.items():
        print(f"  {kind:28s} {value:8.1f}   ({1000 / value:6.2f} ms a game, "
              f"{decisions[kind]:.0f} decisions)")
    c_sandboxed, py_sandboxed = best["C client, sandboxed"], best["Python greedy, sandboxed"]
    in_process = best["Python greedy, in-process"]
    print(f"  C client / sandboxed Python: {c_sandboxed / py_sandboxed:.2f} (target: >= 1)")
    print(f"  C client / in-process:       {c_sandboxed / in_process:.3f}")
    pickled, lined, wire_answer, line_answer = wire_costs(variant)
    print("\nper decision, the arena's side and the relay's (µs, same observations):")
    print(f"  today's wire: the observation pickled {pickled:6.1f}, the answer read "
          f"{wire_answer:5.1f}")
    print(f"  the protocol: the act line in JSON    {lined:6.1f}, the answer read "
          f"{line_answer:5.1f}  (on top of the wire: the relay gets the pickle first)")
    per_decision = (1 / c_sandboxed - 1 / py_sandboxed) * 1e6 / decisions["C client, sandboxed"]
    print(f"  measured in play: a C decision costs {per_decision:+.1f} µs against a sandboxed "
          "Python one (whole games, both seats)")


if __name__ == "__main__":
    main()
