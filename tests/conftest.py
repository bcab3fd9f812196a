"""Shared test helpers: scripted and recording bots, a one-call game runner, stacked layouts,
and the command line through a CliRunner; and how xdist hands the tests out (see "Testing" in
docs/architecture.md): one by one, but a module's tests together where they share a fixture
made once per module, the longest first."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
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


# --- how the tests are handed out (pytest-xdist; see "Testing" in docs/architecture.md) --------

TESTS = Path(__file__).parent
SHARED = re.compile(r"""scope=["'](class|module|package)["']""")
"""A fixture made once for more than one test (the `runner` of this file costs nothing)."""

LONGEST: dict[str, float] = {
    "tests/tournament/playing/test_ray_backend.py": 200,
    "tests/bots/paved_with_gold/test_paved_search.py::test_its_decisions_follow": 200,
    "tests/league/test_ray.py": 170,
    "tests/test_docs_examples.py": 175,
    "tests/ratings/test_trust.py": 150,
    "tests/tournament/test_run.py::test_a_killed_run_resumes": 90,
    "tests/ratings/test_plots.py": 78,
    "tests/tournament/records/test_replay.py": 76,
    "tests/bots/paved_with_gold/test_paved_search.py::test_whole_games": 70,
    "tests/test_output_digests.py::test_a_shipped_config_gives_the_same_outputs[cuckoo]": 69,
    "tests/test_output_digests.py::test_a_shipped_config_gives_the_same_outputs[classroom]": 63,
    "tests/test_output_digests.py::test_a_shipped_config_gives_the_same_outputs[cribbage-": 59,
    "tests/tournament/test_stopping.py::test_a_resumed_run_stops_where_a_whole_run_stops": 50,
    "tests/tournament/update/test_identity.py::test_deals_like_copies_the_key": 43,
    "tests/test_output_digests.py::test_a_shipped_config_gives_the_same_outputs[animals]": 42,
    "tests/tournament/test_run.py::test_sandboxed_bots_play_every_game": 35,
    "tests/tournament/test_run.py::test_a_sandboxed_run_whose_key_is_gone": 35,
    "tests/web/test_replay_page.py::test_every_label_on_the_board_is_a_players_word[animals": 37,
    "tests/web/test_replay_page.py::test_a_seat_sees_on_its_board_every_card_it_saw_and_at_i"
    "ts_decisions_its_moves[animals": 37,
    "tests/rl/test_env.py::test_no_encoding_holds_a_card_the_seat_cannot_see[concentration-two-"
    "decks": 35,
    "tests/tournament/update/test_reconcile.py::test_a_game_keeps_its_number": 35,
    "tests/test_output_digests.py::test_a_shipped_config_gives_the_same_outputs[solitaire]": 35,
    "tests/tournament/update/test_identity.py::test_a_bot_cannot_read_the_key": 32,
    "tests/tournament/planning/test_deals.py::test_the_wheel_ships_the_seed_lists": 32,
    "tests/tournament/test_duel.py::test_a_duel_of_sandboxed_bots": 31,
    "tests/tournament/update/test_reconcile.py::test_a_run_with_a_key_keeps_it": 29,
    "tests/tournament/update/test_reconcile.py::test_a_run_killed_while_brought_up_to_date": 26,
    "tests/ratings/test_calibration.py::test_a_four_seat_pool": 27,
    "tests/test_cli_play_faults.py::test_play_prints_the_fault_and_the_bot_s_output": 28,
    "tests/web/test_table_page.py::test_a_person_plays_a_whole_game_by_clicking": 27,
    "tests/sandbox/test_conformance.py::test_a_game_played_sandboxed_gives_the_same_record": 20,
}
"""Seconds (wall, measured on a loaded machine: they count only as weights) of the longest
units of work, a module that shares a fixture or one test (every case of a parametrized test,
or those whose node id starts so): handed out first, so that none is left to run alone at the
end. From `pytest --durations=60`; a unit not named here goes after them, in collection order."""


@functools.cache
def _sharing(module: str) -> bool:
    """Whether a test module (its path from the root) or a conftest.py of its own folders (not
    this one) makes a fixture for more than one test: then its tests go to one process together,
    where it is made once."""
    path = TESTS.parent / module
    folders = [folder for folder in path.parents if TESTS in folder.parents]
    return any(SHARED.search(source.read_text(encoding="utf-8"))
               for source in [path, *(folder / "conftest.py" for folder in folders)]
               if source.is_file())


def unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its module if that shares a fixture, else itself."""
    module = nodeid.split("::")[0]
    return module if module.endswith(".py") and _sharing(module) else nodeid


def _cost(nodeid: str) -> float:
    """A unit's expected seconds, from LONGEST (0 if not named there)."""
    return max((seconds for start, seconds in LONGEST.items() if nodeid.startswith(start)),
               default=0.0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest units first (stable: in collection order otherwise); xdist hands them out in
    this order (`--no-loadscope-reorder`)."""
    items.sort(key=lambda item: -_cost(unit(item.nodeid)))


@pytest.hookimpl(optionalhook=True)  # xdist's hook: none without xdist
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two test processes a CPU (`--maxprocesses` caps them). Many tests wait on
    other processes (sandboxed games, a Ray cluster, the docs' commands), and on a loaded machine
    the scheduler shares the CPUs out by process, so more processes finish sooner there."""
    return 2 * (os.cpu_count() or 1)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: none without xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With `--dist loadgroup` (pyproject.toml): a test at a time, but a module's tests together
    where they share a fixture (`unit`). xdist's own grouping, by an `xdist_group` mark, no longer
    takes with pytest 9 (it renames `item._nodeid`, which pytest 9 no longer reads)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByUnit(LoadScopeScheduling):
        """LoadScopeScheduling, a scope being a `unit`."""

        def _split_scope(self, nodeid: str) -> str:
            return unit(nodeid)

    return ByUnit(config, log)
