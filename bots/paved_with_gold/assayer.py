"""`assayer`: `prospector` that also follows what the other players know, and deduces colours.

It plays `prospector`'s policy (perfect memory, sure claims of the most valuable kind still
possible, two looks a turn, the end claim when certain) and adds:

- **what the others know.** Every look is public: the bot keeps, for each other seat, the places
  it has looked at since their cards came into the square. Where it knows those cards too, it
  knows what the other seat knows;
- **denial.** When it claims, it chooses the cards of the claim (and, between equal claims, the
  claim) that the others know, keeping the cards only it knows for later: a card an opponent
  knows is one the opponent could claim first;
- **where to look** (`looks`): `any` (default) picks among its unknown places at random, as
  `prospector` does; `fresh` looks first where nobody has (measured the same); `theirs` looks
  first at places an opponent knows and it does not (measured worse: the opponent often claims
  the cards both know first);
- **a look before a sure claim** (`gamble`): holding a sure claim, it first looks at a place it
  does not know when the chance that the card seen makes a claim of the same value is at least
  `gamble`; the card then stands in for one of the claim's, which is kept for later;
- **colour deductions.** Once the stock is empty the cards in the square are known as a set
  (everything not yet won or given); if the ones it has not seen are all of one colour (or one
  suit), it knows the colour (or suit) of every place it has not seen, and uses those places in
  five of a colour (and flushes) without looking;
- **spoiling** (`spoil`, on by default): when an opponent knows a sure combination of the
  most valuable kind (the bot knows those cards too) and the bot has none of that kind itself,
  it claims a smaller sure combination that uses the opponent's cards, if that breaks every
  such combination of theirs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from arena.api import Action, Event, GameInfo, Observation, Remove
from arena.cards import Card, Colour, Suit
from arena.games.paved_with_gold import (
    BEST_FIRST,
    Combo,
    Look,
    PavedView,
    Spot,
    actions,
    run_windows,
)
from bots.paved_with_gold.prospector import FULL_PACK, ProspectorBot

LOOKS = ("theirs", "fresh", "any")
"""Where the bot looks first at the start of a turn (see the module docstring)."""

_KEYED: dict[Combo, Callable[[Card], object]] = {
    Combo.PAIR: lambda c: c.rank, Combo.THREE_OF_A_KIND: lambda c: c.rank,
    Combo.FLUSH: lambda c: c.suit, Combo.FIVE_OF_A_COLOUR: lambda c: c.colour,
}


def choose_set(combo: Combo, cards: dict[int, Card], must: Sequence[int],
               weight: Callable[[int], float], aces: Any, suited_runs: bool,
               colours: dict[int, object] | None = None) -> tuple[int, ...] | None:
    """The places of a `combo` among the known `cards` (place -> card) that use every place of
    `must` and have the highest total `weight`; None if there is none. `colours` adds places
    known only by their colour (or suit), usable in five of a colour (or a flush), never in
    `must`."""
    if any(p not in cards for p in must):
        return None
    need = combo.size - len(must)
    if need < 0:
        return None
    if combo in _KEYED:
        key = _KEYED[combo]
        groups: dict[object, list[int]] = {}
        for p, card in cards.items():
            groups.setdefault(key(card), []).append(p)
        if colours and combo in (Combo.FIVE_OF_A_COLOUR, Combo.FLUSH):
            for p, value in colours.items():
                if p not in cards and _fits(combo, value):
                    groups.setdefault(value, []).append(p)
        wanted = {key(cards[p]) for p in must}
        if len(wanted) > 1:
            return None
        best: tuple[float, tuple[int, ...]] | None = None
        for value, members in groups.items():
            if wanted and value not in wanted:
                continue
            rest = sorted((p for p in members if p not in must), key=lambda p: (-weight(p), p))
            if len(rest) < need:
                continue
            chosen = tuple(must) + tuple(rest[:need])
            score = sum(weight(p) for p in chosen)
            if best is None or score > best[0]:
                best = (score, chosen)
        return best[1] if best is not None else None
    if combo is Combo.PRIME:
        return _by_slots([(lambda c, s=s: c.suit is s) for s in Suit], cards, must, weight)
    found: tuple[float, tuple[int, ...]] | None = None
    for window in run_windows(aces):
        suits: Iterable[Suit | None] = list(Suit) if suited_runs else [None]
        for suit in suits:
            slots = [(lambda c, r=r, s=suit: int(c.rank) == r and (s is None or c.suit is s))
                     for r in sorted(window)]
            chosen = _by_slots(slots, cards, must, weight)
            if chosen is not None:
                score = sum(weight(p) for p in chosen)
                if found is None or score > found[0]:
                    found = (score, chosen)
    return found[1] if found is not None else None


def _fits(combo: Combo, value: object) -> bool:
    """Whether a place known only as `value` (a colour or a suit) can serve in `combo`."""
    return isinstance(value, Colour) if combo is Combo.FIVE_OF_A_COLOUR else isinstance(value, Suit)


def _by_slots(slots: list[Callable[[Card], bool]], cards: dict[int, Card], must: Sequence[int],
              weight: Callable[[int], float]) -> tuple[int, ...] | None:
    """One place a slot, every place of `must` in a slot of its own, the heaviest elsewhere."""
    taken: dict[int, int] = {}
    for p in must:
        fits = [i for i, slot in enumerate(slots) if i not in taken and slot(cards[p])]
        if not fits:
            return None
        taken[fits[0]] = p
    for i, slot in enumerate(slots):
        if i in taken:
            continue
        options = sorted((p for p, c in cards.items() if p not in taken.values() and slot(c)),
                         key=lambda p: (-weight(p), p))
        if not options:
            return None
        taken[i] = options[0]
    chosen = list(must) + [p for p in taken.values() if p not in must]
    return tuple(chosen)


class AssayerBot(ProspectorBot):
    """`prospector` with what the others know followed, denial in its claims, deliberate
    looks, colour deductions and spoiling claims. See the module docstring."""

    games: ClassVar[tuple[str, ...]] = ("paved-with-gold",)

    def __init__(self, looks: str = "any", deny: bool = True, deduce: bool = True,
                 spoil: bool = True, gamble: float = 0.2) -> None:
        """`looks`: where to look first (`theirs`, `fresh` or `any`); `deny`: claim the cards
        the others know first; `deduce`: use colours and suits known by elimination; `spoil`:
        break an opponent's sure combination with a smaller claim of one's own."""
        if looks not in LOOKS:
            raise ValueError(f"looks is one of {', '.join(LOOKS)}, not {looks!r}")
        super().__init__()
        self.looks = looks
        self.deny = deny
        self.deduce = deduce
        self.spoil = spoil
        self.gamble = gamble

    def start(self, info: GameInfo) -> None:
        """Start with nothing known of anyone."""
        super().start(info)
        self.aces = self.rules.aces
        self.theirs: dict[int, set[int]] = {s: set() for s in range(info.players)
                                             if s != info.seat}
        self.plan: tuple[int, ...] = ()

    def act(self, obs: Observation[Any]) -> Action:
        """Follow the others' looks, then play as `prospector` with this bot's choices."""
        self.follow(obs.events)
        return super().act(obs)

    def follow(self, events: Iterable[Event]) -> None:
        """Keep the places each other seat has looked at, until their cards leave."""
        for ev in events:
            if isinstance(ev, Look) and ev.seat in self.theirs:
                self.theirs[ev.seat].add(ev.position)
            elif isinstance(ev, Remove):
                for places in self.theirs.values():
                    places.difference_update(ev.positions)

    # -- knowledge ------------------------------------------------------------------------------

    def weight(self, place: int) -> float:
        """How much using the card at `place` in a claim denies the others."""
        if not self.deny:
            return 0.0
        return float(sum(1 for places in self.theirs.values() if place in places))

    def lead(self, places: Iterable[int]) -> int:
        """The place of a claim to pick up first: the one the others know most (the lowest of
        equals), so that what they know leaves the square."""
        return max(places, key=lambda p: (self.weight(p), -p))

    @staticmethod
    def unaccounted(view: PavedView, known: dict[int, Card]) -> Counter[Card]:
        """The cards neither out of play nor known at a place: the unknown places and stock."""
        return Counter(FULL_PACK) - Counter(view.out) - Counter(known.values())

    def deduced(self, view: PavedView, known: dict[int, Card]) -> dict[int, object]:
        """Places not known whose colour (or suit) is certain: with the stock empty, when every
        card not accounted for is of one colour (or suit)."""
        if not self.deduce or view.stock:
            return {}
        unknown = [p for p, cell in enumerate(view.cells)
                   if cell is not Spot.EMPTY and p not in known]
        if not unknown:
            return {}
        rest = list(self.unaccounted(view, known).elements())
        colours = {c.colour for c in rest}
        suits = {c.suit for c in rest}
        if len(suits) == 1:
            # one suit: it gives the colour too, but a place can carry one value; flushes need
            # the suit and five of a colour is judged on known cards plus these
            return dict.fromkeys(unknown, next(iter(suits)))
        if len(colours) == 1:
            return dict.fromkeys(unknown, next(iter(colours)))
        return {}

    def best_claim(self, view: PavedView, known: dict[int, Card], held: Sequence[int],
                   combos: Iterable[Combo]) -> tuple[Combo, tuple[int, ...]] | None:
        """The claim to make among `combos` (best first; equal points compared by denial) using
        every held place: the combination and its places."""
        colours = self.deduced(view, known)
        colour_of = {p: (v.colour if isinstance(v, Suit) else v) for p, v in colours.items()}
        best: tuple[Combo, tuple[int, ...]] | None = None
        best_key: tuple[int, float] | None = None
        for combo in combos:
            if best is not None and combo.points < best[0].points:
                break
            extra = colour_of if combo is Combo.FIVE_OF_A_COLOUR else colours
            found = choose_set(combo, known, held, self.weight, self.aces,
                               self.rules.suited_runs, extra if combo in (
                                   Combo.FIVE_OF_A_COLOUR, Combo.FLUSH) else None)
            if found is None:
                continue
            sure = [known[p] for p in found if p in known]
            if len(sure) == combo.size and not self.rules.holds(combo, sure):
                continue
            key = (combo.points, sum(self.weight(p) for p in found))
            if best_key is None or key > best_key:
                best, best_key = (combo, found), key
        return best

    # -- the phases -----------------------------------------------------------------------------

    def _start_turn(self, view: PavedView, legal: Sequence[Action]) -> Action:
        self.plan = ()
        if actions.END_ACTION in legal and self.end_is_certain(view):
            return actions.END_ACTION
        known = self.known(view)
        found = self.best_claim(view, known, (), self.claimable(view, 0))
        if found is None and self.spoil:
            found = self.spoiler(view, known)
        if found is not None:
            combo, places = found
            sure = [p for p in places if p in known]
            if self.gambles(view, known, combo):
                unseen = self.place_to_look(view, known)
                if unseen >= 0:
                    return actions.look(unseen)
            if sure:
                first = self.lead(sure)
                self.plan = (first, *[p for p in places if p != first])
                return actions.look(first)
        return actions.look(self.place_to_look(view, known))

    def gambles(self, view: PavedView, known: dict[int, Card], combo: Combo) -> bool:
        """Whether to look at an unknown place before making a sure claim of `combo`: when the
        chance that the card seen makes a claim of that value with what the bot knows is at
        least `gamble`. The card seen then takes the place of one of the claim's, which is kept
        for later; if it makes none, the claim waits a turn."""
        if self.gamble > 1:
            return False
        unseen = self.unknown_places(view, known)
        if not unseen:
            return False
        place = unseen[0]
        pool = self.unaccounted(view, known)
        kinds = [c for c in self.claimable(view, 1) if c.points >= combo.points]
        hits = 0
        for card, count in pool.items():
            trial = dict(known)
            trial[place] = card
            if self.best_claim(view, trial, (place,), kinds) is not None:
                hits += count
        return hits >= self.gamble * max(1, sum(pool.values()))

    def _holding(self, view: PavedView, legal: Sequence[Action]) -> Action:
        held = tuple(p for p, _ in view.hand)
        known = self.known(view)
        combos = self.claimable(view, len(held))
        if self.plan and self.plan[0] in held and len(held) == 1:
            planned = self._planned_combo(view, known, held)
            if planned is not None:
                return planned
        found = self.best_claim(view, known, held, combos)
        if found is not None:
            self.plan = found[1]
            return actions.claim(found[0], held)
        self.plan = ()
        if len(held) == 1:
            unseen = self.place_to_look(view, known)
            if unseen >= 0:
                return actions.look(unseen)
        return actions.PUT_BACK_ACTION

    def _planned_combo(self, view: PavedView, known: dict[int, Card],
                       held: tuple[int, ...]) -> Action | None:
        """The claim planned at the start of the turn (a spoiling one, below the floor), if it
        still stands."""
        for combo in BEST_FIRST:
            if combo.size != len(self.plan):
                continue
            cards = [known.get(p) for p in self.plan]
            if all(c is not None for c in cards) and self.rules.holds(
                    combo, [c for c in cards if c is not None]):
                better = self.best_claim(view, known, held, self.claimable(view, len(held)))
                if better is not None:
                    self.plan = better[1]
                    return actions.claim(better[0], held)
                return actions.claim(combo, held)
        return None

    def _turn_up(self, view: PavedView, legal: Sequence[Action]) -> Action:
        have = set(view.claim_positions)
        for p in self.plan:
            if p not in have and actions.turn_up(p) in legal:
                return actions.turn_up(p)
        return super()._turn_up(view, legal)

    def place_to_look(self, view: PavedView, known: dict[int, Card]) -> int:
        """A face-down place whose card this bot does not know (-1 if none): where `looks`
        says, at random among equals."""
        unseen = self.unknown_places(view, known)
        if not unseen:
            return -1
        if self.looks != "any":
            theirs = [p for p in unseen if self.weight_seen(p)]
            fresh = [p for p in unseen if not self.weight_seen(p)]
            first = theirs if self.looks == "theirs" else fresh
            unseen = first or unseen
        return unseen[self.rng.randrange(len(unseen))]

    def weight_seen(self, place: int) -> bool:
        """Whether another seat knows the card at `place`."""
        return any(place in places for places in self.theirs.values())

    def spoiler(self, view: PavedView,
                known: dict[int, Card]) -> tuple[Combo, tuple[int, ...]] | None:
        """A smaller sure claim that breaks every sure combination of the most valuable kind
        an opponent knows (as far as this bot knows their cards), or None."""
        floor = self.claimable(view, 0)
        if not floor:
            return None
        top = [c for c in floor if c.points == floor[0].points]
        for places in self.theirs.values():
            theirs = {p: known[p] for p in places if p in known}
            if self.rules.find(list(theirs.values()), top) is None:
                continue
            for combo in BEST_FIRST:
                if combo.points >= floor[0].points:
                    continue
                for first in sorted(theirs):
                    found = choose_set(combo, known, (first,), self.weight, self.aces,
                                       self.rules.suited_runs)
                    if found is None:
                        continue
                    left = [c for p, c in theirs.items() if p not in found]
                    if self.rules.find(left, top) is None:
                        return combo, found
        return None


__all__ = ["LOOKS", "AssayerBot", "choose_set"]
