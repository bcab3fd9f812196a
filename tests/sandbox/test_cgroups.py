"""Per-game control groups (`arena.sandbox.cgroups`): limits, joining, the freezer, CPUs, reuse
and removal, tried with forked children of the test process; and a fork bomb held to the game's
process cap end to end."""

from __future__ import annotations

import contextlib
import mmap
import os
import random
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import Limits, sandboxed
from arena.sandbox import cgroups as cg
from arena.sandbox.cgroups import (
    GAME_PROCESSES,
    PREFIX,
    CgroupHost,
    Freezer,
    GameGroup,
    Hierarchy,
    find_hierarchies,
    join,
    remove,
    set_cpus,
    sweep,
    thaw,
)

MEMORY = 256 << 20
NEEDED = {"memory", "pids", "freezer"}


def _cgroups_writable() -> bool:
    """Whether this process may make control groups for memory, pids and the freezer (cgroup v2
    with memory and pids, or the three v1 hierarchies), judged without the module."""
    if sys.platform != "linux":
        return False
    root = Path("/sys/fs/cgroup")
    if (root / "cgroup.controllers").exists():  # cgroup v2 alone: this process's own group
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        own = next((line[3:] for line in lines if line.startswith("0::")), "/")
        base = root / own.lstrip("/")
        with contextlib.suppress(OSError):
            available = set((base / "cgroup.controllers").read_text().split())
            return {"memory", "pids"} <= available and os.access(base, os.W_OK)
        return False
    return all((root / name).is_dir() and os.access(root / name, os.W_OK) for name in NEEDED)


