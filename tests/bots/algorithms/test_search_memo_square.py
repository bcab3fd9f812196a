"""`search` in Memorandum and Cribbage Square: its playout policies, and play that follows from
what it knows."""

from __future__ import annotations

import random

from arena.engine import find_game
from arena.games.cribbage_square import SquareState
from arena.games.memorandum import HandDealt, Say
from arena.loader import resolve_bot
from arena.match import play_game
from bots.cribbage_square.search import square_static_greedy
from bots.memorandum.heuristic import ElephantBot


class Recorder(ElephantBot):
    """`elephant`, with every hand it was shown kept."""

    def start(self, info: object) -> None:  # type: ignore[override]
        """Start with no hands seen."""
        super().start(info)  # type: ignore[arg-type]
        self.hands: list[frozenset[object]] = []


def test_search_claims_exactly_its_own_cards_against_perfect_memories() -> None:
    # Against players who claim only their own cards, a claim of another card can only give
    # its owner a dispute, so the best play is to claim exactly the cards of the hand; it
    # takes the seat's hand (from the sampler) and the joint move of all players to find it.
    variant = find_game("memorandum").variant("six-jokers", {"hand": "4"})
    search = resolve_bot("search:samples=6", "memorandum").make()
    claims: list[tuple[object, bool, bool]] = []
    act = search.act

    def watched(obs):  # type: ignore[no-untyped-def]
        for event in obs.events:
            if isinstance(event, HandDealt):
                watched.hand = set(event.cards)  # type: ignore[attr-defined]
        answer = act(obs)
        if obs.view.called is not None:
            claims.append((obs.view.called, answer == Say.MINE,
                           obs.view.called in watched.hand))  # type: ignore[attr-defined]
        return answer

    search.act = watched  # type: ignore[method-assign]
    record = play_game(variant, [ElephantBot(), search, ElephantBot()],
                       ["elephant", "search", "elephant"], 3)
    assert record.faults == ()
    assert len(claims) >= 100
    assert all(said == held for _, said, held in claims)


def test_square_playouts_lay_where_the_lines_gain() -> None:
    # 5H laid beside 5D (the first card) makes a pair in the row: the policy takes a place
    # in its row or column rather than a corner that shares no line with it.
    params = find_game("cribbage-square").variant().params
    from arena.games.cribbage_square import stack_pack

    state = SquareState(params, 1, random.Random(0), stack_pack("5D 5H"))  # type: ignore[arg-type]
    place = square_static_greedy(state, 0, random.Random(0))
    assert place[0] == 0 or place[1] == 0
