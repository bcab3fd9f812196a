"""`search`: determinized search (Perfect Information Monte Carlo) for any game with a sampler.

At each decision with more than one legal action, the bot asks the game's sampler
(`Game.sampler()`, see `arena.engine.Sampler`) for `samples` full states consistent with what its
seat knows: every event it was shown and its view. On each sampled state it tries every legal
action and plays the game out `rollouts` times with a fast policy (the game's own simple bot,
or another where that measured better: `PLAYOUT_POLICIES`), scoring the seat's margin: its
score less the mean of the others' (negated where lower wins). It plays the action of best
mean margin over all samples. The same samples serve every action (common random numbers), so
the comparison between actions is sharper than the count suggests.

Everything random comes from the bot's own rng, so a game replays exactly. `budget` (ms, 0 =
none) stops adding samples once a decision has used that much time; the bot is then no longer
deterministic, so the default is a fixed number of samples, well under the tournament limit.
References: Ginsberg, "GIB: Imperfect information in a computationally challenging game" (JAIR
2001) for PIMC; Long, Sturtevant, Buro and Furtak, "Understanding the success of perfect
information Monte Carlo sampling in game tree search" (AAAI 2010) for when it works.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.engine import Knowledge, Sampler, State, find_game
from bots.algorithms.search_base import margin, params_of
from bots.animals.search import animals_caller
from bots.cribbage_square.search import square_static_greedy
from bots.cuckoo.search import cuckoo_threshold
from bots.memorandum.search import memorandum_recall
from bots.paved_with_gold.search import paved_greedy


def _simple_bots() -> dict[str, type[Bot]]:
    """The simple bot of each game, which acts on its view alone."""
    from bots.dig.heuristic import DigSimpleBot
    from bots.frogs_in_the_pond.heuristic import FrogsSimpleBot
    from bots.old_mans_bundle.heuristic import BundleSimpleBot

    return {"dig": DigSimpleBot, "old-mans-bundle": BundleSimpleBot,
            "frogs-in-the-pond": FrogsSimpleBot}


def bundle_greedy(state: State, seat: int, rng: random.Random) -> Action:
    """The Old Man's Bundle's playout policy: the capture that gains most at once (a steal of n
    cards gains 2n + 1, a take of k cards k + 1), else a random trail. `bundle-simple` takes a
    capture at random, which makes playouts misjudge steals, the game's biggest swings."""
    from arena.games.old_mans_bundle import Verb
    from arena.games.old_mans_bundle import actions as bundle_actions

    legal = state.legal(seat)
    view = state.view(seat)
    best, gain = None, 0
    for action in legal:
        move = bundle_actions.read(action)
        if move.verb is Verb.STEAL:
            value = 2 * view.bundles[1 - seat] + 1
        elif move.verb is Verb.TAKE:
            value = 1 + sum(1 for t in view.table if t.rank == move.card.rank
                            and (move.target is None or t == move.target))
        else:
            continue
        if value > gain:
            best, gain = action, value
    if best is not None:
        return best
    return legal[rng.randrange(len(legal))]


def dig_eights_last(state: State, seat: int, rng: random.Random) -> Action:
    """Dig's greedy playout policy: a random playable card other than an eight while there is
    one (an eight kept is a card that always follows later); after an eight, the suit held
    most."""
    from arena.games.dig import WILD, Phase
    from arena.games.dig import actions as dig_actions

    legal = state.legal(seat)
    view = state.view(seat)
    if view.phase is Phase.NAME:
        counts = {suit: 0 for suit in dig_actions.SUITS}
        for card in view.hand:
            if card.rank is not WILD and card.suit is not None:
                counts[card.suit] += 1
        return dig_actions.name(max(dig_actions.SUITS, key=lambda s: counts[s]))
    others = [a for a in legal if dig_actions.read_play(a).rank is not WILD]
    pool = others or list(legal)
    return pool[rng.randrange(len(pool))]


PLAYOUT_POLICIES: dict[str, str] = {
    "dig": "greedy", "old-mans-bundle": "greedy", "frogs-in-the-pond": "simple",
    "paved-with-gold": "greedy", "cuckoo": "greedy", "animals": "greedy",
    "cribbage-square": "greedy", "memorandum": "greedy",
}
"""Each game's default playout policy, as measured (docs/strategy.md, section 9): `simple` (the
game's simple bot), `random`, or `greedy` (a policy of this module)."""

