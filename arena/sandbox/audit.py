"""The audit hook of a game process, a tripwire: what a bot has no business doing, refused with a
clear `PermissionError` (`sandbox: writing to '/etc/x' is not allowed`) rather than whatever the
kernel answers, and, where the kernel offers nothing, refused at all (see docs/sandbox.md). A bot
can get around it (its lists are Python objects); where the kernel keeps the sandbox's promises
nothing rests on it. Set up by `arena.sandbox.host` in every game process (`guard`), before any
of the bot's code runs.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import os
import signal
import site
import sys
from collections.abc import Sequence
from typing import Any

GAME_FILE_BYTES = 16 << 20
"""The largest file a game process may write (in its own directory, the only place it may)."""

GAME_ENTRIES = 32
"""How many files and folders a game process may make: with `GAME_FILE_BYTES`, a game writes at
most 512 MB, removed after it."""

HOME_PREFIX = "arena-bot-"
"""A host's directory for its games is HOME_PREFIX, its process id, '-' and a random name."""

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_FORBIDDEN = frozenset({
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "subprocess.Popen", "pty.spawn", "os.kill", "os.killpg", "signal.pthread_kill",
    "ctypes.dlopen", "ctypes.dlsym", "socket.connect", "socket.bind", "socket.sendto",
    "socket.sendmsg", "os.setuid",
})
_LISTING = frozenset({"os.listdir", "os.scandir"})
_OWN_PROCESS = frozenset({"resource.prlimit"})  # events allowed for this process only
_NATIVE = tuple(importlib.machinery.EXTENSION_SUFFIXES)  # extension modules: native code


