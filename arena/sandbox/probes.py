"""`arena doctor`'s probes: every promise of the sandbox tried, as a hostile bot would, from inside
real sandboxed game processes (the attacks are `arena.sandbox.attacks.ProbeBot`, an untrusted bot
file to the sandbox), and the result of each: stopped, or got through.

The doctor plays no game: it starts two bots' hosts, as for a table (the probe bot as two
different bots), takes game processes from them (two seats of one bot, and a seat of the other),
and asks each, one question at a time, to make an attack; while one answers, the others are
paused, as at a table. What it sets up for them to find is its own: a scratch folder with a
"run directory" (a key, records) and "another bot's" file covered as the arena covers them, a
file outside to write to, one only the arena's user may read, listeners on 127.0.0.1 and on a
unix socket, a variable in the arena's environment and a token in the host's command line. It
takes a second or two."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.record import BotFault
from arena.sandbox import attacks
from arena.sandbox import pledges as p
from arena.sandbox.attacks import STOPPED, THROUGH, UNKNOWN
from arena.sandbox.stand_in import BotHost, Limits, SandboxedBot

CANARY = "ARENA_DOCTOR_CANARY"
"""The variable the doctor sets in the arena's environment, which no game may see."""

PROBE_SPEC = f"{attacks.__file__}:ProbeBot"
"""The probe bot, as a file: untrusted to the sandbox, loaded in each game process."""

_LIMITS = Limits(memory_mb=64, setup_seconds=15.0)
_ASK_SECONDS = 10.0
_PAUSED_SECONDS = 0.25  # how long a seat waits while another plays, in the pause probe


@dataclass(frozen=True)
class ProbeResult:
    """One attack on one promise: what was tried, its outcome (`attacks.STOPPED`, `THROUGH` or
    `UNKNOWN`) and what the game process saw."""

    promise: str
    tried: str
    outcome: str
    detail: str

    @property
    def through(self) -> bool:
        """Whether the attack got through (the promise was broken)."""
        return self.outcome == THROUGH


class _Doctor:
    """The probes of one doctor's visit: its hosts, its game processes and what they found."""

    def __init__(self, game: str, scratch: Path, token: str) -> None:
        self.game, self.scratch, self.token = game, scratch, token
        self.results: list[ProbeResult] = []
        self.kept = scratch / f"run-{token}"
        self.kept.mkdir()
        (self.kept / "key").write_bytes(os.urandom(16))
        (self.kept / "games.jsonl").write_text("{}\n")
        self.other = scratch / f"other-bot-{token}.py"
        self.other.write_text("class Other:  # another bot's code\n    pass\n")
        # another bot's folder (its helper and its data), and a league with a stored version
        self.folder = scratch / f"other-folder-{token}"
        self.folder.mkdir()
        for name, text in (("bot.py", "from helper import x\n"), ("helper.py", "x = 1\n"),
                           ("book.json", "{}\n")):
            (self.folder / name).write_text(text)
        self.league = scratch / f"league-{token}"
        (self.league / "store" / token).mkdir(parents=True)
        (self.league / "store" / token / "bot.py").write_text("class Stored:\n    pass\n")
        (self.league / "league.toml").write_text('name = "doctor"\n')
        self.target = scratch / "outside.txt"
        self.target.write_text("the arena's\n")
        self.owner_only = scratch / "owner-only.txt"
        self.owner_only.write_text("the arena user's\n")
        # readable by anyone but for what the sandbox itself hides or refuses
        for path in (scratch, self.kept, self.folder, self.league, self.league / "store",
                     self.league / "store" / token):
            path.chmod(0o755)
        for path in (self.kept / "key", self.kept / "games.jsonl", self.other, self.target):
            path.chmod(0o644)
        self.owner_only.chmod(0o600)
        private = (self.kept, self.other, self.folder, self.league)
        self.hosts = [BotHost(PROBE_SPEC, game, _LIMITS, private=private) for _ in range(2)]
        self.bots: list[SandboxedBot] = []

    def seat(self, host: int) -> SandboxedBot:
        """A fresh game process of a host, its bot loaded."""
        bot = SandboxedBot(self.hosts[host])
        self.bots.append(bot)
        bot.begin()
        bot._ready()
        return bot

    def ask(self, bot: SandboxedBot, *request: Any) -> tuple[str, str]:
        """One attack, made by a game process: its outcome and detail."""
        try:
            reply, _ = bot._call("act", tuple(request), _ASK_SECONDS)
        except BotFault as fault:
            return UNKNOWN, f"the game process failed: {fault.detail}"
        answer = reply[1] if len(reply) > 1 else None
        if not (isinstance(answer, tuple) and len(answer) == 2
                and answer[0] in (STOPPED, THROUGH, UNKNOWN)):
            return UNKNOWN, f"an answer that is not a probe's: {answer!r}"[:200]
        return answer[0], str(answer[1])

    def note(self, promise: str, tried: str, outcome: str, detail: str) -> None:
        self.results.append(ProbeResult(promise, tried, outcome, detail))

    def probe(self, promise: str, tried: str, bot: SandboxedBot, *request: Any) -> None:
        """Make an attack and note what it found."""
        self.note(promise, tried, *self.ask(bot, *request))

    def close(self) -> None:
        for bot in self.bots:
            with contextlib.suppress(Exception):
                bot.close()
        for host in self.hosts:
            with contextlib.suppress(Exception):
                host.close()


