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


def seat_cards(layout: Layout, name: str, players: int, meaning: str, high: float = 1.0) -> None:
    """One card feature per seat, `name_0` (yours) to `name_{players-1}`, turned to the seat."""
    for i in range(players):
        layout.cards(f"{name}_{i}", f"{meaning} of seat +{i}" if i else f"{meaning}: yours",
                     high)


def put_seat_cards(layout: Layout, vec: np.ndarray, name: str, by_seat: Any, seat: int) -> None:
    """Write per-seat cards (by seat number) into the features of `seat_cards`, turned."""
    for i, cards in enumerate(relative(list(by_seat), seat)):
        layout.put_cards(vec, f"{name}_{i}", cards)


class MemorandumEncoder(Encoder):
    """Memorandum: the dealer deals; every player says "Mine!" or passes at each call."""

    game = "memorandum"
    table_module = "arena.games.memorandum.table"

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """`deal`, `mine`, `pass`."""
        return ("deal", "mine", "pass")

    def lay_out(self, layout: Layout) -> None:
        """The called card, the received cards by seat, the piles, the deal, the totals."""
        n = self.players
        pack = float(self.params.pack_size)  # type: ignore[attr-defined]
        layout.cards("called", "the card waiting for claims")
        seat_cards(layout, "received", n, "the cards handed out this deal")
        layout.cards("unclaimed", "the unclaimed pile")
        layout.cards("disputed", "the dispute pile")
        layout.add("phase", 3, "onehot", 1, "deal, call, over")
        layout.add("dealer", n, "onehot", 1, "the dealer: you, then the next seats")
        layout.add("deal", 1, "scalar", n, "deals finished (0-based deal number)")
        layout.add("number", 1, "scalar", pack, "cards called this deal, this one included")
        layout.add("hand_size", 1, "scalar", pack, "cards per hand")
        layout.add("totals", n, "scalar", n * n * pack, "each seat's points: yours first")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `MemorandumView`."""
        from arena.games.memorandum import Phase

        lay = self.layout
        lay.put_cards(vec, "called", [view.called])
        put_seat_cards(lay, vec, "received", view.received, seat)
        lay.put_cards(vec, "unclaimed", view.unclaimed)
        lay.put_cards(vec, "disputed", view.disputed)
        lay.put_onehot(vec, "phase", list(Phase).index(view.phase))
        lay.put_onehot(vec, "dealer", (view.dealer - seat) % self.players)
        lay.put(vec, "deal", view.deal)
        lay.put(vec, "number", view.number)
        lay.put(vec, "hand_size", view.hand_size)
        lay.put(vec, "totals", relative(view.totals, seat))


class ConcentrationEncoder(Encoder):
    """Concentration: turn up a face-down card, by its position in the layout."""

    game = "concentration"
    table_module = "arena.games.concentration.table"

    def __init__(self, params: Params, players: int) -> None:
        """The layout's positions (both fields in the duel) are the actions."""
        self.positions = params.field_size * params.fields  # type: ignore[attr-defined]
        super().__init__(params, players)

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """Every position of the layout, 0 up."""
        return range(self.positions)

    def lay_out(self, layout: Layout) -> None:
        """Each position face down or taken (and its back), the cards up, scores, turn, role."""
        from arena.games.concentration.variants import TURN_LIMIT_PER_CARD

        p, params = self.positions, self.params
        turns = float(getattr(params, "max_turns", 0) or TURN_LIMIT_PER_CARD * p)
        layout.add("down", p, "onehot", 1, "1 for each position holding a face-down card")
        layout.add("taken", p, "onehot", 1, "1 for each position whose card was taken")
        if getattr(params, "checkerboard", False):
            layout.add("red", p, "onehot", 1, "1 for each face-down card with a red back")
        for i in range(params.set_size):  # type: ignore[attr-defined]
            layout.add(f"up_{i}_at", p, "onehot", 1,
                       f"the position of the card turned up {_nth(i)} this turn")
            layout.cards(f"up_{i}", f"the card turned up {_nth(i)} this turn")
        layout.add("scores", self.players, "scalar", p, "each seat's points: yours first")
        layout.add("turn", 1, "scalar", turns, "turns completed")
        layout.add("answer", 1, "scalar", 1, "1 when you answer (the duel's second card)")
        layout.add("field", params.fields, "onehot", 1,  # type: ignore[attr-defined]
                   "the field you may turn in (the duel: seat 0's, seat 1's)")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `ConcentrationView`."""
        from arena.cards import Card
        from arena.games.concentration.table import Back, Role

        lay = self.layout
        down, taken = lay.by_name["down"].start, lay.by_name["taken"].start
        red = lay.by_name["red"].start if "red" in lay.by_name else None
        for position, cell in enumerate(view.cells):
            if cell is None:
                vec[taken + position] = 1
            elif not isinstance(cell, Card):
                vec[down + position] = 1
                if red is not None and cell is Back.RED:
                    vec[red + position] = 1
        for i, position in enumerate(view.face_up):
            lay.put_onehot(vec, f"up_{i}_at", position)
            lay.put_cards(vec, f"up_{i}", [view.cells[position]])
        lay.put(vec, "scores", relative(view.scores, seat))
        lay.put(vec, "turn", view.turn)
        lay.put(vec, "answer", float(view.role is Role.ANSWER))
        lay.put_onehot(vec, "field", view.field.start // len(view.field))


class PavedEncoder(Encoder):
    """Paved with Gold: look at places, claim combinations, turn cards up, give bonus cards."""

    game = "paved-with-gold"
    table_module = "arena.games.paved_with_gold.table"

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """Looks; the pair announced; claims holding one place, then two (in the order looked
        at); put back; turn-ups; bonus to each seat; the end claim."""
        from arena.games.paved_with_gold.combos import Combo
        from arena.games.paved_with_gold.variants import SQUARE

        places = range(SQUARE)
        yield from (("look", p) for p in places)
        yield ("claim", "pair", ())
        for combo in Combo:
            yield from (("claim", combo.value, (p,)) for p in places)
        for combo in Combo:
            if combo.size > 2:
                yield from (("claim", combo.value, (p, q)) for p in places for q in places
                            if p != q)
        yield ("put-back",)
        yield from (("turn-up", p) for p in places)
        yield from (("bonus-to", s) for s in range(self.players))
        yield ("end",)

    def lay_out(self, layout: Layout) -> None:
        """The square place by place, your hand, the claim, stock, cards out, scores, turn."""
        from arena.games.paved_with_gold.combos import Combo
        from arena.games.paved_with_gold.table import Phase
        from arena.games.paved_with_gold.variants import SQUARE

        n = self.players
        layout.add("down", SQUARE, "onehot", 1, "1 for each place holding a face-down card")
        layout.add("held", SQUARE, "onehot", 1, "1 for each place whose card is picked up")
        layout.add("empty", SQUARE, "onehot", 1, "1 for each place with no card")
        for p in range(SQUARE):
            layout.cards(f"up_{p}", f"the face-up card at place {p}")
        for i in range(2):
            layout.add(f"hand_{i}_at", SQUARE, "onehot", 1,
                       f"the place of the card you picked up {_nth(i)}")
            layout.cards(f"hand_{i}", f"the card you picked up {_nth(i)}")
        layout.add("phase", len(Phase), "onehot", 1, "look, hold, turn-up, bonus-to, over")
        layout.add("to_act", n, "onehot", 1, "the seat to act: you, then the next seats")
        layout.add("claim", len(Combo), "onehot", 1, "the combination being claimed")
        layout.add("claimed_at", SQUARE, "onehot", 1, "the places turned up for the claim")
        layout.add("stock", 1, "scalar", 54, "cards left in the stock")
        layout.cards("out", "the cards won or given as bonus (face up)")
        layout.add("points", n, "scalar", 1000, "combination points: yours first")
        layout.add("bonus", n, "scalar", 54, "bonus cards held: yours first")
        layout.add("scores", n, "scalar", 1000, "scores: yours first")
        layout.add("turn", 1, "scalar", float(getattr(self.params, "max_turns", 0) or 1000),
                   "turns played")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `PavedView`."""
        from arena.cards import Card
        from arena.games.paved_with_gold.combos import Combo
        from arena.games.paved_with_gold.table import Phase, Spot

        lay = self.layout
        spots = {Spot.DOWN: "down", Spot.HELD: "held", Spot.EMPTY: "empty"}
        for place, cell in enumerate(view.cells):
            if isinstance(cell, Card):
                lay.put_cards(vec, f"up_{place}", [cell])
            else:
                vec[lay.by_name[spots[cell]].start + place] = 1
        for i, (place, card) in enumerate(view.hand):
            lay.put_onehot(vec, f"hand_{i}_at", place)
            lay.put_cards(vec, f"hand_{i}", [card])
        lay.put_onehot(vec, "phase", list(Phase).index(view.phase))
        lay.put_onehot(vec, "to_act", (view.to_act - seat) % self.players)
        lay.put_onehot(vec, "claim", None if view.claim is None else list(Combo).index(view.claim))
        for place in view.claim_positions:
            lay.put_onehot(vec, "claimed_at", place)
        lay.put(vec, "stock", view.stock)
        lay.put_cards(vec, "out", view.out)
        lay.put(vec, "points", relative(view.points, seat))
        lay.put(vec, "bonus", relative(view.bonus, seat))
        lay.put(vec, "scores", relative(view.scores, seat))
        lay.put(vec, "turn", view.turn)


