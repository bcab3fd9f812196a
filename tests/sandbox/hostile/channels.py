"""Hostile bots for issue 27's channels (Concentration): the organiser's terminal, devices, notes
between two game processes used to win a duplicate game, the process prepared ahead computing,
the arena's environment and command line, and signals a bot sends itself. Each says what it did
and found in lines of its own (`<bot> ...`), which go to its log when it plays sandboxed; they
get past the audit hook as the bots of `kernel.py` do (a file of the same folder)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Any

from arena.api import GameInfo, Observation, Result, Reveal
from arena.cards import Card, Rank, Suit, parse_card
from bots.concentration.greedy import GreedyBot

sys.path.insert(0, str(Path(__file__).parent))
from kernel import Attacker, disarm, failure, say  # beside this file

NETLINK_USERSOCK = 2
SLOTS = 4
F_OFD_GETLK, F_OFD_SETLK = 36, 37
READY = 1 << 20  # the offset of the lock that says a layout is there
CARDS = [str(Card(rank, suit)) for rank in Rank if rank != Rank.JOKER for suit in Suit]
"""Every card but the jokers, in an order both ends of a note know."""


def _lock(kind: int, start: int, length: int = 1) -> bytes:
    """A `struct flock` (l_pid 0, as OFD locks need)."""
    return struct.pack("hhqqi", kind, os.SEEK_SET, start, length, 0) + b"\0" * 4


class LayoutPasser(GreedyBot):
    """Plays as greedy, and passes the layout it saw to the next game of the same deal: the
    second seating of a duplicate pair, which then knows every card and takes every pair.

    `way="netlink"`: each game process binds a NETLINK_USERSOCK socket when the bot is made (in
    the process prepared ahead, today) on the first free of `SLOTS` ports from `port`, and at the
    end of its game sends its layout to the others. `way="lock"`: at the end of its game it
    holds OFD read locks on bytes of a file every game may read (the Python library's `os.py`),
    a byte per card at its place, and a thread of the next game's process, polling, reads them."""

    def __init__(self, way: str = "netlink", port: int = 0x7A00_0000) -> None:
        disarm()
        self.way, self.seen, self.received = way, {}, {}
        self.sock: socket.socket | None = None
        self.own = 0
        self.problem = ""
        self.path = os.__file__
        if way == "netlink":
            try:
                self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_USERSOCK)
            except OSError as exc:
                self.problem = failure(exc)
            for slot in range(SLOTS) if self.sock is not None else ():
                try:
                    self.sock.bind((port + slot, 0))
                    self.own = port + slot
                    self.problem = ""
                    break
                except OSError as exc:
                    self.problem = failure(exc)
            self.ports = [port + slot for slot in range(SLOTS)]
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        """Wait for a layout (up to a minute), by the way asked for."""
        deadline = time.monotonic() + 60
        while not self.received and time.monotonic() < deadline:
            try:
                if self.way == "netlink":
                    if self.sock is None or not self.own:
                        return
                    data = self.sock.recv(65536)[16:].decode()
                    self.received = dict((int(p), c) for p, c in
                                         (item.split("=") for item in data.split(",") if item))
                else:
                    self.received = self._read_locks()
                    time.sleep(0.01)
            except Exception as exc:
                self.problem = failure(exc)
                time.sleep(0.01)

    def _read_locks(self) -> dict[int, str]:
        """The layout held in locks on `os.py`, once the lock that says it is there is."""
        import fcntl

        fd = os.open(self.path, os.O_RDONLY)
        try:
            answer = fcntl.fcntl(fd, F_OFD_GETLK, _lock(fcntl.F_WRLCK, READY))
            if struct.unpack_from("h", answer)[0] == fcntl.F_UNLCK:
                return {}
            layout, start = {}, 0
            while start < READY:
                answer = fcntl.fcntl(fd, F_OFD_GETLK, _lock(fcntl.F_WRLCK, start, READY - start))
                kind, _, found = struct.unpack_from("hhq", answer)
                if kind == fcntl.F_UNLCK:
                    break
                layout[found // 64] = CARDS[found % 64]
                start = found + 1
            return layout
        finally:
            os.close(fd)

    def start(self, info: GameInfo) -> None:
        """Start as greedy; with a layout received, remember every card of it."""
        super().start(info)
        if self.received:
            self.memory.update([Reveal(None, p, parse_card(c))
                               for p, c in self.received.items()])
            say(f"layoutpasser {self.way} received {len(self.received)} cards")
        else:
            say(f"layoutpasser {self.way} received nothing"
                + (f" ({self.problem})" if self.problem else ""))

    def act(self, obs: Observation[Any]) -> int:
        """Play as greedy; note every card seen."""
        for event in obs.events:
            if isinstance(event, Reveal) and str(event.card) in CARDS:
                self.seen[event.position] = str(event.card)
        return super().act(obs)

    def end(self, result: Result) -> None:
        """Pass the layout seen on, and hold it a moment for the next game to read."""
        for event in result.events if hasattr(result, "events") else ():
            if isinstance(event, Reveal) and str(event.card) in CARDS:
                self.seen[event.position] = str(event.card)
        try:
            if self.way == "netlink":
                text = ",".join(f"{p}={c}" for p, c in self.seen.items()).encode()
                with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_USERSOCK) as out:
                    message = struct.pack("=IHHII", 16 + len(text), 0x10, 0, 0, 0) + text
                    for port in self.ports:
                        if port != self.own:
                            with contextlib.suppress(OSError):
                                out.sendto(message, (port, 0))
            else:
                import fcntl

                fd = os.open(self.path, os.O_RDONLY)
                for p, c in self.seen.items():
                    fcntl.fcntl(fd, F_OFD_SETLK, _lock(fcntl.F_RDLCK, p * 64 + CARDS.index(c)))
                fcntl.fcntl(fd, F_OFD_SETLK, _lock(fcntl.F_RDLCK, READY))
                self.held = fd  # released when the process (or, in-process, the bot) goes
            time.sleep(0.3)
            say(f"layoutpasser {self.way} passed {len(self.seen)} cards")
        except Exception as exc:
            say(f"layoutpasser {self.way} could not pass the layout: {failure(exc)}")

    def close(self) -> None:
        """Let go of the socket and the locks (in the arena's own process)."""
        if self.sock is not None:
            self.sock.close()
        if getattr(self, "held", None) is not None:
            os.close(self.held)
            self.held = None


