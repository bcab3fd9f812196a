"""Difficulty levels: for each game, which bundled bot (with which parameters) plays at easy,
medium, hard and expert, and how strong each measured (docs/play.md)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Variant, find_game
from arena.errors import ArenaError


class Level(enum.Enum):
    """How strong an opponent is asked for."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


def _levels(easy: str, medium: str, hard: str, expert: str) -> Mapping[Level, str]:
    return MappingProxyType({Level.EASY: easy, Level.MEDIUM: medium, Level.HARD: hard,
                             Level.EXPERT: expert})


LEVELS: Mapping[str, Mapping[Level, str]] = MappingProxyType({
    "concentration": _levels("forgetful:recall=0.4,capacity=4",
                             "forgetful:recall=0.7,capacity=10", "greedy", "optimal"),
    "paved-with-gold": _levels("prospector:recall=0.3,capacity=3",
                               "prospector:recall=0.7,capacity=8", "prospector", "paved-search"),
    "memorandum": _levels("goldfish:capacity=10", "goldfish:capacity=18", "elephant",
                          "chancer"),
    "animals": _levels("animals-simple:alertness=0.2,slip=0.05", "animals-simple",
                       "animals-sharp", "search"),
    "cuckoo": _levels("random", "cuckoo-simple", "cuckoo-sharp:learn=false", "cuckoo-sharp"),
    "dig": _levels("dig-simple", "dig-sharp:pressure=0", "dig-sharp", "dig-search"),
    "frogs-in-the-pond": _levels("random", "frogs-simple", "frogs-sharp", "frogs-search"),
    "old-mans-bundle": _levels("random", "bundle-simple", "bundle-sharp", "bundle-search"),
    "cribbage-square": _levels("random", "square-greedy", "square-search", "square-pimc"),
})
"""Game -> level -> the bot spec that plays at that level."""


def parse_level(text: str) -> Level:
    """A level from its name; ArenaError listing the levels."""
    try:
        return Level(text.strip().lower())
    except ValueError:
        known = ", ".join(level.value for level in Level)
        raise ArenaError(f"unknown level {text!r} (levels: {known})") from None


def level_spec(game: str, level: str | Level) -> str:
    """The bot spec playing `game` at `level`; ArenaError naming the levels or the games."""
    name = find_game(game).name
    chosen = level if isinstance(level, Level) else parse_level(level)
    table = LEVELS.get(name)
    if table is None:
        known = ", ".join(sorted(LEVELS))
        raise ArenaError(f"{name} has no levels yet (games with levels: {known})")
    return table[chosen]


def table_size(variant: Variant, given: int, seats: int | None = None) -> int:
    """How many seats a game with `given` named bots and a level has: `seats` if asked for,
    else the variant's fewest players, at least two (an opponent) and at least `given`."""
    allowed = variant.params.players_allowed()
    if seats is not None:
        if seats < given:
            raise ArenaError(f"--seats {seats} is fewer than the {given} bots given with -b")
        return seats
    return max(allowed.start, min(2, allowed.stop - 1), given)


def seat_bots(variant: Variant, bots: Sequence[str], level: str | None,
              seats: int | None = None) -> list[str]:
    """The bot specs of every seat: those given, then bots of `level` for the seats left.

    Without a level the given bots are the table. With one, the table has `table_size` seats;
    `arena play concentration -b human --level hard` seats the person and one `greedy`.
    """
    if level is None:
        if seats is not None and seats != len(bots):
            raise ArenaError("--seats needs --level to fill the seats not given with -b")
        return list(bots)
    spec = level_spec(variant.game.name, level)
    size = table_size(variant, len(bots), seats)
    return [*bots, *[spec] * (size - len(bots))]


@dataclass(frozen=True, slots=True)
class Strength:
    """How a level did against an opponent over a series: every seat rotation of each deal."""

    game: str
    level: Level
    opponent: str
    players: int
    games: int
    wins: float  # share of games the level's bot won (a win shared by k seats counts 1/k)
    score: float  # the level's mean score
    opponent_score: float  # the opponents' mean score (over every opponent seat)


def measure(game: str, level: str | Level, opponent: str, deals: int = 100, seed: int = 0,
            players: int | None = None) -> Strength:
    """Play the level's bot against `opponent` in every other seat, on `deals` deals from
    `seed`, each deal once per rotation of the seats (the default preset; two players where
    the game allows, else its fewest)."""
    from arena.loader import resolve_bot
    from arena.session import play_series

    chosen = level if isinstance(level, Level) else parse_level(level)
    variant = find_game(game).variant()
    allowed = variant.params.players_allowed()
    n = players or (2 if 2 in allowed else allowed.start)
    specs = [level_spec(game, chosen), *[opponent] * (n - 1)]
    bots = [resolve_bot(s, variant.game.name) for s in specs]
    games, wins, score, others = 0, 0.0, 0.0, 0.0
    for played in play_series(variant, bots, seed, deals, rotate=True):
        record, seat = played.record, played.entries.index(0)
        games += 1
        if record.ranks[seat] == 1:
            wins += 1 / record.ranks.count(1)
        score += record.scores[seat]
        others += (sum(record.scores) - record.scores[seat]) / (n - 1)
    return Strength(variant.game.name, chosen, opponent, n, games, wins / games, score / games,
                    others / games)
