"""A game of the arena as a PettingZoo AEC environment (needs the `rl` extra)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.engine import ScoreOrder, State, Variant
from arena.match import deal_rng
from arena.rl.encoding import Encoder, History
from arena.rl.games import encoder_for
from arena.rl.rewards import rewards_of

OBSERVE = ("view", "history")
REWARDS = ("rank", "margin")


def agent_name(seat: int) -> str:
    """The agent of a seat: `seat_0`, `seat_1`, ..."""
    return f"seat_{seat}"


class ArenaEnv(AECEnv):
    """One game variant at one table size, dealt by the arena's own rules and `deal_rng`.

    Simultaneous decisions are asked one agent at a time, in seat order; their actions are kept
    until the last of them is given, then carried out together (`apply_joint`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi"], "name": "arena_v0", "is_parallelizable": False}

    def __init__(self, variant: Variant, players: int, observe: str = "view",
                 reward: str = "rank", history_rows: int = 512,
                 render_mode: str | None = None) -> None:
        """An environment of `variant` for `players` seats."""
        super().__init__()
        if observe not in OBSERVE:
            raise ValueError(f"observe must be one of {OBSERVE}, not {observe!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        variant.check_players(players)
        self.variant = variant
        self.players = players
        self.observe_mode = observe
        self.reward_mode = reward
        self.history_rows = history_rows
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(variant, players)
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.metadata = {**self.metadata, "name": f"arena_{variant.game.name}_v0"}
        layout = self.encoder.layout
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(layout.low(), layout.high(), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.size,), dtype=np.int8),
        }
        if observe == "history":
            width = self.encoder.history.width
            # numbers in events may be negative (Frogs' tadpole scores -10), not only None's -1
            parts["history"] = spaces.Box(-np.inf, np.inf, (history_rows, width),
                                          dtype=np.float32)
        self._observation_spaces = {a: spaces.Dict(parts) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(self.encoder.size)
                               for a in self.possible_agents}
        self._seeder = random.Random()
        self.state: State | None = None
        self.seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict of `observation`, `action_mask` (and `history`) of every agent."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over every action that can ever be legal in this variant."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the game of deal seed `seed` (a fresh seed drawn when None)."""
        if seed is None:
            seed = self._seeder.randrange(2**31)
        else:
            self._seeder.seed(f"env:{seed}")
        self.seed = seed
        self.state = self.variant.game.new_state(self.variant.params, self.players,
                                                 deal_rng(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.pending: dict[int, Any] = {}
        self.cursors = [0] * self.players
        self.histories = [History(self.encoder.history, self.history_rows)
                          for _ in range(self.players)]
        self.actions: list[tuple[int, Any]] = []
        self._select()

    def _select(self) -> None:
        """Point `agent_selection` at the next seat to decide, or end the game."""
        assert self.state is not None
        seats = [s for s in self.state.to_act() if s not in self.pending]
        if seats:
            self.agent_selection = agent_name(seats[0])
            return
        outcome = self.state.outcome()
        rewards = rewards_of(outcome.scores, outcome.order is ScoreOrder.HIGHER_WINS,
                             self.reward_mode)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = rewards[seat]
            self.terminations[agent] = True
            self.infos[agent] = {"scores": outcome.scores, "seat": seat}
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent`'s seat may see now, its action mask (and the events it has seen)."""
        assert self.state is not None
        seat = self.possible_agents.index(agent)
        state = self.state
        seats = state.to_act()
        deciding = seat in seats and seat not in self.pending
        legal = state.legal(seat) if deciding else ()
        out = {"observation": self.encoder.encode(state.view(seat), seat),
               "action_mask": self.encoder.mask(legal)}
        if self.observe_mode == "history":
            history = self.histories[seat]
            end = len(state.log)
            history.add(state.seen_by(seat, self.cursors[seat], end))
            self.cursors[seat] = end
            out["history"] = history.array.copy()
        return out

    def step(self, action: Any) -> None:
        """Carry out the selected agent's action (an index); None for an agent that is done."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        seat = self.possible_agents.index(agent)
        legal = self.state.legal(seat)
        plain = self.encoder.decode_action(action)
        chosen = next((a for a in legal if self.encoder.encode_action(a) == int(action)), None)
        if chosen is None:
            raise ValueError(f"{agent}: action {int(action)} {plain!r} is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        seats = self.state.to_act()
        self.actions.append((seat, plain))
        if len(seats) == 1:
            self.state.apply(seat, chosen)
        else:
            self.pending[seat] = chosen
            if len(self.pending) == len(seats):
                joint, self.pending = self.pending, {}
                self.state.apply_joint(joint)
        self._select()

    def render(self) -> str | None:
        """The table as text (`render_mode="ansi"`): the seat to act and its view."""
        if self.render_mode is None or self.state is None:
            return None
        seats = self.state.to_act()
        if not seats:
            return f"over: scores {self.state.outcome().scores}"
        return f"{self.agent_selection}: {self.state.view(seats[0])!r}"

    def close(self) -> None:
        """Nothing to release."""
