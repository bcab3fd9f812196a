"""What the shipped configs produce stays the same: records, ratings, crosstables and replays of
the first two deals of every config, against the digests in `tests/data/output_digests.json`
(made by `python scripts/output_digests.py --write`; see that script)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("output_digests",
                                                  ROOT / "scripts" / "output_digests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DIGESTS = _script()
EXPECTED = json.loads(DIGESTS.EXPECTED.read_text(encoding="utf-8"))


def test_every_shipped_config_has_expected_digests() -> None:
    assert sorted(EXPECTED) == sorted(p.stem for p in DIGESTS.shipped())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_shipped_config_gives_the_same_outputs(name: str) -> None:
    found = DIGESTS.digests(DIGESTS.CONFIGS / f"{name}.toml", DIGESTS.SLICE_DEALS, 2)
    assert found == EXPECTED[name]
