"""Trained policies as ordinary bots: `PolicyBot` encodes each observation as the environment
does and plays the policy's choice. Needs numpy alone (it plays in the sandbox)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.api import Action, Bot, GameInfo, Observation
from arena.rl.encoding import Encoder, History, variant_of
from arena.rl.games import encoder_for

Policy = Callable[[Any, np.ndarray], int]
"""A policy: (observation, action_mask) -> the index of a legal action."""


@dataclass(frozen=True)
class LinearPolicy:
    """A linear softmax policy: logits = observation @ weights + bias, masked, then the most
    likely action (or one drawn, given an rng)."""

    weights: np.ndarray
    bias: np.ndarray

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read `weights` and `bias` from a numpy `.npz` file."""
        with np.load(path) as data:
            return cls(np.asarray(data["weights"], dtype=np.float32),
                       np.asarray(data["bias"], dtype=np.float32))

    def save(self, path: str | Path) -> None:
        """Write `weights` and `bias` to a numpy `.npz` file."""
        np.savez(path, weights=self.weights, bias=self.bias)

    def logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked logits (illegal actions at -inf)."""
        raw = observation @ self.weights + self.bias
        return np.where(mask.astype(bool), raw, -np.inf)

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The softmax over the legal actions."""
        z = self.logits(observation, mask)
        z = np.exp(z - z.max())
        return z / z.sum()

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action."""
        return int(np.argmax(self.logits(observation, mask)))


class PolicyBot(Bot):
    """Plays a policy as a bot: a callable `policy(observation, action_mask) -> index`, or a
    saved `.npz` file of a `LinearPolicy` (`policy_file`). The observation is the environment's
    `observation` array, or with `observe="history"` a dict of `observation` and `history`."""

    def __init__(self, policy: Policy | None = None, policy_file: str = "",
                 observe: str = "view", history_rows: int = 512) -> None:
        """A bot for `policy`, or for the policy saved in `policy_file`."""
        if policy is None:
            if not policy_file:
                raise ValueError("PolicyBot needs a policy or a policy_file")
            policy = LinearPolicy.load(policy_file)
        self.policy = policy
        self.observe = observe
        self.history_rows = history_rows

    def start(self, info: GameInfo) -> None:
        """Build the encoder of this game's variant and table size."""
        super().start(info)
        self.encoder: Encoder = encoder_for(variant_of(info.game, info.variant), info.players)
        self.history = History(self.encoder.history, self.history_rows)

    def act(self, obs: Observation[Any]) -> Action:
        """Encode the observation, ask the policy, play the action of its index."""
        enc = self.encoder
        mask = enc.mask(obs.legal)
        vector = enc.encode(obs.view, obs.seat)
        observation: Any = vector
        if self.observe == "history":
            self.history.add(obs.events)
            observation = {"observation": vector, "history": self.history.array.copy()}
        index = int(self.policy(observation, mask))
        if not 0 <= index < enc.size or not mask[index]:
            raise ValueError(f"the policy chose {index}, not a legal action's index")
        return enc.decode_action(index)
