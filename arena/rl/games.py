"""The encodings of each game (docs/rl.md has a table per game); importing registers them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from arena.cards import Rank, Suit, standard_deck
from arena.engine import Params, PlainAction, Variant
from arena.errors import ArenaError
from arena.rl.encoding import Encoder, Layout, relative

PACK52 = standard_deck()

ENCODERS: dict[str, Callable[[Params, int], Encoder]] = {}
"""The encoder of each encoded game, by game name."""


class NoEncodingError(ArenaError):
    """A game that has no encoding as an environment yet."""


def encoder_for(variant: Variant, players: int) -> Encoder:
    """The encoder of a game variant at a table size; NoEncodingError naming the encoded games."""
    make = ENCODERS.get(variant.game.name)
    if make is None:
        raise NoEncodingError(f"no encoding for {variant.game.name!r} yet "
                              f"(encoded: {', '.join(sorted(ENCODERS))})")
    return make(variant.params, players)


class DigEncoder(Encoder):
    """Dig: play a card, or name a suit (or rank) after an eight."""

    game = "dig"
    table_module = "arena.games.dig.table"

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """52 plays in pack order, the 4 suits, then (naming suit or rank) the 12 ranks."""
        from arena.games.dig import Naming

        yield from (("play", str(card)) for card in PACK52)
        yield from (("name", suit.value) for suit in Suit)
        if getattr(self.params, "naming", None) is Naming.SUIT_OR_RANK:
            ranks = [r for r in Rank if r not in (Rank.JOKER, Rank.EIGHT)]
            yield from (("name", rank.code) for rank in ranks)

    def lay_out(self, layout: Layout) -> None:
        """Hand, top card, what is asked, counts, phase, turn."""
        turns = float(getattr(self.params, "max_turns", 300))
        layout.cards("hand", "your hand")
        layout.cards("top", "the card on top of the pile")
        layout.add("suit", 4, "onehot", 1, "the suit asked (none after a rank was named)")
        layout.add("rank", 13, "onehot", 1, "the rank asked, ace to king (none after a suit "
                   "was named)")
        layout.add("hands", 2, "scalar", 52, "cards in each hand: yours, then the opponent's")
        layout.add("stock", 1, "scalar", 52, "cards left in the stock")
        layout.add("pile", 1, "scalar", 52, "cards in the pile")
        layout.add("naming", 1, "scalar", 1, "1 when you must name (you just played an eight)")
        layout.add("turn", 1, "scalar", turns, "turns played")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `DigView`."""
        lay = self.layout
        lay.put_cards(vec, "hand", view.hand)
        lay.put_cards(vec, "top", [view.top])
        lay.put_onehot(vec, "suit", None if view.suit is None else list(Suit).index(view.suit))
        lay.put_onehot(vec, "rank", None if view.rank is None else view.rank.value - 1)
        lay.put(vec, "hands", relative(view.hands, seat))
        lay.put(vec, "stock", view.stock)
        lay.put(vec, "pile", view.pile)
        lay.put(vec, "naming", float(view.phase.value == "name"))
        lay.put(vec, "turn", view.turn)


class BundleEncoder(Encoder):
    """Stealing the Old Man's Bundle: take in, steal or trail a card from hand."""

    game = "old-mans-bundle"
    table_module = "arena.games.old_mans_bundle.table"

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """Per card in pack order: steal, take (single-take: one per table card of its rank,
        in pack order), trail."""
        from arena.games.old_mans_bundle.variants import TakeRule

        one = getattr(self.params, "take", None) is TakeRule.ONE
        for card in PACK52:
            yield ("steal", str(card))
            if one:
                yield from (("take", str(card), str(other)) for other in PACK52
                            if other.rank is card.rank and other != card)
            else:
                yield ("take", str(card))
            yield ("trail", str(card))

    def lay_out(self, layout: Layout) -> None:
        """Hand, table, bundle tops and sizes, counts, round, turn."""
        layout.cards("hand", "your hand")
        layout.cards("table", "the face-up table cards")
        layout.cards("my_top", "the card on top of your bundle")
        layout.cards("their_top", "the card on top of the opponent's bundle")
        layout.add("bundles", 2, "scalar", 52, "cards in each bundle: yours, then the opponent's")
        layout.add("hands", 2, "scalar", 4, "cards in each hand: yours, then the opponent's")
        layout.add("stock", 1, "scalar", 52, "cards still to deal")
        layout.add("round", 1, "scalar", 6, "the round of the deal (1 to 6)")
        layout.add("turn", 1, "scalar", 48, "turns played")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `BundleView`."""
        lay = self.layout
        tops = relative(view.tops, seat)
        lay.put_cards(vec, "hand", view.hand)
        lay.put_cards(vec, "table", view.table)
        lay.put_cards(vec, "my_top", [tops[0]])
        lay.put_cards(vec, "their_top", [tops[1]])
        lay.put(vec, "bundles", relative(view.bundles, seat))
        lay.put(vec, "hands", relative(view.hands, seat))
        lay.put(vec, "stock", view.stock)
        lay.put(vec, "round", view.round)
        lay.put(vec, "turn", view.turn)


def _register(*encoders: type[Encoder]) -> None:
    for encoder in encoders:
        ENCODERS[encoder.game] = _maker(encoder)


def _maker(encoder: type[Encoder]) -> Any:
    def make(params: Params, players: int) -> Encoder:
        return encoder(params, players)
    return make


_register(DigEncoder, BundleEncoder)
