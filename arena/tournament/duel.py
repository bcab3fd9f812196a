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
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.ratings.adjustment import cross_fitted, predictable
from arena.ratings.pools import record_luck
from arena.ratings.sprt import (
    Margin,
    SprtSettings,
    SprtState,
    Verdict,
    margin_estimate,
    margin_of,
    pair_cell,
    sprt,
    sprt_scores,
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
    in the game's units, and how many pairs' two games were mirror images of each other; each
    pair's score (the mean of its two games' results) and, where every game carries luck from
    one model, each pair's luck (the first bot's less the second's, both games added up), else
    why not where some game carries luck."""

    counts: tuple[int, int, int, int, int]
    margins: tuple[float, ...]
    mirrored: int
    scores: tuple[float, ...] = ()
    luck: tuple[float, ...] | None = None
    luck_model: str | None = None
    luck_note: str | None = None

    @property
    def all_mirrored(self) -> bool:
        """Whether every pair was a mirror image (and there was one)."""
        return 0 < len(self.margins) == self.mirrored

    def adjusted(self) -> bool:
        """Whether the test with the luck on is made on adjusted scores: there is luck, and
        the adjusted scores vary (pairs that all scored alike get the pentanomial test)."""
        if self.luck is None:
            return False
        values = predictable(self.scores, self.luck, CHUNK_PAIRS).values
        return bool(values) and max(values) - min(values) > 1e-12

    def test(self, settings: SprtSettings, lucky: bool = True) -> SprtState:
        """The test on these pairs: with `lucky` and luck to adjust for, the normal GSPRT on
        the pair scores adjusted for luck, each chunk's slope fixed from the chunks before it
        (`predictable`), so the test's error rates hold; else the pentanomial test."""
        if not lucky or self.luck is None:
            return sprt(self.counts, settings)
        adjusted = predictable(self.scores, self.luck, CHUNK_PAIRS)
        return sprt_scores(adjusted.values, self.counts, settings)

    def margin(self, lucky: bool = True) -> Margin:
        """The mean margin per deal pair with its interval: with `lucky` and luck to adjust
        for, each pair's margin less a cross-fitted multiple of its luck (its interval counting
        the slopes' error, as an edge's does)."""
        if not lucky or self.luck is None:
            return margin_estimate(self.margins)
        pairs = list(range(len(self.margins)))
        return margin_of(cross_fitted(pairs, self.margins, self.luck).mean())


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
    luck_model: str | None = None
    """The luck model the test's pair scores (and the margin) are adjusted with; None: raw."""
    luck_note: str | None = None
    """Where the records carry luck but the test is on raw scores, why (one line)."""

    def luck_text(self) -> str | None:
        """The line saying whether the test is adjusted for luck (None where the games carry
        none)."""
        if self.luck_model is not None:
            return (f"pair scores adjusted for luck ({self.luck_model}): each pair's score less "
                    f"a multiple of its luck fixed from the earlier pairs (docs/ratings.md, "
                    f"Luck)")
        return self.luck_note

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
    luck: dict[int, float | str | None] = {}
    models: dict[int, str | None] = {}
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
        found, models[task] = record_luck(record, len(seats))
        luck[task] = (sign * (found[a] - found[b]) if isinstance(found, tuple) else found)
    counts = [0] * 5
    for k in range(pairs):
        if 2 * k not in scores or 2 * k + 1 not in scores:
            raise DuelError(f"{path}: deal pair {k} is not recorded; run the duel again to "
                            f"finish it")
        counts[pair_cell(scores[2 * k], scores[2 * k + 1])] += 1
    five = (counts[0], counts[1], counts[2], counts[3], counts[4])
    model, note = _duel_luck(path, pairs, luck, models)
    pair_luck = (tuple(math.fsum(x for x in (luck[2 * k], luck[2 * k + 1])
                                 if isinstance(x, float)) for k in range(pairs))
                 if model is not None else None)
    return PairResults(five, tuple(margins[2 * k] + margins[2 * k + 1] for k in range(pairs)),
                       sum(seen[2 * k] == seen[2 * k + 1] for k in range(pairs)),
                       tuple((scores[2 * k] + scores[2 * k + 1]) / 2 for k in range(pairs)),
                       pair_luck, model, note)


def _duel_luck(path: Path, pairs: int, luck: dict[int, float | str | None],
               models: dict[int, str | None]) -> tuple[str | None, str | None]:
    """The one model every game's luck comes from, or None with why not (one line naming the
    game and the deal) where some game carries luck; (None, None) where none does."""
    if all(luck[t] is None and models[t] is None for t in range(2 * pairs)):
        return None, None
    where = f"{path}: deal pair"
    for task in range(2 * pairs):
        found = luck[task]
        if not isinstance(found, float):
            what = found or "it has no luck while other games of the duel have"
            return None, (f"{where} {task // 2} (task {task}) cannot be adjusted for luck: "
                          f"{what}; the test is on raw scores")
    named = sorted({str(m) for m in models.values()})
    if len(named) > 1:
        task = next(t for t in range(2 * pairs) if models[t] != models[0])
        return None, (f"{where} {task // 2} (task {task}): the duel's luck comes from two "
                      f"models, {models[0]} and {models[task]}; the test is on raw scores")
    return named[0], None


def run_duel(config: TournamentConfig, settings: SprtSettings, out: Path, workers: int = 1,
             fresh: bool = False, on_progress: ProgressHook | None = None,
             on_test: Callable[[SprtState], None] | None = None,
             backend: Backend = Backend.LOCAL, address: str | None = None,
             luck: bool = True) -> DuelReport:
    """Play a duel's deal pairs in chunks of CHUNK_PAIRS until the SPRT accepts a hypothesis or
    the schedule ends; `on_test` hears every test. Resumes like any run. With `luck`, where
    the games carry luck, the test is on pair scores adjusted for it (`PairResults.test`)."""
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
        state = results.test(settings, luck)
        if on_test is not None:
            on_test(state)
        if state.verdict is not Verdict.INCONCLUSIVE:
            break
    played = config.games[0]
    model = results.luck_model if luck and results.adjusted() else None
    note = results.luck_note
    if not luck and results.luck_model is not None:
        note = f"pair scores raw (--luck off); the games carry luck from {results.luck_model}"
    elif luck and results.luck_model is not None and model is None:
        note = (f"the games carry luck ({results.luck_model}), but every pair scored alike: "
                f"the pentanomial test")
    return DuelReport(out, state, results.margin(luck),
                      score_unit(played.game, played.variants[0].label), results.all_mirrored,
                      first, second, model, note)
