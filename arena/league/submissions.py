"""Submissions kept by version: each bot's files copied into the league's store, addressed by
their digest, so that what was submitted is what plays whatever happens to the author's copy.

`submissions.json` keeps, for each name, its versions (time, spec in the store, digest, games,
validation result) and whether it was withdrawn. The latest version that passed validation
plays; earlier versions leave the table but keep their records; a failed version plays nothing.
A bundled bot is trusted: it joins by name and is not validated.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, BotSpecError
from arena.league.folder import STORE, SUBMISSIONS, League, LeagueError, locked
from arena.loader import bot_file, display_name, is_bundled, resolve_bot
from arena.protocol.command import command_folder, is_command
from arena.safe_files import (
    UnsafeFileError,
    check_entry,
    read_bytes,
    read_json,
    real_folder,
    remove,
    write_bytes,
    write_text,
)
from arena.text import escape, is_safe

MAX_FILES = 64
"""The most .py files a bot folder may hold."""
MAX_FILE_BYTES = 1024 * 1024
"""The largest file of a submitted bot."""
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")

Validator = Callable[[str, str, Sequence[Path]], tuple[bool, Sequence[str]]]
"""Validates a bot spec for a game, keeping paths from its view: passed, and what was found; a
BotSpecError if the spec does not load at all (bad input: nothing is recorded)."""


@dataclass(frozen=True)
class Version:
    """One submitted version of a bot."""

    number: int
    submitted: str
    kind: str
    """'file', 'folder' or 'bundled'."""
    spec: str
    """The spec, relative to the league folder for a stored bot."""
    digest: str
    source: str
    games: tuple[str, ...]
    passed: bool
    validation: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """Its entry in submissions.json."""
        return {"version": self.number, "submitted": self.submitted, "kind": self.kind,
                "spec": self.spec, "digest": self.digest, "source": self.source,
                "games": list(self.games), "passed": self.passed,
                "validation": list(self.validation)}

    @classmethod
    def from_json(cls, entry: Any) -> Version:
        """An entry read back (ValueError/KeyError/TypeError if it is not one)."""
        if not isinstance(entry, dict):
            raise ValueError("a version is not a JSON object")
        digest, kind, spec = str(entry["digest"]), str(entry["kind"]), str(entry["spec"])
        # a bundled bot plays in the arena's process: only a bundled bot's spec may say so, and
        # a stored bot is a file of its own version's folder, nothing else
        if kind == "bundled":
            if not is_bundled(spec):
                raise ValueError(f"{escape(spec)!r} is not a bundled bot")
        elif kind == "program":  # a program bot: its stored folder, exactly
            if not re.fullmatch(r"[0-9a-f]{64}", digest) or spec != f"{STORE}/{digest}":
                raise ValueError(f"version {escape(spec)!r} is not a stored bot of its digest")
        elif kind not in ("file", "folder") or not re.fullmatch(r"[0-9a-f]{64}", digest) or \
                not spec.startswith(f"{STORE}/{digest}/") or ".." in spec.split(":")[0]:
            raise ValueError(f"version {escape(spec)!r} is not a stored bot of its digest")
        return cls(int(entry["version"]), str(entry["submitted"]), str(entry["kind"]),
                   str(entry["spec"]), digest, str(entry["source"]),
                   tuple(str(g) for g in entry["games"]), bool(entry["passed"]),
                   tuple(str(v) for v in entry["validation"]))


@dataclass(frozen=True)
class Submission:
    """A name in the league: its versions (oldest first) and when it was withdrawn, if it was."""

    name: str
    versions: tuple[Version, ...]
    withdrawn: str | None = None

    def playing(self) -> Version | None:
        """The version that plays: the latest that passed validation (None if withdrawn)."""
        if self.withdrawn:
            return None
        return next((v for v in reversed(self.versions) if v.passed), None)

    def status(self) -> str:
        """In a word or three: playing vN, failed, withdrawn."""
        if self.withdrawn:
            return f"withdrawn {self.withdrawn[:10]}"
        playing = self.playing()
        last = self.versions[-1]
        if playing is None:
            return f"v{last.number} failed validation; nothing plays"
        if playing is not last:
            return f"playing v{playing.number}; v{last.number} failed validation"
        return f"playing v{playing.number}"


def read_submissions(league: League) -> dict[str, Submission]:
    """Every name of the league; LeagueError if submissions.json is damaged."""
    path = league.file(SUBMISSIONS)
    try:
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("bots"), dict):
            raise ValueError("not a submissions file")
        out = {}
        for name, entry in data["bots"].items():
            if not _NAME.fullmatch(name):
                raise ValueError(f"bot name {escape(name)!r} is not a name")
            out[name] = Submission(name, tuple(Version.from_json(v) for v in entry["versions"]),
                                   entry.get("withdrawn"))
        return out
    except FileNotFoundError:
        return {}
    except UnsafeFileError as exc:
        raise LeagueError(str(exc)) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise LeagueError(f"{path}: damaged ({exc})") from None


def _write(league: League, subs: dict[str, Submission]) -> None:
    data = {"bots": {s.name: {"withdrawn": s.withdrawn,
                              "versions": [v.to_json() for v in s.versions]}
                     for s in subs.values()}}
    write_text(league.file(SUBMISSIONS), json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def sandbox_validator(spec: str, game: str,
                      kept: Sequence[Path] = ()) -> tuple[bool, Sequence[str]]:
    """Validate a bot as `arena validate --quick` does: sandboxed, one deal against a bundled
    bot and random, `kept` out of its view; a BotSpecError if it does not load (its class
    misnamed, its file not Python, not a bot of the game)."""
    from arena.sandbox import probe, unseen_by, validate_bot

    problem = probe(spec, game, private=unseen_by(spec, [spec], kept))
    if problem is not None:
        raise BotSpecError(problem)
    verdict = validate_bot(spec, game, quick=True, kept=kept)
    return verdict.passed, verdict.lines[:1]


def submit(league: League, spec: str, name: str | None = None, folder: bool = False,
           games: Sequence[str] = (), validator: Validator = sandbox_validator) -> Version:
    """Submit a bot to the league under `name`: a bundled bot by name (trusted), a file bot
    (`path/bot.py:Class`, that file alone) or, with `folder`, its whole folder; stored by
    digest, validated for each game it plays here, recorded as a new version (failed or not)."""
    spec = spec.strip()
    league_games = league.config.games()
    for game in games:
        if game not in league_games:
            raise LeagueError(f"--game {game}: the league does not play it (it plays "
                              f"{', '.join(league_games)})")
    if is_bundled(spec):
        try:
            cls = resolve_bot(spec).cls
        except ArenaError as exc:
            raise LeagueError(str(exc)) from None
        name = name or spec.partition(":")[0]
        playing = _games_here(spec, getattr(cls, "games", ("*",)), games, league_games)
        from arena.tournament.update.identity import bot_code

        version = _version(league, name, "bundled", spec, bot_code(spec).digest, spec, playing,
                           True, ("bundled: trusted, not validated",))
        return version
    if is_command(spec):
        return _submit_program(league, spec, name, games, league_games, validator)
    path = bot_file(spec)
    if path is None:
        raise LeagueError(f"{spec!r}: not a bundled bot nor a bot file (path/bot.py:Class; "
                          f"'arena bots' lists the bundled ones)")
    if not name:
        raise LeagueError(f"{spec!r}: a submitted bot needs a name in the league (--name)")
    rest = spec.partition(".py")[2]  # ":Class" and its parameters, if given
    files = [(file, data, 0o644) for file, data in _bot_files(path, folder)]
    digest = _digest(files)
    stored = league.file(STORE) / digest
    new = not check_entry(stored, folder=True)
    _store(league, stored, files)
    stored_spec = f"{STORE}/{digest}/{path.name}{rest}"
    declared = _declared_games(stored / path.name, rest.lstrip(":").partition(":")[0])
    playing = _games_here(spec, declared, games, league_games)
    passed, lines = _validated(league, _Stored(stored, stored_spec, spec, path.parent, new),
                               playing, validator)
    return _version(league, name, "folder" if folder else "file", stored_spec, digest,
                    str(path), playing, passed, lines)


@dataclass(frozen=True)
class _Stored:
    """A version's files in the store: its folder, its spec there, the spec and folder it was
    submitted as, and whether this submission put the folder there."""

    folder: Path
    spec: str
    given: str
    source: Path
    new: bool

    def as_submitted(self, text: str) -> str:
        """A validation's words about the stored copy said of the author's own files: the
        store's path, with its digest, replaced by the folder the bot was submitted from."""
        mine = f"{self.source}/" if str(self.source) not in ("", ".") else ""
        for stored in dict.fromkeys((self.folder.resolve(), self.folder.absolute(), self.folder)):
            text = text.replace(f"{stored}/", mine).replace(str(stored), str(self.source))
        return text

    def forget(self, league: League) -> None:
        """Remove the stored files again if this submission put them there and no version
        holds them (a spec that does not load is not kept); what cannot be removed stays,
        unused."""
        if not self.new:
            return
        with locked(league), contextlib.suppress(OSError, ArenaError):
            if any(v.digest == self.folder.name for s in read_submissions(league).values()
                   for v in s.versions) or not check_entry(self.folder, folder=True):
                return
            for path in sorted(self.folder.rglob("*"), key=lambda p: -len(p.parts)):
                if path.is_dir() and not path.is_symlink():
                    path.rmdir()
                else:
                    remove(path)
            self.folder.rmdir()


