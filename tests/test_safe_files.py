"""Files from elsewhere read and written safely (`arena.safe_files`): never through a link, only
regular files, sized reads, bounded depth, one clear line for each refusal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.safe_files import (
    MAX_DEPTH,
    UnsafeFileError,
    check_entry,
    open_append,
    parse_json,
    parse_toml,
    read_bytes,
    read_lines,
    read_text,
    real_folder,
    remove,
    write_text,
)


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """A file outside, that a link points at."""
    path = tmp_path / "outside.txt"
    path.write_text("precious\n")
    return path


def test_writing_replaces_a_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "ratings.txt"
    write_text(path, "one\n")
    write_text(path, "two\n")
    assert path.read_text() == "two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["ratings.txt"]  # no file left behind


def test_writing_never_goes_through_a_link(tmp_path: Path, target: Path) -> None:
    link = tmp_path / "ratings.txt"
    link.symlink_to(target)
    with pytest.raises(UnsafeFileError, match=r"ratings.txt: is a symbolic link, not a regular"):
        write_text(link, "overwritten\n")
    with pytest.raises(UnsafeFileError, match=r"ratings.txt: is a symbolic link"):
        open_append(link)
    with pytest.raises(UnsafeFileError, match=r"ratings.txt: is a symbolic link"):
        remove(link)
    assert target.read_text() == "precious\n" and link.is_symlink()


def test_a_folder_must_be_a_real_one(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "bots").symlink_to(elsewhere)
    with pytest.raises(UnsafeFileError, match=r"bots: is a symbolic link, not a folder"):
        real_folder(tmp_path / "bots", make=True)
    assert real_folder(tmp_path / "logs", make=True).is_dir()
    assert check_entry(tmp_path / "missing") is False


def test_reading_refuses_pipes_devices_and_folders(tmp_path: Path) -> None:
    pipe = tmp_path / "games.jsonl"
    os.mkfifo(pipe)  # opened without blocking: refused, never waited on
    with pytest.raises(UnsafeFileError, match=r"games.jsonl: is a named pipe"):
        read_bytes(pipe)
    with pytest.raises(UnsafeFileError, match=r"is a named pipe"):
        list(read_lines(pipe))
    with pytest.raises(UnsafeFileError, match=r"/dev/zero: is a character device"):
        read_bytes("/dev/zero")
    with pytest.raises(UnsafeFileError, match=r"is a directory"):
        read_text(tmp_path)
    with pytest.raises(FileNotFoundError):
        read_text(tmp_path / "missing")


def test_reading_without_following_links(tmp_path: Path, target: Path) -> None:
    link = tmp_path / "key"
    link.symlink_to(target)
    assert read_text(link) == "precious\n"
    with pytest.raises(UnsafeFileError, match=r"key: is a symbolic link"):
        read_text(link, follow=False)


def test_reads_have_a_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, 100) == b"x" * 100
    with pytest.raises(UnsafeFileError, match=r"key: is larger than 99 bytes"):
        read_bytes(path, 99)
    path.write_bytes(b"a\n" + b"y" * 50 + b"\nb")
    with pytest.raises(UnsafeFileError, match=r"key: line 2: longer than 40 bytes"):
        list(read_lines(path, limit=40))


def test_bad_bytes_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"{}\n{}\n\"\xff\"\n")
    with pytest.raises(UnsafeFileError, match=r"games.jsonl: line 3: not UTF-8 text \(byte 0xff"):
        read_text(path)


def test_lines_are_split_on_newlines_only(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes("a\u2028b\u0085c\rd\n\ne\u2029".encode())
    assert list(read_lines(path)) == [(1, "a\u2028b\u0085c\rd".encode(), True), (2, b"", True),
                                      (3, "e\u2029".encode(), False)]


def test_json_depth_nan_and_huge_numbers_are_refused() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(ok, "x") is not None
    assert parse_json('{"a": "[[[[[[' + "[" * 100 + '"}', "x")  # brackets in a string
    with pytest.raises(UnsafeFileError, match=rf"games.jsonl: line 4: nested more than "
                                              rf"{MAX_DEPTH} deep"):
        parse_json("[" * 100_000 + "]" * 100_000, "games.jsonl: line 4")
    for bad in ('{"s": NaN}', '{"s": -Infinity}', '{"s": 1e400}'):
        with pytest.raises(UnsafeFileError, match=r"x: not valid JSON"):
            parse_json(bad, "x")


def test_toml_depth_is_refused() -> None:
    assert parse_toml("a = [[1]]\n", "c.toml") == {"a": [[1]]}
    with pytest.raises(UnsafeFileError, match=r"c.toml: nested more than"):
        parse_toml("a = " + "[" * 5000 + "]" * 5000 + "\n", "c.toml")
    with pytest.raises(UnsafeFileError, match=r"c.toml: nested more than"):
        parse_toml("a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", "c.toml")
