"""The suite's compiled modules, made once before its test processes start.

In a fresh clone nothing is compiled yet, and the four test processes xdist starts all import
every test module and most of the arena at once while collecting, so each compiles them: pytest
rewrites every test module's asserts (about 8 CPU-s a process for the whole suite) and Python
compiles the arena's and the bots' modules (about 1 s). The controller, which collects nothing,
does both once before it starts them (`pytest_configure` in conftest.py); the test processes then
read what it wrote, as a second run would. The rewritten modules are exactly those a test process
would write (pytest's own functions, the same config), stored where it looks for them, with the
source's hash: a module edited later is rewritten as usual.

pytest keeps its rewriting private: where a version of pytest names these functions otherwise,
nothing is done here and each process compiles for itself, as before.
"""

from __future__ import annotations

import compileall
import fnmatch
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("arena", "bots")


def compile_once(config: pytest.Config) -> None:
    """Rewrite the test modules under the paths asked for and compile the arena and the bots,
    where a module has no compiled form yet (the controller of a run of several processes)."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return  # a test process, or a run in one process: it compiles what it imports itself
    for package in PACKAGES:
        compileall.compile_dir(REPO / package, quiet=2, workers=1)
    if config.getoption("assertmode", "rewrite") == "rewrite":
        roots = [Path(arg.split("::")[0]).resolve() for arg in config.args]
        rewrite_tests(config, roots or [REPO / "tests"])


def rewrite_tests(config: pytest.Config, roots: list[Path]) -> None:
    """Write the rewritten code of each test module under `roots` where pytest's import hook
    looks for it (unless a current one is there)."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )
    except ImportError:
        return
    state = config.stash.get(assertstate_key, None)
    if state is None:
        return
    patterns = [*config.getini("python_files"), "conftest.py"]
    for source in _test_modules(roots, patterns):
        pyc = get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)
        try:
            if _read_pyc(source, pyc, state.trace) is not None:
                continue
            get_cache_dir(source).mkdir(exist_ok=True)
            source_hash, code = _rewrite_test(source, config)
            _write_pyc(state, code, source_hash, pyc)
        except (SyntaxError, ValueError, OSError):
            continue  # a module that does not compile: the test process that collects it says so


def _test_modules(roots: list[Path], patterns: list[str]) -> list[Path]:
    """The test modules (and conftest files) under `roots`."""
    found: set[Path] = set()
    for root in roots:
        candidates = [root] if root.is_file() else root.rglob("*.py") if root.is_dir() else []
        found.update(path for path in candidates
                     if any(fnmatch.fnmatch(path.name, p) for p in patterns)
                     and "__pycache__" not in path.parts)
    return sorted(found)
