"""Stacked decks and scripted play: positions built on purpose, for tests and for bot authors.

`stacked_state({0: "7H", 10: "8S"})` deals a game with those cards at those places;
`play(state, *actions)` plays legal actions in order; `played_down(["2C", "7D"])` reaches the end
of a game with exactly those cards left in the square and the stock empty.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from arena.api import Action, Event
from arena.cards import Card, parse_card, standard_deck
from arena.games.paved_with_gold import actions
from arena.games.paved_with_gold.combos import Combo
from arena.games.paved_with_gold.state import PavedState
from arena.games.paved_with_gold.table import Phase
from arena.games.paved_with_gold.variants import PRESETS, SQUARE, PavedParams


def stack_deck(square: Mapping[int, str] | Sequence[str] = (),
               stock: Sequence[str] = ()) -> list[Card]:
    """A whole pack in deal order: these cards at these places (a list: places 0, 1, ...), the
    stock drawing `stock` first; every other card in pack order, square places first."""
    where = dict(square) if isinstance(square, Mapping) else dict(enumerate(square))
    pool = standard_deck()
    for text in [*where.values(), *stock]:
        pool.remove(parse_card(text))  # ValueError for a card named twice
    rest = iter(pool)
    layout = [parse_card(where[p]) if p in where else next(rest) for p in range(SQUARE)]
    return layout + [parse_card(t) for t in stock] + list(rest)


def stacked_state(square: Mapping[int, str] | Sequence[str] = (), stock: Sequence[str] = (),
                  players: int = 2, params: PavedParams = PRESETS["standard"]) -> PavedState:
    """A new game on a stacked deck (see `stack_deck`)."""
    return PavedState(params, players, random.Random(0), deck=stack_deck(square, stock))


def play(state: PavedState, *moves: Action) -> list[Event]:
    """Play these actions in order, each by the seat to act; the events they logged.

    Raises ValueError for an action that is not legal at that point.
    """
    mark = len(state.log)
    for move in moves:
        (seat,) = state.to_act()
        if move not in state.legal(seat):
            raise ValueError(f"{move!r} is not legal for seat {seat} now")
        state.apply(seat, move)
    return state.log[mark:]


def claim_moves(combo: Combo, held: Sequence[int], turned: Sequence[int]) -> list[Action]:
    """The actions that pick up `held` (none: announce a pair), claim `combo` and turn up
    `turned`."""
    looks = [actions.look(p) for p in held]
    return [*looks, actions.claim(combo, tuple(held)), *(actions.turn_up(p) for p in turned)]


_BY_SIZE = {5: Combo.FIVE_OF_A_COLOUR, 4: Combo.PRIME, 3: Combo.FLUSH, 2: Combo.PAIR}


def played_down(left: Sequence[str], players: int = 2,
                params: PavedParams = PRESETS["standard"]) -> PavedState:
    """A game played down until the stock is empty and the square holds exactly `left`, at its
    last places; the seat to act is at the start of a turn.

    The other cards go by claims of five (or fewer, at the end) at the lowest places, right or
    false; a false claim's cards go to the first opponent offered.
    """
    k = len(left)
    state = stacked_state({SQUARE - k + i: text for i, text in enumerate(left)},
                          players=players, params=params)
    low = range(SQUARE - k)
    while remaining := sum(state.square[p] is not None for p in low) + len(state.stock):
        size = 3 if remaining == 6 else min(5, remaining)  # never leave a single card
        places = [p for p in low if state.square[p] is not None][:size]
        play(state, *claim_moves(_BY_SIZE[size], places[:1], places[1:]))
        if state.phase is Phase.BONUS_TO:
            play(state, state.legal(state.seat)[0])
    return state
