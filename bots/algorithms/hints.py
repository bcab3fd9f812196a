"""What a game tells the generic search (`bots.algorithms.search`): its playout policy, playout
length, samples a decision and tie rules (`SearchHints`).

A game's bots package declares its hints beside its playout policy and registers them as an
entry point of group `arena.search_hints` named for the game (pyproject.toml), so that the
search finds them by the game's name without importing, or naming, any game: a game without
hints is searched with random playouts to the end and DEFAULT_SAMPLES samples.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from importlib.metadata import EntryPoint, entry_points

from arena.api import Action, Bot
from arena.engine import State

HINTS_GROUP = "arena.search_hints"
"""The entry-point group of search hints: each entry named for a game, a `SearchHints`."""

DEFAULT_SAMPLES = 24
"""Hidden states sampled a decision, unless the game's hints say otherwise."""

Policy = Callable[[State, int, random.Random], Action]
"""A playout policy: a seat's action in a (sampled) state."""


class Playout(Enum):
    """The playouts' policy: the game's simple bot, its greedy policy, or a random action."""

    SIMPLE = "simple"
    GREEDY = "greedy"
    RANDOM = "random"


@dataclass(frozen=True)
class SearchHints:
    """What a game tells the search: its default playout policy (`playout`), its greedy policy
    and simple bot where it has them, the plies a playout plays before it is scored as it stands
    (0: to the end), its samples a decision, and its tie rules: actions of equal value to the
    playout policy's choice (`policy_breaks_ties`), else to the last legal one (`ties_to_last`)
    rather than the first."""

    playout: Playout = Playout.RANDOM
    greedy: Policy | None = None
    simple: type[Bot] | None = None
    depth: int = 0
    samples: int = DEFAULT_SAMPLES
    policy_breaks_ties: bool = False
    ties_to_last: bool = False


NO_HINTS = SearchHints()
"""The hints of a game that gives none."""


def _registered() -> dict[str, EntryPoint]:
    """The registered hints' entry points, by game name (in the order they were installed)."""
    return {ep.name: ep for ep in entry_points(group=HINTS_GROUP)}


_REGISTERED = _registered()  # read when the search is imported, before a sandbox locks down


def hinted_games() -> tuple[str, ...]:
    """The games whose hints are registered."""
    return tuple(_REGISTERED)


def hints_for(game: str) -> SearchHints:
    """A game's registered hints (NO_HINTS if it has none); TypeError if what is registered is
    not a `SearchHints`."""
    entry = _REGISTERED.get(game)
    if entry is None:
        return NO_HINTS
    hints = entry.load()
    if not isinstance(hints, SearchHints):
        raise TypeError(f"{entry.value} (the search hints of {game}) is not a SearchHints")
    return hints
