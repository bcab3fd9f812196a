"""Per-game control groups: memory, processes and CPUs for every game, and the freezer that
pauses a game between its bot's turns, every process of it at once.

A bot's host makes a folder of its own under the arena's control group, in each hierarchy it may
write (cgroup v2, or the v1 controllers `memory`, `pids`, `freezer` and, where there is one,
`cpuset`), and a group for each game in it (groups are used again once their game has ended:
making one costs more than the game's first decisions). The game process joins its groups
itself, before any of the bot's code runs, through files the host opened for it. Where the
machine has no control groups this user may make, `CgroupHost.open` says why, and the rlimits of
the game process hold alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PREFIX = "arena-"
"""A host's folder in a hierarchy: PREFIX, the host's process id, '-' and a random name."""

GAME_PROCESSES = 64
"""How many processes and threads a game may have at once (its init, when it has one, included)."""

_NEEDED = frozenset({"memory", "pids", "freezer"})
_CONTROLLERS = (*sorted(_NEEDED), "cpuset")  # the CPUs a game may use: where there is cpuset


@dataclass(frozen=True)
class Hierarchy:
    """Where a host's groups go in one hierarchy, and which controllers it serves there."""

    base: Path  # the arena's own group in this hierarchy
    controllers: frozenset[str]
    unified: bool  # cgroup v2


@dataclass(frozen=True)
class GameGroup:
    """One game's groups: the folders, one per hierarchy."""

    paths: tuple[Path, ...]
    unified: tuple[bool, ...]

    @property
    def cpuset(self) -> Path | None:
        """The file that says which CPUs the game's processes may run on (see `set_cpus`)."""
        for path in self.paths:
            if (path / "cpuset.cpus").exists():
                return path / "cpuset.cpus"
        return None

    @property
    def freezer(self) -> Path | None:
        """The file that freezes and thaws the game (see `freeze`)."""
        for path, unified in zip(self.paths, self.unified, strict=True):
            if unified:
                return path / "cgroup.freeze"
            if (path / "freezer.state").exists():
                return path / "freezer.state"
        return None

    def open_procs(self) -> list[int]:
        """Descriptors of each group's process list, open for writing: a process joins by
        writing "0" to each (see `join`)."""
        return [os.open(path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC) for path in self.paths]

    def members(self) -> set[int]:
        """The processes in the game's groups (the same in every hierarchy)."""
        with contextlib.suppress(OSError):
            return {int(line) for line in (self.paths[0] / "cgroup.procs").read_text().split()}
        return set()

    def oom_kills(self) -> int:
        """How many of its processes the kernel has killed for memory, in all."""
        found = self.oom_file
        return oom_kills(str(found)) if found is not None else 0

    @property
    def oom_file(self) -> Path | None:
        """The file that counts the processes the kernel killed for memory (see `oom_kills`)."""
        for path, unified in zip(self.paths, self.unified, strict=True):
            name = "memory.events" if unified else "memory.oom_control"
            if (path / name).exists():
                return path / name
        return None

    def end(self) -> None:
        """Kill every process in the game's groups (thawed, so that they can die)."""
        for path, unified in zip(self.paths, self.unified, strict=True):
            if unified and _write(path / "cgroup.kill", "1"):
                return
        for pid in self.members():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        thaw(self.freezer)


def oom_kills(path: str) -> int:
    """How many processes the kernel has killed for memory in a group, given its `oom_file`
    (0 if it cannot be read)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path(path).read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
    return 0


def join(procs: list[int]) -> None:
    """Move this process into a game's groups, through descriptors `GameGroup.open_procs` made."""
    for fd in procs:
        os.write(fd, b"0")
        os.close(fd)


def set_cpus(path: str, cpus: set[int]) -> None:
    """Let a game's processes run only on `cpus`, given its cpuset file (see `GameGroup.cpuset`):
    none of them can move elsewhere, whatever affinity it sets itself."""
    _write(Path(path), ",".join(map(str, sorted(cpus))))


def _freezer_states(path: str | Path) -> tuple[bytes, bytes]:
    """What a freezer file is written to freeze, and to thaw (cgroup v2, or v1)."""
    return (b"1", b"0") if os.fspath(path).endswith("cgroup.freeze") else (b"FROZEN", b"THAWED")


def thaw(path: Path | None) -> None:
    """Thaw a game by its freezer file's path (if it has one and the game is not thawed: a
    write to a v1 freezer costs some 90 microseconds even then)."""
    if path is None:
        return
    thawed = _freezer_states(path)[1].decode()
    with contextlib.suppress(OSError):
        if path.read_text().strip() == thawed:
            return
    _write(path, thawed)


