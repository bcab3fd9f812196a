"""Hostile bots for the sandbox tests: each misbehaves in one way (Concentration)."""

from __future__ import annotations

import contextlib
import gc
import glob
import os
import random
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from arena.api import Bot, GameInfo, Observation
from arena.cards import parse_card
from bots.concentration.greedy import GreedyBot

SEEN: list[Any] = []  # what a bot would carry from one game to the next, if it could


class Hostile(Bot):
    """Plays the first legal card, and misbehaves at its `at`-th decision."""

    games = ("concentration",)
    at = 3

    def start(self, info: GameInfo) -> None:
        super().start(info)
        self.calls = 0

    def act(self, obs: Observation[Any]) -> Any:
        self.calls += 1
        if self.calls == self.at:
            return self.misbehave(obs)
        return obs.legal[0]

    def misbehave(self, obs: Observation[Any]) -> Any:
        return obs.legal[0]


class Raiser(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        raise RuntimeError("boom")


class Illegal(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        return -1


class Malformed(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        return object()


class Answers(Hostile):
    """Answers `value` (by its name in `ANSWERS`) at its third decision: not a legal action."""

    def __init__(self, value: str = "card") -> None:
        self.value = value

    def misbehave(self, obs: Observation[Any]) -> Any:
        return ANSWERS[self.value]


class Chatty(Hostile):
    """Prints `lines` lines of 50 bytes a decision (and raises at its third, if `fail`)."""

    def __init__(self, lines: int = 1, fail: bool = False) -> None:
        self.lines, self.fail = lines, fail

    def act(self, obs: Observation[Any]) -> Any:
        for _ in range(self.lines):
            print("x" * 49)
        return super().act(obs)

    def misbehave(self, obs: Observation[Any]) -> Any:
        if self.fail:
            raise RuntimeError("chatty gave up")
        return obs.legal[0]


class Debugged(Hostile):
    """Calls `breakpoint()` at its third decision, as a bot being debugged does."""

    def misbehave(self, obs: Observation[Any]) -> Any:
        breakpoint()
        return obs.legal[0]


class _Shown:
    """A value of the bot's own, with a repr of its own."""

    def __repr__(self) -> str:
        return "<my answer>"


ANSWERS: dict[str, Any] = {"card": parse_card("3D"), "text": "3D", "float": 2.5,
                           "own": _Shown(), "pair": ("play", parse_card("3D"))}


class DeepNester(Hostile):
    """Writes its own answer to the arena: an action nested deeper than any parser recurses."""

    def misbehave(self, obs: Observation[Any]) -> Any:
        os.write(3, b'["action",' + b"[" * 50_000 + b"]" * 50_000 + b"]\n")
        time.sleep(60)  # the arena has its answer
        return obs.legal[0]


class Sleeper(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        time.sleep(60)
        return obs.legal[0]


class Exiter(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        os._exit(3)


class Segfaulter(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        import ctypes

        # a real fault: a signal a process sends itself (faulthandler._sigsegv) is ignored by
        # the first process of a PID namespace, which a game process is
        ctypes.string_at(0)


class Hog(Hostile):
    def misbehave(self, obs: Observation[Any]) -> Any:
        hoard = bytearray(1 << 34)  # 16 GiB, far over the limit
        return obs.legal[len(hoard) % len(obs.legal)]


class Spinner(Hostile):
    """Keeps a thread of its own computing all game long, between its turns too, where it would
    slow whoever thinks next on its CPU; tells, at every decision, how long that thread has been
    held up (stopped for more than `HELD_UP` seconds at a time) in all."""

    HELD_UP = 0.025

    def start(self, info: GameInfo) -> None:
        super().start(info)
        self.held_up = 0.0
        threading.Thread(target=self.spin, daemon=True).start()

    def spin(self) -> None:
        last = time.monotonic()
        while True:
            now = time.monotonic()
            if now - last > self.HELD_UP:
                self.held_up += now - last
            last = now

    def act(self, obs: Observation[Any]) -> Any:
        print(f"spinner held up {self.held_up:.3f} s", flush=True)
        return obs.legal[0]


class Slowcoach(GreedyBot):
    """A slow bot within the rules: plays as greedy, thinking (sleeping) 30 ms a decision."""

    def act(self, obs: Observation[Any]) -> Any:
        time.sleep(0.03)
        return super().act(obs)


class Printer(Hostile):
    """Prints a megabyte at every decision."""

    def act(self, obs: Observation[Any]) -> Any:
        sys.stdout.write("x" * (1 << 20) + "\n")
        return obs.legal[0]


class Hunter(Hostile):
    """Looks for the engine's state through the garbage collector and the stack."""

    def act(self, obs: Observation[Any]) -> Any:
        found = [o for o in gc.get_objects()
                 if type(o).__name__ in ("ConcentrationState", "Schedule", "RunDirectory")]
        frame, depth = sys._getframe(), 0
        while frame is not None:
            found += [v for v in frame.f_locals.values()
                      if type(v).__name__ == "ConcentrationState"]
            frame, depth = frame.f_back, depth + 1
        print(f"hunter found {len(found)} engine objects")
        return obs.legal[0]


class Writer(Hostile):
    """Tries to write into a file it was told about (the run directory, in the tests)."""

    def __init__(self, target: str = "") -> None:
        self.target = target

    def misbehave(self, obs: Observation[Any]) -> Any:
        try:
            with open(self.target, "w") as f:
                f.write("written by a bot")
            print("writer wrote")
        except OSError as exc:
            print(f"writer blocked: {exc}")
        return obs.legal[0]


class Spawner(Hostile):
    """Tries to start a process that outlives the game."""

    def misbehave(self, obs: Observation[Any]) -> Any:
        try:
            subprocess.Popen(["sleep", "97"], start_new_session=True)
            print("spawner started a process")
        except Exception as exc:
            print(f"spawner blocked: {exc}")
        try:
            if os.fork() == 0:
                time.sleep(97)
                os._exit(0)
            print("spawner forked")
        except Exception as exc:
            print(f"spawner fork blocked: {exc}")
        # out of its process group (the one the arena kills), into its forker's, or a new one
        for way, leave in [("setpgid", lambda: os.setpgid(0, os.getpgid(os.getppid()))),
                           ("setsid", os.setsid)]:
            try:
                leave()
                print(f"spawner left its group by {way}")
            except Exception as exc:
                print(f"spawner could not leave its group by {way}: {exc}")
        return obs.legal[0]


class Rememberer(Hostile):
    """Tries to carry what it saw into the next game: in memory and in a file."""

    def start(self, info: GameInfo) -> None:
        super().start(info)
        print(f"rememberer remembers {len(SEEN)} games")
        try:
            with open("/tmp/arena-rememberer.txt") as f:
                print(f"rememberer read a note: {f.read()!r}")
        except OSError:
            print("rememberer found no note")
        try:
            os.listdir(os.path.dirname(os.getcwd()))
            print("rememberer listed next door")
        except OSError:
            print("rememberer could not list next door")
        for note in glob.glob(os.path.join(os.path.dirname(os.getcwd()), "*", "note.txt")):
            try:  # a note an earlier game left in its own directory, if that is still there
                with open(note) as f:
                    print(f"rememberer read a note next door: {f.read()!r}")
            except OSError:
                print("rememberer could not read next door")
        SEEN.append(info.seat)
        try:
            with open("/tmp/arena-rememberer.txt", "w") as f:
                f.write("seen")
        except OSError as exc:
            print(f"rememberer could not leave a note: {exc}")
        with open("note.txt", "w") as f:  # its own directory: allowed, and gone after the game
            f.write("seen")


class StartRaiser(Hostile):
    def start(self, info: GameInfo) -> None:
        raise ValueError("cannot start")


class EndRaiser(Hostile):
    def end(self, result: Any) -> None:
        raise ValueError("cannot end")


class Scribbler(Hostile):
    """Writes a line of its own into its socket to the arena (descriptor 3), then answers."""

    def misbehave(self, obs: Observation[Any]) -> Any:
        os.write(3, b"scribble\n")
        time.sleep(0.05)
        return obs.legal[0]


class Teller(Hostile):
    """Says where it runs: its process id and the CPUs it may run on, at every decision."""

    def act(self, obs: Observation[Any]) -> Any:
        print(f"teller {os.getpid()} {sorted(os.sched_getaffinity(0))}", flush=True)
        return obs.legal[0]


class SeedFinder(Hostile):
    """Works out which seed (and key) dealt its game, three ways: at the start, running the
    seeding of its own rng backwards to what it was seeded with, or trying seeds until one gives
    its rng; later, trying seeds until one deals the cards it has seen. Then it deals the cards
    again with the arena's own code and takes a pair every turn: a perfect game."""

    def __init__(self, tries: int = 2000, unseed: bool = True, rng: bool = True) -> None:
        self.tries, self.by_unseeding, self.by_rng = tries, unseed, rng

    def start(self, info: GameInfo) -> None:
        super().start(info)
        from arena.engine import find_game

        self.game, self.players = find_game(info.game), info.players
        self.params = self.game.variant(info.variant).params
        self.keys: list[int] | None = None
        self.seen: dict[int, Any] = {}
        self.matched = False
        if self.by_unseeding:
            # the arena seeds a bot's rng with "bot:{key}:{seed}:{seat}", or without a key
            material = seeded_with(info.rng.getstate())
            text = material.decode("ascii", "replace") if material else ""
            parts = text.split(":")
            found = parts if parts[0] == "bot" and len(parts) in (3, 4) else None
            print(f"seedfinder unseeded {text if found else 'nothing it could use'}", flush=True)
            if found is not None:
                self.deal(int(found[-2]), found[1] if len(found) == 4 else "")
                return
        if not self.by_rng:
            return
        copy = random.Random()
        copy.setstate(info.rng.getstate())
        first = copy.random()
        found_seed = next((seed for seed in range(self.tries)
                           if random.Random(f"bot:{seed}:{info.seat}").random() == first), None)
        print(f"seedfinder found {'no seed' if found_seed is None else f'seed {found_seed}'}",
              flush=True)
        if found_seed is not None:
            self.deal(found_seed)

    def deal(self, seed: int, key: str = "") -> Any:
        """The game as `seed` (and `key`) deals it; keeps its cards' match keys."""
        from arena.match import deal_rng

        state = self.game.new_state(self.params, self.players, deal_rng(seed, key))
        self.keys, self.rule = state.keys, state.rule
        return state

    def act(self, obs: Observation[Any]) -> Any:
        self.seen.update((e.position, e.card) for e in obs.events if hasattr(e, "card"))
        if self.keys is None and not self.matched and len(self.seen) >= 4:
            self.matched = True
            found = next((seed for seed in range(self.tries)
                          if all(self.deal(seed).cards[p] == card
                                 for p, card in self.seen.items())), None)
            print(f"seedfinder matched {'no seed' if found is None else f'seed {found}'}",
                  flush=True)
            if found is None:
                self.keys = None  # deal() kept the last seed it tried
        if self.keys is None:
            return obs.legal[0]
        from arena.games.concentration.matching import mate_key

        keys, up = self.keys, obs.view.face_up
        for p in obs.legal:
            wanted = mate_key(keys[p], self.rule)
            if up and keys[up[0]] == wanted:
                return p  # the mate of the card turned up
            if not up and any(q != p and keys[q] == wanted for q in obs.legal):
                return p  # a card whose mate is still down
        return obs.legal[0]


def _closure_cells() -> list[tuple[Any, Any]]:
    """Every filled closure cell of the functions in reach of `gc` (where the audit hook keeps
    its state), once each (nested functions share cells), with what it holds."""
    found: dict[int, tuple[Any, Any]] = {}
    for function in gc.get_objects():
        if type(function).__name__ == "function" and function.__closure__:
            for cell in function.__closure__:
                with contextlib.suppress(ValueError):  # an empty cell
                    found[id(cell)] = (cell, cell.cell_contents)
    return list(found.values())


class Snoop(Hostile):
    """Tries to read what it has no business reading: a file it was told about (in the run
    directory, in the tests) and that directory's listing, another bot's file, its parent
    process's files in /proc (the way to the arena's memory and environment), the same through
    descriptors of directories, and the game directories of every sandboxed bot; and to send a
    message out."""

    def __init__(self, target: str = "", other: str = "", tamper: bool = False,
                 plant: str = "") -> None:
        self.target, self.other, self.tamper, self.plant = target, other, tamper, plant

    def misbehave(self, obs: Observation[Any]) -> Any:
        if self.plant:  # make the directory the audit hook lets it write in the whole file
            # system, then leave a note outside its own
            here, widened = os.path.realpath(os.getcwd()) + os.sep, 0
            for cell, value in _closure_cells():
                if value == here:
                    cell.cell_contents = os.sep
                    widened += 1
            try:
                with open(self.plant, "w") as note:
                    note.write("written from a game")
                print(f"snoop widened {widened} and could write {self.plant}", flush=True)
            except OSError:
                print(f"snoop widened {widened} and could not write {self.plant}", flush=True)
            return obs.legal[0]
        if self.tamper:  # first disarm the audit hook: empty what it keeps out of reach
            disarmed = 0
            for cell, value in _closure_cells():
                if isinstance(value, tuple) and value and all(
                        isinstance(v, str) and v.endswith(os.sep) for v in value):
                    cell.cell_contents = ()
                    disarmed += 1
            print(f"snoop disarmed {disarmed} of the audit hook's lists", flush=True)
        parent = f"/proc/{os.getppid()}"
        for what, path in [("read", self.target), ("list", os.path.dirname(self.target)),
                           ("read", self.other), ("read", f"{parent}/status"),
                           ("read", f"{parent}/environ"), ("list", f"{parent}/fd")]:
            try:
                if what == "read":
                    with open(path, "rb") as f:
                        f.read()
                else:
                    os.listdir(path)
                print(f"snoop could {what} {path}", flush=True)
            except OSError:
                print(f"snoop could not {what} {path}", flush=True)
        # through a descriptor of a directory: a path relative to it (dir_fd) is not what
        # the audit event shows
        os.mkdir("own")
        above = os.path.dirname(os.path.dirname(self.target))  # the run directory's parent
        for base, path in [(above, os.path.relpath(self.target, above)),
                           ("/proc", f"{os.getppid()}/status"),
                           ("own", os.path.relpath(self.target, os.path.abspath("own")))]:
            try:
                folder = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
                with open(os.open(path, os.O_RDONLY, dir_fd=folder), "rb") as f:
                    f.read()
                print(f"snoop could read {path} from {base}", flush=True)
            except OSError:
                print(f"snoop could not read {path} from {base}", flush=True)
        # (not tempfile.gettempdir(): that wants to write a file there, which is refused)
        homes = glob.glob(os.path.join(os.environ.get("TMPDIR") or "/tmp", "arena-bot-*-*"))
        listed = 0
        for home in homes:
            try:
                os.listdir(home)
                listed += 1
            except OSError:
                pass
        print(f"snoop listed {listed} of {len(homes)} game homes", flush=True)
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as out:
                out.sendto(b"psst", ("127.0.0.1", 9))
            print("snoop could send", flush=True)
        except OSError:
            print("snoop could not send", flush=True)
        with open("/proc/self/status") as f:  # its own process: allowed
            print(f"snoop read its own status ({len(f.read()) > 0})", flush=True)
        return obs.legal[0]


class Filler(Hostile):
    """Tries to fill the disk from its own directory: a file far too big, then file after file."""

    def misbehave(self, obs: Observation[Any]) -> Any:
        try:
            with open("big", "wb") as f:
                for _ in range(64):
                    f.write(b"x" * (1 << 20))
            print("filler wrote 64 MB", flush=True)
        except OSError:
            print(f"filler stopped at {os.path.getsize('big') >> 20} MB", flush=True)
        made = 0
        try:
            for i in range(1000):
                with open(f"small{i}", "wb") as f:
                    f.write(b"x")
                made += 1
        except OSError:
            pass
        try:
            os.mkdir("one-more")
            print("filler made a folder", flush=True)
        except OSError:
            pass
        print(f"filler made {made} more files", flush=True)
        return obs.legal[0]


def seeded_with(state: tuple[Any, ...]) -> bytes | None:
    """What a `random.Random` in this first state was seeded with (a str or bytes seed, as the
    bytes it was given), found by running its seeding (`init_by_array`) backwards."""
    size, mask = 624, 0xFFFFFFFF
    final = list(state[1][:size])
    start = [19650218] + [0] * (size - 1)  # the state the seeding begins from
    for i in range(1, size):
        start[i] = (1812433253 * (start[i - 1] ^ (start[i - 1] >> 30)) + i) & mask

    def mix(x: int, factor: int) -> int:
        return ((x ^ (x >> 30)) * factor) & mask

    # undo the second pass: the state after the first pass, from the third word on
    first = [0] * size
    for i in range(3, size):
        first[i] = ((final[i] + i) & mask) ^ mix(final[i - 1], 1566083941)
    # the first pass added key word j, and j, to word j + 1
    added = {i - 1: (first[i] - (start[i] ^ mix(first[i - 1], 1664525))) & mask
             for i in range(4, size)}
    for length in range(1, 300):
        words: dict[int, int] = {}
        if all(words.setdefault(j % length, (v - j % length) & mask) == (v - j % length) & mask
               for j, v in added.items()):
            number = sum(words[j] << (32 * j) for j in range(length))
            data = number.to_bytes((number.bit_length() + 7) // 8, "big")
            return data[:-64]  # a str or bytes seed is followed by its SHA-512
    return None


class NoteLeaver(Hostile):
    """Tries to leave a note for its next game where the next game process could find it, by
    ways Python raises no audit event for or that reach outside its directory: an extended
    attribute on its own file, shared memory, a named pipe in the temporary directory, an SQLite
    database there, and how its forker (which outlives every game) is scheduled; and to signal
    the forker through a pidfd. Prints what it found and what it could do."""

    def start(self, info: GameInfo) -> None:
        super().start(info)
        note, tmp = str(os.getpid()), os.environ.get("TMPDIR") or "/tmp"
        forker = os.getppid()
        here = os.path.abspath(__file__)

        def by_xattr(leave: bool) -> Any:
            if leave:
                os.setxattr(here, b"user.arena-note", note.encode())
            return os.getxattr(here, b"user.arena-note").decode()

        def by_shared_memory(leave: bool) -> Any:
            from multiprocessing import shared_memory

            memory = shared_memory.SharedMemory("arena-note", create=leave, size=16)
            if leave:
                memory.buf[:len(note)] = note.encode()
            return bytes(memory.buf).rstrip(b"\0").decode()

        def by_fifo(leave: bool) -> Any:
            if leave:
                os.mkfifo(os.path.join(tmp, f"arena-note-{note}"))
            return next(n[11:] for n in os.listdir(tmp) if n.startswith("arena-note-"))

        def by_database(leave: bool) -> Any:
            import sqlite3

            with sqlite3.connect(os.path.join(tmp, "arena-note.db")) as db:
                if leave:
                    db.execute("create table if not exists note (text)")
                    db.execute("insert into note values (?)", (note,))
                return db.execute("select text from note").fetchone()[0]

        def by_scheduling(leave: bool) -> Any:
            if not forker:  # a PID namespace of its own: the forker is out of its view (pid 0
                raise ProcessLookupError(forker)  # would be the game process itself)
            if leave:
                os.sched_setaffinity(forker, {min(os.sched_getaffinity(forker))})
                os.setpriority(os.PRIO_PROCESS, forker, 3)
            return f"{os.sched_getaffinity(forker)} {os.getpriority(os.PRIO_PROCESS, forker)}"

        def by_signal(leave: bool) -> Any:
            import signal

            signal.pidfd_send_signal(os.pidfd_open(forker), signal.SIGCONT)
            return "signalled"

        for way, try_it in [("xattr", by_xattr), ("shared memory", by_shared_memory),
                            ("fifo", by_fifo), ("database", by_database),
                            ("scheduling", by_scheduling), ("signal", by_signal)]:
            for leave in (False, True):
                try:
                    found = try_it(leave)
                    done = f"left {found}" if leave else f"found {found}"
                except Exception as exc:  # refused, or nothing to find
                    done = f"could not {'leave' if leave else 'find'}: {type(exc).__name__}"
                print(f"noteleaver {way}: {done}", flush=True)


class NativeLoader(Hostile):
    """Loads native code: an extension module the interpreter ships with (allowed), and the
    same module's file copied next to it (its own native code, which a bot may not bring)."""

    def start(self, info: GameInfo) -> None:
        super().start(info)
        import _queue
        import importlib.machinery
        import importlib.util
        import shutil

        copy = os.path.abspath(os.path.basename(_queue.__file__))
        shutil.copyfile(_queue.__file__, copy)
        for where, path in [("installed", _queue.__file__), ("its own", copy)]:
            try:
                loader = importlib.machinery.ExtensionFileLoader("_queue", path)
                spec = importlib.util.spec_from_file_location("_queue", path, loader=loader)
                assert spec is not None
                importlib.util.module_from_spec(spec)
                print(f"nativeloader loaded {where} native code", flush=True)
            except Exception as exc:
                print(f"nativeloader could not load {where} native code: {exc}", flush=True)


class Housekeeper(Hostile):
    """Does, in its own directory and to its own process, what the sandbox must still allow:
    files, folders, a named pipe, an SQLite database, an extended attribute, a descriptor of its
    directory, its own CPUs and priority. Prints what it could not do."""

    def start(self, info: GameInfo) -> None:
        super().start(info)
        import sqlite3

        def database() -> None:
            with sqlite3.connect("notes.db") as db:
                db.execute("create table t (x)")
            sqlite3.connect(":memory:").execute("select 1")

        def descriptor() -> None:
            folder = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
            os.mkdir("inner")
            with open(os.open("inner/x.txt", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=folder),
                      "w") as f:
                f.write("x")
            assert "inner" in os.listdir(folder)

        def xattr() -> None:
            with open("tagged.txt", "w") as f:
                f.write("x")
            try:
                os.setxattr("tagged.txt", b"user.note", b"mine")
            except OSError as exc:  # a file system without user attributes: not the sandbox
                if "sandbox" in str(exc):
                    raise

        def write() -> None:
            with open("own.txt", "w") as f:
                f.write("mine")

        chores = [("write a file", write),
                  ("make a named pipe", lambda: os.mkfifo("pipe")),
                  ("keep a database", database), ("use a descriptor of its folder", descriptor),
                  ("tag its file", xattr),
                  ("choose its CPUs", lambda: os.sched_setaffinity(0, os.sched_getaffinity(0))),
                  ("lower its priority", lambda: os.setpriority(os.PRIO_PROCESS, 0, 1)),
                  ("read its own limits", lambda: __import__("resource").prlimit(
                      0, __import__("resource").RLIMIT_NOFILE))]
        for chore, do in chores:
            try:
                do()
            except Exception as exc:
                print(f"housekeeper could not {chore}: {exc}", flush=True)
        print("housekeeper done", flush=True)
