"""The forker's and the games' namespaces (`arena.sandbox.namespaces`), each confinement made in a
forked child of the test process (it cannot be undone), which reports what it found as JSON."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import select
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox import namespaces
from arena.sandbox.namespaces import (
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    Confinement,
    clone_game,
    confine_forker,
    enter_game,
)
from tests.sandbox.support import idmapped_mounts, marked, needs_namespaces

Report = Callable[[dict[str, Any]], None]
RATION = 1 << 20  # a game's directory in these tests: 1 MiB
ENTRIES = 4  # and 4 files and folders


class Child:
    """A forked child running a function that reports dicts; the test reads them one a line."""

    def __init__(self, work: Callable[[Report], None]) -> None:
        self.read_end, write_end = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # never back into pytest
            try:
                os.close(self.read_end)

                def report(facts: dict[str, Any]) -> None:
                    os.write(write_end, json.dumps(facts).encode() + b"\n")

                try:
                    work(report)
                except BaseException:
                    report({"raised": traceback.format_exc()})
            finally:
                os._exit(0)
        os.close(write_end)
        self.buffer = b""

    def next(self, seconds: float = 10.0) -> dict[str, Any]:
        """The child's next report (fails the test if none comes in `seconds`)."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_end], [], [], left)[0]:
                pytest.fail(f"no report from the child in {seconds} s")
            data = os.read(self.read_end, 65536)
            if not data:
                pytest.fail("the child ended without reporting")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        facts: dict[str, Any] = json.loads(line)
        assert "raised" not in facts, facts["raised"]
        return facts

    def close(self) -> int:
        """Kill the child if it still runs, reap it: its exit code (negative: a signal)."""
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        os.close(self.read_end)
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])


@contextlib.contextmanager
def child(work: Callable[[Report], None]) -> Iterator[Child]:
    """A `Child` running `work`, killed and reaped at the end."""
    running = Child(work)
    try:
        yield running
    finally:
        running.close()


