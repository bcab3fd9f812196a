"""Games at a terminal for people: drawing each game's table, telling its events, reading moves.

`interface_for(game, style)` gives the `HumanInterface` of a game; `human.HumanBot` (the bot
`human`) puts a person in a seat through it. Modules: `style` (suit symbols and colour),
`generic` (plain words for any value, view or event), `interface` (the base interface and input
reading), `registry`, `human` (the human seat), and one module per game with a drawing or input
of its own.
"""

from arena.tty.interface import BadInput, HumanInterface, normalise
from arena.tty.registry import interface_for
from arena.tty.style import PLAIN, Style

__all__ = ["PLAIN", "BadInput", "HumanInterface", "Style", "interface_for", "normalise"]
