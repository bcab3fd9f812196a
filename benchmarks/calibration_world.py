"""Synthetic game records for the calibration benchmark: the seatings the real schedule makes
(tables, deals, rotations or permutations, clones), with results from a skill model in which the
deal matters.

A game's seat j holding bot b has the performance

    skill[b] + deal_bot[d, b] + deal_seat[d, j] + noise

and seats are ranked by performance (rounded, so that close games draw). `deal_bot` is how well
the deal suits the bot (it is shared by every game of the deal, at every table and in every
seat order), `deal_seat` how well it suits the seat; the noise is drawn from the deal and the
seat order, so that the same deal in the same seat order is the same game, as with seeded bots.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.tournament.planning.config import TournamentConfig, load_config, parse_config
from arena.tournament.planning.plan import schedule_of


@dataclass(frozen=True)
class World:
    """The skill model: per bot its skill, and the spreads of the deal's effects and noise."""

    skills: dict[str, float]
    deal_bot: float = 0.5
    deal_seat: float = 0.5
    noise: float = 1.0
    grain: float = 0.25
    """Performances are rounded to this before ranking: close games draw."""


def shipped(config: Path, base: int, count: int | None = None) -> TournamentConfig:
    """A shipped config re-dealt: only its deals changed (`count` deals from seed `base`)."""
    text = config.read_text()
    deals = count if count is not None else len(load_config(config, check_bots=False).deals)
    lines, out, skipping = text.splitlines(), [], False
    for line in lines:
        if line.strip() == "[deals]":
            out += ["[deals]", f"count = {deals}", f"base = {base}"]
            skipping = True
            continue
        if skipping and line.startswith("["):
            skipping = False
        if not skipping:
            out.append(line)
    text = "\n".join(out) + "\n"
    with tempfile.TemporaryDirectory() as scratch:  # one file per call: runs may go in parallel
        path = Path(scratch) / f"{config.stem}.toml"
        path.write_text(text)
        return parse_config(text, path, check_bots=False)


def records(config: TournamentConfig, world: World, salt: int = 0) -> Iterator[dict[str, Any]]:
    """The records of `config`'s schedule, played in `world`; `salt` picks another draw of the
    deals' effects (a re-deal)."""
    for task in schedule_of(config):
        yield game(task.task, task.game, task.variant, task.seats, task.seed, world, salt)


def game(task: int, name: str, variant: str, seats: Sequence[str], seed: int, world: World,
         salt: int = 0) -> dict[str, Any]:
    """One game record of the world."""
    deal = random.Random(f"{salt}:{name}:{variant}:{seed}")
    suits = {b: deal.gauss(0, world.deal_bot) for b in sorted(world.skills)}
    places = [deal.gauss(0, world.deal_seat) for _ in seats]
    luck = random.Random(f"{salt}:{name}:{variant}:{seed}:{','.join(seats)}")
    perf = [world.skills[b] + suits[b] + places[j] + luck.gauss(0, world.noise)
            for j, b in enumerate(seats)]
    scores = [round(p / world.grain) for p in perf]
    if len(seats) == 1:
        # solitaire: the score is what ranks the bots of the deal (more is better here)
        return {"task": task, "game": name, "variant": variant, "seed": seed,
                "seats": list(seats), "scores": scores, "ranks": [1], "order": "higher",
                "faults": []}
    ranks = [1 + sum(q > s for q in scores) for s in scores]
    return {"task": task, "game": name, "variant": variant, "seed": seed, "seats": list(seats),
            "scores": scores, "ranks": ranks, "faults": []}
