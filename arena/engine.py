"""The rules protocol every game implements, variant parameters, and the game registry."""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from arena.api import Action, Event
from arena.cards import Card
from arena.errors import PlayersError, UnknownGameError, VariantError, did_you_mean
from arena.luck.model import LuckModel
from arena.values import parse_value


class ScoreOrder(enum.Enum):
    """Whether a higher or a lower score is better."""

    HIGHER_WINS = "higher"
    LOWER_WINS = "lower"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game came out: per-seat scores, which way they rank, a game summary.

    In partnership games `teams` lists the seats of each side; partners carry their side's score
    (so they share a rank) and are rated as a team.
    """

    scores: tuple[float, ...]
    order: ScoreOrder
    turns: int
    final: Mapping[str, Any]
    teams: tuple[tuple[int, ...], ...] | None = None


class State(ABC):
    """One game in progress: a deterministic state machine driven by the match loop.

    At any point `to_act()` names the seats that must decide now (one for turn-based play, several
    for simultaneous decisions, none once the game is over). Everything that happens goes into
    `log`: public events by `log.append(event)`, events only some seats may see by `tell(seats,
    event)`. The match loop hands each seat the events it may see.
    """

    def __init__(self) -> None:
        self.log: list[Event] = []
        self.private: dict[int, frozenset[int]] = {}  # log index -> the only seats that see it

    def tell(self, seats: Collection[int], event: Event) -> None:
        """Log an event that only `seats` may see."""
        self.private[len(self.log)] = frozenset(seats)
        self.log.append(event)

    def seen_by(self, seat: int, start: int, end: int) -> tuple[Event, ...]:
        """The events of `log[start:end]` that `seat` may see."""
        private = self.private
        if not private:
            return tuple(self.log[start:end])
        return tuple([e for i, e in enumerate(self.log[start:end], start)
                      if i not in private or seat in private[i]])

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that must decide now; empty when the game is over."""

    @abstractmethod
    def legal(self, seat: int) -> tuple[Action, ...]:
        """The legal actions of a seat that must decide now."""

    @abstractmethod
    def view(self, seat: int) -> Any:
        """An immutable value holding only what `seat` may know of the current state."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Carry out one seat's legal action (turn-based play)."""

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        """Carry out simultaneous legal actions, one per seat in `to_act()`."""
        raise NotImplementedError(f"{type(self).__name__} has no simultaneous decisions")

    @abstractmethod
    def outcome(self) -> Outcome:
        """Scores and summary of the finished game."""

    @abstractmethod
    def visible_cards(self, seat: int) -> Collection[Card]:
        """Every card `seat` may see face up right now (the conformance test checks views)."""

    def inventory(self) -> Collection[Card] | None:
        """Every card of the game wherever it lies now (hands, piles, won, set aside), so the
        conformance test can check that none is lost or made; None where a game does not say."""
        return None

    def narrate_deal(self) -> list[str]:
        """Lines showing spectators the table as dealt."""
        return []

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Lines telling spectators what `event` did, at most 80 columns wide."""
        return [f"{event.kind}: {event.to_json()}"]


@dataclass(frozen=True)
class Params:
    """Base of a game's variant parameters; subclasses are frozen dataclasses."""

    def validate(self) -> None:
        """Raise VariantError naming the parameter when values do not combine."""

    def players_allowed(self) -> range:
        """How many seats this variant can take."""
        return range(1, 2)

    def as_dict(self) -> dict[str, Any]:
        """The parameters as JSON-ready values."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


class Game(ABC):
    """A game family: its name, variant parameters, named presets, and how to deal a new game."""

    name: ClassVar[str]
    title: ClassVar[str]
    params_type: ClassVar[type[Params]]
    presets: ClassVar[Mapping[str, Params]]
    default_preset: ClassVar[str]

    @abstractmethod
    def new_state(self, params: Params, players: int, rng: random.Random) -> State:
        """Deal a new game for `players` seats; all chance comes from `rng`."""

    def sampler(self) -> Sampler | None:
        """The game's sampler of hidden states for search bots; None where it has none."""
        return None

    def luck_model(self, params: Params, players: int) -> LuckModel[Any] | None:
        """The game's luck model for this variant and table (a value function and the reveals of
        cards nobody has seen, see arena/luck/); None where it has none: its games are judged on
        the raw scores."""
        return None

    def variant(self, preset: str | None = None,
                overrides: Mapping[str, str] | None = None) -> Variant:
        """Resolve a preset name plus `key=value` overrides into validated parameters."""
        name = preset or self.default_preset
        if name not in self.presets:
            known = ", ".join(self.presets)
            raise VariantError(f"unknown variant {name!r} for {self.name} "
                               f"({did_you_mean(name, self.presets)}known: {known})")
        params = self.presets[name]
        if overrides:
            params = override_params(params, overrides, where=f"{self.name} variant {name!r}")
        params.validate()
        label = name + "".join(f",{k}={v}" for k, v in sorted((overrides or {}).items()))
        return Variant(self, label, params)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Everything one seat knows of a game in progress: the variant, the table, every event it
    was shown since the deal (in order) and its latest view. A sampler reads nothing else."""

    params: Params
    players: int
    seat: int
    events: tuple[Event, ...]
    view: Any


class Sampler(ABC):
    """Deals a game's hidden cards again, consistent with what one seat knows: its own cards, the
    cards it saw, and what the other seats' actions revealed (a dig, a void, a refused
    exchange). Search bots play out the states it samples (determinized search)."""

    @abstractmethod
    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` full states, each as likely as the sampler can make it given `knowledge`, with
        the seat to act in `knowledge.view` to act; all chance comes from `rng`. The states'
        logs start empty: they are for playing out, not for showing."""

    def playout_over(self, state: State) -> bool:
        """Whether a playout may stop at `state` and be scored by its `outcome()` so far (the
        end of a deal in a game of many deals); by default only the end of the game."""
        return False

    def clone(self, state: State) -> State:
        """A copy of `state` that plays on independently (lists, sets and dicts copied two levels
        deep, which is every game's mutable state here; a game with deeper state overrides)."""
        twin = object.__new__(type(state))
        for key, value in vars(state).items():
            setattr(twin, key, _copied(value))
        return twin


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied_once(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied_once(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    if isinstance(value, random.Random):
        twin = random.Random()
        twin.setstate(value.getstate())
        return twin
    return value


def _copied_once(value: Any) -> Any:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, set):
        return set(value)
    return value


@dataclass(frozen=True)
class Variant:
    """A game with resolved parameters, ready to deal."""

    game: Game
    label: str
    params: Params

    @functools.cached_property
    def params_view(self) -> Mapping[str, Any]:
        """The parameters as a read-only mapping of plain values, as bots receive them."""
        return types.MappingProxyType(self.params.as_dict())

    def check_players(self, players: int) -> None:
        """Raise PlayersError unless this variant can seat `players`."""
        allowed = self.params.players_allowed()
        if players not in allowed:
            raise PlayersError(
                f"{self.game.name} variant {self.label!r} takes {_span(allowed)} players, "
                f"not {players}")


def _span(allowed: range) -> str:
    lo, hi = allowed.start, allowed.stop - 1
    return str(lo) if lo == hi else f"{lo} to {hi}"


def override_params(params: Params, overrides: Mapping[str, str], where: str) -> Params:
    """Return `params` with fields replaced by values parsed from text, typed by the field."""
    hints = typing.get_type_hints(type(params))
    names = {f.name for f in dataclasses.fields(params)}
    changes: dict[str, Any] = {}
    for raw_key, text in overrides.items():
        key = raw_key.replace("-", "_")
        if key not in names:
            shown = sorted(n.replace("_", "-") for n in names)
            raise VariantError(f"{where}: unknown parameter {raw_key!r} "
                               f"({did_you_mean(raw_key, shown)}known: {', '.join(shown)})")
        try:
            changes[key] = parse_value(hints[key], text)
        except ValueError as exc:
            raise VariantError(f"{where}: parameter {raw_key!r}: {exc}") from None
    return dataclasses.replace(params, **changes)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


PlainAction = int | str | tuple[Any, ...]
"""An action as it crosses the sandbox: an int, a string, or a tuple of plain actions."""


def plain_action(action: Any) -> PlainAction:
    """An action's plain form: ints and strings as they are, an enum as its value, a card as its
    short text form ('10H', 'JKR'), a tuple (or list) as the tuple of its items' plain forms.

    ValueError if `action` has none (a float, None, an object of no known kind)."""
    if isinstance(action, Card):
        return str(action)
    if isinstance(action, enum.Enum):
        return plain_action(action.value)
    if isinstance(action, bool):
        raise ValueError(f"{action!r} is not a plain action")
    if isinstance(action, int | str):
        return action
    if isinstance(action, tuple | list):
        return tuple(plain_action(item) for item in action)
    raise ValueError(f"{type(action).__name__} is not a plain action")


def legal_action(legal: Sequence[Action], action: Any) -> Action | None:
    """The action of `legal` that `action` stands for: the legal object itself, or the one whose
    plain form it is (see `plain_action`); None if it is neither."""
    try:
        return legal[legal.index(action)]
    except Exception:  # a bot's object may raise anything when compared
        pass
    try:
        wanted = plain_action(action)
        return next((c for c in legal if plain_action(c) == wanted), None)
    except Exception:
        return None


def rank_scores(scores: Sequence[float], order: ScoreOrder,
                forfeited: Collection[int] = ()) -> tuple[int, ...]:
    """Competition ranks (1 = best, ties share a rank, next rank skips); forfeits rank last."""
    sign = -1 if order is ScoreOrder.HIGHER_WINS else 1
    live = [s for s in range(len(scores)) if s not in forfeited]
    ranks = [0] * len(scores)
    for seat in live:
        ranks[seat] = 1 + sum(1 for o in live if sign * scores[o] < sign * scores[seat])
    for seat in forfeited:
        ranks[seat] = len(live) + 1
    return tuple(ranks)


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry under its name."""
    _REGISTRY[game.name] = game
    return game


def all_games() -> Iterator[Game]:
    """Every registered game, by name."""
    _load_builtin_games()
    return iter(sorted(_REGISTRY.values(), key=lambda g: g.name))


def find_game(name: str) -> Game:
    """The registered game called `name`, or UnknownGameError listing the known ones."""
    key = name.lower()
    game = _REGISTRY.get(key)
    if game is None:
        _load_builtin_game(key)
        game = _REGISTRY.get(key)
    if game is None:
        _load_builtin_games()
        game = _REGISTRY.get(key)
    if game is None:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownGameError(f"unknown game {name!r} ({did_you_mean(key, _REGISTRY)}"
                               f"known: {known})")
    return game


def _load_builtin_game(name: str) -> None:
    """Import the bundled game called `name` alone, if there is one: its package is the name
    with underscores for hyphens."""
    package = name.replace("-", "_")
    if package.isidentifier():
        module = f"arena.games.{package}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def _load_builtin_games() -> None:
    import arena.games

    arena.games.load_all()
