"""Searching for high-scoring Cribbage Square layouts (`arena solve`): simulated annealing.

This is a heuristic: it finds good layouts quickly but proves nothing. The best known score is
172 (the source credits it to W. F. Quine); the search often ends a little below it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from arena.cards import Card, standard_deck
from arena.games.cribbage_square.scoring import SIDE, layout_points

CELLS = SIDE * SIDE
STARTER = CELLS  # index of the starter in a candidate


@dataclass(frozen=True, slots=True)
class Solution:
    """A layout found, its starter and its total."""

    rows: tuple[tuple[Card, ...], ...]
    starter: Card
    score: int


def _rows(cards: list[Card]) -> list[list[Card]]:
    return [cards[r * SIDE:(r + 1) * SIDE] for r in range(SIDE)]


def _score(cards: list[Card]) -> int:
    return layout_points(_rows(cards), cards[STARTER])


def solve(seconds: float = 3.0, seed: int = 0, starter: Card | None = None,
          max_steps: int | None = None) -> Solution:
    """The best layout found by annealing for about `seconds` (or `max_steps` steps, which
    makes the result depend on `seed` alone); `starter` fixes the seventeenth card."""
    rng = random.Random(f"solve:{seed}")
    pack = standard_deck()
    if starter is not None:
        pack.remove(starter)
    deadline = time.perf_counter() + seconds
    best: list[Card] | None = None
    best_score = -1
    steps = 0
    while best is None or (max_steps is None and time.perf_counter() < deadline) or (
            max_steps is not None and steps < max_steps):
        cards, used = _fresh(rng, pack, starter)
        score = _score(cards)
        rounds = 20_000
        for i in range(rounds):
            steps += 1
            heat = 8.0 * (1 - i / rounds) + 0.2
            undo = _step(rng, cards, used, pack, starter is not None)
            new = _score(cards)
            if new >= score or rng.random() < math.exp((new - score) / heat):
                score = new
                if score > best_score:
                    best, best_score = list(cards), score
            else:
                undo()
            if max_steps is not None and steps >= max_steps:
                break
            if max_steps is None and i % 512 == 0 and time.perf_counter() > deadline:
                break
    assert best is not None
    return Solution(tuple(tuple(row) for row in _rows(best)), best[STARTER], best_score)


def _fresh(rng: random.Random, pack: list[Card],
           starter: Card | None) -> tuple[list[Card], set[Card]]:
    cards = rng.sample(pack, CELLS if starter is not None else CELLS + 1)
    if starter is not None:
        cards.append(starter)
    return cards, set(cards)


def _step(rng: random.Random, cards: list[Card], used: set[Card], pack: list[Card],
          fixed_starter: bool) -> Callable[[], None]:
    """Change the candidate in place: swap two places, or put an unused card in one; returns
    a function undoing it."""
    last = CELLS if fixed_starter else CELLS + 1
    if rng.random() < 0.5:
        i, j = rng.sample(range(last), 2)
        cards[i], cards[j] = cards[j], cards[i]

        def unswap() -> None:
            cards[i], cards[j] = cards[j], cards[i]
        return unswap
    i = rng.randrange(last)
    old = cards[i]
    new = pack[rng.randrange(len(pack))]
    while new in used:
        new = pack[rng.randrange(len(pack))]
    cards[i] = new
    used.discard(old)
    used.add(new)

    def unreplace() -> None:
        cards[i] = old
        used.discard(new)
        used.add(old)
    return unreplace
