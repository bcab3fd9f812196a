"""What the shipped configs produce stays the same: records, ratings, crosstables and replays of
the first two deals of every config, against the digests in `tests/data/output_digests.json`
(made by `python scripts/output_digests.py --write`; see that script).

Every config played whole is an exhaustive check (each costs seconds of CPU in `arena`
processes of its own): the default run plays two small ones, the README's `quick` and
`old-mans-bundle` (another game, another family of bots), and `pytest -m slow` the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parent.parent


DIGESTS = load_script("output_digests")
EXPECTED = json.loads(DIGESTS.EXPECTED.read_text(encoding="utf-8"))


def test_every_shipped_config_has_expected_digests() -> None:
    assert sorted(EXPECTED) == sorted(p.stem for p in DIGESTS.shipped())
    assert set(DEFAULT_RUN) <= set(EXPECTED)


DEFAULT_RUN = ("quick", "old-mans-bundle")
"""The configs whose digests the default run checks; the others are under `slow`."""


@pytest.mark.parametrize("name", [name if name in DEFAULT_RUN else
                                  pytest.param(name, marks=pytest.mark.slow)
                                  for name in sorted(EXPECTED)])
def test_a_shipped_config_gives_the_same_outputs(name: str) -> None:
    found = DIGESTS.digests(DIGESTS.CONFIGS / f"{name}.toml", DIGESTS.SLICE_DEALS, 2)
    assert found == EXPECTED[name]
