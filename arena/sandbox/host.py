"""The bot side of the sandbox: a host process that forks a fresh, locked-down process for every
game of one bot. Started by `arena.sandbox.BotHost`; never imported by the engine.

    python -m arena.sandbox CONTROL_FD

(its settings come first on the control socket, as JSON after their length: nothing of them is
in a command line a game process could read).

The host forks once, a quiet forker process that does nothing but fork the game processes (the host
keeps the bookkeeping: directories, control groups, output, exit statuses). The forker enters
namespaces of its own and clones every game process into its own PID, IPC, network and mount
namespaces, where the kernel keeps the sandbox's promises (`arena.sandbox.namespaces`); each game
joins control groups of its own (`arena.sandbox.cgroups`). A game process then runs in a session
of its own (no terminal), under an init of its own (`arena.sandbox.game_init`), in a fresh
directory no other game can find, with an address-space limit, no other open files, no
environment, Landlock, a seccomp filter, and behind an audit hook, a tripwire, that refuses
writes outside its directory, looking into other games' directories or what the arena keeps to
itself (the run directory, the other bots' files, other processes in /proc), new processes,
signals, sockets and native libraries. Only then, when its game begins, does it import the bot
(a trusted, bundled bot is imported once by the host instead, for speed), so none of an
untrusted bot's code ever runs unconfined, nor ahead of its game. It gets only what the arena
sends it (pickled observations, one memo for the whole game) and answers in JSON lines, which
the arena parses without running anything of the bot's.

Speed (see docs/sandbox.md): the host rehearses one game of its own before it forks anything (the
code the games run is then warm, and the collector no longer touches what the games inherit), and
every game process replays that rehearsal while it waits for its game, so that the game itself
runs at full speed; the host hands each game process to the arena as soon as it is forked.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import gc
import json
import os
import resource
import selectors
import shutil
import signal
import socket
import stat
import struct
import sys
import tempfile
import termios
import time
from typing import Any

from arena.engine import find_game
from arena.loader import BotSpec, code_roots, resolve_bot
from arena.protocol.command import is_command
from arena.sandbox import landlock, launch, namespaces, seccomp
from arena.sandbox.audit import GAME_ENTRIES, GAME_FILE_BYTES, HOME_PREFIX, guard
from arena.sandbox.bytecode import compile_ahead, source_files, use_compiled
from arena.sandbox.cgroups import CgroupHost, GameGroup, join
from arena.sandbox.game_init import become_init, exit_on_signals
from arena.sandbox.immortal import immortalize
from arena.sandbox.player import YOUNG_OBJECTS, Player, rehearse, replay, serve
from arena.text import ByteLines

_PR_SET_PDEATHSIG = 1
_PR_SET_NAME = 15


def _libc() -> Any:
    with contextlib.suppress(OSError):
        return ctypes.CDLL(None, use_errno=True)
    return None


_LIBC = _libc()  # opened once, before any bot code runs


def die_with_parent() -> None:
    """Have the kernel kill this process when the process that started it ends (Linux)."""
    with contextlib.suppress(AttributeError):
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def name_process(name: str) -> None:
    """Give this process a name that `ps` and `top` show (Linux; at most 15 bytes)."""
    with contextlib.suppress(AttributeError):
        _LIBC.prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)


def main(argv: list[str]) -> int:
    """Serve games for one bot until the arena closes the control socket.

    One game process is always forked ahead, locked down, warmed up and handed to the arena
    (its socket, with its process id and the forker's); each time the arena takes one (it says so
    with b"n"), the host has the next forked, so that a game starts without waiting for a fork.
    The forking is done by a second, quiet process (see `_forker`), so that the host's own work
    (directories, output, exit statuses) touches no memory the game processes share.
    """
    die_with_parent()
    name_process("arena-host")
    _no_terminal()
    control = socket.socket(fileno=int(argv[1]))
    settings = _receive_settings(control)
    spec = resolve_bot(settings["spec"], settings["game"]) if settings.get("trusted") else None
    settings["command"] = is_command(settings["spec"])  # a program: nothing to compile
    if spec is None and not settings["command"]:  # imported in every game: compile its files
        # once, here, running none of them
        # only files in the bot's own folder, none of what the arena keeps from it (the run
        # directory, the other bots' code), none too large: the files are the bot's, untrusted
        use_compiled(compile_ahead(source_files(settings["spec"], settings.get("private") or ())))
    find_game(settings["game"])  # the game's own (trusted) modules, imported once, not per game
    # a program's game process runs no Python past its lockdown: nothing to warm up
    rehearsal, excerpt = rehearse(settings["game"]) if not settings["command"] else (b"", b"")
    replay(rehearsal)  # the code a game runs, warm before any game process is forked
    requests, forker_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    # the games' directories: one inside a private directory of this host's for each game,
    # under a name no other game can guess, and may not list (see `arena.sandbox.audit`)
    sweep(tempfile.gettempdir())
    home = os.path.realpath(tempfile.mkdtemp(prefix=f"{HOME_PREFIX}{os.getpid()}-"))
    # a game that runs as an id of its own must pass through it to its directory (whose name
    # it may not list, nor guess: see `arena.sandbox.audit`)
    os.chmod(home, 0o711)
    # what a game must read: the interpreter, the Python path, the bot's own folder (see
    # `namespaces.SKELETON`)
    folders = [os.path.dirname(os.path.realpath(path)) if os.path.isfile(path) else str(path)
               for path in code_roots(settings["spec"])] if spec is None else []
    settings["bot_folders"] = [os.path.realpath(path) for path in folders]
    with contextlib.suppress(OSError):  # the audit hook holds all the same
        reads = landlock.reading_ruleset(settings.get("private") or ())
        if reads is not None:  # kept open, out of the way, for every game process to apply
            settings["reads"] = fcntl.fcntl(reads, fcntl.F_DUPFD_CLOEXEC, 100)
            os.close(reads)
    cgroups, settings["cgroup_problem"] = _open_cgroups(settings)
    # where every game mounts its directory, each in its own mount namespace (and the forker's
    # trial game first); without namespaces each game gets a folder of its own instead
    shared = os.path.join(home, os.urandom(16).hex())
    os.mkdir(shared, 0o700)
    os.environ.clear()  # the games get no environment at all (`tempfile` has what it needs)
    for stream in (sys.stdout, sys.stderr):  # what a bot prints reaches its log line by line,
        with contextlib.suppress(AttributeError, ValueError):  # even if its game is killed
            stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    gc.collect()
    gc.freeze()  # keep the collector from touching (and so copying) the host's objects in games
    immortalize()  # nor the reference counts of the ones games use (Python 3.12 and 3.13)
    sys.stdout.flush()
    sys.stderr.flush()
    forker = os.fork()
    if forker == 0:
        try:
            control.close()
            requests.close()
            _forker(spec, settings, excerpt, forker_end, shared)
        finally:
            os._exit(0)
    forker_end.close()
    if "reads" in settings:
        os.close(settings["reads"])
    return _Host(control, requests, forker, settings, home, cgroups, shared).serve()


def _no_terminal() -> None:
    """Give up the arena's controlling terminal, if it has one, for this process and every
    process it forks from now on (TIOCNOTTY: a process that is not its session's leader gives up
    its own hold only); none of them can take one again (only a session's leader can).

    A session of its own for every game process (`setsid`) would do it too, but the kernel's
    scheduler puts each session in a group of its own (autogroups), and every hand-over between
    the arena and a game then crosses groups: sandboxed play at a third of its speed, measured.
    """
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:  # it has none
        return
    try:
        fcntl.ioctl(fd, termios.TIOCNOTTY)
    except OSError:
        pass
    finally:
        os.close(fd)


def _receive_settings(control: socket.socket) -> dict[str, Any]:
    """The host's settings, the first message on its control socket (a length, then JSON)."""
    def exactly(size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = control.recv(size - len(data))
            if not chunk:
                raise SystemExit(0)  # the arena is gone
            data += chunk
        return data

    settings: dict[str, Any] = json.loads(exactly(struct.unpack("!I", exactly(4))[0]))
    return settings


GAME_MEMORY_BASE_MB = 64
"""What a game's memory group allows beyond `memory_mb` and the files of its directory (which
are memory, on a tmpfs): the interpreter's own pages, which a game process copies from its forker
as it writes to them."""


def _open_cgroups(settings: dict[str, Any]) -> tuple[CgroupHost | None, str]:
    """This host's control groups, unless the arena's environment turns them off; or why not."""
    if not settings.get("cgroups", True):
        return None, "turned off (ARENA_SANDBOX_CGROUPS=0)"
    memory = ((int(settings.get("memory_mb") or 0) + GAME_MEMORY_BASE_MB) << 20) \
        + GAME_ENTRIES * GAME_FILE_BYTES
    return CgroupHost.open(memory)


def _confine(settings: dict[str, Any], trial: str) -> namespaces.Confinement:
    """The forker's namespaces (see `arena.sandbox.namespaces`), unless the arena's environment
    turns them off."""
    if not settings.get("namespaces", True):
        return namespaces.Confinement(problem="turned off (ARENA_SANDBOX_NAMESPACES=0)")
    # one network namespace for a host's games (a game makes no socket but socketpairs, which
    # die with it, and runs none of the bot's code before the game before it has ended), or
    # one for each game where the arena's environment asks (it costs milliseconds a game)
    return namespaces.confine_forker(settings.get("private") or (),
                                     shared_network=not settings.get("game_network", False),
                                     trial=trial,
                                     bot_folders=settings.get("bot_folders") or (),
                                     own_id=settings.get("game_id", True))


_MAX_FDS = 8  # a game's socket, its output pipe, a program's answers, its control groups'
# process lists
_RECORD = struct.Struct("=cii")
"""What the forker tells the host: b"F" and a new game process's id, or b"E", the id of one that
ended and its wait status; first, b"C" and whether every game has namespaces of its own."""


def _forker(spec: BotSpec | None, settings: dict[str, Any], rehearsal: bytes,
            requests: socket.socket, trial: str) -> None:
    """Fork a game process for every request (its directory; its socket, output pipe and control
    groups) until the host closes `requests`; answer each with the new process's id, and any
    ended ones. The forker first enters its namespaces, and clones each game into its own.

    This loop does as little as it can: what it writes after a fork, it writes to memory it then
    shares with that game process, and every page of that is copied, once, by one of them.
    """
    die_with_parent()
    name_process("arena-forker")
    confinement = _confine(settings, trial)
    record, finished, clone = _RECORD.pack, _finished, namespaces.clone_game
    flags = confinement.game_flags
    forked: list[int] = []  # the game processes not reaped yet, oldest first
    with contextlib.suppress(OSError):  # the host then needs no folder per game
        requests.sendall(record(b"C", int(confinement.per_game), 0))
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(requests, 4096, _MAX_FDS)
        except OSError:
            message, fds = b"", []
        if not message or len(fds) < 2:
            break
        pid = clone(flags)
        if pid == 0:  # the game process
            try:
                requests.close()
                _play_one_game(spec, fds, message.decode(), settings, rehearsal, confinement)
            finally:
                os._exit(0)
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):
            requests.sendall(record(b"F", pid, 0) + finished(record, forked))
        forked.append(pid)
    # the host is going (it has killed every game process): report the last ones as they end
    with contextlib.suppress(OSError):
        requests.sendall(_ended(record) or b"")


def _cpus() -> set[int] | None:
    """The CPUs this process may run on (None where that cannot be told)."""
    try:
        return os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return None


def _kill(pid: int) -> None:
    """Kill a game process and its process group (or only it, if it has not made the group
    yet: it does so first thing after the fork)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _finished(record: Any, forked: list[int]) -> bytes:
    """Collect the game processes that have ended, but the newest of `forked` (taking them out
    of it): their records.

    The forker is asked for a game process when the arena takes the one before, so the newest
    of `forked` is the game being played: if it has ended, it is left a zombie until the next
    request (when the arena has taken the game after it, and so is done with it), so that the
    arena can read how it ended in /proc however late it looks (`stand_in.how_it_ended`; a
    bot that ends itself at once ended before the forker got here on a loaded machine)."""
    out = b""
    for pid in forked[:-1]:
        try:
            reaped, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            reaped, status = pid, 0
        if reaped:
            forked.remove(pid)
            out += record(b"E", pid, status)
    return out


def _ended(record: Any) -> bytes:
    """Wait for every game process to end (the host is going): their records."""
    out = b""
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return out
        out += record(b"E", pid, status)


class _Host:
    """The host's side after the forker is started: asks it for game processes, hands them to
    the arena, logs what they print, and cleans up after each."""

    def __init__(self, control: socket.socket, requests: socket.socket, forker: int,
                 settings: dict[str, Any], home: str, cgroups: CgroupHost | None,
                 shared: str) -> None:
        self.control, self.requests, self.forker = control, requests, forker
        self.log = _open_log(settings["log"]) if settings.get("log") else None
        self.cap = int(settings.get("output_bytes", 65536))
        # what games print goes to the arena's stderr too, each line after this prefix
        self.echo = settings["echo"].encode() if settings.get("echo") else None
        self.fresh: dict[int, bool] = {}  # output pipe -> whether its next byte starts a line
        self.selector = selectors.DefaultSelector()
        self.selector.register(control, selectors.EVENT_READ, "control")
        self.selector.register(requests, selectors.EVENT_READ, "forker")
        self.outputs: dict[int, int] = {}  # output pipe -> bytes logged for that game
        self.handed: list[int] = []  # the output pipes of the games handed to the arena, in order
        self.headers: dict[int, bytes] = {}  # output pipe -> the header its output goes under
        self.named: dict[int, bytes] = {}  # output pipe -> its game's name in log lines
        self.pending = b""  # what the arena has sent on the control socket, not yet read
        # output pipe -> what a game prints made safe to show and store (`arena.text`)
        self.escaping: dict[int, ByteLines] = {}
        self.children: dict[int, tuple[str, GameGroup | None]] = {}  # game process -> its
        # directory and control groups
        # not forked yet: the sockets (a program's answers have one of their own), directory,
        # control groups and output pipe of each
        self.asked: list[tuple[socket.socket, socket.socket | None, str, GameGroup | None,
                               int]] = []
        self.closing = False
        self.home = home  # where the games' directories are made
        self.cgroups = cgroups
        self.handovers: dict[GameGroup, bytes] = {}  # what the arena is told of each group
        self.shared = shared  # every game's directory, once games have mount namespaces
        self.sharing = False
        self.init = bool(settings.get("init", False))  # games have an init (with PID namespaces)
        self.program = bool(settings.get("command"))  # the bot is a program: a process of its own

    def serve(self) -> int:
        """Run until the arena closes the control socket (or the forker is gone)."""
        try:
            self.ask()
            while True:
                # the arena's word first: a game's header before that game's first output
                for key, _ in sorted(self.selector.select(), key=_control_first):
                    if key.data == "output":
                        self.drain(key.fd)
                    elif key.data == "forker":
                        if not self.answered(self.requests.recv(65536)):
                            return 0
                    else:
                        request = self.control.recv(4096)
                        if not request:
                            return 0
                        self.taken(request)
        except OSError:  # the arena is gone
            return 0
        finally:
            self.close()

    def taken(self, data: bytes) -> None:
        """Act on what the arena says on the control socket: b"n" (it took the next game
        process handed over) or b"h", a length and a header (it took it, and names its game, for
        the log); a game taken means the next is forked."""
        pending = self.pending + data
        while pending:
            if pending[:1] == b"h":
                if len(pending) < 3:
                    break
                size = struct.unpack_from("!H", pending, 1)[0]
                if len(pending) < 3 + size:
                    break
                header, pending = pending[3:3 + size], pending[3 + size:]
                if self.handed:
                    fd = self.handed.pop(0)
                    if fd in self.outputs:
                        self.headers[fd] = self.named[fd] = header
            else:
                taken, pending = pending[:1] == b"n", pending[1:]
                if not taken:
                    continue
                if self.handed:
                    self.handed.pop(0)
            self.ask()
        self.pending = pending

    def ask(self) -> None:
        """Have the forker fork the next game's process."""
        ours, theirs = socket.socketpair()
        read_end, write_end = os.pipe()
        # a program answers on a socket of its own (its standard output: closing it is seen),
        # and the arena reads nothing else (see `arena.sandbox.launch`)
        answers = socket.socketpair() if self.program else None
        if answers is not None:
            ours.shutdown(socket.SHUT_RD)
            answers[0].shutdown(socket.SHUT_WR)
        if self.sharing:
            workdir = self.shared
        else:
            workdir = os.path.join(self.home, os.urandom(16).hex())
            os.mkdir(workdir, 0o700)
        # prepared where this host runs (the arena keeps it off the CPU a game is played on)
        group, procs = self.cgroups.take(_cpus()) if self.cgroups is not None else (None, [])
        try:
            socket.send_fds(self.requests, [workdir.encode()],
                            [theirs.fileno(), write_end,
                             *([answers[1].fileno()] if answers else []), *procs])
        finally:
            theirs.close()
            os.close(write_end)
            if answers is not None:
                answers[1].close()
        self.outputs[read_end] = 0
        self.escaping[read_end] = ByteLines()
        self.selector.register(read_end, selectors.EVENT_READ, "output")
        self.asked.append((ours, answers[0] if answers else None, workdir, group, read_end))

    def answered(self, data: bytes) -> bool:
        """Act on the forker's records; False if it is gone."""
        if not data:
            return False
        for kind, pid, status in _RECORD.iter_unpack(data):
            if kind == b"C":
                self.sharing = bool(pid)
            elif kind == b"F":
                ours, answers, workdir, group, output = self.asked.pop(0)
                self.children[pid] = workdir, group
                handover = struct.pack("ii", pid, self.forker) + self.files(group)
                try:
                    if self.closing:
                        _kill(pid)
                    else:
                        socket.send_fds(self.control, [handover], [ours.fileno()] + (
                            [answers.fileno()] if answers is not None else []))
                        self.handed.append(output)
                finally:
                    ours.close()
                    if answers is not None:
                        answers.close()
            else:
                self.ended(pid, status)
        return True

    def files(self, group: GameGroup | None) -> bytes:
        """What the arena is told of a game's control groups: the files of its freezer, its
        CPUs, its processes and its kills for memory (JSON)."""
        if group is None:
            return b"{}"
        if group not in self.handovers:
            self.handovers[group] = json.dumps({
                # a game's own processes before the bot starts any: its init and the bot's
                "processes": str(1 + (self.sharing and self.init)),
                "freezer": group.freezer and str(group.freezer),
                "cpuset": group.cpuset and str(group.cpuset),
                "procs": str(group.paths[0] / "cgroup.procs"),
                "oom": group.oom_file and str(group.oom_file)}).encode()
        return self.handovers[group]

    def ended(self, pid: int, status: int) -> None:
        """A game process has ended: kill what it left behind, remove its directory."""
        workdir, group = self.children.pop(pid, (None, None))
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # anything the game process left behind
        if group is not None and self.cgroups is not None:
            self.cgroups.give_back(group)  # and anything that left its group
        if workdir is not None and workdir != self.shared:
            _remove(workdir)
        code = os.waitstatus_to_exitcode(status)
        # the arena ends every game process with SIGKILL (a timeout too: the record says so)
        if self.log is not None and code not in (0, -signal.SIGKILL) and not (
                self.sharing and self.init):  # a game's init says how its bot's process ended
            how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
            self.log.write(f"[game process {pid} {how}]\n".encode())
            self.log.flush()

    def drain(self, fd: int) -> None:
        """Copy a game's output to the bot's log, up to the cap per game."""
        data = os.read(fd, 65536)
        if not data:
            self.selector.unregister(fd)
            os.close(fd)
            del self.outputs[fd]
            self.headers.pop(fd, None)
            self.named.pop(fd, None)
            rest = self.escaping.pop(fd).feed(b"", final=True)
            if rest and self.log is not None:
                self.log.write(rest)
                self.log.flush()
            if rest and self.echo is not None:
                self.show(fd, rest)
            self.fresh.pop(fd, None)
            return
        room = self.cap - self.outputs[fd]
        # escaped as it arrives (a character split between two reads is kept whole): no control
        # sequence of the bot's reaches the log or the organiser's terminal
        safe = self.escaping[fd].feed(data[:room]) if room > 0 else b""
        if self.log is not None and room > 0:
            header = self.headers.pop(fd, None)
            if header is not None:  # the game's first output: under a line naming the game
                self.log.flush()  # a blank line between games, none at the top
                apart = b"\n" if os.fstat(self.log.fileno()).st_size else b""
                self.log.write(apart + b"[game: " + header + b"]\n")
            self.log.write(safe)
            if len(data) > room:
                self.log.write(self.truncated(fd))
            self.log.flush()
        if self.echo is not None and room > 0:
            self.show(fd, safe + (self.truncated(fd) if len(data) > room else b""))
        self.outputs[fd] += len(data)

    def truncated(self, fd: int) -> bytes:
        """The line that says a game's output was cut: where, which game, and where the limit
        is set."""
        name = self.named.get(fd)
        return (b"\n[output truncated at %d bytes%s: a game's output limit, output_kb in a "
                b"config's [limits], --output-kb of arena play]\n"
                % (self.cap, b" (" + name + b")" if name else b""))

    def show(self, fd: int, data: bytes) -> None:
        """Copy a game's output to the arena's stderr, each line prefixed."""
        parts = data.split(b"\n")
        pieces = [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        out = bytearray()
        fresh = self.fresh.get(fd, True)
        for piece in pieces:
            if fresh:
                out += self.echo or b""
            out += piece
            fresh = piece.endswith(b"\n")
        self.fresh[fd] = fresh
        with contextlib.suppress(OSError):
            os.write(2, out)

    def close(self) -> None:
        """End every game process, then the forker; log what they printed and how they ended."""
        self.closing = True
        for pid in self.children:
            if self.sharing and self.init:  # its init kills the rest, and says how it ended
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGTERM)
            else:
                _kill(pid)
        self.selector.unregister(self.control)
        with contextlib.suppress(OSError):
            self.requests.shutdown(socket.SHUT_WR)  # the forker reports the last and ends
        deadline = time.monotonic() + 1.0  # what the last games printed goes to the log too
        forker_open = True
        while (self.outputs or forker_open) and time.monotonic() < deadline:
            for key, _ in self.selector.select(timeout=0.1):
                if key.data == "output":
                    self.drain(key.fd)
                else:
                    try:
                        data = self.requests.recv(65536)
                    except OSError:
                        data = b""
                    if not self.answered(data):
                        forker_open = False
                        self.selector.unregister(self.requests)
        for fd in list(self.outputs):  # what is in a pipe already goes to the log, however
            os.set_blocking(fd, False)  # late this host got to it on a loaded machine
            with contextlib.suppress(OSError):  # none left (BlockingIOError), or a bad pipe
                while fd in self.outputs:
                    self.drain(fd)
        for pid in list(self.children):  # not reported in time
            _kill(pid)
            self.ended(pid, 0)
        for ours, answers, _, _, _ in self.asked:  # never forked
            ours.close()
            if answers is not None:
                answers.close()
        if self.cgroups is not None:
            self.cgroups.close()
        shutil.rmtree(self.home, ignore_errors=True)
        with contextlib.suppress(OSError):
            os.kill(self.forker, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.forker, 0)
        self.requests.close()
        if self.log is not None:
            self.log.close()



def _control_first(event: tuple[selectors.SelectorKey, int]) -> bool:
    return event[0].data != "control"


def sweep(folder: str) -> None:
    """Remove the directories of hosts that were killed before they could remove them (this
    user's, in `folder`, whose host process is gone)."""
    uid = os.getuid()
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            pid, dash, _ = entry.name.removeprefix(HOME_PREFIX).partition("-")
            if not (entry.name.startswith(HOME_PREFIX) and dash and pid.isdigit()):
                continue
            with contextlib.suppress(OSError):
                if (entry.is_dir(follow_symlinks=False) and entry.stat().st_uid == uid
                        and not _running(int(pid))):
                    shutil.rmtree(entry.path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether a process `pid` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove(directory: str) -> None:
    """Remove a game's directory (empty, as a rule: then one system call does)."""
    try:
        os.rmdir(directory)
    except OSError:
        shutil.rmtree(directory, ignore_errors=True)


def _play_one_game(spec: BotSpec | None, fds: list[int], workdir: str,
                   settings: dict[str, Any], rehearsal: bytes,
                   confinement: namespaces.Confinement) -> None:
    """Lock this process down, warm up, then answer the arena for one game (loading the bot,
    unless its host has, when the game begins)."""
    game_fd, output_fd = fds[0], fds[1]
    program = bool(settings.get("command"))
    # a program's answers: out of the way of the descriptors set below (see `launch`)
    answers_fd = fcntl.fcntl(fds[2], fcntl.F_DUPFD_CLOEXEC, 10) if program else -1
    os.setpgid(0, 0)  # its own process group (its host gave up the terminal: see `_no_terminal`)
    die_with_parent()
    name_process("arena-game")
    known_as = _outer_pid()
    join(fds[2 + program:])  # its control groups, before anything else
    # process 1 of its PID namespace stays behind as its init; the rest runs in process 2
    # (forked first thing: the fewer pages written before, the fewer the bot's process copies)
    init = settings.get("init", False) and become_init(name_process, output_fd, known_as)
    if init:
        die_with_parent()  # its parent is the init now
    # its directory a tmpfs, its own /proc, no capabilities
    fresh_proc = namespaces.enter(confinement, workdir, GAME_ENTRIES * GAME_FILE_BYTES,
                                  GAME_ENTRIES)
    handlers = 0
    if not init and os.getpid() == 1:  # process 1 without an init: signals it sends itself
        handlers = exit_on_signals(namespaces.libc())  # end it all the same (and see seccomp)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    if game_fd != 3:
        os.dup2(game_fd, 3, inheritable=False)
        game_fd = 3
    os.chdir(workdir)
    _limit_resources(settings)
    abi = 0
    # what the arena keeps is covered by empty mounts where the file system is read-only;
    # elsewhere Landlock keeps it from being read (its rules would not cover a fresh /proc)
    reads = None if confinement.read_only else settings.get("reads")
    with contextlib.suppress(OSError):  # the audit hook holds all the same
        abi = landlock.confine(workdir, reads)
    # the warm-up's sockets, made before the filter refuses making them (see `replay`)
    warm_up = socket.socketpair() if rehearsal and not program else None
    # a Python bot makes no pipe, socket or memfd: none of the kernel's shared counters moves
    filtered = settings.get("seccomp", True) and seccomp.apply(counted=program)
    facts = {"landlock": abi, "seccomp": filtered, "user_namespace": confinement.user,
             "game_namespaces": confinement.per_game, "read_only": confinement.read_only,
             "network_namespace": confinement.network,
             "pid_namespace": init or os.getpid() == 1,
             "fresh_proc": fresh_proc, "cgroups": len(fds) > 2,
             "namespace_problem": confinement.problem,
             "cgroup_problem": settings.get("cgroup_problem") or "",
             "init": bool(init), "exit_handlers": handlers > 0,
             "game_id": confinement.game_id >= 0, "home_covered": confinement.covers_home,
             "allow_list": confinement.allow_list,
             "nothing_ahead": True}  # untrusted bots load as games begin
    if program:  # the program's waiting shell, now, before the audit hook (no Python after)
        launch.become_program(settings["spec"], settings["game"], game_fd, answers_fd)
    # everything else inherited (but the warm-up's sockets)
    start = 4
    for kept in sorted(end.fileno() for end in warm_up or ()):
        os.closerange(start, kept)
        start = kept + 1
    os.closerange(start, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    _forget_libc()
    guard(workdir, settings.get("private") or ())
    # a game is short: collecting young objects every 700 allocations costs it more than it saves
    gc.set_threshold(YOUNG_OBJECTS)
    replay(rehearsal, warm_up)
    if spec is None:  # an untrusted bot runs no code before its game: it is loaded when asked
        sys.dont_write_bytecode = True  # it could not be written here anyway
        player = Player(None, None, facts, load=(settings["spec"], settings["game"]))
    else:  # a trusted (bundled) bot, imported by the host: made while the game is awaited
        player = Player(spec, None, facts)
        player.make()
    serve(player, socket.socket(fileno=game_fd))


def _outer_pid() -> int:
    """This process's id as its host sees it (read before it mounts a /proc of its own)."""
    try:
        return int(os.readlink("/proc/self"))
    except (OSError, ValueError):
        return os.getpid()


def _forget_libc() -> None:
    """Drop the handles on the C library opened before the lockdown, whose functions (looked up
    already) a bot could otherwise call around the audit hook."""
    global _LIBC
    _LIBC = None
    landlock.forget()
    namespaces.forget()


def _limit_resources(settings: dict[str, Any]) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (GAME_FILE_BYTES, GAME_FILE_BYTES))
    memory = settings.get("memory_mb")
    if memory:
        allowed = _address_space() + int(memory) * (1 << 20)
        if settings.get("command"):  # what a program's runtime reserves and never uses
            allowed += launch.PROGRAM_RESERVATION_MB << 20
        resource.setrlimit(resource.RLIMIT_AS, (allowed, allowed))


def _address_space() -> int:
    """This process's current virtual size in bytes (the interpreter and the bot, loaded)."""
    statm = os.open("/proc/self/statm", os.O_RDONLY)  # not open(): far less to run in a game
    try:
        return int(os.read(statm, 64).split()[0]) * resource.getpagesize()
    finally:
        os.close(statm)




def _open_log(path: str) -> Any:
    """A bot's log opened for appending, never through a link, and only if a regular file."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                 | os.O_CLOEXEC, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path}: not a regular file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "ab")
