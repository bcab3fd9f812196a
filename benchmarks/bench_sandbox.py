"""Sandbox cost: standard two-player Concentration, greedy against greedy, with both bots
sandboxed in processes of their own next to both in the arena's process, measured in one run.
Prints games per second for each, the ratio (target: sandboxed at least 15% of in-process) and
what the sandbox adds per game and per decision. Asserts nothing.

    python benchmarks/bench_sandbox.py [--games 200] [--rounds 3] [--trusted | --untrusted]
                                       [--no-pin] [--no-pause] [--fresh-cost]

Both kinds of bot are measured unless one is chosen: trusted (imported once by its host, as a
bundled bot) and untrusted (imported in every game process). Rounds alternate in-process and
sandboxed play, so that both see the same load; the ratio of each round is printed, then the
best, and (on Linux) the CPU time and page faults per game of each kind of process in the last
sandboxed round: the arena, the bots' hosts, their forkers, and the game processes (both bots'),
and each CPU's busy and idle time per game (the CPU with no idle time sets the pace).
--no-pin turns off keeping a game on one CPU (see `arena.sandbox.pinning.Pinning`), --no-pause the
stopping of each bot between its turns (see `arena.sandbox.Turns`). --fresh-cost
adds what a fresh process per game costs: the same recorded messages of seat 0, sent one at a time
(on one CPU, where Linux allows) through the code a game process runs, to a process forked for
each game and to one process kept for every game (which the sandbox never does), side by side.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import socket
import time
from pathlib import Path
from typing import Any

from arena.api import Bot, GameInfo, Observation
from arena.engine import Variant, find_game
from arena.loader import BotSpec, resolve_bot
from arena.match import play_game
from arena.sandbox import TURNS, BotHost, Limits, SandboxedSpec
from arena.sandbox.hosts import FORK_SERVER_VARIABLE
from arena.sandbox.pinning import PINNING
from arena.sandbox.player import Player as _Player
from arena.sandbox.player import serve as _serve
from arena.sandbox.wire import Outbox, start_payload


def rate(variant: Variant, seats: list[BotSpec] | list[SandboxedSpec], games: int) -> float:
    """Games per second for `games` games between these seats."""
    start = time.perf_counter()
    for seed in range(games):
        play_game(variant, [s.make() for s in seats], [s.name for s in seats], seed)
    return games / (time.perf_counter() - start)


def decisions_per_game(variant: Variant, games: int) -> float:
    """The mean number of decisions (both seats) in these games, played in-process."""
    count = 0

    class Counting(Bot):
        def __init__(self) -> None:
            self.inner = resolve_bot("greedy").make()

        def start(self, info: Any) -> None:
            self.inner.start(info)

        def act(self, obs: Observation[Any]) -> Any:
            nonlocal count
            count += 1
            return self.inner.act(obs)

    for seed in range(games):
        play_game(variant, [Counting(), Counting()], ["a", "b"], seed)
    return count / games


def cpu_use(hosts: list[BotHost]) -> dict[str, tuple[float, int]] | None:
    """CPU seconds and page faults so far, by kind of process: the arena (this process), the
    hosts, their forkers, and the game processes (counted when their forker has reaped them).
    None where /proc does not tell (not Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    totals = {"arena": (0.0, 0), "hosts": (0.0, 0), "forkers": (0.0, 0), "games": (0.0, 0)}

    def add(kind: str, seconds: float, faults: int) -> None:
        totals[kind] = (totals[kind][0] + seconds, totals[kind][1] + faults)

    try:
        own = resource.getrusage(resource.RUSAGE_SELF)
        add("arena", own.ru_utime + own.ru_stime, own.ru_minflt)
        for host in hosts:
            pid = host.pid  # type: ignore[assignment]
            add("hosts", *_stat(pid, tick)[:2])
            for forker in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
                seconds, faults, reaped_seconds, reaped_faults = _stat(int(forker), tick)
                add("forkers", seconds, faults)
                add("games", reaped_seconds, reaped_faults)
    except (OSError, ValueError, AttributeError):
        return None
    return totals


def _stat(pid: int, tick: int) -> tuple[float, int, float, int]:
    """A process's CPU seconds and page faults, and those of its reaped children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    minflt, cminflt = int(fields[7]), int(fields[8])
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return (utime + stime) / tick, minflt, (cutime + cstime) / tick, cminflt


def cpu_times() -> dict[str, tuple[float, float]] | None:
    """Busy and idle seconds so far of each CPU of the machine; None where /proc does not tell."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        lines = Path("/proc/stat").read_text().splitlines()
    except OSError:
        return None
    times = {}
    for line in lines:
        name, *values = line.split()
        if name.startswith("cpu") and name[3:].isdigit():
            user, nice, system, idle, iowait, irq, softirq = (int(v) for v in values[:7])
            times[name] = ((user + nice + system + irq + softirq) / tick, (idle + iowait) / tick)
    return times


def per_cpu(before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]],
            games: int) -> str:
    """Each CPU's busy and idle time per game over the last round: the one with no idle time
    sets the pace (with pinning, one CPU plays the games and the others prepare them)."""
    return ", ".join(
        f"{cpu} busy {(after[cpu][0] - busy) / games * 1e3:.2f} ms, "
        f"idle {(after[cpu][1] - idle) / games * 1e3:.2f} ms"
        for cpu, (busy, idle) in before.items() if cpu in after)


