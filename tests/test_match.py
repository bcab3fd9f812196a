"""Tests for arena.match: the match loop, bot faults, what bots are told, records."""

from __future__ import annotations

import contextlib
import inspect
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

import pytest

from arena.api import Action, Bot, Event, GameInfo, Observation, Result
from arena.cards import Card, parse_card
from arena.engine import Game, Outcome, Params, ScoreOrder, State, Variant
from arena.games.concentration import PRESETS
from arena.match import bot_rng, deal_rng, play_game, read_only
from arena.record import Fault, FaultKind, GameRecord
from bots.algorithms.random_bot import RandomBot
from bots.concentration.greedy import GreedyBot
from tests.helpers import LARGER_LAYOUTS, slow_unless

Play = Callable[..., GameRecord]


class CountingBot(RandomBot):
    """A random bot that counts its calls."""

    def __init__(self) -> None:
        self.acts = 0
        self.ends = 0

    def act(self, obs: Observation[Any]) -> Action:
        """Count, then play at random."""
        self.acts += 1
        return super().act(obs)

    def end(self, result: Result) -> None:
        """Count."""
        self.ends += 1


class RaisesInAct(CountingBot):
    """Raises at its `when`-th decision."""

    def __init__(self, when: int = 1, error: BaseException | None = None) -> None:
        super().__init__()
        self.when = when
        self.error = error or RuntimeError("boom\nsecond line of the message")

    def act(self, obs: Observation[Any]) -> Action:
        """Play at random until the fatal decision."""
        action = super().act(obs)
        if self.acts == self.when:
            raise self.error
        return action


class RaisesInStart(CountingBot):
    """Raises in start."""

    def start(self, info: GameInfo) -> None:
        """Fail at once."""
        raise ValueError("cannot start")


class ExitsInAct(CountingBot):
    """Calls sys.exit in act."""

    def act(self, obs: Observation[Any]) -> Action:
        """Leave the process (or try to)."""
        self.acts += 1
        sys.exit("bye")


class ExitsInStart(CountingBot):
    """Calls sys.exit() in start."""

    def start(self, info: GameInfo) -> None:
        """Leave the process (or try to)."""
        sys.exit()


class Returns(CountingBot):
    """Returns a fixed value at its first decision."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value

    def act(self, obs: Observation[Any]) -> Action:
        """The fixed value."""
        self.acts += 1
        return self.value


class RaisesInEnd(GreedyBot):
    """A greedy bot that raises in end."""

    def end(self, result: Result) -> None:
        """Fail at the very end."""
        raise RuntimeError("end failed")


class Unprintable:
    """A value that equals nothing and cannot be shown."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return False

    def __repr__(self) -> str:
        raise RuntimeError("no repr for you")


def check_forfeit(record: GameRecord, seat: int, kind: FaultKind, detail: str) -> Fault:
    """Assert one fault by `seat` of `kind` whose one-line detail contains `detail`."""
    assert len(record.faults) == 1, record.faults
    fault = record.faults[0]
    assert fault.seat == seat
    assert fault.kind is kind
    assert detail in fault.detail
    assert "\n" not in fault.detail
    assert record.ranks[seat] == len(record.ranks)
    assert sorted(r for s, r in enumerate(record.ranks) if s != seat)[0] == 1
    assert record.final["end"] == "cleared" and record.final["left"] == 0
    return fault


# -- faults ------------------------------------------------------------------------------------

def test_raise_in_act_is_a_fault_and_a_forfeit(play: Play) -> None:
    bad = RaisesInAct(when=3)
    others = [CountingBot(), CountingBot()]
    record = play("standard", [others[0], bad, others[1]], seed=4)
    fault = check_forfeit(record, 1, FaultKind.EXCEPTION,
                          "act raised RuntimeError: boom")
    assert "second line" not in fault.detail
    assert bad.acts == 3  # never asked again
    assert bad.ends == 0
    assert [b.ends for b in others] == [1, 1]
    assert fault.decision > 0


def test_raise_in_act_of_the_only_seat(play: Play) -> None:
    record = play("standard", [RaisesInAct(when=1)], seed=0)
    assert [f.kind for f in record.faults] == [FaultKind.EXCEPTION]
    assert record.ranks == (1,)
    assert record.final["end"] == "cleared"


def test_raise_in_start(play: Play) -> None:
    bad = RaisesInStart()
    record = play("standard", [CountingBot(), bad], seed=1)
    fault = check_forfeit(record, 1, FaultKind.EXCEPTION, "start raised ValueError: cannot start")
    assert fault.decision == 0
    assert bad.acts == 0 and bad.ends == 0


