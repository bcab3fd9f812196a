"""The attacks `arena doctor` makes on the sandbox, from inside real sandboxed game processes: a
bot (`ProbeBot`, loaded as an untrusted bot file) that gets past the Python-level defences of its
game process (the audit hook, its watch list emptied through `gc`; the `os` functions the sandbox
replaced, rebuilt from a fresh `posix`), as the hostile bots of the tests do, so that only the
kernel can stop what it tries; then, asked by the doctor (each question an observation of its
own, `(attack, *arguments)`), tries one thing and answers `(outcome, detail)`: `STOPPED`,
`THROUGH` (the attack worked) or `UNKNOWN` (it could not be told), and what it saw.

Every attack is harmless to the machine: a device is opened and closed at once, never read or
written; TIOCSTI is tried only on a terminal the attack makes itself (a controlling terminal
found is reported, never typed into); what it writes outside its directory is the doctor's own
scratch file; locks go with the process; a message queue it makes it removes."""

from __future__ import annotations

import contextlib
import errno
import gc
import itertools
import os
import platform
import signal
import socket
import struct
import sys
import threading
import time
import types
from typing import Any

from arena.api import Bot, Observation

IMPORTED_AT = time.monotonic()  # when this module was imported, in the game process (or ahead)

STOPPED, THROUGH, UNKNOWN = "stopped", "through", "unknown"
"""An attack's outcome: it failed, it worked, or it could not be told."""

XATTR = b"user.arena-doctor"
NETLINK_USERSOCK = 2
TIOCSTI, TIOCSCTTY, TIOCLINUX = 0x5412, 0x540E, 0x541C
TIOCSPTLCK, TIOCGPTPEER = 0x40045431, 0x5441
F_OFD_GETLK, F_OFD_SETLK = 36, 37
DEVICES = ("/dev/kvm", "/dev/userfaultfd", "/dev/mem", "/dev/kmsg", "/dev/net/tun")
"""Devices a game process must not open (besides another terminal and a disk)."""

_SYSCALLS = {  # (x86_64, aarch64) numbers of the calls a narrowed interface refuses
    "userfaultfd": (323, 282), "bpf": (321, 280), "add_key": (248, 217),
    "perf_event_open": (298, 241), "io_uring_setup": (425, 425),
}


