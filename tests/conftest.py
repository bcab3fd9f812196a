"""Shared test helpers: scripted and recording bots, a one-call game runner, stacked layouts,
and the command line through a CliRunner; and how xdist hands the tests out (see "Testing" in
docs/architecture.md): one by one, but a module's tests together where they share a fixture
made once per module, the longest first."""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import typer.testing
from typer.testing import CliRunner

from arena.api import Action, Bot, GameInfo, Observation, Result
from arena.cards import Card, parse_card, standard_deck
from arena.engine import Variant, find_game
from arena.games.concentration import ConcentrationParams
from arena.match import Watcher, play_game
from arena.record import GameRecord
from tests.bytecode import compile_once

# Python keeps compiled modules in __pycache__ unless the machine says not to. Where it does
# (PYTHONDONTWRITEBYTECODE, as some containers set), every process the suite starts (xdist's
# workers, `arena` commands, sandbox hosts) would compile the arena again: a fifth of the
# suite's CPU. The suite runs as on a default install; the sandbox's tests of bots without a
# cache set `sys.dont_write_bytecode` themselves.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# Typer's CliRunner builds the click command of the whole CLI again on every invoke, reading the
# type hints of every command (10-90 ms, see docs/architecture.md, Speed); `arena` builds it once
# a process, and so does the suite, which invokes the CLI in-process hundreds of times. (A typer
# whose CliRunner no longer has this private name is only slower here.)
if hasattr(typer.testing, "_get_command"):
    typer.testing._get_command = functools.cache(  # type: ignore[attr-defined]
        typer.testing._get_command)


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
    "tests/tournament/records/test_replay.py": 20,
    "tests/tournament/update/test_reconcile.py::test_a_game_keeps_its_number_and_record_for"
    "_good": 10,
    "tests/ratings/test_plots.py": 24,
    "tests/luck/test_animals.py": 16,
    "tests/ratings/test_trust.py": 15,
    "tests/tournament/test_run.py": 50,
    "tests/sandbox/test_validate.py::test_every_game_s_new_bot_scaffold_passes[memorandum]": 8,
    "tests/luck/test_dig.py": 19,
    "tests/bots/paved_with_gold/test_paved_search.py::test_whole_games_without_faults[3-": 6,
    "tests/tournament/planning/test_deals.py::test_the_wheel_ships_the_seed_lists": 17,
    "tests/web/test_table_page.py::test_a_person_plays_a_whole_game_by_clicking_and_it_is_r"
    "ecorded_as_arena_play_does[concentration]": 17,
    "tests/tournament/update/test_reconcile.py::test_a_run_killed_while_brought_up_to_date_"
    "plays_each_missing_game_once": 9,
    "tests/bots/paved_with_gold/test_paved_search.py::test_its_decisions_follow_from_what_i"
    "ts_seat_knows_alone[one-game]": 7,
    "tests/tournament/test_duel.py::test_a_killed_duel_resumes_to_the_same_verdict": 6,
    "tests/tournament/update/test_reconcile.py::test_a_run_with_a_key_keeps_it_and_its_game"
    "s_when_a_sandboxed_bot_joins": 10,
    "tests/tournament/test_stopping.py": 8,
    "tests/tournament/test_crafted_runs.py": 14,
    "tests/test_author_loop.py::test_the_authors_loop": 13,
    "tests/tournament/update/test_reconcile.py::test_any_sequence_of_changes_leaves_the_rec"
    "ords_of_one_fresh_run": 8,
    "tests/ratings/test_comparison.py::test_without_the_code_a_bot_that_moved_is_left_out_o"
    "f_the_reference": 11,
    "tests/sandbox/test_sight.py::test_arena_run_its_config_check_and_replay_keep_the_run_a"
    "nd_the_others_out_of_view": 11,
    "tests/web/test_table_page.py::test_a_click_that_is_no_legal_move_says_why_in_words": 11,
    "tests/ratings/test_calibration.py::test_a_four_seat_pool_in_every_seat_order_converges": 10,
    "tests/tournament/update/test_identity.py::test_deals_like_copies_the_key_of_a_sandboxe"
    "d_run": 10,
    "tests/league/test_reports.py": 12,
    "tests/test_docs_examples.py": 10,
    "tests/tournament/test_duel.py::test_a_duel_of_sandboxed_bots_deals_every_chunk_with_it"
    "s_key": 10,
    "tests/tournament/playing/test_ray_backend.py": 9,
    "tests/bots/paved_with_gold/test_paved_search.py::test_whole_games_without_faults[2-": 6,
    "tests/sandbox/test_stand_in.py::test_a_bot_s_threads_are_paused_while_another_bot_thinks": 9,
    "tests/sandbox/test_promises.py::test_arena_doctor_prints_every_promise": 8,
    "tests/sandbox/test_stand_in.py::test_a_killed_runner_leaves_no_bot_processes": 8,
    "tests/test_cli_hostile_output.py::test_a_run_stores_a_bot_s_words_escaped": 8,
    "tests/luck/test_concentration.py": 7,
    "tests/web/test_replay_page.py::test_the_replay_page_plays_the_game_to_its_recorded_end"
    "[dig-standard]": 7,
    "tests/games/test_cribbage_square.py::test_every_legal_placement_keeps_the_square_possi"
    "ble_and_no_other_is_refused": 7,
    "tests/web/test_replay_page.py::test_the_narration_is_the_whole_game_so_far_and_a_line_"
    "takes_you_to_its_step": 7,
}
"""Seconds (wall, measured on a loaded machine: they count only as weights) of the longest
units of work, a module that shares a fixture or one test (every case of a parametrized test,
or those whose node id starts so): handed out first, so that none is left to run alone at the
end. From each test's wall time in a run of the default suite in this checkout (load average
about 8, from other work); a unit not named here goes after them, in collection order."""


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


def pytest_configure(config: pytest.Config) -> None:
    """Compile the suite's modules once, before the test processes start (tests/bytecode.py)."""
    compile_once(config)


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
