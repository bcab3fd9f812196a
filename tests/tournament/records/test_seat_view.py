"""The seat's-eye replay, for every game in the registry: at each decision it shows exactly the
observation the bot received, and never a card that seat could not see."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest

from arena.api import Bot, Event, GameInfo, Observation, Result
from arena.engine import State, all_games, find_game, plain_action
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import GameRecord
from arena.tournament.playing.tasks import Entrant
from arena.tournament.records.replay import Replayer, ReplayError
from arena.tournament.records.seat_view import (
    Decision,
    PublicStep,
    plain,
    plain_observation,
    recorded_times,
    seat_of,
    seat_view_lines,
    seat_view_of,
)

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9])|(?<![A-Za-z])JK[RB]?\b")
"""A card in its short text form (`10H`, `QS`, `JK`, `JKR`)."""


class Logging(Bot):
    """Plays at random from its own rng and keeps everything it is told."""

    def start(self, info: GameInfo) -> None:
        super().start(info)
        self.seen: list[Observation[Any]] = []
        self.answers: list[Any] = []
        self.result: Result | None = None

    def act(self, obs: Observation[Any]) -> Any:
        self.seen.append(obs)
        self.answers.append(self.rng.choice(obs.legal))
        return self.answers[-1]

    def end(self, result: Result) -> None:
        self.result = result


LOGGING = f"{__name__}:Logging"
GAMES = sorted(game.name for game in all_games())


def _seats(game: str) -> int:
    allowed = find_game(game).variant(None, {}).params.players_allowed()
    return 2 if 2 in allowed else allowed.start


def _cards(data: Any) -> set[str]:
    return set(CARD.findall(json.dumps(data, ensure_ascii=False)))


@pytest.mark.parametrize("game", GAMES)
def test_the_seat_sees_exactly_what_its_bot_was_given(game: str) -> None:
    assert len(GAMES) >= 9
    variant = find_game(game).variant(None, {})
    players = _seats(game)
    names = ["logger", *(f"random{i}" for i in range(1, players))]
    logger = Logging()
    bots = [logger, *(resolve_bot("random", game).make() for _ in range(1, players))]
    rules = Visible(0)
    record = json.loads(play_game(variant, bots, names, 5, rules).to_line(timings=True))
    entrants = {"logger": Entrant(LOGGING), **{n: Entrant("random") for n in names[1:]}}
    with Replayer(entrants) as replayer:
        view = seat_view_of(replayer, record, 0)
    assert view.reproduced, view.differences

    decisions = view.decisions
    assert len(decisions) == len(logger.seen) > 0
    for step, obs, answer in zip(decisions, logger.seen, logger.answers, strict=True):
        given = plain_observation(obs)
        assert given.pop("seat") == 0
        assert step.observation() == given  # events, view and legal, as the bot had them
        assert step.answer == plain(plain_action(answer)) and step.legal_answer
        assert step.seconds is not None and step.seconds >= 0
    assert [d.number for d in decisions] == list(range(1, len(decisions) + 1))
    assert logger.result is not None
    assert list(view.ending.events) == plain(logger.result.events)

    # never a card the seat was not shown: the data and the text alike
    told = _cards([plain_observation(o) for o in logger.seen])
    told |= _cards(plain(logger.result.events)) | _cards(plain(logger.result.final))
    shown = view.to_json()
    assert _cards(shown) <= told, f"{game}: shows {sorted(_cards(shown) - told)}"
    text = set(CARD.findall("\n".join(seat_view_lines(view))))
    assert text <= told, f"{game}: shows {sorted(text - told)}"
    # by the game's own visibility: a card never face up to the seat nor told to it is hidden
    hidden = rules.everything - rules.seen - told
    assert not (_cards(shown) | text) & hidden
    public = [s for s in view.steps if isinstance(s, PublicStep)]
    assert all(s.events and s.after >= 0 for s in public)


class Visible:
    """A spectator that keeps every card the rules let `seat` see face up at some point
    (`visible_cards`), and every card of the game (`inventory`, where the game says)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen: set[str] = set()
        self.everything: set[str] = set()

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        self.happened(state, ())

    def happened(self, state: State, events: Sequence[Event]) -> None:
        self.seen |= {str(c) for c in state.visible_cards(self.seat)}
        self.everything |= {str(c) for c in state.inventory() or ()}