needs_cgroups = pytest.mark.skipif(
    not _cgroups_writable(), reason="needs control groups this user may make for memory, pids "
                                    "and the freezer (cgroup v2, or v1 hierarchies)")


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether `condition` holds within `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def count_forever(counter: mmap.mmap) -> None:
    """Count in shared memory, a step a millisecond, until killed."""
    number = 0
    while True:
        number += 1
        counter[:8] = number.to_bytes(8, "little")
        time.sleep(0.001)


class Member:
    """A forked child that joins a game's groups (through `fds`), then runs `work` (by default
    it counts in shared memory, to be seen making progress) and exits 0."""

    def __init__(self, fds: list[int],
                 work: Callable[[mmap.mmap], None] = count_forever) -> None:
        self.counter = mmap.mmap(-1, 8)  # shared with the child
        ready, joined = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # never back into pytest
            try:
                os.close(ready)
                join(list(fds))
                os.write(joined, b"j")
                os.close(joined)
                work(self.counter)
            finally:
                os._exit(0)
        os.close(joined)
        try:
            assert os.read(ready, 1) == b"j", "the child could not join its groups"
        finally:
            os.close(ready)
        self.code: int | None = None

    def count(self) -> int:
        """How far the child has counted."""
        return int.from_bytes(self.counter[:8], "little")

    def progressing(self, seconds: float = 2.0) -> bool:
        """Whether the child counts on within `seconds`."""
        start = self.count()
        return wait_until(lambda: self.count() > start, seconds)

    def ended(self, seconds: float = 2.0) -> int | None:
        """The child's exit code (negative: a signal) if it ends within `seconds`, else None."""
        deadline = time.monotonic() + seconds
        while self.code is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
            elif time.monotonic() > deadline:
                return None
            else:
                time.sleep(0.005)
        return self.code

    def kill(self, freezers: list[Path | None]) -> None:
        """Kill the child (thawing `freezers`, where it may be frozen) and reap it."""
        if self.code is None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
            for path in freezers:
                with contextlib.suppress(OSError):
                    thaw(path)
            self.ended(5.0)
        self.counter.close()


@pytest.fixture
def members() -> Iterator[Callable[..., Member]]:
    """Makes `Member`s; each is killed and reaped after the test."""
    made: list[tuple[Member, list[Path | None]]] = []

    def make(group: GameGroup, fds: list[int],
             work: Callable[[mmap.mmap], None] = count_forever) -> Member:
        member = Member(fds, work)
        made.append((member, [group.freezer]))
        return member

    yield make
    for member, freezers in made:
        member.kill(freezers)


@pytest.fixture
def host() -> Iterator[CgroupHost]:
    """A host's groups with 256 MiB games; closed after the test."""
    opened, problem = CgroupHost.open(MEMORY)
    assert opened is not None, problem
    try:
        yield opened
    finally:
        opened.close()


def frozen(group: GameGroup) -> bool:
    """Whether the kernel says a game's group is frozen (not merely freezing)."""
    path = group.freezer
    assert path is not None
    if path.name == "cgroup.freeze":
        return "frozen 1" in (path.parent / "cgroup.events").read_text().splitlines()
    return path.read_text().strip() == "FROZEN"


def leftovers() -> list[Path]:
    """This process's hosts' folders, in any hierarchy."""
    hierarchies, _ = find_hierarchies()
    return [folder for h in hierarchies for folder in h.base.glob(f"{PREFIX}{os.getpid()}-*")]


# finding the hierarchies


@needs_cgroups
def test_find_hierarchies_finds_memory_pids_and_freezer_in_this_process_s_groups() -> None:
    """Every needed controller is served, each in a writable folder that is this process's own
    group in that hierarchy (as /proc/self/cgroup says)."""
    hierarchies, problem = find_hierarchies()
    assert problem == "" and hierarchies
    assert set().union(*(h.controllers for h in hierarchies)) >= NEEDED
    own = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            own[controller] = path
    for hierarchy in hierarchies:
        assert hierarchy.base.is_dir() and os.access(hierarchy.base, os.W_OK)
        controller = "" if hierarchy.unified else min(hierarchy.controllers)
        assert str(hierarchy.base).rstrip("/").endswith(own[controller].rstrip("/")), hierarchy


def _fake_mounts(monkeypatch: pytest.MonkeyPatch, mounts: list[tuple[Path, str, list[str]]],
                 own: dict[str, str]) -> None:
    """Make `find_hierarchies` see these cgroup mounts and groups of this process."""
    monkeypatch.setattr(cg, "_cgroup_mounts", lambda: iter(mounts))
    monkeypatch.setattr(cg, "_own_groups", lambda: own)


def test_without_control_groups_find_hierarchies_says_what_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No cgroup mounts: nothing found, every needed controller named, and no host."""
    _fake_mounts(monkeypatch, [], {})
    problem = "no control groups this user may make for freezer, memory, pids"
    assert find_hierarchies() == ((), problem)
    assert CgroupHost.open(MEMORY) == (None, problem)


def test_v1_hierarchies_must_serve_every_needed_controller(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """v1 hierarchies for memory and pids but no freezer are not enough; with one they are, each
    at this process's group in it."""
    for name in ("memory", "pids", "freezer", "cpu"):
        (tmp_path / name / "arena").mkdir(parents=True)
    mounts = [(tmp_path / name, "cgroup", ["rw", name]) for name in ("memory", "pids", "cpu")]
    own = {"memory": "/arena", "pids": "/arena", "freezer": "/arena", "cpu": "/arena"}
    _fake_mounts(monkeypatch, mounts, own)
    assert find_hierarchies() == ((), "no control groups this user may make for freezer")
    mounts.append((tmp_path / "freezer", "cgroup", ["rw", "freezer"]))
    hierarchies, problem = find_hierarchies()
    assert problem == ""
    assert {(h.base, h.controllers, h.unified) for h in hierarchies} == {
        (tmp_path / name / "arena", frozenset({name}), False)
        for name in ("memory", "pids", "freezer")}  # cpu is none of the arena's


def test_a_unified_hierarchy_with_memory_and_pids_is_used_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """cgroup v2 with memory and pids (and cpuset) is one hierarchy for every controller; one
    without pids is passed over for the v1 ones."""
    base = tmp_path / "unified" / "arena"
    base.mkdir(parents=True)
    (base / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    _fake_mounts(monkeypatch, [(tmp_path / "unified", "cgroup2", ["rw"])], {"": "/arena"})
    assert find_hierarchies() == (
        (Hierarchy(base, frozenset({"memory", "pids", "freezer", "cpuset"}), True),), "")
    (base / "cgroup.controllers").write_text("cpu memory\n")
    assert find_hierarchies()[0] == ()


# a host's groups


@needs_cgroups
def test_a_host_makes_its_folder_in_every_hierarchy(host: CgroupHost) -> None:
    """The host's folder, named for its process, is in every hierarchy, with a first game group."""
    assert host.name.startswith(f"{PREFIX}{os.getpid()}-")
    for hierarchy in host.hierarchies:
        assert (hierarchy.base / host.name / "game-0").is_dir()
    assert len(host.free) == len(host.made) == 1


@needs_cgroups
def test_a_game_group_has_its_memory_and_process_limits(host: CgroupHost) -> None:
    """A game's group allows 256 MiB (swap included, where the kernel counts it) and
    GAME_PROCESSES processes; a v1 cpuset group starts with its folder's CPUs and memory nodes."""
    group, _ = host.take()
    found = {}
    for path in group.paths:
        for name in ("memory.max", "memory.limit_in_bytes", "memory.memsw.limit_in_bytes",
                     "pids.max", "cpuset.cpus", "cpuset.mems"):
            if (path / name).exists():
                found[name] = (path / name).read_text().strip()
    assert found.get("memory.max", found.get("memory.limit_in_bytes")) == str(MEMORY), found
    assert found.get("memory.memsw.limit_in_bytes", str(MEMORY)) == str(MEMORY), found
    assert found["pids.max"] == str(GAME_PROCESSES)
    if "cpuset.cpus" in found and not any(h.unified for h in host.hierarchies):
        base = next(h.base for h in host.hierarchies if "cpuset" in h.controllers)
        assert found["cpuset.cpus"] == (base / "cpuset.cpus").read_text().strip() != ""
        assert found["cpuset.mems"] == (base / "cpuset.mems").read_text().strip() != ""


@needs_cgroups
def test_a_process_that_joins_is_in_every_group_of_its_game(
        host: CgroupHost, members: Callable[..., Member]) -> None:
    """A child that joins through the host's descriptors is in the game's group in every
    hierarchy (its /proc/<pid>/cgroup says so), and is the group's only member."""
    group, fds = host.take()
    member = members(group, fds)
    assert group.members() == {member.pid}
    for path in group.paths:
        assert str(member.pid) in (path / "cgroup.procs").read_text().split()
    lines = Path(f"/proc/{member.pid}/cgroup").read_text().splitlines()
    ours = [line for line in lines if any(
        (line.split(":")[1] == "") if h.unified
        else set(line.split(":")[1].split(",")) & h.controllers for h in host.hierarchies)]
    assert len(ours) == len(host.hierarchies), lines
    assert all(line.endswith(f"/{host.name}/game-0") for line in ours), lines
    assert os.fstat(fds[0])  # the host keeps its descriptors for the next game


@needs_cgroups
def test_the_freezer_stops_a_game_and_lets_it_go_on(host: CgroupHost,
                                                    members: Callable[..., Member]) -> None:
    """Frozen, a game's process makes no progress (and the kernel says it is frozen); thawed,
    it goes on; closing the freezer thaws it too."""
    group, fds = host.take()
    member = members(group, fds)
    assert member.progressing()
    assert group.freezer is not None
    freezer = Freezer(str(group.freezer))
    try:
        freezer.freeze()
        assert wait_until(lambda: frozen(group), 2.0), "the group never froze"
        stopped = member.count()
        time.sleep(0.1)
        assert member.count() == stopped, "a frozen process went on counting"
        freezer.thaw()
        assert member.progressing() and not frozen(group)
        freezer.freeze()
        assert wait_until(lambda: frozen(group), 2.0)
    finally:
        freezer.close()
    assert member.progressing(), "closing the freezer left the game frozen"


@needs_cgroups
def test_thaw_thaws_a_frozen_game_by_its_file(host: CgroupHost,
                                              members: Callable[..., Member]) -> None:
    """`thaw` with a game's freezer file lets a frozen game go on (and None is no freezer)."""
    group, fds = host.take()
    member = members(group, fds)
    freezer = Freezer(str(group.freezer))
    try:
        freezer.freeze()
        assert wait_until(lambda: frozen(group), 2.0)
        thaw(None)
        assert frozen(group)
        thaw(group.freezer)
        assert member.progressing() and not frozen(group)
    finally:
        freezer.close()


@needs_cgroups
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs 2 CPUs to move a game")
def test_set_cpus_holds_a_game_to_its_cpus(host: CgroupHost,
                                           members: Callable[..., Member]) -> None:
    """A game's cpuset decides its CPUs: set_cpus moves it, and it cannot widen them itself."""
    group, fds = host.take()
    if group.cpuset is None:
        pytest.skip("no cpuset controller for the arena's groups here")
    member = members(group, fds)
    first, second = sorted(os.sched_getaffinity(0))[:2]
    set_cpus(str(group.cpuset), {second})
    assert os.sched_getaffinity(member.pid) == {second}
    os.sched_setaffinity(member.pid, {first, second})  # as the game itself could try
    assert os.sched_getaffinity(member.pid) == {second}
    set_cpus(str(group.cpuset), {first})
    assert os.sched_getaffinity(member.pid) == {first}
    assert member.progressing()


@needs_cgroups
def test_a_game_may_have_at_most_game_processes(host: CgroupHost,
                                                members: Callable[..., Member]) -> None:
    """A game's process that forks on and on gets GAME_PROCESSES - 1 children, then EAGAIN."""
    def fork_on(counter: mmap.mmap) -> None:
        made = 0
        try:
            for _ in range(GAME_PROCESSES * 3):
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                made += 1
        except BlockingIOError:
            counter[:8] = made.to_bytes(8, "little")
        time.sleep(60)

    group, fds = host.take()
    member = members(group, fds, fork_on)
    # a backstop, not a promise of speed: the wait ends when the pids limit stops the forks
    # (5 s ran out at a load of 27)
    assert wait_until(lambda: member.count() > 0, 60.0), "it never stopped forking"
    assert member.count() == GAME_PROCESSES - 1
    assert len(group.members()) == GAME_PROCESSES
    group.end()
    assert member.ended() == -signal.SIGKILL
    assert wait_until(lambda: not group.members(), 30.0), group.members()


@needs_cgroups
def test_give_back_ends_a_process_left_behind_and_take_reuses_the_group(
        host: CgroupHost, members: Callable[..., Member]) -> None:
    """A game given back with a process still in it (frozen, even) has it killed; the next
    `take` hands out the same group and descriptors, made once."""
    group, fds = host.take()
    member = members(group, fds)
    freezer = Freezer(str(group.freezer))
    freezer.freeze()
    assert wait_until(lambda: frozen(group), 2.0)
    host.give_back(group)
    freezer.close()
    assert member.ended() == -signal.SIGKILL
    assert wait_until(lambda: not group.members(), 2.0)
    again, again_fds = host.take()
    assert again is group and again_fds is fds and len(host.made) == 1
    assert members(again, again_fds).progressing()  # the group works for its next game


@needs_cgroups
def test_take_thaws_a_group_given_back_frozen(host: CgroupHost) -> None:
    """A group given back frozen (with nobody in it) is thawed when taken again."""
    group, _ = host.take()
    freezer = Freezer(str(group.freezer))
    try:
        freezer.freeze()
        assert wait_until(lambda: frozen(group), 2.0)
        host.give_back(group)
        assert frozen(group)
        assert host.take()[0] is group and not frozen(group)
    finally:
        freezer.close()


@needs_cgroups
def test_take_makes_a_new_group_while_one_is_out(host: CgroupHost) -> None:
    """Two games at once get two groups, each in every hierarchy."""
    first, first_fds = host.take()
    second, second_fds = host.take()
    assert first.paths != second.paths and all(path.is_dir() for path in second.paths)
    assert set(first_fds).isdisjoint(second_fds) and len(host.made) == 2


@needs_cgroups
def test_close_removes_every_group_with_its_processes(members: Callable[..., Member]) -> None:
    """Closing a host with a game's process still running and another's frozen kills both and
    leaves no folder of its in any hierarchy."""
    opened, problem = CgroupHost.open(MEMORY)
    assert opened is not None, problem
    try:
        running, running_fds = opened.take()
        idle, idle_fds = opened.take()
        alive, stuck = members(running, running_fds), members(idle, idle_fds)
        Freezer(str(idle.freezer)).freeze()  # left frozen, its descriptor closed with it
        assert wait_until(lambda: frozen(idle), 2.0)
        folders = [h.base / opened.name for h in opened.hierarchies]
        assert all(folder.is_dir() for folder in folders)
    finally:
        opened.close()
    assert alive.ended() == -signal.SIGKILL and stuck.ended() == -signal.SIGKILL
    assert not any(folder.exists() for folder in folders), folders
    assert opened.made == opened.free == [] and opened.procs == {}
    assert leftovers() == []


def _absent_pid() -> int:
    """A process id no process can have (beyond the kernel's largest)."""
    return int(Path("/proc/sys/kernel/pid_max").read_text()) + 1


@needs_cgroups
def test_sweep_removes_a_dead_host_s_groups_and_its_processes_but_not_a_live_host_s(
        members: Callable[..., Member]) -> None:
    """A host's folder named for a process that is gone is removed by `sweep`, with what still
    ran in it; one named for a live process stays."""
    dead, problem = CgroupHost.open(MEMORY)
    live, _ = CgroupHost.open(MEMORY)
    assert dead is not None and live is not None, problem
    gone_name = f"{PREFIX}{_absent_pid()}-{os.urandom(4).hex()}"
    try:
        group, fds = dead.take()
        left = members(group, fds)
        for hierarchy in dead.hierarchies:  # as if its host had been killed
            (hierarchy.base / dead.name).rename(hierarchy.base / gone_name)
        for hierarchy in dead.hierarchies:
            sweep(hierarchy.base)
        assert left.ended() == -signal.SIGKILL
        for hierarchy in live.hierarchies:
            assert not (hierarchy.base / gone_name).exists()
            assert (hierarchy.base / live.name / "game-0").is_dir()
    finally:
        for hierarchy in dead.hierarchies:
            remove(hierarchy.base / gone_name)
        dead.close()
        live.close()
    assert leftovers() == []


@needs_cgroups
def test_a_game_over_its_memory_is_killed_and_counted(members: Callable[..., Member]) -> None:
    """A game that touches 200 MiB in a 64 MiB group is killed by the kernel, and its group
    counts the kill."""
    def touch(counter: mmap.mmap) -> None:
        counter[:8] = (1).to_bytes(8, "little")
        block = b"x" * (200 << 20)  # written, so every page is the game's
        counter[:8] = len(block).to_bytes(8, "little")

    small, problem = CgroupHost.open(64 << 20)
    assert small is not None, problem
    try:
        group, fds = small.take()
        assert group.oom_kills() == 0
        member = members(group, fds, touch)
        assert member.ended(10.0) == -signal.SIGKILL, "it was not killed"
        assert member.count() == 1  # it never had its 200 MiB
        assert group.oom_kills() == 1
    finally:
        small.close()


# the files of a group, on plain folders standing in for them


def test_limit_in_a_unified_hierarchy_writes_memory_swap_and_pids(tmp_path: Path) -> None:
    """In cgroup v2, a game's limits are memory.max, no swap, and pids.max."""
    for name in ("memory.max", "memory.swap.max", "pids.max"):  # as empty files: not truncated
        (tmp_path / name).write_text("")
    hierarchy = Hierarchy(tmp_path, frozenset({"memory", "pids", "freezer"}), True)
    cg._limit(tmp_path, hierarchy, 123 << 20)
    assert {name: (tmp_path / name).read_text() for name in (
        "memory.max", "memory.swap.max", "pids.max")} == {
        "memory.max": str(123 << 20), "memory.swap.max": "0", "pids.max": str(GAME_PROCESSES)}


def test_limit_tolerates_no_swap_accounting_but_not_a_missing_limit(tmp_path: Path) -> None:
    """Without swap accounting (no memory.swap.max) the limits still hold; without pids.max a
    game could not be limited: OSError."""
    hierarchy = Hierarchy(tmp_path, frozenset({"memory", "pids", "freezer"}), True)
    (tmp_path / "memory.max").write_text("")
    with pytest.raises(OSError, match=r"pids\.max"):
        cg._limit(tmp_path, hierarchy, 1 << 20)
    (tmp_path / "pids.max").write_text("")
    cg._limit(tmp_path, hierarchy, 1 << 20)
    assert not (tmp_path / "memory.swap.max").exists()
    assert (tmp_path / "pids.max").read_text() == str(GAME_PROCESSES)


def test_limit_in_v1_copies_the_cpuset_of_its_folder(tmp_path: Path) -> None:
    """In a v1 cpuset hierarchy a game's group gets its folder's CPUs and memory nodes."""
    (tmp_path / "cpuset.cpus").write_text("0-1\n")
    (tmp_path / "cpuset.mems").write_text("0\n")
    game = tmp_path / "game-0"
    game.mkdir()
    for name in ("cpuset.cpus", "cpuset.mems"):
        (game / name).write_text("")
    cg._limit(game, Hierarchy(tmp_path, frozenset({"cpuset"}), False), 1 << 20)
    assert (game / "cpuset.cpus").read_text() == "0-1"
    assert (game / "cpuset.mems").read_text() == "0"


def test_a_unified_group_s_files(tmp_path: Path) -> None:
    """A v2 group freezes by cgroup.freeze, counts kills in memory.events, ends its processes
    by cgroup.kill, and is thawed by writing 0."""
    group = GameGroup((tmp_path,), (True,))
    assert group.freezer == tmp_path / "cgroup.freeze" and group.cpuset is None
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 9\noom 4\noom_kill 3\n")
    assert group.oom_kills() == 3
    (tmp_path / "cgroup.kill").write_text("")
    (tmp_path / "cgroup.procs").write_text(f"{os.getpid()}\n")  # not killed one by one
    group.end()
    assert (tmp_path / "cgroup.kill").read_text() == "1"
    (tmp_path / "cgroup.freeze").write_text("1")
    thaw(group.freezer)
    assert (tmp_path / "cgroup.freeze").read_text() == "0"


def test_a_v1_group_without_a_freezer_or_memory_files(tmp_path: Path) -> None:
    """A v1 group with none of the files has no freezer nor cpuset, and no kills counted."""
    group = GameGroup((tmp_path,), (False,))
    assert group.freezer is None and group.cpuset is None and group.oom_kills() == 0
    (tmp_path / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    assert group.oom_kills() == 2
    assert group.members() == set()


# a fork bomb, end to end


LIMITS = Limits(move_seconds=1.0, game_seconds=20.0, overage_seconds=1.0, memory_mb=256)
BOMB = Path(__file__).parent / "hostile" / "kernel.py"


def _descendants(apart: set[int] | frozenset[int] = frozenset()) -> set[int]:
    """The live processes descended from this one, but for those descended from a process of
    `apart` (processes another test left running, such as a browser, which start processes of
    their own whenever they like)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items()
                    if parent in frontier and parent not in apart} - found
        found |= frontier
    return found


def _sleeping(marker: int) -> list[int]:
    """The live `sleep` processes sleeping `marker` seconds."""
    found = []
    for entry in os.listdir("/proc"):
        with contextlib.suppress(OSError, ValueError):
            if entry.isdigit() and Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[1:2] \
                    == [str(marker).encode()]:
                found.append(int(entry))
    return found


@needs_cgroups
@pytest.mark.parametrize("way", ["processes", "threads"])
def test_a_fork_bomb_is_held_to_the_game_s_processes(tmp_path: Path, way: str) -> None:
    """A sandboxed bot that starts 500 processes (or threads) gets GAME_PROCESSES - 1 (its game
    process counts; with an init, ARENA_SANDBOX_INIT=1, that would count too), the game is
    played to its end, and nothing it started outlives it."""
    sleeper = shutil.which("sleep")
    if sleeper is None:
        pytest.skip("no sleep program to start")
    marker = random.randrange(40_000, 50_000)
    before = _descendants()
    log = tmp_path / "bomb.log"
    entry = sandboxed(f"{BOMB}:ForkBomb:count=500,way={way},sleeper={sleeper},marker={marker}",
                      "concentration", LIMITS, log)
    try:
        variant = find_game("concentration").variant("standard")
        record = play_game(variant, [entry.make(), resolve_bot("greedy").make()],
                           ["bomb", "greedy"], 1)
    finally:
        entry.close()
    try:
        said = log.read_text()
        assert f"forkbomb {way} started {GAME_PROCESSES - 1}, stopped by " in said, said
        stopped = "[Errno 11]" if way == "processes" else "can't start new thread"
        assert stopped in said, said
        assert len(record.ranks) == 2 and record.turns > 0  # the game was played to its end
        assert [fault for fault in record.faults if fault.seat == 1] == []
        # killed processes take their time to go on a loaded machine: limits no load reaches
        assert wait_until(lambda: not _sleeping(marker), 30.0), "a bomb's process outlived it"
        assert wait_until(lambda: _descendants(before) <= before, 30.0), \
            _descendants(before) - before
    finally:
        for pid in _sleeping(marker):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@needs_cgroups
def test_a_group_is_taken_on_the_cpus_it_is_prepared_on(host: CgroupHost,
                                                        members: Callable[..., Member]) -> None:
    """The process prepared for a game runs where its host does, not on the CPU the game before
    is played on (which its group kept from that game)."""
    group, fds = host.take()
    if group.cpuset is None or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("no cpuset controller for the arena's groups here, or one CPU")
    first, second = sorted(os.sched_getaffinity(0))[:2]
    set_cpus(str(group.cpuset), {first})  # the game before, played on the first CPU
    host.give_back(group)
    again, fds = host.take({second})
    assert again is group
    member = members(again, fds)
    assert os.sched_getaffinity(member.pid) == {second}
