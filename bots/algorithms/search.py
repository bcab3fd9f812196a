"""`search`: determinized search (Perfect Information Monte Carlo) for any game with a sampler.

At each decision with more than one legal action, the bot asks the game's sampler
(`Game.sampler()`, see `arena.engine.Sampler`) for `samples` full states consistent with what its
seat knows: every event it was shown and its view. On each sampled state it tries every legal
action and plays the game out `rollouts` times with a fast policy (the game's own simple bot,
or another where that measured better: the game's `SearchHints`), scoring the seat's margin: its
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
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.engine import Knowledge, Sampler, State, find_game
from bots.algorithms.hints import (
    DEFAULT_SAMPLES,
    SearchHints,
    hinted_games,
    hints_for,
)
from bots.algorithms.search_base import margin, params_of

SEARCH_GAMES = hinted_games()
"""The games that give the search their hints (`bots.algorithms.hints`): those whose package
supplies a sampler."""


class SearchBot(Bot):
    """Samples the hidden cards, tries every action on each sample, plays out with a fast
    policy, and plays the action of best mean margin."""

    games: ClassVar[tuple[str, ...]] = SEARCH_GAMES

    def __init__(self, samples: int = -1, rollouts: int = 1, budget: float = 0.0,
                 policy: str = "default", depth: int = -1) -> None:
        """`samples`: hidden states sampled a decision (-1: the game's own, `SearchHints`);
        `rollouts`: playouts of each action on each sample; `budget`: ms a decision may take
        before it stops sampling (0: no limit, deterministic); `policy`: the playouts' policy:
        `default` (the game's own, see `SearchHints`), `simple` (the game's simple bot),
        `greedy` or `random`; `depth`:
        the plies a playout plays before it is scored as it stands (0: to the end; -1: the
        game's own, `SearchHints`)."""
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
        hints: SearchHints = hints_for(game.name)
        self.hints = hints
        chosen = hints.playout.value if self.policy == "default" else self.policy
        self.plies = hints.depth if self.depth == -1 else self.depth
        if self.asked == -1:
            self.samples = hints.samples
        self.greedy = hints.greedy if chosen == "greedy" else None
        simple = hints.simple if chosen == "simple" else None
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
        late = 1 if self.hints.ties_to_last else -1
        best = max(range(len(obs.legal)), key=lambda i: (totals[i], i == first, late * i))
        return obs.legal[best]

    def tie_break(self, knowledge: Knowledge, legal: tuple[Action, ...]) -> int:
        """The index of the action preferred among equals: the playout policy's own where the
        game asks for it (`SearchHints.policy_breaks_ties`), else none (-1: the first legal
        action)."""
        if not self.hints.policy_breaks_ties or self.greedy is None:
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
