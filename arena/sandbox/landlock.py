"""Kernel-enforced confinement of a game process with Landlock (Linux 5.13 and later).

The audit hook of `arena.sandbox.host` refuses what Python code asks for, but code that goes around
Python (a native library, the C code of `sqlite3` or shared memory) is not seen by it. Landlock
is enforced by the kernel for a process and everything it starts, needs no privileges, and
cannot be undone: after `confine(folder)`, the process may create, write, remove or rename files
only under `folder` (and write to /dev/null), may neither bind nor connect TCP sockets, and may
neither signal nor reach through an abstract unix socket any process outside its own domain
(the arena, the hosts, other games), as far as the running kernel's Landlock version allows; nor
may it read their memory (Landlock keeps ptrace within a domain).
What may be read is rather a deny-list (what the arena keeps: the run directory, the other bots'
code), which Landlock, an allow-list, expresses as everything around it (`reading_ruleset`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import struct
import sys
from collections.abc import Sequence
from typing import Any

# system call numbers: the same on every architecture (the generic table)
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# filesystem rights (the version of Landlock that brought each), all of them writes
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE_CHAR, _MAKE_DIR, _MAKE_REG, _MAKE_SOCK = 1 << 6, 1 << 7, 1 << 8, 1 << 9
_MAKE_FIFO, _MAKE_BLOCK, _MAKE_SYM = 1 << 10, 1 << 11, 1 << 12
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # versions 2 and 3
_WRITES = (_WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_CHAR | _MAKE_DIR | _MAKE_REG
           | _MAKE_SOCK | _MAKE_FIFO | _MAKE_BLOCK | _MAKE_SYM)
_READ_FILE, _READ_DIR = 1 << 2, 1 << 3  # and reads
_READS = _READ_FILE | _READ_DIR
_TCP = 1 << 0 | 1 << 1  # bind and connect, version 4
_SCOPES = 1 << 0 | 1 << 1  # abstract unix sockets and signals, version 6


def _libc() -> Any:
    if not sys.platform.startswith("linux"):  # the system call numbers are Linux's
        return None
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long  # looked up now, before the lockdown
        return libc
    return None


_LIBC = _libc()  # opened when the host starts, before any bot code runs


def _version() -> int:
    if _LIBC is None:
        return 0
    found = _LIBC.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0),
                          ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(found), 0)


_VERSION = _version()  # asked once, not in every game process


def version() -> int:
    """The Landlock version the running kernel offers (0: none)."""
    return _VERSION


def reading_ruleset(kept: Sequence[str]) -> int | None:
    """A ruleset (its descriptor) under which everything may be read but `kept` (files and
    folders, real paths), for `confine` to apply in the processes that inherit it; None where
    Landlock cannot. Made once (it lists the folders on the way to what is kept), in the
    process that forks the confined ones; what appears later in those folders is not readable.
    """
    if _VERSION < 1 or _LIBC is None:
        return None
    kept = {os.path.realpath(path) for path in kept if os.path.lexists(path)}
    if not kept:
        return None
    attr = struct.pack("QQQ", _READS, 0, 0)[:_attr_size(_VERSION)]
    ruleset = _syscall(_CREATE_RULESET, attr, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    try:
        for path, rights in _around(kept):
            with contextlib.suppress(OSError):  # gone meanwhile, or not ours to open
                _allow(ruleset, path, rights, follow=False)
    except BaseException:
        os.close(ruleset)
        raise
    return ruleset


def _around(kept: set[str]) -> list[tuple[str, int]]:
    """Rules that let everything but `kept` be read: each folder on the way to what is kept may
    be listed (with what is below it: names are no secret), each of its other entries read."""
    found: list[tuple[str, int]] = []

    def visit(folder: str) -> None:
        found.append((folder, _READ_DIR))
        with os.scandir(folder) as entries:
            for entry in entries:
                path = os.path.join(folder, entry.name)
                if path in kept:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if any(k.startswith(path + os.sep) for k in kept):
                        visit(path)
                    else:
                        found.append((path, _READS))
                else:
                    found.append((path, _READ_FILE))

    visit("/")
    return found


def _attr_size(abi: int) -> int:
    return 24 if abi >= 6 else 16 if abi >= 4 else 8


def confine(folder: str, reads: int | None = None) -> int:
    """Confine this process for good (see the module docstring), and to what `reads` (a
    `reading_ruleset`) lets it read, if given; the Landlock version used, or 0 if the kernel
    offers none (nothing is then confined). Call it once, then `forget()`."""
    abi = _VERSION
    if abi < 1 or _LIBC is None:
        return 0
    fs = _WRITES | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
    net = _TCP if abi >= 4 else 0
    scoped = _SCOPES if abi >= 6 else 0
    attr = struct.pack("QQQ", fs, net, scoped)[:_attr_size(abi)]
    ruleset = _syscall(_CREATE_RULESET, attr, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    try:
        _allow(ruleset, folder, fs)
        _allow(ruleset, os.devnull, _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0))
        if _LIBC.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if reads is not None:  # a layer of its own: an access must pass every layer
            _syscall(_RESTRICT_SELF, ctypes.c_int(reads), ctypes.c_uint32(0))
        _syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)
    return abi


def forget() -> None:
    """Drop this module's handle on the C library, so that bot code cannot call through it."""
    global _LIBC
    _LIBC = None


def _allow(ruleset: int, path: str, rights: int, follow: bool = True) -> None:
    # not following a symbolic link: a rule for the link's target would let what it points to
    # (kept, maybe) be read
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW))
    try:
        beneath = struct.pack("=Qi", rights, fd)  # struct landlock_path_beneath_attr, packed
        _syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), beneath,
                 ctypes.c_uint32(0))
    finally:
        os.close(fd)


def _syscall(number: int, *args: Any) -> int:
    result = int(_LIBC.syscall(ctypes.c_long(number), *args))
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"landlock system call {number}: {os.strerror(errno)}")
    return result