def breakdown(before: dict[str, tuple[float, int]], after: dict[str, tuple[float, int]],
              games: int) -> str:
    """What each kind of process used per game over the last round (pages: page faults)."""
    parts, total = [], 0.0
    for kind, (seconds, faults) in after.items():
        used = (seconds - before[kind][0]) / games * 1e3
        pages = (faults - before[kind][1]) / games
        total += used
        parts.append(f"{kind} {used:.2f} ms ({pages:.0f} pages)")
    return ", ".join(parts) + f"; {total:.1f} ms in all"


def measure(variant: Variant, trusted: bool, games: int, rounds: int,
            decisions: float) -> None:
    """Alternate in-process and sandboxed rounds; print each round and the best."""
    limits = Limits(move_seconds=1.0, memory_mb=512)
    hosts = [BotHost("greedy", "concentration", limits, trusted=trusted) for _ in range(2)]
    sandboxed = [SandboxedSpec(f"greedy{i}", host) for i, host in enumerate(hosts)]
    in_process = [resolve_bot("greedy"), resolve_bot("greedy")]
    kind = "trusted (imported once by the host)" if trusted else "untrusted (imported per game)"
    print(f"{kind}:")
    ins, outs = [], []
    try:
        rate(variant, sandboxed, 10)  # start the hosts
        for _ in range(rounds):
            ins.append(rate(variant, in_process, games * 5))
            before, cpus_before = cpu_use(hosts), cpu_times()
            outs.append(rate(variant, sandboxed, games))
            after, cpus_after = cpu_use(hosts), cpu_times()
            print(f"  round      : {ins[-1]:6.0f} in-process, {outs[-1]:5.0f} sandboxed games/s, "
                  f"ratio {outs[-1] / ins[-1]:5.1%}")
        if before and after:
            print("  CPU a game : " + breakdown(before, after, games))
        if cpus_before and cpus_after:
            print("  CPUs a game: " + per_cpu(cpus_before, cpus_after, games))
    finally:
        for host in hosts:
            host.close()
    best_in, best_out = max(ins), max(outs)
    ratios = [o / i for i, o in zip(ins, outs, strict=True)]
    extra = 1 / best_out - 1 / best_in
    print(f"  in-process : {best_in:8.0f} games/s (best of {rounds})")
    print(f"  sandboxed  : {best_out:8.0f} games/s (best of {rounds}, both bots sandboxed)")
    print(f"  ratio      : {best_out / best_in:8.1%}  (target: at least 15%; rounds "
          f"{min(ratios):.1%} to {max(ratios):.1%})")
    print(f"  sandbox    : {extra * 1e3:8.2f} ms more per game, "
          f"{extra / decisions * 1e6:.0f} us per decision all included "
          f"({decisions:.0f} decisions a game)")


