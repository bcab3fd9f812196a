"""The kernel's promises against hostile bots (issue 23): every attack in
`tests/sandbox/hostile/kernel.py` gets past the Python-level defences of a game process, so only
the kernel (namespaces, a read-only file system, a size-limited tmpfs, per-game cgroups) can stop
it. For each attack, one test shows it breaking out of a game played in the arena's own process
(the attack is real) and one that a sandboxed game contains it."""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.api import Bot, Observation
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import FaultKind, GameRecord
from arena.sandbox import BotHost, Limits, SandboxedBot, sandboxed
from arena.sandbox.cgroups import find_hierarchies
from tests.sandbox.support import NAMESPACES, attack_control, cpu_ns, marked

KERNEL = Path(__file__).parent / "hostile" / "kernel.py"
# the attacks are made in `start`, which may take its time (a flood, under load): they are not
# about time
LIMITS = Limits(move_seconds=0.5, game_seconds=20.0, overage_seconds=0.5, memory_mb=256,
                output_bytes=16384, start_seconds=10.0)
NOTE_ATTRIBUTE = "user.arena-kernel-note"  # as in kernel.py (loaded by file, not imported)
RATION_MB = 512  # what a game may write: 32 files of 16 MB today, a 512 MB tmpfs with the kernel


CGROUPS = bool(find_hierarchies()[0])  # what the sandbox would make games' groups in

needs_kernel = pytest.mark.skipif(
    not NAMESPACES, reason="the kernel confinement needs PID, IPC, mount, network and user "
                           "namespaces, which this machine does not offer")
needs_cgroups = pytest.mark.skipif(
    not CGROUPS, reason="per-game groups need the memory, pids and freezer cgroups, which this "
                        "user may not make here")


def spec(name: str, bot: Path = KERNEL, **params: object) -> str:
    """The spec of a bot of kernel.py (or a copy of it), with its parameters."""
    given = ",".join(f"{key}={value}" for key, value in params.items())
    return f"{bot}:{name}" + (f":{given}" if given else "")


def _greedy() -> Bot:
    """A fresh in-process greedy bot."""
    return resolve_bot("greedy").make()


@contextlib.contextmanager
def sandboxed_games(bot_spec: str, log: Path,
                    limits: Limits = LIMITS) -> Iterator[Callable[[int], GameRecord]]:
    """Play games of a sandboxed bot (seat 0) against in-process greedy, one host for all of
    them (as a duplicate pairing's games): a function playing one game of a seed, its record."""
    variant = find_game("concentration").variant("standard")
    entry = sandboxed(bot_spec, "concentration", limits, log)

    def play(seed: int) -> GameRecord:
        return play_game(variant, [entry.make(), _greedy()], ["hostile", "greedy"], seed)

    try:
        yield play
    finally:
        entry.close()


def play_sandboxed(bot_spec: str, log: Path, games: int = 1) -> str:
    """Play `games` games of a sandboxed bot in a row; what it printed (its log)."""
    with sandboxed_games(bot_spec, log) as play:
        for seed in range(games):
            play(seed)
    return log.read_text() if log.exists() else ""


def play_in_process(bot_spec: str, games: int = 1) -> list[GameRecord]:
    """Play `games` games of a bot in the arena's own process (isolation none), each a bot of
    its own, all made before the first game (as a sandboxed bot's processes are, ahead)."""
    variant = find_game("concentration").variant("standard")
    resolved = resolve_bot(bot_spec)
    bots = [resolved.make() for _ in range(games)]
    return [play_game(variant, [bot, _greedy()], ["hostile", "greedy"], seed)
            for seed, bot in enumerate(bots)]


def gone(marker: str, seconds: float) -> bool:
    """Whether every process with `marker` ends within `seconds`."""
    deadline = time.monotonic() + seconds
    while marked(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def marker() -> Iterator[str]:
    """A marker for the helpers a test's bots start; any still running after it are killed."""
    text = f"arena-kernel-{uuid.uuid4().hex[:12]}"
    yield text
    for pid in marked(text):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):  # started in-process: ours to reap
            os.waitpid(pid, 0)
    gone(text, 5.0)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A UDP socket on 127.0.0.1 for bots to send to (closed after the test)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock


@pytest.fixture
def ram_folder() -> Iterator[Path]:
    """A folder on a RAM disk (where there is one) for writing a gigabyte fast; removed after."""
    base = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else Path(os.environ.get(
        "TMPDIR") or "/tmp")
    folder = base / f"arena-kernel-{uuid.uuid4().hex[:12]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def free_ports(count: int) -> int:
    """The first of `count` consecutive UDP ports on 127.0.0.1 that are free now."""
    for _ in range(100):
        base = random.randrange(20000, 60000)
        with contextlib.ExitStack() as stack:
            try:
                for port in range(base, base + count):
                    sock = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
                    sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return base
    raise RuntimeError("no free UDP ports")


def received(sock: socket.socket, seconds: float = 0.5) -> set[str]:
    """The datagrams that arrive on `sock` until none has for `seconds`."""
    got: set[str] = set()
    sock.settimeout(seconds)
    with contextlib.suppress(OSError):
        while True:
            got.add(sock.recv(256).decode(errors="replace"))
    return got


# 1. a helper that outlives its game


@pytest.mark.parametrize("how", ["session", "setsid"])
def test_a_helper_outlives_its_game_in_process(marker: str, how: str) -> None:
    """A helper in a new session, by fork_exec or fork and setsid, outlives an in-process game."""
    play_in_process(spec("Outliver", marker=marker, how=how))
    deadline = time.monotonic() + 2.0
    while not marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked(marker), "the helper should outlive a game played in-process"


@needs_kernel
@pytest.mark.parametrize("how", ["session", "setsid"])
def test_a_helper_does_not_outlive_its_sandboxed_game(tmp_path: Path, marker: str,
                                                      how: str) -> None:
    """Ending a sandboxed game ends every process it started (its PID namespace)."""
    log = tmp_path / "outliver.log"
    with sandboxed_games(spec("Outliver", marker=marker, how=how), log) as play:
        play(1)
        # the host writes a game's output to the log as it reaps the game, after the arena has
        # its record: wait for it
        deadline = time.monotonic() + 10.0
        while "outliver" not in (said := log.read_text() if log.exists() else "") \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "outliver" in said, said  # it tried
        # the game is over (its process killed): the game's PID namespace goes with it
        assert gone(marker, 10.0), f"a helper outlived its game: {said}"  # under load, too


# 2. a note by an extended attribute of its own file