def test_the_visibility_check_finds_a_hidden_card() -> None:
    variant = find_game("dig").variant(None, {})
    rules, logger = Visible(0), Logging()
    play_game(variant, [logger, resolve_bot("random", "dig").make()], ["a", "b"], 5, rules)
    told = _cards([plain_observation(o) for o in logger.seen])
    hidden = rules.everything - rules.seen - told
    assert hidden  # the opponent's hand and the stock's bottom are never shown
    leaked = {"view": {"hand": [sorted(hidden)[0]]}}
    assert _cards(leaked) & hidden


def test_a_record_without_times_still_replays_and_says_so() -> None:
    variant = find_game("dig").variant(None, {})
    names = ["dig-sharp", "random"]
    bots = [resolve_bot(n, "dig").make() for n in names]
    played = play_game(variant, bots, names, 3)
    timed = json.loads(played.to_line(timings=True))
    assert len(timed["times"]) == 2 and all(type(t) is int for t in timed["times"][0])
    assert "times" not in json.loads(played.to_line())  # untimed records stay byte-identical
    old = {k: v for k, v in timed.items() if k != "times"}
    entrants = {n: Entrant(n) for n in names}
    with Replayer(entrants) as replayer:
        view = seat_view_of(replayer, old, 1)
        again = seat_view_of(replayer, timed, 1)
    assert view.reproduced and not view.opening.timed
    assert all(d.seconds is None for d in view.decisions)
    text = seat_view_lines(view)
    assert "(time not recorded: this record has no per-decision times)" in text
    assert all("time not recorded" in line for line in text if line.startswith("== its dec"))
    assert [d.seconds for d in again.decisions] == [t / 1e6 for t in timed["times"][1]]
    assert recorded_times({**timed, "times": [["x"], []]}, 0) is None  # malformed: not shown


def test_per_decision_times_are_timings_like_the_duration() -> None:
    record = GameRecord("g", "v", 0, ("a", "b"), (1, 2), (2, 1), 3, (), {},
                        duration=0.5, times=((0.001, 0.0000024), ()))
    assert "times" not in record.to_json()
    assert record.to_json(timings=True)["times"] == [[1000, 2], []]
    assert list(record.to_json(timings=True))[-1] == "duration"


def test_a_seat_is_named_by_number_or_bot() -> None:
    record = {"task": 4, "seats": ["ada", "bob", "ada"]}
    assert seat_of(record, "1") == 1 and seat_of(record, "bob") == 1 and seat_of(record, 2) == 2
    with pytest.raises(ReplayError, match="no seat 3 "):
        seat_of(record, "3")
    with pytest.raises(ReplayError, match="no bot 'cy' at the table"):
        seat_of(record, "cy")
    with pytest.raises(ReplayError, match="sits in seats 0, 2: say which"):
        seat_of(record, "ada")


def test_a_fault_shows_as_the_seat_saw_it() -> None:
    variant = find_game("dig").variant(None, {})
    names = ["wrong", "random"]

    record = json.loads(play_game(variant, [Wrong(), resolve_bot("random", "dig").make()],
                                  names, 2).to_line(timings=True))
    entrants = {"wrong": Entrant(f"{__name__}:Wrong"), "random": Entrant("random")}
    with Replayer(entrants) as replayer:
        view = seat_view_of(replayer, record, 0)
    last = view.decisions[-1]
    assert isinstance(last, Decision) and not last.legal_answer and last.number == 2
    assert last.answer_text == "'nonsense'"
    assert [f["kind"] for f in view.ending.faults] == ["illegal"]
    text = seat_view_lines(view)
    assert "chose: 'nonsense', which is not a legal action" in text
    assert any(line.startswith("fault at the game's decision") for line in text)


class Wrong(Bot):
    """Plays its first decision, then answers nonsense."""

    def start(self, info: GameInfo) -> None:
        super().start(info)
        self.calls = 0

    def act(self, obs: Observation[Any]) -> Any:
        self.calls += 1
        return obs.legal[0] if self.calls == 1 else "nonsense"