def test_sys_exit_in_act(play: Play) -> None:
    bad = ExitsInAct()
    record = play("standard", [bad, CountingBot()], seed=2)
    check_forfeit(record, 0, FaultKind.EXCEPTION, "act raised SystemExit: bye")
    assert bad.acts == 1


def test_sys_exit_in_start(play: Play) -> None:
    record = play("any-color", [CountingBot(), ExitsInStart()], seed=2)
    check_forfeit(record, 1, FaultKind.EXCEPTION, "start raised SystemExit")


def test_keyboard_interrupt_is_not_swallowed(play: Play) -> None:
    with pytest.raises(KeyboardInterrupt):
        play("standard", [RaisesInAct(when=2, error=KeyboardInterrupt()), CountingBot()])


@pytest.mark.parametrize("value", [999, -1, "0", None, 0.5, (0,), b"\x00"])
def test_illegal_value_is_a_fault(play: Play, value: Any) -> None:
    bad = Returns(value)
    record = play("standard", [CountingBot(), bad], seed=3)
    shown = f"a {type(value).__name__}: {value!r}".replace("a int", "an int")
    fault = check_forfeit(record, 1, FaultKind.ILLEGAL, f"returned {shown}, not a legal action")
    assert bad.acts == 1
    assert fault.decision > 1


@pytest.mark.parametrize("value", [[0], {"position": 0}, {0, 1}, object()])
def test_unhashable_or_malformed_value_is_a_fault(play: Play, value: Any) -> None:
    record = play("standard", [Returns(value), CountingBot()], seed=3)
    check_forfeit(record, 0, FaultKind.ILLEGAL, "not a legal action")


def test_turning_up_the_same_card_twice_is_illegal(play: Play,
                                                   scripted_bot: type[Bot]) -> None:
    bot = scripted_bot([5, 5])
    record = play("standard", [bot, CountingBot()], seed=3)
    fault = check_forfeit(record, 0, FaultKind.ILLEGAL, "returned an int: 5, not a legal action")
    assert fault.decision == 2
    assert len(bot.observations) == 2  # type: ignore[attr-defined]
    assert bot.results == []  # type: ignore[attr-defined]  # a forfeited bot is not told the end


def test_a_look_alike_action_is_replaced_by_the_legal_value(play: Play,
                                                            scripted_bot: type[Bot]) -> None:
    bot = scripted_bot([0, True])  # True == 1: accepted, but the game gets the int 1
    watcher = Collector()
    record = play("standard", [bot, CountingBot()], seed=3, watcher=watcher)
    assert record.faults == ()
    first, second = watcher.events[:2]
    assert (first.position, second.position) == (0, 1)  # type: ignore[attr-defined]
    assert type(second.position) is int  # type: ignore[attr-defined]


def test_long_illegal_value_is_shortened(play: Play) -> None:
    record = play("standard", [Returns("x" * 500), CountingBot()], seed=3)
    fault = check_forfeit(record, 0, FaultKind.ILLEGAL, "...")
    assert fault.detail.count("x") <= 80


def test_an_illegal_answer_shows_its_type_and_legal_examples(play: Play) -> None:
    """A card where a ('play', card) was wanted: its type and repr, and what legal looks like."""
    card = parse_card("3D")
    record = play("standard", [Returns(card), CountingBot()], seed=3)
    fault = check_forfeit(record, 0, FaultKind.ILLEGAL, f"returned a Card: {card!r}")
    assert fault.detail.endswith("not a legal action (legal here: 52, e.g. 0 or 51)")


def test_a_fault_names_the_bots_own_decision_and_the_games(play: Play) -> None:
    record = play("standard", [CountingBot(), RaisesInAct(when=3)], seed=3)
    fault = check_forfeit(record, 1, FaultKind.EXCEPTION, "act raised RuntimeError")
    assert fault.decision > 3
    assert fault.detail.startswith(f"its decision 3 (the game's {fault.decision}): act raised")


def test_value_that_cannot_be_shown_is_a_fault(play: Play) -> None:
    record = play("standard", [Returns(Unprintable()), CountingBot()], seed=3)
    check_forfeit(record, 0, FaultKind.ILLEGAL, "not a legal action")


