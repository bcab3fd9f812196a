"""The policy trained by `train_bundle.py` as a bot (docs/rl.md).

Run it:
    arena play old-mans-bundle -b docs/examples/bundle_policy_bot.py:BundlePolicyBot \
        -b random --games 200
"""

from __future__ import annotations

from pathlib import Path

from arena.rl import LinearPolicy, PolicyBot

WEIGHTS = LinearPolicy.load(Path(__file__).resolve().parent / "bundle_policy.npz")


class BundlePolicyBot(PolicyBot):
    """Old Man's Bundle played by the trained linear policy."""

    games = ("old-mans-bundle",)

    def __init__(self) -> None:
        """The policy saved beside this file."""
        super().__init__(WEIGHTS)