def run_probes(game: str = "concentration") -> tuple[ProbeResult, ...]:
    """Try every promise of the sandbox from inside real game processes of `game`: what each
    attack found. Raises BotFault if no game process could be had."""
    token = os.urandom(8).hex()
    marker = f"arena-doctor-{token}"
    with tempfile.TemporaryDirectory(prefix="arena-doctor-") as folder, \
            _listeners(Path(folder)) as (port, unix_path), _canary(token):
        doctor = _Doctor(game, Path(folder), token)
        try:
            _probe_all(doctor, port, unix_path, marker)
        finally:
            doctor.close()
            # a helper that outlived its game: the doctor's own
            for pid in marked_processes(marker):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    return tuple(doctor.results)


def _probe_all(doctor: _Doctor, port: int, unix_path: str, marker: str) -> None:
    """The probes, in order: a game whose group the next game gets; two seats of one bot and one
    of another; a game prepared ahead; signals."""
    token, ask = doctor.token, doctor.probe
    first = doctor.seat(0)  # its group goes back to the host, for a later game of the bot
    ask(p.HELD, "threads beyond the game's process limit", first, "processes", 100)
    first.close()
    time.sleep(0.1)
    a1 = doctor.seat(0)
    a2 = doctor.seat(0)  # another seat (or the next game) of the same bot
    b1 = doctor.seat(1)  # another bot's seat
    # pausing: a1's thread must not run while b1 thinks
    doctor.ask(a1, "mark")
    doctor.ask(b1, "mark")
    time.sleep(_PAUSED_SECONDS)
    ask(p.PAUSED, "a thread computing while another bot thinks", a1, "gap", _PAUSED_SECONDS)
    # one game on its own
    ask(p.UNSEEN, "seeing and signalling the arena's other processes", a1, "see_others")
    ask(p.WRITES, "appending to, chmod, touch, xattr on a file outside; making one",
        a1, "write_outside", str(doctor.target), str(doctor.scratch))
    ask(p.KEPT, "reading the run directory, its key and another bot's file", a1, "read_kept",
        str(doctor.kept), str(doctor.kept / "key"), str(doctor.kept / "games.jsonl"),
        str(doctor.other))
    folder, league = doctor.folder, doctor.league
    ask(p.KEPT, "every file of another bot's folder (its helper and data), a league's store "
        "and league.toml, a run directory", a1, "view",
        *(str(path) for path in (*sorted(folder.iterdir()), folder, league / "league.toml",
                                 league / "store" / token / "bot.py", league / "store", league,
                                 doctor.kept, doctor.other, doctor.scratch)))
    ask(p.KEPT, "finding those paths in /proc/self/mountinfo", a1, "mountinfo",
        str(folder), str(league), str(doctor.kept), str(doctor.other), str(doctor.scratch))
    ask(p.KEPT, "the machine's network interfaces, memory nodes and disks in /sys", a1, "sys")
    ask(p.NETWORK, "UDP, TCP and a unix socket to the arena's listeners", a1, "network",
        port, unix_path)
    ask(p.RATION, "more files than the ration", a1, "many_files", 40)
    ask(p.HELD, f"more memory than its limit ({_LIMITS.memory_mb} MB)", a1, "memory", 512)
    ask(p.PRIVILEGES, "capabilities; a file only the arena's user may read", a1, "privileges",
        str(doctor.owner_only))
    ask(p.NARROW, "userfaultfd, bpf, perf events, io_uring, keys, a user namespace", a1,
        "narrow")
    ask(p.TERMINAL, "the arena's terminal (/dev/tty, its controlling terminal, standard input)",
        a1, "terminal")
    ask(p.TERMINAL, "TIOCSTI on a terminal (its own pty)", a1, "tiocsti")
    ask(p.DEVICES, "opening /dev/kvm, /dev/userfaultfd, /dev/mem, /dev/pts/*, a disk", a1,
        "devices")
    ask(p.ENVIRONMENT, "a variable of the arena's environment; the host's command line", a1,
        "environment", CANARY, token)
    # channels between two game processes, both ways of seating
    _channels(doctor, a1, [(a2, "another seat of the same bot"), (b1, "another bot's seat")],
              p.CHANNELS)
    # nothing a game starts outlives it
    doctor.ask(a1, "outlive", marker)
    a1.close()
    deadline = time.monotonic() + 1.5
    while marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = marked_processes(marker)
    doctor.note(p.OUTLIVE, "a helper in a new session, after its game ended",
                THROUGH if left else STOPPED,
                f"the helper outlived its game ({len(left)} process)" if left
                else "the helper ended with its game")
    # a process prepared ahead: a2's game began after it; the next one was forked then
    time.sleep(0.1)
    begun = time.monotonic()
    a3 = doctor.seat(0)
    ask(p.AHEAD, "bot code, and a thread, running in the process prepared ahead", a3, "ahead",
        begun)
    # a3's group, as a rule, is the first game's, which started threads to its limit
    ask(p.CHANNELS, "the counters of a control group an earlier game used", a3, "cgroup_fresh")
    # signals to itself: the game must end, a crash (a fault)
    for bot, name in ((a3, "SIGABRT"), (b1, "SIGSEGV")):
        outcome, detail = doctor.ask(bot, "signal", name)
        if outcome == UNKNOWN and "failed" in detail:
            outcome, detail = STOPPED, f"the game ended: a fault ({detail.split(': ', 1)[-1]})"
        doctor.note(p.SIGNALS, f"raising {name} in itself", outcome, detail)


