"""Bytecode compiled ahead for untrusted bots: which files, and imports that use it."""

from __future__ import annotations

import builtins
import importlib.util
import os
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import CodeType
from typing import Any

import pytest

from arena.sandbox import bytecode
from arena.sandbox.bytecode import compile_ahead, source_files, use_compiled

BOT = ("from arena.api import Bot\n\n\n"
       "class Tiny(Bot):\n    def act(self, obs):\n        return obs.legal[0]\n")


@pytest.fixture
def loader_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever `use_compiled` does to the source loader is undone after the test."""
    monkeypatch.setattr(SourceFileLoader, "source_to_code", SourceFileLoader.source_to_code)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)


def _import(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"bytecode_test_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_file_spec_names_the_file_and_its_neighbours(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(BOT)
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "notes.txt").write_text("not python")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deeper.py").write_text("Y = 2\n")
    expected = [tmp_path / "mybot.py", tmp_path / "helper.py"]
    assert source_files(f"{tmp_path / 'mybot.py'}:Tiny") == expected
    assert source_files(f"{tmp_path / 'mybot.py'}:Tiny:depth=2,greed=0.5") == expected


def test_a_module_spec_names_its_top_level_package_without_running_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "strangers"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("raise RuntimeError('imported')\n")
    (package / "inner" / "__init__.py").write_text("")
    (package / "inner" / "mybot.py").write_text(BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    files = source_files("strangers.inner.mybot:Tiny")
    assert sorted(files) == sorted([package / "__init__.py", package / "inner" / "__init__.py",
                                    package / "inner" / "mybot.py"])
    assert "strangers" not in sys.modules


@pytest.mark.parametrize("target", ["no_such_top_level_module:Bot", "/no/such/file.py:Bot"])
def test_nothing_to_find_is_no_files(target: str) -> None:
    assert source_files(target) == []


def test_files_that_do_not_compile_are_left_to_the_import(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(BOT)
    bad.write_text("def broken(:\n")
    compiled = compile_ahead([good, bad, tmp_path / "missing.py"])
    assert list(compiled) == [str(good.resolve())]
    source, code = compiled[str(good.resolve())]
    assert source == good.read_bytes() and isinstance(code, CodeType)


def test_an_import_takes_the_compiled_code_and_compiles_nothing(
        tmp_path: Path, loader_restored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "mybot.py"
    path.write_text(BOT)
    compiled = compile_ahead([path])
    use_compiled(compiled)
    compiles: list[Any] = []
    real_compile = builtins.compile

    def counting(*args: Any, **kwargs: Any) -> Any:
        compiles.append(args[1] if len(args) > 1 else kwargs.get("filename"))
        return real_compile(*args, **kwargs)

    monkeypatch.setattr(builtins, "compile", counting)
    module = _import(path)
    assert compiles == []
    (_, code), = compiled.values()
    assert module.Tiny.act.__code__ in _nested(code)


def test_an_edited_file_is_compiled_again(tmp_path: Path, loader_restored: None) -> None:
    path = tmp_path / "mybot.py"
    path.write_text(BOT)
    compiled = compile_ahead([path])
    use_compiled(compiled)
    path.write_text(BOT.replace("obs.legal[0]", "obs.legal[-1]"))
    module = _import(path)
    (_, code), = compiled.values()
    assert module.Tiny.act.__code__ not in _nested(code)
    assert -1 in module.Tiny.act.__code__.co_consts


def _nested(code: CodeType) -> list[CodeType]:
    """A code object and every code object inside it."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found.extend(_nested(const))
    return found


def test_at_most_max_files_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bytecode, "MAX_FILES", 2)
    for name in "abc":
        (tmp_path / f"{name}.py").write_text("X = 1\n")
    for name in "abc":  # the bot's own file always among them
        files = source_files(f"{tmp_path / name}.py:Bot")
        assert len(files) == 2 and files[0] == tmp_path / f"{name}.py"


