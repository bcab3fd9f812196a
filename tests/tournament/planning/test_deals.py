"""Tests for arena.tournament.planning.deals: seed files, named lists (beside a config, then
packaged), DealSet."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import warnings
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest

from arena.errors import ArenaError
from arena.tournament.planning.deals import (
    DealsError,
    DealSet,
    packaged_lists,
    parse_seeds,
    read_seed_file,
    resolve_seed_list,
)

REPO = Path(__file__).resolve().parents[3]
"""The repository root, whose top-level `seeds/` folder holds the shipped lists."""
STANDARD_GENERATOR_SEED = 20240601
"""The seed documented in docs/config.md for seeds/standard.txt."""


def write(path: Path, text: str) -> Path:
    """Write `text` to `path`, creating folders; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_read_seed_file_skips_blank_lines_and_comments(tmp_path: Path) -> None:
    path = write(tmp_path / "s.txt", "# weekly openings\n\n5\n  7  # a comment\n-3\n+11\n")
    assert read_seed_file(path) == (5, 7, -3, 11)


@pytest.mark.parametrize(("text", "message"), [
    ("1\n2\nabc\n", "line 3: 'abc' is not an integer"),
    ("1\n1.5\n", "line 2: '1.5' is not an integer"),
    ("1\n2 3\n", "line 2: '2 3' is not an integer"),
    ("4\n# note\n9\n4\n", "line 4: seed 4 repeats line 1"),
    ("# nothing here\n\n", "holds no seeds"),
])
def test_bad_seed_files_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "seeds" / "x.txt", text)
    with pytest.raises(DealsError) as caught:
        read_seed_file(path)
    assert str(caught.value) == f"{path}: {message}"
    assert isinstance(caught.value, ArenaError)


def test_missing_seed_file(tmp_path: Path) -> None:
    with pytest.raises(DealsError, match="no such seed file"):
        read_seed_file(tmp_path / "nope.txt")


def test_parse_seeds_names_where() -> None:
    with pytest.raises(DealsError, match=r"^here: line 1: 'x' is not an integer$"):
        parse_seeds("x\n", "here")


def test_standard_list_is_packaged_and_large() -> None:
    assert "standard" in packaged_lists()
    seeds, source = resolve_seed_list("standard", Path("/nonexistent-config-dir"))
    assert source == "list 'standard' (packaged)"
    assert len(seeds) >= 1000
    assert len(set(seeds)) == len(seeds)
    assert all(1 <= s < 2**31 for s in seeds)


def test_standard_list_matches_its_documented_generator() -> None:
    rng = random.Random(STANDARD_GENERATOR_SEED)
    expected = tuple(rng.sample(range(1, 2**31), 1000))
    seeds, _ = resolve_seed_list("standard", Path("."))
    assert seeds == expected


def test_packaged_lists_are_the_top_level_seeds_folder() -> None:
    shipped = sorted(path.stem for path in (REPO / "seeds").glob("*.txt"))
    assert shipped and packaged_lists() == shipped
    for name in shipped:
        seeds, _ = resolve_seed_list(name, Path("/nonexistent-config-dir"))
        assert seeds == read_seed_file(REPO / "seeds" / f"{name}.txt")


