"""Plays one game: a variant, a deal seed and seated bots in, a GameRecord out.

This is the one place that handles bot misbehaviour. A bot that raises, or returns something that
is not one of `obs.legal`, gets a recorded fault and forfeits: it is ranked last, makes no more
calls, and its seat is played out to the end by uniformly random legal moves so that the other
seats' game stays whole.

It also adds up each seat's luck where the game has a luck model (`arena/luck/`), here in the
arena's own process: the record carries it beside the raw scores.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from arena.api import Action, Bot, Event, GameInfo, Observation, Result
from arena.cards import Card
from arena.engine import State, Variant, legal_action, rank_scores
from arena.frozen import maker
from arena.luck.tally import LuckTally
from arena.record import BotFault, Fault, FaultKind, GameRecord, exception_detail
from arena.text import escape, escape_lines


class Watcher(Protocol):
    """A spectator: told about the deal, then about the public events after every action."""

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """The game is dealt and about to start."""

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """These public events just happened."""


DECIDED = "decided"
"""A watcher may also have a method of this name, `decided(seat, action)`: told each seat's
action (its bot's, or its autopilot's after a fault) before the state applies it. Only the
replay page's recorder listens (to show each decision's choice); spectators do not."""


@dataclass(frozen=True, slots=True)
class Table:
    """Where a bot sits: the task of a run (None outside one), the deal seed, its seat and the
    names of every seat."""

    task: int | None
    deal: int
    seat: int
    names: tuple[str, ...]

    def header(self) -> str:
        """One line naming this game for a bot's log: task, deal, seat and opponents."""
        others = [name for seat, name in enumerate(self.names) if seat != self.seat]
        against = ", ".join(others) if others else "nobody (solitaire)"
        task = f"task {self.task}, " if self.task is not None else ""
        return f"{task}deal {self.deal}, seat {self.seat}, against {against}"


class StandInBot(Bot):
    """A bot that stands in for one played elsewhere (the sandbox's `SandboxedBot`): told where
    it sits before it starts, and asked what its bot really answered when the answer that came
    back is not legal (a plain form may hide a value of another type: a card comes back as
    "3D")."""

    def seated(self, table: Table) -> None:
        """This game's table, before `start`."""

    def answered(self, plain: Any) -> str:
        """What the bot answered, as `described` tells it, for an answer that was not legal."""
        return described(plain)

    def output_note(self) -> str:
        """Where this game's output is kept, for a fault's detail (empty: nowhere to say)."""
        return ""


_observation = maker(Observation)
bot_log = logging.getLogger("arena.bots")
"""Where the tracebacks of in-process bots' exceptions go (the fault records their place)."""


def deal_rng(seed: int, key: str = "") -> random.Random:
    """The rng of the deal (shuffle and every other chance in the rules) for a deal seed, and
    the run's secret key, if it has one.

    A tournament's deal seeds are few and often public (counted from a base, or a published list),
    and the dealing code is public: without a key, a bot could work out which seed it is playing
    (trying seeds until one gives its own rng, or the cards it has seen) and deal the cards again.
    A tournament with sandboxed bots therefore mixes a key of its own, which no sandboxed bot can
    read, into every deal and every bot's rng (see `RunDirectory.key`), through a keyed hash: a
    Mersenne Twister's state gives away what it was seeded with.
    """
    if not key:
        return random.Random(f"deal:{seed}")
    return random.Random(_keyed(key, f"deal:{seed}"))


class BotRandom(random.Random):
    """A bot's own rng: a `random.Random` that keeps what it was seeded with, so that a
    sandbox can send a bot its rng as that seed (a few bytes) rather than as its state."""

    def __init__(self, seed: str | bytes) -> None:
        super().__init__(seed)
        self.seed_material = seed

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as what it is now: the state, not the seed (it may have been used since)
        return _bot_random_from_state, (self.seed_material, self.getstate())


def _bot_random_from_state(seed: str | bytes, state: tuple[Any, ...]) -> BotRandom:
    rng = BotRandom(seed)
    rng.setstate(state)
    return rng


def bot_rng(seed: int, seat: int, key: str = "") -> BotRandom:
    """The bot's own rng for a deal seed and seat (and the run's key, see `deal_rng`).

    With a key, the rng is seeded with a keyed hash of the seed and seat, never with the key
    itself: a Mersenne Twister's first state gives away what it was seeded with (the seeding can
    be run backwards), and a bot has its rng's state.
    """
    if not key:
        return BotRandom(f"bot:{seed}:{seat}")
    return BotRandom(_keyed(key, f"bot:{seed}:{seat}"))


