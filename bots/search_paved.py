"""Paved with Gold's playout policy for `search`: `prospector`'s rules on a sampled state.

A sampled state (`arena.games.paved_with_gold.sampler.PavedSample`) follows which places each
seat knows, so each seat plays out from its own memory, not from the true cards: it claims a
sure combination of the most valuable kind still possible, else looks at places it does not
know, two a turn, and puts them back; it makes the end claim when it is right.
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from arena.api import Action, Event, GameInfo, Observation
from arena.cards import Card
from arena.engine import Knowledge, State
from arena.games.paved_with_gold import BEST_FIRST, Combo, PavedView, Phase, actions
from arena.games.paved_with_gold.sampler import PavedSampler
from bots.assayer import AssayerBot
from bots.search_base import margin, params_of


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
    """`assayer` whose start of a turn is searched: its own move against each sure claim it
    could make now, by determinized playouts to the end of the deal."""

    games: ClassVar[tuple[str, ...]] = ("paved-with-gold",)

    def __init__(self, samples: int = 16, margin: float = 0.0, budget: float = 0.0) -> None:
        """`samples`: deals sampled a searched decision; `margin`: how much more a claim's mean
        playout must gain than `assayer`'s own move to be played instead; `budget`: ms a
        decision may take before it stops sampling (0: no limit, deterministic)."""
        if samples < 1 or margin < 0 or budget < 0:
            raise ValueError("samples must be at least 1, margin and budget at least 0")
        super().__init__()
        self.samples = samples
        self.margin = margin
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
        """`assayer`'s move, unless at the start of a turn a sure claim plays out better."""
        self.seen += obs.events
        choice = super().act(obs)
        view: PavedView = obs.view
        if view.phase is not Phase.LOOK or choice == actions.END_ACTION:
            return choice
        plans = self.claims(view)
        if not plans:
            return choice
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen), view)
        totals = self.evaluate(knowledge, [None, *plans], choice)
        best = max(range(1, len(totals)), key=totals.__getitem__)
        if totals[best] <= totals[0] + self.margin * self.done:
            return choice
        self.plan = plans[best - 1][1]
        return actions.look(self.plan[0])

    def claims(self, view: PavedView) -> list[tuple[Combo, tuple[int, ...]]]:
        """The sure claim of each kind the bot could make now from the cards it knows (the one
        that denies the others most), other than the one it plans anyway."""
        known = self.known(view)
        out = []
        for combo in BEST_FIRST:
            found = self.best_claim(view, known, (), (combo,))
            if found is None or any(p not in known for p in found[1]):
                continue
            first = max(found[1], key=lambda p: (self.weight(p), -p))
            plan = (first, *[p for p in found[1] if p != first])
            if set(plan) != set(self.plan):
                out.append((combo, plan))
        return out

    def evaluate(self, knowledge: Knowledge, plans: list[tuple[Combo, tuple[int, ...]] | None],
                 own: Action) -> list[float]:
        """The total final margin of each plan (None: `own`, the move `assayer` chose) over
        the samples, each played out to the end of the deal with `prospector`'s rules."""
        deadline = time.perf_counter() + self.budget / 1000 if self.budget else None
        totals = [0.0] * len(plans)
        seat = knowledge.seat
        self.done = 0
        for state in self.sampler.sample(knowledge, self.samples, self.search_rng):
            for i, plan in enumerate(plans):
                twin: Any = self.sampler.clone(state)
                if plan is None:
                    twin.apply(seat, own)
                else:
                    combo, places = plan
                    twin.apply(seat, actions.look(places[0]))
                    twin.apply(seat, actions.claim(combo, places[:1]))
                    for place in places[1:]:
                        if twin.to_act() != (seat,) or twin.phase is not Phase.TURN_UP:
                            break
                        twin.apply(seat, actions.turn_up(place))
                while twin.to_act():
                    actor = twin.to_act()[0]
                    twin.apply(actor, paved_greedy(twin, actor, self.search_rng))
                totals[i] += margin(twin, seat)
            self.done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals
