"""The canonical text of a tournament config, fully resolved TOML in a fixed key order, and its
digest.

The standard library reads TOML but does not write it; this writes the few shapes a config uses.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import math
import re
from typing import Any

from arena.tournament.planning.config import Stop, Stopping, TournamentConfig
from arena.tournament.planning.schedule import Format

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

SEEDS_PER_LINE = 8


def canonical_toml(config: TournamentConfig) -> str:
    """The config as TOML in a fixed order, every default filled in and every seed listed."""
    lines = [
        "# Fully resolved tournament config (canonical form): seeds listed, defaults filled in.",
        f"name = {_toml(config.name)}",
        f"seating = {_toml(config.seating.value)}",
        "",
        "[deals]",
        f"source = {_toml(config.deals.source)}",
        "seeds = [",
    ]
    seeds = config.deals.seeds
    for start in range(0, len(seeds), SEEDS_PER_LINE):
        lines.append("    " + ", ".join(str(s) for s in seeds[start:start + SEEDS_PER_LINE]) + ",")
    lines += ["]", "", "[limits]"]
    limits = config.limits
    for f in dataclasses.fields(limits):
        if getattr(limits, f.name) is not None:
            lines.append(f"{f.name} = {_toml(getattr(limits, f.name))}")
    draw, stopping = config.schedule, config.stopping
    # a round robin played to its end is left out: older runs' digests
    if draw.format is not Format.ROUND_ROBIN or stopping != Stopping():
        lines += ["", "[schedule]", f"format = {_toml(draw.format.value)}"]
        if draw.tables_per_bot is not None:
            lines.append(f"tables_per_bot = {draw.tables_per_bot}")
        if draw.challengers:
            lines.append(f"challengers = [{', '.join(_toml(c) for c in draw.challengers)}]")
        if draw.fill is not None:
            lines.append(f"fill = {_toml(draw.fill)}")
        if stopping.rule is not Stop.NEVER:
            lines += [f"stop = {_toml(stopping.rule.value)}",
                      f"confidence = {_toml(stopping.confidence)}"]
            if stopping.budget is not None:
                lines.append(f"budget = {stopping.budget}")
            lines.append(f"round_deals = {stopping.round_deals}")
    for bot in config.bots:
        lines += ["", "[[bots]]", f"name = {_toml(bot.name)}", f"spec = {_toml(bot.spec)}",
                  f"isolation = {_toml(bot.isolation.value)}"]
    for game in config.games:
        lines += ["", "[[games]]", f"game = {_toml(game.game)}", f"players = {game.players}",
                  "", "[games.trueskill]"]
        for f in dataclasses.fields(game.trueskill):
            setting = getattr(game.trueskill, f.name)
            if setting is not None:
                lines.append(f"{f.name} = {_toml(setting)}")
        for variant in game.variants:
            lines += ["", "[[games.variants]]", f"name = {_toml(variant.label)}",
                      f"preset = {_toml(variant.preset)}"]
            if variant.overrides:
                params = ", ".join(f"{_toml_key(k)} = {_toml(v)}" for k, v in variant.overrides)
                lines.append(f"params = {{ {params} }}")
    return "\n".join(lines) + "\n"



def config_digest(config: TournamentConfig) -> str:
    """The SHA-256 of `canonical_toml(config)`, in hex: one run directory belongs to one digest."""
    return hashlib.sha256(canonical_toml(config).encode("utf-8")).hexdigest()

def _toml(value: Any) -> str:
    """A scalar as TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, enum.Enum):
        return _toml(value.value)
    raise TypeError(f"no TOML form for {type(value).__name__}")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml(key)