_OFF = {"ARENA_SANDBOX_NAMESPACES": "0", "ARENA_SANDBOX_CGROUPS": "0",
        "ARENA_SANDBOX_SECCOMP": "0", "ARENA_SANDBOX_INIT": "0", "ARENA_SANDBOX_GAME_NETWORK": "0"}
_DEFAULT = {**_OFF, "ARENA_SANDBOX_NAMESPACES": "1", "ARENA_SANDBOX_CGROUPS": "1",
            "ARENA_SANDBOX_SECCOMP": "1", "ARENA_SANDBOX_GAME_ID": "1"}
MECHANISMS = {  # the arena's environment for each configuration of the kernel's mechanisms
    "none (Landlock and the audit hook)": _OFF,
    "namespaces only": {**_OFF, "ARENA_SANDBOX_NAMESPACES": "1"},
    "control groups only": {**_OFF, "ARENA_SANDBOX_CGROUPS": "1"},
    "seccomp only": {**_OFF, "ARENA_SANDBOX_SECCOMP": "1"},
    "all three (the default)": _DEFAULT,
    "the default + an init per game": {**_DEFAULT, "ARENA_SANDBOX_INIT": "1"},
    "the default + a network per game": {**_DEFAULT, "ARENA_SANDBOX_GAME_NETWORK": "1"},
    "the default - games' own id": {**_DEFAULT, "ARENA_SANDBOX_GAME_ID": "0"},
}
"""Each configuration's cost is measured against "none"; the init's and the network
namespace's (off by default) against the default too, and so is the default without the
games' own id (on by default where the arena runs as root: its cost is what it saves)."""


def started_hosts(trusted: bool, environment: dict[str, str]) -> list[BotHost]:
    """Two greedy bots' hosts, started under `environment` (which their game processes keep)."""
    limits = Limits(move_seconds=1.0, memory_mb=512)
    hosts = [BotHost("greedy", "concentration", limits, trusted=trusted) for _ in range(2)]
    saved = {name: os.environ.get(name) for name in environment}
    os.environ.update(environment)
    try:
        rate(find_game("concentration").variant("standard"),
             [SandboxedSpec(f"greedy{i}", host) for i, host in enumerate(hosts)], 5)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return hosts


def mechanisms(variant: Variant, trusted: bool, games: int, rounds: int) -> None:
    """Sandboxed play with each configuration of the kernel's mechanisms, in alternating rounds
    (so that all see the same load): games per second, and what each adds per game."""
    kind = "trusted" if trusted else "untrusted"
    print(f"kernel mechanisms, {kind} bots (games/s, best of {rounds} alternating rounds):")
    hosts = {name: started_hosts(trusted, env) for name, env in MECHANISMS.items()}
    best: dict[str, float] = dict.fromkeys(MECHANISMS, 0.0)
    try:
        in_process = max(rate(variant, [resolve_bot("greedy"), resolve_bot("greedy")],
                              games * 5) for _ in range(rounds))
        for _ in range(rounds):
            for name, pair in hosts.items():
                seats = [SandboxedSpec(f"greedy{i}", host) for i, host in enumerate(pair)]
                best[name] = max(best[name], rate(variant, seats, games))
    finally:
        for pair in hosts.values():
            for host in pair:
                host.close()
    base, default = best["none (Landlock and the audit hook)"], best["all three (the default)"]
    print(f"  {'in-process':<34}: {in_process:6.0f}")
    for name, games_per_second in best.items():
        extra = (1 / games_per_second - 1 / base) * 1e3
        against = f"{extra:+.2f} ms a game against none"
        if name.startswith("the default +"):
            against += f"; it costs {(1 / games_per_second - 1 / default) * 1e3:+.2f} ms a game"
        elif name.startswith("the default -"):
            against += f"; it costs {(1 / default - 1 / games_per_second) * 1e3:+.2f} ms a game"
        print(f"  {name:<34}: {games_per_second:6.0f}  ({games_per_second / in_process:5.1%} of "
              f"in-process; {against})")


