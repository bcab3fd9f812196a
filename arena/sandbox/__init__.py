"""The sandbox: everything that runs untrusted bot code, behind this one front door.

The rest of the arena imports only from here: `Isolation` and `Limits` to configure it,
`sandboxed` and `probe` to check a bot spec and make its stand-in, `BotHost` and
`SandboxedSpec` to play it, and `validate_bot` for `arena validate`. The modules inside are the
sandbox maintainers' own:

- `stand_in`: the arena side: a bot's host process, the `SandboxedBot` that stands in for it in
  the match loop and enforces its time limits, the turns that pause it between its decisions;
- `host`: the bot side: a host process per bot and its forker, a locked-down process per game;
- `wire`: what the arena sends a game process;
- `pinning`: a game's processes share one CPU while it is played;
- `landlock`: kernel confinement of a game process (Linux Landlock);
- `immortal`: objects made immortal before a host forks games (CPython 3.12 and 3.13);
- `bytecode`: a bot's source compiled once by its host;
- `validate`: `arena validate`, a sandboxed battery for a submitted bot.
"""

from arena.sandbox.host import die_with_parent
from arena.sandbox.stand_in import (
    BACKSTOP_GAME_SECONDS,
    BACKSTOP_SETUP_SECONDS,
    TURNS,
    BotHost,
    Isolation,
    Limits,
    SandboxedBot,
    SandboxedSpec,
    probe,
    sandboxed,
)
from arena.sandbox.validate import Verdict, validate_bot

__all__ = [
    "BACKSTOP_GAME_SECONDS",
    "BACKSTOP_SETUP_SECONDS",
    "TURNS",
    "BotHost",
    "Isolation",
    "Limits",
    "SandboxedBot",
    "SandboxedSpec",
    "Verdict",
    "die_with_parent",
    "probe",
    "sandboxed",
    "validate_bot",
]