def test_packaged_lists_are_found_from_any_directory(tmp_path: Path) -> None:
    code = ("from pathlib import Path; "
            "from arena.tournament.planning.deals import resolve_seed_list; "
            "seeds, source = resolve_seed_list('standard', Path('.')); print(len(seeds), source)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "1000 list 'standard' (packaged)"


def test_the_shipped_configs_name_the_packaged_list() -> None:
    # configs/quick.toml: configs/seeds/standard.txt if there is one, else the shipped list
    assert not (REPO / "configs" / "seeds").exists()
    _, source = resolve_seed_list("standard", REPO / "configs")
    assert source == "list 'standard' (packaged)"


def test_setuptools_packages_the_seed_lists() -> None:
    """What the wheel takes, as setuptools reads pyproject.toml: the `seeds` package and every
    list in it (the wheel itself is built in `pytest -m slow`: six CPU-seconds of pip)."""
    from setuptools.config.pyprojecttoml import read_configuration

    with warnings.catch_warnings():  # [tool.setuptools] is "beta" to setuptools
        warnings.simplefilter("ignore")
        found = read_configuration(REPO / "pyproject.toml")["tool"]["setuptools"]
    assert "seeds" in found["packages"] and (REPO / "seeds" / "__init__.py").is_file()
    shipped = found["package-data"].get("seeds", [])
    lists = list((REPO / "seeds").glob("*.txt"))
    assert lists and all(any(fnmatch(p.name, pattern) for pattern in shipped) for p in lists)


@pytest.mark.slow
def test_the_wheel_ships_the_seed_lists(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for folder in ("arena", "bots", "seeds"):
        shutil.copytree(REPO / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q",
                    "-w", str(tmp_path / "wheel")], capture_output=True, check=True, timeout=120)
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in (REPO / "seeds").glob("*.txt"):
        assert f"seeds/{path.name}" in names
    assert "seeds/__init__.py" in names


def test_named_list_beside_the_config_comes_first(tmp_path: Path) -> None:
    write(tmp_path / "seeds" / "weekly.txt", "3\n1\n2\n")
    write(tmp_path / "seeds" / "standard.txt", "10\n20\n")
    assert resolve_seed_list("weekly", tmp_path) == ((3, 1, 2), "list 'weekly' (seeds/weekly.txt)")
    assert resolve_seed_list("standard", tmp_path) == ((10, 20),
                                                       "list 'standard' (seeds/standard.txt)")


def test_txt_paths_are_relative_to_the_config_dir_or_absolute(tmp_path: Path) -> None:
    write(tmp_path / "more" / "mine.txt", "8\n9\n")
    assert resolve_seed_list("more/mine.txt", tmp_path) == ((8, 9), "file 'more/mine.txt'")
    absolute = str(tmp_path / "more" / "mine.txt")
    assert resolve_seed_list(absolute, Path("/elsewhere")) == ((8, 9), f"file {absolute!r}")


def test_unknown_list_says_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(DealsError) as caught:
        resolve_seed_list("weekly", tmp_path)
    assert str(caught.value) == (f"no seed list 'weekly' (looked in {tmp_path}/seeds/weekly.txt "
                                 f"and the packaged lists: standard)")


def test_missing_txt_file_and_bad_names(tmp_path: Path) -> None:
    with pytest.raises(DealsError, match=r"no seed file 'gone\.txt' \(looked for .*gone\.txt\)"):
        resolve_seed_list("gone.txt", tmp_path)
    with pytest.raises(DealsError, match="neither a seed list name"):
        resolve_seed_list("../etc/passwd", tmp_path)
    with pytest.raises(DealsError, match="neither a seed list name"):
        resolve_seed_list("", tmp_path)


def test_bad_line_in_a_named_list(tmp_path: Path) -> None:
    path = write(tmp_path / "seeds" / "x.txt", "1\n2\n3\n4\n5\n6\nabc\n")
    with pytest.raises(DealsError, match=rf"^{path}: line 7: 'abc' is not an integer$"):
        resolve_seed_list("x", tmp_path)


def test_deal_set_from_count() -> None:
    deals = DealSet.from_count(4, 10)
    assert deals.seeds == (10, 11, 12, 13)
    assert deals.source == "count 4 from base 10"
    assert len(deals) == 4
    assert list(deals) == [10, 11, 12, 13]
    with pytest.raises(DealsError, match="1 or more"):
        DealSet.from_count(0, 1)


def test_deal_set_first_and_from_list(tmp_path: Path) -> None:
    write(tmp_path / "seeds" / "w.txt", "5\n6\n7\n")
    deals = DealSet.from_list("w", tmp_path, 2)
    assert deals == DealSet((5, 6), "list 'w' (seeds/w.txt), first 2 of 3")
    assert DealSet.from_list("w", tmp_path).seeds == (5, 6, 7)
    with pytest.raises(DealsError, match="holds 3 seeds, fewer than the 4 asked for"):
        DealSet.from_list("w", tmp_path, 4)


def test_deal_set_rejects_empty_and_repeated_seeds() -> None:
    with pytest.raises(DealsError, match="no deal seeds"):
        DealSet((), "mine")
    with pytest.raises(DealsError, match="seed 2 appears more than once"):
        DealSet((1, 2, 2), "mine")