def _keyed(key: str, text: str) -> bytes:
    """A seed for `text` under the run's key that gives away neither (HMAC-SHA256)."""
    import hmac  # here: a sandboxed bot's host imports this module, and needs no OpenSSL

    return hmac.digest(key.encode(), text.encode(), "sha256")


def play_game(variant: Variant, bots: Sequence[Bot], names: Sequence[str], seed: int,
              watcher: Watcher | None = None, key: str = "",
              task: int | None = None, luck: bool = True) -> GameRecord:
    """Play one game to its end and return its record; bots are fresh instances, one per seat.
    The deal and the bots' rngs come from the seed (and `key`, see `deal_rng`); `task` is the
    game's task in a run, which stand-ins are told (see `StandInBot.seated`). With `luck` (and a
    luck model of the game) the record carries each seat's luck.

    Every bot's `close()` is called at the end, however the game ended.
    """
    try:
        return _play(variant, bots, names, seed, watcher, key, task, luck)
    finally:
        for bot in bots:
            with contextlib.suppress(Exception):
                bot.close()


def _play(variant: Variant, bots: Sequence[Bot], names: Sequence[str], seed: int,
          watcher: Watcher | None, key: str, task: int | None, luck: bool) -> GameRecord:
    players = len(bots)
    variant.check_players(players)
    started = time.perf_counter()
    state = variant.game.new_state(variant.params, players, deal_rng(seed, key))
    tally = LuckTally.of(variant, players, seed) if luck else None
    if tally is not None:
        tally.dealt(state)
    params = variant.params_view
    faults: list[Fault] = []
    autopilots: dict[int, random.Random] = {}

    own = [0] * players  # each seat's decisions so far (a fault names its own, and the game's)

    def forfeit(seat: int, decision: int, kind: FaultKind, detail: str,
                during: bool = False) -> None:
        if during:  # in a decision: the bot's own count first, the game's beside it
            detail = f"its decision {own[seat]} (the game's {decision}): {detail}"
        bot = bots[seat]
        if isinstance(bot, StandInBot):
            with contextlib.suppress(Exception):
                detail += bot.output_note()
        # what a bot says is escaped before the record stores it or anything shows it
        faults.append(Fault(seat, decision, kind, escape(detail)))
        autopilots[seat] = random.Random(f"autopilot:{seed}:{seat}")

    table_names = tuple(names)
    for seat, bot in enumerate(bots):
        if isinstance(bot, StandInBot):
            bot.seated(Table(task, seed, seat, table_names))
        rng = bot_rng(seed, seat, key)
        info = GameInfo(variant.game.name, variant.label, params, seat, players, rng)
        try:
            bot.start(info)
        except (Exception, SystemExit) as exc:
            forfeit(seat, 0, *_fault_of(exc, "start", bot, seat, names[seat]))

    log = state.log
    if watcher is not None:
        watcher.dealt(state, variant.label, seed, names)
    cursors = [0] * players
    decisions = 0
    times: list[list[float]] = [[] for _ in range(players)]  # each bot decision's seconds
    clock = time.perf_counter
    legal_for, view_for = state.legal, state.view

    def events_for(seat: int) -> tuple[Event, ...]:
        """What `seat` may see of the events since its last look; moves its cursor on."""
        start = cursors[seat]
        end = cursors[seat] = len(log)
        return state.seen_by(seat, start, end) if start != end else ()

    def decide(seat: int) -> Action:
        nonlocal decisions
        decisions += 1
        legal = legal_for(seat)
        pilot = autopilots.get(seat) if autopilots else None
        if pilot is None:
            own[seat] += 1
            obs = _observation(seat, legal, events_for(seat), view_for(seat))
            began = clock()
            try:
                action = bots[seat].act(obs)
            except (Exception, SystemExit) as exc:
                times[seat].append(clock() - began)
                forfeit(seat, decisions, *_fault_of(exc, "act", bots[seat], seat, names[seat]),
                        during=True)
            else:
                times[seat].append(clock() - began)
                try:
                    return legal[legal.index(action)]  # the legal value itself, not a look-alike
                except Exception:
                    found = legal_action(legal, action)  # or the action its plain form names
                    if found is not None:
                        return found
                    forfeit(seat, decisions, FaultKind.ILLEGAL,
                            _not_legal(action, bots[seat], legal), during=True)
            pilot = autopilots[seat]
        return legal[pilot.randrange(len(legal))]

    decided = getattr(watcher, DECIDED, None)
    while seats := state.to_act():
        if len(seats) == 1:
            action = decide(seats[0])
            if decided is not None:
                decided(seats[0], action)
            mark = len(log)
            if tally is not None:
                tally.before(state, seats[0], action)
            state.apply(seats[0], action)
        else:
            chosen = {seat: decide(seat) for seat in seats}
            if decided is not None:
                for seat, action in chosen.items():
                    decided(seat, action)
            mark = len(log)
            if tally is not None:
                tally.before_joint(state, chosen)
            state.apply_joint(chosen)
        if tally is not None:
            tally.after(state)
        if watcher is not None:
            watcher.happened(state, [e for i, e in enumerate(log[mark:], mark)
                                     if i not in state.private])

    outcome = state.outcome()
    ranks = rank_scores(outcome.scores, outcome.order, autopilots)
    final = read_only(outcome.final)  # bots see the summary but cannot change the record
    forfeits_in_play = len(autopilots)
    for seat, bot in enumerate(bots):
        if seat in autopilots:
            continue
        result = Result(seat, outcome.scores, ranks, events_for(seat), final)
        try:
            bot.end(result)
        except (Exception, SystemExit) as exc:
            forfeit(seat, decisions, *_fault_of(exc, "end", bot, seat, names[seat]))
    if len(autopilots) > forfeits_in_play:  # a fault in end() forfeits too
        ranks = rank_scores(outcome.scores, outcome.order, autopilots)
    lucky = tally.result() if tally is not None else None
    return GameRecord(
        game=variant.game.name, variant=variant.label, seed=seed, seats=tuple(names),
        scores=outcome.scores, ranks=ranks, turns=outcome.turns, faults=tuple(faults),
        final=outcome.final, duration=time.perf_counter() - started, teams=outcome.teams,
        order=outcome.order, times=tuple(map(tuple, times)),
        luck=lucky[0] if lucky else None, luck_model=lucky[1] if lucky else None)