def test_a_note_by_xattr_reaches_the_next_game_in_process(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """An extended attribute of the bot's own file carries a note to its next game."""
    bot = tmp_path / "kernel.py"
    shutil.copyfile(KERNEL, bot)
    play_in_process(spec("XattrNote", bot, token="xattr-7"), games=2)
    assert "xattrnote found xattr-7" in capfd.readouterr().out


@needs_kernel
def test_a_note_by_xattr_does_not_reach_the_next_sandboxed_game(tmp_path: Path) -> None:
    """The bot's own file is read-only to its games: no note by extended attribute."""
    bot = tmp_path / "kernel.py"  # the bot's own file: a copy, tagged if the attack works
    shutil.copyfile(KERNEL, bot)
    said = play_sandboxed(spec("XattrNote", bot, token="xattr-7"), tmp_path / "x.log", games=2)
    assert said.count("xattrnote found") == 2, said  # both games looked
    assert "xattrnote found xattr-7" not in said, said
    assert "xattrnote left" not in said, said  # the bot's file is read-only to its games
    assert NOTE_ATTRIBUTE not in os.listxattr(bot)


# 3. a note by UDP (or an abstract unix socket) to the next game's process, waiting ahead


@pytest.mark.parametrize("way", ["udp", "unix"])
def test_a_note_by_socket_reaches_the_next_game_in_process(
        capfd: pytest.CaptureFixture[str], way: str) -> None:
    """A datagram reaches the next game's bot, made (and listening) ahead of its game."""
    token = uuid.uuid4().hex[:8]
    play_in_process(spec("UdpNote", port=free_ports(4), token=token, way=way), games=2)
    assert f"udpnote {way} received note {token}" in capfd.readouterr().out


@needs_kernel
@pytest.mark.parametrize("way", ["udp", "unix"])
def test_a_note_by_socket_does_not_reach_the_next_sandboxed_game(tmp_path: Path,
                                                                 way: str) -> None:
    """No datagram reaches the next game's process, forked ahead: no network between games."""
    token = uuid.uuid4().hex[:8]
    said = play_sandboxed(spec("UdpNote", port=free_ports(4), token=token, way=way),
                          tmp_path / "udpnote.log", games=2)
    assert said.count("udpnote") >= 2, said  # both games looked (or could not bind)
    assert f"received note {token}" not in said, said


# 4. a helper left by one game answers the next on UDP


def test_a_surviving_helper_answers_the_next_game_in_process(
        marker: str, capfd: pytest.CaptureFixture[str]) -> None:
    """A helper left listening on UDP by one game answers the next with its note."""
    play_in_process(spec("Lingerer", port=free_ports(1), token="linger-7", marker=marker),
                    games=2)
    assert "lingerer asked and heard linger-7" in capfd.readouterr().out


@needs_kernel
def test_no_helper_answers_the_next_sandboxed_game(tmp_path: Path, marker: str) -> None:
    """No helper of one sandboxed game answers the next on UDP."""
    said = play_sandboxed(spec("Lingerer", port=free_ports(1), token="linger-7", marker=marker),
                          tmp_path / "lingerer.log", games=2)
    assert said.count("lingerer asked") == 2, said
    assert "heard linger-7" not in said, said


# 5. notes in the forker's settings: nice value, resource limits, CPUs


def _forker_notes(said: str) -> tuple[list[str], dict[str, str]]:
    """What each game read of its parent's settings, and what the first game left there."""
    reads = re.findall(r"forkernote read (.*)", said)
    left: dict[str, str] = {}
    for what, value in re.findall(r"forkernote left (\w+)=(\S+)", said):
        left.setdefault(what, value)
    return reads, left


def test_a_note_in_the_parent_s_settings_reaches_the_next_game_in_process(
        marker: str, capfd: pytest.CaptureFixture[str]) -> None:
    """A process's nice value, core limit and CPUs, set by one game, are read by the next."""
    # in-process, a stand-in plays the forker (the bot's real parent would be the test runner's)
    forker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", marker])
    try:
        play_in_process(spec("ForkerNote", token=7, parent=forker.pid), games=2)
    finally:
        forker.kill()
        forker.wait()
    reads, left = _forker_notes(capfd.readouterr().out)
    assert len(reads) == 2 and left["nice"] == "7" and left["core"] == str(7 * 4096)
    assert "nice=7 " in reads[1] and f"core={7 * 4096} " in reads[1], reads
    if "cpus" in left:
        assert reads[1].endswith(f"cpus={left['cpus']}"), (reads, left)


@needs_kernel
def test_no_note_in_the_forker_s_settings_reaches_the_next_sandboxed_game(
        tmp_path: Path) -> None:
    """A sandboxed game cannot leave a note in its forker's settings (it cannot even see it)."""
    said = play_sandboxed(spec("ForkerNote", token=7), tmp_path / "forkernote.log", games=2)
    assert said.count("forkernote") >= 2, said  # both games tried
    reads, left = _forker_notes(said)
    if len(reads) == 2:  # the games could see a parent: the next must not find the note
        assert "nice=7 " not in reads[1] and f"core={7 * 4096} " not in reads[1], said
        assert "cpus" not in left or not reads[1].endswith(f"cpus={left['cpus']}"), said


# 6. renicing the opponent, and a busy helper out of reach of the pause between turns


RENICE_LIMITS = Limits(move_seconds=0.25, game_seconds=20.0, overage_seconds=0.25, memory_mb=256)
# limits no load reaches: the contained attack is judged by what the sandbox promises (no game
# seen or reniced, every process of a game stopped between its turns), not by a move's time (at
# 0.25 s a move, a calm bot's moves ran out on a loaded machine with no attack at all)
UNHURRIED = Limits(move_seconds=10.0, game_seconds=120.0, overage_seconds=10.0, memory_mb=256)


def _timeouts(record: GameRecord, seat: int) -> list[str]:
    """The details of the timeouts `seat` had in a game."""
    return [fault.detail for fault in record.faults
            if fault.seat == seat and fault.kind is FaultKind.TIMEOUT]


@attack_control
def test_renicing_the_opponent_makes_it_time_out_in_process(
        tmp_path: Path, marker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An opponent set to nice 19 and SCHED_IDLE, with every CPU kept busy, times out (where
    its game has no CPU group of its own: one shields it even from a bot that is not
    sandboxed, so the attack is shown against today's other defences)."""
    monkeypatch.setenv("ARENA_SANDBOX_CGROUPS", "0")
    variant = find_game("concentration").variant("standard")
    thinker = sandboxed(spec("Thinker"), "concentration", RENICE_LIMITS, tmp_path / "t.log")
    # the game processes of this test only (they descend from this process): a game's command
    # line names neither its bot nor its folders, and other tests' games run beside this one
    renicer = resolve_bot(spec("Renicer", near="", marker=marker, within=os.getpid())).make()
    try:
        record = play_game(variant, [renicer, thinker.make()], ["renicer", "thinker"], 3)
    finally:
        thinker.close()
        renicer.close()  # its spinners, which would spin on for their 10 s after the game
    assert _timeouts(record, 1), record.faults


def _thinking_while_renicer_spins(tmp_path: Path, marker: str,
                                  monkeypatch: pytest.MonkeyPatch) -> tuple[GameRecord, float, int]:
    """A game of a sandboxed renicer (aimed at this test's games) against a sandboxed thinker
    that reports its priority: the record, the CPU seconds the renicer's spinners had during the
    thinker's decisions that follow another of its own (by then the renicer's game, if paused,
    has long been stopped), and how many such decisions there were."""
    variant = find_game("concentration").variant("standard")
    thinker = sandboxed(spec("Thinker", report=1), "concentration", UNHURRIED,
                        tmp_path / "t.log")
    renicer = sandboxed(spec("Renicer", marker=marker, within=os.getpid()), "concentration",
                        UNHURRIED, tmp_path / "renicer.log")
    act = SandboxedBot.act
    last: list[BotHost] = []  # whose decision came last
    gained: list[int] = []  # the spinners' CPU time during each such decision of the thinker

    def watched(self: SandboxedBot, obs: Observation) -> object:
        follows = self.host is thinker.host and last[-1:] == [thinker.host]
        spinners = marked(marker) if follows else []
        before = cpu_ns(spinners)
        action = act(self, obs)
        if follows:
            gained.append(cpu_ns(spinners) - before)
        last.append(self.host)
        return action

    monkeypatch.setattr(SandboxedBot, "act", watched)
    try:
        record = play_game(variant, [renicer.make(), thinker.make()], ["renicer", "thinker"], 3)
    finally:
        renicer.close()
        thinker.close()
    return record, sum(gained) / 1e9, len(gained)


@needs_kernel
@needs_cgroups
def test_renicing_the_opponent_is_contained_when_sandboxed(
        tmp_path: Path, marker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sandboxed game cannot see, renice or starve another game: the renicer sees no other
    game, the thinker keeps its nice value and scheduling policy at every decision, and the
    renicer's spinners get no CPU at all while the thinker thinks (they are stopped with the
    renicer's game between its turns: counted by the kernel, schedstat). None of it depends on
    how loaded the machine is."""
    record, cpu, decisions = _thinking_while_renicer_spins(tmp_path, marker, monkeypatch)
    said = (tmp_path / "renicer.log").read_text()
    assert re.search(r"renicer started [1-9]", said), said  # spinning, in its game's groups
    assert "renicer sees 0 other games" in said, said  # it looked (none, in its namespace)
    assert "renicer reniced" not in said, said
    thought = (tmp_path / "t.log").read_text()
    priorities = re.findall(r"thinker nice=(-?\d+) policy=(\d+)", thought)
    assert len(priorities) == 1 and priorities[0][1] == str(os.SCHED_OTHER), thought
    assert decisions >= 10 and cpu == 0.0, (cpu, decisions)
    assert [fault for fault in record.faults if fault.seat == 1] == [], record.faults


# 7. metadata of a file outside its directory


def _target(tmp_path: Path) -> Path:
    """A file outside any game's directory, readable by its owner only."""
    target = tmp_path / "secret.txt"
    target.write_text("not the bot's")
    target.chmod(0o600)
    return target


def test_metadata_outside_its_directory_can_be_changed_in_process(tmp_path: Path) -> None:
    """Mode, owner, times and extended attributes of a file anywhere can be changed in-process."""
    target = _target(tmp_path)
    play_in_process(spec("Toucher", target=target))
    assert target.stat().st_mode & 0o777 == 0o644  # world-readable now
    assert target.stat().st_mtime == 1_000_000_000
    assert NOTE_ATTRIBUTE in os.listxattr(target)


@needs_kernel
def test_metadata_outside_its_directory_cannot_be_changed_when_sandboxed(
        tmp_path: Path) -> None:
    """A sandboxed game changes no file's metadata outside its directory."""
    target = _target(tmp_path)
    before = target.stat()
    said = play_sandboxed(spec("Toucher", target=target), tmp_path / "toucher.log")
    assert said.count("toucher could not") == 4, said  # chmod, chown, utime, setxattr
    after = target.stat()
    assert (after.st_mode, after.st_uid, after.st_gid, after.st_mtime_ns, after.st_ctime_ns) == (
        before.st_mode, before.st_uid, before.st_gid, before.st_mtime_ns, before.st_ctime_ns)
    assert os.listxattr(target) == []


# 8. UDP out, from the bot and from a child interpreter


def test_datagrams_go_out_in_process(listener: socket.socket) -> None:
    """The bot and a child interpreter it starts send datagrams to 127.0.0.1."""
    play_in_process(spec("Sender", port=listener.getsockname()[1], token="out-7"))
    assert received(listener) == {"bot out-7", "child out-7"}


@needs_kernel
def test_no_datagram_goes_out_when_sandboxed(tmp_path: Path, listener: socket.socket) -> None:
    """No datagram leaves a sandboxed game, from the bot or a child (no network)."""
    said = play_sandboxed(spec("Sender", port=listener.getsockname()[1], token="out-7"),
                          tmp_path / "sender.log")
    assert "sender" in said, said  # it tried
    assert received(listener) == set(), said


@pytest.fixture
def unix_listener(tmp_path: Path) -> Iterator[socket.socket]:
    """A unix datagram socket in the test's folder, which a game can see (read-only)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "listening.sock"))
        yield sock


def test_a_datagram_reaches_a_unix_socket_in_process(tmp_path: Path,
                                                     unix_listener: socket.socket) -> None:
    """A bot sends to a unix socket on the machine (a path, not an address)."""
    play_in_process(spec("UnixSender", path=tmp_path / "listening.sock", token="u-3"))
    assert received(unix_listener) == {"unix u-3"}


@needs_kernel
def test_no_datagram_reaches_a_unix_socket_when_sandboxed(
        tmp_path: Path, unix_listener: socket.socket) -> None:
    """A sandboxed game may make no unix socket of its own (its seccomp filter), so none it
    could send from reaches a socket on the machine, which its network namespace does not
    cover."""
    said = play_sandboxed(spec("UnixSender", path=tmp_path / "listening.sock", token="u-3"),
                          tmp_path / "unix.log")
    assert "unixsender could not send: PermissionError" in said, said
    assert received(unix_listener) == set(), said


# 9. a disk flood from a child, past the ration


def _flooded(said: str) -> int:
    """How many MB the flood says it wrote (its last word on it)."""
    found = re.findall(r"flood (?:wrote|at) (\d+) MB", said)
    return int(found[-1]) if found else 0


@attack_control
@pytest.mark.parametrize("way", ["one", "many"])
def test_a_child_floods_the_disk_in_process(ram_folder: Path, way: str,
                                            capfd: pytest.CaptureFixture[str]) -> None:
    """A child writes a gigabyte, past the game's 512 MB ration."""
    play_in_process(spec("Flooder", megabytes=1024, way=way, folder=ram_folder))
    assert _flooded(capfd.readouterr().out) > RATION_MB


@needs_kernel
@pytest.mark.parametrize("way", ["one", "many"])
def test_a_child_cannot_flood_the_disk_when_sandboxed(
        tmp_path: Path, ram_folder: Path, monkeypatch: pytest.MonkeyPatch, way: str) -> None:
    """A sandboxed game's child writes no more than the 512 MB ration."""
    monkeypatch.setenv("TMPDIR", str(ram_folder))  # the hosts' games' directories, if on disk
    said = play_sandboxed(spec("Flooder", megabytes=1024, way=way), tmp_path / "flooder.log")
    assert "flooder" in said, said  # it tried
    assert _flooded(said) <= RATION_MB, said


# 10. a user namespace of its own (the kernel's less-trodden code in reach)


@needs_kernel  # where this user may make one at all
def test_a_bot_makes_a_user_namespace_in_process(tmp_path: Path) -> None:
    """In the arena's own process, a bot's child can make a user namespace of its own."""
    log = tmp_path / "out.txt"
    with contextlib.redirect_stdout(log.open("w")):
        play_in_process(spec("NamespaceMaker"))
    assert "namespacemaker made a user namespace" in log.read_text()


@needs_kernel
def test_a_sandboxed_bot_makes_no_namespace(tmp_path: Path) -> None:
    """A sandboxed game's seccomp filter refuses new namespaces, to its children too."""
    said = play_sandboxed(spec("NamespaceMaker"), tmp_path / "maker.log")
    assert "namespacemaker could not make a user namespace" in said, said
