"""The floor of the deal-clustered covariance: the model's variance, a floor that fades as the
deals measure more (issue 39: random's intervals too wide in really played Memorandum)."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

from arena.ratings.evidence import FLOOR_DEALS, faded_floor
from arena.ratings.pools import rating_pools
from arena.ratings.posterior import posterior
from arena.ratings.settings import TrueSkillSettings
from arena.ratings.tables import rate

SKILLS = {"a": 0.6, "b": 0.3, "c": 0.0, "d": -0.3}


def rotated_pool(deals: int, seed: int = 7) -> list[dict[str, Any]]:
    """Three seats, every table of four bots, each deal played once per rotation of the seats:
    a deal's seat luck is shared by its rotations and cancels out, so the deals' spread is below
    what the model, counting every game as independent, says (as in Memorandum's short pack)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for deal in range(deals):
        places = [rng.gauss(0, 2.0) for _ in range(3)]
        for table in itertools.combinations(sorted(SKILLS), 3):
            for turn in range(3):
                seats = table[turn:] + table[:turn]
                luck = random.Random(f"{seed}:{deal}:{seats}")
                perf = [SKILLS[b] + places[j] + luck.gauss(0, 0.3) for j, b in enumerate(seats)]
                ranks = [1 + sum(q > p for q in perf) for p in perf]
                out.append({"task": len(out), "game": "g", "variant": "v", "seed": deal,
                            "seats": list(seats), "scores": [round(p, 3) for p in perf],
                            "ranks": ranks})
    return out


def test_the_floor_fades_with_the_deals() -> None:
    """Pooled on the deals' degrees of freedom: all the model's with one deal, half of it at
    FLOOR_DEALS + 1 deals, and never above the model's nor below the deals' own."""
    assert faded_floor(1.0, 4.0, 1) == 4.0
    assert faded_floor(1.0, 4.0, FLOOR_DEALS + 1) == pytest.approx(2.5)
    assert faded_floor(5.0, 4.0, 30) == 4.0  # the deals' spread above the model's: no floor
    wide = [faded_floor(1.0, 4.0, g) for g in (2, 5, 10, 30, 100, 1000)]
    assert wide == sorted(wide, reverse=True) and 1.0 < wide[-1] < 1.1


def test_many_deals_measure_an_interval_narrower_than_the_model_s() -> None:
    """With 40 deals whose rotations take the seat's luck out, each bot's sigma follows the
    deals' spread, not the model's variance (the old hard floor kept every bot at the model's:
    really played Memorandum's short pack, A/A z spread of random 0.6-0.7, no move ever
    flagged); with 3 deals, the model's floor still holds."""
    settings = TrueSkillSettings()
    for deals, near_model in ((40, False), (3, True)):
        records = rotated_pool(deals)
        (pool,) = rating_pools(records)
        evidence = posterior(pool.matches, settings).evidence
        assert evidence is not None
        table = {row.bot: row.sigma for row in rate(records).pools[0].bots}
        for i, bot in enumerate(evidence.bots):
            robust, model = evidence.covariance[i, i], evidence.model[i, i]
            assert robust < model  # the format takes luck out: the case of the floor
            expected = math.sqrt(faded_floor(robust, model, deals))
            assert table[bot] == pytest.approx(expected)
            if near_model:
                assert table[bot] > 0.8 * math.sqrt(model)
            else:
                assert table[bot] < 0.8 * math.sqrt(model), (bot, table[bot], math.sqrt(model))
