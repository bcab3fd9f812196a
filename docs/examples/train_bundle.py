"""Train a linear softmax policy for Stealing the Old Man's Bundle with numpy alone (REINFORCE
against `random`) in about twenty seconds, and save it where `bundle_policy_bot.py` finds it
(docs/rl.md).

Run it:  python docs/examples/train_bundle.py  (writes docs/examples/bundle_policy.npz)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from arena.rl import LinearPolicy, make_env

HERE = Path(__file__).resolve().parent


def train(episodes: int = 4000, seed: int = 0, rate: float = 0.05) -> LinearPolicy:
    """REINFORCE with a running-mean baseline: seat 0 learns, seat 1 plays uniformly at random;
    seats swap every episode so the policy learns both sides."""
    env = make_env("old-mans-bundle")
    rng = np.random.default_rng(seed)
    size = env.encoder.layout.size
    n = env.encoder.size
    policy = LinearPolicy(np.zeros((size, n), dtype=np.float32), np.zeros(n, dtype=np.float32))
    baseline = 0.0
    for episode in range(episodes):
        env.reset(seed=1_000_000 + seed * episodes + episode)
        learner = f"seat_{episode % 2}"
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        reward = 0.0
        for agent in env.agent_iter():
            obs, rew, done, cut, _ = env.last()
            if done or cut:
                if agent == learner:
                    reward = rew
                env.step(None)
                continue
            mask = obs["action_mask"]
            if agent == learner:
                p = policy.probabilities(obs["observation"], mask)
                action = int(rng.choice(n, p=p))
                steps.append((obs["observation"], p, action))
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, p, action in steps:
            grad = -p
            grad[action] += 1.0  # d log softmax / d logits
            policy.weights[:] += rate * advantage * np.outer(x / 10.0, grad)
            policy.bias[:] += rate * advantage * grad
    return policy


def main() -> None:
    """Train and save `bundle_policy.npz` beside this file."""
    started = time.perf_counter()
    policy = train()
    out = HERE / "bundle_policy.npz"
    policy.save(out)
    sys.stdout.write(f"trained in {time.perf_counter() - started:.1f}s -> {out}\n")


if __name__ == "__main__":
    main()
