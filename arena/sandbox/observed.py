"""What a game process sees of its own confinement, observed from inside when the arena asks how it
is confined (`arena doctor`, the run's log, `arena validate`): each mechanism of issue 27 that
keeps a promise, looked at rather than assumed. Harmless: every check is made on something of the
process's own (its /dev/null, a momentary lock on a library file), and nothing is left behind."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import socket
import struct

ARENA_UID = os.getuid()  # the arena's user, read in the host before any game is forked
TIOCSTI = 0x5412
F_OFD_GETLK, F_OFD_SETLK = 36, 37
_MACHINE_DEVICES = ("kvm", "userfaultfd", "mem", "kmsg", "tty0", "net", "sda", "vda", "nvme0")


def observed() -> dict[str, bool]:
    """The mechanisms this game process is confined by, as it sees them (see
    `arena.sandbox.promises.assess_promises` for what each keeps)."""
    return {"no_terminal": _no_terminal(), "ioctl_filtered": _ioctl_filtered(),
            "private_dev": _private_dev(), "unprivileged_id": _unprivileged_id(),
            "socket_families_filtered": _families_filtered(), "locks_refused": _locks_refused(),
            "cgroup_namespace": _cgroup_namespace(), "empty_environment": not os.environ}


def _no_terminal() -> bool:
    """No controlling terminal (the kernel's word: field 7 of /proc/self/stat, 0 for none), and
    none to be had: no session's leader may take one, and it leads none."""
    try:
        with open("/proc/self/stat") as stat:
            terminal = int(stat.read().rsplit(")", 1)[1].split()[4])
    except (OSError, ValueError, IndexError):
        return False
    return terminal == 0 and os.getsid(0) != os.getpid()


def _ioctl_filtered() -> bool:
    """TIOCSTI refused by the filter (EPERM), not by the device (/dev/null: ENOTTY)."""
    try:
        fcntl.ioctl(0, TIOCSTI, b" ")
    except OSError as exc:
        return exc.errno == errno.EPERM
    return False


def _private_dev() -> bool:
    """No device of the machine's in its /dev, and every other mount `nodev`."""
    if any(os.path.exists(f"/dev/{name}") for name in _MACHINE_DEVICES):
        return False
    try:
        with open("/proc/self/mountinfo") as mounts:
            for line in mounts:
                fields = line.split()
                point, options = fields[4], fields[5].split(",")
                if point != "/dev" and not point.startswith("/dev/") and "nodev" not in options:
                    return False
    except OSError:
        return False
    return True


def _unprivileged_id() -> bool:
    """Its user, outside its user namespace, is neither root nor the arena's user."""
    try:
        with open("/proc/self/uid_map") as mapping:
            for line in mapping:
                inside, outside, count = (int(word) for word in line.split())
                if inside <= os.getuid() < inside + count:
                    return outside + os.getuid() - inside not in (0, ARENA_UID)
    except (OSError, ValueError):
        pass
    return False


def _families_filtered() -> bool:
    """A netlink socket refused (as every family but unix socket pairs)."""
    try:
        socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 2).close()
    except OSError:
        return True
    return False


def _locks_refused() -> bool:
    """No lock taken on a file is seen through another open file of it (flock, OFD locks)."""
    path = os.__file__
    try:
        one, two = os.open(path, os.O_RDONLY), os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        seen = False
        with contextlib.suppress(OSError):
            fcntl.flock(one, fcntl.LOCK_EX | fcntl.LOCK_NB)
            try:
                fcntl.flock(two, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                seen = True
        lock = struct.pack("hhqqi", fcntl.F_RDLCK, os.SEEK_SET, 0, 1, 0) + b"\0" * 4
        with contextlib.suppress(OSError):
            fcntl.fcntl(one, F_OFD_SETLK, lock)
            asked = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, 0, 1, 0) + b"\0" * 4
            answer = fcntl.fcntl(two, F_OFD_GETLK, asked)
            seen = seen or struct.unpack_from("h", answer)[0] == fcntl.F_RDLCK
        return not seen
    finally:
        os.close(one)
        os.close(two)


def _cgroup_namespace() -> bool:
    """Its groups are the roots of what it sees (a cgroup namespace rooted at them)."""
    try:
        with open("/proc/self/cgroup") as groups:
            return all(line.rstrip("\n").endswith(":/") for line in groups)
    except OSError:
        return False
