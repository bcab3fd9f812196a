"""Run a command (the test suite by default) beside busy loops that load the machine, and report.

The test suite must pass on a loaded machine, not only an idle one (a test about time asserts
what the code promises, with margins from the promise). This starts `--load` processes that
compute without end (a load average of about that many, on top of what the machine already
carries), runs the command `--runs` times in a row beside them, and prints for each run its wall
time, the load average seen while it ran (sampled every few seconds: least, mean, most), its exit
code and the last line it printed (pytest's summary):

    python scripts/under_load.py                        # pytest once, beside 8 busy loops
    python scripts/under_load.py --runs 3 --log load/   # three runs; each run's output kept
    python scripts/under_load.py --load 4 -- pytest tests/sandbox -x
    python scripts/under_load.py --load 8 --top-up      # a load of 8 in all, others' included

With `--top-up`, only as many loops start as bring the machine's load average (what it already
carries, from other work) up to `--load`: on a machine already loaded past it, none. The busy
loops end with the script (its own children, or their session's process group).

The loops run as another user's jobs do, together in a session of their own. Where the kernel
shares the CPU between sessions first (Linux's autogroup, on by default in most distributions:
`/proc/sys/kernel/sched_autogroup_enabled`), the command then gets its session's share beside
them, as it would beside another user's jobs. `--same-session` starts them in the command's own
session instead, where every loop takes as much CPU as one of the suite's processes: a harsher
load than other work gives.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

BUSY = "while True:\n    pass\n"
SAMPLE_SECONDS = 5.0


@dataclass(frozen=True)
class Run:
    """One run of the command: how long it took, the load it ran under, how it ended."""

    seconds: float
    loads: tuple[float, ...]
    code: int
    last_line: str

    def summary(self, number: int) -> str:
        """One line: the run's number, wall time, load average (least/mean/most), result."""
        loads = self.loads or (os.getloadavg()[0],)
        return (f"run {number}: {self.seconds / 60:.1f} min ({self.seconds:.0f} s), load average "
                f"{min(loads):.1f}/{statistics.fmean(loads):.1f}/{max(loads):.1f} "
                f"(least/mean/most), exit {self.code}: {self.last_line}")


FORKED = "import os\nfor _ in range({more}):\n    if os.fork() == 0:\n        break\n" + BUSY
"""One busy loop that forks `more` others first: all of them in its session."""


def busy_loops(count: int, own_session: bool = True) -> list[subprocess.Popen[bytes]]:
    """Start `count` processes that compute without end: together in one session of their own,
    as another user's jobs are, or each in this one (`own_session` false). End them with
    `end_loops`."""
    if count <= 0:
        return []
    if own_session:
        return [subprocess.Popen([sys.executable, "-c", FORKED.format(more=count - 1)],
                                 stdin=subprocess.DEVNULL, start_new_session=True)]
    return [subprocess.Popen([sys.executable, "-c", BUSY], stdin=subprocess.DEVNULL)
            for _ in range(count)]


def end_loops(loops: Sequence[subprocess.Popen[bytes]]) -> None:
    """End the busy loops (a session's whole group, where they have one)."""
    for loop in loops:
        try:
            if os.getpgid(loop.pid) == loop.pid:
                os.killpg(loop.pid, signal.SIGKILL)
            else:
                loop.kill()
        except ProcessLookupError:
            pass
        loop.wait()


def run_once(command: Sequence[str], log: Path | None) -> Run:
    """Run `command`, its output to the terminal (and to `log`), sampling the load average."""
    loads: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(SAMPLE_SECONDS):
            loads.append(os.getloadavg()[0])

    sampler = threading.Thread(target=sample, daemon=True)
    started = time.monotonic()
    sampler.start()
    last = ""
    sink = log.open("w") if log is not None else None
    try:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, bufsize=1) as process:
            assert process.stdout is not None
            for line in process.stdout:
                sys.stdout.write(line)
                if sink is not None:
                    sink.write(line)
                if line.strip():
                    last = line.strip()
            code = process.wait()
    finally:
        done.set()
        if sink is not None:
            sink.close()
    return Run(time.monotonic() - started, tuple(loads), code, last)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run the command beside busy loops, print a line per run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=8, help="busy loops to run (default 8)")
    parser.add_argument("--top-up", action="store_true",
                        help="start only the loops that bring the load average up to --load")
    parser.add_argument("--runs", type=int, default=1, help="runs in a row (default 1)")
    parser.add_argument("--same-session", action="store_true",
                        help="start the loops in the command's own session (a harsher load)")
    parser.add_argument("--log", type=Path, help="a directory for each run's output")
    parser.add_argument("command", nargs="*", help="the command (after --; default: pytest)")
    args = parser.parse_args(argv)
    command = args.command or ["pytest"]
    if args.log is not None:
        args.log.mkdir(parents=True, exist_ok=True)
    already = os.getloadavg()[0]
    count = max(0, args.load - round(already)) if args.top_up else args.load
    loops = busy_loops(count, own_session=not args.same_session)
    runs: list[Run] = []
    try:
        time.sleep(2.0)  # let the loops get going before the first run
        for number in range(1, args.runs + 1):
            log = args.log / f"run{number}.txt" if args.log is not None else None
            runs.append(run_once(command, log))
            print(runs[-1].summary(number), flush=True)
    finally:
        end_loops(loops)
    where = "the command's session" if args.same_session else "a session of their own"
    print(f"beside {count} busy loops in {where} (load average {already:.1f} before them; "
          f"{os.cpu_count()} CPUs), `{' '.join(command)}`:")
    for number, run in enumerate(runs, 1):
        print("  " + run.summary(number))
    return max((run.code for run in runs), default=0)


if __name__ == "__main__":
    sys.exit(main())
