"""Files that come from elsewhere, read and written safely: run directories, configs, records.

A run directory is data from elsewhere: shared by a student, unpacked from an archive, left
half-written by a crash. So everything the arena reads or writes there (and in a config) goes
through this module, which holds these rules:

- **Writing and deleting never follow a link.** A file is written whole into a new file made
  beside it (`O_CREAT | O_EXCL | O_NOFOLLOW`) and renamed over it; appending opens with
  `O_NOFOLLOW`. A path that is a link, a folder, a named pipe or a device is refused, never
  written through; a folder the arena writes in must be a real folder (`real_folder`).
- **Every read has a size limit** and reads only regular files: a named pipe (which would
  hang), a device (`/dev/zero`, which would never end) or a folder is refused before anything is
  read. Opens do not block (`O_NONBLOCK`), so a named pipe is seen, not waited on.
- **JSON and TOML have a depth limit** (`MAX_DEPTH`), checked before the parser recurses; JSON
  refuses NaN and infinities, and text must be UTF-8.

Every refusal is an `UnsafeFileError`: one line naming the file (and the line, where there is
one) and what is wrong with it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects (tables) a JSON or TOML file may have."""
MAX_TEXT = 16 * 1024 * 1024
"""The largest file read whole (a config, bots.json, a record file given on its own)."""
MAX_LINE = 1024 * 1024
"""The longest line of a file read line by line (a game record)."""

_BLOCK = 1 << 18


class UnsafeFileError(ArenaError):
    """A file the arena refuses to read or write: a link, not a regular file, too large, too
    deep, not UTF-8, or not what it should hold."""


def _kind(mode: int) -> str:
    """What a file is, in a few words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(path: Path | str, mode: int) -> UnsafeFileError:
    return UnsafeFileError(f"{path}: is {_kind(mode)}, not a regular file; the arena reads and "
                           f"writes only regular files here (remove or replace it)")


def _os_error(path: Path | str, exc: OSError, doing: str) -> UnsafeFileError:
    if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a link
        return UnsafeFileError(f"{path}: is a symbolic link; the arena does not {doing} through "
                               f"links in a run directory (remove it)")
    if exc.errno == errno.EISDIR:
        return _not_regular(path, stat.S_IFDIR)
    return UnsafeFileError(f"{path}: cannot {doing}: {exc.strerror or exc}")


# --- reading ---------------------------------------------------------------------------------


def open_regular(path: Path | str, follow: bool = True) -> IO[bytes]:
    """`path` opened for reading, if it is a regular file (never a pipe, device or folder; with
    `follow` off, never a link either). FileNotFoundError if it does not exist."""
    flags = os.O_RDONLY | (0 if follow else os.O_NOFOLLOW)
    return _open_file(path, flags, "read", "rb")


def _open_file(path: Path | str, flags: int, doing: str, mode: str) -> IO[bytes]:
    """`path` opened with `flags` (never blocking on a pipe) as a file object of `mode`, if it
    is a regular file; FileNotFoundError if it does not exist, UnsafeFileError else."""
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _os_error(path, exc, doing) from None
    try:
        kind = os.fstat(fd).st_mode
        if not stat.S_ISREG(kind):
            raise _not_regular(path, kind)
        os.set_blocking(fd, True)
        return os.fdopen(fd, mode)
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: Path | str, limit: int = MAX_TEXT, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (see `open_regular`)."""
    with open_regular(path, follow) as f:
        if os.fstat(f.fileno()).st_size > limit:
            raise UnsafeFileError(f"{path}: is larger than {_size(limit)}, the most the arena "
                                  f"reads of it")
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise _os_error(path, exc, "read") from None
    if len(data) > limit:  # it grew while read
        raise UnsafeFileError(f"{path}: is larger than {_size(limit)}, the most the arena reads "
                              f"of it")
    return data


def read_text(path: Path | str, limit: int = MAX_TEXT, follow: bool = True) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes; bad bytes are an
    UnsafeFileError naming their line."""
    return decode(read_bytes(path, limit, follow), path)


def decode(data: bytes, where: Path | str, first_line: int = 1) -> str:
    """UTF-8 bytes as text; bad bytes are an UnsafeFileError naming their line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        raise UnsafeFileError(f"{where}: line {line}: not UTF-8 text (byte "
                              f"0x{data[exc.start]:02x})") from None


def read_lines(path: Path | str, limit: int = MAX_LINE) -> Iterator[tuple[int, bytes, bool]]:
    """The lines of a regular file, split on b"\\n" only (never on U+2028, U+0085 or a carriage
    return, which a JSON string may hold), each with its number and whether it ended with a
    newline (only the last may not); a line longer than `limit` is an UnsafeFileError."""
    with open_regular(path) as f:
        number, pending = 0, b""
        while True:
            try:
                block = f.read(_BLOCK)
            except OSError as exc:
                raise _os_error(path, exc, "read") from None
            if not block:
                break
            *whole, pending = (pending + block).split(b"\n")
            for line in whole:
                number += 1
                if len(line) > limit:
                    raise _long_line(path, number, limit)
                yield number, line, True
            if len(pending) > limit:
                raise _long_line(path, number + 1, limit)
        if pending:
            yield number + 1, pending, False