def test_raise_in_end_is_recorded(play: Play) -> None:
    record = play("standard", [RaisesInEnd(), RandomBot()], seed=0)
    assert len(record.faults) == 1
    fault = record.faults[0]
    assert fault.seat == 0 and fault.kind is FaultKind.EXCEPTION
    line = inspect.getsourcelines(RaisesInEnd.end)[1] + 2
    assert fault.detail == f"end raised RuntimeError: end failed (at test_match.py:{line} in end)"
    assert record.final["end"] == "cleared"


def test_raise_in_end_ranks_the_seat_last(play: Play) -> None:
    baseline = play("standard", [GreedyBot(), RandomBot()], seed=0)
    assert baseline.ranks == (1, 2)  # greedy wins this deal when it behaves
    record = play("standard", [RaisesInEnd(), RandomBot()], seed=0)
    assert record.ranks == (2, 1)


def test_faults_go_into_the_record_json(play: Play) -> None:
    record = play("standard", [Returns(999), CountingBot()], seed=3)
    line = json.loads(record.to_line())
    assert line["faults"] == [{"seat": 0, "decision": 1, "kind": "illegal",
                               "detail": "its decision 1 (the game's 1): returned an int: 999, "
                                         "not a legal action (legal here: 52, e.g. 0 or 51)"}]


def test_two_faulty_seats_share_the_last_rank(play: Play) -> None:
    record = play("standard", [Returns(-1), CountingBot(), RaisesInAct(when=2)], seed=5)
    assert sorted(f.seat for f in record.faults) == [0, 2]
    assert record.ranks == (2, 1, 2)


# -- what bots are told ------------------------------------------------------------------------

class Collector:
    """A watcher keeping every public event in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.dealt_calls: list[tuple[str, int, tuple[str, ...]]] = []

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """Note the deal."""
        self.dealt_calls.append((variant, seed, tuple(names)))

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Keep the events."""
        self.events.extend(events)


@pytest.mark.parametrize("preset", ["standard", "duel", "four-of-a-kind", "moving"])
def test_events_are_those_since_the_last_decision(play: Play, recording_bot: type[Bot],
                                                  preset: str) -> None:
    bots = [recording_bot(), recording_bot()]
    watcher = Collector()
    record = play(preset, bots, seed=6, watcher=watcher)
    assert watcher.dealt_calls == [(preset, 6, ("bot0", "bot1"))]
    assert watcher.events  # Concentration events are all public
    for bot in bots:
        seen: list[Event] = []
        for obs in bot.observations:  # type: ignore[attr-defined]
            seen.extend(obs.events)
        (result,) = bot.results  # type: ignore[attr-defined]
        seen.extend(result.events)
        assert seen == watcher.events  # every event exactly once, in order
    first = bots[0].observations[0]  # type: ignore[attr-defined]
    assert first.events == ()
    assert record.turns > 0


def test_second_seat_first_sees_the_first_turn(play: Play, recording_bot: type[Bot]) -> None:
    bots = [recording_bot(), recording_bot()]
    play("standard", bots, seed=0)
    obs0, chosen0 = bots[0].observations, bots[0].actions  # type: ignore[attr-defined]
    (own_flip,) = obs0[1].events
    assert (own_flip.kind, own_flip.seat, own_flip.position) == ("reveal", 0, chosen0[0])
    first_of_seat1 = bots[1].observations[0]  # type: ignore[attr-defined]
    events = first_of_seat1.events
    assert [(e.kind, e.seat) for e in events[:2]] == [("reveal", 0), ("reveal", 0)]
    assert [e.position for e in events[:2]] == chosen0[:2]
    assert len(events) > 2  # the turn's verdict (and, after a take, seat 0's later flips)


def test_observation_values(play: Play, recording_bot: type[Bot]) -> None:
    bot = recording_bot()
    play("standard", [bot, recording_bot()], seed=0)
    for obs in bot.observations:  # type: ignore[attr-defined]
        assert obs.seat == 0
        assert isinstance(obs.legal, tuple) and obs.legal
        assert isinstance(obs.events, tuple)


def test_result_delivered_to_each_seat(play: Play, recording_bot: type[Bot]) -> None:
    bots = [recording_bot(), recording_bot(), recording_bot()]
    record = play("standard", bots, seed=8)
    for seat, bot in enumerate(bots):
        (result,) = bot.results  # type: ignore[attr-defined]
        assert result.seat == seat
        assert result.scores == record.scores
        assert result.ranks == record.ranks
        assert dict(result.final) == dict(read_only(record.final))
        assert result.events[-1].kind == "game-over"


