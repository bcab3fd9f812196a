"""`arena validate`: put a submitted bot through a short battery, sandboxed and under limits."""

from __future__ import annotations

from dataclasses import dataclass

from arena.engine import find_game
from arena.errors import ArenaError
from arena.loader import BotSpec, registered_bots, resolve_bot
from arena.sandbox import landlock
from arena.sandbox.stand_in import Limits, probe, sandboxed
from arena.session import SeriesTally, play_series

DEFAULT_LIMITS = Limits(move_seconds=1.0, game_seconds=60.0, overage_seconds=2.0, memory_mb=512)


@dataclass(frozen=True)
class Verdict:
    """The outcome of a validation: passed or not, and what was found."""

    passed: bool
    games: int
    lines: tuple[str, ...]


def validate_bot(spec: str, game: str, games: int = 6, limits: Limits = DEFAULT_LIMITS,
                 variant: str | None = None) -> Verdict:
    """Load the bot in a sandbox, then play `games` deals (every seat rotation) against bundled
    bots of the game under the limits; the first fault found fails it."""
    chosen = find_game(game).variant(variant)
    problem = probe(spec, chosen.game.name, limits)
    if problem is not None:
        return Verdict(False, 0, (f"FAIL: the bot does not load: {problem}",))
    candidate = sandboxed(spec, chosen.game.name, limits)
    allowed = chosen.params.players_allowed()
    players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
    lines = []
    played = 0
    try:
        for opponent in _opponents(chosen.game.name):
            seats = [candidate, *[opponent] * (players - 1)]
            tally = SeriesTally([s.name for s in seats])
            for result in play_series(chosen, seats, 1, games, rotate=True):
                played += 1
                tally.add(result)
                mine = [f for f in result.record.faults if result.entries[f.seat] == 0]
                if mine:
                    fault = mine[0]
                    return Verdict(False, played, (
                        f"FAIL: game {played} (against {opponent.name}, seed "
                        f"{result.record.seed}, seat {fault.seat}): {fault.kind.value} at "
                        f"decision {fault.decision}: {fault.detail}",))
            row = tally.summary()[0]
            lines.append(f"  against {opponent.name}: {tally.games} games, mean score "
                         f"{row.mean_score:.2f} ± {row.score_ci95:.2f}, mean rank "
                         f"{row.mean_rank:.2f}")
    finally:
        candidate.close()
    return Verdict(True, played, (
        f"PASS: {played} sandboxed games of {chosen.game.name} ({chosen.label}), no faults",
        *lines, f"  sandbox: {landlock.coverage()}"))


def _opponents(game: str) -> list[BotSpec]:
    """The bundled bots that play `game` (random last)."""
    found = []
    for bot in registered_bots():
        try:
            spec = resolve_bot(bot.name, game)
        except ArenaError:
            continue
        if bot.distribution == "card-arena" and "*" not in spec.cls.games:
            found.append(spec)
    return [*found[:2], resolve_bot("random", game)]
