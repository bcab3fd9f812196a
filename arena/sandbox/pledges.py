"""What the sandbox promises, each promise in a few words (`arena.sandbox.promises` says what
keeps each on this machine, `arena.sandbox.probes` attacks each)."""

from __future__ import annotations

OUTLIVE = "nothing a game starts outlives it"
UNSEEN = "no process outside its game seen, signalled or reniced"
WRITES = "writes only in its directory, metadata too"
KEPT = "what the arena keeps is out of view"
NETWORK = "no network"
CHANNELS = "no channel between two game processes but their game"
RATION = "files within the disk ration (32, 512 MB)"
HELD = "memory, processes and CPU held per game"
PAUSED = "every process stopped between its turns"
AHEAD = "nothing runs ahead of its game"
PRIVILEGES = "no privileges"
NARROW = "a narrowed kernel interface"
TERMINAL = "no terminal"
DEVICES = "no devices"
ENVIRONMENT = "nothing of the arena's environment or command line"
SIGNALS = "a crash is a fault (ordinary signals)"
"""The promises, each in a few words. `CHANNELS` covers every seat, not only every game: no two
game processes (the next game of the same bot, the other seats at the same table, two seats of
one bot) can pass each other anything but through the game itself."""
