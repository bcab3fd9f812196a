"""Conformance of every registered game and preset: random playouts obey the rules protocol."""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
import math
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from arena.api import Event, Reveal
from arena.cards import Card, parse_card
from arena.engine import Game, State, Variant, all_games
from arena.match import deal_rng, play_game
from bots.algorithms.random_bot import RandomBot
from bots.concentration.forgetful import ForgetfulBot
from bots.concentration.greedy import GreedyBot
from tests.helpers import LARGER_LAYOUTS, slow_unless

MAX_PLAYERS = 4
SEEDS = (0, 1)
MAX_STEPS = 200_000


def _cases() -> Iterator[tuple[Game, str, int]]:
    for game in all_games():
        for preset, params in game.presets.items():
            allowed = params.players_allowed()
            most = max(allowed.start, MAX_PLAYERS)  # games for many players: their fewest
            for players in range(allowed.start, min(allowed.stop, most + 1)):
                yield game, preset, players


def _case(game: Game, preset: str, players: int) -> Any:
    """A case; in the default run only if it is the game's first preset (every player count) or
    the fewest players of another preset, so that every preset and every player count is played
    there: the whole product is slow (`pytest -m slow`)."""
    first = next(iter(game.presets)) == preset
    fewest = game.presets[preset].players_allowed().start == players
    marks = () if first or fewest else (pytest.mark.slow,)
    return pytest.param(game, preset, players, id=f"{game.name}-{preset}-{players}p", marks=marks)


CASES = [_case(g, p, n) for g, p, n in _cases()]


def _playouts(case: Any) -> Iterator[Any]:
    """A case's random playouts, one per seed of SEEDS: a game's first preset plays every seed in
    the default run, any other preset its first seed (the others are slow)."""
    game, preset, players = case.values
    first = next(iter(game.presets)) == preset
    for i, seed in enumerate(SEEDS):
        marks = case.marks if first or i == 0 else (pytest.mark.slow,)
        yield pytest.param(game, preset, players, seed, marks=marks, id=f"{case.id}-{seed}")


PLAYOUTS = [playout for case in CASES for playout in _playouts(case)]
PRESETS = [slow_unless((g.name, p) not in LARGER_LAYOUTS, g, p, id=f"{g.name}-{p}")
           for g in all_games() for p in g.presets]
"""Every preset of every game; those that play another preset's rules on a larger layout
(LARGER_LAYOUTS) under slow."""


ATOMS = (str, bytes, int, float, bool, range, enum.Enum, type(None))
_atom_types: set[type] = {int, str, type(None)}  # grows with the atomic types met (fast path)


def cards_in(value: Any) -> list[Card]:
    """Every Card inside a value, searched through containers and dataclasses."""
    found: list[Card] = []
    todo = [value]
    atoms = _atom_types
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind in atoms:
            continue
        if isinstance(item, Card):
            found.append(item)
        elif isinstance(item, ATOMS):
            atoms.add(kind)
        elif isinstance(item, tuple | list | set | frozenset):
            todo.extend(x for x in item if type(x) not in atoms)
        elif isinstance(item, Mapping):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        else:
            raise AssertionError(f"an observation holds a {type(item).__name__}; teach the scan")
    return found


def test_the_card_scan_finds_nested_cards() -> None:
    @dataclasses.dataclass(frozen=True)
    class Inner:
        cards: tuple[Any, ...]

    ace, king = parse_card("AS"), parse_card("KH")
    found = cards_in({"x": (Inner((ace, 3, None)),), "y": [frozenset({king})], king: 1})
    assert sorted(map(str, found)) == ["AS", "KH", "KH"]
    with pytest.raises(AssertionError):
        cards_in(object())


def _no_extra_cards(shown: Counter[str], visible: Counter[str], where: str) -> None:
    extra = shown - visible
    assert not extra, f"{where} shows cards not visible to the seat: {sorted(extra)}"