class Freezer:
    """A game's freezer file, open for the arena to pause and continue every process of it."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        self.frozen, self.thawed = _freezer_states(path)

    def freeze(self) -> None:
        """Stop every process of the game (they stay stopped until `thaw`)."""
        os.write(self.fd, self.frozen)

    def thaw(self) -> None:
        """Let the game's processes run again."""
        os.write(self.fd, self.thawed)

    def close(self) -> None:
        """Thaw the game (a frozen process cannot even die), and close the file."""
        with contextlib.suppress(OSError):
            self.thaw()
        os.close(self.fd)


@dataclass
class CgroupHost:
    """A host's groups: makes them, hands them to games, and removes them at the end."""

    hierarchies: tuple[Hierarchy, ...]
    memory_bytes: int
    name: str
    free: list[GameGroup] = field(default_factory=list)
    made: list[GameGroup] = field(default_factory=list)
    procs: dict[GameGroup, list[int]] = field(default_factory=dict)  # kept open for every game
    cpusets: dict[GameGroup, str] = field(default_factory=dict)  # each group's, "" if none

    @classmethod
    def open(cls, memory_bytes: int) -> tuple[CgroupHost | None, str]:
        """A host's groups where every controller can be had, or None and why not."""
        hierarchies, problem = find_hierarchies()
        if not hierarchies:
            return None, problem
        host = cls(hierarchies, memory_bytes, f"{PREFIX}{os.getpid()}-{os.urandom(6).hex()}")
        try:
            # a dead host's frozen processes die only once thawed: its freezer's folder first
            for hierarchy in sorted(hierarchies, key=lambda h: "freezer" not in h.controllers):
                sweep(hierarchy.base)
            for hierarchy in hierarchies:
                folder = hierarchy.base / host.name
                folder.mkdir()
                if "cpuset" in hierarchy.controllers and not hierarchy.unified:
                    for name in ("cpuset.cpus", "cpuset.mems"):  # empty in a new v1 group
                        (folder / name).write_text((hierarchy.base / name).read_text())
                if hierarchy.unified:
                    wanted = " ".join(f"+{c}" for c in sorted(hierarchy.controllers - {"freezer"}))
                    (folder / "cgroup.subtree_control").write_text(wanted)
            host.free.append(host.make())
        except OSError as exc:
            host.close()
            return None, f"control groups cannot be made here ({exc.strerror or exc})"
        return host, ""

    def make(self) -> GameGroup:
        """A new game group, with the limits set."""
        number = len(self.made)
        paths = []
        for hierarchy in self.hierarchies:
            path = hierarchy.base / self.name / f"game-{number}"
            path.mkdir()
            paths.append(path)
            _limit(path, hierarchy, self.memory_bytes)
        group = GameGroup(tuple(paths), tuple(h.unified for h in self.hierarchies))
        self.made.append(group)
        self.procs[group] = group.open_procs()
        return group

    def take(self, cpus: set[int] | None = None) -> tuple[GameGroup, list[int]]:
        """A group for the next game (a free one, thawed, else a new one), held to `cpus` if
        given (where it is prepared: never the CPU a game is played on), and the descriptors
        its game process joins it through (see `join`; they stay this host's)."""
        group = self.free.pop() if self.free else self.make()
        thaw(group.freezer)
        if cpus:
            cpuset = self.cpusets.get(group)
            if cpuset is None:
                cpuset = self.cpusets[group] = str(group.cpuset or "")
            if cpuset:
                set_cpus(cpuset, cpus)
        return group, self.procs[group]

    def give_back(self, group: GameGroup) -> None:
        """A game has ended: its group may be used again (its processes are ended first)."""
        if group.members():
            group.end()
        self.free.append(group)

    def close(self) -> None:
        """End every process in this host's groups and remove them."""
        for fds in self.procs.values():
            for fd in fds:
                os.close(fd)
        for group in self.made:  # in every hierarchy at once: a frozen process dies only thawed
            group.end()
        for hierarchy in self.hierarchies:
            remove(hierarchy.base / self.name)
        self.procs.clear()
        self.made.clear()
        self.free.clear()


