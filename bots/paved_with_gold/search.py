"""Paved with Gold's search: the playout policy of `search`, and `paved-search`.

The playout policy is `prospector`'s rules on a sampled state. A sampled state
(`arena.games.paved_with_gold.sampler.PavedSample`) follows which places each seat knows, so
each seat plays out from its own memory, not from the true cards: it claims a sure combination
of the most valuable kind still possible, else looks at places it does not know, two a turn,
and puts them back; it makes the end claim when it is right.

`paved-search` is `assayer` with the claims it would not make searched. In Paved with Gold
gathering information is the game, which determinized search cannot judge (the generic `search`
loses to `prospector`), so the search does not choose where to look: it plays `assayer`'s move
unless one of these plays out better on the sampled deals, each played to the end of the deal by
the policy above, by at least `margin` points on average: at the start of a turn, a sure claim
of any kind (`assayer` claims only the most valuable kind still possible); holding cards, a
claim one card short, completed by a place whose card it does not know (one at random), where at
least `chance` of the cards unaccounted for would complete it (`assayer` never claims unsure).
The margin guards against the best of a few noisy means: without it the bot lost to `assayer`
(docs/strategy.md, section 9).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any, ClassVar

from arena.api import Action, Event, GameInfo, Observation
from arena.cards import Card
from arena.engine import Knowledge, State
from arena.games.paved_with_gold import BEST_FIRST, Combo, PavedView, Phase, actions
from arena.games.paved_with_gold.sampler import PavedSampler
from bots.algorithms.hints import Playout, SearchHints
from bots.algorithms.search_base import margin, params_of
from bots.paved_with_gold.assayer import AssayerBot


def _floor(state: Any) -> list[Combo]:
    """The combinations of the most valuable kind still possible among the cards in play, and
    those above it, best first."""
    in_play = [c for c in state.square if c is not None] + state.stock
    found = state.rules.find(in_play)
    floor = found[0].points if found is not None else 0
    return [c for c in BEST_FIRST if c.points >= floor]


def paved_greedy(state: State, seat: int, rng: random.Random) -> Action:
    """`prospector`'s choice for `seat` from what it knows in a sampled state. Its chance comes
    from the sample's own `playout_rng` where it has one (the same for every action tried on
    that sample, which takes the luck of the playouts out of the comparison), else `rng`."""
    s: Any = state
    rng = getattr(state, "playout_rng", rng)
    legal = state.legal(seat)
    phase = s.phase
    if phase is Phase.BONUS_TO:
        return min(legal, key=lambda a: s.scores()[a[1]])
    square: list[Card | None] = s.square
    mine = {p: square[p] for p in s.known[seat] if square[p] is not None}
    if phase is Phase.TURN_UP:
        have = list(s.face_up)
        places = list(dict.fromkeys(have + list(mine)))
        cards = [square[p] for p in places]
        found = s.rules.find(cards, (s.combo,), must=range(len(have)))
        if found is not None:
            for i in found[1]:
                if places[i] not in have:
                    return actions.turn_up(places[i])
        return legal[rng.randrange(len(legal))]
    unseen = [p for p, c in enumerate(square) if c is not None and p not in mine
              and p not in s.held]
    if phase is Phase.LOOK:
        if actions.END_ACTION in legal and not s.rules.any_combo(
                [c for c in square if c is not None]):
            return actions.END_ACTION
        places = list(mine)
        found = s.rules.find([mine[p] for p in places], _floor(s))
        if found is not None:
            return actions.look(places[found[1][0]])
    else:  # Phase.HOLD
        held = list(s.held)
        places = held + [p for p in mine if p not in held]
        combos = [c for c in _floor(s) if c.size > len(held)]
        found = s.rules.find([square[p] for p in places], combos, must=range(len(held)))
        if found is not None:
            return actions.claim(found[0], tuple(held))
        if len(held) > 1 or not unseen:
            return actions.PUT_BACK_ACTION
    if not unseen:
        return legal[rng.randrange(len(legal))]
    return actions.look(unseen[rng.randrange(len(unseen))])


class PavedSearchBot(AssayerBot):
    """`assayer` with the claims it would not make weighed against its move by determinized
    playouts to the end of the deal (see the module docstring)."""

    games: ClassVar[tuple[str, ...]] = ("paved-with-gold",)

    def __init__(self, samples: int = 32, margin: float = 3.0, chance: float = 0.2,
                 budget: float = 0.0) -> None:
        """`samples`: deals sampled a searched decision; `margin`: how much more a claim's mean
        playout must gain than `assayer`'s own move to be played instead; `chance`: the least
        chance of coming good for a claim one card short to be tried (above 1: none);
        `budget`: ms a decision may take before it stops sampling (0: no limit,
        deterministic)."""
        if samples < 1 or margin < 0 or chance < 0 or budget < 0:
            raise ValueError("samples must be at least 1, margin, chance and budget at least 0")
        super().__init__()
        self.samples = samples
        self.margin = margin
        self.chance = chance
        self.budget = budget
        self.sampler = PavedSampler(horizon=0)

    def start(self, info: GameInfo) -> None:
        """Nothing seen yet."""
        super().start(info)
        self.params = params_of(info)
        self.seen: list[Event] = []
        # the search draws from a stream of its own, seeded from the bot's without drawing
        # from it, so that where it keeps `assayer`'s move, `assayer`'s own chances are the same
        self.search_rng = random.Random(repr(self.rng.getstate()))

    def act(self, obs: Observation[Any]) -> Action:
        """`assayer`'s move, unless a claim it would not make plays out better: at the start
        of a turn a sure claim of any kind, holding cards a claim one card short."""
        self.seen += obs.events
        choice = super().act(obs)
        view: PavedView = obs.view
        if view.phase is Phase.LOOK and choice != actions.END_ACTION:
            plans = self.claims(view)
        elif view.phase is Phase.HOLD and actions.verb(choice) != actions.CLAIM:
            plans = self.one_short(view)
        else:
            return choice
        if not plans:
            return choice
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen), view)
        means = self.evaluate(knowledge, [None, *plans], choice)
        best = max(range(1, len(means)), key=means.__getitem__)
        if means[best] <= means[0] + self.margin:
            return choice
        combo, self.plan = plans[best - 1]
        if view.phase is Phase.LOOK:
            return actions.look(self.plan[0])
        return actions.claim(combo, tuple(p for p, _ in view.hand))

    def claims(self, view: PavedView) -> list[tuple[Combo, tuple[int, ...]]]:
        """The sure claim of each kind the bot could make now from the cards it knows (the one
        that denies the others most), other than the one it plans anyway."""
        known = self.known(view)
        out = []
        for combo in BEST_FIRST:
            found = self.best_claim(view, known, (), (combo,))
            if found is None or any(p not in known for p in found[1]):
                continue
            first = self.lead(found[1])
            plan = (first, *[p for p in found[1] if p != first])
            if set(plan) != set(self.plan):
                out.append((combo, plan))
        return out

    def one_short(self, view: PavedView) -> list[tuple[Combo, tuple[int, ...]]]:
        """Claims with the cards in hand that the known cards leave one card short, of each
        kind no sure claim makes: completed by a place the bot does not know (one drawn at
        random), with the known cards most of the cards unaccounted for would complete, where
        at least `chance` of them would. The places: those in hand, the known, that place."""
        known = self.known(view)
        held = tuple(p for p, _ in view.hand)
        unknown = self.unknown_places(view, known)
        if not unknown:
            return []
        place = unknown[self.search_rng.randrange(len(unknown))]
        pool = self.unaccounted(view, known)
        total = sum(pool.values())
        out = []
        for combo in BEST_FIRST:
            if combo.size <= len(held) or self.best_claim(view, known, held, (combo,)):
                continue
            hits: Counter[tuple[int, ...]] = Counter()
            for card, count in pool.items():
                found = self.best_claim(view, {**known, place: card}, held, (combo,))
                if found is not None and place in found[1]:
                    hits[found[1]] += count
            if hits:
                places, count = hits.most_common(1)[0]
                if count >= self.chance * total:
                    rest = [p for p in places if p not in held and p != place]
                    out.append((combo, (*held, *rest, place)))
        return out

    def evaluate(self, knowledge: Knowledge, plans: list[tuple[Combo, tuple[int, ...]] | None],
                 own: Action) -> list[float]:
        """The mean final margin of each plan (None: `own`, the move `assayer` chose) over the
        samples, each played out to the end of the deal with `prospector`'s rules."""
        deadline = time.perf_counter() + self.budget / 1000 if self.budget else None
        totals = [0.0] * len(plans)
        seat = knowledge.seat
        done = 0
        for state in self.sampler.sample(knowledge, self.samples, self.search_rng):
            for i, plan in enumerate(plans):
                twin: Any = self.sampler.clone(state)
                if plan is None:
                    twin.apply(seat, own)
                else:
                    combo, places = plan
                    if twin.phase is Phase.LOOK:
                        twin.apply(seat, actions.look(places[0]))
                    held = tuple(twin.held)
                    twin.apply(seat, actions.claim(combo, held))
                    for place in places[len(held):]:
                        if twin.to_act() != (seat,) or twin.phase is not Phase.TURN_UP:
                            break
                        twin.apply(seat, actions.turn_up(place))
                while twin.to_act():
                    actor = twin.to_act()[0]
                    twin.apply(actor, paved_greedy(twin, actor, self.search_rng))
                totals[i] += margin(twin, seat)
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return [total / done for total in totals]


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=paved_greedy)
"""What Paved with Gold tells the generic search: greedy playouts (docs/strategy.md,
section 9)."""
