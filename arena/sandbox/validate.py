"""`arena validate`: put a submitted bot through a battery, sandboxed and under limits: every
bundled bot of its game as the opponent, in every preset (or the ones asked for), at the table
sizes asked for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.api import Bot
from arena.engine import Variant, find_game
from arena.errors import ArenaError, BotSpecError
from arena.loader import BotSpec, registered_bots, resolve_bot
from arena.record import Fault
from arena.sandbox.entry import SandboxedSpec, sandboxed
from arena.sandbox.promises import confined_here, promised_here, promises_summary
from arena.sandbox.sight import unseen_by
from arena.sandbox.stand_in import DEFAULT_LIMITS, Limits, SandboxedBot
from arena.session import play_series


@dataclass(frozen=True)
class Cell:
    """The candidate against one opponent in one variant at one table size: games, faults,
    thinking time."""

    opponent: str
    variant: str
    games: int
    faults: int
    decisions: int
    seconds: float
    players: int = 2

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
                 kept: Sequence[Path] = (), players: Sequence[int] = ()) -> Verdict:
    """Load the bot in a sandbox, then play `games` deals (every seat rotation) against every
    bundled bot of the game in every preset (or `variants`) under the limits, at each table
    size of `players` a preset allows (none given: its fewest, at least 2); the first fault
    fails it. `quick`: the default preset, one deal, against one bundled bot and random, and the
    sandbox's promises without the doctor's attacks. `kept`: folders and files its games may
    not see (a league's other submissions). ArenaError if no preset seats a size asked for."""
    found = find_game(game)
    chosen = [found.variant(name) for name in variants] or (
        [found.variant()] if quick else [found.variant(name) for name in found.presets])
    sizes = _table_sizes(found.name, chosen, players)
    # as for every command (`unseen_by`): its opponents are bundled, public, so nothing is hidden
    private = unseen_by(spec, [spec], kept)
    try:  # checked by the host that then plays it (see `sandboxed`)
        candidate = _Timed(sandboxed(spec, found.name, limits, private=private))
    except BotSpecError as exc:
        return Verdict(False, 0, (f"FAIL: the bot does not load: {exc}",))
    opponents = _opponents(found.name)
    if quick:
        opponents, games = [*opponents[:1], opponents[-1]], 1
    cells: list[Cell] = []
    played = 0
    failure: str | None = None
    try:
        for variant, size in sizes:
            for opponent in opponents:
                candidate.made.clear()
                seats = [candidate, *[opponent] * (size - 1)]
                mine: list[Fault] = []
                count = 0
                for result in play_series(variant, seats, 1, games, rotate=True):
                    played += 1
                    count += 1
                    mine = [f for f in result.record.faults if result.entries[f.seat] == 0]
                    if mine:
                        fault = mine[0]
                        failure = (f"FAIL: game {played} (against {opponent.name}, {variant.label}"
                                   f", {size} players, seed {result.record.seed}, seat "
                                   f"{fault.seat}): {fault.kind.value}: {fault.detail}")
                        break
                cells.append(Cell(opponent.name, variant.label, count, len(mine),
                                  sum(b.decisions for b in candidate.made),
                                  sum(b.thinking for b in candidate.made), size))
                if failure:
                    break
            if failure:
                break
    finally:
        candidate.entry.close()
    table = _table(cells)
    if failure:
        return Verdict(False, played, (failure, *table), tuple(cells))
    sandbox = (promises_summary(confined_here(found.name))
               + "; the doctor's attacks not tried (--quick: `arena doctor` tries them)"
               if quick else promised_here(found.name)[0])
    return Verdict(True, played, (
        f"PASS: {played} sandboxed games of {found.name} ({_checked(sizes)}), no faults",
        *table, f"  sandbox: {sandbox}"), tuple(cells))


def _table_sizes(game: str, chosen: Sequence[Variant],
                 players: Sequence[int]) -> list[tuple[Variant, int]]:
    """Each preset with each table size to check: those of `players` it seats (none given: its
    fewest, at least 2); ArenaError for a size no preset seats."""
    sizes: list[tuple[Variant, int]] = []
    for variant in chosen:
        allowed = variant.params.players_allowed()
        if not players:
            sizes.append((variant, max(allowed.start, 2) if allowed.stop > 2 else allowed.start))
        sizes.extend((variant, n) for n in dict.fromkeys(players) if n in allowed)
    for n in dict.fromkeys(players):
        if not any(size == n for _, size in sizes):
            spans = ", ".join(f"{v.label} {_span(v.params.players_allowed())}" for v in chosen)
            raise ArenaError(f"--players {n}: no preset checked seats {n} players ({game}: "
                             f"{spans})")
    return sizes


def _span(allowed: range) -> str:
    lo, hi = allowed.start, allowed.stop - 1
    return f"{lo} players" if lo == hi else f"{lo}-{hi} players"


def _checked(sizes: Sequence[tuple[Variant, int]]) -> str:
    """Which presets and table sizes were checked, in a few words."""
    presets = list(dict.fromkeys(variant.label for variant, _ in sizes))
    counts = sorted(dict.fromkeys(size for _, size in sizes))
    named = ("preset " if len(presets) == 1 else "presets ") + ", ".join(presets)
    tables = " and ".join(str(n) for n in counts)
    return f"{named}; {tables} players"


def _table(cells: Sequence[Cell]) -> list[str]:
    """Variants down, opponents across; each cell its games, faults and ms per decision."""
    if not cells:
        return []
    sized = len({c.players for c in cells}) > 1  # rows name their table size, if several
    rows_of = list(dict.fromkeys((c.variant, c.players) for c in cells))
    opponents = list(dict.fromkeys(c.opponent for c in cells))
    by = {(c.opponent, c.variant, c.players): c for c in cells}
    rows = [["variant", *opponents]]
    for variant, size in rows_of:
        label = f"{variant} ({size}p)" if sized else variant
        rows.append([label, *(_cell_text(by.get((o, variant, size))) for o in opponents)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  " + "  ".join(text.ljust(w) for text, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    return [lines[0], "  " + "  ".join("-" * w for w in widths), *lines[1:],
            "  (each cell: games, faults, mean ms per decision of the bot"
            + ("; (Np): tables of N players)" if sized else ")")]


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return "-"
    return f"{cell.games} g, {cell.faults} f, {cell.ms_per_decision:.1f} ms"


NOT_OPPONENTS = frozenset({"search", "paved-search"})
"""Bundled bots that validation does not play against: the generic determinized search plays
every game with hidden cards by no game's own rules, and thinks up to a fraction of a second a
decision (it made one game's battery take minutes); `paved-search` plays as `assayer`, which
validation plays, but for a few claims, and thinks a thousand times longer. Each game's other
bots, search bots included, still play."""


def _opponents(game: str) -> list[BotSpec]:
    """The bundled bots that play `game` (random last), but `NOT_OPPONENTS`."""
    found = []
    for bot in registered_bots():
        if bot.name in NOT_OPPONENTS:
            continue
        try:
            spec = resolve_bot(bot.name, game)
        except ArenaError:
            continue
        if bot.distribution == "card-arena" and "*" not in spec.cls.games:
            found.append(spec)
    return [*found, resolve_bot("random", game)]