def _long_line(path: Path | str, number: int, limit: int) -> UnsafeFileError:
    return UnsafeFileError(f"{path}: line {number}: longer than {_size(limit)}, the most the "
                           f"arena reads of a line")


def _size(limit: int) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


# --- JSON and TOML ---------------------------------------------------------------------------

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number the arena accepts")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite)


def parse_json(text: str, where: str) -> Any:
    """JSON text parsed, at most MAX_DEPTH deep, without NaN or infinities; an UnsafeFileError
    naming `where` (a file, or a file and line) otherwise."""
    if text.count("[") + text.count("{") > MAX_DEPTH:  # only then can it be too deep
        depth = 0
        for token in _JSON_TOKENS.finditer(text):
            mark = token.group()
            if mark in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise UnsafeFileError(f"{where}: nested more than {MAX_DEPTH} deep")
            elif mark in "]}":
                depth -= 1
    try:
        return _DECODER.decode(text)
    except RecursionError:  # not reached after the check above; kept as a last guard
        raise UnsafeFileError(f"{where}: nested too deeply") from None
    except ValueError as exc:
        raise UnsafeFileError(f"{where}: not valid JSON ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def read_json(path: Path | str, limit: int = MAX_TEXT) -> Any:
    """A JSON file of at most `limit` bytes, parsed as `parse_json` does."""
    return parse_json(read_text(path, limit), str(path))


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML text parsed, at most MAX_DEPTH deep; tomllib.TOMLDecodeError for bad syntax, an
    UnsafeFileError for too deep a nesting."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise UnsafeFileError(f"{where}: nested more than {MAX_DEPTH} deep") from None
    check_depth(data, where)
    return data


def check_depth(value: Any, where: str, limit: int = MAX_DEPTH) -> None:
    """An UnsafeFileError if `value` nests lists and dicts more than `limit` deep (looked at
    without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (item.values() if isinstance(item, dict) else
                    item if isinstance(item, list | tuple) else ())
        for child in children:
            if isinstance(child, dict | list | tuple):
                if depth + 1 > limit:
                    raise UnsafeFileError(f"{where}: nested more than {limit} deep")
                stack.append((child, depth + 1))


# --- writing and deleting --------------------------------------------------------------------


def check_entry(path: Path | str, folder: bool = False) -> bool:
    """Whether `path` exists, as a regular file (a real folder with `folder`); an
    UnsafeFileError if it is anything else: a link, a pipe, a device."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _os_error(path, exc, "look at") from None
    if folder and not stat.S_ISDIR(mode):
        raise UnsafeFileError(f"{path}: is {_kind(mode)}, not a folder; the arena writes only "
                              f"in real folders of a run directory (remove or replace it)")
    if not folder and not stat.S_ISREG(mode):
        raise _not_regular(path, mode)
    return True


def real_folder(path: Path | str, make: bool = False) -> Path:
    """`path`, a real folder (not a link to one); made if missing with `make`."""
    if make:
        try:
            os.mkdir(path)
        except FileExistsError:
            pass
        except OSError as exc:
            raise _os_error(path, exc, "make a folder") from None
    if not check_entry(path, folder=True):
        raise UnsafeFileError(f"{path}: no such folder")
    return Path(path)


def write_bytes(path: Path | str, data: bytes, mode: int = 0o644) -> None:
    """Write a file whole: into a new file beside it, renamed over it, so that a link at `path`
    is never followed and a reader never sees half of it. What stands at `path` must be a
    regular file or nothing."""
    path = Path(path)
    check_entry(path)
    made = path.with_name(f".{path.name}.{secrets.token_hex(4)}.new")
    try:
        fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     mode)
    except OSError as exc:
        raise _os_error(path, exc, "write") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(made, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(made)
        raise


def write_text(path: Path | str, text: str, mode: int = 0o644) -> None:
    """Write a UTF-8 text file whole, as `write_bytes` does."""
    write_bytes(path, text.encode("utf-8"), mode)


def open_append(path: Path | str) -> IO[bytes]:
    """A regular file opened for appending (made if missing), never through a link."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise _os_error(path, exc, "write") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "ab")
    except BaseException:
        os.close(fd)
        raise


def open_update(path: Path | str) -> IO[bytes]:
    """An existing regular file opened for reading and writing, never through a link."""
    return _open_file(path, os.O_RDWR | os.O_NOFOLLOW, "write", "rb+")


def remove(path: Path | str) -> None:
    """Remove a regular file if it is there; anything else at `path` (a link, a folder, a pipe)
    is an UnsafeFileError, left in place."""
    if check_entry(path):
        try:
            os.unlink(path)  # unlink never follows a link
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise _os_error(path, exc, "remove") from None

