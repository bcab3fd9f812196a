"""Kernel confinement of a bot's games with Linux namespaces: what the game processes can see.

The forker (see `arena.sandbox.host`) enters, once, a user namespace of its own (its root is the
arena's user, with capabilities over nothing but the forker's own namespaces), a mount namespace
where the whole file system is read-only and what the arena keeps to itself (the run directory
with its key, the other bots' code) is covered by empty mounts, and a network namespace with no
network at all. Every game process is then cloned into namespaces of its own: a PID namespace
(it is process 1 there, sees and signals only the processes it started, and when it ends the
kernel ends them all, whatever they did to their session or group), an IPC namespace, and a
mount namespace where its working directory is a size-limited tmpfs (the disk ration, exact)
and /proc shows only its own processes; then it drops every capability, for good, before any
of the bot's code runs. Where the kernel lacks a feature (no user namespaces for this user, say),
`confine_forker` says so and the host plays with what it has (`arena doctor` shows which).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import platform
import stat
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWCGROUP = 0x02000000
_SIGCHLD = 17

_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18
_MOUNT_ATTR_RDONLY, _MOUNT_ATTR_NOSUID, _MOUNT_ATTR_NODEV = 0x1, 0x2, 0x4
_AT_FDCWD, _AT_RECURSIVE, _AT_EMPTY_PATH = -100, 0x8000, 0x1000
_OPEN_TREE_CLONE, _MOVE_MOUNT_F_EMPTY_PATH = 1, 0x4

# system call numbers that differ between architectures: clone, and mount_setattr (generic table)
_CLONE = {"x86_64": 56, "aarch64": 220, "riscv64": 220}.get(platform.machine())
_MOUNT_SETATTR, _OPEN_TREE, _MOVE_MOUNT = 442, 428, 429

DEVICES = ("null", "zero", "full", "random", "urandom")
"""The devices a game may open: its /dev is a read-only tmpfs holding these (and the links
/dev/fd, /dev/stdin, /dev/stdout and /dev/stderr), and every other mount is `nodev`."""

HIDDEN = ("/sys/fs/cgroup",)
"""Folders of the machine's that every game sees empty: the control groups of every process
(a game's own have counters that outlive it; it sees none)."""

GAME_ID = 2**31 - 2
"""The user and group id every game process runs as, in its user namespace and outside it alike,
where the arena may map one besides its own (it runs as root): an id above the ranges systems
give their users and containers, which owns no file of the machine's, so that a game may read
of the machine's files only what everyone may. (Where the arena runs as an ordinary user, the
game runs as the arena's user, without capabilities, and the user's home is covered but for
what games need.)"""

SKELETON = "size=64k,nr_inodes=256,mode=755"
"""A skeleton: the read-only tmpfs put over a folder a game may not look into (the arena's
user's home, a folder only its owner may enter), holding only the folders on the way to what a
game must read below it (the interpreter, the Python path, the bot's folder, the games' own
directory), each of those mounted back in its place."""

_PR_SET_DUMPABLE = 4
_PR_CAPBSET_DROP, _PR_SET_SECUREBITS, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 28, 47, 4
# no root privileges on exec, no setuid fix-ups, no ambient raising: each locked
_SECUREBITS = 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80
_CAPABILITY_VERSION_3 = 0x20080522


def _libraries() -> tuple[Any, Any]:
    """The C library twice: as C (the GIL released in calls) and as Python's own (held, for
    `clone`, which must not let another thread run in between)."""
    with contextlib.suppress(OSError):
        return ctypes.CDLL(None, use_errno=True), ctypes.PyDLL(None, use_errno=True)
    return None, None


_LIBC, _PYLIBC = _libraries()  # opened when the host starts, before any bot code runs


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


@dataclass(frozen=True)
class Confinement:
    """What the forker's namespaces hold, and how to clone a game process into its own."""

    user: bool = False  # a user namespace: capabilities over the forker's namespaces only
    read_only: bool = False  # the whole file system read-only, what the arena keeps covered
    network: bool = False  # no network (a namespace of the forker's, or of each game's)
    game_flags: int = 0  # the namespaces each game gets of its own (0: games are forked)
    fresh_proc: bool = False  # each game's /proc shows its own processes only
    game_id: int = -1  # the id each game switches to (`GAME_ID`), -1 for none (the arena's)
    skeletons: tuple[str, ...] = ()  # folders covered but for what games must read below them
    covers_home: bool = False  # the arena's user's home among them (or out of view)
    allow_list: bool = False  # games see a root of their own: only what `_view` put there
    copied: tuple[str, ...] = ()  # the bot's folders copied into that root (not mounted)
    problem: str = ""  # why a namespace could not be had, if one could not

    @property
    def per_game(self) -> bool:
        """Whether every game process gets PID, IPC and mount namespaces of its own."""
        return bool(self.game_flags & CLONE_NEWPID)


def confine_forker(private: Sequence[str], shared_network: bool, trial: str,
                   bot_folders: Sequence[str] = (), own_id: bool = True,
                   view: str = "") -> Confinement:
    """Enter this process's namespaces (see the module docstring). `shared_network`: one network
    namespace for all games of this forker (where Landlock keeps each game's abstract unix
    sockets to itself), else one per game; `trial`: an empty folder where a trial game mounts its
    directory; `bot_folders`: the bot's own folders, which games must read besides the
    interpreter and the Python path (see `SKELETON`), and which are theirs where they switch
    to `GAME_ID` (`own_id`, where the arena may map it; see `_idmapped`); `view`: an empty
    folder where the games' root is built (see `_view`; by default `view` beside `trial`).
    Never raises: what could not be had is reported."""
    if _LIBC is None or _CLONE is None:
        return Confinement(problem="namespaces need Linux on x86_64, aarch64 or riscv64")
    uid, gid, home = os.geteuid(), os.getegid(), _home()
    view = view or os.path.join(os.path.dirname(trial), "view")
    with contextlib.suppress(OSError):  # made as the arena's user; not there: no allow-list
        os.makedirs(view, 0o700, exist_ok=True)
    flags = CLONE_NEWUSER | CLONE_NEWNS | (CLONE_NEWNET if shared_network else 0)
    mapper = _mapper(gid) if uid == 0 and own_id else None
    # made before the user namespace, which may not make them (its capabilities are its own)
    # a bot's folder is copied into the games' root if it is small enough (its copies readable
    # by their id); one too large is mounted, idmapped where the games have an id of their own
    plan = _plan(libraries(), bot_folders, private, os.path.dirname(trial))
    mounted = [folder for folder in bot_folders
               if os.path.realpath(folder) not in plan.copies and os.path.exists(folder)]
    idmapped = _idmapped(mounted) if mapper is not None else {}
    shut = [folder for folder in mounted
            if os.path.realpath(folder) not in idmapped and not _open_to_others(folder)]
    id_problem = ""
    if mapper is not None and shut:  # a bot's folder the games' id could not read: not that id
        _map_ids(uid, gid, mapper, entered=False)
        mapper = None
        _close_all(idmapped)
        id_problem = ("games run as the arena's user: the bot's folder could not be mapped to "
                      "their id (no idmapped mounts here) and others may not read it")
    try:
        _check(_LIBC.unshare(flags), "unshare")
    except OSError as exc:
        _map_ids(uid, gid, mapper, entered=False)
        _close_all(idmapped)
        return Confinement(problem=f"no user namespace for this user ({exc.strerror})")
    try:
        game_id = _map_ids(uid, gid, mapper)
        _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    except OSError as exc:
        _close_all(idmapped)
        return Confinement(user=True, network=shared_network,
                           problem=f"no private mounts in the user namespace ({exc.strerror})")
    problem = id_problem
    skeletons: list[str] = []
    try:
        try:  # an allow-list: a root of the games' own, holding only what they need
            copied = _view(view, plan, os.path.dirname(trial), idmapped if game_id >= 0 else {})
            allow_list = True
        except OSError as exc:  # the machine's root, with covers (a deny-list)
            problem = problem or f"no root of the games' own ({exc.strerror})"
            allow_list, copied = False, ()
            skeletons = _skeletons([*reachable_paths(), *bot_folders, os.path.dirname(trial)],
                                   game_id >= 0)
            if game_id >= 0:  # the bot's folders the games' own (read-only, as all)
                _place(idmapped)
        # covered after: what the arena keeps may lie in what was mounted back (with an
        # allow-list, only where a bot's folder was too large to copy)
        covered = [path for path in private if _cover(path)]
        if not allow_list:
            covered += [path for path in HIDDEN if _cover(path)]
            devices = _private_dev(keep=(os.path.dirname(trial),))  # every game's directory
        else:
            devices = [f"/dev/{name}" for name in DEVICES]
        _set_attributes("/", _MOUNT_ATTR_RDONLY | _MOUNT_ATTR_NOSUID | _MOUNT_ATTR_NODEV, 0,
                        recursive=True)
        for path in [*devices, *covered]:  # devices, and /dev/null over covered files
            _set_attributes(path, 0, _MOUNT_ATTR_NODEV)
        read_only = True
    except OSError as exc:
        read_only, problem = False, f"the file system is not read-only ({exc.strerror})"
        allow_list, copied = False, ()
    finally:
        _close_all(idmapped)
    game_flags = CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS | (0 if shared_network else CLONE_NEWNET)
    fresh_proc = False
    try:  # one trial game, to know that games can have their namespaces before relying on it
        code = _trial_game(game_flags, trial, game_id)
        if code == 4:  # it could not be the game's id: games keep the forker's
            problem, game_id = "games could not switch to an id of their own", -1
            code = _trial_game(game_flags, trial, game_id)
        if code not in (0, 3):
            raise OSError(0, "a trial game could not mount its directory")
        fresh_proc = code == 0
    except OSError as exc:
        game_flags = 0
        problem = problem or f"no namespaces of a game's own ({exc.strerror})"
    # no network: the forker's namespace, else each game's (none if games are merely forked)
    network = shared_network or bool(game_flags & CLONE_NEWNET)
    return Confinement(user=True, read_only=read_only, network=network, game_flags=game_flags,
                       fresh_proc=fresh_proc, game_id=game_id if game_flags else -1,
                       skeletons=tuple(skeletons), problem=problem,
                       covers_home=allow_list or (bool(home)
                                                  and os.path.realpath(home) in skeletons),
                       allow_list=allow_list, copied=tuple(copied))


def _trial_game(flags: int, trial: str, game_id: int) -> int:
    """Clone a trial game and have it enter its namespaces: 0 if all went well, 3 without a
    /proc of its own, 4 if it could not switch to `game_id`, another code else."""
    child = clone_game(flags)
    if child == 0:
        code = 1
        with contextlib.suppress(BaseException):
            fresh = enter_game(trial, 4096, 1, game_id)
            code = 4 if game_id >= 0 and os.getuid() != game_id else (0 if fresh else 3)
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])