def find_hierarchies() -> tuple[tuple[Hierarchy, ...], str]:
    """The hierarchies where this process may make groups for every controller a game needs:
    cgroup v2 where it has them all, else the v1 hierarchies of each; and why not, if none."""
    mounts = list(_cgroup_mounts())
    own = _own_groups()
    for mount, fstype, _ in mounts:
        if fstype != "cgroup2" or "" not in own:
            continue
        base = mount / own[""].lstrip("/")
        try:
            available = set((base / "cgroup.controllers").read_text().split())
        except OSError:
            continue
        if {"memory", "pids"} <= available and os.access(base, os.W_OK):
            controllers = frozenset({"memory", "pids", "freezer"} | (available & {"cpuset"}))
            return (Hierarchy(base, controllers, True),), ""
    found: list[Hierarchy] = []
    for mount, fstype, options in mounts:
        controllers = frozenset(options) & set(_CONTROLLERS)
        if fstype != "cgroup" or not controllers:
            continue
        key = next((k for k in own if set(k.split(",")) & controllers), None)
        if key is None:
            continue
        base = mount / own[key].lstrip("/")
        if base.is_dir() and os.access(base, os.W_OK):
            found.append(Hierarchy(base, controllers, False))
    served = set().union(*(h.controllers for h in found)) if found else set()
    if served >= _NEEDED:
        return tuple(found), ""
    missing = ", ".join(sorted(_NEEDED - served))
    return (), f"no control groups this user may make for {missing}"


def sweep(base: Path) -> None:
    """Remove the groups of hosts that were killed before they could remove them."""
    with contextlib.suppress(OSError):
        for entry in base.iterdir():
            pid, dash, _ = entry.name.removeprefix(PREFIX).partition("-")
            if entry.name.startswith(PREFIX) and dash and pid.isdigit() \
                    and not Path(f"/proc/{pid}").exists():
                remove(entry)


REMOVE_SECONDS = 1.0
"""How long `remove` waits for the processes it killed to be gone: a group cannot be removed
while one of them is still exiting."""


def remove(folder: Path) -> None:
    """End the processes in a host's folder of groups, and remove it."""
    with contextlib.suppress(OSError):
        groups = [child for child in folder.iterdir() if child.is_dir()]
        for child in groups:
            unified = (child / "cgroup.kill").exists() or (child / "cgroup.freeze").exists()
            GameGroup((child,), (unified,)).end()
        deadline = time.monotonic() + REMOVE_SECONDS
        for child in groups:
            with contextlib.suppress(OSError):
                _rmdir(child, deadline)
        folder.rmdir()


def _rmdir(group: Path, deadline: float) -> None:
    """Remove a group whose processes were killed, once they are gone (it is busy until then),
    or raise at `deadline`."""
    while True:
        try:
            group.rmdir()
            return
        except OSError as exc:
            if exc.errno != errno.EBUSY or time.monotonic() >= deadline:
                raise
            time.sleep(0.002)


def _limit(path: Path, hierarchy: Hierarchy, memory_bytes: int) -> None:
    """Set a game group's limits in one hierarchy."""
    controllers = hierarchy.controllers
    if hierarchy.unified:
        writes = {"memory.max": str(memory_bytes), "memory.swap.max": "0",
                  "pids.max": str(GAME_PROCESSES)}
    else:
        writes = {}
        if "memory" in controllers:
            writes |= {"memory.limit_in_bytes": str(memory_bytes),
                       "memory.memsw.limit_in_bytes": str(memory_bytes)}
        if "pids" in controllers:
            writes["pids.max"] = str(GAME_PROCESSES)
        if "cpuset" in controllers:  # a v1 group starts with no CPUs: its folder's, to begin with
            writes |= {name: (path.parent / name).read_text().strip()
                       for name in ("cpuset.cpus", "cpuset.mems")}
    for name, value in writes.items():
        if not _write(path / name, value) and name not in ("memory.swap.max",
                                                           "memory.memsw.limit_in_bytes"):
            raise OSError(0, f"cannot set {name} in {path}")


def _write(path: Path, text: str) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError:
        return False
    try:
        os.write(fd, text.encode())
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _cgroup_mounts() -> Iterator[tuple[Path, str, list[str]]]:
    """Each cgroup mount: its mount point, file system type and super options."""
    with contextlib.suppress(OSError), open("/proc/self/mountinfo") as file:
        for line in file:
            fields = line.split()
            if "-" not in fields:
                continue
            dash = fields.index("-")
            fstype = fields[dash + 1]
            if fstype in ("cgroup", "cgroup2"):
                yield Path(fields[4]), fstype, fields[dash + 3].split(",")


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy: its controllers (as in /proc/self/cgroup) to path."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as file:
        for line in file:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            out[controllers] = path
    return out
