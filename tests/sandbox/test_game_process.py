"""How a sandboxed game process is set up, seen from inside (issue 27): `tests/sandbox/inspector.py`
gets past the Python-level defences and says what the kernel lets it see and do; each test plays
it sandboxed against in-process greedy and reads what it found."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

import pytest

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import FaultKind, GameRecord
from arena.sandbox import BotHost, Limits, sandboxed
from arena.sandbox.cgroups import find_hierarchies
from tests.sandbox.support import NAMESPACES, idmapped_mounts

INSPECTOR = Path(__file__).parent / "inspector.py"
LIMITS = Limits(move_seconds=2.0, game_seconds=30.0, memory_mb=256, start_seconds=10.0)

needs_kernel = pytest.mark.skipif(
    not NAMESPACES, reason="the kernel confinement needs PID, IPC, mount, network and user "
                           "namespaces, which this machine does not offer")
needs_cgroups = pytest.mark.skipif(
    not find_hierarchies()[0], reason="per-game groups need the memory, pids and freezer "
                                      "cgroups, which this user may not make here")


def play(tmp_path: Path, checks: str = "", die: str = "",
         games: int = 1) -> tuple[list[dict[str, Any]], list[GameRecord]]:
    """Play `games` games of the inspector (seat 0, sandboxed, one host for all) against
    in-process greedy: what it found in each, and the records."""
    spec = f"{INSPECTOR}:Inspector" + (f":checks={checks}" if checks else "") + (
        f",die={die}" if die and checks else f":die={die}" if die else "")
    log = tmp_path / "inspector.log"
    entry = sandboxed(spec, "concentration", LIMITS, log)
    variant = find_game("concentration").variant("standard")
    records = []
    try:
        for seed in range(games):
            records.append(play_game(variant, [entry.make(), resolve_bot("greedy").make()],
                                     ["inspector", "greedy"], seed))
    finally:
        entry.close()
    found = [json.loads(line.split(" ", 1)[1]) for line in log.read_text().splitlines()
             if line.startswith("inspector {")]
    return found, records


def in_a_terminal(tmp_path: Path, checks: str) -> dict[str, Any]:
    """Play the inspector from a process that has a terminal of its own as its controlling
    terminal (as `arena play` typed in a shell has): what it found."""
    master, slave = pty.openpty()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # never back into pytest
        code = 1
        try:
            os.close(read_end)
            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            found, _ = play(tmp_path, checks)
            os.write(write_end, json.dumps(found[0]).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    os.close(slave)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    os.close(master)
    assert data, "the arena in a terminal found nothing"
    return json.loads(data)


@needs_kernel
def test_a_game_has_no_controlling_terminal_whatever_the_arena_has(tmp_path: Path) -> None:
    found = in_a_terminal(tmp_path, "terminal+dev_tty+tiocsti+stdin")
    assert found["terminal"] == 0  # no controlling terminal (tty_nr in /proc/self/stat)
    assert found["dev_tty"] != "ok"  # no controlling terminal to open
    assert "ok" not in found["tiocsti"]
    assert found["stdin"] == "/dev/null"


@needs_kernel
def test_a_game_has_a_dev_of_its_own_and_nodev_elsewhere(tmp_path: Path) -> None:
    (found,), _ = play(tmp_path, "dev+dev_null_write+dev_urandom")
    assert found["dev"] == ["fd", "full", "null", "random", "stderr", "stdin", "stdout",
                            "urandom", "zero"]
    assert found["dev_null_write"] == found["dev_urandom"] == "ok"


@needs_kernel
def test_every_mount_but_the_game_s_devices_is_nodev(tmp_path: Path) -> None:
    (found,), _ = play(tmp_path, "mounts")
    devices = {f"/dev/{name}" for name in ("null", "zero", "full", "random", "urandom")}
    assert devices <= found["mounts"].keys()
    assert not [path for path, options in found["mounts"].items()
                if "nodev" not in options and path not in devices]
    assert all("ro" in found["mounts"][path] for path in ("/", "/dev"))


@needs_kernel
def test_no_control_groups_of_the_machine_in_view_and_its_own_as_the_root(tmp_path: Path) -> None:
    (found,), _ = play(tmp_path, "sys_fs_cgroup+proc_cgroup")
    assert found["sys_fs_cgroup"] in ([], "EACCES", "ENOENT")  # ENOENT: not in its view
    if find_hierarchies()[0]:  # in groups of its own, the root of its cgroup namespace
        assert all(line.endswith(":/") for line in found["proc_cgroup"].splitlines()), found


@needs_kernel
def test_proc_shows_its_processes_only_and_nothing_of_the_machine(tmp_path: Path) -> None:
    (found,), _ = play(tmp_path, "proc_stat+proc_net+pid")
    assert found == {"proc_stat": False, "proc_net": False, "pid": found["pid"]}


@needs_kernel
def test_each_game_has_a_network_namespace_of_its_own_if_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_SANDBOX_GAME_NETWORK", "1")
    found, _ = play(tmp_path, "network", games=2)
    assert found[0]["network"] != found[1]["network"]


@needs_kernel
def test_a_game_is_not_in_the_arena_s_network_namespace(tmp_path: Path) -> None:
    (found,), _ = play(tmp_path, "network")
    assert found["network"] != os.readlink("/proc/self/ns/net")


def test_the_host_and_its_games_get_no_secret_of_the_arena_s_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_TEST_SECRET_TOKEN", "s3cret-token")
    (found,), _ = play(tmp_path, "environment+cmdline")
    assert found["environment"] == {}
    assert not [part for part in found["cmdline"] if str(tmp_path) in part or "{" in part]


def test_the_host_is_started_with_its_settings_out_of_its_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_TEST_SECRET_TOKEN", "s3cret-token")
    host = BotHost("random", "concentration", LIMITS, log=tmp_path / "random.log")
    try:
        game = host.new_game().sock
        game.close()
        assert host.pid is not None
        pid = host.pid
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        environment = Path(f"/proc/{pid}/environ").read_bytes()
    finally:
        host.close()
    assert str(tmp_path).encode() not in command and b"random" not in command
    assert b"s3cret-token" not in environment


@needs_kernel
@pytest.mark.parametrize(("signal_name", "init"), [
    ("SIGABRT", False), ("SIGTERM", False), ("SIGUSR1", False),
    ("SIGSEGV", False), ("SIGKILL", False), ("SIGBUS", False), ("SIGSTOP", False),
    ("SIGABRT", True), ("SIGSEGV", True), ("SIGTERM", True), ("SIGKILL", True)])
def test_a_signal_a_bot_sends_itself_ends_it_as_anywhere_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signal_name: str, init: bool) -> None:
    """With an init (ARENA_SANDBOX_INIT=1) the bot's process is process 2; without one, process
    1 exits on the signals whose default action ends a process, and the seccomp filter ends
    it when it sends itself one the kernel would spare it (the faults' signals, SIGKILL and
    SIGSTOP), and the fault says so."""
    monkeypatch.setenv("ARENA_SANDBOX_INIT", "1" if init else "0")
    found, (record,) = play(tmp_path, "pid", die=signal_name)
    assert {"survived": True} not in found
    assert [(fault.seat, fault.kind) for fault in record.faults] == [(0, FaultKind.CRASH)]
    assert (found[0]["pid"] == 1) is not init  # with an init, it is process 1
    if not init and signal_name in ("SIGABRT", "SIGSEGV", "SIGKILL", "SIGBUS", "SIGSTOP"):
        assert "killed by a signal it sent itself" in record.faults[0].detail


def test_a_bot_s_code_runs_only_once_its_game_has_begun(tmp_path: Path) -> None:
    log = tmp_path / "inspector.log"
    entry = sandboxed(f"{INSPECTOR}:Inspector:checks=imported+started", "concentration", LIMITS,
                      log)
    variant = find_game("concentration").variant("standard")
    try:
        play_game(variant, [entry.make(), resolve_bot("greedy").make()], ["a", "b"], 0)
        time.sleep(0.5)  # the next game's process is ready long before this
        between = time.time()
        play_game(variant, [entry.make(), resolve_bot("greedy").make()], ["a", "b"], 1)
    finally:
        entry.close()
    found = [json.loads(line.split(" ", 1)[1]) for line in log.read_text().splitlines()
             if line.startswith("inspector {")]
    assert len(found) == 2
    assert found[1]["imported"] > between  # not while the game before was played


LAZY_BOT = '''
import json
import os

from arena.api import Bot


class Lazy(Bot):
    """Imports modules of the standard library as it plays; reads a file of its own folder only
    its owner may read, and tries one of root's only root may read."""

    def act(self, obs):
        import {lazy}

        try:
            with open({secret!r}) as kept:
                secret = kept.read()
        except OSError as exc:
            secret = type(exc).__name__
        with open(os.path.join(os.path.dirname(__file__), "own.txt")) as mine:
            own = mine.read()
        print("lazy " + json.dumps({{"uid": os.getuid(), "secret": secret, "own": own,
                                     "module": {lazy}.__name__}}), flush=True)
        return obs.legal[0]