def _validated(league: League, stored: _Stored, playing: Sequence[str],
               validator: Validator) -> tuple[bool, tuple[str, ...]]:
    """Validate a stored version in each game it plays here, up to the first that fails:
    whether it passed, and the validation's lines (escaped, each after its game), naming the
    author's files rather than the store's. A spec that does not load is a LeagueError in one
    line, its whole reason given, and nothing is kept."""
    absolute = f"{league.path.resolve()}/{stored.spec}"
    lines: list[str] = []
    for game in playing:
        try:
            ok, found = validator(absolute, game, unseen_in(league, stored.folder))
        except BotSpecError as exc:
            stored.forget(league)
            why = stored.as_submitted(str(exc)).removeprefix(f"bot spec {absolute!r}: ")
            why = why.removeprefix(f"bot spec {stored.given!r}: ")
            raise LeagueError(f"{escape(stored.given)}: does not load ({game}): {escape(why)}; "
                              f"nothing was submitted") from None
        lines += [f"{game}: {escape(stored.as_submitted(line))}" for line in found]
        if not ok:
            return False, tuple(lines)
    return True, tuple(lines)


def _submit_program(league: League, spec: str, name: str | None, games: Sequence[str],
                    league_games: Sequence[str], validator: Validator) -> Version:
    """Submit a program bot (docs/protocol.md): its folder, with its `bot.toml`, stored whole by
    digest (executables kept executable), validated for each game it plays here."""
    folder = command_folder(spec)
    if spec.startswith("cmd:") or folder is None:
        raise LeagueError(f"{spec!r}: submit a program bot as its folder, with a bot.toml "
                          f"(name, command, games: docs/protocol.md)")
    try:
        declared = resolve_bot(spec).cls.games
    except ArenaError as exc:
        raise LeagueError(str(exc)) from None
    if not name and not _NAME.fullmatch(display_name(spec)):
        raise LeagueError(f"{folder / 'bot.toml'}: its name {display_name(spec)!r} is not a "
                          "league name (letters, digits, '_', '-' and '.'); give one with --name")
    name = name or display_name(spec)
    files = _program_files(folder)
    digest = _digest(files)
    stored = league.file(STORE) / digest
    new = not check_entry(stored, folder=True)
    _store(league, stored, files)
    stored_spec = f"{STORE}/{digest}"
    playing = _games_here(spec, declared, games, league_games)
    passed, lines = _validated(league, _Stored(stored, stored_spec, spec, folder, new), playing,
                               validator)
    return _version(league, name, "program", stored_spec, digest, str(folder), playing, passed,
                    lines)