def test_bots_get_fresh_info_with_their_own_rng(play: Play, recording_bot: type[Bot],
                                                variant: Callable[..., Variant]) -> None:
    class RngProbe(RandomBot):
        def start(self, info: GameInfo) -> None:
            super().start(info)
            self.info_seen = info
            self.rng_state = info.rng.getstate()

    bots = [RngProbe(), RngProbe(), RngProbe()]
    play("zebra", bots, seed=11)
    params = variant("zebra").params.as_dict()
    for seat, bot in enumerate(bots):
        info = bot.info_seen
        assert (info.game, info.variant, info.seat, info.players) == ("concentration", "zebra",
                                                                       seat, 3)
        assert dict(info.params) == params
        assert bot.rng is info.rng
        assert bot.rng_state == bot_rng(11, seat).getstate()
    assert len({id(b.info_seen) for b in bots}) == 3
    assert len({id(b.info_seen.rng) for b in bots}) == 3
    assert bot_rng(11, 0).random() != bot_rng(11, 1).random()
    assert bot_rng(11, 0).random() != bot_rng(12, 0).random()


def test_bot_rng_is_independent_of_the_deal() -> None:
    assert bot_rng(3, 0).random() == bot_rng(3, 0).random()
    assert deal_rng(3).random() == deal_rng(3).random()
    assert deal_rng(3).random() != bot_rng(3, 0).random()


def test_a_key_changes_the_deal_and_every_bot_rng(variant: Callable[..., Variant]) -> None:
    assert bot_rng(3, 0, "k").random() == bot_rng(3, 0, "k").random()
    assert bot_rng(3, 0, "k").random() not in (bot_rng(3, 0).random(), bot_rng(3, 0, "j").random())
    assert deal_rng(3, "k").random() not in (deal_rng(3).random(), deal_rng(3, "j").random())
    states: list[object] = []
    layouts: list[object] = []

    class Probe(RandomBot):
        def start(self, info: GameInfo) -> None:
            super().start(info)
            states.append(info.rng.getstate())

    class Dealt:
        def dealt(self, state: Any, variant: str, seed: int, names: Sequence[str]) -> None:
            layouts.append(list(state.cards))

        def happened(self, state: Any, events: Sequence[Event]) -> None:
            pass

    standard = variant("standard")
    for key in ("k", ""):
        play_game(standard, [Probe(), Probe()], ["a", "b"], 7, Dealt(), key=key)  # type: ignore[arg-type]
    assert states == [bot_rng(7, 0, "k").getstate(), bot_rng(7, 1, "k").getstate(),
                      bot_rng(7, 0).getstate(), bot_rng(7, 1).getstate()]
    unkeyed = standard.game.new_state(standard.params, 2, deal_rng(7))
    keyed = standard.game.new_state(standard.params, 2, deal_rng(7, "k"))
    assert layouts == [keyed.cards, unkeyed.cards] and keyed.cards != unkeyed.cards


def test_a_bot_cannot_change_what_other_bots_are_told(play: Play) -> None:
    class Meddler(RandomBot):
        def start(self, info: GameInfo) -> None:
            super().start(info)
            with contextlib.suppress(TypeError):
                info.params["one_flip"] = True  # type: ignore[index]

    class Listener(RandomBot):
        def start(self, info: GameInfo) -> None:
            super().start(info)
            self.one_flip = info.params["one_flip"]

    listener = Listener()
    play("standard", [Meddler(), listener], seed=0)
    assert listener.one_flip is False


def test_a_bot_cannot_change_the_record(play: Play) -> None:
    class Forger(RandomBot):
        def end(self, result: Result) -> None:
            with contextlib.suppress(TypeError):
                result.final["points"][0] = 999  # type: ignore[index]
                result.final["end"] = "forged"  # type: ignore[index]

    honest = play("standard", [RandomBot(), RandomBot()], seed=0)
    record = play("standard", [Forger(), RandomBot()], seed=0)
    assert record.final == honest.final


# -- records -----------------------------------------------------------------------------------

def _players_for(preset: str) -> int:
    allowed = PRESETS[preset].players_allowed()
    return 2 if 2 in allowed else allowed.start


@pytest.mark.parametrize("preset", [
    slow_unless(("concentration", preset) not in LARGER_LAYOUTS, preset, id=preset)
    for preset in PRESETS])
def test_same_seed_same_record(play: Play, preset: str) -> None:
    n = _players_for(preset)
    lines = [play(preset, [RandomBot() for _ in range(n)], seed=seed).to_line()
             for seed in (5, 5, 6)]
    assert lines[0] == lines[1]
    assert lines[0] != lines[2]


