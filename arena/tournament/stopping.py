"""Stopping a field early (`[schedule] stop = "confident"`): a run played in rounds until every
bot is told apart from its neighbours in the ranking, or until its game budget is spent.

A round is every game, variant and table on the next `round_deals` deals; the schedule of such a
run puts deals outermost, so round r is the task ids below the end of round r. After each round
the records of the finished rounds alone (a prefix of the schedule, whatever the workers did and
whatever a killed run left beyond it) are rated; the run stops once, in every pool, every bot is
told apart from the next at `confidence`, by the ratings table's own two-sided test: `P(> next)`
at least 1 - (1 - confidence) / 2 (0.975 at 95%), with the evidence clustered by deal. So the
stop depends only on the config: resuming, or any number of workers, stops at the same round.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.ratings.tables import Ratings, rate
from arena.tournament.planning.config import OnFault, Stop, TournamentConfig
from arena.tournament.planning.plan import schedule_of
from arena.tournament.planning.schedule import Schedule
from arena.tournament.playing.runner import Backend, ProgressHook
from arena.tournament.records.results import RunDirectory, read_numbers
from arena.tournament.records.run_log import note_in_log
from arena.tournament.run import RunReport, run_tournament
from arena.tournament.update.bring import run_schedule
from arena.tournament.update.identity import deals_of, like_deals, read_bots
from arena.tournament.update.reconcile import GameIdentities, RunPlan


class StopError(ArenaError):
    """A run that cannot stop early as configured: a budget smaller than one round."""


class StopReason(enum.Enum):
    """Why a run played in rounds stopped."""

    SEPARATED = "separated"
    BUDGET = "budget spent"
    SCHEDULE = "schedule played"


@dataclass(frozen=True)
class Neighbours:
    """Two bots next to each other in a pool's ranking, and how sure it is that `above` is."""

    game: str
    variant: str
    above: str
    below: str
    p_above: float


@dataclass(frozen=True)
class RoundState:
    """The test after a round: the games of the finished rounds, and the neighbours not yet
    told apart at the confidence asked for."""

    round: int
    rounds: int
    games: int
    confidence: float
    unseparated: tuple[Neighbours, ...]

    @property
    def separated(self) -> bool:
        """Whether every bot is told apart from its neighbours."""
        return not self.unseparated


@dataclass(frozen=True)
class StopReport:
    """How a run played in rounds ended: why, the last test, and what this run played."""

    reason: StopReason
    state: RoundState
    budget: int | None
    run: RunReport

    def describe(self) -> str:
        """Why the run stopped, in one line."""
        s = self.state
        at = f"after {s.games:,} games (round {s.round} of {s.rounds})"
        if self.reason is StopReason.SEPARATED:
            return (f"stopped {at}: every bot is told apart from the next at "
                    f"{s.confidence:.0%} (two-sided)")
        why = (f"the budget of {self.budget:,} games is spent" if self.reason is
               StopReason.BUDGET else "the whole schedule is played")
        return f"stopped {at}: {why}; {unseparated_text(s)}"


def unseparated_text(state: RoundState) -> str:
    """The neighbours not told apart, as text."""
    if state.separated:
        return f"every bot is told apart from the next at {state.confidence:.0%} (two-sided)"
    pairs = ", ".join(f"{n.game}/{n.variant} {n.above} > {n.below} (P {n.p_above:.3f})"
                      for n in state.unseparated)
    return (f"not told apart at {state.confidence:.0%} (two-sided: P(> next) of "
            f"{two_sided(state.confidence):.1%} needed): {pairs}")


def two_sided(confidence: float) -> float:
    """The P(> next) that tells two bots apart at `confidence`: the data choose which of them
    is on top, so each side of the test gets half of the error (0.975 at 95%)."""
    return 1 - (1 - confidence) / 2


def unseparated(ratings: Ratings, confidence: float) -> tuple[Neighbours, ...]:
    """Every pair of neighbours in every pool not told apart at `confidence` (two-sided: its
    P(> next) below `two_sided(confidence)`); every pair of a pool rated from fewer than two
    deals, where the luck of the deal cannot be measured."""
    return tuple(Neighbours(pool.game, pool.variant, row.bot, below.bot, row.p_above_next)
                 for pool in ratings.pools
                 for row, below in zip(pool.bots, pool.bots[1:], strict=False)
                 if row.p_above_next is not None
                 and (row.p_above_next < two_sided(confidence) or pool.deals < 2))


