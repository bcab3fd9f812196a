"""Bot isolation, the arena side: each sandboxed bot plays every game in a fresh process of its own.

A `BotHost` starts a host process (`arena.sandbox.host`, forked by its arena process's fork
server: see `arena.sandbox.hosts`) once per bot (per worker process); that host imports the bot and forks a new, locked-down process for every game, so nothing carries
over from one game to the next. A `SandboxedBot` stands in for the bot in the match loop: it
sends each observation over a socket (one message each way per decision), enforces the time
limits while the bot thinks, and turns whatever goes wrong into a `BotFault` the match loop records.
"""

from __future__ import annotations

import contextlib
import enum
import json
import math
import os
import signal
import socket
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from arena.api import Action, GameInfo, Observation, Result
from arena.loader import anchored, by_target
from arena.match import StandInBot, Table, described, not_legal_detail
from arena.protocol.command import is_command
from arena.protocol.forms import MAX_DEPTH, deeper
from arena.record import BotFault, FaultKind
from arena.sandbox.cgroups import Freezer, oom_kills, thaw
from arena.sandbox.hosts import HostProcess, start_host
from arena.sandbox.pinning import PINNING
from arena.sandbox.wire import Outbox, end_payload, start_payload
from arena.text import escape

REPLY_LIMIT = 1 << 20
"""The largest answer a bot process may send, in bytes."""


class Isolation(enum.Enum):
    """Where a bot runs: in a sandboxed process of its own, or in the arena's own process."""

    PROCESS = "process"
    NONE = "none"


BACKSTOP_SETUP_SECONDS = 120.0
"""How long the arena waits for what is not a bot's thinking: its host process to hand over the
first game process, a game process to have the bot loaded (imported and made) before its game
starts, a game process to take a message. A backstop against a host that is stuck, not a limit:
on two cores at a load of 10, beside a starting Ray cluster, a handover took over 30 s."""


@dataclass(frozen=True)
class Limits:
    """What a sandboxed bot may use. None: no limit of its own, but the backstops hold (a game's
    thinking time, `BACKSTOP_GAME_SECONDS`; memory, `backstop_memory_mb()`), so that no bot can
    hold a run forever or take the machine's memory.

    Thinking time is every call the bot answers: `start`, each `act`, `end`. Each counts against
    `game_seconds` (the game's time), and is limited on its own too: a move by `move_seconds`,
    `start` by `start_seconds` and `end` by `end_seconds` (each, when None, by `move_seconds`);
    what a call takes over its own limit is drawn from the bank (`overage_seconds`), and a call
    fails only when the bank is empty too. `setup_seconds` is a backstop for what is not
    thinking (see BACKSTOP_SETUP_SECONDS)."""

    move_seconds: float | None = None
    game_seconds: float | None = None
    overage_seconds: float = 0.0
    memory_mb: int | None = None
    output_bytes: int = 65536
    start_seconds: float | None = None
    end_seconds: float | None = None
    setup_seconds: float = BACKSTOP_SETUP_SECONDS

    def own_seconds(self, op: str) -> float | None:
        """The limit of one call on its own ("start", "act" or "end"; None: none)."""
        if op == "start" and self.start_seconds is not None:
            return self.start_seconds
        if op == "end" and self.end_seconds is not None:
            return self.end_seconds
        return self.move_seconds


DEFAULT_LIMITS = Limits(move_seconds=1.0, game_seconds=60.0, overage_seconds=2.0, memory_mb=512)
"""The limits of a bot that is not bundled where none are given: `arena validate`'s, and
`arena play`'s unless asked otherwise (a tournament's are its config's [limits])."""

BACKSTOP_GAME_SECONDS = 600.0
"""A sandboxed bot's thinking time over a game when no limit is set."""