class Recording(Bot):
    """Greedy, keeping what the arena sends it (as the sandbox would send it)."""

    def __init__(self, sent: list[tuple[str, Any]]) -> None:
        self.inner, self.sent = resolve_bot("greedy").make(), sent

    def start(self, info: GameInfo) -> None:
        self.sent.append(("start", start_payload(info)))
        self.inner.start(info)

    def act(self, obs: Observation[Any]) -> Any:
        self.sent.append(("act", obs))
        return self.inner.act(obs)


def recorded_messages(variant: Variant, games: int) -> list[list[bytes]]:
    """What the arena sends seat 0 in each of these games (greedy against greedy), packed as
    the sandbox packs it."""
    played = []
    for seed in range(games):
        sent: list[tuple[str, Any]] = []
        play_game(variant, [Recording(sent), resolve_bot("greedy").make()], ["a", "b"], seed)
        outbox = Outbox()
        played.append([outbox.pack(op, payload) for op, payload in sent])
    return played


def per_message(played: list[list[bytes]], fresh: bool) -> float:
    """Seconds a message (sent, answered by greedy, received) with the answering process forked
    for each game, or kept for all of them."""
    requests, server = socket.socketpair()
    gc.collect()
    gc.freeze()  # as a host does before it forks
    pid = os.fork()
    if pid == 0:  # the answering side: a server that plays each game or forks a player for it
        requests.close()
        try:
            _answering(server, fresh)
        finally:
            os._exit(0)
    server.close()
    spent, count = 0.0, 0
    try:
        for messages in played:
            ours, theirs = socket.socketpair()
            socket.send_fds(requests, [b"g"], [theirs.fileno()])
            theirs.close()
            ours.recv(1)  # ready
            start = time.perf_counter()
            for message in messages:
                ours.sendall(message)
                ours.recv(65536)
            spent += time.perf_counter() - start
            count += len(messages)
            ours.close()
    finally:
        requests.close()
        os.waitpid(pid, 0)
        gc.unfreeze()
    return spent / count


def _answering(requests: socket.socket, fresh: bool) -> None:
    """Serve each game sent over `requests` (a socket), in a process forked for it if `fresh`."""
    while True:
        _, fds, _, _ = socket.recv_fds(requests, 16, 1)
        if not fds:
            return
        if fresh:
            if os.fork():
                os.close(fds[0])
                os.wait()
                continue
            requests.close()
        game = socket.socket(fileno=fds[0])
        player = _Player(resolve_bot("greedy"), None)
        player.make()
        game.sendall(b"r")
        _serve(player, game)
        game.close()
        if fresh:
            os._exit(0)


def fresh_cost(variant: Variant, games: int, rounds: int) -> None:
    """Print what a process forked for every game costs a message, against one kept warm."""
    played = recorded_messages(variant, games)
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        saved = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(saved)})  # the answering side is forked onto it too
    try:
        fresh, kept = [], []
        for _ in range(rounds):
            fresh.append(per_message(played, fresh=True))
            kept.append(per_message(played, fresh=False))
    finally:
        if pinned:
            os.sched_setaffinity(0, saved)
    messages = sum(len(m) for m in played) / len(played)
    extra = (min(fresh) - min(kept)) * messages
    print(f"fresh process per game (seat 0's {messages:.0f} messages a game, "
          f"{'one CPU' if pinned else 'any CPU'}):")
    print(f"  fresh      : {min(fresh) * 1e6:8.1f} us a message (best of {rounds})")
    print(f"  kept       : {min(kept) * 1e6:8.1f} us a message (best of {rounds}; never done "
          "by the sandbox: a bot would remember)")
    print(f"  price      : {extra * 1e3:8.2f} ms a bot and game, on top of the fork itself")