def _mapper(gid: int) -> tuple[int, int] | None:
    """A process, forked before this one enters its user namespace, that writes the namespace's
    maps with `GAME_ID` in them once told to (a map of more than one's own id must be written
    by a process with the capabilities to, outside the namespace): its id and the pipe to tell
    it by (None if it could not be forked)."""
    told, tell = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(told)
        os.close(tell)
        return None
    if pid == 0:
        code = 1
        try:
            os.close(tell)
            if os.read(told, 1) == b"m":
                target = os.getppid()
                _write(f"/proc/{target}/uid_map", f"0 0 1\n{GAME_ID} {GAME_ID} 1")
                _write(f"/proc/{target}/gid_map", f"0 {gid} 1\n{GAME_ID} {GAME_ID} 1")
                code = 0
        finally:
            os._exit(code)
    os.close(told)
    return pid, tell


def _map_ids(uid: int, gid: int, mapper: tuple[int, int] | None, entered: bool = True) -> int:
    """Map the namespace's root to the arena's user and group (this process has `entered` it);
    and `GAME_ID` to itself where the arena may (as root, by `mapper`: then the games may also
    drop the arena's supplementary groups). The id games switch to, or -1 if there is none but
    the arena's."""
    if mapper is not None:
        pid, tell = mapper
        with contextlib.suppress(OSError):
            os.write(tell, b"m" if entered else b"-")
        os.close(tell)
        mapped = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
        if mapped or not entered:
            return GAME_ID if mapped else -1
    with contextlib.suppress(OSError):  # as root, the maps may be written without it
        _write("/proc/self/setgroups", "deny")
    with contextlib.suppress(OSError):  # written already, with GAME_ID, if the group map failed
        _write("/proc/self/uid_map", f"0 {uid} 1")
    _write("/proc/self/gid_map", f"0 {gid} 1")
    return -1


SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""The machine's folders in every game's view (read-only): its programs (a program bot's `/bin/sh`
and runtime), libraries and configuration. Nothing else of the machine's is there: no `/home`,
`/root`, `/tmp` (but the games' own directory), `/srv`, `/opt`, `/var`, `/mnt`, `/sys`."""

COPY_ENTRIES = 4096
"""A bot's folder of at most this many files and folders is copied into the games' root..."""

COPY_BYTES = 64 << 20
"""... and of at most this many bytes (64 MB): its games then see that copy, which names no path
of the machine's; a larger folder is mounted read-only where it is (mountinfo names it)."""

_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41}.get(platform.machine())
_MNT_DETACH = 2


def libraries() -> list[str]:
    """What a game's Python must read besides the machine's `SYSTEM` folders: the interpreter's
    prefixes and the entries of the Python path, but the working directory the host was started
    in (which may hold anything: runs, leagues, other bots), and the folders of the arena's own
    packages (`arena` and the bundled `bots`, wherever an editable install keeps them). Real
    paths, those that exist."""
    cwd = os.path.realpath(os.getcwd())
    entries = [path for path in sys.path if path and os.path.realpath(path) != cwd]
    packages = []
    for name in ("arena", "bots"):
        with contextlib.suppress(ImportError, ValueError, AttributeError):
            found = importlib.util.find_spec(name)
            packages += list(found.submodule_search_locations or []) if found else []
    return reachable_paths(packages, entries)