def test_only_files_whose_real_path_is_in_the_bot_s_folder_count(tmp_path: Path) -> None:
    mine, elsewhere = tmp_path / "mine", tmp_path / "elsewhere"
    mine.mkdir()
    (elsewhere / "deeper").mkdir(parents=True)
    (mine / "mybot.py").write_text(BOT)
    (mine / "helper.py").write_text("X = 1\n")
    (elsewhere / "theirs.py").write_text("Y = 2\n")
    (mine / "out.py").symlink_to(elsewhere / "theirs.py")  # leads out: skipped
    (mine / "alias.py").symlink_to(mine / "helper.py")  # stays in: the file it leads to
    (mine / "folder.py").symlink_to(elsewhere / "deeper")  # not a file
    (mine / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    assert source_files(f"{mine / 'mybot.py'}:Tiny") == [mine / "mybot.py", mine / "helper.py"]


def test_a_package_s_links_out_are_skipped_and_its_linked_folders_not_entered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package, elsewhere = tmp_path / "strangers", tmp_path / "elsewhere"
    package.mkdir()
    elsewhere.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mybot.py").write_text(BOT)
    (elsewhere / "theirs.py").write_text("Y = 2\n")
    (package / "out.py").symlink_to(elsewhere / "theirs.py")
    (package / "linked").symlink_to(elsewhere)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert source_files("strangers.mybot:Tiny") == [package / "__init__.py", package / "mybot.py"]


@pytest.mark.parametrize("link", [False, True])
def test_nothing_in_or_under_what_the_arena_keeps_counts(tmp_path: Path, link: bool) -> None:
    mine, run, rival = tmp_path / "mine", tmp_path / "run", tmp_path / "rival"
    for folder in (mine, run, rival / "inner"):
        folder.mkdir(parents=True)
    (mine / "mybot.py").write_text(BOT)
    (run / "key").write_text("deadbeef\n")  # parses as Python
    (rival / "inner" / "bot.py").write_text("SECRET = 1\n")
    private = [str(run), str(rival)]  # folders: what lies under them is kept too
    if link:  # the bot's own folder holds links to what is kept
        (mine / "key.py").symlink_to(run / "key")
        (mine / "rival.py").symlink_to(rival / "inner" / "bot.py")
        assert source_files(f"{mine / 'mybot.py'}:Tiny", private) == [mine / "mybot.py"]
    else:  # the bot's folder lies inside what is kept: nothing of it is compiled
        (run / "bot.py").write_text(BOT)
        (run / "helper.py").write_text("X = 1\n")
        assert source_files(f"{run / 'bot.py'}:Tiny", private) == []


def test_a_file_over_the_cap_is_neither_read_nor_compiled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small, big = tmp_path / "small.py", tmp_path / "big.py"
    small.write_text("X = 1\n")
    with big.open("wb") as f:
        f.truncate(bytecode.MAX_FILE_BYTES + 1)  # sparse
    reads: list[int] = []
    real_read = bytecode.os.read

    def counting(fd: int, n: int) -> bytes:
        read = real_read(fd, n)
        reads.append(len(read))
        return read

    monkeypatch.setattr(bytecode.os, "read", counting)
    assert list(compile_ahead([big, small])) == [str(small.resolve())]
    assert sum(reads) == len(small.read_bytes())  # not a byte of the big one


def test_all_files_together_stay_under_the_total_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bytecode, "MAX_BYTES", 40)
    paths = []
    for name, size in [("a", 30), ("b", 30), ("c", 8)]:
        path = tmp_path / f"{name}.py"
        path.write_text("X = 1" + " " * (size - 6) + "\n")
        paths.append(path)
    # b would go over: left to its import; c still fits
    assert list(compile_ahead(paths)) == [str(paths[0].resolve()), str(paths[2].resolve())]


def test_a_named_pipe_or_a_link_is_not_opened(tmp_path: Path) -> None:
    pipe, link, good = tmp_path / "pipe.py", tmp_path / "link.py", tmp_path / "good.py"
    os.mkfifo(pipe)  # opening it to read would wait for a writer
    good.write_text(BOT)
    link.symlink_to(good)  # compile_ahead takes real paths: a link in their place is not opened
    assert list(compile_ahead([pipe, link, good])) == [str(good.resolve())]
    assert source_files(f"{good}:Tiny") == [good]
