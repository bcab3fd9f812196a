"""A bot in any language: the line protocol (one JSON object per line each way over a program's
standard input and output), its JSON forms of what a bot sees, each game's shapes, and the
relay that plays a command as a bot (docs/protocol.md).

- `forms`: the messages the arena sends and the answers it reads, as JSON;
- `shapes`: each game's JSON shapes (events, view, actions), from the game's own definitions;
- `command`: bot specs naming a command (`cmd:./mybot`, a folder with `bot.toml`), and the
  `CommandBot` that relays a game to that program.
"""

from arena.protocol.forms import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