def rated_prefix(config: TournamentConfig, out: Path, end: int,
                 schedule: Schedule | None = None) -> Ratings:
    """The ratings of a run's games at the places below `end` of its schedule: those numbered
    below `end` in a run numbered by its schedule's places (never brought up to date), else
    those whose identities the schedule (`schedule`, as the run draws it) holds there."""
    run = RunDirectory(out)
    records = run.records()
    code = read_bots(out)
    if read_numbers(run) is None or code is None:
        chosen = (r for r in records if r["task"] < end)
    else:
        identities = GameIdentities(config, code)
        places = run_schedule(config, out) if schedule is None else schedule
        wanted = {identities.of(task) for task in places if task.task < end}
        chosen = (r for r in records if r.get("identity") in wanted)
    return rate(chosen, {g.game: g.trueskill for g in config.games},
                disqualify=config.limits.on_fault is OnFault.DISQUALIFY)


def rounds_plan(config: TournamentConfig, deals_like: Path | None = None) -> str:
    """What a run that stops early will play, in one line: its schedule, rounds and budget."""
    planned = like_deals(config, deals_of(deals_like)) if deals_like is not None else config
    schedule = schedule_of(planned)
    ends = schedule.rounds()
    stopping = config.stopping
    budget = (f", or at most {stopping.budget:,} games" if stopping.budget is not None
              and stopping.budget < len(schedule) else "")
    return (f"schedule: {len(schedule):,} games in {len(ends):,} round(s) of "
            f"{ends[0]:,}; stops once every bot is told apart from the next at "
            f"{stopping.confidence:.0%} (two-sided){budget}")


def run_until_confident(config: TournamentConfig, out: Path, workers: int = 1,
                        fresh: bool = False, on_progress: ProgressHook | None = None,
                        backend: Backend = Backend.LOCAL, address: str | None = None,
                        deals_like: Path | None = None, yes: bool = False,
                        on_round: Callable[[RoundState], None] | None = None,
                        on_plan: Callable[[RunPlan], None] | None = None) -> StopReport:
    """Play a `stop = "confident"` run round by round until its ranking is confident, its
    budget would be overrun by the next round, or its schedule ends; `on_round` hears every
    test, `on_plan` what the run keeps before its first round. Resumes like any run, to the
    same stop."""
    stopping = config.stopping
    if stopping.rule is not Stop.CONFIDENT:
        raise StopError(f"{config.path}: not a run that stops early ([schedule] stop)")
    planned = like_deals(config, deals_of(deals_like)) if deals_like is not None else config
    ends = run_schedule(planned, out, fresh).rounds()
    places: Schedule | None = None  # the schedule as the run draws it, once it is drawn
    budget = stopping.budget
    if budget is not None and ends[0] > budget:
        raise StopError(f"{config.path}: schedule.budget: {budget:,} games do not hold one round "
                        f"({ends[0]:,} games on {stopping.round_deals} deal(s)); raise the "
                        f"budget")
    before, played, repaired = -1, 0, 0
    state = RoundState(0, len(ends), 0, stopping.confidence, ())
    reason = StopReason.SCHEDULE
    report: RunReport | None = None
    for number, end in enumerate(ends, 1):
        report = run_tournament(config, out, workers, fresh, on_progress, backend, address,
                                deals_like, yes, until=end, on_plan=on_plan)
        fresh, on_plan = False, None
        before = report.before if before < 0 else before
        played += report.played
        repaired += report.repaired
        places = places or run_schedule(planned, out)
        state = RoundState(number, len(ends), end, stopping.confidence,
                           unseparated(rated_prefix(planned, out, end, places),
                                       stopping.confidence))
        if on_round is not None:
            on_round(state)
        if state.separated:
            reason = StopReason.SEPARATED
            break
        if number < len(ends) and budget is not None and ends[number] > budget:
            reason = StopReason.BUDGET
            break
    assert report is not None  # a schedule has at least one round
    stop = StopReport(reason, state, budget,
                      RunReport(out, report.total, before, played, repaired, report.retired,
                                report.plan))
    note_in_log(out, stop.describe())
    return stop