def backstop_memory_mb() -> int:
    """The memory a sandboxed bot may use when no limit is set: half the machine's, 2 to 16 GB
    (an address-space limit, which large libraries reserve much of without using it)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (OSError, ValueError):
        total = 8192
    return max(2048, min(16384, total // 2))


HOST_ENVIRONMENT = ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "PYTHONNOUSERSITE", "HOME",
                    "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONUTF8", "PYTHONIOENCODING",
                    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")
"""What a bot's host process is given of the arena's environment: where Python finds the arena
and the bot's packages (a user's site packages are under HOME), where the temporary directory
is, the text encoding and buffering. Nothing else (no secret set in the organiser's shell); its game
processes get none of it (the host empties its environment before it forks them)."""


def host_environment() -> dict[str, str]:
    """The environment a bot's host process is started with (see `HOST_ENVIRONMENT`)."""
    return {name: os.environ[name] for name in HOST_ENVIRONMENT if name in os.environ}


SWITCHES = {"namespaces": ("ARENA_SANDBOX_NAMESPACES", True),
            "cgroups": ("ARENA_SANDBOX_CGROUPS", True),
            "seccomp": ("ARENA_SANDBOX_SECCOMP", True),
            "init": ("ARENA_SANDBOX_INIT", False),
            "game_network": ("ARENA_SANDBOX_GAME_NETWORK", False),
            "game_id": ("ARENA_SANDBOX_GAME_ID", True)}
"""The kernel's mechanisms the arena's environment may turn on ("1") or off ("0"): each setting
of the host, the variable of the arena's environment, and whether it is on by default. Off by
default, for what they cost (see docs/sandbox.md, Speed): an init process per game (a game
process that is process 1 turns the signals it sends itself into an exit instead) and a network
namespace per game (one per host instead). On by default but for measuring it: an id of the
games' own where the arena runs as root (see `arena.sandbox.namespaces.GAME_ID`)."""


def switches() -> dict[str, bool]:
    """Which of the kernel's mechanisms (`SWITCHES`) are on, as the arena's environment says."""
    return {setting: os.environ.get(variable, "1" if default else "0") != "0"
            for setting, (variable, default) in SWITCHES.items()}


class BotHost:
    """One bot's host process: imports the bot once, forks a fresh process for every game."""

    def __init__(self, spec: str, game: str, limits: Limits, log: Path | None = None,
                 trusted: bool = False, private: Sequence[Path] = (),
                 echo: str | None = None) -> None:
        self.spec, self.game, self.limits, self.log = anchored(spec), game, limits, log
        self.program = is_command(self.spec)  # a program: the arena speaks the line protocol
        self.echo = echo  # if given, what games print goes to stderr too, after this prefix
        self.trusted = trusted
        self.private = tuple(os.path.realpath(folder) for folder in private)
        self._process: HostProcess | None = None
        self._control: socket.socket | None = None
        self._cpus: set[int] | None = None  # where the host runs, if the arena said

    def _start(self) -> socket.socket:
        ours, theirs = socket.socketpair()
        # a registered name goes as the module and class it stands for, so that neither the host
        # nor its games need to read every installed package's entry points
        settings = {"spec": by_target(self.spec), "game": self.game,
                    "memory_mb": self.limits.memory_mb or backstop_memory_mb(),
                    "output_bytes": self.limits.output_bytes, "trusted": self.trusted,
                    "log": str(self.log) if self.log else None, "private": self.private,
                    "echo": self.echo, **switches()}
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
        # the settings go over the control socket, not in the command line (which a game
        # process inherits), and the host gets only the environment it needs
        self._process = start_host(theirs, host_environment(), self.limits.setup_seconds)
        theirs.close()
        data = json.dumps(settings).encode()
        ours.sendall(_LENGTH.pack(len(data)) + data)
        ours.settimeout(self.limits.setup_seconds)
        self._control = ours
        return ours

    def new_game(self, cpus: set[int] | None = None, header: str = "") -> Handover:
        """A fresh game process: its sockets, its id (its process group), and the files of its
        control groups, if it has them (see `Handover`).

        The host has handed the process over already (it forks one game ahead); taking it tells
        the host to fork the next one, which it does while this game is played, on `cpus` if
        given (see `Pinning`), and what the game prints comes in the bot's log under `header`
        (a line naming the game, see `Table.header`; none if empty).
        """
        control = self._control or self._start()
        try:
            message, fds, _, _ = socket.recv_fds(control, 4096, 2)
            if cpus is not None and cpus != self._cpus and self._process is not None \
                    and len(message) >= _HANDOVER.size:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(self._process.pid, cpus)
                    os.sched_setaffinity(_HANDOVER.unpack_from(message)[1], cpus)  # the forker
                    self._cpus = cpus
            if header:  # "h", the header's length and the header: taken, and named
                text = escape(header)[:_HEADER_LIMIT].encode()
                control.sendall(b"h" + _HEADER_LENGTH.pack(len(text)) + text)
            else:
                control.sendall(b"n")  # taken
        except TimeoutError:
            raise BotFault(FaultKind.TIMEOUT, "the bot process did not start in time") from None
        except OSError:
            message, fds = b"", []
        if not fds or len(message) < _HANDOVER.size:
            for fd in fds:
                os.close(fd)
            raise BotFault(FaultKind.CRASH, "the bot's host process has ended")
        try:
            files = json.loads(message[_HANDOVER.size:] or b"{}")
        except ValueError:
            files = {}
        sock = socket.socket(fileno=fds[0])
        return Handover(sock, socket.socket(fileno=fds[1]) if len(fds) > 1 else sock,
                        _HANDOVER.unpack_from(message)[0],
                        {name: path for name, path in files.items() if isinstance(path, str)})

    def close(self) -> None:
        """End the host and every game process it still has."""
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._process is not None:
            if not self._process.wait(timeout=5):
                self._process.kill()
                self._process.wait()
            self._process.release()
            self._process = None

    @property
    def pid(self) -> int | None:
        """The host's process id, once it is started."""
        return self._process.pid if self._process is not None else None


@dataclass(frozen=True)
class Handover:
    """A game process as its host hands it over: the socket the arena sends it messages on,
    the one it answers on (the same one, but for a program bot, whose standard input and output
    they are: see `arena.sandbox.launch`), its id (its process group), and the files of its
    control groups, if it has them: "freezer", "cpuset", "procs", "oom" and "processes" (see
    `arena.sandbox.cgroups`)."""

    sock: socket.socket
    answers: socket.socket
    group: int
    files: dict[str, str]


class SandboxedBot(StandInBot):
    """Stands in for a bot that plays in its own process, under time limits."""

    games: ClassVar[tuple[str, ...]] = ("*",)

    def __init__(self, host: BotHost) -> None:
        self.host = host
        self.limits = host.limits
        self.sock: socket.socket | None = None
        self.answers: socket.socket | None = None  # where its answers are read (see `Handover`)
        self.group = 0
        # the files of the game's control groups, if it has them (see `pause`, `_receive`):
        self.freezer_path: str | None = None  # its freezer
        self._freezer: Freezer | None = None  # that file, open once the game is first frozen
        self._frozen = False  # paused by its freezer (not by a signal)
        self.procs_path: str | None = None  # the list of its processes
        self.own_processes = 1  # how many there are before the bot starts any
        self._procs = -1  # that file, open once the game is first paused
        self.cpuset_path: str | None = None  # the CPUs it may use
        self.oom_path: str | None = None  # the kernel's count of its kills for memory
        self._ooms = 0  # that count when the game began
        self._outbox: Outbox | None = None
        self._waits = math.inf  # the receive timeout the socket has (inf: none)
        self._pinned = False
        self.paused = False  # stopped between its turns (see `Turns`)
        self._ends = True  # whether the bot process wants `end` (it says so at `start`)
        self.bank = self.limits.overage_seconds
        self.game_left = self.limits.game_seconds or BACKSTOP_GAME_SECONDS
        self.decisions = 0  # answered so far, and the seconds they took
        self.thinking = 0.0
        self.slowest = 0.0  # the longest decision, in seconds
        self.slowest_at = 0  # which of its decisions that was
        self.table: Table | None = None  # where it sits (for its log's header)
        self._budget: tuple[float | None, float, float] | None = None  # the call's limits

    def seated(self, table: Table) -> None:
        """Where the bot sits this game: its output goes to its log under a header naming it."""
        self.table = table

    def output_note(self) -> str:
        """Where this game's output is kept: the bot's log, under its header; or the terminal."""
        if self.host.log is not None:
            place = "/".join(self.host.log.parts[-2:])  # as in the run's directory
            named = f" under [{self.table.header()}]" if self.table is not None else ""
            return f" (what it printed: {place}{named})"
        if self.host.echo:
            return f" (what it printed: on stderr, after {self.host.echo.strip()})"
        return ""

    def answered(self, plain: Any) -> str:
        """What the bot really answered (its type and repr, as its game process describes it):
        the answer arrives as its plain form, which may hide its type ("3D" for a card)."""
        if self.sock is not None:
            with contextlib.suppress(BotFault, OSError, TypeError, IndexError):
                reply, _ = self._call("explain", None, _EXPLAIN_SECONDS)
                if isinstance(reply[1], str):
                    return escape(reply[1][:200])
        return f"{described(plain)} (as the sandbox received it)"

    def begin(self, cpus: set[int] | None = None, header: str = "") -> None:
        """Take a fresh game process from the host (which is to run on `cpus`, if given); what
        it prints goes under `header` in the bot's log."""
        handover = self.host.new_game(cpus, header)
        self.sock, self.answers, self.group = handover.sock, handover.answers, handover.group
        files = handover.files
        self.freezer_path, self.cpuset_path = files.get("freezer"), files.get("cpuset")
        self.procs_path = files.get("procs")
        self.own_processes = int(files.get("processes", "1"))  # its init's and the bot's
        self.oom_path = files.get("oom")
        self._ooms = oom_kills(self.oom_path) if self.oom_path else 0
        self._outbox = Outbox()
        # a process that stops reading cannot block the arena: sending gives up after a while
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                             _timeval(self.limits.setup_seconds))

    def start(self, info: GameInfo) -> None:
        """Start a fresh game process and hand it the game info."""
        self._take()
        reply, _ = self._thought("start", start_payload(info))
        self._ends = reply[1:] != ["without end"]

    def _take(self) -> None:
        """Take a fresh game process, on the game's CPU, with the bot ready to start."""
        cpu = PINNING.enter()
        self._pinned = cpu is not None
        self.begin(None if cpu is None else PINNING.others,
                   self.table.header() if self.table is not None else "")
        if cpu is not None:
            PINNING.adopt(self.group, self.cpuset_path)
        self._ready()

    def act(self, obs: Observation[Any]) -> Action:
        """Ask the bot process for its action, within the time it has left."""
        reply, used = self._thought("act", obs)
        self._decided(used)
        if reply[0] == "unplain":  # a value that cannot travel, described by the bot's process
            shown = escape(str(reply[1])[:200]) if len(reply) > 1 else "a value"
            raise BotFault(FaultKind.ILLEGAL, not_legal_detail(shown, obs.legal))
        return reply[1]

    def _decided(self, used: float) -> None:
        """Count a decision that took `used` seconds."""
        self.decisions += 1
        self.thinking += used
        if used > self.slowest:
            self.slowest, self.slowest_at = used, self.decisions

    def end(self, result: Result) -> None:
        """Tell the bot process the result, unless its bot does nothing with it (a bot that
        defines no `end` when its game starts: the round trip is saved)."""
        if self._ends:
            self._thought("end", end_payload(result))

    def _thought(self, op: str, payload: Any) -> tuple[list[Any], float]:
        """Ask the bot process, which thinks: within the limit of `op` on its own (see
        `Limits.own_seconds`) and the bank, and within the game's time left; the time taken
        counts against the game, and what went over its own limit against the bank."""
        own = self.limits.own_seconds(op)
        self._budget = (own, self.bank, self.game_left)  # what a time-out explains
        if own is None:
            reply, used = self._call(op, payload, self.game_left)
        else:
            reply, used = self._call(op, payload, min(own + self.bank, self.game_left))
            if used > own:
                self.bank = max(0.0, self.bank - (used - own))
        self.game_left -= used
        return reply, used

    def _ready(self) -> None:
        """Wait, up to the setup backstop, until the game process has the bot loaded (it
        answers a probe once it has): a fresh host's first game process may still be importing
        it, which is not the bot's thinking. An answer that is not a probe's is malformed; an
        error is left to `start`, which hears it again."""
        self._budget = None
        assert self._outbox is not None
        data, _ = self._exchange(self._outbox.pack("probe", None), self.limits.setup_seconds,
                                 "start")
        if _parsed("probe", data) is None:
            self.close()
            raise BotFault(FaultKind.MALFORMED, "start: the bot process sent a malformed answer")

    def close(self, ended: bool = False) -> None:
        """Make sure the game process and anything it started are gone (`ended`: its socket
        closed, the bot's process ended, as a rule: a game with an init is told to end, so that
        the init can say how the bot's process ended; it kills it, if it has not)."""
        TURNS.forget(self)
        if self._pinned:  # first, so that the game process ends on another CPU
            PINNING.leave(self.group, self.cpuset_path)
            self._pinned = False
        if self.answers is not None and self.answers is not self.sock:
            self.answers.close()
        self.answers = None
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.group:
            if ended and self.own_processes > 1:
                with contextlib.suppress(OSError):
                    os.kill(self.group, signal.SIGTERM)  # its init (the bot's process has no say)
            else:
                self.signal_group(signal.SIGKILL)
            self.group = 0
        if self._freezer is not None:  # thawed, so that its processes can die
            self._freezer.close()
            self._freezer = None
        self._frozen = False
        if self._procs >= 0:
            os.close(self._procs)
            self._procs = -1

    def _call(self, op: str, payload: Any, timeout: float) -> tuple[list[Any], float]:
        """Send `op` and read its answer within `timeout` seconds: the answer, and the seconds
        it took. Whatever the answer holds, a bad one is a BotFault (malformed), and so is an
        error the bot process reports (of its kind)."""
        assert self._outbox is not None
        data, used = self._exchange(self._outbox.pack(op, payload), timeout, op)
        if len(data) > REPLY_LIMIT or b"\n" in data[:-1]:
            self.close()
            raise BotFault(FaultKind.MALFORMED, f"{op}: the bot process sent a malformed answer")
        if len(data) < _QUICK and data[:10] == b'["action",' and data[-2:] == b"]\n" \
                and data[10:-2].isdigit():
            return ["action", int(data[10:-2])], used  # the common answer, read quickly
        reply = _parsed(op, data)
        if reply is None:
            self.close()
            raise BotFault(FaultKind.MALFORMED, f"{op}: the bot process sent a malformed answer")
        if reply[0] == "error":
            self.close()
            raise BotFault(*_error(reply, op))
        return reply, used

    def _exchange(self, message: bytes, timeout: float, said: str) -> tuple[bytes, float]:
        """Send `message` and read one answer line within `timeout` seconds: what was read (up
        to its first line end, or more than `REPLY_LIMIT` bytes without one), and the seconds
        it took; a fault names the call `said`."""
        sock = self.sock
        assert sock is not None
        if TURNS.current is not self:
            TURNS.begin(self)
        started = time.perf_counter()
        try:  # noqa: SIM105  (cheaper than contextlib.suppress, on every decision)
            sock.sendall(message)
        except OSError:  # the process is gone: reading says so
            pass
        data = self._receive(said, timeout, started)
        used = time.perf_counter() - started
        if used > timeout:  # read in time for the socket's timeout, which may be a little long
            self._timed_out(said, timeout)
        return data, used

    def _receive(self, op: str, timeout: float, started: float) -> bytes:
        """One answer (a JSON line), read within `timeout` seconds of `started`."""
        sock = self.answers
        assert sock is not None
        data = b""
        while True:
            left = timeout - (time.perf_counter() - started)
            if left <= 0:
                self._timed_out(op, timeout)
            wait = min(left, _WAKE_SECONDS)
            if abs(wait - self._waits) > _SLACK:  # one system call per game, as a rule
                self._waits = wait
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(wait))
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:  # the receive timeout; it may be a little early
                if wait < left:
                    self._wake()
                continue
            except OSError:
                chunk = b""
            if not chunk:
                return self._closed(op, data)
            data = data + chunk if data else chunk
            if data[-1:] == b"\n" or len(data) > REPLY_LIMIT:
                return data

    def _closed(self, op: str, data: bytes) -> bytes:
        """The game process closed its answers after `data` (all it sent of this answer): a
        fault, memory if the game's memory group ended it."""
        how = how_it_ended(self.group)  # before it is reaped
        self.close(ended=True)
        self._out_of_memory(op)
        raise BotFault(FaultKind.CRASH, f"{op}: the bot process ended without answering "
                       f"({how or 'a crash, os._exit, a signal or the memory limit'})")

    def _out_of_memory(self, op: str) -> None:
        """A memory fault, if the kernel has ended a process of the game for its memory since
        it began."""
        if self.oom_path and oom_kills(self.oom_path) > self._ooms:
            raise BotFault(FaultKind.MEMORY, f"{op}: ran out of memory (the kernel ended a "
                           "process of the game: it and its files held more than its memory "
                           "group allows)")

    def _wake(self) -> None:
        """Make sure the game whose turn it is runs: continue its processes and thaw its
        freezer. Called after every `_WAKE_SECONDS` of waiting for an answer, it bounds what a
        stop from elsewhere (a pause that raced with the end of a turn, an operator's `kill
        -STOP`) can cost the game to that long, not its whole thinking time."""
        self.signal_group(signal.SIGCONT)
        if self.freezer_path is not None:
            self._frozen = False
            with contextlib.suppress(OSError):
                thaw(Path(self.freezer_path))

    def signal_group(self, signum: int) -> None:
        """Send a signal to the game process and anything it started (if it is still there)."""
        if self.group:
            try:  # noqa: SIM105  (cheaper than contextlib.suppress, at every change of turn)
                os.killpg(self.group, signum)
            except OSError:
                pass

    def pause(self, paused: bool) -> None:
        """Stop every process of the game, or let them run again: by a signal to its process
        group while the game is one process (the group holds every thread of it), by its
        freezer once it has more (which may have left the group). A signal costs microseconds,
        a freezer some 90 (cgroup v1), at every change of turn."""
        if not self.group:
            return
        if not paused:
            if self._frozen:
                self._frozen = False
                self._freeze(False)
            else:
                self.signal_group(signal.SIGCONT)
        elif self._alone() or not self._freeze(True):
            self.signal_group(signal.SIGSTOP)
        else:
            self._frozen = True

    def _alone(self) -> bool:
        """Whether the game is one process (or cannot be told otherwise: it has no groups)."""
        if self._procs < 0:
            if self.procs_path is None:
                return True
            try:
                self._procs = os.open(self.procs_path, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                self.procs_path = None
                return True
        try:
            listed = os.pread(self._procs, 64, 0)
        except OSError:
            return True
        return listed.count(b"\n") <= self.own_processes

    def _freeze(self, frozen: bool) -> bool:
        """Freeze or thaw the game by its freezer; False if it has none."""
        if self._freezer is None and self.freezer_path is not None:
            try:
                self._freezer = Freezer(self.freezer_path)
            except OSError:
                self.freezer_path = None
        if self._freezer is None:
            return False
        try:
            (self._freezer.freeze if frozen else self._freezer.thaw)()
        except OSError:
            return False
        return True

    def _timed_out(self, op: str, timeout: float) -> None:
        self.close()
        why = self._why(op, timeout)
        raise BotFault(FaultKind.TIMEOUT, f"{op}: no answer within {max(timeout, 0.0):.3g} s"
                       + (f" ({why})" if why else ""))

    def _why(self, op: str, timeout: float) -> str:
        """How a time-out's time was made up, in one clause: the call's own limit and the bank,
        or what the game had left; the setup backstop while the bot loads."""
        budget, self._budget = self._budget, None
        if budget is None:
            return f"the {timeout:.3g} s the arena waits for a bot to load and start"
        own, bank, left = budget
        game = self.limits.game_seconds
        whole = f"its {game:g} s a game" if game is not None else \
            f"the {BACKSTOP_GAME_SECONDS:g} s a game the sandbox allows at most"
        if own is None or left < own + bank:
            return f"what was left of {whole}: {max(left, 0.0):.3g} s"
        per = {"start": "for start", "end": "for end"}.get(op, "a move")
        if not self.limits.overage_seconds:
            return f"its {own:g} s {per}, and it has no overage bank"
        if bank <= 0:
            return f"its {own:g} s {per}; its overage bank was spent"
        return f"its {own:g} s {per} plus {bank:.3g} s left in its overage bank"


class Turns:
    """Pauses each sandboxed bot between its turns: when another sandboxed bot's turn begins
    (the arena is about to send it a message), the game of the bot whose turn it was is stopped,
    every process of it (see `SandboxedBot.pause`), and it is continued when its own turn comes
    again.

    A bot's own threads would otherwise keep computing while another bot thinks, on the one CPU
    a game is played on (see `arena.sandbox.pinning`), and slow that bot's thinking, which is
    wall-clock time: enough, on a tight limit, to make it time out. Paused, a bot computes only
    on its own turns. Set ARENA_SANDBOX_PAUSE=0 in the environment to turn it off (a few
    percent faster). A process plays one game at a time, so there is one of these per process.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.current: SandboxedBot | None = None  # the sandboxed bot whose turn it is

    def begin(self, bot: SandboxedBot) -> None:
        """`bot`'s turn begins: pause the bot whose turn it was, continue this one (paused
        before, even if pausing has been turned off since)."""
        current = self.current
        if current is not None and current is not bot and self.enabled:
            current.pause(True)
            current.paused = True
        if bot.paused:
            bot.pause(False)
            bot.paused = False
        self.current = bot if self.enabled else None

    def forget(self, bot: SandboxedBot) -> None:
        """`bot`'s game is over (its process is being ended)."""
        if self.current is bot:
            self.current = None


