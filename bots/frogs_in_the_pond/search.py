"""`frogs-search`: determinized search for Frogs in the Pond with fast, card-counting playouts.

The generic `search` (bots/algorithms/search.py) plays out each sampled deal through the engine with
`frogs-simple` (lead high, follow low): a playout builds a view per card, so 24 samples cost
125-185 ms a decision, and a policy that throws its tens under the opponent's aces misjudges
what a card is worth. This bot keeps PIMC and the game's sampler
(arena/games/frogs_in_the_pond/sampler.py: the other hands, the others' frogs and the pond
dealt again, voids respected) but plays each sample out on plain integers with a policy that
counts the cards, as `frogs-sharp` does, except that on a sampled deal it knows them:

- To lead: a card no opponent still to play can beat (a *master*), the one worth most; else its
  cheapest card (fewest points, then lowest).
- To follow: a card that beats the trick and that no opponent still to play can beat, the one
  worth most; else, when a partner's card already holds the trick safely, its most valuable
  card; else its cheapest.

A trick's frog is scored at the mean value of the sampled pond rather than the sampled pond's
top card: which frog comes with which trick is chance nobody can see, and the mean removes its
noise from the comparison of actions. A playout stops at the end of the deal; an action's value
is its side's points in the rest of the deal less the mean of the other sides'. The totals of
earlier deals are the same for every action, so that is the margin of the game's final totals
(the points of its deals added up), which is what the benchmarks score. The game itself is won
by the higher total once a side has 100: the margin is a proxy for that, exact in direction
but blind to the score, so in a close last deal it does not play for the win alone.
Cards that are equivalent (same suit, same points, and between them no card anyone may still
play or that lies in the trick) are searched once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card, standard_deck
from arena.engine import Knowledge
from arena.games.frogs_in_the_pond import FrogsParams, FrogsState, FrogsView, Say, power
from arena.games.frogs_in_the_pond.sampler import FrogsSampler
from bots.algorithms.hints import Playout, SearchHints
from bots.algorithms.search_base import params_of
from bots.frogs_in_the_pond.heuristic import FrogsSimpleBot

CARDS: tuple[Card, ...] = tuple(sorted(
    standard_deck(), key=lambda c: (list(type(c.suit)).index(c.suit), power(c))))
"""Every card by its number: suit by suit (clubs, diamonds, hearts, spades), two up to ace, so
that within a suit a higher number is a higher card and `number // 13` is the suit."""

NUMBER: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
"""Each card's number in `CARDS`."""


def points_table(params: FrogsParams) -> tuple[int, ...]:
    """What each card number counts when won, in this variant."""
    return tuple(params.points(card) for card in CARDS)


Hand = list[list[int]]
"""A hand as four lists of card numbers, one a suit (clubs, diamonds, hearts, spades), each
from low to high."""


