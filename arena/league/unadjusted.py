"""A round's standings with the raw head-to-head edges (`--luck off`): the crosstables of the
pools whose edges are adjusted for luck recomputed from the pool's records without it.

A round keeps one crosstable a pool (adjusted where the records carry luck, docs/ratings.md,
Luck); the raw one is derived again from the records the round was rated from, which must still
be those (`rated_from`): a pool whose records have moved on since (a later round played more
games, or the arena was upgraded) cannot show that round's raw edges, and says so."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.league.folder import League, LeagueError, Pool
from arena.ratings.tables import Ratings
from arena.tournament.rating import run_ratings


def without_luck(league: League, document: dict[str, Any],
                 rated_from: Callable[[Path], str]) -> dict[str, Any]:
    """A copy of a round's document whose adjusted crosstables are recomputed raw from the
    pools' records (the ratings and evidence kept: TrueSkill takes no luck); LeagueError where
    a pool's records are no longer those the round was rated from (`rated_from`, the digest
    the round keeps, passed in by the rounds' module)."""

    raw = copy.deepcopy(document)
    for entry in raw["pools"]:
        kept = entry["ratings"]["pools"]
        if not any(p.get("luck_model") for p in kept):
            continue  # raw already
        pool = Pool(entry["game"], entry["variant"], int(entry["players"]))
        run = league.pool_dir(pool)
        if pool.id != entry["id"] or rated_from(run) != entry.get("rated_from"):
            raise LeagueError(
                f"round {document['round']}, pool {entry['id']}: its records (or the arena's "
                f"ratings code) changed since the round was rated, so its raw edges (--luck "
                f"off) cannot be recomputed; 'arena ratings {run} --luck off' shows the "
                f"pool's records now")
        fresh = Ratings(run_ratings(run, luck=False).pools).to_json()["pools"]
        if len(fresh) != len(kept):
            raise LeagueError(f"round {document['round']}, pool {entry['id']}: its records "
                              f"give other variants than the round kept")
        for old, new in zip(kept, fresh, strict=True):
            old.update(crosstable=new["crosstable"], luck_model=new["luck_model"],
                       luck_note=new["luck_note"])
    return raw