class CgroupNote(Attacker):
    """Reads what an earlier game left in the counters of its control group (the `max` count of
    its pids group's events), and the machine's hierarchy under /sys/fs/cgroup; then leaves a
    note by starting threads until the kernel refuses one."""

    def attack(self) -> None:
        groups = {}  # controllers -> the group (v1), or "" -> the group (v2)
        with open("/proc/self/cgroup") as listed:
            for line in listed:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                for controller in controllers.split(",") if controllers else [""]:
                    groups[controller] = path
        group = groups.get("pids", groups.get("", ""))
        events = f"/sys/fs/cgroup/pids{group}/pids.events"
        if "pids" not in groups:
            events = f"/sys/fs/cgroup{group}/pids.events"
        try:
            with open(events) as counted:
                words = counted.read().split()
            found = int(words[words.index("max") + 1]) if "max" in words else 0
            say(f"cgroupnote found max={found}")
        except (OSError, ValueError) as exc:
            say(f"cgroupnote found nothing ({failure(exc)})")
        with contextlib.suppress(OSError):
            say(f"cgroupnote sees {len(os.listdir('/sys/fs/cgroup'))} entries in /sys/fs/cgroup")
        release, started = threading.Event(), 0
        threading.stack_size(128 << 10)
        try:
            for _ in range(200):
                threading.Thread(target=release.wait, daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        release.set()
        say(f"cgroupnote left a note ({started} threads)")


class Typist(Attacker):
    """Types `text` and a newline into the controlling terminal (TIOCSTI on /dev/tty, opened
    read-only, which is enough), for the shell that started the arena to run."""

    def __init__(self, text: str = "echo typed") -> None:
        super().__init__()
        self.text = text

    def attack(self) -> None:
        import fcntl

        try:
            fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
        except OSError as exc:
            say(f"typist has no terminal ({failure(exc)})")
            return
        try:
            for char in f"{self.text}\n".encode():
                fcntl.ioctl(fd, 0x5412, bytes([char]))  # TIOCSTI
            say("typist typed")
        except OSError as exc:
            say(f"typist could not type: {failure(exc)}")
        finally:
            os.close(fd)


class Devices(Attacker):
    """Opens devices: /dev/kvm (and makes a VM and a vCPU), /dev/userfaultfd (and makes a
    userfaultfd), and the terminal `pts` (and reads what was typed there)."""

    def __init__(self, pts: str = "") -> None:
        super().__init__()
        self.pts = pts

    def attack(self) -> None:
        import fcntl

        try:
            kvm = os.open("/dev/kvm", os.O_RDONLY)
            vm = fcntl.ioctl(kvm, 0xAE01, 0)  # KVM_CREATE_VM
            vcpu = fcntl.ioctl(vm, 0xAE41, 0)  # KVM_CREATE_VCPU
            say("devices made a VM and a vCPU")
            for fd in (vcpu, vm, kvm):
                os.close(fd)
        except OSError as exc:
            say(f"devices could not use /dev/kvm: {failure(exc)}")
        try:
            device = os.open("/dev/userfaultfd", os.O_RDONLY)
            made = fcntl.ioctl(device, 0xAA00, os.O_CLOEXEC)  # USERFAULTFD_IOC_NEW
            say("devices made a userfaultfd")
            os.close(made)
            os.close(device)
        except OSError as exc:
            say(f"devices could not use /dev/userfaultfd: {failure(exc)}")
        if self.pts:
            try:
                fd = os.open(self.pts, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
                try:
                    say(f"devices read from {self.pts}: {os.read(fd, 64)!r}")
                finally:
                    os.close(fd)
            except OSError as exc:
                say(f"devices could not read {self.pts}: {failure(exc)}")


class Environment(Attacker):
    """Looks for `name` in its environment, and for the host's settings in its command line."""

    def __init__(self, name: str = "ARENA_TEST_SECRET") -> None:
        super().__init__()
        self.name = name

    def attack(self) -> None:
        value = os.environ.get(self.name)
        say(f"environment found {self.name}={value}" if value is not None
            else f"environment found no {self.name} ({len(os.environ)} variables)")
        with open("/proc/self/cmdline", "rb") as line:
            command = line.read()
        say("environment found the host's settings in its command line"
            if b'"spec"' in command or b"private" in command
            else "environment found no settings in its command line")


class AheadSpinner(GreedyBot):
    """Plays as greedy; when it is made (in the process prepared ahead, today, while another
    game is played) a thread computes until its game starts; at its start it says how much CPU
    its process used before."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.made = time.process_time()
        threading.Thread(target=self._spin, daemon=True).start()

    def _spin(self) -> None:
        while not self.started.is_set():
            sum(range(10_000))

    def start(self, info: GameInfo) -> None:
        """Stop spinning; say how much CPU its process used since it was made."""
        self.started.set()
        say(f"aheadspinner computed {1000 * (time.process_time() - self.made):.0f} ms ahead")
        super().start(info)


class SelfSignaller(Attacker):
    """Sends itself `name` (SIGABRT, SIGSEGV) at its first decision, with no handler: anywhere
    else the process ends, a crash."""

    def __init__(self, name: str = "SIGABRT") -> None:
        super().__init__()
        self.name = name

    def act(self, obs: Observation[Any]) -> Any:
        """Signal itself, then (if it still runs) play the first card."""
        signum = getattr(signal, self.name)
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)
        time.sleep(0.05)
        say(f"selfsignaller raised {self.name} and plays on")
        return obs.legal[0]


class CounterNote(Attacker):
    """Passes a note to its next game through the kernel's shared inode counter (issue 38, case
    3): reads the low bits of a new pipe's inode number (the note the game before left), then
    makes pipes until the next number's low bits spell a symbol of its own. Says `counter got=G
    sent=S`, or that it could not make a pipe (also through `socketpair` and `memfd_create`)."""

    BITS = 4

    def attack(self) -> None:
        mask = (1 << self.BITS) - 1
        makers = {"pipe": os.pipe, "socketpair": lambda: tuple(
            s.detach() for s in socket.socketpair()),
                  "memfd": lambda: (os.memfd_create("note"), os.open(os.devnull, os.O_RDONLY))}
        refused = []
        for name, make in makers.items():
            try:
                first, second = make()
            except OSError as exc:
                refused.append(f"{name}: {exc.strerror}")
                continue
            got = os.fstat(first).st_ino & mask
            os.close(first)
            os.close(second)
            symbol = int.from_bytes(os.urandom(1), "big") & mask
            for _ in range(1 << 14):
                first, second = make()
                number = os.fstat(first).st_ino
                os.close(first)
                os.close(second)
                if (number + 1) & mask == symbol:
                    break
            say(f"counter got={got} sent={symbol} by={name}")
            return
        say(f"counter refused {'; '.join(refused)}")