def _fits(folder: str, private: Sequence[str] = ()) -> bool:
    """Whether a bot's `folder` is small enough to copy into the games' root (`COPY_ENTRIES`,
    `COPY_BYTES`), what the arena keeps in it left out."""
    size = 0
    for count, (_, _, info) in enumerate(_tree(folder, private), 1):
        size += info.st_size if stat.S_ISREG(info.st_mode) else 0
        if count > COPY_ENTRIES or size > COPY_BYTES:
            return False
    return True


def _tree(folder: str, private: Sequence[str]) -> Iterator[tuple[str, str, os.stat_result]]:
    """Every entry below `folder` (not following links; none in or under `private`): its path,
    its path relative to `folder`, and its status. Nothing if `folder` is not a folder."""
    top = os.path.realpath(folder)
    hidden = [os.path.realpath(path) for path in private]
    stack = [top]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as entries:
                found = list(entries)
        except OSError:
            continue
        for entry in found:
            if any(_below(entry.path, path) for path in hidden):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            yield entry.path, os.path.relpath(entry.path, top), info
            if stat.S_ISDIR(info.st_mode):
                stack.append(entry.path)


@dataclass(frozen=True)
class _Plan:
    """What the games' root holds (see `_view`): the machine's folders mounted at their paths
    (none below another), the links on the way (`/bin` -> `usr/bin`), and the bot's folders
    copied, each as read (`_snapshot`) before the forker leaves the machine's privileges."""

    mounts: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    copies: dict[str, list[tuple[str, int, bytes | str | None]]]


_FOLDER, _LINK = -1, -2  # kinds of a snapshot's entry besides a file's mode


def _plan(reachable: Sequence[str], bot_folders: Sequence[str], private: Sequence[str],
          games: str) -> _Plan:
    """The plan of the games' root: `SYSTEM` and `reachable` mounted, `games` (the folder of
    the games' directories) too, each of `bot_folders` copied if it `_fits`, else mounted; a
    folder in what is mounted is in view already (never copied through a mount, which would
    write on the machine's disk), and what is mounted inside a copied folder is not copied."""
    system = [path for path in SYSTEM if os.path.lexists(path)]
    links = tuple((path, os.readlink(path)) for path in system if os.path.islink(path))
    fitting = [os.path.realpath(folder) for folder in bot_folders
               if os.path.isdir(folder) and _fits(folder, private)]
    mounted = [os.path.realpath(folder) for folder in bot_folders
               if os.path.realpath(folder) not in fitting and os.path.exists(folder)]
    linked = {path for path, _ in links}
    wanted = [*(os.path.realpath(path) for path in system if path not in linked), *reachable,
              games, *mounted]
    outermost: list[str] = []
    for path in sorted(dict.fromkeys(wanted), key=len):
        if not any(_below(path, other) for other in outermost) and not _below(path, "/dev") \
                and not _below(path, "/proc") and path != "/":
            outermost.append(path)
    copies = {folder: _snapshot(folder, [*private, *outermost]) for folder in fitting
              if not any(_below(folder, other) for other in outermost)}
    return _Plan(tuple(outermost), links, copies)


def _snapshot(folder: str, left_out: Sequence[str]) -> list[tuple[str, int, bytes | str | None]]:
    """The entries of `folder` (relative path, kind or mode, contents), none of `left_out`:
    folders, links (their targets) and regular files (their bytes; readable by everyone,
    executable by everyone if by their owner). A file of another owner than the folder's that
    others may not read (a hard link to the organiser's file, say) is left out, as the games'
    id would not read it."""
    owner = os.stat(folder).st_uid
    entries: list[tuple[str, int, bytes | str | None]] = []
    for path, relative, info in sorted(_tree(folder, left_out), key=lambda found: found[1]):
        if stat.S_ISDIR(info.st_mode):
            entries.append((relative, _FOLDER, None))
        elif stat.S_ISLNK(info.st_mode):
            with contextlib.suppress(OSError):
                entries.append((relative, _LINK, os.readlink(path)))
        elif stat.S_ISREG(info.st_mode):
            if info.st_uid != owner and not info.st_mode & stat.S_IROTH:
                continue
            try:
                source = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                chunks = []
                while chunk := os.read(source, 1 << 20):
                    chunks.append(chunk)
            finally:
                os.close(source)
            mode = 0o644 | (0o111 if info.st_mode & stat.S_IXUSR else 0)
            entries.append((relative, mode, b"".join(chunks)))
    return entries


