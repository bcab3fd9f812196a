"""Deal seed sets: named seed lists (the openings book), files of seeds, and count + base ranges.

A seed list is a text file with one integer per line; blank lines and `#` comments are allowed.
Named lists are looked up beside a config (`<config dir>/seeds/<name>.txt`), then among the lists
shipped with the package: the repository's top-level `seeds/` folder, installed as the data package
`seeds` (`seeds/<name>.txt`), so that they are found from any directory.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from arena.errors import ArenaError
from arena.safe_files import UnsafeFileError, read_text

SEED_SUFFIX = ".txt"
LIST_DIR = "seeds"
"""Named lists beside a config live in this folder of the config's directory."""
PACKAGED_LISTS = "seeds"
"""The data package (the repository's top-level `seeds/` folder) holding the shipped lists."""

_INTEGER = re.compile(r"[+-]?[0-9]{1,30}")
MAX_SEED = 2**63 - 1
"""The largest seed (in size) a seed file may hold."""
MAX_SEED_FILE = 64 * 1024 * 1024
"""The largest seed file read."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class DealsError(ArenaError):
    """A seed list that cannot be found or read, or that holds a bad or repeated seed."""


@dataclass(frozen=True)
class DealSet:
    """The deal seeds of a tournament, in play order, and a note of where they came from."""

    seeds: tuple[int, ...]
    source: str

    def __post_init__(self) -> None:
        if not self.seeds:
            raise DealsError(f"{self.source}: no deal seeds")
        seen: set[int] = set()
        for seed in self.seeds:
            if seed in seen:
                raise DealsError(f"{self.source}: seed {seed} appears more than once")
            seen.add(seed)

    def __len__(self) -> int:
        return len(self.seeds)

    def __iter__(self) -> Iterator[int]:
        return iter(self.seeds)

    @classmethod
    def from_count(cls, count: int, base: int) -> DealSet:
        """The seeds base, base + 1, ..., base + count - 1."""
        if count < 1:
            raise DealsError(f"a deal count must be 1 or more, not {count}")
        return cls(tuple(range(base, base + count)), f"count {count} from base {base}")

    @classmethod
    def from_list(cls, name_or_path: str, config_dir: Path, count: int | None = None) -> DealSet:
        """A named list or seed file (see `resolve_seed_list`), or its first `count` seeds."""
        listed = cls(*resolve_seed_list(name_or_path, config_dir))
        return listed if count is None else listed.first(count)

    def first(self, count: int) -> DealSet:
        """The first `count` seeds, noted in the source."""
        if count < 1:
            raise DealsError(f"a deal count must be 1 or more, not {count}")
        if count > len(self.seeds):
            raise DealsError(f"{self.source} holds {len(self.seeds)} seeds, "
                             f"fewer than the {count} asked for")
        return DealSet(self.seeds[:count], f"{self.source}, first {count} of {len(self.seeds)}")


def resolve_seed_list(name_or_path: str, config_dir: Path) -> tuple[tuple[int, ...], str]:
    """Find and read a seed list: its seeds and a description of where they came from.

    A value ending in `.txt` is a file path, relative to `config_dir` unless absolute. Anything else
    is a list name, looked up as `<config_dir>/seeds/<name>.txt`, then among the packaged lists.
    The description names the list as written, never `config_dir`, so it does not depend on where
    the config is read from.
    """
    text = name_or_path.strip()
    if text.endswith(SEED_SUFFIX):
        path = Path(text)
        full = path if path.is_absolute() else config_dir / path
        if not full.is_file():
            raise DealsError(f"no seed file {text!r} (looked for {full})")
        return read_seed_file(full), f"file {text!r}"
    if not _NAME.fullmatch(text):
        raise DealsError(f"{text!r} is neither a seed list name (letters, digits, '-', '_', '.') "
                         f"nor a path to a {SEED_SUFFIX} file")
    beside = config_dir / LIST_DIR / f"{text}{SEED_SUFFIX}"
    if beside.is_file():
        return read_seed_file(beside), f"list {text!r} ({LIST_DIR}/{text}{SEED_SUFFIX})"
    packaged = _packaged_dir() / f"{text}{SEED_SUFFIX}"
    if packaged.is_file():
        where = f"packaged {text}{SEED_SUFFIX}"
        return parse_seeds(packaged.read_text(encoding="utf-8"), where), f"list {text!r} (packaged)"
    known = ", ".join(packaged_lists()) or "none"
    raise DealsError(f"no seed list {text!r} (looked in {beside} and the packaged lists: {known})")


def read_seed_file(path: Path | str) -> tuple[int, ...]:
    """The seeds of a seed file, in order; DealsError naming the file and line of a bad line."""
    try:
        text = read_text(path, MAX_SEED_FILE)
    except FileNotFoundError:
        raise DealsError(f"{path}: no such seed file") from None
    except UnsafeFileError as exc:
        raise DealsError(str(exc)) from None
    except OSError as exc:
        raise DealsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return parse_seeds(text, str(path))


def parse_seeds(text: str, where: str) -> tuple[int, ...]:
    """Seeds from seed-file text; `where` names the file in errors."""
    seeds: list[int] = []
    first_line: dict[int, int] = {}
    for number, line in enumerate(text.split("\n"), 1):
        token = line.split("#", 1)[0].strip()
        if not token:
            continue
        if not _INTEGER.fullmatch(token):
            raise DealsError(f"{where}: line {number}: {token[:40]!r} is not an integer")
        seed = int(token)
        if abs(seed) > MAX_SEED:
            raise DealsError(f"{where}: line {number}: {token!r} is larger than a seed may be "
                             f"(at most {MAX_SEED:,} in size)")
        if seed in first_line:
            raise DealsError(f"{where}: line {number}: seed {seed} repeats line {first_line[seed]}")
        first_line[seed] = number
        seeds.append(seed)
    if not seeds:
        raise DealsError(f"{where}: holds no seeds")
    return tuple(seeds)


def packaged_lists() -> list[str]:
    """Names of the seed lists shipped with the package, sorted."""
    folder = _packaged_dir()
    if not folder.is_dir():
        return []
    return sorted(entry.name[: -len(SEED_SUFFIX)] for entry in folder.iterdir()
                  if entry.name.endswith(SEED_SUFFIX) and entry.is_file())


def _packaged_dir() -> Traversable:
    """The folder of packaged seed lists (the `seeds` data package, installed with arena)."""
    return resources.files(PACKAGED_LISTS)
