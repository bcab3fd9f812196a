"""Every game's actions have plain forms (what crosses the sandbox), one per legal action, and a
bot that answers with plain forms plays exactly as one that answers with the objects."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.api import Action, Bot, Observation
from arena.engine import Game, Variant, all_games, plain_action
from arena.match import deal_rng, play_game

PRESETS = [pytest.param(game, preset, id=f"{game.name}-{preset}")
           for game in all_games() for preset in game.presets]


class PlainRandom(Bot):
    """Plays a uniformly random legal action, answering with its plain form."""

    def act(self, obs: Observation[Any]) -> Action:
        """Pick any legal action; answer with its plain form."""
        return plain_action(obs.legal[self.rng.randrange(len(obs.legal))])


class ObjectRandom(Bot):
    """Plays the same random legal actions, answering with the objects themselves."""

    def act(self, obs: Observation[Any]) -> Action:
        """Pick any legal action."""
        return obs.legal[self.rng.randrange(len(obs.legal))]


def table_size(variant: Variant) -> int:
    """The smallest table of the variant, of two seats at least where two may play."""
    allowed = variant.params.players_allowed()
    return max(allowed.start, 2) if allowed.stop > 2 else allowed.start


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_every_legal_action_has_its_own_plain_form(game: Game, preset: str) -> None:
    variant = game.variant(preset)
    players = table_size(variant)
    state = game.new_state(variant.params, players, deal_rng(5))
    pick = random.Random(5)
    checked = 0
    while (seats := state.to_act()) and checked < 400:
        chosen = {}
        for seat in seats:
            legal = state.legal(seat)
            forms = [plain_action(action) for action in legal]
            assert len(set(forms)) == len(set(legal)), (legal, forms)
            chosen[seat] = legal[pick.randrange(len(legal))]
            checked += 1
        if len(seats) == 1:
            state.apply(seats[0], chosen[seats[0]])
        else:
            state.apply_joint(chosen)
    assert checked > 0


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_answering_with_plain_forms_plays_the_same_game(game: Game, preset: str) -> None:
    variant = game.variant(preset)
    names = ["random"] * table_size(variant)
    for seed in (1, 2):  # the luck is no part of what the forms change: left out
        objects = play_game(variant, [ObjectRandom() for _ in names], names, seed, luck=False)
        plain = play_game(variant, [PlainRandom() for _ in names], names, seed, luck=False)
        assert not plain.faults
        assert plain.to_json() == objects.to_json()