def _view(view: str, plan: _Plan, games: str, idmapped: dict[str, int]) -> list[str]:
    """Build the games' root on the empty folder `view` as `plan` says and make it this
    process's root: a tmpfs holding the machine's folders of the plan (each mounted read-only
    at its path, by its `idmapped` copy if it has one), a `/dev` of five devices, `/proc` (which
    games mount their own over), and the bot's folders copied. Every other path of the machine
    is absent. The bot's folders copied."""
    if _SYS_PIVOT_ROOT is None:
        raise OSError(0, "no pivot_root here")
    clones: dict[str, int] = {}
    try:
        # detached copies of what games see, made before anything is mounted on `view`
        for path in [*plan.mounts, "/proc"]:
            if path in idmapped:
                clones[path] = os.dup(idmapped[path])
                continue
            with contextlib.suppress(OSError):  # gone: not in view
                clones[path] = _check(_PYLIBC.syscall(
                    ctypes.c_long(_OPEN_TREE), _AT_FDCWD, path.encode(),
                    ctypes.c_uint(_OPEN_TREE_CLONE | _AT_RECURSIVE | os.O_CLOEXEC)),
                    f"open_tree {path}")
        copies = max(1, len(plan.copies))
        _mount("tmpfs", view, "tmpfs", _MS_NOSUID | _MS_NODEV,
               f"size={COPY_BYTES * copies + (1 << 20)},"
               f"nr_inodes={COPY_ENTRIES * copies + 1024},mode=755")
        for path, target in plan.links:
            os.symlink(target, view + path)
        for path, fd in clones.items():
            _move_clone(fd, view + path, path)
        for folder, entries in plan.copies.items():
            _write_copy(view + folder, entries)
        _private_dev(keep=(games,), root=view)
    finally:
        for fd in clones.values():
            os.close(fd)
    os.chdir(view)
    _check(_LIBC.syscall(ctypes.c_long(_SYS_PIVOT_ROOT), b".", b"."), "pivot_root")
    _check(_LIBC.umount2(b".", _MNT_DETACH), "umount the machine's root")
    os.chdir("/")
    return list(plan.copies)


def _write_copy(target: str, entries: list[tuple[str, int, bytes | str | None]]) -> None:
    """Write a `_snapshot`'s entries into `target` (a new folder, open to everyone)."""
    os.makedirs(target, 0o755, exist_ok=True)
    os.chmod(target, 0o755)
    for relative, kind, contents in entries:
        inside = os.path.join(target, relative)
        if kind == _FOLDER:
            os.mkdir(inside, 0o755)
        elif kind == _LINK:
            with contextlib.suppress(OSError):
                os.symlink(str(contents), inside)
        else:
            made = os.open(inside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, kind)
            try:
                left = memoryview(contents if isinstance(contents, bytes) else b"")
                while left:
                    left = left[os.write(made, left):]
                os.fchmod(made, kind)
            finally:
                os.close(made)


def reachable_paths(bot_folders: Sequence[str] = (),
                    entries: Sequence[str] | None = None) -> list[str]:
    """What a game process must be able to read: the interpreter's prefixes, the folders and
    files of the Python path (or `entries`), and `bot_folders` (real paths; only those that
    exist)."""
    paths = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
             os.path.dirname(os.path.realpath(sys.executable)),
             *(sys.path if entries is None else entries), *bot_folders]
    found = []
    for path in paths:
        real = os.path.realpath(path or ".")
        if os.path.exists(real) and real not in found:
            found.append(real)
    return found


def skeleton_roots(reachable: Sequence[str], switched: bool, home: str | None = None) -> list[str]:
    """The folders to cover with skeletons: the arena's user's `home`, and, where games switch
    to `GAME_ID` (`switched`), each topmost folder on the way to something `reachable` that
    others may not enter (/root, /tmp/pytest-of-root, ...). Real paths, none below another."""
    roots = []
    if home is None:
        home = _home()
    if home and home != "/" and os.path.isdir(home):
        roots.append(os.path.realpath(home))
    if switched:
        for path in reachable:
            parts = path.split("/")
            for at in range(2, len(parts) + 1):
                folder = "/".join(parts[:at])
                with contextlib.suppress(OSError):
                    info = os.stat(folder)
                    if stat.S_ISDIR(info.st_mode) and not info.st_mode & stat.S_IXOTH:
                        roots.append(folder)
                        break
    outermost = []
    for root in sorted(set(roots), key=len):
        if not any(_below(root, other) for other in outermost):
            outermost.append(root)
    return outermost


