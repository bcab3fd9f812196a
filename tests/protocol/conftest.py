"""What the protocol tests share: the reference clients, the C one compiled once a session."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
HOSTILE = Path(__file__).resolve().parent / "hostile.py"


@pytest.fixture(scope="session")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C client's spec, compiled once (skipped where there is no C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc) on this machine")
    folder = tmp_path_factory.mktemp("c-client")
    subprocess.run([compiler, "-O2", "-o", str(folder / "bot"), str(CLIENTS / "c" / "bot.c")],
                   check=True)
    return f"cmd:{folder / 'bot'}"


@pytest.fixture(scope="session")
def js_bot() -> str:
    """The Node client's spec (skipped where there is no node)."""
    if shutil.which("node", path="/usr/local/bin:/usr/bin:/bin") is None:
        pytest.skip("no node on /usr/local/bin:/usr/bin:/bin")
    return str(CLIENTS / "js")


@pytest.fixture(scope="session")
def python_bot() -> str:
    """The plain Python client's spec (a folder with a manifest)."""
    return str(CLIENTS / "python-stdio")