TURNS = Turns(os.environ.get("ARENA_SANDBOX_PAUSE", "1") != "0")
"""This process's turns (it plays one game at a time)."""


_SELF_SIGNALLED = signal.SIGSYS  # how the seccomp filter ends a game process that sends itself
# a signal the kernel would spare it (see `arena.sandbox.seccomp.UNIGNORABLE`)


def how_it_ended(pid: int) -> str:
    """How a game process that has just ended did, as the kernel says (its exit status, in
    /proc/PID/stat, which the kernel sets before the process's files are closed, and keeps
    until its parent, the host's forker, reaps it); empty if that cannot be told."""
    if pid <= 0:
        return ""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        if fields[0] in (b"T", b"t"):  # stopped: what it holds is the stopping signal's
            return ""
        status = int(fields[49])  # field 52: exit_code, a wait status
    except (OSError, IndexError, ValueError):
        return ""
    number = status & 0x7F
    if not number:
        return f"it exited with code {status >> 8}" if status >> 8 else ""
    if number == _SELF_SIGNALLED:
        return ("killed by a signal it sent itself (SIGKILL, SIGSTOP, SIGABRT, SIGSEGV or "
                "another fault's, which end it as they end any process)")
    with contextlib.suppress(ValueError):
        return f"killed by {signal.Signals(number).name}"
    return f"killed by signal {number}"