def _program_files(folder: Path) -> list[tuple[str, bytes, int]]:
    """A program bot's files (relative name, bytes, mode), every regular file of its folder but
    hidden ones, read safely; a hard link or a special file is refused (see `_submitted`)."""
    try:
        found = sorted(p for p in folder.rglob("*") if not p.is_symlink() and not p.is_dir()
                       and not any(part.startswith(".")
                                   for part in p.relative_to(folder).parts))
        if len(found) > MAX_FILES:
            raise LeagueError(f"{folder}: holds {len(found)} files, more than {MAX_FILES}; "
                              "submit a folder of the program's own")
        return [(p.relative_to(folder).as_posix(), read_bytes(p, MAX_FILE_BYTES, follow=False),
                 0o755 if _submitted(p, folder) & 0o100 else 0o644) for p in found]
    except UnsafeFileError as exc:
        raise LeagueError(str(exc)) from None


def _submitted(path: Path, folder: Path) -> int:
    """The mode of a file a bot submits, checked: a regular file of one name only (a hard link
    could carry another's file into the store, readable by the bot), whose name (relative to
    `folder`) holds nothing `arena.text.escape` would change. LeagueError if not."""
    name = path.relative_to(folder).as_posix()
    if not is_safe(name):
        raise LeagueError(f"{escape(str(path))}: a file name with control characters; rename it")
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise LeagueError(f"{path}: cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise LeagueError(f"{path}: not a regular file (a link, pipe, socket or device); "
                          "submit regular files only")
    if info.st_nlink > 1:
        raise LeagueError(f"{path}: a hard link ({info.st_nlink} names for one file); "
                          "submit a copy of it")
    return info.st_mode


