"""The line protocol's compact encoding (docs/protocol.md): this package's observation vector and
action mask of each decision, sent to a program bot that asks for them in its `bot.toml`
(`encoding = "compact"`), so that a policy trained on the PettingZoo environments (`make_env`)
can play as a program, in any language, reading exactly what it was trained on."""

from __future__ import annotations

from typing import Any

from arena.api import GameInfo, Observation
from arena.rl.encoding import variant_of
from arena.rl.games import encoder_for


class CompactEncoding:
    """A game's encoding at one variant and table size, as the protocol's extra fields."""

    def __init__(self, info: GameInfo) -> None:
        """The encoder of the game `info` starts (NoEncodingError if it has none)."""
        self.encoder = encoder_for(variant_of(info.game, info.variant), info.players)

    def start_fields(self) -> dict[str, Any]:
        """What `start` adds: the encoding's name, the vector's length, the number of actions."""
        return {"encoding": "compact", "observation_size": self.encoder.layout.size,
                "action_count": self.encoder.size}

    def act_fields(self, obs: Observation[Any]) -> dict[str, Any]:
        """What `act` adds: the observation vector (numbers) and the action mask (0 or 1 for
        every action of the encoding, in its order)."""
        encoder = self.encoder
        return {"observation": encoder.encode(obs.view, obs.seat).tolist(),
                "mask": encoder.mask(obs.legal).tolist()}

    def action(self, index: int) -> Any:
        """The plain action of an encoded action's index (IndexError if there is none)."""
        if not 0 <= index < self.encoder.size:
            raise IndexError(index)
        return self.encoder.decode_action(index)
