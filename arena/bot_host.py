"""The bot side of the sandbox: a host process that forks a fresh, locked-down process for every
game of one bot. Started by `arena.sandbox.BotHost`; never imported by the engine.

    python -m arena.bot_host CONTROL_FD SETTINGS_JSON

A game process runs in its own process group in a fresh temporary directory, with an
address-space limit, no other open files, and behind an audit hook that refuses writes outside
its directory, new processes, signals, sockets and native libraries. Only then does it import the
bot (a trusted, bundled bot is imported once by the host instead, for speed), so none of an
untrusted bot's code ever runs unconfined. It gets only what the arena sends it (pickled
observations) and answers in JSON, which the arena parses without running anything of the bot's.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import operator
import os
import pickle
import resource
import selectors
import shutil
import signal
import socket
import sys
import tempfile
from multiprocessing.connection import Connection
from typing import Any

from arena.engine import all_games
from arena.loader import BotSpec, by_target, resolve_bot

_PR_SET_PDEATHSIG = 1
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_FORBIDDEN = frozenset({
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "subprocess.Popen", "pty.spawn", "os.kill", "os.killpg", "signal.pthread_kill",
    "ctypes.dlopen", "ctypes.dlsym", "socket.connect", "socket.bind", "os.setuid",
})
_PATH_EVENTS = frozenset({
    "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.link",
    "os.symlink", "os.truncate", "os.utime", "os.chdir", "shutil.rmtree",
})


def _libc() -> Any:
    with contextlib.suppress(OSError):
        return ctypes.CDLL(None, use_errno=True)
    return None


_LIBC = _libc()  # opened once, before any bot code runs


def die_with_parent() -> None:
    """Have the kernel kill this process when the process that started it ends (Linux)."""
    with contextlib.suppress(AttributeError):
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def main(argv: list[str]) -> int:
    """Serve games for one bot until the arena closes the control socket.

    One game process is always forked ahead, locked down and waiting, so that a game starts
    without waiting for a fork: on each request the host hands the arena that process's socket.
    """
    die_with_parent()
    settings: dict[str, Any] = json.loads(argv[2])
    spec = resolve_bot(settings["spec"], settings["game"]) if settings.get("trusted") else None
    settings["spec"] = by_target(settings["spec"])  # games then import the module directly
    all_games()  # the arena's own game modules (trusted), imported once here rather than per game
    gc.freeze()  # keep the collector from touching (and so copying) the host's objects in games
    control = socket.socket(fileno=int(argv[1]))
    log = open(settings["log"], "ab") if settings.get("log") else None  # noqa: SIM115
    cap = int(settings.get("output_bytes", 65536))
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, None)
    outputs: dict[int, int] = {}  # output pipe -> bytes logged for that game
    children: dict[int, str] = {}  # game process -> its directory
    ready = _fork_game(spec, settings, selector, outputs, children)
    try:
        while True:
            for key, _ in selector.select(timeout=0.5):
                if key.data is not None:
                    _drain(key.fd, selector, outputs, log, cap)
                    continue
                try:
                    request = control.recv(16)
                    if request:
                        socket.send_fds(control, [b"game"], [ready.fileno()])
                except OSError:
                    request = b""
                if not request:
                    return 0
                ready.close()
                ready = _fork_game(spec, settings, selector, outputs, children)
            _reap(children, log)
    finally:
        for pid in children:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        _reap(children, log)
        if log is not None:
            log.close()


def _fork_game(spec: BotSpec | None, settings: dict[str, Any], selector: selectors.BaseSelector,
               outputs: dict[int, int], children: dict[int, str]) -> socket.socket:
    """Fork the process of the next game; returns the arena's end of its socket."""
    ours, theirs = socket.socketpair()
    read_end, write_end = os.pipe()
    workdir = tempfile.mkdtemp(prefix="arena-bot-")
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the game process
        try:
            ours.close()
            os.close(read_end)
            _play_one_game(spec, theirs.detach(), write_end, workdir, settings)
        finally:
            os._exit(0)
    theirs.close()
    os.close(write_end)
    children[pid] = workdir
    outputs[read_end] = 0
    selector.register(read_end, selectors.EVENT_READ, "output")
    return ours