def _parsed(op: str, data: bytes) -> list[Any] | None:
    """An answer line to `op` as JSON: a list whose first item is one of the answers `op` may
    have (an action made hashable); None if it is anything else, or cannot be read at all (not
    UTF-8, not JSON, nested beyond reason, a number of more digits than Python converts)."""
    try:
        reply = json.loads(data)
        if not (isinstance(reply, list) and reply and isinstance(reply[0], str)
                and reply[0] in _ANSWERS[op]):
            return None
        if deeper(reply, MAX_DEPTH):  # deeper would recurse through the arena's code
            return None
        if op == "act" and len(reply) == 2:
            reply[1] = _hashable(reply[1])
        return reply
    except (ValueError, TypeError, RecursionError, MemoryError):
        return None


DETAIL_CHARS = 300
"""The most of a fault's detail a game's record keeps (what a bot raised, first line)."""
LOAD_DETAIL_CHARS = 2000
"""The most of why a bot does not load that is kept (`probe`): the loader's words name the
spec and its file, often twice, before the reason ("did you mean 'AdaBot'?") comes."""


def _error(reply: list[Any], op: str = "") -> tuple[FaultKind, str]:
    """The fault a bot process reports (["error", kind, detail]), with a one-line detail that
    can be shown and written anywhere (`arena.text.escape`: no control characters, line breaks,
    bidi overrides or lone surrogates), cut to its size; malformed if it is not one."""
    kind, detail = (reply[1], reply[2]) if len(reply) == 3 else (None, None)
    if kind not in _BOT_FAULTS or not isinstance(detail, str):
        return FaultKind.MALFORMED, "the bot process reported an error in a malformed answer"
    most = LOAD_DETAIL_CHARS if op == "probe" else DETAIL_CHARS
    return FaultKind(kind), escape(detail[:most].replace("\n", " ").replace("\r", " "))