def failure(exc: BaseException) -> str:
    """An exception in a few words."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"{errno.errorcode.get(exc.errno, exc.errno)}"
    return f"{type(exc).__name__}: {exc}"[:120]


def disarm() -> None:
    """Empty the audit hook's watch list (a closure cell, in reach of `gc`) and put back the C
    functions of `os` the sandbox replaced: what is left to stop an attack is the kernel."""
    for function in gc.get_objects():
        if type(function) is not types.FunctionType or not function.__closure__:
            continue
        for cell in function.__closure__:
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, set | frozenset) and {"open", "os.fork", "socket.bind"} <= value:
                cell.cell_contents = frozenset()
    import posix

    replaced = [name for name, value in vars(posix).items() if type(value) is types.FunctionType]
    if replaced:
        fresh = _fresh_posix()
        for name in replaced:
            setattr(posix, name, getattr(fresh, name))
            setattr(os, name, getattr(fresh, name))


def _fresh_posix() -> Any:
    """A new `posix` module, its functions the C ones."""
    import _imp
    import importlib.machinery

    spec = importlib.machinery.ModuleSpec("posix", importlib.machinery.BuiltinImporter,
                                          origin="built-in")
    module = _imp.create_builtin(spec)
    _imp.exec_builtin(module)
    return module


def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _syscall(name: str, *args: int) -> tuple[int, int]:
    """Make a system call by number: its result and errno."""
    import ctypes

    numbers = _SYSCALLS[name]
    number = numbers[1] if platform.machine() == "aarch64" else numbers[0]
    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    result = libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in args))
    return int(result), ctypes.get_errno()


def _in_child(work: Any) -> int:
    """Run `work` (returning an exit code) in a forked child; its exit code (-signal if killed)."""
    pid = os.fork()
    if pid == 0:
        code = 99
        try:
            code = int(work())
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _launch(argv: list[str]) -> int:
    """Start `argv` in a new session with `_posixsubprocess.fork_exec` (no audit event)."""
    import _posixsubprocess

    args = [os.fsencode(arg) for arg in argv]
    null = os.open(os.devnull, os.O_RDWR)
    ready, failed = os.pipe()
    try:
        pid = _posixsubprocess.fork_exec(
            args, [args[0]], True, (), None, None, null, -1, -1, null, -1, null,
            ready, failed, True, True, -1, None, None, None, -1, None, False)
        os.close(failed)
        failed = -1
        problem = os.read(ready, 4096)
        if problem:
            raise OSError(f"could not start: {problem.decode(errors='replace')}")
        return pid
    finally:
        for fd in (ready, failed, null):
            if fd >= 0:
                os.close(fd)


class _Ticker:
    """A thread that notes the time every few milliseconds: whether, and when, the process ran."""

    def __init__(self) -> None:
        self.ticks: list[float] = []
        self.mark = 0  # the tick the longest gap is measured from
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()

    def _run(self) -> None:
        while True:
            self.ticks.append(time.monotonic())
            if len(self.ticks) > 4096:
                del self.ticks[1:2048]
                self.mark = min(self.mark, len(self.ticks) - 1)
            time.sleep(0.005)

    def longest_gap(self) -> float:
        """The longest time between two ticks since `mark`."""
        ticks = self.ticks[self.mark:]
        return max((b - a for a, b in itertools.pairwise(ticks)), default=0.0)


class ProbeBot(Bot):
    """Answers each observation, `(attack, *arguments)`, with `(outcome, detail)` after trying
    that attack (a method `attack_<name>`). Made (and its module imported) wherever the sandbox
    makes a bot: the doctor asks when that was, to see whether bot code ran ahead of its game."""

    games = ("*",)

    def __init__(self) -> None:
        self.made_at = time.monotonic()
        self.ticker = _Ticker()
        self.kept: dict[str, Any] = {}  # what an attack holds for a later one (sockets, locks)
        self.disarmed = False

    def act(self, obs: Observation[Any] | Any) -> Any:
        """Try the attack asked for: `(outcome, detail)`."""
        if not self.disarmed:
            disarm()
            self.disarmed = True
        name, *args = obs
        try:
            outcome, detail = getattr(self, f"attack_{name}")(*args)
        except Exception as exc:  # a probe that cannot say
            outcome, detail = UNKNOWN, f"could not tell: {failure(exc)}"
        return outcome, str(detail)[:300]

    # --- nothing a game starts outlives it

    def attack_outlive(self, marker: str) -> tuple[str, str]:
        pid = _launch([sys.executable, "-c", "import time; time.sleep(10)", marker])
        return UNKNOWN, f"started a helper ({pid}) in a new session; the doctor looks for it"

    # --- other processes

    def attack_see_others(self) -> tuple[str, str]:
        seen = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/comm") as comm:
                    name = comm.read().strip()
                if name in ("arena-host", "arena-forker", "arena-game") or (
                        entry != "1" and name.startswith("arena")):
                    with contextlib.suppress(OSError):
                        os.kill(int(entry), 0)
                    seen.append(f"{name} {entry}")
        if seen:
            return THROUGH, f"sees {len(seen)} arena processes outside its game: {seen[:3]}"
        return STOPPED, "sees no process outside its game"

    # --- writes

    def attack_write_outside(self, target: str, folder: str) -> tuple[str, str]:
        could = []
        for what, change in [
                ("append to it", lambda: os.close(os.open(target, os.O_WRONLY | os.O_APPEND))),
                ("chmod it", lambda: os.chmod(target, os.stat(target).st_mode & 0o7777)),
                ("touch it", lambda: os.utime(target)),
                ("set an xattr", lambda: os.setxattr(target, XATTR, b"note")),
                ("make a file beside it", lambda: os.close(os.open(
                    os.path.join(folder, "made-by-a-game"), os.O_WRONLY | os.O_CREAT, 0o600)))]:
            with contextlib.suppress(OSError):
                change()
                could.append(what)
        if could:
            return THROUGH, f"outside its directory it could {', '.join(could)}"
        return STOPPED, "could not write, chmod, touch, set an xattr or make a file outside"

    # --- what the arena keeps

    def attack_read_kept(self, *paths: str) -> tuple[str, str]:
        seen = []
        for path in paths:
            try:
                if os.path.isdir(path):
                    if os.listdir(path):
                        seen.append(f"listed {os.path.basename(path)}")
                else:
                    with open(path, "rb") as kept:
                        if kept.read(64):
                            seen.append(f"read {os.path.basename(path)}")
            except OSError:
                continue
        if seen:
            return THROUGH, "; ".join(seen)
        return STOPPED, f"none of {len(paths)} kept paths could be read or listed"

    def attack_view(self, *paths: str) -> tuple[str, str]:
        """Every path must be absent from the game's view: not empty, not refused."""
        seen = []
        for path in paths:
            try:
                os.lstat(path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                seen.append(f"{os.path.basename(path)} refused ({exc.strerror}), not absent")
                continue
            seen.append(f"{os.path.basename(path)} is there")
        if seen:
            return THROUGH, "; ".join(seen)[:300]
        return STOPPED, f"none of {len(paths)} paths is in its view"

    def attack_mountinfo(self, *words: str) -> tuple[str, str]:
        try:
            with open("/proc/self/mountinfo") as mounts:
                text = mounts.read()
        except OSError as exc:
            return STOPPED, f"no mountinfo ({exc.strerror})"
        named = [os.path.basename(word) for word in words if word in text]
        if named:
            return THROUGH, f"mountinfo names {', '.join(named)}"
        return STOPPED, f"mountinfo names none of {len(words)} paths"

    def attack_sys(self) -> tuple[str, str]:
        shown = []
        for folder in ("/sys/class/net", "/sys/devices/system/node", "/sys/block"):
            with contextlib.suppress(OSError):
                if os.listdir(folder):
                    shown.append(folder)
        if shown:
            return THROUGH, f"lists the machine's {', '.join(shown)}"
        return STOPPED, "no network interface, memory node or disk of the machine in /sys"

    def attack_counter(self) -> tuple[str, str]:
        made = []
        for name, make in (("pipe", os.pipe), ("socket pair", lambda: tuple(
                end.detach() for end in socket.socketpair())),
                ("memfd", lambda: (os.memfd_create("note"), os.dup(0)))):
            try:
                first, second = make()
            except OSError:
                continue
            made.append(f"a {name} (inode {os.fstat(first).st_ino})")
            os.close(first)
            os.close(second)
        if made:
            return THROUGH, f"made {', '.join(made)}: the machine's counter, to read and move"
        return STOPPED, "could make no pipe, socket pair or memfd"

    # --- network

    def attack_network(self, port: int, unix_path: str) -> tuple[str, str]:
        reached = []
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.sendto(b"doctor", ("127.0.0.1", port))
            reached.append("sent UDP to 127.0.0.1")
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            s.connect(("127.0.0.1", port))
            reached.append("connected TCP to 127.0.0.1")
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.sendto(b"doctor", unix_path)
            reached.append("sent to a unix socket on the machine")
        if reached:
            return THROUGH, "; ".join(reached)
        return STOPPED, "no UDP, TCP or unix socket reached the arena's listeners"

    # --- channels between games

    def attack_netlink_listen(self) -> tuple[str, str]:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_USERSOCK)
        sock.bind((0, 0))
        sock.setblocking(False)
        self.kept["netlink"] = sock
        return UNKNOWN, str(sock.getsockname()[0])

    def attack_netlink_send(self, port: str, note: str) -> tuple[str, str]:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_USERSOCK) as sock:
            data = note.encode()
            sock.sendto(struct.pack("=IHHII", 16 + len(data), 0x10, 0, 0, 0) + data,
                        (int(port), 0))
        return UNKNOWN, "sent"

    def attack_netlink_receive(self, note: str) -> tuple[str, str]:
        sock = self.kept.get("netlink")
        if sock is None:
            return STOPPED, "could not make a NETLINK_USERSOCK socket"
        with contextlib.suppress(OSError):
            if note.encode() in sock.recv(4096):
                return THROUGH, "a NETLINK_USERSOCK datagram carried the note"
        return STOPPED, "no NETLINK_USERSOCK datagram arrived"

    def attack_unix_listen(self, name: str) -> tuple[str, str]:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind("\0" + name)
        sock.setblocking(False)
        self.kept["unix"] = sock
        return UNKNOWN, "bound"

    def attack_unix_send(self, name: str, note: str) -> tuple[str, str]:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(note.encode(), "\0" + name)
        return UNKNOWN, "sent"

    def attack_unix_receive(self, note: str) -> tuple[str, str]:
        sock = self.kept.get("unix")
        if sock is None:
            return STOPPED, "could not bind an abstract unix socket"
        with contextlib.suppress(OSError):
            if sock.recv(256) == note.encode():
                return THROUGH, "an abstract unix socket carried the note"
        return STOPPED, "no datagram arrived on the abstract unix socket"

    def attack_lock(self, path: str) -> tuple[str, str]:
        import fcntl

        held = []
        for kind in ("flock", "posix", "ofd"):
            with contextlib.suppress(OSError):
                fd = os.open(path, os.O_RDONLY)
                self.kept[f"lock-{kind}"] = fd
                if kind == "flock":
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                elif kind == "posix":
                    fcntl.fcntl(fd, fcntl.F_SETLK, _flock(fcntl.F_RDLCK, 0, 1))
                else:
                    fcntl.fcntl(fd, F_OFD_SETLK, _flock(fcntl.F_RDLCK, 1, 1))
                held.append(kind)
        return UNKNOWN, ",".join(held)

    def attack_see_lock(self, path: str) -> tuple[str, str]:
        import fcntl

        seen, fd = [], os.open(path, os.O_RDONLY)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except BlockingIOError:
                seen.append("flock")
            with contextlib.suppress(OSError):
                answer = fcntl.fcntl(fd, fcntl.F_GETLK, _flock(fcntl.F_WRLCK, 0, 1))
                if struct.unpack_from("h", answer)[0] == fcntl.F_RDLCK:  # the other's lock
                    seen.append("fcntl (POSIX)")
            with contextlib.suppress(OSError):
                answer = fcntl.fcntl(fd, F_OFD_GETLK, _flock(fcntl.F_WRLCK, 1, 1))
                if struct.unpack_from("h", answer)[0] == fcntl.F_RDLCK:
                    seen.append("OFD")
        finally:
            os.close(fd)
        if seen:
            return THROUGH, f"saw the other game's lock on a shared file: {', '.join(seen)}"
        return STOPPED, "saw no lock of the other game (flock, fcntl, OFD)"

    def attack_ipc_leave(self, key: int, note: str) -> tuple[str, str]:
        import ctypes

        libc = _libc()
        queue = libc.msgget(ctypes.c_int(key), ctypes.c_int(0o1000 | 0o600))  # IPC_CREAT
        if queue < 0:
            code = ctypes.get_errno()
            return STOPPED, f"could not make a message queue ({errno.errorcode.get(code, code)})"
        self.kept["ipc"] = queue
        message = struct.pack("l", 1) + note.encode()
        libc.msgsnd(queue, message, len(note), 0o4000)  # IPC_NOWAIT
        return UNKNOWN, "left"

    def attack_ipc_find(self, key: int, note: str) -> tuple[str, str]:
        import ctypes

        libc = _libc()
        queue = libc.msgget(ctypes.c_int(key), 0)
        if queue < 0:
            return STOPPED, "found no System V message queue of the other game"
        buffer = ctypes.create_string_buffer(8 + 256)
        got = libc.msgrcv(queue, buffer, 256, 0, 0o4000)
        text = buffer.raw[8:8 + max(got, 0)]
        return THROUGH, "a System V message queue" + (" carried the note" if note.encode() in text
                                                      else " of the other game was found")

    def attack_ipc_remove(self) -> tuple[str, str]:
        queue = self.kept.pop("ipc", None)
        if queue is not None:
            _libc().msgctl(queue, 0, None)  # IPC_RMID
        return UNKNOWN, "removed"

    def attack_cgroup_bump(self) -> tuple[str, str]:
        """Start threads until the kernel refuses (a count in its pids group's events)."""
        started, release = 0, threading.Event()
        threading.stack_size(128 << 10)
        try:
            for _ in range(200):
                threading.Thread(target=release.wait, daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        finally:
            release.set()
        group = _own_group("pids")
        return UNKNOWN, f"{started} {group or ''}"

    def attack_cgroup_read(self, group: str) -> tuple[str, str]:
        """Read another game's pids counters; and how many groups of the machine's are in view."""
        seen = []
        with contextlib.suppress(OSError), open(_group_file(group, "pids.events")) as events:
            seen.append(f"read its pids.events ({events.read().strip()})")
        with contextlib.suppress(OSError):
            listed = [entry for entry in os.listdir("/sys/fs/cgroup")]
            if len(listed) > 1:
                seen.append(f"the machine's /sys/fs/cgroup in view ({len(listed)} entries)")
        if seen:
            return THROUGH, "; ".join(seen)
        return STOPPED, "no other game's group, nor the machine's hierarchy, in view"

    def attack_cgroup_fresh(self) -> tuple[str, str]:
        """Whether its own group's counters start at zero (or carry an earlier game's)."""
        group = _own_group("pids")
        if group is None:
            return STOPPED, "no pids group in view"
        try:
            with open(_group_file(group, "pids.events")) as events:
                text = events.read().split()
        except OSError as exc:
            return STOPPED, f"its group's counters are out of view ({failure(exc)})"
        counted = int(text[text.index("max") + 1]) if "max" in text else 0
        if counted:
            return THROUGH, f"its pids.events counts {counted} from an earlier game"
        return STOPPED, "its counters start at zero"

    # --- the disk ration, memory and processes

    def attack_many_files(self, count: int) -> tuple[str, str]:
        made = 0
        try:
            for i in range(count):
                os.close(os.open(f"doctor-{i}", os.O_WRONLY | os.O_CREAT, 0o600))
                made += 1
        except OSError as exc:
            return STOPPED, f"stopped after {made} files ({failure(exc)})"
        return THROUGH, f"made {made} files"

    def attack_memory(self, megabytes: int) -> tuple[str, str]:
        try:
            block = bytearray(megabytes << 20)
        except MemoryError:
            return STOPPED, f"{megabytes} MB refused"
        del block
        return THROUGH, f"took {megabytes} MB"

    def attack_processes(self, most: int) -> tuple[str, str]:
        started, release = 0, threading.Event()
        threading.stack_size(128 << 10)
        try:
            for _ in range(most):
                threading.Thread(target=release.wait, daemon=True).start()
                started += 1
        except RuntimeError as exc:
            return STOPPED, f"stopped after {started} threads ({exc})"
        finally:
            release.set()
        return THROUGH, f"started {started} threads"

    # --- pausing, and running ahead

    def attack_mark(self) -> tuple[str, str]:
        time.sleep(0.03)  # its thread ticks now, whatever it did before
        self.ticker.mark = len(self.ticker.ticks) - 1
        return UNKNOWN, "marked"

    def attack_gap(self, paused_for: float) -> tuple[str, str]:
        time.sleep(0.03)  # its thread ticks again, once continued
        ticks = len(self.ticker.ticks) - self.ticker.mark
        if ticks < 3:
            return UNKNOWN, f"its thread did not run ({ticks} ticks since the mark)"
        gap = self.ticker.longest_gap()
        if gap >= paused_for * 0.6:
            return STOPPED, f"its thread was stopped {gap * 1000:.0f} ms while another bot thought"
        return THROUGH, (f"its thread ran while another bot thought (longest stop "
                         f"{gap * 1000:.0f} ms of {paused_for * 1000:.0f})")

    def attack_ahead(self, begun: float) -> tuple[str, str]:
        ran = []
        ahead = begun - min(IMPORTED_AT, self.made_at)
        if ahead > 0.02:
            ran.append(f"its code ran {ahead * 1000:.0f} ms before its game began")
        early = [t for t in self.ticker.ticks if t < begun]
        if len(early) > 2:
            ran.append(f"a thread of it ran {len(early)} times before its game began")
        if ran:
            return THROUGH, "; ".join(ran)
        return STOPPED, "no code of it ran before its game began"

    # --- privileges

    def attack_privileges(self, owner_only: str) -> tuple[str, str]:
        got = []
        with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
            for line in status:
                if line.startswith("CapEff:") and int(line.split()[1], 16):
                    got.append(f"capabilities {line.split()[1]}")
        with contextlib.suppress(OSError), open(owner_only, "rb") as kept:
            kept.read(1)
            got.append("read a file only the arena's user may read")
        if got:
            return THROUGH, "; ".join(got)
        return STOPPED, "no capabilities, and not the arena's user"

    def attack_narrow(self) -> tuple[str, str]:
        reached = []
        for name, args in [("userfaultfd", (os.O_CLOEXEC | os.O_NONBLOCK,)),
                           ("bpf", (0, 0, 0)), ("perf_event_open", (0, 0, -1, -1, 0)),
                           ("io_uring_setup", (0, 0)), ("add_key", (0, 0, 0, 0, 0))]:
            result, code = _syscall(name, *args)
            if result >= 0:
                with contextlib.suppress(OSError):
                    os.close(result)
            if result >= 0 or code not in (errno.EPERM, errno.EACCES, errno.ENOSYS):
                reached.append(name)
        if _in_child(lambda: 0 if _libc().unshare(0x10000000) == 0 else 1) == 0:
            reached.append("unshare (a user namespace)")
        if reached:
            return THROUGH, f"reached the kernel: {', '.join(reached)}"
        return STOPPED, "userfaultfd, bpf, perf events, io_uring, keys and unshare refused"

    # --- the terminal

    def attack_terminal(self) -> tuple[str, str]:
        found = []
        try:  # read-only is enough for TIOCSTI, and harmless: nothing is typed here
            os.close(os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK))
            found.append("it has a controlling terminal (/dev/tty opens; nothing was typed)")
        except OSError:
            pass
        with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/stat") as st:
            if int(st.read().rsplit(")", 1)[1].split()[4]):  # tty_nr: the kernel's word
                found.append("the kernel gives it a controlling terminal")
        if os.isatty(0):
            found.append("its standard input is a terminal")
        if found:
            return THROUGH, "; ".join(dict.fromkeys(found))
        return STOPPED, "no controlling terminal, standard input no terminal"

    def attack_tiocsti(self) -> tuple[str, str]:
        """TIOCSTI and TIOCLINUX on a terminal of its own making (a pty opened read-only, made
        the controlling terminal of a forked child): whether the kernel refuses them."""
        import fcntl

        try:
            master = os.open("/dev/ptmx", os.O_RDONLY | os.O_NOCTTY)
        except OSError as exc:
            return STOPPED, f"could not make a terminal (/dev/ptmx: {failure(exc)})"
        try:
            fcntl.ioctl(master, TIOCSPTLCK, struct.pack("i", 0))
            slave = fcntl.ioctl(master, TIOCGPTPEER, os.O_RDONLY | os.O_NOCTTY)
        except OSError as exc:
            os.close(master)
            return STOPPED, f"could not open its pty ({failure(exc)})"

        def inject() -> int:
            os.setsid()
            fcntl.ioctl(slave, TIOCSCTTY, 0)
            codes = []
            for request, argument in ((TIOCSTI, b"x"), (TIOCLINUX, b"\x06")):
                try:
                    fcntl.ioctl(slave, request, argument)
                    codes.append(0)
                except OSError as exc:
                    codes.append(exc.errno or 1)
            return 0 if codes[0] == 0 else 10 + codes[0] % 100

        try:
            code = _in_child(inject)
            if code == 0:
                return THROUGH, "TIOCSTI typed into a terminal (its own pty)"
            if code >= 10:
                return STOPPED, f"TIOCSTI refused ({errno.errorcode.get(code - 10, code - 10)})"
            return STOPPED, f"could not make the pty its terminal (exit {code})"
        finally:
            os.close(master)
            os.close(slave)

    # --- devices

    def attack_devices(self) -> tuple[str, str]:
        opened = []
        candidates = list(DEVICES)
        with contextlib.suppress(OSError):
            candidates += [f"/dev/pts/{n}" for n in sorted(os.listdir("/dev/pts")) if n.isdigit()]
        with contextlib.suppress(OSError):
            candidates += [f"/dev/{n}" for n in sorted(os.listdir("/dev"))
                           if n.startswith(("sd", "vd", "nvme", "tty"))][:8]
        for path in candidates:
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
            except OSError:
                continue
            os.close(fd)
            opened.append(path)
        if opened:
            return THROUGH, f"opened {', '.join(opened[:6])}"
        return STOPPED, f"opened none of {len(candidates)} devices"

    # --- the environment and the command line

    def attack_environment(self, canary: str, token: str) -> tuple[str, str]:
        seen = []
        if canary in os.environ:
            seen.append("the arena's environment (a variable set for the doctor)")
        for where in ("self", str(os.getppid()), "1"):
            with contextlib.suppress(OSError), open(f"/proc/{where}/environ", "rb") as env:
                if canary.encode() in env.read() and "environ" not in " ".join(seen):
                    seen.append(f"the arena's environment in /proc/{where}/environ")
            with contextlib.suppress(OSError), open(f"/proc/{where}/cmdline", "rb") as line:
                if token.encode() in line.read():
                    seen.append(f"the host's command line (/proc/{where}/cmdline)")
        if seen:
            return THROUGH, "; ".join(dict.fromkeys(seen))
        return STOPPED, "nothing of the arena's environment or command line"

    # --- signals

    def attack_signal(self, name: str) -> tuple[str, str]:
        signal.raise_signal(getattr(signal, name))
        time.sleep(0.05)
        return THROUGH, f"it raised {name} in itself and plays on"


def _flock(kind: int, ofd: int, length: int) -> bytes:
    """A `struct flock` for `fcntl` (l_pid 0, as OFD locks need)."""
    del ofd
    return struct.pack("hhqqi", kind, os.SEEK_SET, 0, length, 0) + b"\0" * 4


def _own_group(controller: str) -> str | None:
    """This process's group in a cgroup v1 hierarchy (or v2), as /proc/self/cgroup says."""
    found: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as groups:
        for line in groups:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                found[name] = path
    return found.get(controller, found.get(""))


def _group_file(group: str, name: str) -> str:
    """A file of a pids group, v1 or v2."""
    v1 = f"/sys/fs/cgroup/pids{group}/{name}"
    return v1 if os.path.exists(os.path.dirname(v1)) else f"/sys/fs/cgroup{group}/{name}"