class CuckooEncoder(Encoder):
    """Cuckoo: the dealer deals; each player stands or changes, the dealer stands or draws."""

    game = "cuckoo"
    table_module = "arena.games.cuckoo.table"

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """`deal`, `stand`, `change`, `draw`."""
        return ("deal", "stand", "change", "draw")

    def lay_out(self, layout: Layout) -> None:
        """Your card, the kings and the last showdown, then per seat the deal's state."""
        from arena.games.cuckoo.table import Turn

        n = self.players
        chips = float(getattr(self.params, "chips", 3))
        layout.cards("card", "your card (during a deal)")
        layout.cards("kings", "the kings shown this deal")
        layout.add("king_seats", n, "onehot", 1, "the seats that showed a king: yours first")
        seat_cards(layout, "shown", n, "the card shown at the last showdown")
        layout.add("phase", 3, "onehot", 1, "deal, play, over")
        layout.add("dealer", n, "onehot", 1, "the dealer: you, then the next seats")
        layout.add("turn", n, "onehot", 1, "the seat to decide: you, then the next seats")
        layout.add("order", n, "scalar", n, "each seat's place in this deal's order of turns "
                   "(1 first, 0 out): yours first")
        layout.add("turns", n * len(Turn), "onehot", 1, "what each seat did this deal (stood, "
                   "changed, refused, king, drew): yours first")
        layout.add("chips", n, "scalar", chips, "chips: yours first")
        layout.add("deal", 1, "scalar", chips * n, "the deal number")
        layout.add("deal_limit", 1, "scalar", chips * n, "the last deal at the latest")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `CuckooView`."""
        from arena.games.cuckoo.table import Phase, Turn

        lay, n = self.layout, self.players
        lay.put_cards(vec, "card", [view.card])
        lay.put_cards(vec, "kings", [card for _, card in view.kings])
        for who, _ in view.kings:
            lay.put_onehot(vec, "king_seats", (who - seat) % n)
        if view.shown:
            put_seat_cards(lay, vec, "shown", [[c] if c is not None else [] for c in view.shown],
                           seat)
        lay.put_onehot(vec, "phase", list(Phase).index(view.phase))
        lay.put_onehot(vec, "dealer", (view.dealer - seat) % n)
        lay.put_onehot(vec, "turn", None if view.turn is None else (view.turn - seat) % n)
        places = [0] * n
        for i, who in enumerate(view.order):
            places[who] = i + 1
        lay.put(vec, "order", relative(places, seat))
        kinds = list(Turn)
        for who, what in view.turns:
            lay.put_onehot(vec, "turns", ((who - seat) % n) * len(kinds) + kinds.index(what))
        lay.put(vec, "chips", relative(view.chips, seat))
        lay.put(vec, "deal", view.deal)
        lay.put(vec, "deal_limit", view.deal_limit)


class AnimalsEncoder(Encoder):
    """Animals: after each faced card every player still in keeps quiet or calls an animal."""

    game = "animals"
    table_module = "arena.games.animals.table"

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """`quiet`, then `("call", s)` for each seat s of the table."""
        yield "quiet"
        yield from (("call", s) for s in range(self.players))

    def lay_out(self, layout: Layout) -> None:
        """Each up-pile's top card, who matches you, the piles and packs, who is out, the facer."""
        n = self.players
        limit = float(getattr(self.params, "limit", 1000))
        seat_cards(layout, "top", n, "the top card of the up-pile")
        layout.add("matches", n, "onehot", 1, "1 for each player still in whose top card has "
                   "your top card's rank: yours first (your own slot is 0)")
        layout.add("piles", n, "scalar", 52, "cards in each up-pile: yours first")
        layout.add("packs", n, "scalar", 52, "cards in each face-down pack: yours first")
        layout.add("places", n, "scalar", n, "the finishing place of each player who left "
                   "(0 while still in): yours first")
        layout.add("dealer", n, "onehot", 1, "the dealer: you, then the next seats")
        layout.add("facer", n, "onehot", 1, "who just faced a card: you, then the next seats")
        layout.add("faces", 1, "scalar", limit, "cards faced so far")
        layout.add("limit", 1, "scalar", limit, "the most cards faced in a game")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write an `AnimalsView`."""
        from arena.games.animals.table import partners

        lay, n = self.layout, self.players
        put_seat_cards(lay, vec, "top", [[top] for top in view.tops], seat)
        for other in partners(view.tops, seat, view.places):
            lay.put_onehot(vec, "matches", (other - seat) % n)
        lay.put(vec, "piles", relative(view.piles, seat))
        lay.put(vec, "packs", relative(view.packs, seat))
        lay.put(vec, "places", relative([p or 0 for p in view.places], seat))
        lay.put_onehot(vec, "dealer", (view.dealer - seat) % n)
        lay.put_onehot(vec, "facer", (view.facer - seat) % n)
        lay.put(vec, "faces", view.faces)
        lay.put(vec, "limit", view.limit)


class SignedLayout(Layout):
    """A layout with scalar features that go below -1: `lows` holds their floor by name."""

    def __init__(self) -> None:
        """An empty layout, no floors set."""
        super().__init__()
        self.lows: dict[str, float] = {}

    def low(self) -> np.ndarray:
        """The lower bound of every slot, the floors in `lows` included."""
        out = super().low()
        for name, floor in self.lows.items():
            feature = self.by_name[name]
            out[feature.start:feature.stop] = floor
        return out


class FrogsEncoder(Encoder):
    """Frogs in the Pond: the dealer deals; each player plays a card to the trick."""

    game = "frogs-in-the-pond"
    table_module = "arena.games.frogs_in_the_pond.table"

    def __init__(self, params: Params, players: int) -> None:
        """As every encoder, with a layout whose totals may be negative (the tadpole)."""
        super().__init__(params, players)
        self.layout = SignedLayout()
        self.lay_out(self.layout)

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """`deal`, then the 52 cards in pack order."""
        yield "deal"
        yield from (str(card) for card in PACK52)

    def lay_out(self, layout: Layout) -> None:
        """Hand, frogs, the trick and the last one by seat, out of play, sides, counts, totals."""
        n = self.players
        target = float(getattr(self.params, "target", 100))
        deals = float(getattr(self.params, "max_deals", 30))
        layout.cards("hand", "your hand")
        layout.cards("frogs", "the frogs you took this deal")
        seat_cards(layout, "trick", n, "the card played to the trick in progress")
        seat_cards(layout, "last", n, "the card played to the trick won last")
        layout.cards("removed", "the cards out of play (during a deal)")
        layout.add("phase", 3, "onehot", 1, "deal, play, over")
        layout.add("side", n, "onehot", 1, "1 for each seat of your side: you, then the next seats")
        layout.add("dealer", n, "onehot", 1, "the dealer: you, then the next seats")
        layout.add("leader", n, "onehot", 1, "who led the trick in progress: you, then the next "
                   "seats")
        layout.add("last_winner", n, "onehot", 1, "who won the last trick: you, then the next "
                   "seats")
        layout.add("deal", 1, "scalar", deals, "the deal (0-based)")
        layout.add("number", 1, "scalar", 17, "the trick in progress (1-based)")
        layout.add("frogs_left", 1, "scalar", 17, "frogs still in the pond")
        layout.add("tricks_won", n, "scalar", 17, "tricks won this deal: yours first")
        layout.add("totals", n, "scalar", target + 100, "scores of finished deals: yours first")
        if isinstance(layout, SignedLayout):  # the tadpole costs a side up to 10 a deal
            layout.lows["totals"] = -10 * deals
        layout.add("target", 1, "scalar", target, "the total that ends the game")
        layout.add("tadpole", 1, "scalar", 1, "1 when the jack of spades counts -10")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `FrogsView`."""
        from arena.games.frogs_in_the_pond.table import Phase

        lay, n = self.layout, self.players
        lay.put_cards(vec, "hand", view.hand)
        lay.put_cards(vec, "frogs", view.frogs)
        for name, plays in (("trick", view.trick), ("last", view.last_trick)):
            for who, card in plays:
                lay.put_cards(vec, f"{name}_{(who - seat) % n}", [card])
        if view.phase is Phase.PLAY:
            lay.put_cards(vec, "removed", view.removed)
        lay.put_onehot(vec, "phase", list(Phase).index(view.phase))
        for side in view.sides:
            if seat in side:
                for who in side:
                    lay.put_onehot(vec, "side", (who - seat) % n)
        lay.put_onehot(vec, "dealer", (view.dealer - seat) % n)
        lay.put_onehot(vec, "leader", (view.leader - seat) % n)
        lay.put_onehot(vec, "last_winner",
                       None if view.last_winner is None else (view.last_winner - seat) % n)
        lay.put(vec, "deal", view.deal)
        lay.put(vec, "number", view.number)
        lay.put(vec, "frogs_left", view.frogs_left)
        lay.put(vec, "tricks_won", relative(view.tricks_won, seat))
        lay.put(vec, "totals", relative(view.totals, seat))
        lay.put(vec, "target", view.target)
        lay.put(vec, "tadpole", float(view.tadpole))