def _timeval(seconds: float) -> bytes:
    """A socket timeout (SO_RCVTIMEO, SO_SNDTIMEO) of `seconds`; zero for none."""
    if seconds >= _FOREVER:
        return _TIMEVAL.pack(0, 0)
    whole, fraction = divmod(seconds, 1.0)
    return _TIMEVAL.pack(int(whole), max(int(fraction * 1e6), 1 if whole == 0 else 0))


_ANSWERS = {"start": ("ok", "error"), "act": ("action", "unplain", "error"),
            "end": ("ok", "error"), "probe": ("ok", "error"), "facts": ("ok", "error"),
            "explain": ("ok",)}
_EXPLAIN_SECONDS = 1.0  # how long the arena waits for a bot's answer to be described
_HEADER_LENGTH = struct.Struct("!H")  # a game's header (see `BotHost.new_game`)
_HEADER_LIMIT = 1000
_BOT_FAULTS = ("exception", "memory", "malformed", "crash")  # crash: a program that cannot
# be started (see `arena.sandbox.launch`)
_TIMEVAL = struct.Struct("ll")
_HANDOVER = struct.Struct("ii")  # a game process's id, and its forker's
_LENGTH = struct.Struct("!I")  # the length of the host's settings, sent first (JSON)
_QUICK = 32  # an answer shorter than this may be read by the quick path (ints below 10**19)
_SLACK = 0.002  # how far the socket's receive timeout may be off what is left, in seconds
_WAKE_SECONDS = 1.0  # how long the arena waits for an answer before it makes sure the game runs
_FOREVER = 1e8  # a wait this long has no timeout


def _hashable(value: Any) -> Any:
    """JSON arrays back to tuples: actions are hashable plain values."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value