def _installed() -> tuple[str, ...]:
    """Where Python and the packages installed for it live: the only places a game process may
    load native code (an extension module) from."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             *site.getsitepackages()}
    if site.ENABLE_USER_SITE:
        roots.add(site.getusersitepackages())
    return tuple(os.path.join(os.path.realpath(root), "") for root in sorted(roots))


_INSTALLED = _installed()
_SCHEDULING = ("sched_setaffinity", "sched_setscheduler", "sched_setparam", "setpriority")
_MAKING = {"os.mkdir": 0, "os.symlink": 1, "os.link": 1}  # events that make an entry: its path
_PATH_EVENTS = {  # events that change the file system: how many of their first arguments are paths
    "os.remove": 1, "os.rename": 2, "os.rmdir": 1, "os.mkdir": 1, "os.chmod": 1, "os.chown": 1,
    "os.link": 2, "os.symlink": 2, "os.truncate": 1, "os.utime": 1, "os.chdir": 1,
    "shutil.rmtree": 1, "os.setxattr": 1, "os.removexattr": 1,
}


with contextlib.suppress(ImportError):  # imported here, not in every game process
    import _posixshmem  # noqa: F401


def guard(workdir: str, private: Sequence[str] = ()) -> None:
    """Refuse, from now on, what a bot has no business doing (see the module docstring)."""
    home = workdir + os.sep  # already a real path (see `_Host.ask`)
    # where the games of every sandboxed bot have their directories, each host its own (one may
    # outlive its game a little, and another bot's may hold what it wrote in its game)
    homes = os.path.join(os.path.dirname(os.path.dirname(workdir)), HOME_PREFIX)
    # what the arena keeps to itself: the run directory (records, logs, the run's key), the
    # other bots' files
    kept = tuple(os.path.join(folder, "") for folder in private)
    own = str(os.getpid())

    def real(path: Any) -> str | None:
        """Where `path` leads from this process's directory; None if it cannot be told. A
        relative path that climbs ("..") cannot: it may be meant from a directory descriptor
        (`dir_fd`, which audit events do not show) deeper down than the working directory."""
        try:
            text = os.fsdecode(path)
            if not os.path.isabs(text) and ".." in text.split(os.sep):
                return None
            return os.path.realpath(text)
        except (TypeError, ValueError):
            return None

    def inside(where: str | None) -> bool:
        return where is not None and (where.startswith(home) or where == os.devnull)

    def unreadable(where: str | None) -> bool:
        """Whether `where` may not be read or listed: another game's directory (this bot's or
        another's), what the arena keeps, or another process's files in /proc (its memory, its
        environment)."""
        if where is None:
            return True
        folder = where + os.sep
        if folder.startswith(homes) and not folder.startswith(home):
            return True
        if folder.startswith(kept):
            return True
        if where.startswith("/proc/"):
            process = where[6:].split("/", 1)[0]
            return process.isdigit() and process != own
        return False

    watched = _FORBIDDEN | _PATH_EVENTS.keys() | _LISTING | _OWN_PROCESS | {
        "open", "sqlite3.connect", "import"}
    made = 0  # files and folders this game has made (see GAME_ENTRIES)

    def making(where: str | None) -> None:
        nonlocal made
        if where is not None and not os.path.lexists(where):
            made += 1
            if made > GAME_ENTRIES:
                raise PermissionError(f"sandbox: a game may make at most {GAME_ENTRIES} files "
                                      "and folders")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event not in watched:
            return
        if event == "open":
            path, mode, flags = args
            if isinstance(path, int):
                return  # an already open descriptor
            where = real(path)
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing:
                if not inside(where):
                    raise PermissionError(f"sandbox: writing to {path!r} is not allowed")
                making(where)
            if unreadable(where):
                raise PermissionError(f"sandbox: reading {path!r} is not allowed")
            if where is not None and not (where + os.sep).startswith(home) \
                    and os.path.isdir(where):
                # a descriptor of a directory outside would make paths relative to it
                # (`dir_fd`) reach what the checks above judge by other paths
                raise PermissionError(f"sandbox: opening the directory {path!r} is not allowed")
        elif event in _LISTING:
            path = args[0] if args else None
            if path is not None and not isinstance(path, int) and unreadable(real(path)):
                raise PermissionError(f"sandbox: listing {path!r} is not allowed")
        elif event in _FORBIDDEN:
            raise PermissionError(f"sandbox: {event} is not allowed")
        elif event in _OWN_PROCESS:
            if args[0] not in (0, os.getpid()):
                raise PermissionError(f"sandbox: {event} of another process is not allowed")
        elif event == "import":
            filename = args[1] if len(args) > 1 else None
            if isinstance(filename, str) and filename.endswith(_NATIVE):
                where = real(filename)
                if where is None or not where.startswith(_INSTALLED):
                    raise PermissionError(f"sandbox: loading native code from {filename!r} is "
                                          "not allowed (only from installed packages)")
        elif event == "sqlite3.connect":
            database = os.fsdecode(args[0]) if isinstance(args[0], str | bytes) else args[0]
            if isinstance(database, str) and database.startswith("file:"):  # a URI
                database = database[5:].split("?", 1)[0] or ":memory:"
            if database not in ("", ":memory:") and not inside(real(database)):
                raise PermissionError(f"sandbox: a database at {args[0]!r} is not allowed")
        elif event in _PATH_EVENTS:
            paths = args[:_PATH_EVENTS[event]]
            if not all(isinstance(a, int) or inside(real(a)) for a in paths if a is not None):
                raise PermissionError(f"sandbox: {event} outside the bot's directory is not "
                                      "allowed")
            if event in _MAKING:
                making(real(args[_MAKING[event]]))

    sys.addaudithook(hook)
    global _INSIDE
    _INSIDE = lambda path: inside(real(path))  # noqa: E731
    _refuse_unaudited()


def _refuse_unaudited() -> None:
    """Refuse what Python raises no audit event for: making special files outside the game's
    directory, shared memory, signals through a pidfd, leaving the game's process group, and
    changing how another process is scheduled (its CPUs, its priority: a place to leave a note
    for the next game). Landlock, where the kernel has it, refuses the first three too, for
    native code as well."""
    for module, name, replacement in _UNAUDITED:
        setattr(module, name, replacement)


def _unaudited() -> list[tuple[Any, str, Any]]:
    """The replacements `_refuse_unaudited` makes: (module, name, function); made once, in the
    host, for every game process to use."""
    import posix

    def only_inside(name: str) -> Any:
        original = getattr(os, name)

        def making(path: Any, *args: Any, **kwargs: Any) -> Any:
            if _INSIDE is None or not _INSIDE(path):
                raise PermissionError(f"sandbox: os.{name} outside the bot's directory is not "
                                      "allowed")
            return original(path, *args, **kwargs)

        return making

    def own_process_only(name: str) -> Any:
        original = getattr(os, name)

        def scheduling(pid: int, *args: Any, **kwargs: Any) -> Any:
            target = args[0] if name == "setpriority" and args else pid
            if target not in (0, os.getpid()):
                raise PermissionError(f"sandbox: os.{name} of another process is not allowed")
            return original(pid, *args, **kwargs)

        return scheduling

    def refused(name: str) -> Any:
        def refusing(*args: Any, **kwargs: Any) -> Any:
            raise PermissionError(f"sandbox: {name} is not allowed")

        return refusing

    made = [(name, only_inside(name)) for name in ("mkfifo", "mknod") if hasattr(os, name)]
    made += [(name, own_process_only(name)) for name in _SCHEDULING if hasattr(os, name)]
    replacements = [(module, name, function) for name, function in made
                    for module in (os, posix)]
    # a game process that left its process group would outlive the arena's killing it
    replacements += [(module, name, refused(f"os.{name}")) for name in ("setpgid", "setsid")
                     for module in (os, posix)]
    if hasattr(signal, "pidfd_send_signal"):
        replacements.append((signal, "pidfd_send_signal", refused("signal.pidfd_send_signal")))
    if "_posixshmem" in sys.modules:
        shared_memory = sys.modules["_posixshmem"]
        replacements += [(shared_memory, name, refused(f"_posixshmem.{name}"))
                         for name in ("shm_open", "shm_unlink")]
    return replacements


_UNAUDITED = _unaudited()
_INSIDE: Any = None  # whether a path is inside the game's directory (set by `guard`)