def in_child(work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `work` in a forked child: what it returned."""
    with child(lambda report: report(work())) as running:
        return running.next()


def failure(action: Callable[[], object]) -> str:
    """The errno name `action` fails with, or "ok" if it does not fail."""
    try:
        action()
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, str(exc))
    return "ok"


def confined(tmp_path: Path, private: list[Path] | None = None) -> Confinement:
    """Confine this (child) process as a forker, with `private` covered (a trial folder made)."""
    trial = tmp_path / f"trial-{uuid.uuid4().hex[:8]}"
    trial.mkdir()
    return confine_forker([str(p) for p in private or []], True, str(trial))


def facts_of(confinement: Confinement) -> dict[str, Any]:
    """A confinement's fields, as a dict (for a report)."""
    return {"user": confinement.user, "read_only": confinement.read_only,
            "network": confinement.network, "per_game": confinement.per_game,
            "fresh_proc": confinement.fresh_proc, "problem": confinement.problem,
            "game_flags": confinement.game_flags}


def play(confinement: Confinement, workdir: Path,
         work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """In a confined forker: clone a game into its namespaces, enter it (`workdir`, 1 MiB, 4
    entries) and run `work` there: what it returned (with "fresh_proc" from `enter_game`)."""
    read_end, write_end = os.pipe()
    pid = clone_game(confinement.game_flags)
    if pid == 0:
        try:
            os.close(read_end)
            try:
                fresh = enter_game(str(workdir), RATION, ENTRIES)
                facts = {"fresh_proc": fresh, **work()}
            except BaseException:
                facts = {"raised": traceback.format_exc()}
            os.write(write_end, json.dumps(facts).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    data = b""
    while chunk := os.read(read_end, 65536):
        data += chunk
    os.close(read_end)
    os.waitpid(pid, 0)
    result: dict[str, Any] = json.loads(data) if data else {"raised": "the game said nothing"}
    return result


def status_field(name: str) -> str:
    """A field of /proc/self/status."""
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key == name:
            return value.strip()
    return ""


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A UDP socket on 127.0.0.1 (closed after the test)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock


# the forker


@needs_namespaces
def test_the_forker_gets_every_namespace_it_asks_for(tmp_path: Path) -> None:
    """Where the kernel allows it all, every field of the confinement is true, with no problem."""
    facts = in_child(lambda: facts_of(confined(tmp_path)))
    assert facts == {"user": True, "read_only": True, "network": True, "per_game": True,
                     "fresh_proc": True, "problem": "",
                     "game_flags": CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS}


@needs_namespaces
def test_a_forker_without_shared_network_gives_each_game_a_network_of_its_own(
        tmp_path: Path) -> None:
    """Without a shared network namespace, the games' flags ask for one each."""
    def work() -> dict[str, Any]:
        trial = tmp_path / "trial"
        trial.mkdir()
        return facts_of(confine_forker([], False, str(trial)))

    facts = in_child(work)
    assert facts["network"] and facts["per_game"] and facts["problem"] == ""
    assert facts["game_flags"] & CLONE_NEWNET


@needs_namespaces
def test_the_forker_writes_nowhere(tmp_path: Path) -> None:
    """The whole file system is read-only to the forker: a new file, a write, a folder, and the
    metadata of an existing file (mode, times, an extended attribute) all fail with EROFS."""
    existing = tmp_path / "existing.txt"
    existing.write_text("before")
    existing.chmod(0o600)
    before = existing.stat()

    def work() -> dict[str, Any]:
        confined(tmp_path)
        return {
            "create": failure(lambda: (tmp_path / "new.txt").write_text("note")),
            "write": failure(lambda: existing.write_text("after")),
            "mkdir": failure(lambda: (tmp_path / "folder").mkdir()),
            "chmod": failure(lambda: existing.chmod(0o644)),
            "utime": failure(lambda: os.utime(existing, (1_000_000_000,) * 2)),
            "setxattr": failure(lambda: os.setxattr(existing, "user.arena-note", b"x")),
            "tmp": failure(lambda: Path("/tmp", uuid.uuid4().hex).write_text("note")),
        }

    facts = in_child(work)
    assert facts == dict.fromkeys(facts, "EROFS")
    after = existing.stat()
    assert existing.read_text() == "before" and not (tmp_path / "new.txt").exists()
    assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)


@needs_namespaces
def test_what_the_arena_keeps_is_covered(tmp_path: Path) -> None:
    """A private folder is empty (or cannot be listed) and its files are gone; a private file
    reads empty."""
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "key").write_text("the run's key")
    private_file = tmp_path / "other_bot.py"
    private_file.write_text("the other bot's code")
    public = tmp_path / "public.txt"
    public.write_text("anyone's")

    def listing() -> Any:
        try:
            return os.listdir(folder)
        except PermissionError:
            return "refused"

    def reading(path: Path) -> str:
        try:
            return path.read_text()
        except OSError as exc:
            return errno.errorcode.get(exc.errno or 0, "error")

    def work() -> dict[str, Any]:
        confined(tmp_path, [folder, private_file])
        return {"listing": listing(), "key": reading(folder / "key"),
                "file": reading(private_file), "public": reading(public)}

    facts = in_child(work)
    assert facts["listing"] in ([], "refused"), facts
    assert facts["key"] in ("ENOENT", "EACCES"), facts
    assert facts["file"] == "", facts
    assert facts["public"] == "anyone's", facts  # what is not private stays readable
    assert (folder / "key").read_text() == "the run's key"  # covered for the child only


@needs_namespaces
def test_the_forker_has_no_network(tmp_path: Path, listener: socket.socket) -> None:
    """A datagram to 127.0.0.1 from the forker fails, and none arrives."""
    port = listener.getsockname()[1]

    def work() -> dict[str, Any]:
        confined(tmp_path)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as out:
            return {"send": failure(lambda: out.sendto(b"note", ("127.0.0.1", port)))}

    assert in_child(work)["send"] != "ok"
    listener.settimeout(0.2)
    with pytest.raises(TimeoutError):
        listener.recv(64)


# its games


@needs_namespaces
def test_a_game_is_process_1_and_sees_only_its_own_processes(tmp_path: Path) -> None:
    """A game is process 1 of its PID namespace, and its fresh /proc lists only itself."""
    workdir = tmp_path / "game"
    workdir.mkdir()

    def game() -> dict[str, Any]:
        return {"pid": os.getpid(), "ppid": os.getppid(),
                "processes": sorted(int(e) for e in os.listdir("/proc") if e.isdigit())}

    facts = in_child(lambda: play(confined(tmp_path), workdir, game))
    assert facts == {"fresh_proc": True, "pid": 1, "ppid": 0, "processes": [1]}


@needs_namespaces
def test_a_game_has_no_capabilities(tmp_path: Path) -> None:
    """A game has no capability left, not even in its bounding set, and so may mount nothing."""
    workdir = tmp_path / "game"
    workdir.mkdir()

    def game() -> dict[str, Any]:
        caps = {name: int(status_field(name), 16)
                for name in ("CapEff", "CapPrm", "CapInh", "CapBnd", "CapAmb")}
        libc = ctypes.CDLL(None, use_errno=True)
        mounted = libc.mount(b"tmpfs", str(workdir).encode(), b"tmpfs", 0, None)
        return {**caps, "mount": errno.errorcode.get(ctypes.get_errno(), "?") if mounted else "ok"}

    facts = in_child(lambda: play(confined(tmp_path), workdir, game))
    assert facts == {"fresh_proc": True, "CapEff": 0, "CapPrm": 0, "CapInh": 0, "CapBnd": 0,
                     "CapAmb": 0, "mount": "EPERM"}


@needs_namespaces
def test_a_game_s_directory_holds_its_ration_of_bytes_and_files(tmp_path: Path) -> None:
    """A game writes at most 1 MiB and makes at most 4 files in its directory (ENOSPC beyond)."""
    workdir = tmp_path / "game"
    workdir.mkdir()

    def game() -> dict[str, Any]:
        written, block = 0, b"x" * 65536
        fd = os.open("big", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while written < 4 * RATION:
                written += os.write(fd, block)
            full = "ok"
        except OSError as exc:
            full = errno.errorcode.get(exc.errno or 0, "?")
        finally:
            os.close(fd)
        os.remove("big")
        made, many = 0, "ok"
        try:
            for number in range(ENTRIES + 4):
                Path(f"file-{number}").touch()
                made += 1
        except OSError as exc:
            many = errno.errorcode.get(exc.errno or 0, "?")
        return {"written": written, "full": full, "made": made, "many": many}

    def work() -> dict[str, Any]:
        confinement = confined(tmp_path)
        return play(confinement, workdir, lambda: (os.chdir(workdir), game())[1])

    facts = in_child(work)
    assert facts["full"] == "ENOSPC" and RATION // 2 <= facts["written"] <= RATION, facts
    assert facts["many"] == "ENOSPC" and facts["made"] == ENTRIES, facts
    assert os.listdir(workdir) == []  # the game's files were in its own tmpfs


@needs_namespaces
def test_a_game_s_files_are_not_there_for_the_next_game(tmp_path: Path) -> None:
    """A note written in one game's directory is not in the next game's, at the same path, nor
    in the forker's view of it."""
    workdir = tmp_path / "game"
    workdir.mkdir()

    def leave() -> dict[str, Any]:
        (workdir / "note.txt").write_text("from the first game")
        return {"listing": os.listdir(workdir)}

    def look() -> dict[str, Any]:
        return {"listing": os.listdir(workdir)}

    def work() -> dict[str, Any]:
        confinement = confined(tmp_path)
        first = play(confinement, workdir, leave)
        forker = os.listdir(workdir)
        second = play(confinement, workdir, look)
        return {"first": first, "forker": forker, "second": second}

    facts = in_child(work)
    assert facts["first"]["listing"] == ["note.txt"], facts  # the note was written
    assert facts["forker"] == [] and facts["second"]["listing"] == [], facts


SLEEPER = "import time; time.sleep(30)"


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether `condition` holds within `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@needs_namespaces
def test_a_process_in_a_new_session_ends_with_its_game(tmp_path: Path) -> None:
    """A grandchild that left the game's session and group dies when the game is killed from
    outside (its PID namespace goes with process 1)."""
    workdir = tmp_path / "game"
    workdir.mkdir()
    marker = f"arena-ns-{uuid.uuid4().hex[:12]}"

    def game() -> dict[str, Any]:
        if os.fork() == 0:
            os.setsid()
            os.execv(sys.executable, [sys.executable, "-c", SLEEPER, marker])
        time.sleep(30)
        return {}

    def work(report: Report) -> None:
        confinement = confined(tmp_path)
        pid = clone_game(confinement.game_flags)
        if pid == 0:
            try:
                enter_game(str(workdir), RATION, ENTRIES)
                game()
            finally:
                os._exit(0)
        report({"game": pid})
        report({"status": os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])})

    try:
        with child(work) as forker:
            game_pid = forker.next()["game"]
            assert wait_until(lambda: bool(marked(marker)), 5.0), "the grandchild never started"
            sleeper = marked(marker)[0]
            assert os.getsid(sleeper) != os.getsid(game_pid)  # it did leave the game's session
            os.kill(game_pid, signal.SIGKILL)
            assert forker.next()["status"] == -signal.SIGKILL
            assert wait_until(lambda: not marked(marker), 2.0), "the grandchild outlived its game"
    finally:
        for pid in marked(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@needs_namespaces
def test_clone_game_raises_what_the_kernel_refuses() -> None:
    """A clone the kernel refuses raises OSError with its errno, and the caller goes on."""
    clone_thread = 0x00010000  # a thread without shared signal handlers: always EINVAL

    def work() -> dict[str, Any]:
        try:
            clone_game(clone_thread)
        except OSError as exc:
            return {"errno": exc.errno, "after": os.getpid()}
        return {"errno": 0}

    facts = in_child(work)
    assert facts["errno"] == errno.EINVAL and facts["after"] > 1


@needs_namespaces
def test_clone_game_without_flags_forks() -> None:
    """With no flags a game is forked into this process's namespaces (not process 1)."""
    def work() -> dict[str, Any]:
        read_end, write_end = os.pipe()
        pid = clone_game(0)
        if pid == 0:
            os.write(write_end, str(os.getpid()).encode())
            os._exit(0)
        os.close(write_end)
        seen = int(os.read(read_end, 64))
        os.waitpid(pid, 0)
        return {"returned": pid, "seen": seen}

    facts = in_child(work)
    assert facts["returned"] == facts["seen"] > 1


# what it cannot have


@needs_namespaces
def test_confine_forker_reports_a_user_namespace_it_cannot_have(tmp_path: Path) -> None:
    """A process that cannot unshare (a threaded one) gets no confinement and the reason, no
    exception."""
    trial = tmp_path / "trial"
    trial.mkdir()

    def work() -> dict[str, Any]:
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()  # unshare(CLONE_NEWUSER) refuses a threaded process
        try:
            return facts_of(confine_forker([], True, str(trial)))
        finally:
            stop.set()
            thread.join()

    facts = in_child(work)
    assert facts["problem"].startswith("no user namespace for this user"), facts
    assert not (facts["user"] or facts["read_only"] or facts["network"] or facts["per_game"])


@needs_namespaces
def test_a_trial_game_that_cannot_mount_leaves_games_forked(tmp_path: Path) -> None:
    """Where the trial game cannot mount its directory, games get no namespaces of their own
    (the forker keeps its own) and the confinement says why."""
    def work() -> dict[str, Any]:
        return facts_of(confine_forker([], True, str(tmp_path / "missing")))

    facts = in_child(work)
    assert facts["user"] and facts["read_only"] and facts["network"], facts
    assert facts["game_flags"] == 0 and not facts["per_game"] and not facts["fresh_proc"], facts
    assert facts["problem"].startswith("no namespaces of a game's own"), facts


@needs_namespaces
def test_a_game_forked_in_the_forker_s_namespaces_cannot_undo_its_covers(tmp_path: Path) -> None:
    """A game forked (not cloned) in the forker's user namespace drops the forker's
    capabilities, which could unmount what covers the arena's secrets."""
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "key").write_text("secret")

    def work() -> dict[str, Any]:
        confinement = confine_forker([str(kept)], True, str(tmp_path / "missing"))
        child = os.fork()
        if child == 0:  # the game: what `host._play_one_game` does first
            code = 2
            with contextlib.suppress(BaseException):
                namespaces.enter(confinement, str(tmp_path), 1 << 20, 4)
                libc = ctypes.CDLL(None, use_errno=True)
                unmounted = libc.umount2(str(kept).encode(), 2) == 0  # MNT_DETACH
                code = 0 if not unmounted and not os.path.exists(kept / "key") else 1
            os._exit(code)
        game = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        return {"per_game": confinement.per_game, "user": confinement.user, "game": game}

    assert in_child(work) == {"per_game": False, "user": True, "game": 0}


@needs_namespaces
def test_games_without_namespaces_have_the_network_unless_the_forker_shares_none(
        tmp_path: Path, listener: socket.socket) -> None:
    """A forker that left the network to each game's namespace, whose games cannot have theirs,
    says there is a network, and its games can indeed send to 127.0.0.1."""
    port = listener.getsockname()[1]

    def work() -> dict[str, Any]:
        confinement = confine_forker([], False, str(tmp_path / "missing"))
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as out:
            sent = failure(lambda: out.sendto(b"note", ("127.0.0.1", port)))
        return {**facts_of(confinement), "send": sent}

    facts = in_child(work)
    assert facts["game_flags"] == 0 and facts["send"] == "ok", facts
    assert listener.recv(64) == b"note"
    assert not facts["network"], facts  # a game forked here has the machine's network


def test_confine_forker_without_the_c_library_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the C library (as after `forget`) nothing is attempted, and the reason given."""
    monkeypatch.setattr(namespaces, "_LIBC", None)
    confinement = confine_forker([], True, "/nonexistent")
    assert confinement == Confinement(
        problem="namespaces need Linux on x86_64, aarch64 or riscv64")


@pytest.mark.parametrize(("flags", "per_game"), [
    (0, False), (CLONE_NEWIPC | CLONE_NEWNS, False), (CLONE_NEWPID, True),
    (CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS | CLONE_NEWNET, True)])
def test_per_game_means_a_pid_namespace_of_its_own(flags: int, per_game: bool) -> None:
    """A confinement's games are confined per game when they get a PID namespace each."""
    assert Confinement(game_flags=flags).per_game is per_game


# its id


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="only an arena run as root may map "
                                "an id of the games' own (an ordinary user's games run as it)")

LAZY = next(name for name in ("statistics", "fractions", "decimal", "colorsys", "wave",
                              "this", "antigravity") if name not in sys.modules)
"""A module of the standard library not imported yet, for a game to import lazily."""


@needs_namespaces
@needs_root
def test_a_game_runs_as_an_id_that_owns_nothing_and_reads_only_what_everyone_may(
        tmp_path: Path) -> None:
    """With the arena as root, a game switches to an unprivileged id of its own (no groups, no
    capabilities): the arena's owner-only files in its reach are not readable, what everyone
    may read is, and the bot's own folder (only its owner may enter it) is the game's; the
    folders only their owner may enter on the way to what it needs (the temporary folder of
    the tests, /root) are skeletons; imports of the standard library not made yet still work."""
    bot = tmp_path / "deep" / "bot"
    bot.mkdir(parents=True)
    (tmp_path / "deep").chmod(0o700)
    bot.chmod(0o700)
    own = bot / "own.txt"
    own.write_text("the bot's")
    own.chmod(0o600)
    (tmp_path / "beside.txt").write_text("not for games")
    games = tmp_path / "games"  # as a host's folder of games, which others may enter
    games.mkdir()
    games.chmod(0o711)
    secret, public = games / "secret.txt", games / "public.txt"
    secret.write_text("root's own")
    secret.chmod(0o600)
    public.write_text("everyone's")
    public.chmod(0o644)
    workdir = games / "game"
    workdir.mkdir()
    if not idmapped_mounts(str(bot)):
        pytest.skip("no idmapped mounts on this file system: games keep the arena's user")

    def game() -> dict[str, Any]:
        module = __import__(LAZY)
        return {"ids": [os.getuid(), os.geteuid(), os.getgid(), os.getegid()],
                "groups": os.getgroups(), "secret": failure(secret.read_text),
                "public": public.read_text(), "own": own.read_text(),
                "own_write": failure(lambda: own.write_text("x")),
                "beside": failure((tmp_path / "beside.txt").stat),
                "root": failure(lambda: os.listdir("/root")),
                "lazy": bool(module.__file__), "workdir": failure(
                    lambda: (workdir / "note").write_text("mine")),
                "fd": failure(lambda: os.listdir("/proc/self/fd"))}

    def work() -> dict[str, Any]:
        trial = games / "trial"
        trial.mkdir()
        confinement = confine_forker([], True, str(trial), bot_folders=[str(bot)])
        read_end, write_end = os.pipe()
        pid = clone_game(confinement.game_flags)
        if pid == 0:
            try:
                os.close(read_end)
                try:
                    enter_game(str(workdir), RATION, ENTRIES, confinement.game_id)
                    facts = game()
                except BaseException:
                    facts = {"raised": traceback.format_exc()}
                os.write(write_end, json.dumps(facts).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        os.waitpid(pid, 0)
        return {"game_id": confinement.game_id, "skeletons": list(confinement.skeletons),
                "allow_list": confinement.allow_list, "problem": confinement.problem,
                **json.loads(data)}

    found = in_child(work)
    game_id = namespaces.GAME_ID
    assert found.get("game_id") == game_id, found
    assert found["ids"] == [game_id] * 4 and found["groups"] == [], found
    assert found["secret"] == "EACCES" and found["public"] == "everyone's"
    assert found["own"] == "the bot's" and found["own_write"] == "EROFS"
    assert found["beside"] == "ENOENT"  # the skeleton holds the way to the bot's folder only
    assert found["root"] in ("EACCES", "ok") and found["lazy"] is True
    assert found["workdir"] == "ok" and found["fd"] == "ok"
    # /root absent from the games' root, else covered by a skeleton
    assert found["allow_list"] or "/root" in found["skeletons"] or not Path("/root").is_dir()


def test_skeletons_cover_the_home_and_each_folder_a_game_may_not_enter() -> None:
    with tempfile.TemporaryDirectory(dir="/tmp") as scratch:
        os.chmod(scratch, 0o755)
        base = Path(os.path.realpath(scratch))
        shut, home, open_ = base / "shut", base / "home", base / "open"
        for folder in (shut / "inner" / "deeper", home, open_):
            folder.mkdir(parents=True)
        shut.chmod(0o700)
        (shut / "inner").chmod(0o700)  # below a root already: not one of its own
        reachable = [str(shut / "inner" / "deeper"), str(open_)]
        assert sorted(namespaces.skeleton_roots(reachable, True, str(home))) == [str(home),
                                                                                 str(shut)]
        assert namespaces.skeleton_roots(reachable, False, str(home)) == [str(home)]
        assert namespaces.skeleton_roots(reachable, False, "/") == []
        shut.chmod(0o755)
        (shut / "inner").chmod(0o755)


@needs_namespaces
@needs_root
def test_games_keep_the_arena_s_user_where_a_shut_bot_folder_cannot_be_idmapped(
        tmp_path: Path) -> None:
    """Without idmapped mounts (a file system without them), a bot's folder only its owner may
    enter, too large to copy into the games' root, would be out of the games' reach as their
    own id: they stay the arena's user, and the forker says why. A small one is copied (its
    copies readable by the games): they keep their id."""
    bot = tmp_path / "bot"
    bot.mkdir(mode=0o700)
    (bot / "bot.py").write_text("")
    games = tmp_path / "games"
    games.mkdir()
    games.chmod(0o711)
    (games / "trial").mkdir()

    def work(large: bool) -> dict[str, Any]:
        namespaces._idmapped = lambda folders: {}  # type: ignore[assignment]  # in the child
        if large:
            namespaces.COPY_ENTRIES = 0  # type: ignore[misc]
        confinement = confine_forker([], True, str(games / "trial"), bot_folders=[str(bot)])
        return {"game_id": confinement.game_id, "problem": confinement.problem,
                "per_game": confinement.per_game, "copied": list(confinement.copied)}

    found = in_child(lambda: work(True))
    assert found["game_id"] == -1 and found["per_game"], found
    assert "could not be mapped" in found["problem"]
    small = in_child(lambda: work(False))
    assert small["game_id"] == namespaces.GAME_ID and small["copied"] == [str(bot.resolve())]