_MOUNT_ATTR_IDMAP = 0x100000


def _idmapped(folders: Sequence[str]) -> dict[str, int]:
    """Detached copies of the mounts of `folders` (real paths, each with what is mounted below
    it), on which each folder's owner and group appear as `GAME_ID` (idmapped mounts: nothing
    on disk changes): a game reads the bot's files as their owner would, even in a folder only
    its owner may enter, and nothing else of that owner's. Made by the arena's user (root)
    before it enters its user namespace; those that cannot be made (a file system without
    idmapped mounts, an older kernel) are left out: their folders keep their owners."""
    made: dict[str, int] = {}
    namespaces: dict[tuple[int, int], int] = {}
    try:
        for folder in dict.fromkeys(os.path.realpath(path) for path in folders):
            try:
                info = os.stat(folder)
                if not stat.S_ISDIR(info.st_mode):
                    continue
                owner = (info.st_uid, info.st_gid)
                if owner not in namespaces:
                    namespaces[owner] = _mapping_namespace(*owner)
                fd = _check(_PYLIBC.syscall(
                    ctypes.c_long(_OPEN_TREE), _AT_FDCWD, folder.encode(),
                    ctypes.c_uint(_OPEN_TREE_CLONE | _AT_RECURSIVE | os.O_CLOEXEC)),
                    f"open_tree {folder}")
                attr = _MountAttr(_MOUNT_ATTR_IDMAP, 0, 0, namespaces[owner])
                try:
                    _check(_PYLIBC.syscall(ctypes.c_long(_MOUNT_SETATTR), fd, b"",
                                           _AT_EMPTY_PATH | _AT_RECURSIVE, ctypes.byref(attr),
                                           ctypes.sizeof(attr)), f"idmapping {folder}")
                except OSError:
                    os.close(fd)
                    raise
                made[folder] = fd
            except OSError:
                continue
    finally:
        for fd in namespaces.values():
            if fd >= 0:
                os.close(fd)
    return made


