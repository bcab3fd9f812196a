"""arena.sandbox.immortal: objects made immortal keep their reference counts, resources stay mortal.

`immortalize` acts on a whole process, so it runs in a child process here: under this
interpreter, and under any CPython 3.12 or 3.13 found on the machine (the module needs nothing
but the standard library), so that the immortal path is tested where the tests run on 3.11.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import arena.sandbox.immortal

CHECK = """
import gc, importlib.util, io, json, socket, sys, weakref
spec = importlib.util.spec_from_file_location("immortal", sys.argv[1])
immortal = importlib.util.module_from_spec(spec)
spec.loader.exec_module(immortal)

def function():
    return 1

class Box:
    pass

sock = socket.socket()
box, holder = Box(), {"sock": sock}
box.sock = sock
freed = []
weakref.finalize(sock, freed.append, True)
stream = io.BytesIO(b"x")
values = [stream]
gc.collect()
gc.freeze()
made = immortal.immortalize()

def keeps_count(value):
    before = sys.getrefcount(value)
    more = [value] * 3
    return sys.getrefcount(value) == before

known = (3, 12) <= sys.version_info[:2] <= (3, 13) and sys.implementation.name == "cpython"
report = {"known": known, "supported": immortal.supported(), "made": made,
          "function": keeps_count(function), "class": keeps_count(Box),
          "code": keeps_count(function.__code__), "module": keeps_count(immortal),
          "socket": keeps_count(sock), "box": keeps_count(box), "holder": keeps_count(holder),
          "stream": keeps_count(stream), "values": keeps_count(values)}
del sock, box, holder
gc.collect()
report["socket_freed"] = freed == [True]
print(json.dumps(report))
"""


def _interpreters() -> list[str]:
    """This interpreter, and the CPython 3.12 and 3.13 ones this machine has (whether they run is
    asked by the test, not at collection, which every test process does)."""
    found = [sys.executable]
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = [shutil.which(f"python3.{minor}") for minor in (12, 13)]
    candidates += sorted(glob.glob(f"{root}/versions/3.1[23].*/bin/python"))
    for path in candidates:
        if path is not None and os.path.realpath(path) not in map(os.path.realpath, found):
            found.append(path)
    return found


def _runs(python: str) -> bool:
    """Whether an interpreter starts and exits cleanly."""
    try:
        ran = subprocess.run([python, "-c", "pass"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return ran.returncode == 0


@pytest.mark.parametrize("python", _interpreters())
def test_what_is_made_immortal_keeps_its_count_and_resources_are_still_freed(
        python: str, tmp_path: Path) -> None:
    if python != sys.executable and not _runs(python):
        pytest.skip(f"{python} does not run here")
    script = tmp_path / "check.py"
    script.write_text(CHECK)
    ran = subprocess.run([python, str(script), arena.sandbox.immortal.__file__],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert report["supported"] == report["known"]
    if report["supported"]:
        assert report["made"] > 1000
        assert report["function"] and report["class"] and report["code"] and report["module"]
    else:
        assert report["made"] == 0
        assert not report["function"]  # counts are written as before
    # a socket, and what holds one (a dictionary, an object's attributes), stay mortal; so do a
    # stream and a list holding one; the socket is freed when its last reference goes
    for mortal in ("socket", "box", "holder", "stream", "values"):
        assert not report[mortal], mortal
    assert report["socket_freed"]


def test_supported_only_where_the_object_layout_is_known() -> None:
    known = (3, 12) <= sys.version_info[:2] <= (3, 13) and sys.implementation.name == "cpython"
    if not known:
        assert not arena.sandbox.immortal.supported()
        assert arena.sandbox.immortal.immortalize() == 0  # and so safe to call in this process


def test_resources_are_told_apart_from_values() -> None:
    import socket

    with socket.socket() as sock:
        assert arena.sandbox.immortal.holds_resource(sock)
    assert arena.sandbox.immortal.holds_resource(sys._getframe())
    values = (1, "x", (1,), {}, [], len, Path, arena.sandbox.immortal, _interpreters)
    assert not any(arena.sandbox.immortal.holds_resource(value) for value in values)