def random_playout(game: Game, variant: Variant, players: int, seed: int) -> State:
    """Play a game to its end by random legal actions, checking the protocol at every step."""
    state = game.new_state(variant.params, players, deal_rng(seed))
    inventory = state.inventory()
    start = None if inventory is None else list(inventory)
    rng = random.Random(f"conformance:{seed}")
    known: list[Counter[str]] = [Counter() for _ in range(players)]  # cards each seat was shown
    steps = 0
    while seats := state.to_act():
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        assert len(set(seats)) == len(seats) and all(0 <= s < players for s in seats)
        chosen = {}
        for seat in seats:
            legal = state.legal(seat)
            assert legal, f"seat {seat} must act but has no legal action"
            assert len(set(legal)) == len(legal), "legal actions repeat"
            visible = Counter(map(str, state.visible_cards(seat)))
            view = state.view(seat)
            _no_extra_cards(Counter(map(str, cards_in(view))), visible, "the view")
            _no_extra_cards(Counter(map(str, cards_in(legal))), visible, "the legal actions")
            chosen[seat] = legal[rng.randrange(len(legal))]
        mark = len(state.log)
        if len(seats) == 1:
            state.apply(seats[0], chosen[seats[0]])
        else:
            state.apply_joint(chosen)
        for seat in range(players):
            visible = Counter(map(str, state.visible_cards(seat)))
            for event in state.seen_by(seat, mark, len(state.log)):
                _check_event(event, seat, chosen, known[seat], visible)
    if start is not None:
        end = state.inventory()
        assert end is not None and Counter(map(str, end)) == Counter(map(str, start)), (
            "cards were lost or made: the inventory at the end differs from the deal")
    outcome = state.outcome()
    assert len(outcome.scores) == players
    json.dumps(outcome.final)
    return state


def _check_event(event: Event, seat: int, chosen: Mapping[int, Any],
                 known: Counter[str], visible: Counter[str]) -> None:
    """A card in an event is revealed by the action just taken, was revealed before, or is one
    the seat may see now.

    A seat's Reveal must be of a position that seat just chose; the table (seat None) may
    reveal cards on its own.
    """
    if isinstance(event, Reveal):
        if event.seat is not None:
            assert event.position in ints_in(chosen.get(event.seat)), (
                f"{event} reveals a position its seat did not just choose")
        known[str(event.card)] += 1
        return
    shown = Counter(map(str, cards_in(event)))
    missing = shown - known - visible
    assert not missing, f"{event} shows cards seat {seat} was never shown: {sorted(missing)}"


def ints_in(action: Any) -> set[int]:
    """Every int inside an action (a position, or positions inside tuples)."""
    if isinstance(action, int) and not isinstance(action, bool):
        return {action}
    if isinstance(action, tuple | list):
        return set().union(*(ints_in(a) for a in action)) if action else set()
    return set()


@pytest.mark.parametrize(("game", "preset", "players", "seed"), PLAYOUTS)
def test_random_playouts_obey_the_protocol(game: Game, preset: str, players: int,
                                           seed: int) -> None:
    state = random_playout(game, game.variant(preset), players, seed)
    assert state.to_act() == ()


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_same_seed_same_record(game: Game, preset: str, players: int) -> None:
    variant = game.variant(preset)
    names = [f"random{i}" for i in range(players)]
    lines = [play_game(variant, [RandomBot() for _ in range(players)], names, seed).to_line()
             for seed in (3, 3)]
    assert lines[0] == lines[1]
    record = json.loads(lines[0])
    assert record["faults"] == []  # random bots only ever play what `legal` offers
    assert sorted(record["ranks"])[0] == 1


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_luck_is_one_finite_number_a_seat_and_the_same_every_time_or_the_game_has_no_model(
        game: Game, preset: str, players: int, caplog: pytest.LogCaptureFixture) -> None:
    """Every game either has a luck model for the variant and table, whose luck is one finite
    number a seat, named by the model's id and reproduced by the same seed, or says None."""
    variant = game.variant(preset)
    model = game.luck_model(variant.params, players)
    names = [f"random{i}" for i in range(players)]
    with caplog.at_level(logging.WARNING, logger="arena.luck"):
        records = [play_game(variant, [RandomBot() for _ in range(players)], names, 5)
                   for _ in range(2)]
    assert [r.getMessage() for r in caplog.records if r.name == "arena.luck"] == []
    if model is None:
        assert records[0].luck is None and records[0].luck_model is None
        return
    luck = records[0].luck
    assert records[0].luck_model == model.id and "/" in model.id
    assert luck is not None and len(luck) == players, luck
    assert all(type(v) is float and math.isfinite(v) for v in luck), luck
    assert records[1].luck == luck and records[1].to_line() == records[0].to_line()


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_bundled_bots_play_every_preset_without_faults(game: Game, preset: str) -> None:
    variant = game.variant(preset)
    if not {"*", game.name} & set(GreedyBot.games):
        pytest.skip(f"the bundled bots do not play {game.name}")
    allowed = variant.params.players_allowed()
    tables = [[GreedyBot(), ForgetfulBot()], [ForgetfulBot(recall=0.5, capacity=4), GreedyBot()]]
    if 1 in allowed:
        tables.append([GreedyBot()])
    if 3 in allowed:
        tables.append([GreedyBot(), ForgetfulBot(), ForgetfulBot(recall=0.9, capacity=0)])
    for seed, bots in enumerate(tables):
        record = play_game(variant, bots, [type(b).__name__ for b in bots], seed)
        assert record.faults == (), record.faults
        assert record.final["end"] == "cleared", "bots that remember should clear the table"