def _version(league: League, name: str, kind: str, spec: str, digest: str, source: str,
             games: tuple[str, ...], passed: bool, lines: tuple[str, ...]) -> Version:
    """Record a new version of `name`."""
    if not _NAME.fullmatch(name):
        raise LeagueError(f"--name {escape(name)!r}: a name is up to 64 letters, digits, '_', "
                          f"'-' and '.', starting with a letter, digit or '_'")
    with locked(league):
        subs = read_submissions(league)
        before = subs.get(name)
        number = before.versions[-1].number + 1 if before else 1
        version = Version(number, _now(), kind, spec, digest, escape(source), games, passed,
                          lines)
        subs[name] = Submission(name, (*(before.versions if before else ()), version))
        _write(league, subs)
    return version


def withdraw(league: League, name: str) -> Submission:
    """Take a name off the table (its versions and records are kept); LeagueError if unknown."""
    with locked(league):
        subs = read_submissions(league)
        if name not in subs:
            raise LeagueError(f"{league.path}: no bot named {escape(name)!r} (known: "
                              f"{', '.join(subs) or 'none'})")
        subs[name] = Submission(name, subs[name].versions, _now())
        _write(league, subs)
    return subs[name]


def _games_here(spec: str, declared: Sequence[str], assigned: Sequence[str],
                league_games: Sequence[str]) -> tuple[str, ...]:
    """The games a bot plays in the league: those assigned, else those it declares that the
    league plays; LeagueError if none."""
    if assigned:
        for game in assigned:
            if "*" not in declared and game not in declared:
                raise LeagueError(f"{escape(spec)}: plays {', '.join(declared)}, not {game}")
        return tuple(dict.fromkeys(assigned))
    found = tuple(g for g in league_games if "*" in declared or g in declared)
    if not found:
        raise LeagueError(f"{escape(spec)}: plays {', '.join(declared) or 'no game'}; the league "
                          f"plays {', '.join(league_games)}")
    return found


