"""Sequential duels (`arena duel`): two bots on deal pairs until an SPRT decides.

A duel is a tournament run of a generated config: the two bots at one game and variant,
`max_games / 2` deals counted from a base seed, every deal played in both seat orders. At more
than two seats the config's schedule is a duel (`format = "duel"`): the other seats are held by
one fill bot, and the two bots swap two seats drawn for each deal. Task ids 2k and 2k+1 are deal
k's pair; a game scores 1 for the first bot when it placed above the second, 1/2 when level.
Besides the test, a duel measures the first bot's margin over the second in the game's own
units (its score less the other's, over both games of a pair), and notices when every pair's
two games are mirror images of each other (the bots are copies that replay each other's games).
The schedule is played in chunks of CHUNK_PAIRS pairs, in order; after each chunk the test is
made on every pair up to the chunk's end (all finished, whatever the workers' order), so the
verdict depends only on the config, the settings and the chunk size: a resumed or re-run duel
reaches the same verdict at the same pair.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.ratings.sprt import (
    Margin,
    SprtSettings,
    SprtState,
    Verdict,
    margin_estimate,
    pair_cell,
    sprt,
    summary,
)
from arena.tournament.planning.config import ConfigError, TournamentConfig, overridden, parse_config
from arena.tournament.playing.runner import Backend, ProgressHook
from arena.tournament.records.results import RunDirectory
from arena.tournament.run import run_tournament

CHUNK_PAIRS = 32
"""Deal pairs played between two looks at the test. Fixed, since the verdict depends on it."""

WHERE = "arena duel"
_KEYS = {"bots[0].spec": "bot A", "bots[1].spec": "bot B", "bots[2].spec": "--fill",
         "games[0].game": "--game", "games[0].players": "--players",
         "games[0].variants[0]": "--variant", "deals.base": "--seed", "deals.count": "--max-games"}


class DuelError(ArenaError):
    """A duel that cannot be set up: bad bots, game, variant or sizes."""


SCORE_UNITS = {"concentration": "sets", "memorandum": "points", "cuckoo": "deals survived",
               "dig": "cards", "old-mans-bundle": "cards", "paved-with-gold": "points",
               "frogs-in-the-pond": "card points", "animals": "cards",
               "cribbage-square": "points"}
"""What each game's scores count, for a duel's margin; 'points' for a game not listed."""


def score_unit(game: str, variant: str = "standard") -> str:
    """The unit of a game's scores, as a duel's margin names it."""
    if game == "concentration" and "chips" in variant:
        return "chips"
    return SCORE_UNITS.get(game, "points")


@dataclass(frozen=True)
class PairResults:
    """A duel's first pairs from the first bot's side: pentanomial counts, each pair's margin
    in the game's units, and how many pairs' two games were mirror images of each other."""

    counts: tuple[int, int, int, int, int]
    margins: tuple[float, ...]
    mirrored: int

    @property
    def all_mirrored(self) -> bool:
        """Whether every pair was a mirror image (and there was one)."""
        return 0 < len(self.margins) == self.mirrored


NO_MARGIN = Margin(0, 0.0, float("-inf"), float("inf"))
"""The margin of a duel that has no pair yet."""


@dataclass(frozen=True)
class DuelReport:
    """How a duel ended: the last test made, the run directory, the margin per deal pair in the
    game's units, whether every pair's games were mirror images, and the duellists' names."""

    path: Path
    state: SprtState
    margin: Margin = NO_MARGIN
    unit: str = "points"
    mirrored: bool = False
    first: str = "A"
    second: str = "B"

    def summary(self, settings: SprtSettings) -> str:
        """The outcome in one sentence a student reads right."""
        return summary(self.state, self.first, self.second, settings, self.margin, self.unit,
                       self.mirrored)


def duel_name(a: str, b: str) -> str:
    """The run name of a duel: duel-A-vs-B, with what cannot name a directory replaced by '_'."""
    return re.sub(r"[^\w.-]", "_", f"duel-{a}-vs-{b}")


