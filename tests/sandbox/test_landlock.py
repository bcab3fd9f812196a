"""Landlock confinement: what a confined process may still do, and what it may not."""

from __future__ import annotations

import json
import os
import signal
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.sandbox import landlock

pytestmark = pytest.mark.skipif(landlock.version() < 1, reason="the kernel has no Landlock")


def confined_attempts(folder: Path, attempts: dict[str, Callable[[], object]],
                      reads: int | None = None) -> dict[str, str]:
    """Run `attempts` in a child process confined to `folder` (and to what the ruleset `reads`
    lets it read): "ok" or the error of each."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover  (the child)
        try:
            os.close(read_end)
            landlock.confine(str(folder), reads)
            outcome = {}
            for name, attempt in attempts.items():
                try:
                    attempt()
                    outcome[name] = "ok"
                except OSError as exc:
                    outcome[name] = exc.strerror or type(exc).__name__
            os.write(write_end, json.dumps(outcome).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as answer:
        data = answer.read()
    os.waitpid(pid, 0)
    return json.loads(data)


def test_a_confined_process_writes_only_in_its_folder(tmp_path: Path) -> None:
    inside, outside = tmp_path / "game", tmp_path / "elsewhere"
    inside.mkdir()
    outside.mkdir()
    (outside / "kept.txt").write_text("keep me")
    got = confined_attempts(inside, {
        "write inside": lambda: (inside / "notes.txt").write_text("mine"),
        "make a folder inside": lambda: (inside / "sub").mkdir(),
        "rename inside": lambda: (inside / "notes.txt").rename(inside / "sub" / "n.txt"),
        "write outside": lambda: (outside / "note.txt").write_text("left behind"),
        "overwrite outside": lambda: (outside / "kept.txt").write_text("gone"),
        "remove outside": lambda: (outside / "kept.txt").unlink(),
        "make a fifo outside": lambda: os.mkfifo(outside / "fifo"),
        "read outside": lambda: (outside / "kept.txt").read_text(),
        "write to /dev/null": lambda: Path(os.devnull).write_text("nothing"),
    })
    assert got == {"write inside": "ok", "make a folder inside": "ok", "rename inside": "ok",
                   "write outside": "Permission denied", "overwrite outside": "Permission denied",
                   "remove outside": "Permission denied",
                   "make a fifo outside": "Permission denied", "read outside": "ok",
                   "write to /dev/null": "ok"}
    assert os.listdir(outside) == ["kept.txt"] and (outside / "kept.txt").read_text() == "keep me"
    assert (inside / "sub" / "n.txt").read_text() == "mine"


@pytest.mark.skipif(landlock.version() < 6, reason="scoped signals need Landlock 6")
def test_a_confined_process_cannot_signal_or_bind_outside(tmp_path: Path) -> None:
    parent = os.getpid()
    got = confined_attempts(tmp_path, {
        "signal its parent": lambda: os.kill(parent, signal.SIGCONT),
        "bind a TCP port": lambda: socket.socket().bind(("127.0.0.1", 0)),
        "signal itself": lambda: os.kill(os.getpid(), 0),
    })
    assert got == {"signal its parent": "Operation not permitted",
                   "bind a TCP port": "Permission denied", "signal itself": "ok"}


def test_a_reading_ruleset_keeps_what_is_kept_from_every_way_of_reading(tmp_path: Path) -> None:
    run, game = tmp_path / "run", tmp_path / "game"
    run.mkdir()
    game.mkdir()
    (run / "key").write_text("secret")
    (tmp_path / "notes.txt").write_text("anyone may read this")
    reads = landlock.reading_ruleset([str(run)])
    assert reads is not None

    def through_a_descriptor() -> bytes:
        folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
        return os.read(os.open("run/key", os.O_RDONLY, dir_fd=folder), 10)

    try:
        got = confined_attempts(game, {
            "read the key": lambda: (run / "key").read_text(),
            "read it through a descriptor": through_a_descriptor,
            "read beside it": lambda: (tmp_path / "notes.txt").read_text(),
            "list the folder around it": lambda: os.listdir(tmp_path),
            "read a system file": lambda: Path("/etc/hostname").read_bytes(),
            "write and read its own": lambda: ((game / "mine").write_text("x"),
                                               (game / "mine").read_text()),
        }, reads)
    finally:
        os.close(reads)
    assert got == {"read the key": "Permission denied",
                   "read it through a descriptor": "Permission denied",
                   "read beside it": "ok", "list the folder around it": "ok",
                   "read a system file": "ok", "write and read its own": "ok"}
