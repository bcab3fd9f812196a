"""Shared test helpers: scripted and recording bots, a one-call game runner, stacked layouts,
and the command line through a CliRunner."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.api import Action, Bot, GameInfo, Observation, Result
from arena.cards import Card, parse_card, standard_deck
from arena.engine import Variant, find_game
from arena.games.concentration import ConcentrationParams
from arena.match import Watcher, play_game
from arena.record import GameRecord


class RecordingBot(Bot):
    """Plays uniformly at random from its own rng and keeps everything it was given."""

    def __init__(self) -> None:
        self.observations: list[Observation[Any]] = []
        self.actions: list[Action] = []
        self.infos: list[GameInfo] = []
        self.results: list[Result] = []

    def start(self, info: GameInfo) -> None:
        """Keep the info."""
        super().start(info)
        self.infos.append(info)

    def act(self, obs: Observation[Any]) -> Action:
        """Keep the observation; pick a random legal action."""
        self.observations.append(obs)
        self.actions.append(obs.legal[self.rng.randrange(len(obs.legal))])
        return self.actions[-1]

    def end(self, result: Result) -> None:
        """Keep the result."""
        self.results.append(result)


class ScriptedBot(RecordingBot):
    """Plays a fixed list of actions in order, then the first legal action when the list is out."""

    def __init__(self, actions: Iterable[Action] = ()) -> None:
        super().__init__()
        self.script = list(actions)

    def act(self, obs: Observation[Any]) -> Action:
        """The next scripted action, or the first legal one."""
        self.observations.append(obs)
        self.actions.append(self.script.pop(0) if self.script else obs.legal[0])
        return self.actions[-1]


def variant(preset: str = "standard", overrides: Mapping[str, str] | None = None,
            game: str = "concentration") -> Variant:
    """A resolved variant of a game (Concentration by default)."""
    return find_game(game).variant(preset, overrides)


def play(preset: str, bots: Sequence[Bot], seed: int = 0,
         overrides: Mapping[str, str] | None = None, watcher: Watcher | None = None,
         game: str = "concentration") -> GameRecord:
    """Play one game of a preset with these bots (seat names 'bot0', 'bot1', ...)."""
    names = [f"bot{i}" for i in range(len(bots))]
    return play_game(variant(preset, overrides, game), bots, names, seed, watcher)


def all_cards(params: ConcentrationParams) -> list[Card]:
    """Every card a Concentration variant deals, in pack order."""
    packs = 2 if params.duel or params.checkerboard else params.decks
    return standard_deck(params.jokers) * packs


def stack(params: ConcentrationParams, placed: Mapping[int, str] | Sequence[str]) -> list[Card]:
    """A full layout with the given cards at the given positions (a list means positions 0, 1, ...).

    Every other position gets the remaining cards of the variant in pack order.
    """
    where = dict(enumerate(placed)) if not isinstance(placed, Mapping) else dict(placed)
    pool = all_cards(params)
    layout: list[Card | None] = [None] * len(pool)
    for pos, text in where.items():
        card = parse_card(text)
        pool.remove(card)  # ValueError if the variant has no such card left
        layout[pos] = card
    rest = iter(pool)
    return [card if card is not None else next(rest) for card in layout]


@pytest.fixture
def scripted_bot() -> type[ScriptedBot]:
    """ScriptedBot(actions): plays the listed actions, then the first legal one."""
    return ScriptedBot


@pytest.fixture
def recording_bot() -> type[RecordingBot]:
    """RecordingBot(): plays at random from its own rng and keeps every input."""
    return RecordingBot


@pytest.fixture(name="play")
def play_fixture() -> Callable[..., GameRecord]:
    """play(preset, bots, seed=0, overrides=None, watcher=None, game='concentration') -> record."""
    return play


@pytest.fixture(name="variant")
def variant_fixture() -> Callable[..., Variant]:
    """variant(preset='standard', overrides=None, game='concentration') -> resolved Variant."""
    return variant


@pytest.fixture(name="stack")
def stack_fixture() -> Callable[..., list[Card]]:
    """stack(params, placed) -> a full Concentration layout with cards placed at positions."""
    return stack


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    """A CliRunner keeping stderr apart from stdout."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:  # recent Click/Typer: stderr is always separate
        return CliRunner()
