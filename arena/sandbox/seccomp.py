"""A seccomp filter for game processes: the system calls a bot has no use for, and that widen what
of the kernel it can reach, fail (Linux, x86_64 and aarch64).

Namespaces and control groups confine a game; what is left is the kernel's own interface. This
filter narrows it as container runtimes' default profiles do: no new namespaces (a user namespace
would give back capabilities over it, the commonest way into the kernel's less-trodden code),
no `mount` and its relatives, no `ptrace` or reading other processes' memory, no keyrings, BPF,
perf events, `userfaultfd` or io_uring, no loading kernel modules. Each fails with EPERM
(`clone3`, whose flags a filter cannot read, with ENOSYS, so that the C library falls back to
`clone`, whose flags it can).

What could carry a note from one game to another, or reach outside the game, is refused too,
by allow-lists where the kernel multiplexes many things behind one call: `socket` whatever its
family (netlink, packet, vsock, IP, unix: a game keeps the socket the arena gave it) and
`socketpair` but for AF_UNIX (`SOCKET_FAMILIES`); `ioctl` but for a few harmless commands
(`IOCTLS`: TIOCSTI, which types into a terminal, and TIOCLINUX are refused whatever else holds);
`fcntl` but for descriptor flags, duplication, pipe sizes and seals (`FCNTLS`: no file locks,
leases or directory notifications; a lock, and `flock`, succeeds and locks nothing), since a lock
on a file every game can open is seen by every game; inotify and fanotify, which would see
another game open a shared file. Applied once per game process, before any of the bot's code
runs, for good: it is inherited by everything the game starts.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct
from typing import Any

from arena.sandbox import namespaces

_ARCHES = {  # the audit architecture, the numbers of the system calls refused, and of those
    # whose arguments are looked at: clone, clone3, seccomp, and `_ARGUMENTS`' ones
    "x86_64": (0xC000003E, {
        "ptrace": 101, "syslog": 103, "acct": 163, "mount": 165, "umount2": 166,
        "pivot_root": 155, "swapon": 167, "swapoff": 168, "reboot": 169, "init_module": 175,
        "delete_module": 176, "kexec_load": 246, "add_key": 248, "request_key": 249,
        "keyctl": 250, "unshare": 272, "perf_event_open": 298, "name_to_handle_at": 303,
        "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310,
        "process_vm_writev": 311, "finit_module": 313, "bpf": 321, "userfaultfd": 323,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
        "fspick": 433, "mount_setattr": 442, "socket": 41, "inotify_init": 253,
        "inotify_init1": 294, "inotify_add_watch": 254, "fanotify_init": 300,
        "fanotify_mark": 301, "pidfd_open": 434}, 56, 435, 317,
        {"ioctl": 16, "fcntl": 72, "flock": 73, "socketpair": 53, "kill": 62,
         "rt_sigqueueinfo": 129, "tgkill": 234, "rt_tgsigqueueinfo": 297, "tkill": 200,
         "pidfd_send_signal": 424}),
    "aarch64": (0xC00000B7, {
        "ptrace": 117, "syslog": 116, "acct": 89, "mount": 40, "umount2": 39,
        "pivot_root": 41, "swapon": 224, "swapoff": 225, "reboot": 142, "init_module": 105,
        "delete_module": 106, "kexec_load": 104, "add_key": 217, "request_key": 218,
        "keyctl": 219, "unshare": 97, "perf_event_open": 241, "name_to_handle_at": 264,
        "open_by_handle_at": 265, "setns": 268, "process_vm_readv": 270,
        "process_vm_writev": 271, "finit_module": 273, "bpf": 280, "userfaultfd": 282,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
        "fspick": 433, "mount_setattr": 442, "socket": 198, "inotify_init1": 26,
        "inotify_add_watch": 27, "fanotify_init": 262, "fanotify_mark": 263,
        "pidfd_open": 434}, 220, 435, 277,
        {"ioctl": 29, "fcntl": 25, "flock": 32, "socketpair": 199, "kill": 129,
         "rt_sigqueueinfo": 138, "tgkill": 131, "rt_tgsigqueueinfo": 240, "tkill": 130,
         "pidfd_send_signal": 424}),
}
_COUNTED = {  # what takes a number from a counter the whole machine shares (`COUNTED`)
    "x86_64": {"pipe": 22, "pipe2": 293, "socketpair": 53, "memfd_create": 319, "shmget": 29},
    "aarch64": {"pipe2": 59, "socketpair": 199, "memfd_create": 279, "shmget": 194},
}

COUNTED = tuple(sorted(_COUNTED["x86_64"]))
"""The system calls that refused to a Python bot's game process (`filter_program(counted=
False)`), because each object they make takes an inode number from the kernel's one counter
(`get_next_ino`, shared by every process of the machine): a game that makes pipes until the
number's low bits spell a symbol leaves a note that the next game reads from the number of a
pipe of its own (issue 38). A Python bot needs none of them (it is given its socket; it starts
no process); a program's runtime may (libuv, the JVM), so a program keeps them (see
docs/sandbox.md, What games share: an exclusion, measured)."""

REFUSED = tuple(sorted(next(iter(_ARCHES.values()))[1]))
"""The system calls a game process may not make (and `clone` with namespace flags, `clone3`; and
see `IOCTLS`, `FCNTLS`, `SOCKET_FAMILIES`)."""

TIOCSTI, TIOCLINUX = 0x5412, 0x541C  # typing into a terminal; the Linux console's own commands
IOCTLS = {"TCGETS": 0x5401, "TIOCGWINSZ": 0x5413, "FIONREAD": 0x541B, "FIONBIO": 0x5421,
          "FIONCLEX": 0x5450, "FIOCLEX": 0x5451}
"""The `ioctl` commands a game process may use (an allow-list: whether a descriptor is a terminal,
and its size; bytes waiting; blocking; close-on-exec). Any other fails with ENOTTY, as on a
descriptor that does not know it; TIOCSTI and TIOCLINUX with EPERM."""

FCNTLS = {"F_DUPFD": 0, "F_GETFD": 1, "F_SETFD": 2, "F_GETFL": 3, "F_SETFL": 4,
          "F_DUPFD_CLOEXEC": 1030, "F_SETPIPE_SZ": 1031, "F_GETPIPE_SZ": 1032,
          "F_ADD_SEALS": 1033, "F_GET_SEALS": 1034}
"""The `fcntl` commands a game process may use (an allow-list). File locks (`F_SETLK`, `F_GETLK`,
their OFD forms, and `flock`) succeed and do nothing (the filter answers 0 without making the
call): a lock on a file every game can open (the Python library's own, /dev/null) would be seen
from another game, and a failing lock would break what locks its own files (SQLite). Leases,
directory notifications (`F_NOTIFY`), signal owners and anything else fail with EINVAL."""

_LOCKS = (5, 6, 7, 36, 37, 38)  # F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, _SETLK, _SETLKW

SOCKET_FAMILIES = {"AF_UNIX": 1}
"""The families of `socketpair` a game process may use (an allow-list); `socket` is refused
whatever its family: a game has the socket the arena gave it and makes none that could reach
anything (netlink, packet, vsock, IP and unix sockets alike)."""

UNIGNORABLE = {"SIGKILL": 9, "SIGSTOP": 19, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGBUS": 7,
               "SIGFPE": 8, "SIGSEGV": 11, "SIGSYS": 31}
"""The signals a game process (process 1 of its PID namespace, whose own signals the kernel
ignores when it has no handler) cannot end itself with otherwise: those no handler can catch,
and the faults' and `abort()`'s (whose handlers, Python's `faulthandler` say, end by sending the
signal again; a bot may have reset them to their default, which process 1 ignores).
One of them sent by the game process to itself (`kill` of process 1 or of its own process group
(0), `tgkill`, `rt_sigqueueinfo` or `rt_tgsigqueueinfo` of process 1) ends the process that sent
it, at once, as the kernel ends any process that is not an init (its status: killed by SIGSYS;
the arena reports a crash). `tkill` and `pidfd_send_signal`, whose target a filter cannot tell,
fail with ENOSYS, as on a kernel without them (`kill` and `tgkill` are what the C library
uses). The same numbers on x86_64 and aarch64."""

_NAMESPACE_FLAGS = (namespaces.CLONE_NEWNS | namespaces.CLONE_NEWIPC | namespaces.CLONE_NEWUSER
                    | namespaces.CLONE_NEWPID | namespaces.CLONE_NEWNET
                    | 0x02000000 | 0x04000000 | 0x00000080  # CLONE_NEWCGROUP, _NEWUTS, _NEWTIME
                    | 0x00001000)  # CLONE_PIDFD: a pidfd's inode number counts every process
# the machine has made (as `pidfd_open`'s, refused)
_X32 = 0x40000000  # x86_64's x32 system calls: refused whole
_LOAD, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO, _KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
_ARG0, _ARG1, _ARG2 = 16, 24, 32  # offsets of the low 32 bits of the first three arguments
_PR_SET_NO_NEW_PRIVS = 38
_SET_MODE_FILTER, _FLAG_SPEC_ALLOW = 1, 4


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def filter_program(machine: str | None = None, counted: bool = True) -> bytes | None:
    """The filter as classic BPF instructions (8 bytes each), for this machine's architecture
    (or `machine`'s); None where there is none. Without `counted`, the `COUNTED` calls are
    refused too (a Python bot's games)."""
    found = _ARCHES.get(machine or platform.machine())
    if found is None:
        return None
    arch, refused, clone, clone3, _, looked_at = found
    if not counted:
        refused = {**refused, **_COUNTED[machine or platform.machine()]}
    # (code, jump if true: label or 0, jump if false: label or 0, k); labels resolved below
    code: list[tuple[int, Any, Any, int]] = [(_LOAD, 0, 0, 4), (_JEQ, 0, "eperm", arch),
                                             (_LOAD, 0, 0, 0)]
    if arch == _ARCHES["x86_64"][0]:
        code.append((_JGE, "eperm", 0, _X32))
    code += [(_JEQ, "eperm", 0, number) for number in sorted(refused.values())]
    code += [(_JEQ, "enosys", 0, clone3), (_JEQ, "clone", 0, clone),
             (_JEQ, "ioctl", 0, looked_at["ioctl"]), (_JEQ, "fcntl", 0, looked_at["fcntl"]),
             (_JEQ, "pretend", 0, looked_at["flock"]),
             (_JEQ, "socketpair", 0, looked_at["socketpair"]),
             (_JEQ, "kill", 0, looked_at["kill"]), (_JEQ, "kill", 0, looked_at["rt_sigqueueinfo"]),
             (_JEQ, "tgkill", 0, looked_at["tgkill"]),
             (_JEQ, "tgkill", 0, looked_at["rt_tgsigqueueinfo"]),
             (_JEQ, "enosys", 0, looked_at["tkill"]),
             (_JEQ, "enosys", 0, looked_at["pidfd_send_signal"]), (_RET, 0, 0, _ALLOW)]
    labels = {"clone": len(code)}
    code += [(_LOAD, 0, 0, _ARG0), (_JSET, "eperm", 0, _NAMESPACE_FLAGS), (_RET, 0, 0, _ALLOW)]
    # ioctl and fcntl take their command as an unsigned int: its low 32 bits are all it is
    labels["ioctl"] = len(code)
    code.append((_LOAD, 0, 0, _ARG1))
    code += [(_JEQ, "allow", 0, command) for command in sorted(IOCTLS.values())]
    code += [(_JEQ, "eperm", 0, TIOCSTI), (_JEQ, "eperm", 0, TIOCLINUX),
             (_RET, 0, 0, _ERRNO | errno.ENOTTY)]
    labels["fcntl"] = len(code)
    code.append((_LOAD, 0, 0, _ARG1))
    code += [(_JEQ, "allow", 0, command) for command in sorted(FCNTLS.values())]
    code += [(_JEQ, "pretend", 0, command) for command in _LOCKS]
    code.append((_RET, 0, 0, _ERRNO | errno.EINVAL))
    labels["socketpair"] = len(code)
    code.append((_LOAD, 0, 0, _ARG0))
    code += [(_JEQ, "allow", 0, family) for family in sorted(SOCKET_FAMILIES.values())]
    code.append((_RET, 0, 0, _ERRNO | errno.EAFNOSUPPORT))
    # a signal to process 1 (or to the caller's process group, for `kill`: pid 0), its number
    # the second argument (`kill`, `rt_sigqueueinfo`) or the third (`tgkill`, its queueing twin)
    for name, where in (("kill", _ARG1), ("tgkill", _ARG2)):
        labels[name] = len(code)
        code.append((_LOAD, 0, 0, _ARG0))
        if name == "kill":
            code.append((_JEQ, f"{name}_signal", 0, 0))
        code += [(_JEQ, f"{name}_signal", "allow", 1)]
        labels[f"{name}_signal"] = len(code)
        code.append((_LOAD, 0, 0, where))
        code += [(_JEQ, "kill_process", 0, number) for number in sorted(UNIGNORABLE.values())]
        code.append((_RET, 0, 0, _ALLOW))
    for label, action in (("allow", _ALLOW), ("eperm", _ERRNO | errno.EPERM),
                          ("enosys", _ERRNO | errno.ENOSYS), ("pretend", _ERRNO | 0),
                          ("kill_process", _KILL_PROCESS)):
        labels[label] = len(code)
        code.append((_RET, 0, 0, action))

    def offset(at: int, target: Any) -> int:
        return 0 if target == 0 else labels[target] - at - 1

    return b"".join(struct.pack("=HBBI", op, offset(at, yes), offset(at, no), k)
                    for at, (op, yes, no, k) in enumerate(code))


_PROGRAM = filter_program()  # made once in the host, applied in every game process
_UNCOUNTED = filter_program(counted=False)  # a Python bot's
_SECCOMP = _ARCHES[platform.machine()][4] if _PROGRAM is not None else None


def available() -> bool:
    """Whether game processes are filtered on this machine's architecture."""
    return _PROGRAM is not None


def _made(program: bytes | None) -> tuple[Any, Any]:
    """The filter as the kernel takes it (its buffer, kept alive, and its header), or Nones."""
    if program is None:
        return None, None
    buffer = ctypes.create_string_buffer(program, len(program))
    return buffer, _Program(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))


_BUFFER, _FPROG = _made(_PROGRAM)  # made once in the host, for every game process
_UNCOUNTED_BUFFER, _UNCOUNTED_FPROG = _made(_UNCOUNTED)


def apply(counted: bool = True) -> bool:
    """Filter this process and all it will start, for good (without `counted`: no `COUNTED`
    calls either); False if it could not be."""
    libc, fprog = namespaces.libc(), _FPROG if counted else _UNCOUNTED_FPROG
    if libc is None or fprog is None:
        return False
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    # without SPEC_ALLOW, a filter turns on the speculative store bypass mitigation for the
    # process, which slows all it runs (the filter cost 0.56 ms a game with it, 0.28 without);
    # it guards code from other code in its own process, which a game process has none of
    return libc.syscall(ctypes.c_long(_SECCOMP), _SET_MODE_FILTER, _FLAG_SPEC_ALLOW,
                        ctypes.byref(fprog)) == 0
