"""A bot in any language: the line protocol (one JSON object per line each way over a program's
standard input and output), its JSON forms of what a bot sees, each game's shapes, and the
arena's half of a conversation with a program (docs/protocol.md).

- `forms`: the messages the arena sends and the answers it reads, as JSON;
- `shapes`: each game's JSON shapes (events, view, actions), from the game's own definitions;
- `command`: bot specs naming a command (`cmd:./mybot`, a folder with `bot.toml`), the
  `Speaker` (each message as its line, what an answer names), and `CommandBot`, which plays a
  program in the arena's own process (in a sandbox: `arena.sandbox.program`).
"""

from arena.protocol.forms import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
