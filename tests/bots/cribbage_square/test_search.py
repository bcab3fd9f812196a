"""`square-pimc`: its playouts lay each card where it gains most, and its decisions follow from
the cards turned up alone (a bot whose sampler peeked at the pack would decide otherwise)."""

from __future__ import annotations

import random
from typing import Any

from arena.api import Action, GameInfo, Observation
from arena.cards import Card, parse_card, standard_deck
from arena.engine import Knowledge, find_game
from arena.games.cribbage_square import Placement, SquareState
from arena.match import bot_rng
from bots.cribbage_square.heuristic import Layout, LineValues
from bots.cribbage_square.search import SquarePimcBot, play_ahead

GAME = find_game("cribbage-square")


def test_a_playout_lays_each_card_where_it_gains_most_then() -> None:
    down = [parse_card(t) for t in ["5H", "5D"]]
    values = LineValues([c for c in standard_deck() if c not in down], deep=True)
    layout = Layout([((0, 0), down[0])])
    gained = play_ahead(layout, [down[1]], values, Placement.GRID)
    best = max(Layout([((0, 0), down[0])]).gains(
        down[1], [(r, c) for r in range(4) for c in range(4) if (r, c) != (0, 0)],
        values).values())
    assert gained == best
    assert layout.rows[0][0] == (5, 5) or layout.cols[0][0] == (5, 5)  # the pair in a line


class Peeking(SquarePimcBot):
    """`square-pimc` whose every sampled future is the real pack: the leak the tests catch."""

    truth: tuple[Card, ...] = ()

    def act(self, obs: Observation[Any]) -> Action:
        """Decide with the real order of the cards to come."""
        truth = self.truth
        self.sampler.orders = (  # type: ignore[method-assign]
            lambda knowledge, count, rng: [list(truth)] * count)
        return super().act(obs)


def position(seed: int, laid: int, swap: bool) -> SquareState:
    """A game `laid` cards in, by random places; `swap` trades the next two cards to come."""
    rng = random.Random(seed)
    pack = standard_deck()
    random.Random(f"pack:{seed}").shuffle(pack)
    state = SquareState(GAME.variant().params, 1, random.Random(0), pack)  # type: ignore[arg-type]
    for _ in range(laid):
        state.apply(0, rng.choice(state.legal(0)))
    if swap:
        at = state.next
        state.pack[at], state.pack[at + 1] = state.pack[at + 1], state.pack[at]
    return state


def decide(bot: SquarePimcBot, state: SquareState) -> Action:
    """What the bot lays at seat 0, having been shown the game so far."""
    bot.start(GameInfo(GAME.name, "standard", {}, 0, 1, bot_rng(0, 0)))
    if isinstance(bot, Peeking):
        bot.truth = tuple(state.pack[state.next:])
    knowledge = Knowledge(GAME.variant().params, 1, 0, state.seen_by(0, 0, len(state.log)),
                          state.view(0))
    return bot.act(Observation(0, state.legal(0), knowledge.events, state.view(0)))


def differs(make: type[SquarePimcBot]) -> int:
    """On how many of 24 positions the bot decides otherwise when the cards to come change."""
    count = 0
    for seed in range(8):
        for laid in (2, 6, 10):
            one, other = position(seed, laid, False), position(seed, laid, True)
            assert one.view(0) == other.view(0)
            count += decide(make(samples=8, horizon=2), one) != \
                decide(make(samples=8, horizon=2), other)
    return count


def test_its_decisions_follow_from_the_cards_turned_up_alone() -> None:
    assert differs(SquarePimcBot) == 0
    assert differs(Peeking) > 0