def _bot_files(path: Path, folder: bool) -> list[tuple[str, bytes]]:
    """The files of a submitted bot (relative name, bytes): the file alone, or every .py file
    of its folder (with `folder`), read safely."""
    try:
        if not check_entry(path):
            raise LeagueError(f"{path}: no such bot file")
        if not folder:
            _submitted(path, path.parent)
            return [(path.name, read_bytes(path, MAX_FILE_BYTES, follow=False))]
        found = sorted(p for p in path.parent.rglob("*.py")
                       if not any(part.startswith((".", "__pycache__"))
                                  for part in p.relative_to(path.parent).parts))
        if len(found) > MAX_FILES:
            raise LeagueError(f"{path.parent}: holds {len(found)} .py files, more than "
                              f"{MAX_FILES}; submit a folder of its own")
        for p in found:
            _submitted(p, path.parent)
        return [(p.relative_to(path.parent).as_posix(), read_bytes(p, MAX_FILE_BYTES, follow=False))
                for p in found]
    except UnsafeFileError as exc:
        raise LeagueError(str(exc)) from None


def _digest(files: Sequence[tuple[str, bytes, int]]) -> str:
    """The SHA-256 of the files' sorted names, digests and modes (a mode other than 0644
    only: the digests of versions stored before modes counted stay as they were)."""
    h = hashlib.sha256()
    for name, data, mode in sorted(files):
        kept = "" if mode == 0o644 else f"\0{mode:o}"
        h.update(f"{name}\0{hashlib.sha256(data).hexdigest()}{kept}\n".encode())
    return h.hexdigest()


def _store(league: League, stored: Path, files: Sequence[tuple[str, bytes, int]]) -> None:
    """Write the files (name, bytes, mode) under the store, exactly: a file already there (the
    same digest: the same bytes and modes) is written again if it differs in either."""
    real_folder(league.file(STORE), make=True)
    real_folder(stored, make=True)
    for name, data, mode in files:
        target = stored / name
        for parent in reversed(Path(name).parents[:-1]):
            real_folder(stored / parent, make=True)
        if check_entry(target) and stat.S_IMODE(os.lstat(target).st_mode) == mode \
                and os.lstat(target).st_nlink == 1 \
                and read_bytes(target, MAX_FILE_BYTES, follow=False) == data:
            continue
        write_bytes(target, data, mode)
        os.chmod(target, mode)  # whatever the umask


def _declared_games(path: Path, class_name: str) -> tuple[str, ...]:
    """The games a bot class declares, read from its source without running it (its `games`
    literal); ('*',) when the source does not say (validation then decides)."""
    try:
        tree = ast.parse(read_bytes(path, MAX_FILE_BYTES, follow=False))
    except (SyntaxError, ValueError, UnsafeFileError):
        return ("*",)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                target = (item.targets[0] if isinstance(item, ast.Assign) and len(item.targets) == 1
                          else item.target if isinstance(item, ast.AnnAssign) else None)
                if isinstance(target, ast.Name) and target.id == "games" and item.value:
                    try:
                        value = ast.literal_eval(item.value)
                    except ValueError:
                        return ("*",)
                    if isinstance(value, tuple | list) and all(isinstance(v, str) for v in value):
                        return tuple(value)
    return ("*",)


def unseen_in(league: League, *own: Path) -> tuple[Path, ...]:
    """What a submitted bot's games may not see of the league: its records of submissions,
    rounds and runs, and every stored version but its `own` (each sees only its own code)."""
    from arena.league.folder import ARCHIVE, DEALS, POOLS, ROUNDS

    mine = {p.resolve() for p in own}
    store = league.file(STORE)
    stored = sorted(p.resolve() for p in store.iterdir()) if check_entry(store, folder=True) \
        else []
    return (*(league.file(n).resolve() for n in (SUBMISSIONS, ROUNDS, ARCHIVE, DEALS, POOLS)),
            *(p for p in stored if p not in mine))
