"""Dig's value function for its luck model: the expected final margin of the seat to play
next, a closed form in the counts of a state, its weights fitted once, offline.

The counts are those a dig changes: the cards in each hand, the eights in each, and the cards
left in the stock. The form (`features`) lets a card in hand weigh more or less as the stock
runs down, a last card or two weigh more than the rest, and an eight be worth more in a small
hand; the weights (`MARGIN`) are least squares of the final margin on these features over
every turn of games of bundled bots on deals no verdict judges (`python
scripts/dig_luck_margin.py` prints them). A new form or new weights make a new version of the
luck model.
"""

from __future__ import annotations

from dataclasses import dataclass

STOCK = 37
"""The stock as dealt (52 cards less two hands of seven and the upcard)."""

FEATURES = ("one", "lead", "eights", "lead by stock", "stock", "1 / mine", "1 / theirs",
            "no stock", "lead, no stock", "eights / mine", "their eights / theirs")
"""What each weight multiplies (see `features`)."""


def features(mine: int, theirs: int, eights_mine: float, eights_theirs: float,
             stock: int) -> tuple[float, ...]:
    """The terms of the closed form for the seat to play, holding `mine` cards (`eights_mine`
    eights) against `theirs` (`eights_theirs`), with `stock` cards left to dig."""
    lead = theirs - mine
    share = stock / STOCK
    empty = 1.0 if stock == 0 else 0.0
    mine, theirs = max(mine, 1), max(theirs, 1)
    return (1.0, lead, eights_mine - eights_theirs, lead * share, share, 1 / mine, 1 / theirs,
            empty, lead * empty, eights_mine / mine, eights_theirs / theirs)


@dataclass(frozen=True)
class Margin:
    """The expected final margin, cards left to the other less one's own, of the seat to play:
    a weighted sum of `features`."""

    weights: tuple[float, ...]

    def __call__(self, mine: int, theirs: int, eights_mine: float, eights_theirs: float,
                 stock: int) -> float:
        """The margin the seat to play can expect (see `features` for the counts)."""
        terms = features(mine, theirs, eights_mine, eights_theirs, stock)
        return sum(w * t for w, t in zip(self.weights, terms, strict=True))


MARGIN = Margin((0.0938, 0.5158, 2.7521, -0.1267, -0.1107, 4.4544, -2.5875, -0.0397, -0.0420,
                  2.4847, -4.9775))
"""The shipped weights (`python scripts/dig_luck_margin.py`)."""