def _mapping_namespace(uid: int, gid: int) -> int:
    """A user namespace that maps `uid` and `gid` (inside) to `GAME_ID` (outside): what an
    idmapped mount maps its owners by. Its descriptor (-1 if it could not be made): a child
    enters it, this process writes its maps, and the child ends."""
    ready_read, ready_write = os.pipe()
    done_read, done_write = os.pipe()
    child = os.fork()
    if child == 0:
        code = 1
        try:
            os.close(ready_read)
            os.close(done_write)
            if _LIBC.unshare(CLONE_NEWUSER) == 0:
                os.write(ready_write, b"u")
                os.read(done_read, 1)
                code = 0
        finally:
            os._exit(code)
    os.close(ready_write)
    os.close(done_read)
    try:
        if os.read(ready_read, 1) != b"u":
            return -1
        # an idmapped mount takes a file's owner as an id inside the namespace, and shows the
        # id outside that it maps to
        _write(f"/proc/{child}/uid_map", f"{uid} {GAME_ID} 1")
        _write(f"/proc/{child}/setgroups", "deny")
        _write(f"/proc/{child}/gid_map", f"{gid} {GAME_ID} 1")
        return os.open(f"/proc/{child}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return -1
    finally:
        os.close(ready_read)
        os.close(done_write)  # the child ends
        os.waitpid(child, 0)


def _open_to_others(folder: str) -> bool:
    """Whether anyone may list and enter `folder` (so read a bot's files there, as a rule)."""
    try:
        mode = os.stat(folder).st_mode
    except OSError:
        return True  # nothing to read there anyway
    return bool(mode & stat.S_IROTH and mode & stat.S_IXOTH)


def _place(mounts: dict[str, int]) -> None:
    """Mount each of `mounts` (detached, by descriptor) on its folder, over what is there."""
    for folder, fd in mounts.items():
        with contextlib.suppress(OSError):  # not in view (under a skeleton): nothing to cover
            if os.path.isdir(folder):
                _check(_PYLIBC.syscall(ctypes.c_long(_MOVE_MOUNT), fd, b"", _AT_FDCWD,
                                       folder.encode(), _MOVE_MOUNT_F_EMPTY_PATH),
                       f"move_mount {folder}")


def _close_all(mounts: dict[str, int]) -> None:
    for fd in mounts.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    mounts.clear()


def _skeletons(reachable: Sequence[str], switched: bool) -> list[str]:
    """Cover each of `skeleton_roots` with a skeleton (see `SKELETON`), with what is
    `reachable` below it mounted back (with the mounts below that, the covering ones too); a
    reachable folder that is itself a root stays covered. The folders covered."""
    reachable = [os.path.realpath(path) for path in reachable if path]
    roots = skeleton_roots(reachable, switched)
    for root in roots:
        below = sorted({path for path in reachable if _below(path, root) and path != root},
                       key=len)
        kept = [path for i, path in enumerate(below)
                if not any(_below(path, other) for other in below[:i])]
        clones: dict[str, int] = {}
        try:
            for path in kept:  # detached copies of what is kept, made before it is covered
                with contextlib.suppress(OSError):  # gone, or covered already: not kept
                    clones[path] = _check(_PYLIBC.syscall(
                        ctypes.c_long(_OPEN_TREE), _AT_FDCWD, path.encode(),
                        ctypes.c_uint(_OPEN_TREE_CLONE | _AT_RECURSIVE | os.O_CLOEXEC)),
                        f"open_tree {path}")
            _mount("tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, SKELETON)
            for path, fd in clones.items():
                _move_clone(fd, path, path)
        finally:
            for fd in clones.values():
                os.close(fd)
    return roots


def _move_clone(fd: int, target: str, what: str) -> None:
    """Mount a detached clone (`open_tree`) at `target`, made first as a folder or an empty
    file, whichever the clone is; `what` names it in an error."""
    if os.path.isdir(f"/proc/self/fd/{fd}"):
        os.makedirs(target, 0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))
    _check(_PYLIBC.syscall(ctypes.c_long(_MOVE_MOUNT), fd, b"", _AT_FDCWD, target.encode(),
                           _MOVE_MOUNT_F_EMPTY_PATH), f"move_mount {what}")


def _below(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies below it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _home() -> str:
    """The arena's user's home folder (its password entry's), or empty."""
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return ""


def clone_game(flags: int) -> int:
    """`os.fork`, with the child in new namespaces (`flags`): 0 in the child, its id (as this
    process sees it) in the parent."""
    if not flags:
        return os.fork()
    api = _PYLIBC
    api.PyOS_BeforeFork()
    pid = api.syscall(ctypes.c_long(_CLONE), ctypes.c_ulong(flags | _SIGCHLD), 0, 0, 0, 0)
    if pid == 0:
        api.PyOS_AfterFork_Child()
        return 0
    error = ctypes.get_errno()
    api.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(error, os.strerror(error))
    return int(pid)


def enter_game(workdir: str, disk_bytes: int, entries: int, game_id: int = -1) -> bool:
    """In a game process cloned into its namespaces: mount its directory (a tmpfs of `disk_bytes`
    and `entries` files and folders, owned by `game_id` if not -1) and a /proc of its own, then
    switch to `game_id` (if not -1) and drop every capability for good. False if /proc could
    not be mounted (the old one, which shows every process, stays)."""
    owner = f",uid={game_id},gid={game_id}" if game_id >= 0 else ""
    _mount("tmpfs", workdir, "tmpfs", _MS_NOSUID | _MS_NODEV,
           f"size={disk_bytes},nr_inodes={entries + 1},mode=700{owner}")
    # its control groups (joined already) the root of its view of them (/proc/self/cgroup)
    with contextlib.suppress(OSError):
        _check(_LIBC.unshare(CLONE_NEWCGROUP), "unshare")
    fresh_proc = False
    # only its processes' entries: nothing of the machine's (/proc/stat, /proc/meminfo, ...)
    for options in ("subset=pid", None):
        try:
            _mount("proc", "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, options)
            fresh_proc = True
            break
        except OSError:
            continue
    drop_capabilities(game_id)
    return fresh_proc


def enter(confinement: Confinement, workdir: str, disk_bytes: int, entries: int) -> bool:
    """In a game process of a forker so confined: its own directory and /proc where it has its
    own namespaces (see `enter_game`), and no capabilities wherever it is in the forker's user
    namespace (the forker's capabilities could undo the mounts that cover what the arena
    keeps). Whether it has a /proc of its own."""
    if confinement.per_game:
        return enter_game(workdir, disk_bytes, entries, confinement.game_id)
    if confinement.user:
        drop_capabilities()
    return False


def drop_capabilities(game_id: int = -1) -> None:
    """Drop every capability this process has (in its user namespace), so that neither it nor
    anything it runs can have one again; become `game_id` first (user, group, and no
    supplementary groups), unless it is -1."""
    libc = _LIBC
    _check(libc.prctl(_PR_SET_SECUREBITS, _SECUREBITS, 0, 0, 0), "securebits")
    for capability in range(_LAST_CAPABILITY + 1):
        libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if game_id >= 0:  # with the capabilities to (no set-user-id fix-up: the bits above)
        os.setgroups([])
        os.setresgid(game_id, game_id, game_id)
        os.setresuid(game_id, game_id, game_id)
        # a change of user makes a process undumpable: its /proc/self/fd and the like would
        # be root's, out of its reach; nothing can attach to it (ptrace is refused by seccomp)
        libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(libc.capset(header, data), "capset")


def libc() -> Any:
    """The C library, as this module opened it (None once forgotten, or where there is none)."""
    return _LIBC


def forget() -> None:
    """Drop this module's handles on the C library (see `arena.sandbox.host._forget_libc`)."""
    global _LIBC, _PYLIBC
    _LIBC = _PYLIBC = None


def _cover(path: str) -> bool:
    """Put an empty, read-only mount over `path`: a folder becomes an empty one nobody may list,
    a file an empty one (/dev/null: True, a device to open where others are not)."""
    if os.path.isdir(path):
        _mount("tmpfs", path, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV,
               "size=4k,nr_inodes=1,mode=0")
    elif os.path.exists(path):
        _mount(os.devnull, path, None, _MS_BIND)
        return True
    return False


def _private_dev(keep: Sequence[str] = (), root: str = "") -> list[str]:
    """Put a /dev of the games' own over the machine's: a tmpfs with `DEVICES` (each the
    machine's, mounted on an empty file) and the usual links; read-only once the whole file
    system is. A folder of `keep` that is in /dev (the games' directories, where the temporary
    directory is /dev/shm) is kept there, at the same path. Put at `root` + /dev if `root` is
    given (a root being built). The devices' paths (their mounts, which must not be `nodev`)."""
    kept = [os.path.realpath(path) for path in keep]
    kept = [path for path in kept if path.startswith("/dev/") and os.path.isdir(path)]
    clones = {}
    try:
        # each a detached copy of the machine's mount, made before /dev is covered
        for path in [*(f"/dev/{name}" for name in DEVICES), *kept]:
            clones[path] = _check(_PYLIBC.syscall(
                ctypes.c_long(_OPEN_TREE), _AT_FDCWD, path.encode(),
                ctypes.c_uint(_OPEN_TREE_CLONE | os.O_CLOEXEC)), f"open_tree {path}")
        os.makedirs(f"{root}/dev", 0o755, exist_ok=True)
        _mount("tmpfs", f"{root}/dev", "tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
               "size=16k,nr_inodes=64,mode=755")
        for path, fd in clones.items():
            if path in kept:
                os.makedirs(root + path, 0o755, exist_ok=True)
            else:
                os.close(os.open(root + path, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o666))
            _check(_PYLIBC.syscall(ctypes.c_long(_MOVE_MOUNT), fd, b"", _AT_FDCWD,
                                   (root + path).encode(), _MOVE_MOUNT_F_EMPTY_PATH),
                   f"move_mount {path}")
        for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                             ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
            os.symlink(target, f"{root}/dev/{name}")
    finally:
        for fd in clones.values():
            os.close(fd)
    return [f"/dev/{name}" for name in DEVICES]


def _set_attributes(path: str, on: int, off: int, recursive: bool = False) -> None:
    """Set and clear mount attributes (`_MOUNT_ATTR_*`) of the mount at `path` (and every mount
    below it, if `recursive`)."""
    attr = _MountAttr(on, off, 0, 0)
    _check(_PYLIBC.syscall(ctypes.c_long(_MOUNT_SETATTR), _AT_FDCWD, path.encode(),
                           _AT_RECURSIVE if recursive else 0, ctypes.byref(attr),
                           ctypes.sizeof(attr)), f"mount_setattr {path}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int,
           data: str | None = None) -> None:
    _check(_LIBC.mount(source and source.encode(), target.encode(), fstype and fstype.encode(),
                       ctypes.c_ulong(flags), data and data.encode()), f"mount {target}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read(path: str, default: str) -> str:
    try:
        with open(path) as file:
            return file.read().strip()
    except OSError:
        return default


def _check(result: int, what: str) -> int:
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")
    return result


_LAST_CAPABILITY = int(_read("/proc/sys/kernel/cap_last_cap", "40"))  # asked once, in the host