'''


@needs_kernel
@pytest.mark.skipif(os.geteuid() != 0, reason="an arena run as root maps an id of the games' own")
@pytest.mark.parametrize("lazy", ["statistics", "fractions", "decimal"])
def test_a_bot_runs_as_an_id_of_its_own_that_reads_no_file_of_root_s(
        tmp_path: Path, lazy: str) -> None:
    """The bot's files (only their owner, root, may read them) lie where only root may enter (the
    tests' temporary folder, 0700): the bot is imported, imports the standard library as it
    plays, reads its own files, and not a file of root's (in /tmp, which everyone may enter)."""
    folder = tmp_path / "bot"
    folder.mkdir(mode=0o700)
    if not idmapped_mounts(str(folder)):
        pytest.skip("no idmapped mounts on this file system: games keep the arena's user")
    bot = folder / "lazy_bot.py"
    fd, secret = tempfile.mkstemp(prefix="arena-test-secret-", dir="/tmp")  # mode 0600
    os.write(fd, b"root's own")
    os.close(fd)
    bot.write_text(LAZY_BOT.format(lazy=lazy, secret=secret))
    bot.chmod(0o600)
    (folder / "own.txt").write_text("the bot's")
    (folder / "own.txt").chmod(0o600)
    log = tmp_path / "lazy.log"
    entry = sandboxed(f"{bot}:Lazy", "concentration", LIMITS, log)
    variant = find_game("concentration").variant("standard")
    try:
        record = play_game(variant, [entry.make(), resolve_bot("greedy").make()],
                           ["lazy", "greedy"], 0)
    finally:
        entry.close()
        os.unlink(secret)
    assert record.faults == (), (record.faults, log.read_text())
    found = json.loads(next(line for line in log.read_text().splitlines()
                            if line.startswith("lazy ")).split(" ", 1)[1])
    # the file of root's is absent from the game's view (else refused)
    assert found == {"uid": found["uid"], "secret": found["secret"], "own": "the bot's",
                     "module": lazy}
    assert found["secret"] in ("FileNotFoundError", "PermissionError")
    assert found["uid"] != 0
