"""Rewards at the end of a game: rank-based by default, or the score margin."""

from __future__ import annotations

from collections.abc import Sequence


def rewards_of(scores: Sequence[float], higher_wins: bool, mode: str = "rank") -> list[float]:
    """Each seat's reward for final `scores`.

    `rank`: the seats it beat less the seats that beat it, over the other seats (1 for first
    alone, -1 for last alone, 0 for a tie at two; 0 in solitaire). `margin`: its score less the
    mean of the others' (sign turned when lower scores win; the score itself in solitaire)."""
    sign = 1.0 if higher_wins else -1.0
    n = len(scores)
    if mode == "margin":
        if n == 1:
            return [sign * float(scores[0])]
        total = sum(scores)
        return [sign * (s - (total - s) / (n - 1)) for s in scores]
    if n == 1:
        return [0.0]
    out = []
    for s in scores:
        beat = sum(1 for o in scores if sign * s > sign * o)
        lost = sum(1 for o in scores if sign * s < sign * o)
        out.append((beat - lost) / (n - 1))
    return out
