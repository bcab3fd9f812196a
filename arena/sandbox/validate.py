"""`arena validate`: put a submitted bot through a battery, sandboxed and under limits: every
bundled bot of its game as the opponent, in every preset (or the ones asked for)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.api import Bot
from arena.engine import find_game
from arena.errors import ArenaError
from arena.loader import BotSpec, registered_bots, resolve_bot
from arena.record import Fault
from arena.sandbox.promises import promised_here
from arena.sandbox.sight import unseen_by
from arena.sandbox.stand_in import (
    DEFAULT_LIMITS,
    Limits,
    SandboxedBot,
    SandboxedSpec,
    probe,
    sandboxed,
)
from arena.session import play_series


@dataclass(frozen=True)
class Cell:
    """The candidate against one opponent in one variant: games, faults, thinking time."""

    opponent: str
    variant: str
    games: int
    faults: int
    decisions: int
    seconds: float

    @property
    def ms_per_decision(self) -> float:
        """The candidate's mean time per decision, in milliseconds (round trip included)."""
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Verdict:
    """The outcome of a validation: passed or not, what was found, and the table behind it."""

    passed: bool
    games: int
    lines: tuple[str, ...]
    cells: tuple[Cell, ...] = field(default=())


@dataclass
class _Timed:
    """The candidate's entry: its stand-ins, kept to read how long they thought."""

    entry: SandboxedSpec
    made: list[SandboxedBot] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The candidate's name."""
        return self.entry.name

    def make(self) -> Bot:
        """A stand-in for a fresh game, remembered."""
        bot = self.entry.make()
        assert isinstance(bot, SandboxedBot)
        self.made.append(bot)
        return bot


def validate_bot(spec: str, game: str, games: int = 2, limits: Limits = DEFAULT_LIMITS,
                 variants: Sequence[str] = (), quick: bool = False,
                 kept: Sequence[Path] = ()) -> Verdict:
    """Load the bot in a sandbox, then play `games` deals (every seat rotation) against every
    bundled bot of the game in every preset (or `variants`) under the limits; the first fault
    fails it. `quick`: the default preset only, one deal, against one bundled bot and random.
    `kept`: folders and files its games may not see (a league's other submissions)."""
    found = find_game(game)
    chosen = [found.variant(name) for name in variants] or (
        [found.variant()] if quick else [found.variant(name) for name in found.presets])
    # as for every command (`unseen_by`): its opponents are bundled, public, so nothing is hidden
    private = unseen_by(spec, [spec], kept)
    problem = probe(spec, found.name, limits, private)
    if problem is not None:
        return Verdict(False, 0, (f"FAIL: the bot does not load: {problem}",))
    opponents = _opponents(found.name)
    if quick:
        opponents, games = [*opponents[:1], opponents[-1]], 1
    candidate = _Timed(sandboxed(spec, found.name, limits, private=private))
    cells: list[Cell] = []
    played = 0
    failure: str | None = None
    try:
        for variant in chosen:
            allowed = variant.params.players_allowed()
            players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
            for opponent in opponents:
                candidate.made.clear()
                seats = [candidate, *[opponent] * (players - 1)]
                mine: list[Fault] = []
                count = 0
                for result in play_series(variant, seats, 1, games, rotate=True):
                    played += 1
                    count += 1
                    mine = [f for f in result.record.faults if result.entries[f.seat] == 0]
                    if mine:
                        fault = mine[0]
                        failure = (f"FAIL: game {played} (against {opponent.name}, {variant.label}"
                                   f", seed {result.record.seed}, seat {fault.seat}): "
                                   f"{fault.kind.value} at decision {fault.decision}: "
                                   f"{fault.detail}")
                        break
                cells.append(Cell(opponent.name, variant.label, count, len(mine),
                                  sum(b.decisions for b in candidate.made),
                                  sum(b.thinking for b in candidate.made)))
                if failure:
                    break
            if failure:
                break
    finally:
        candidate.entry.close()
    table = _table(cells)
    if failure:
        return Verdict(False, played, (failure, *table), tuple(cells))
    labels = chosen[0].label if len(chosen) == 1 else f"{len(chosen)} presets"
    return Verdict(True, played, (
        f"PASS: {played} sandboxed games of {found.name} ({labels}), no faults", *table,
        f"  sandbox: {promised_here(found.name)[0]}"), tuple(cells))


def _table(cells: Sequence[Cell]) -> list[str]:
    """Variants down, opponents across; each cell its games, faults and ms per decision."""
    if not cells:
        return []
    variants = list(dict.fromkeys(c.variant for c in cells))
    opponents = list(dict.fromkeys(c.opponent for c in cells))
    by = {(c.opponent, c.variant): c for c in cells}
    rows = [["variant", *opponents]]
    for variant in variants:
        rows.append([variant, *(_cell_text(by.get((o, variant))) for o in opponents)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  " + "  ".join(text.ljust(w) for text, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    return [lines[0], "  " + "  ".join("-" * w for w in widths), *lines[1:],
            "  (each cell: games, faults, mean ms per decision of the bot)"]


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return "-"
    return f"{cell.games} g, {cell.faults} f, {cell.ms_per_decision:.1f} ms"


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
    return [*found, resolve_bot("random", game)]
