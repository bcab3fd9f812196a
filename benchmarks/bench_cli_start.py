"""What starting `arena` costs: the CPU time of a few commands as fresh processes, and where a
start goes (importing the command line, typer building its click command, the rest).

Runs each command `--runs` times in a process of its own (as a user's shell or a test's
subprocess does), alternating the commands round by round so that all see the same load, and
prints the median and the least CPU seconds (user + system, from `getrusage` of the children)
of each. Then, in fresh processes too, the milliseconds of CPU of `import arena.cli` and of
`typer.main.get_command(app)`, the work every command does before its own. Asserts nothing.
The arena measured is the one `python -c` imports from the current directory (a checkout's
own), else the installed one.

    python benchmarks/bench_cli_start.py [--runs 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys

LAUNCH = "import sys; sys.argv[0] = 'arena'; from arena.cli import main; main()"
"""How the tests and the docs' examples start `arena` (what the console script does)."""

COMMANDS: tuple[tuple[str, ...], ...] = (
    (),  # the interpreter alone, for reference: `python -c pass`
    ("--version",),
    ("--help",),
    ("play", "--help"),
    ("play", "dig", "-b", "random", "-b", "random"),
    ("play", "concentration", "-b", "random", "-b", "random"),
)

PHASES = """
import time
began = time.process_time()
from arena.cli import app
imported = time.process_time()
import typer.main
typer.main.get_command(app)
built = time.process_time()
print(f"{1000 * (imported - began):.1f} {1000 * (built - imported):.1f}")
"""


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(command: tuple[str, ...]) -> float:
    """CPU seconds of one run of `arena command` (of `python -c pass` for no command)."""
    args = [sys.executable, "-c", LAUNCH, *command] if command else [sys.executable, "-c", "pass"]
    before = children_cpu()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return children_cpu() - before


def phases() -> tuple[float, float]:
    """Milliseconds of CPU of importing arena.cli and of building its click command."""
    done = subprocess.run([sys.executable, "-c", PHASES], capture_output=True, text=True,
                          check=True)
    imported, built = done.stdout.split()
    return float(imported), float(built)


def main() -> None:
    """Time every command, round by round, and print the median and least of each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    times: dict[tuple[str, ...], list[float]] = {command: [] for command in COMMANDS}
    parts: list[tuple[float, float]] = []
    for _ in range(args.runs):
        for command in COMMANDS:
            times[command].append(cpu_of(command))
        parts.append(phases())
    print(f"CPU seconds of a fresh process, {args.runs} runs each: median (least)")
    for command, seconds in times.items():
        name = "python -c pass" if not command else "arena " + " ".join(command)
        print(f"  {name:<52} {statistics.median(seconds):6.3f} ({min(seconds):.3f})")
    imports = [p[0] for p in parts]
    builds = [p[1] for p in parts]
    print(f"import arena.cli: {statistics.median(imports):.0f} ms (least {min(imports):.0f}); "
          f"typer building the click command: {statistics.median(builds):.0f} ms "
          f"(least {min(builds):.0f})")


if __name__ == "__main__":
    main()
