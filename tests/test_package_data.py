"""Every file the arena and its bots read at run time beside their modules ships with them: each
matches a `package-data` pattern of its package in pyproject.toml, as setuptools reads it (a
file missing there works in a checkout and is absent from an installed wheel)."""

from __future__ import annotations

import warnings
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SKIPPED = ("__pycache__", ".egg-info")


def data_files() -> list[Path]:
    """The files under arena/ and bots/ that are not Python modules."""
    return [path for top in ("arena", "bots") for path in (REPO / top).rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc")
            and not any(part.endswith(SKIPPED) for part in path.parts)]


def shipped(path: Path, patterns: dict[str, list[str]]) -> bool:
    """Whether a pattern of one of the packages holding `path` matches it."""
    for package in path.parents:
        if package == REPO:
            return False
        if (package / "__init__.py").is_file():
            name = ".".join(package.relative_to(REPO).parts)
            inside = path.relative_to(package).as_posix()
            if any(fnmatch(inside, pattern) for pattern in patterns.get(name, [])):
                return True
    return False


def test_every_data_file_of_the_arena_and_its_bots_is_package_data() -> None:
    from setuptools.config.pyprojecttoml import read_configuration

    with warnings.catch_warnings():  # [tool.setuptools] is "beta" to setuptools
        warnings.simplefilter("ignore")
        patterns = read_configuration(REPO / "pyproject.toml")["tool"]["setuptools"][
            "package-data"]
    found = data_files()
    assert any(path.name == "margins.f64.xz" for path in found)
    assert [path.relative_to(REPO).as_posix() for path in found
            if not shipped(path, patterns)] == []
