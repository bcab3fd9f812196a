"""Learned line values for Cribbage Square: what a partial line is worth under good play.

`LineValues` (in `square_bots`) values a line as if its empty places and the starter were filled
at random from the unseen cards. A player does better than that: it chooses where each card
goes, so a line with places left and many cards still to come will, on average, end above its
random-fill value, and by how much depends on what the line holds and how late it is. Following
the Poker Squares programs that learned values of abstracted partial hands (Neller et al.,
EAAI 2016), the *residual* (final line score minus random-fill value) is learned by self-play
for each abstract line state:

- the sorted ranks in the line (none to three cards; a full line has residual 0, since its
  random-fill value is already its exact expectation over the starter),
- whether the line is still a possible flush (two or more cards, all of one suit),
- the stage: how many cards are down in the whole square (1 to 15).

A line's learned value is its random-fill value (from the actual unseen cards) plus that
residual times the table's `weight`. The weight (below 1) damps the residuals: they are
averages over the states the policy happened to visit, and taken at full strength they make
the player hoard places open and score less.

`benchmarks/train_cribbage_square.py` trains the table and writes `square_values.json` next
to this module; it is read on first use.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from arena.games.cribbage_square.scoring import SIDE
from bots.cribbage_square.heuristic import LineKey, LineValues

DATA = "square_values.json"
"""The learned table's file name, beside this module."""

STAGES = SIDE * SIDE
"""Stages are the number of cards down: 1 to 16 (a full square has no residual)."""


def abstract(key: LineKey) -> str:
    """The abstract state of a line: its ranks in hex, then 's' if still a flush, else '-'."""
    ranks, suit, _ = key
    flush = "s" if len(ranks) >= 2 and suit >= 0 else "-"
    return "".join(format(r, "x") for r in ranks) + flush


def coarse(key: LineKey) -> str:
    """The back-off state of a line: its number of cards and flush mark."""
    ranks, suit, _ = key
    return f"{len(ranks)}{'s' if len(ranks) >= 2 and suit >= 0 else '-'}"


class Residuals:
    """The learned table: per stage, residual by abstract line state, with a coarse back-off."""

    def __init__(self, fine: list[dict[str, float]], back: list[dict[str, float]],
                 weight: float = 1.0) -> None:
        self.fine = fine
        self.back = back
        self.weight = weight

    @classmethod
    def zero(cls) -> Residuals:
        """A table of no residuals: the learned values are the random-fill values."""
        return cls([{} for _ in range(STAGES + 1)], [{} for _ in range(STAGES + 1)])

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Residuals:
        """A table from its JSON form (`to_json`)."""
        return cls([dict(d) for d in data["fine"]], [dict(d) for d in data["back"]],
                   float(data.get("weight", 1.0)))

    def to_json(self) -> dict[str, Any]:
        """The JSON form: lists indexed by stage of {state: residual}, and the weight."""
        return {"format": 1, "weight": self.weight, "fine": self.fine, "back": self.back}

    def residual(self, key: LineKey, stage: int) -> float:
        """How much a line in state `key`, `stage` cards being down, beats its random fill."""
        if len(key[0]) >= SIDE or not 0 < stage < STAGES:
            return 0.0
        found = self.fine[stage].get(abstract(key))
        if found is None:
            found = self.back[stage].get(coarse(key), 0.0)
        return found * self.weight


@cache
def learned() -> Residuals:
    """The shipped table, read on first use (no residuals if the file is missing)."""
    try:
        text = resources.files("bots.cribbage_square").joinpath(DATA).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return Residuals.zero()
    return Residuals.from_json(json.loads(text))


class LearnedValues:
    """Line values for one decision: random-fill value from the unseen cards plus residual."""

    def __init__(self, base: LineValues, stage: int, table: Residuals) -> None:
        self.base = base
        self.stage = stage
        self.table = table
        self._values: dict[LineKey, float] = {}

    def value(self, key: LineKey) -> float:
        """The expected final points of a line under good play."""
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = (self.base.value(key)
                                         + self.table.residual(key, self.stage))
        return found
