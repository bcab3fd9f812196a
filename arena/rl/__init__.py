"""Games as PettingZoo environments, and trained policies as bots (docs/rl.md).

`make_env` needs the `rl` extra (pettingzoo, gymnasium) and imports it only when called; the
encodings and `PolicyBot` need numpy alone, so a policy bot plays in the sandbox."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.rl.encoding import Encoder, variant_of
from arena.rl.games import encoder_for
from arena.rl.policy import LinearPolicy, PolicyBot

if TYPE_CHECKING:
    from arena.rl.env import ArenaEnv

__all__ = ["Encoder", "LinearPolicy", "PolicyBot", "encoder_for", "make_env", "variant_of"]


def make_env(game: str, variant: str | None = None, players: int | None = None,
             **options: Any) -> ArenaEnv:
    """A PettingZoo AEC environment of a registered game's variant (a preset name or a label
    'preset,key=value'); `players` defaults to the fewest the variant takes. Options: `observe`
    ('view' or 'history'), `reward` ('rank' or 'margin'), `history_rows`, `render_mode`; any
    other option is a variant parameter (`max_turns=50`)."""
    from arena.rl.env import ArenaEnv

    env_keys = {"observe", "reward", "history_rows", "render_mode"}
    env_options = {k: v for k, v in options.items() if k in env_keys}
    overrides = {k: str(v) for k, v in options.items() if k not in env_keys}
    chosen = variant_of(game, variant, overrides)
    seats = players if players is not None else chosen.params.players_allowed().start
    return ArenaEnv(chosen, seats, **env_options)
