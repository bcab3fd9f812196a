"""`paved-search`: `assayer` whose start of a turn is searched. Its decisions follow from what
its seat knows alone, it plays as `assayer` when no claim clears the margin, it replays exactly,
and it plays whole games at two and three seats without faults."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Iterable
from typing import Any

import pytest

from arena.api import Action, GameInfo, Observation
from arena.cards import parse_card
from arena.engine import Knowledge, find_game
from arena.games.paved_with_gold import Combo, PavedState, Phase, actions
from arena.games.paved_with_gold.sampler import PavedBelief
from arena.games.paved_with_gold.scenarios import play as do
from arena.games.paved_with_gold.scenarios import stacked_state as deal
from arena.loader import resolve_bot
from arena.match import play_game
from arena.session import play_series
from bots.paved_with_gold.assayer import AssayerBot
from bots.paved_with_gold.search import PavedSearchBot

GAME = find_game("paved-with-gold")
VARIANT = GAME.variant("standard")


def started(bot: AssayerBot, seat: int, players: int = 2) -> AssayerBot:
    """`bot` started in `seat`."""
    bot.start(GameInfo(GAME.name, "standard", VARIANT.params_view, seat, players,
                       random.Random(f"test:{seat}")))
    return bot


@functools.cache
def positions(seed: int, turns: int) -> tuple[PavedState, ...]:
    """Copies of a game of two `assayer`s at each decision of seat 0 that `paved-search`
    searches: the start of a turn where a sure claim other than the one it plans could be made,
    and cards held where a claim one card short could (made once: the tests only read them)."""
    state = PavedState(VARIANT.params, 2, random.Random(seed))
    bots = [started(AssayerBot(), s) for s in range(2)]
    told = [0, 0]
    out = []
    while state.to_act() and state.turns < turns:
        (seat,) = state.to_act()
        events = state.seen_by(seat, told[seat], len(state.log))
        told[seat] = len(state.log)
        if seat == 0 and state.phase in (Phase.LOOK, Phase.HOLD):
            probe = started(PavedSearchBot(samples=1), 0)
            probe.act(Observation(0, state.legal(0), state.seen_by(0, 0, len(state.log)),
                                  state.view(0)))
            search = probe.claims if state.phase is Phase.LOOK else probe.one_short
            if search(state.view(0)):
                out.append(copy.deepcopy(state))
        state.apply(seat, bots[seat].act(Observation(seat, state.legal(seat), events,
                                                     state.view(seat))))
    return tuple(out)


def hidden_swapped(state: PavedState) -> PavedState | None:
    """`state` with a card seat 0 does not know traded with the top of the stock (or with
    another it does not know); None if there is nothing to trade."""
    twin = copy.deepcopy(state)
    knowledge = Knowledge(VARIANT.params, 2, 0, state.seen_by(0, 0, len(state.log)),
                          state.view(0))
    known = PavedBelief(knowledge).cards
    unknown = [p for p, c in enumerate(twin.square) if c is not None and p not in known]
    if twin.stock and unknown:
        p = unknown[0]
        twin.square[p], twin.stock[0] = twin.stock[0], twin.square[p]
    elif len(unknown) > 1:
        p, q = unknown[:2]
        twin.square[p], twin.square[q] = twin.square[q], twin.square[p]
    else:
        return None
    assert twin.view(0) == state.view(0)
    assert twin.seen_by(0, 0, len(twin.log)) == state.seen_by(0, 0, len(state.log))
    return twin


class Peeking(PavedSearchBot):
    """`paved-search` whose every sample is the real deal: the leak the test must catch."""

    truth: Any = None

    def start(self, info: GameInfo) -> None:
        """Start, then sample the truth."""
        super().start(info)
        self.sampler.sample = (  # type: ignore[method-assign]
            lambda knowledge, count, rng: [self._as_sample() for _ in range(count)])

    def _as_sample(self) -> Any:
        """The real state, dressed as a sample (its rng and every seat's known places)."""
        real = self.truth
        knowledge = Knowledge(VARIANT.params, 2, 0, real.seen_by(0, 0, len(real.log)),
                              real.view(0))
        sample: Any = PavedSearchBot().sampler.sample(knowledge, 1, random.Random(0))[0]
        sample.square = list(real.square)
        sample.stock = list(real.stock)
        return sample


def decide(bot: PavedSearchBot, state: PavedState) -> Action:
    """What the bot does at seat 0, shown the whole game so far."""
    started(bot, 0)
    if isinstance(bot, Peeking):
        bot.truth = state
    return bot.act(Observation(0, state.legal(0), state.seen_by(0, 0, len(state.log)),
                               state.view(0)))


def differs(make: type[PavedSearchBot], seeds: Iterable[int], first: bool = False) -> int:
    """On how many searched positions of the games of `seeds` the bot decides otherwise when a
    hidden card moves (with `first`, 1 at the first such position, else 0)."""
    count = 0
    for seed in seeds:
        for state in positions(seed, 60):
            twin = hidden_swapped(state)
            if twin is not None:
                count += decide(make(samples=4), state) != decide(make(samples=4), twin)
                if first and count:
                    return count
    return count


@pytest.mark.parametrize("seeds", [
    # the game where a bot that peeks decides otherwise most often (11 of its 60 positions)
    pytest.param((2,), id="one-game"),
    pytest.param(range(3), id="three-games", marks=pytest.mark.slow)])
def test_its_decisions_follow_from_what_its_seat_knows_alone(seeds: Iterable[int]) -> None:
    assert differs(PavedSearchBot, seeds) == 0
    # the control: the same positions tell a bot that peeks (one position is proof enough)
    assert differs(Peeking, seeds, first=True) > 0


@pytest.mark.parametrize("seed", [7, pytest.param(8, marks=pytest.mark.slow)])
def test_it_plays_as_assayer_when_no_claim_clears_the_margin(seed: int) -> None:
    records = [play_game(VARIANT, [bot, resolve_bot("prospector", GAME.name).make()],
                         ["bot", "prospector"], seed).to_line()
               for bot in (PavedSearchBot(samples=4, margin=1e9), AssayerBot())]
    assert records[0] == records[1]


def test_bad_parameters_are_refused() -> None:
    for bad in ({"samples": 0}, {"margin": -1.0}, {"chance": -0.1}, {"budget": -1.0}):
        with pytest.raises(ValueError, match="samples"):
            PavedSearchBot(**bad)  # type: ignore[arg-type]


def test_it_replays_exactly() -> None:
    lines = [play_game(VARIANT, [PavedSearchBot(samples=4), AssayerBot()], ["s", "a"],
                       3).to_line() for _ in range(2)]
    assert lines[0] == lines[1]


@pytest.mark.parametrize(("players", "deals"), [
    (2, 1), (3, 1), pytest.param(2, 3, marks=pytest.mark.slow),
    pytest.param(3, 3, marks=pytest.mark.slow)])
def test_whole_games_without_faults(players: int, deals: int) -> None:
    """A deal in every seat order (more deals in the slow run)."""
    bots = [resolve_bot("paved-search:samples=4", GAME.name),
            *[resolve_bot("prospector", GAME.name)] * (players - 1)]
    for game in play_series(VARIANT, bots, 11, deals, rotate=True):
        assert not game.record.faults, game.record.faults


def test_holding_a_card_it_finds_the_claims_one_card_short() -> None:
    # 2H in hand, 5D 9H JD known: five reds lack one red (22 of the 48 cards unaccounted for),
    # a flush of hearts one heart (11 of 48); a prime lacks two cards, a pair 3 twos in 48
    state = deal({0: "2H", 1: "5D", 2: "9H", 3: "JD"})
    bot = started(PavedSearchBot(samples=2), 0)
    for p, text in {1: "5D", 2: "9H", 3: "JD"}.items():
        bot.memory.remember(p, parse_card(text))
    do(state, actions.look(0))
    bot.act(Observation(0, state.legal(0), state.seen_by(0, 0, len(state.log)), state.view(0)))
    plans = dict(bot.one_short(state.view(0)))
    assert set(plans) == {Combo.FIVE_OF_A_COLOUR, Combo.FLUSH}
    five, flush = plans[Combo.FIVE_OF_A_COLOUR], plans[Combo.FLUSH]
    assert five[:4] == (0, 1, 2, 3) and five[4] > 3
    assert flush[:2] == (0, 2) and flush[2] > 3
    bot.chance = 0.3
    assert set(dict(bot.one_short(state.view(0)))) == {Combo.FIVE_OF_A_COLOUR}