PLAYOUT_DEPTHS: dict[str, int] = {"old-mans-bundle": 8, "animals": 2}
"""Each game's default playout length in plies (0: to the end). In the Old Man's Bundle a
playout stops after a round's worth of plays (eight) and counts the bundles as they stand: what one
move changes is settled by then, and later rounds only add the noise of random trails and
steals. In Animals a playout stops after two more cards faced and counts the cards held: the
game is chaotic (one card more or less and every later race changes), so longer playouts
only add noise to what a call changes at once (docs/strategy.md)."""

DEFAULT_SAMPLES = 24
"""Hidden states sampled a decision, unless the game has its own (`SAMPLES`)."""

SAMPLES: dict[str, int] = {"cuckoo": 100, "cribbage-square": 8}
"""Each game's own number of samples a decision. A Cuckoo playout is a few turns to the end of
the deal, so 100 samples cost about what 24 do elsewhere, and the choice between standing and
changing is often close (docs/strategy.md). In Cribbage Square every playout lays the rest of
the square for every seat, so 8 samples cost about 200 ms a decision early in a game (24 about
600)."""

_GREEDY: dict[str, Callable[[State, int, random.Random], Action]] = {
    "old-mans-bundle": bundle_greedy, "dig": dig_eights_last,
    "paved-with-gold": paved_greedy, "cuckoo": cuckoo_threshold, "animals": animals_caller,
    "memorandum": memorandum_recall, "cribbage-square": square_static_greedy,
}


POLICY_BREAKS_TIES: frozenset[str] = frozenset({"animals"})
"""Games where actions of equal value go to the playout policy's choice, not the first legal
action. In Animals the lots of races decide many playouts alike, so keeping quiet ties with
calling a match on every sample more often than the count suggests; calling is never worse."""

TIES_TO_LAST: frozenset[str] = frozenset({"memorandum"})
"""Games where actions of equal mean margin go to the last legal one rather than the first. In
Memorandum that is "pass" over "mine": a claim of a card not held that changes nothing in the
playouts is still a false claim, which tells the others (`chancer` learns from it) that
disputing this seat's calls pays."""


SEARCH_GAMES = ("dig", "old-mans-bundle", "frogs-in-the-pond", "paved-with-gold", "cuckoo",
                "animals", "cribbage-square", "memorandum")
"""The games whose package supplies a sampler."""


