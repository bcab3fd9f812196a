"""The luck model of Frogs in the Pond: what the deals and the frogs gave each side.

Two kinds of chance follow the start of the game. Each deal (the dealer's `deal` action
shuffles) gives the hands; each trick's winner takes the top card of the face-down pond, which
nobody has seen. The value of a state (`FrogsLuck.value`) is, for each side, its points so far
(the finished deals' total and what it has won in this deal, frogs included) plus what the cards
in its hands are worth: a weight per card rank, fitted offline once by
`scripts/frogs_luck_weights.py` on games of `frogs-sharp` against itself (seeds no test or
benchmark uses) and shipped here (`WEIGHTS`). Partners share their side's value.

- A frog is swapped with each frog in the pond, grouped exactly by its points
  (`frog_alternatives`): any frog of the pond was as likely to lie on top.
- A deal is dealt again as the same cards turned round (`deal_alternatives`): the sequence of
  the deal (the hands, then the pond) rotated by every offset, each as likely as the actual one.
  Every card then lands once in every place, so for a value that adds up card weights the mean
  over them is the exact expectation over all shuffles.

`expected` computes both means directly; the tests hold them equal to the means over `reveals`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from arena.api import Action
from arena.cards import Card, Rank
from arena.games.frogs_in_the_pond.dealing import Stack
from arena.games.frogs_in_the_pond.sampler import FrogsSampler
from arena.games.frogs_in_the_pond.state import FrogsState
from arena.games.frogs_in_the_pond.table import Phase
from arena.games.frogs_in_the_pond.tricks import winning_play
from arena.games.frogs_in_the_pond.variants import TADPOLE, FrogsParams, hand_size
from arena.luck.model import Alternatives, LuckModel, Values

_copy = FrogsSampler().clone

RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
"""The ranks in the order of a row of `WEIGHTS`: ace, two, ..., king."""

WEIGHTS: Mapping[tuple[int, bool, bool], tuple[float, ...]] = MappingProxyType({
    # (seats, partners (always true but at four seats), tadpole): a weight per rank, ace to
    # king, then (with the tadpole) the jack of spades' own, added to its jack's;
    # made by `python scripts/frogs_luck_weights.py --deals 2000` (seeds from 90000000)
    (2, True, False): (
        6.38, 0.704, 1.015, 0.989, -1.129, 0.582, 1.274,
        1.563, 1.946, 6.901, 4.802, 5.771, 5.067,
    ),
    (2, True, True): (
        5.76, 0.629, 0.598, 0.666, -1.045, 0.815, 1.254,
        1.377, 1.613, 6.819, 4.017, 5.389, 4.81, -3.325,
    ),
    (3, True, False): (
        7.276, 0.765, 0.598, 0.665, -2.222, 1.042, 0.937,
        0.802, 0.739, 3.544, 4.206, 6.293, 6.249,
    ),
    (3, True, True): (
        6.12, 0.625, 0.987, 0.735, -2.154, 1.02, 0.849,
        1.131, 0.617, 3.573, 3.891, 5.559, 5.4, -3.696,
    ),
    (4, True, False): (
        9.33, 0.85, 0.656, -0.062, 0.496, 0.201, 0.03,
        0.616, 1.296, 4.579, 2.541, 4.666, 5.474,
    ),
    (4, True, True): (
        8.601, 1.073, 0.458, -0.531, 0.492, 0.254, -0.163,
        0.344, 1.287, 4.569, 1.833, 4.117, 4.945, 0.72,
    ),
    (4, False, False): (
        9.591, 0.022, 0.962, 0.352, -3.011, 0.015, 0.188,
        0.776, 1.385, 1.18, 3.911, 5.737, 6.616,
    ),
    (4, False, True): (
        8.296, 0.358, 0.674, -0.261, -2.937, 0.499, 0.172,
        1.076, 1.213, 1.599, 3.693, 5.05, 5.908, -2.288,
    ),
    (5, True, False): (
        11.735, 0.0, 0.023, 0.481, -3.154, 0.51, 0.486,
        0.916, 0.752, -0.241, 2.844, 4.951, 5.975,
    ),
    (5, True, True): (
        10.361, 0.0, -0.006, 0.446, -3.066, 0.392, 0.423,
        0.618, 0.865, 0.132, 2.303, 4.777, 5.376, -0.609,
    ),
})


class FrogsLuck(LuckModel[FrogsState]):
    """Each side's points so far plus the weights of the cards in its hands; luck from the
    deals and the frogs."""

    name = "frogs-points"
    version = 1

    def __init__(self, params: FrogsParams, players: int) -> None:
        self.params = params
        self.players = players
        self.sides = params.sides(players)
        key = (players, params.partners if players == 4 else True, params.tadpole)
        row = WEIGHTS.get(key, ())
        self.weights = {rank: row[i] if row else 0.0 for i, rank in enumerate(RANKS)}
        self.tadpole = row[len(RANKS)] if params.tadpole and row else 0.0

    def weight(self, card: Card) -> float:
        """What holding `card` is worth to its side (in the deal's points)."""
        extra = self.tadpole if card == TADPOLE else 0.0
        return self.weights[card.rank] + extra

    def value(self, state: FrogsState) -> Values:
        """Each seat's side: its total, its points won this deal, its hands' weights."""
        points = self.params.points
        out = [0.0] * self.players
        for side, total in zip(self.sides, state.totals, strict=True):
            value = float(total)
            if state.phase is Phase.PLAY:
                for seat in side:
                    value += sum(points(c) for c in state.won[seat])
                    value += sum(points(c) for c in state.frogs[seat])
                    value += sum(self.weight(c) for c in state.hands[seat])
            for seat in side:
                out[seat] = value
        return tuple(out)

    def reveals(self, state: FrogsState, seat: int, action: Action
                ) -> Alternatives[FrogsState] | None:
        """A deal: the deal turned round; the last card of a trick: the frogs it may take."""
        if state.phase is Phase.DEAL:
            return deal_alternatives(state, seat, action)
        if state.phase is Phase.PLAY and len(state.trick) == state.seats - 1:
            return frog_alternatives(state)
        return None

    def expected(self, state: FrogsState, seat: int, action: Action) -> Values | None:
        """The mean over `reveals`, computed directly. For a deal: the totals plus each hand's
        expected weight (every card of the pack equally likely in every place). For the last
        card of a trick: the value now, less the card's weight, plus, for the trick's winner,
        the trick's points and the pond's mean points (the value adds up card points and
        weights, and the frog is the only card the alternatives change)."""
        if state.phase is Phase.DEAL:
            return self._expected_deal(state)
        if state.phase is not Phase.PLAY or len(state.trick) != state.seats - 1:
            return None
        assert isinstance(action, Card)
        points = self.params.points
        trick = [*state.trick, (seat, action)]
        winner, _ = winning_play(trick)
        gain = (sum(points(c) for _, c in trick)
                + sum(points(c) for c in state.pond) / len(state.pond))
        out = list(self.value(state))
        for side in self.sides:
            change = (gain if winner in side else 0.0) - (self.weight(action) if seat in side
                                                          else 0.0)
            for member in side:
                out[member] += change
        return tuple(out)

    def _expected_deal(self, state: FrogsState) -> Values:
        pack = state.pack
        mean = sum(self.weight(c) for c in pack) / len(pack)
        size = hand_size(self.players)
        out = [0.0] * self.players
        for side, total in zip(self.sides, state.totals, strict=True):
            for member in side:
                out[member] = total + len(side) * size * mean
        return tuple(out)


def _clone(state: FrogsState) -> FrogsState:
    """A copy of `state` that plays on independently (the sampler's copy: the state's lists,
    dicts and rng copied, which is all an action changes)."""
    twin = _copy(state)
    assert isinstance(twin, FrogsState)
    return twin


def frog_alternatives(state: FrogsState) -> Alternatives[FrogsState]:
    """The state with the top frog swapped with each frog of the pond, one state for each
    different number of points, weighted by how many frogs have them (the actual one first)."""
    points = state.params.points
    pond = state.pond
    top = len(pond) - 1
    groups: dict[int, list[int]] = {}
    for index in (top, *range(top)):
        groups.setdefault(points(pond[index]), []).append(index)
    out: list[tuple[float, FrogsState]] = []
    for places in groups.values():
        twin = _clone(state)
        twin.pond[top], twin.pond[places[0]] = twin.pond[places[0]], twin.pond[top]
        out.append((len(places) / len(pond), twin))
    return out


def deal_alternatives(state: FrogsState, seat: int, action: Action
                      ) -> Alternatives[FrogsState]:
    """The state before the deal, with the deal to come fixed as the actual deal's cards
    rotated by each offset (offset 0 is the actual deal), each equally likely."""
    probe = _clone(state)
    probe.apply(seat, action)
    sequence = [*(c for s in range(state.seats) for c in probe.hands[s]), *reversed(probe.pond)]
    size = len(probe.pond)
    out: list[tuple[float, FrogsState]] = []
    for offset in range(len(sequence)):
        turned = sequence[offset:] + sequence[:offset]
        twin = _clone(state)
        twin.stacks[state.deal_no] = _stack(turned, state.seats, size)
        out.append((1 / len(sequence), twin))
    return out


def _stack(cards: Sequence[Card], seats: int, size: int) -> Stack:
    """The stacked deal giving each seat its `size` cards of `cards` in turn, then the pond."""
    hands = {s: tuple(cards[s * size:(s + 1) * size]) for s in range(seats)}
    return Stack(hands, tuple(cards[seats * size:]))