class SquareEncoder(Encoder):
    """Cribbage Square: lay the card turned up at a place of your square (all seats at once)."""

    game = "cribbage-square"
    table_module = "arena.games.cribbage_square.table"

    def __init__(self, params: Params, players: int) -> None:
        """The places of a square: rows and columns -3 to 3 around the first card, or the grid."""
        from arena.games.cribbage_square.variants import Placement

        self.grid = getattr(params, "placement", None) is Placement.GRID
        span = range(4) if self.grid else range(-3, 4)
        self.places = [(r, c) for r in span for c in span]
        self.place_index = {p: i for i, p in enumerate(self.places)}
        super().__init__(params, players)

    def enumerate_actions(self) -> Iterable[PlainAction]:
        """Every place in row-major order (in `standard` not (0, 0), the table's first card)."""
        return (p for p in self.places if self.grid or p != (0, 0))

    def lay_out(self, layout: Layout) -> None:
        """The card to lay, its number, the starter, then every seat's square place by place."""
        layout.cards("card", "the card to lay now")
        layout.add("number", 1, "scalar", 17, "which of the sixteen the card to lay is "
                   "(17 once the squares are full)")
        layout.cards("starter", "the starter (once the squares are full)")
        for i in range(self.players):
            whose = f"seat +{i}'s" if i else "your"
            for k, (r, c) in enumerate(self.places):
                layout.cards(f"square_{i}_{k}", f"the card at ({r}, {c}) of {whose} square")

    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a `SquareView`."""
        lay = self.layout
        lay.put_cards(vec, "card", [view.card])
        lay.put(vec, "number", view.number)
        lay.put_cards(vec, "starter", [view.starter])
        for i, cells in enumerate(relative(list(view.layouts), seat)):
            for place, card in cells:
                lay.put_cards(vec, f"square_{i}_{self.place_index[place]}", [card])


def _nth(i: int) -> str:
    return ("first", "second", "third", "fourth")[i]


def _register(*encoders: type[Encoder]) -> None:
    for encoder in encoders:
        ENCODERS[encoder.game] = _maker(encoder)


def _maker(encoder: type[Encoder]) -> Any:
    def make(params: Params, players: int) -> Encoder:
        return encoder(params, players)
    return make


_register(DigEncoder, BundleEncoder, MemorandumEncoder, ConcentrationEncoder,
          PavedEncoder, CuckooEncoder, AnimalsEncoder,
          FrogsEncoder, SquareEncoder)