def by_suit(cards: Iterable[int]) -> Hand:
    """`cards` as a `Hand`."""
    hand: Hand = [[], [], [], []]
    for card in sorted(cards):
        hand[card // 13].append(card)
    return hand


def _high(suit: int, seats: Sequence[int], hands: Sequence[Hand]) -> int:
    """The highest card of `suit` that one of `seats` holds (-1 for none)."""
    best = -1
    for seat in seats:
        cards = hands[seat][suit]
        if cards and cards[-1] > best:
            best = cards[-1]
    return best


def policy(seat: int, hands: Sequence[Hand], trick: Sequence[tuple[int, int]],
           side: Sequence[int], players: int, pts: Sequence[int]) -> int:
    """The playout policy's card for `seat` on a deal it knows: masters led or used to win,
    counters thrown on a partner's safe trick, otherwise the cheapest card."""
    hand = hands[seat]
    led = trick[0][1] // 13 if trick else -1
    legal = hand[led] if led >= 0 and hand[led] else [c for cards in hand for c in cards]
    if len(legal) == 1:
        return legal[0]
    later = [s for s in ((seat + i) % players for i in range(1, players - len(trick)))
             if side[s] != side[seat]]
    if not trick:
        best, key = -1, (-1000, -1)
        for suit in range(4):
            cards = hand[suit]
            if not cards:
                continue
            high = _high(suit, later, hands)
            for c in reversed(cards):
                if c < high:
                    break
                if (pts[c], c) > key:
                    best, key = c, (pts[c], c)
        if best >= 0:
            return best
        return min(legal, key=lambda c: (pts[c], c % 13))
    top_seat, top = trick[0]
    for s, c in trick[1:]:
        if c // 13 == led and c > top:
            top_seat, top = s, c
    if hand[led]:
        high = _high(led, later, hands)
        bound = top if top > high else high
        winners = [c for c in legal if c > bound]
        if winners:
            return max(winners, key=lambda c: (pts[c], -c))
    if side[top_seat] == side[seat] and _high(led, later, hands) < top:
        return max(legal, key=lambda c: (pts[c], -(c % 13)))
    return min(legal, key=lambda c: (pts[c], c % 13))


def trick_won(trick: Sequence[tuple[int, int]], pts: Sequence[int],
              frog: float) -> tuple[int, float]:
    """A completed trick's winner (the highest card of the suit led) and its points, the frog
    included."""
    led = trick[0][1] // 13
    winner, top = trick[0]
    value = frog
    for s, c in trick:
        value += pts[c]
        if c // 13 == led and c > top:
            winner, top = s, c
    return winner, value


def play_out(hands: list[Hand], trick: list[tuple[int, int]], to_play: int,
             side: Sequence[int], sides: int, players: int, pts: Sequence[int],
             frog: float) -> list[float]:
    """Play the rest of the deal by `policy`: the points each side takes from here on (every
    trick's cards and a frog worth `frog`). `hands` and `trick` are played away."""
    won = [0.0] * sides
    seat = to_play
    while True:
        card = policy(seat, hands, trick, side, players, pts)
        hands[seat][card // 13].remove(card)
        trick.append((seat, card))
        if len(trick) < players:
            seat = (seat + 1) % players
            continue
        winner, value = trick_won(trick, pts, frog)
        won[side[winner]] += value
        trick.clear()
        if not any(hands[winner]):
            return won
        seat = winner


def live_cards(state: FrogsState, seat: int) -> set[int]:
    """The cards that tell `seat`'s cards of a suit apart: those anybody may still play and
    those in the trick in progress. On a sampled state: every card but those won in earlier
    tricks, out of play or among the seat's own frogs (the other hands, the others' frogs and
    the pond hold the unseen cards, whichever way the sample dealt them)."""
    live = {NUMBER[c] for c in state.pond}
    live.update(NUMBER[c] for _, c in state.trick)
    for other in range(state.seats):
        live.update(NUMBER[c] for c in state.hands[other])
        if other != seat:
            live.update(NUMBER[c] for c in state.frogs[other])
    return live


def distinct(hand: Sequence[int], legal: Sequence[int], live: set[int],
             pts: Sequence[int]) -> list[int]:
    """The legal cards worth searching: of cards of one suit and the same points with no `live`
    card (one anybody may still play) between them, only the lowest."""
    held = set(hand)
    kept = []
    for card in sorted(legal):
        below = card - 1
        # walk down past cards that are gone; a held card of equal points there stands for it
        while below >= 0 and below // 13 == card // 13 and below not in live \
                and below not in held:
            below -= 1
        if below >= 0 and below // 13 == card // 13 and below in held and below in legal \
                and pts[below] == pts[card]:
            continue
        kept.append(card)
    return kept


class FrogsSearchBot(Bot):
    """PIMC over the game's sampler with fast card-counting playouts: see the module
    docstring."""

    games: ClassVar[tuple[str, ...]] = ("frogs-in-the-pond",)

    def __init__(self, samples: int = 20, budget: float = 0.0) -> None:
        """`samples`: deals sampled a decision; `budget`: ms a decision may take before it stops
        sampling (0: no limit, so the bot is deterministic)."""
        if samples < 1 or budget < 0:
            raise ValueError("samples must be at least 1 and budget at least 0")
        self.samples = samples
        self.budget = budget

    def start(self, info: GameInfo) -> None:
        """Read the variant; nothing seen yet."""
        super().start(info)
        params = params_of(info)
        assert isinstance(params, FrogsParams)
        self.params = params
        self.pts = points_table(params)
        self.sampler = FrogsSampler()
        sides = params.sides(info.players)
        self.side = tuple(next(i for i, s in enumerate(sides) if seat in s)
                          for seat in range(info.players))
        self.seen: list[Event] = []

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when dealing; else the card of best mean margin over the sampled deals."""
        self.seen += obs.events
        if Say.DEAL in obs.legal or len(obs.legal) == 1:
            return obs.legal[0]
        view: FrogsView = obs.view
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen), view)
        legal = [NUMBER[c] for c in obs.legal]  # type: ignore[index]
        values = self.evaluate(knowledge, legal)
        best = max(range(len(legal)), key=lambda i: (values[i], -i) if i in values
                   else (float("-inf"), -i))
        return CARDS[legal[best]]

    def evaluate(self, knowledge: Knowledge, legal: list[int]) -> dict[int, float]:
        """The total margin of each searched legal card (by its index in `legal`) over the
        samples; cards equivalent to a searched one are left out."""
        view: FrogsView = knowledge.view
        me, players = knowledge.seat, knowledge.players
        hand = [NUMBER[c] for c in view.hand]
        states = self.sampler.sample(knowledge, self.samples, self.rng)
        first = states[0]
        assert isinstance(first, FrogsState)
        searched = distinct(hand, legal, live_cards(first, me), self.pts)
        totals = {legal.index(c): 0.0 for c in searched}
        deadline = time.perf_counter() + self.budget / 1000 if self.budget else None
        sides = len(set(self.side))
        mine = self.side[me]
        for state in states:
            assert isinstance(state, FrogsState)
            hands = [by_suit(NUMBER[c] for c in h) for h in state.hands]
            trick = [(s, NUMBER[c]) for s, c in state.trick]
            pond = [NUMBER[c] for c in state.pond]
            frog = sum(self.pts[c] for c in pond) / len(pond) if pond else 0.0
            for i in totals:
                twin = [[list(cards) for cards in h] for h in hands]
                twin[me][legal[i] // 13].remove(legal[i])
                line = [*trick, (me, legal[i])]
                if len(line) == players:
                    won = _finish_trick(line, twin, sides, self.side, players, self.pts, frog)
                else:
                    won = play_out(twin, line, (me + 1) % players, self.side, sides,
                                   players, self.pts, frog)
                others = (sum(won) - won[mine]) / max(1, sides - 1)
                totals[i] += won[mine] - others
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals


def _finish_trick(trick: list[tuple[int, int]], hands: list[Hand], sides: int,
                  side: Sequence[int], players: int, pts: Sequence[int],
                  frog: float) -> list[float]:
    """The points of a completed trick for its winner's side, then the rest of the deal."""
    winner, value = trick_won(trick, pts, frog)
    won = [0.0] * sides
    won[side[winner]] += value
    if any(hands[winner]):
        rest = play_out(hands, [], winner, side, sides, players, pts, frog)
        won = [a + b for a, b in zip(won, rest, strict=True)]
    return won


SEARCH_HINTS = SearchHints(Playout.SIMPLE, simple=FrogsSimpleBot)
"""What Frogs in the Pond tells the generic search: its simple bot plays the playouts, which
measured best (docs/strategy.md, section 9)."""
