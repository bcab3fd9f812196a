"""The helper of `bot.py`: which position to turn up."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from arena.games.concentration import MatchRule, cards_match


def choose(cards: Mapping[int, Any], face_up: Sequence[Any], legal: Sequence[int],
           rule: MatchRule, rng: random.Random) -> int:
    """The mate of a card face up, else the first of a remembered pair, else a card not seen."""
    remembered = {p: c for p, c in cards.items() if p in legal}
    for pos, card in remembered.items():
        if face_up and cards_match(card, face_up[0], rule):
            return pos
        if not face_up and any(cards_match(card, other, rule)
                               for q, other in remembered.items() if q != pos):
            return pos
    unseen = [p for p in legal if p not in remembered]
    return rng.choice(unseen or list(legal))
