"""Stealing the Old Man's Bundle bots: `bundle-simple` and `bundle-sharp`.

`bundle-simple` (BundleSimpleBot) takes in whenever it can (a take or a steal, chosen at random)
and otherwise trails a random card.

`bundle-sharp` (BundleSharpBot) counts cards and looks one move ahead. Every card that leaves a
hand is shown, so the cards it has not seen are exactly the opponent's hand and the stock; from
their ranks it works out the chance that the opponent holds at least one card of a rank. Each
action is worth what it gains at once (in the difference between the bundles: a steal of `n`
cards gains 2n + 1, a take of `k` cards k + 1) less the expected value of the opponent's best
reply to the position it leaves: stealing the bot's bundle (when the opponent holds the rank of
its new top card) or taking in table cards of a rank. So it prefers steals, chooses the capture
whose new top card the opponent is least likely to match (protecting its bundle), and trails
the card that offers the opponent the least.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from math import comb
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card, Rank, standard_deck
from arena.games.old_mans_bundle import (
    BundleView,
    Dealt,
    Stole,
    TableLeft,
    Took,
    Trailed,
    Verb,
    actions,
)

PACK = frozenset(standard_deck())


class BundleSimpleBot(Bot):
    """Takes in when it can (a random take or steal), else trails a random card."""

    games: ClassVar[tuple[str, ...]] = ("old-mans-bundle",)

    def act(self, obs: Observation[Any]) -> Action:
        """A random capture if there is one, else a random trail."""
        captures = [a for a in obs.legal if a[0] != Verb.TRAIL]
        pool = captures or list(obs.legal)
        return pool[self.rng.randrange(len(pool))]


def chance_of_any(wanted: int, unseen: int, hand: int) -> float:
    """The chance that `hand` cards drawn at random from `unseen` include one of `wanted`."""
    if wanted <= 0 or hand <= 0:
        return 0.0
    if wanted > unseen - hand:
        return 1.0
    return 1.0 - comb(unseen - wanted, hand) / comb(unseen, hand)


def expected_best(options: Iterable[tuple[float, float]]) -> float:
    """The expected value of the best available option, given (value, chance available) pairs
    taken as independent."""
    total, none_better = 0.0, 1.0
    for value, chance in sorted(options, reverse=True):
        if value <= 0:
            break
        total += value * chance * none_better
        none_better *= 1.0 - chance
    return total


class BundleSharpBot(Bot):
    """Counts cards and weighs each action against the opponent's best reply."""

    games: ClassVar[tuple[str, ...]] = ("old-mans-bundle",)

    def start(self, info: GameInfo) -> None:
        """Nothing seen yet."""
        super().start(info)
        self.shown: set[Card] = set()  # every card seen face up (table, played, taken)

    def observe(self, events: Iterable[Event]) -> None:
        """Note every card shown."""
        for event in events:
            if isinstance(event, Dealt):
                self.shown.update(event.table)
            elif isinstance(event, Took):
                self.shown.add(event.card)
                self.shown.update(event.taken)
            elif isinstance(event, Stole):
                self.shown.update((event.card, event.top))
            elif isinstance(event, Trailed):
                self.shown.add(event.card)
            elif isinstance(event, TableLeft):
                self.shown.update(event.cards)

    def act(self, obs: Observation[Any]) -> Action:
        """The action with the best gain less the opponent's expected best reply."""
        self.observe(obs.events)
        view: BundleView = obs.view
        unseen = Counter(c.rank for c in PACK - self.shown - set(view.hand) - set(view.table))
        best: tuple[float, int] | None = None
        choice = obs.legal[0]
        for i, action in enumerate(obs.legal):
            value = self.value(action, view, unseen)
            key = (round(value, 9), -i)
            if best is None or key > best:
                best, choice = key, action
        return choice

    def value(self, action: Action, view: BundleView, unseen: Counter[Rank]) -> float:
        """Gain now (in the bundle difference) less the opponent's expected best reply."""
        move = actions.read(action)
        me, opp = view.seat, 1 - view.seat
        card = move.card
        mine, theirs = view.bundles[me], view.bundles[opp]
        top = view.tops[me]
        table = list(view.table)
        if move.verb is Verb.STEAL:
            gain = 2 * theirs + 1
            mine, theirs, top = mine + theirs + 1, 0, card
        elif move.verb is Verb.TAKE:
            taken = [t for t in table if t.rank == card.rank
                     and (move.target is None or t == move.target)]
            gain = len(taken) + 1
            table = [t for t in table if t not in taken]
            mine, top = mine + len(taken) + 1, card
        else:
            gain = 0
            table.append(card)
        hand = view.hands[opp]
        pool = sum(unseen.values())
        options = [(2.0 * mine + 1, chance_of_any(unseen[top.rank], pool, hand))] if top else []
        for rank, count in Counter(t.rank for t in table).items():
            options.append((count + 1.0, chance_of_any(unseen[rank], pool, hand)))
        return gain - expected_best(options)