def duel_config(a: str, b: str, game: str, variant: str = "standard", max_games: int = 10_000,
                seed: int = 1, isolation: str | None = None, players: int = 2,
                fill: str | None = None, kept: Sequence[Path] = ()) -> TournamentConfig:
    """The tournament config of a duel of bot specs `a` and `b` (the second named `B-2` if the
    specs are equal), at `players` seats, the others held by bot spec `fill` (named `F-fill`
    if it is one of the two); its bots are checked in sandboxes that keep `kept` (run
    directories) out of view. DuelError names the option at fault."""
    if max_games < 2:
        raise DuelError(f"--max-games: a duel plays whole deal pairs, so at least 2, "
                        f"not {max_games}")
    if players < 2:
        raise DuelError(f"--players: a duel needs two seats or more, not {players}")
    if (players > 2) != (fill is not None):
        raise DuelError(f"--fill: a duel at {players} seats needs the bot of the other seats "
                        f"(--fill BOT)" if fill is None else
                        "--fill: goes with --players 3 or more: at two seats there is no "
                        "other seat to fill")
    second = f"{b}-2" if b == a else b
    lines = [f"name = {json.dumps(duel_name(a, b))}"]
    filler = None if fill is None else f"{fill}-fill" if fill in (a, second) else fill
    if filler is not None:
        lines += ["[schedule]", 'format = "duel"', f"fill = {json.dumps(filler)}"]
    lines += [
        "[deals]", f"count = {max_games // 2}", f"base = {seed}",
        "[[bots]]", f"spec = {json.dumps(a)}", f"name = {json.dumps(a)}",
        "[[bots]]", f"spec = {json.dumps(b)}", f"name = {json.dumps(second)}"]
    if filler is not None:
        lines += ["[[bots]]", f"spec = {json.dumps(fill)}", f"name = {json.dumps(filler)}"]
    lines += ["[[games]]", f"game = {json.dumps(game)}", f"players = {players}",
              f"variants = [{json.dumps(variant)}]", ""]
    text = "\n".join(lines)
    try:
        config = parse_config(text, Path(WHERE), kept=kept)
    except ConfigError as exc:
        message = str(exc).removeprefix(f"{WHERE}: ")
        key, _, rest = message.partition(": ")
        if key not in _KEYS:
            raise DuelError(message) from None
        hint = (" (--players sets the seats; above two, --fill BOT fills the others)"
                if key == "games[0].players" else "")
        raise DuelError(f"{_KEYS[key]}: {rest}{hint}") from None
    return overridden(config, isolation)


def pair_counts(path: Path, pairs: int, first: str, second: str) -> tuple[int, ...]:
    """Pentanomial counts (from `first`'s side) of the duel's first `pairs` deal pairs, which
    must all be recorded."""
    return pair_results(path, pairs, first, second).counts


def pair_results(path: Path, pairs: int, first: str, second: str) -> PairResults:
    """The counts, margins and mirror images of the duel's first `pairs` deal pairs (from
    `first`'s side), which must all be recorded. A game's margin is the first bot's score less
    the second's (turned round where the record says lower scores are better); a pair is a
    mirror image when its two games gave every seat the same score, place, turns, faults and
    final state (the record's `final`): each bot did from each seat what the other did."""
    scores: dict[int, float] = {}
    margins: dict[int, float] = {}
    seen: dict[int, tuple[str, ...]] = {}
    for record in RunDirectory(path).records():
        task = record["task"]
        if task >= 2 * pairs:
            continue
        seats, ranks = record["seats"], record["ranks"]
        a, b = seats.index(first), seats.index(second)
        mine, theirs = ranks[a], ranks[b]
        scores[task] = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        sign = -1.0 if record.get("order") == "lower" else 1.0
        margins[task] = sign * (float(record["scores"][a]) - float(record["scores"][b]))
        seen[task] = tuple(json.dumps(record.get(key), sort_keys=True)
                           for key in ("scores", "ranks", "turns", "faults", "final"))
    counts = [0] * 5
    for k in range(pairs):
        if 2 * k not in scores or 2 * k + 1 not in scores:
            raise DuelError(f"{path}: deal pair {k} is not recorded; run the duel again to "
                            f"finish it")
        counts[pair_cell(scores[2 * k], scores[2 * k + 1])] += 1
    five = (counts[0], counts[1], counts[2], counts[3], counts[4])
    return PairResults(five, tuple(margins[2 * k] + margins[2 * k + 1] for k in range(pairs)),
                       sum(seen[2 * k] == seen[2 * k + 1] for k in range(pairs)))


def run_duel(config: TournamentConfig, settings: SprtSettings, out: Path, workers: int = 1,
             fresh: bool = False, on_progress: ProgressHook | None = None,
             on_test: Callable[[SprtState], None] | None = None,
             backend: Backend = Backend.LOCAL, address: str | None = None) -> DuelReport:
    """Play a duel's deal pairs in chunks of CHUNK_PAIRS until the SPRT accepts a hypothesis or
    the schedule ends; `on_test` hears every test. Resumes like any run."""
    settings.validate()
    first, second = (b.name for b in config.bots if b.name != config.schedule.fill)
    total = len(config.deals)
    done = 0
    state = sprt((0, 0, 0, 0, 0), settings)
    results = PairResults((0, 0, 0, 0, 0), (), 0)
    while done < total:
        done = min(done + CHUNK_PAIRS, total)
        run_tournament(config, out, workers, fresh, on_progress, backend, address,
                       until=2 * done)
        fresh = False
        results = pair_results(out, done, first, second)
        state = sprt(results.counts, settings)
        if on_test is not None:
            on_test(state)
        if state.verdict is not Verdict.INCONCLUSIVE:
            break
    played = config.games[0]
    return DuelReport(out, state, margin_estimate(results.margins),
                      score_unit(played.game, played.variants[0].label), results.all_mirrored,
                      first, second)