def test_same_seed_same_record_in_solitaire(play: Play) -> None:
    first = play("standard", [GreedyBot()], seed=9)
    again = play("standard", [GreedyBot()], seed=9)
    assert first.to_line() == again.to_line()
    assert first.scores == (float(first.turns),)
    assert first.to_json()["order"] == "lower"


def test_record_json_shape_and_duration(play: Play) -> None:
    record = play("standard", [RandomBot(), RandomBot()], seed=1)
    plain = record.to_json()
    assert list(plain) == ["game", "variant", "seed", "seats", "scores", "ranks", "order",
                           "turns", "faults", "final", "luck", "luck_model"]
    assert plain["order"] == "higher"
    assert "duration" not in plain
    assert "duration" not in record.to_line()
    timed = record.to_json(timings=True)
    assert list(timed)[-1] == "duration"
    assert isinstance(timed["duration"], float) and timed["duration"] >= 0
    assert json.loads(record.to_line(timings=True))["duration"] == timed["duration"]
    assert plain["seats"] == ["bot0", "bot1"]
    assert all(isinstance(s, int) for s in plain["scores"])  # whole scores print as ints
    assert json.loads(record.to_line()) == plain


def test_record_keeps_non_integer_scores() -> None:
    record = GameRecord("g", "v", 0, ("a",), (1.5,), (1,), 3, (), {})
    assert record.to_json()["scores"] == [1.5]
    assert record.to_json(timings=True) == record.to_json()  # no duration known


def test_play_game_checks_the_player_count(variant: Callable[..., Variant]) -> None:
    from arena.errors import PlayersError

    with pytest.raises(PlayersError):
        play_game(variant("duel"), [RandomBot()], ["a"], 0)


def test_bots_do_not_touch_the_global_random(play: Play) -> None:
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    play("moving", [RandomBot(), GreedyBot()], seed=3)
    assert random.random() == expected


@dataclass(frozen=True)
class _ToyParams(Params):
    """No parameters; two players."""

    def players_allowed(self) -> range:
        return range(2, 3)


class _SecretState(State):
    """A two-seat toy game: each seat, in turn, is privately told a number, then says 'ok'."""

    def __init__(self) -> None:
        super().__init__()
        self.moves = 0

    def to_act(self) -> tuple[int, ...]:
        if self.moves == 4:
            return ()
        if len(self.log) == self.moves:  # tell the next seat its secret before it acts
            seat = self.moves % 2
            self.tell([seat], _Secret(seat, 100 + self.moves))
        return (self.moves % 2,)

    def legal(self, seat: int) -> tuple[str, ...]:
        return ("ok",)

    def view(self, seat: int) -> None:
        return None

    def apply(self, seat: int, action: object) -> None:
        self.moves += 1

    def outcome(self) -> Outcome:
        return Outcome((0.0, 0.0), ScoreOrder.HIGHER_WINS, self.moves, {})

    def visible_cards(self, seat: int) -> list[Card]:
        return []


@dataclass(frozen=True, slots=True)
class _Secret(Event):
    number: int

    kind: ClassVar[str] = "secret"


class _SecretGame(Game):
    name = "secret-toy"
    title = "a toy game with private events"
    params_type = Params
    presets = MappingProxyType({"plain": _ToyParams()})
    default_preset = "plain"

    def new_state(self, params: Params, players: int, rng: random.Random) -> State:
        return _SecretState()


def test_private_events_reach_only_their_seats(recording_bot: type[Bot]) -> None:
    bots = [recording_bot(), recording_bot()]
    play_game(_SecretGame().variant(), bots, ["a", "b"], seed=1)
    for seat, bot in enumerate(bots):
        seen = [e for obs in bot.observations for e in obs.events]  # type: ignore[attr-defined]
        assert [e.seat for e in seen] == [seat, seat]
        assert [e.number for e in seen] == [100 + seat, 102 + seat]


def test_partnerships_reach_the_record() -> None:
    record = GameRecord("g", "v", 1, ("a", "b", "c", "d"), (5, 3, 5, 3), (1, 3, 1, 3), 10, (),
                        {}, teams=((0, 2), (1, 3)))
    assert record.to_json()["teams"] == [[0, 2], [1, 3]]
    assert "teams" not in GameRecord("g", "v", 1, ("a",), (1,), (1,), 1, (), {}).to_json()