def read_only(value: Any) -> Any:
    """A deep read-only copy of JSON-like data: mappings become proxies, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: read_only(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(read_only(v) for v in value)
    return value


SHOWN_CHARACTERS = 80
"""How much of a value's repr a fault's detail shows."""


def described(value: object) -> str:
    """A value a bot answered, for a fault's detail: its type and its repr (shortened), e.g.
    `a Card: Card(rank=<Rank.THREE: 3>, ...)` or `a str: '3D'`. The sandbox's game process
    describes its bot's answer with this too, so both read alike."""
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    try:
        shown = repr(value)
    except Exception:
        return f"{article} {name} whose repr fails"
    if len(shown) > SHOWN_CHARACTERS:
        shown = shown[:SHOWN_CHARACTERS - 3] + "..."
    return f"{article} {name}: {shown}"


def example_actions(legal: Sequence[Action]) -> str:
    """One or two of a decision's legal actions, to show what a legal answer looks like: the
    first and the last (which differ most often in kind), cards as `<Card 3D>`."""
    if not legal:
        return "none"
    chosen = [legal[0]] if len(legal) == 1 else [legal[0], legal[-1]]
    shown = " or ".join(_example(action) for action in chosen)
    return f"{len(legal)}, e.g. {shown}" if len(legal) > 1 else f"only {shown}"


def _example(action: object) -> str:
    """An action of the arena's own, shown short: a card as `<Card 3D>` (`3D` is its text form,
    which a bot may return as well), tuples item by item."""
    if isinstance(action, Card):
        return f"<Card {action}>"
    if isinstance(action, tuple):
        items = ", ".join(_example(item) for item in action)
        return f"({items},)" if len(action) == 1 else f"({items})"
    text = repr(action)
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 3] + "..."


def not_legal_detail(shown: str, legal: Sequence[Action]) -> str:
    """The detail of an answer that is not legal: what it was (`described`) and what the
    decision's legal actions look like."""
    return f"returned {shown}, not a legal action (legal here: {example_actions(legal)})"


def _not_legal(action: object, bot: Bot, legal: Sequence[Action]) -> str:
    if isinstance(bot, StandInBot):
        try:
            shown = bot.answered(action)
        except Exception:
            shown = described(action)
    else:
        shown = described(action)
    return not_legal_detail(shown, legal)


def _fault_of(exc: BaseException, method: str, bot: Bot, seat: int,
              name: str) -> tuple[FaultKind, str]:
    """The kind and one-line detail of what a bot's `method` raised; the whole traceback goes
    to the `arena.bots` log (a run's log; stderr in `arena play`)."""
    if isinstance(exc, BotFault):
        return exc.kind, exc.detail
    kind = FaultKind.MEMORY if isinstance(exc, MemoryError) else FaultKind.EXCEPTION
    detail = escape(exception_detail(exc, method, type(bot)))
    trace = escape_lines("".join(traceback.format_exception(exc)).rstrip("\n"))
    # the exception goes along, for a handler that leaves some out (a person leaving the game)
    bot_log.warning("seat %d (%s): %s\n%s", seat, escape(name), detail, trace,
                    extra={"bot_exception": exc})
    return kind, detail