def _channels(doctor: _Doctor, one: SandboxedBot, others: list[tuple[SandboxedBot, str]],
              promise: str) -> None:
    """A note from `one` to each of `others`, by each kernel object games could share."""
    token, ask = doctor.token, doctor.ask
    note = f"note-{token}"
    path = os.__file__  # a file every game may read: the Python library's own
    ask(one, "lock", path)
    _, group = ask(one, "cgroup_bump")
    group = group.partition(" ")[2]
    key = int(token[:7], 16)
    ask(one, "ipc_leave", key, note)
    for i, (other, who) in enumerate(others):
        _, port = ask(other, "netlink_listen")
        ask(one, "netlink_send", port, note) if port.isdigit() else None
        doctor.note(promise, f"a NETLINK_USERSOCK datagram to {who}",
                    *ask(other, "netlink_receive", note))
        name = f"arena-doctor-{token}-{i}"
        ask(other, "unix_listen", name)
        ask(one, "unix_send", name, note)
        doctor.note(promise, f"an abstract unix socket to {who}",
                    *ask(other, "unix_receive", note))
        doctor.note(promise, f"a lock on a shared read-only file, seen by {who}",
                    *ask(other, "see_lock", path))
        doctor.note(promise, f"a System V message queue, found by {who}",
                    *ask(other, "ipc_find", key, note))
        doctor.note(promise, f"control group counters, read by {who}",
                    *ask(other, "cgroup_read", group))
    ask(one, "ipc_remove")
    doctor.note(promise, "a pipe, socket pair or memfd, whose inode number the machine counts "
                "(a note to the next game)", *ask(one, "counter"))


@contextlib.contextmanager
def _listeners(folder: Path) -> Iterator[tuple[int, str]]:
    """A UDP and a TCP listener on one port of 127.0.0.1, and a unix datagram socket in
    `folder`, for the network probe to reach."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, \
            socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as unix:
        port, path = 9, str(folder / "listener.sock")  # where nothing listens, if need be
        with contextlib.suppress(OSError):  # a machine without a loopback: nothing to reach
            udp.bind(("127.0.0.1", 0))
            port = udp.getsockname()[1]
            tcp.bind(("127.0.0.1", port))
            tcp.listen(1)
        with contextlib.suppress(OSError):
            unix.bind(path)
            os.chmod(path, 0o777)
        yield port, path


@contextlib.contextmanager
def _canary(token: str) -> Iterator[None]:
    """A variable in the arena's environment while the doctor's hosts start."""
    before = os.environ.get(CANARY)
    os.environ[CANARY] = token
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(CANARY, None)
        else:
            os.environ[CANARY] = before


def marked_processes(marker: str) -> list[int]:
    """The live processes (not zombies, not this one) with `marker` as one of their
    arguments."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if marker.encode() in command.split(b"\0") and state != "Z":
                found.append(int(entry))
    return found


def probes_summary(results: Sequence[ProbeResult]) -> str:
    """The probes in one line: how many attacks were stopped, or which promises they broke."""
    through = [r for r in results if r.through]
    if not through:
        unknown = sum(r.outcome == UNKNOWN for r in results)
        told = f" ({unknown} could not be told)" if unknown else ""
        return f"all {len(results)} attacks of `arena doctor` stopped{told}"
    broken = "; ".join(dict.fromkeys(r.promise for r in through))
    return (f"{len(through)} of {len(results)} attacks of `arena doctor` got through, "
            f"breaking: {broken}")


_CACHE: dict[tuple[str, ...], tuple[ProbeResult, ...]] = {}


def setting(game: str) -> tuple[str, ...]:
    """A game with the sandbox's setting in this process (the arena's environment variables that
    turn its mechanisms off): what a game process's confinement depends on here."""
    return (game, *(f"{name}={value}" for name, value in sorted(os.environ.items())
                    if name.startswith("ARENA_SANDBOX_")))


def probed(game: str, fresh: bool = False) -> tuple[ProbeResult, ...]:
    """`run_probes(game)`, made once per process for each setting of the sandbox (`setting`),
    unless `fresh`."""
    key = setting(game)
    if fresh or key not in _CACHE:
        _CACHE[key] = run_probes(game)
    return _CACHE[key]

