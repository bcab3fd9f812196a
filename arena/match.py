"""Plays one game: a variant, a deal seed and seated bots in, a GameRecord out.

This is the one place that handles bot misbehaviour. A bot that raises, or returns something that
is not one of `obs.legal`, gets a recorded fault and forfeits: it is ranked last, makes no more
calls, and its seat is played out to the end by uniformly random legal moves so that the other
seats' game stays whole.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, Protocol

from arena.api import Action, Bot, Event, GameInfo, Observation, Result
from arena.engine import Logged, State, Variant, rank_scores
from arena.record import Fault, FaultKind, GameRecord


class Watcher(Protocol):
    """A spectator: told about the deal, then about the public events after every action."""

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """The game is dealt and about to start."""

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """These public events just happened."""


def deal_rng(seed: int) -> random.Random:
    """The rng of the deal (shuffle and every other chance in the rules) for a deal seed."""
    return random.Random(f"deal:{seed}")


def bot_rng(seed: int, seat: int) -> random.Random:
    """The bot's own rng for a deal seed and seat."""
    return random.Random(f"bot:{seed}:{seat}")


def play_game(variant: Variant, bots: Sequence[Bot], names: Sequence[str], seed: int,
              watcher: Watcher | None = None) -> GameRecord:
    """Play one game to its end and return its record; bots are fresh instances, one per seat."""
    players = len(bots)
    variant.check_players(players)
    started = time.perf_counter()
    state = variant.game.new_state(variant.params, players, deal_rng(seed))
    params = variant.params.as_dict()
    faults: list[Fault] = []
    autopilots: dict[int, random.Random] = {}

    def forfeit(seat: int, decision: int, kind: FaultKind, detail: str) -> None:
        faults.append(Fault(seat, decision, kind, detail))
        autopilots[seat] = random.Random(f"autopilot:{seed}:{seat}")

    for seat, bot in enumerate(bots):
        rng = bot_rng(seed, seat)
        info = GameInfo(variant.game.name, variant.label, params, seat, players, rng)
        try:
            bot.start(info)
        except (Exception, SystemExit) as exc:
            forfeit(seat, 0, FaultKind.EXCEPTION, f"start raised {_describe(exc)}")

    log = state.log
    if watcher is not None:
        watcher.dealt(state, variant.label, seed, names)
    cursors = [0] * players
    decisions = 0
    while seats := state.to_act():
        chosen: dict[int, Action] = {}
        for seat in seats:
            decisions += 1
            legal = state.legal(seat)
            pilot = autopilots.get(seat)
            if pilot is None:
                events = _events_for(log, cursors, seat)
                obs = Observation(seat, legal, events, state.view(seat))
                action, problem = _ask(bots[seat], obs, legal)
                if problem is not None:
                    forfeit(seat, decisions, *problem)
                    pilot = autopilots[seat]
            if pilot is not None:
                action = legal[pilot.randrange(len(legal))]
            chosen[seat] = action
        mark = len(log)
        if len(seats) == 1:
            state.apply(seats[0], chosen[seats[0]])
        else:
            state.apply_joint(chosen)
        if watcher is not None:
            watcher.happened(state, [e.event for e in log[mark:] if e.visible_to is None])

    outcome = state.outcome()
    forfeited = sorted(autopilots)
    ranks = rank_scores(outcome.scores, outcome.order, forfeited)
    for seat, bot in enumerate(bots):
        if seat in autopilots:
            continue
        result = Result(seat, outcome.scores, ranks, _events_for(log, cursors, seat), outcome.final)
        try:
            bot.end(result)
        except (Exception, SystemExit) as exc:
            detail = f"end raised {_describe(exc)}"
            faults.append(Fault(seat, decisions, FaultKind.EXCEPTION, detail))
    return GameRecord(
        game=variant.game.name, variant=variant.label, seed=seed, seats=tuple(names),
        scores=outcome.scores, ranks=ranks, turns=outcome.turns, faults=tuple(faults),
        final=outcome.final, duration=time.perf_counter() - started)


def _events_for(log: list[Logged], cursors: list[int], seat: int) -> tuple[Event, ...]:
    """The events `seat` may see that were logged since its last look; moves its cursor."""
    start = cursors[seat]
    cursors[seat] = len(log)
    return tuple(e.event for e in log[start:] if e.visible_to is None or seat in e.visible_to)


def _ask(bot: Bot, obs: Observation[Any], legal: tuple[Action, ...]
         ) -> tuple[Action, tuple[FaultKind, str] | None]:
    """The bot's action as the legal value it equals, or the fault it committed."""
    try:
        action = bot.act(obs)
    except (Exception, SystemExit) as exc:
        return None, (FaultKind.EXCEPTION, f"act raised {_describe(exc)}")
    try:
        return legal[legal.index(action)], None
    except Exception:
        shown = repr(action)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return None, (FaultKind.ILLEGAL, f"returned {shown}, not a legal action")


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