class SearchBot(Bot):
    """Samples the hidden cards, tries every action on each sample, plays out with a fast
    policy, and plays the action of best mean margin."""

    games: ClassVar[tuple[str, ...]] = SEARCH_GAMES

    def __init__(self, samples: int = -1, rollouts: int = 1, budget: float = 0.0,
                 policy: str = "default", depth: int = -1) -> None:
        """`samples`: hidden states sampled a decision (-1: the game's own, `SAMPLES`);
        `rollouts`: playouts of each action on each sample; `budget`: ms a decision may take
        before it stops sampling (0: no limit, deterministic); `policy`: the playouts' policy:
        `default` (the game's own, see `PLAYOUT_POLICIES`), `simple` (the game's simple bot),
        `greedy` or `random`; `depth`:
        the plies a playout plays before it is scored as it stands (0: to the end; -1: the
        game's own, `PLAYOUT_DEPTHS`)."""
        if (samples < 1 and samples != -1) or rollouts < 1 or budget < 0 or depth < -1:
            raise ValueError("samples (or -1) and rollouts must be at least 1, budget at least "
                             "0, depth at least -1")
        if policy not in ("default", "simple", "greedy", "random"):
            raise ValueError(f"policy is default, simple, greedy or random, not {policy!r}")
        self.policy = policy
        self.asked = samples
        self.samples = samples if samples != -1 else DEFAULT_SAMPLES
        self.rollouts = rollouts
        self.budget = budget
        self.depth = depth

    def start(self, info: GameInfo) -> None:
        """Find the game's sampler and playout policy; nothing seen yet (ValueError for a game
        without a sampler)."""
        super().start(info)
        game = find_game(info.game)
        sampler = game.sampler()
        if sampler is None:
            raise ValueError(f"{info.game} has no sampler for search")
        self.sampler: Sampler = sampler
        self.params = params_of(info)
        self.seen: list[Event] = []
        chosen = PLAYOUT_POLICIES.get(game.name, "random") if self.policy == "default" \
            else self.policy
        self.plies = PLAYOUT_DEPTHS.get(game.name, 0) if self.depth == -1 else self.depth
        if self.asked == -1:
            self.samples = SAMPLES.get(game.name, DEFAULT_SAMPLES)
        self.greedy = _GREEDY.get(game.name) if chosen == "greedy" else None
        simple = _simple_bots().get(game.name) if chosen == "simple" else None
        if chosen in ("simple", "greedy") and simple is None and self.greedy is None:
            raise ValueError(f"{info.game} has no {chosen} playout policy")
        self.policies: list[Bot] | None = None
        if simple is not None:
            self.policies = []
            for seat in range(info.players):
                bot = simple()
                bot.start(GameInfo(info.game, info.variant, info.params, seat, info.players,
                                   random.Random(self.rng.getrandbits(64))))
                self.policies.append(bot)

    def act(self, obs: Observation[Any]) -> Action:
        """The legal action of best mean margin over the sampled states."""
        self.seen += obs.events
        if len(obs.legal) == 1:
            return obs.legal[0]
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen),
                              obs.view)
        totals = self.evaluate(knowledge, obs.legal)
        first = self.tie_break(knowledge, obs.legal)
        late = 1 if self.info.game in TIES_TO_LAST else -1
        best = max(range(len(obs.legal)), key=lambda i: (totals[i], i == first, late * i))
        return obs.legal[best]

    def tie_break(self, knowledge: Knowledge, legal: tuple[Action, ...]) -> int:
        """The index of the action preferred among equals: the playout policy's own where the
        game asks for it (`POLICY_BREAKS_TIES`), else none (-1: the first legal action)."""
        if self.info.game not in POLICY_BREAKS_TIES or self.greedy is None:
            return -1
        state = self.sampler.sample(knowledge, 1, random.Random(0))[0]
        return legal.index(self.greedy(state, knowledge.seat, random.Random(0)))

    def evaluate(self, knowledge: Knowledge, legal: tuple[Action, ...]) -> list[float]:
        """The total margin of each legal action over the samples and rollouts."""
        deadline = time.perf_counter() + self.budget / 1000 if self.budget else None
        totals = [0.0] * len(legal)
        seat = knowledge.seat
        for state in self.sampler.sample(knowledge, self.samples, self.rng):
            for i, action in enumerate(legal):
                for _ in range(self.rollouts):
                    twin = self.sampler.clone(state)
                    self.step(twin, seat, action)
                    self.play_out(twin)
                    totals[i] += margin(twin, seat)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals

    def step(self, state: State, seat: int, action: Action) -> None:
        """The seat's action; where several seats decide at once (`apply_joint`), the others'
        actions come from the playout policy."""
        seats = state.to_act()
        if len(seats) == 1:
            state.apply(seat, action)
            return
        joint = {s: self.choose(state, s) for s in seats if s != seat}
        joint[seat] = action
        state.apply_joint(joint)

    def play_out(self, state: State) -> None:
        """Play `state` to its end (or where the sampler says a playout may stop) with the
        rollout policy."""
        choose, over = self.choose, self.sampler.playout_over
        left = self.plies or -1
        while left:
            left -= 1
            seats = state.to_act()
            if not seats or over(state):
                return
            if len(seats) == 1:
                seat = seats[0]
                state.apply(seat, choose(state, seat))
            else:
                state.apply_joint({s: choose(state, s) for s in seats})

    def choose(self, state: State, seat: int) -> Action:
        """The playout policy's action for `seat`: the game's simple bot, a greedy policy, or
        random."""
        legal = state.legal(seat)
        if len(legal) == 1:
            return legal[0]
        if self.greedy is not None:
            return self.greedy(state, seat, self.rng)
        if self.policies is None:
            return legal[self.rng.randrange(len(legal))]
        return self.policies[seat].act(Observation(seat, legal, (), state.view(seat)))
