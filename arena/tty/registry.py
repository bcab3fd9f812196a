"""Which human interface each game has: its own where one is written, else the generic one."""

from __future__ import annotations

import importlib

from arena.tty.interface import HumanInterface
from arena.tty.style import PLAIN, Style

_INTERFACES: dict[str, str] = {
    "concentration": "arena.tty.concentration:ConcentrationInterface",
    "paved-with-gold": "arena.tty.paved:PavedInterface",
    "memorandum": "arena.tty.memorandum:MemorandumInterface",
    "animals": "arena.tty.animals:AnimalsInterface",
    "cuckoo": "arena.tty.cuckoo:CuckooInterface",
    "dig": "arena.tty.dig:DigInterface",
    "old-mans-bundle": "arena.tty.bundle:BundleInterface",
    "frogs-in-the-pond": "arena.tty.frogs:FrogsInterface",
    "cribbage-square": "arena.tty.cribbage_square:SquareInterface",
}
"""Game name -> 'module:Class' of its interface (imported when first asked for)."""


def interface_for(game: str, style: Style = PLAIN) -> HumanInterface:
    """A fresh interface for one game of `game` (the generic one for a game without its own)."""
    target = _INTERFACES.get(game)
    if target is None:
        return HumanInterface(style)
    module, _, name = target.partition(":")
    cls: type[HumanInterface] = getattr(importlib.import_module(module), name)
    return cls(style)


def has_own_interface(game: str) -> bool:
    """Whether the game has an interface of its own (not only the generic one)."""
    return game in _INTERFACES
