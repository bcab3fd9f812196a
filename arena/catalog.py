"""Rows describing what is installed: games with their presets, and registered bots."""

from __future__ import annotations

import dataclasses
import textwrap

from arena.engine import all_games, find_game
from arena.errors import ArenaError
from arena.loader import registered_bots


def _players(allowed: range) -> str:
    lo, hi = allowed.start, allowed.stop - 1
    return str(lo) if lo == hi else f"{lo}-{hi}"


def game_rows() -> list[list[str]]:
    """One row per game: name, player counts over all presets, preset names."""
    rows = []
    for game in all_games():
        ranges = [p.players_allowed() for p in game.presets.values()]
        span = range(min(r.start for r in ranges), max(r.stop for r in ranges))
        rows.append([game.name, _players(span), _wrap(", ".join(game.presets), 56)])
    return rows


def preset_rows(name: str) -> list[list[str]]:
    """One row per preset of a game: name, players, parameters that differ from the default."""
    game = find_game(name)
    default = game.presets[game.default_preset]
    rows = []
    for preset, params in game.presets.items():
        changed = [f"{f.name.replace('_', '-')}={_text(getattr(params, f.name))}"
                   for f in dataclasses.fields(params)
                   if getattr(params, f.name) != getattr(default, f.name)]
        rows.append([preset, _players(params.players_allowed()), " ".join(changed) or "-"])
    return rows


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False))


def _text(value: object) -> str:
    value = getattr(value, "value", value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def bot_rows() -> list[list[str]]:
    """One row per registered bot: name, games it plays, distribution and import target."""
    rows = []
    for bot in registered_bots():
        try:
            games = ", ".join(getattr(bot.load(), "games", ("*",)))
        except ArenaError as exc:
            games = f"(cannot load: {exc})"
        rows.append([bot.name, "any" if games == "*" else _wrap(games, 40),
                     f"{bot.distribution} ({bot.target})"])
    return rows