def _drain(fd: int, selector: selectors.BaseSelector, outputs: dict[int, int],
           log: Any, cap: int) -> None:
    """Copy a game's output to the bot's log, up to `cap` bytes per game."""
    data = os.read(fd, 65536)
    if not data:
        selector.unregister(fd)
        os.close(fd)
        del outputs[fd]
        return
    room = cap - outputs[fd]
    if log is not None and room > 0:
        log.write(data[:room])
        if len(data) > room:
            log.write(b"\n[output truncated at %d bytes]\n" % cap)
        log.flush()
    outputs[fd] += len(data)


def _reap(children: dict[int, str], log: Any) -> None:
    """Collect ended game processes: kill what they left behind, remove their directories."""
    for pid in list(children):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done, status = pid, 0
        if done:
            shutil.rmtree(children.pop(pid), ignore_errors=True)
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)  # anything the game process left behind
            if log is not None and status != 0:
                code = os.waitstatus_to_exitcode(status)
                how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
                log.write(f"[game process {pid} {how}]\n".encode())
                log.flush()


def _play_one_game(spec: BotSpec | None, game_fd: int, output_fd: int, workdir: str,
                   settings: dict[str, Any]) -> None:
    """Lock this process down, then answer the arena's messages for one game."""
    os.setpgid(0, 0)
    die_with_parent()
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd in {int(name) for name in os.listdir("/proc/self/fd")} - {0, 1, 2, game_fd}:
        with contextlib.suppress(OSError):
            os.close(fd)
    os.chdir(workdir)
    _limit_resources(settings)
    _guard(workdir)
    conn = Connection(game_fd)
    conn.send_bytes(json.dumps(["hello", os.getpid()]).encode())
    _serve(spec, settings, conn)


def _limit_resources(settings: dict[str, Any]) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    memory = settings.get("memory_mb")
    if memory:
        allowed = _address_space() + int(memory) * (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (allowed, allowed))


def _address_space() -> int:
    """This process's current virtual size in bytes (the interpreter and the bot, loaded)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _guard(workdir: str) -> None:
    """Refuse, from now on, what a bot has no business doing (see the module docstring)."""
    home = os.path.realpath(workdir) + os.sep

    def inside(path: Any) -> bool:
        if isinstance(path, int):
            return True  # an already open descriptor
        try:
            real = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return False
        return real.startswith(home) or real == os.devnull

    watched = _FORBIDDEN | _PATH_EVENTS | {"open"}

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event not in watched:
            return
        if event == "open":
            path, mode, flags = args
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing and not inside(path):
                raise PermissionError(f"sandbox: writing to {path!r} is not allowed")
        elif event in _FORBIDDEN:
            raise PermissionError(f"sandbox: {event} is not allowed")
        elif event in _PATH_EVENTS and not all(inside(a) for a in args[:2] if a is not None):
            raise PermissionError(f"sandbox: {event} outside the bot's directory is not allowed")

    sys.addaudithook(hook)


def _serve(spec: BotSpec | None, settings: dict[str, Any], conn: Connection) -> None:
    bot = None
    while True:
        try:
            op, payload = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            if spec is None and op in ("start", "probe"):
                spec = resolve_bot(settings["spec"], settings["game"])  # confined already
            if op == "probe":
                reply: list[Any] = ["ok", spec.name]  # type: ignore[union-attr]
            elif op == "start":
                bot = spec.make()  # type: ignore[union-attr]
                bot.start(payload)
                reply = ["ok"]
            elif op == "act":
                reply = ["action", _plain(bot.act(payload))]  # type: ignore[union-attr]
            else:
                bot.end(payload)  # type: ignore[union-attr]
                reply = ["ok"]
        except MemoryError:
            reply = ["error", "memory", f"{op}: ran out of memory"]
        except _NotPlain as exc:
            reply = ["error", "malformed", f"act returned {exc}, which is not a plain value"]
        except BaseException as exc:  # a bot may raise anything, SystemExit included
            lines = str(exc).strip().splitlines()
            text = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
            reply = ["error", "exception", f"{op} raised {text}"]
        conn.send_bytes(json.dumps(reply).encode())
        if op in ("end", "probe"):
            return


class _NotPlain(Exception):
    """An action that cannot travel as JSON (ints, floats, strings, bools, None, tuples)."""


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "__index__"):  # e.g. numpy integers
        return operator.index(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    raise _NotPlain(shown)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