def host_start(trusted: bool, starts: int) -> None:
    """What a bot's host costs to start, to its first game process: forked by the arena
    process's fork server and started as a fresh Python, alternating, in one run."""
    tick = os.sysconf("SC_CLK_TCK")
    costs: dict[str, list[tuple[float, float]]] = {"forked": [], "fresh": []}
    servers: set[int] = set()
    for start in range(2 * starts):
        kind = ("forked", "fresh")[start % 2]
        os.environ[FORK_SERVER_VARIABLE] = "1" if kind == "forked" else "0"
        began = time.perf_counter()
        host = BotHost("greedy", "concentration", Limits(), trusted=trusted)
        handover = host.new_game()
        wall = time.perf_counter() - began
        assert host.pid is not None
        cpu = _stat(host.pid, tick)[0]  # the host, its forker and the game forked ahead
        for forker in Path(f"/proc/{host.pid}/task/{host.pid}/children").read_text().split():
            cpu += _stat(int(forker), tick)[0]
            cpu += sum(_stat(int(game), tick)[0] for game in
                       Path(f"/proc/{forker}/task/{forker}/children").read_text().split())
        if kind == "forked":
            servers.add(int(Path(f"/proc/{host.pid}/stat").read_text().split(") ")[1].split()[1]))
        costs[kind].append((wall, cpu))
        handover.sock.close()
        host.close()
    os.environ.pop(FORK_SERVER_VARIABLE)
    print(f"a host's start, {'trusted' if trusted else 'untrusted'} greedy, {starts} each, "
          "min / median:")
    for kind, measured in costs.items():
        walls, cpus = sorted(w for w, _ in measured), sorted(c for _, c in measured)
        print(f"  {kind:7}: {walls[0] * 1e3:6.0f} / {walls[len(walls) // 2] * 1e3:6.0f} ms wall,"
              f" {cpus[0] * 1e3:6.0f} / {cpus[len(cpus) // 2] * 1e3:6.0f} ms CPU")
    for server in servers:  # its own start, once for each arena process
        print(f"  the fork server itself: {_stat(server, tick)[0] * 1e3:.0f} ms CPU, "
              "once per arena process")


def main() -> None:
    """Measure trusted and untrusted sandboxed play (or the one chosen) against in-process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--trusted", action="store_true",
                       help="only bots imported once by the host, as bundled bots are")
    which.add_argument("--untrusted", action="store_true",
                       help="only bots imported in every game process")
    parser.add_argument("--no-pin", action="store_true",
                        help="do not keep a game's processes on one CPU")
    parser.add_argument("--no-pause", action="store_true",
                        help="do not stop each bot's process between its turns")
    parser.add_argument("--fresh-cost", action="store_true",
                        help="also measure what a fresh process per game costs a message")
    parser.add_argument("--host-start", type=int, default=0, metavar="N",
                        help="only measure N host starts each, forked and fresh")
    parser.add_argument("--mechanisms", action="store_true",
                        help="only compare the kernel mechanisms: namespaces, cgroups, seccomp")
    args = parser.parse_args()
    PINNING.enabled = PINNING.enabled and not args.no_pin
    TURNS.enabled = TURNS.enabled and not args.no_pause
    variant = find_game("concentration").variant("standard")
    decisions = decisions_per_game(variant, 50)
    print("standard 2-player concentration, greedy vs greedy"
          + ("" if PINNING.enabled else " (no pinning)")
          + ("" if TURNS.enabled else " (no pausing between turns)"))
    for trusted in (True, False):
        if (args.trusted and not trusted) or (args.untrusted and trusted):
            continue
        if args.host_start:
            host_start(trusted, args.host_start)
        elif args.mechanisms:
            mechanisms(variant, trusted, args.games, args.rounds)
        else:
            measure(variant, trusted, args.games, args.rounds, decisions)
    if args.fresh_cost:
        fresh_cost(variant, args.games // 2, args.rounds)


if __name__ == "__main__":
    main()
