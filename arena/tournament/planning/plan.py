"""A run's plan: the schedule a config describes, and the size a run may have unasked."""

from __future__ import annotations

from arena.errors import ArenaError
from arena.tournament.planning.config import Stop, TournamentConfig
from arena.tournament.planning.schedule import GamePlan, Schedule, VariantPlan

MAX_GAMES = 10_000_000
"""Schedules longer than this are refused unless asked for (`yes`): days of play, likely a
mistake, where a sampled schedule would do."""


class ScheduleTooLargeError(ArenaError):
    """A schedule of more than MAX_GAMES games, not confirmed."""


def schedule_of(config: TournamentConfig,
                drawn: dict[tuple[str, int], list[tuple[str, ...]]] | None = None) -> Schedule:
    """The schedule a config describes (with `drawn`, these tables where given)."""
    plans = [GamePlan(g.game, g.players,
                      tuple(VariantPlan(v.label, v.preset, tuple(v.overrides)) for v in g.variants))
             for g in config.games]
    rounds = config.stopping.round_deals if config.stopping.rule is Stop.CONFIDENT else None
    return Schedule(plans, [b.name for b in config.bots], config.deals.seeds, config.seating,
                    config.schedule, rounds, drawn)


def planned(config: TournamentConfig, yes: bool = False) -> Schedule:
    """The schedule a config describes, refused if longer than MAX_GAMES games (or than its
    stopping budget) unless `yes`."""
    schedule = schedule_of(config)
    total = len(schedule)
    budget = config.stopping.budget if config.stopping.rule is Stop.CONFIDENT else None
    if min(total, budget or total) > MAX_GAMES and not yes:
        raise ScheduleTooLargeError(
            f"{config.path}: the schedule is {total:,} games, more than {MAX_GAMES:,}; sample "
            f"it ([schedule] format = \"sampled\", tables_per_bot = N: docs/config.md) or "
            f"pass --yes to play it all")
    return schedule
