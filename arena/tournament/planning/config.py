"""Tournament configs: a TOML file, validated into frozen values, with a canonical text and digest.

The format is described in full in docs/config.md. Everything named in a config is resolved while
loading (bots through `arena.loader`, variants through the game registry, seed lists through
`arena.tournament.planning.deals`), so a config that loads is one that can run. Every mistake is a
`ConfigError` whose one line names the file, the key and what is allowed.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from arena.engine import Game, find_game
from arena.errors import ArenaError
from arena.loader import anchored, is_bundled, resolve_bot
from arena.safe_files import UnsafeFileError, decode, parse_toml, read_bytes
from arena.sandbox import Isolation, probe, unseen_by
from arena.sandbox import Limits as SandboxLimits
from arena.text import escape, is_safe
from arena.tournament.planning.deals import DealsError, DealSet, resolve_seed_list
from arena.tournament.planning.schedule import Draw, Format, Seating, table_count

if TYPE_CHECKING:
    from arena.ratings.settings import TrueSkillSettings

E = TypeVar("E", bound=enum.Enum)


class ConfigError(ArenaError):
    """A tournament config that cannot be read or does not validate."""


class OnFault(enum.Enum):
    """What a bot fault costs: the game it happened in, or every later game of that bot too."""

    FORFEIT = "forfeit"
    DISQUALIFY = "disqualify"


class Stop(enum.Enum):
    """When a run stops: at the end of its schedule, or once its ranking is confident."""

    NEVER = "never"
    CONFIDENT = "confident"


@dataclass(frozen=True)
class Stopping:
    """When a run stops early: the rule, the confidence every neighbour in a ranking must be
    told apart at, the most games to play (None: the whole schedule), and deals per round."""

    rule: Stop = Stop.NEVER
    confidence: float = 0.95
    budget: int | None = None
    round_deals: int = 1


@dataclass(frozen=True)
class Limits:
    """Limits per sandboxed bot (None: no limit), and how faults are treated."""

    move_seconds: float | None = None
    game_seconds: float | None = None
    overage_seconds: float = 0.0
    start_seconds: float | None = None
    end_seconds: float | None = None
    memory_mb: int | None = None
    output_kb: int = 64
    on_fault: OnFault = OnFault.FORFEIT
    fault_share: float = 0.25

    def sandbox(self) -> SandboxLimits:
        """The limits a bot's sandbox enforces."""
        return SandboxLimits(self.move_seconds, self.game_seconds, self.overage_seconds,
                             self.memory_mb, self.output_kb * 1024,
                             start_seconds=self.start_seconds, end_seconds=self.end_seconds)


@dataclass(frozen=True)
class BotEntry:
    """A bot of the tournament: display name, full spec (parameters included), isolation."""

    name: str
    spec: str
    isolation: Isolation = Isolation.NONE


@dataclass(frozen=True)
class VariantEntry:
    """A variant to play: its display label, its preset and `key=value` overrides (sorted)."""

    label: str
    preset: str
    overrides: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GameEntry:
    """A game to play at one table size, in some variants, rated with these TrueSkill settings."""

    game: str
    players: int
    variants: tuple[VariantEntry, ...]
    trueskill: TrueSkillSettings


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament config; `path` (where it was read) takes no part in equality."""

    name: str
    path: Path = field(compare=False)
    bots: tuple[BotEntry, ...]
    games: tuple[GameEntry, ...]
    deals: DealSet
    seating: Seating = Seating.ROTATIONS
    limits: Limits = Limits()
    schedule: Draw = field(default_factory=Draw)
    stopping: Stopping = field(default_factory=Stopping)


TOP_KEYS = ("name", "seating", "deals", "bots", "games", "limits", "schedule")
SCHEDULE_KEYS = ("format", "tables_per_bot", "challengers", "fill", "stop", "confidence", "budget",
                 "round_deals")
STOP_KEYS = ("confidence", "budget", "round_deals")
DEALS_KEYS = ("list", "count", "base", "seeds", "source")
BOT_KEYS = ("spec", "name", "params", "isolation")
GAME_KEYS = ("game", "players", "variants", "trueskill")
VARIANT_KEYS = ("preset", "name", "params")
LIMIT_KEYS = ("move_seconds", "game_seconds", "overage_seconds", "start_seconds", "end_seconds",
              "memory_mb", "output_kb", "on_fault", "fault_share")

_REQUIRED_HINTS = {
    "name": "the tournament's name, a string",
    "deals": "a [deals] table: list = NAME, seeds = [...], or count and base",
    "bots": "a [[bots]] table per bot, each with spec = ...",
    "games": "a [[games]] table per game, with game, players and variants",
    "spec": "a bot spec such as 'greedy' or 'path/file.py:Class'",
    "game": "a game name such as 'concentration'",
    "players": "the table size, an integer",
    "variants": "a list of preset names, or [[games.variants]] tables",
    "preset": "a preset name such as 'standard'",
}
MAX_CONFIG_BYTES = 1024 * 1024
"""The largest config file read."""
MAX_INTEGER = 2**63 - 1
"""The largest integer a config may give anywhere (a seed, a count, a limit)."""
MAX_DEALS = 10_000_000
"""The most deals a config may count (`[deals] count`)."""
_PARAM_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_SYNTAX_AT = re.compile(r"^(?P<message>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")
_RUN_NAME = re.compile(r"\w[\w.-]*")


HUMAN_MODULES = ("arena.tty.human:", "bots.human:")
"""The human seat's module, as a spec names it (now and before; the tournament imports no
people's room)."""


def load_config(path: str | Path, check_bots: bool = True,
                kept: Sequence[Path] = ()) -> TournamentConfig:
    """Read and validate a tournament config file; ConfigError names the file and key of a fault.

    With `check_bots` off the bots are not loaded (a run directory's config, already checked);
    else each is loaded in a sandbox that keeps `kept` (run directories) out of its view.
    """
    path = Path(path)
    try:
        raw = read_bytes(path, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except UnsafeFileError as exc:
        raise ConfigError(str(exc)) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = decode(raw, path)
    except UnsafeFileError as exc:
        raise ConfigError(str(exc)) from None
    return parse_config(text, path, check_bots, kept)


def parse_config(text: str, path: str | Path, check_bots: bool = True,
                 kept: Sequence[Path] = ()) -> TournamentConfig:
    """Validate config text; `path` names the file in errors and anchors relative paths; `kept`
    as for `load_config`."""
    path = Path(path)
    r = _Reader(str(path))
    try:
        data = parse_toml(text, str(path))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_syntax_message(str(path), exc)) from None
    except UnsafeFileError as exc:
        raise ConfigError(str(exc)) from None
    r.table(data, "", TOP_KEYS, required=("name", "deals", "bots", "games"))
    name = r.text(data["name"], "name")
    if not _RUN_NAME.fullmatch(name):
        raise r.error("name", f"{name!r}: a name is letters, digits, '_', '-' and '.', starting "
                              f"with a letter, digit or '_' (it names the run directory)")
    seating = r.choice(data.get("seating", Seating.ROTATIONS.value), "seating", Seating)
    deals = _deals(r, data["deals"], path.parent)
    games = _games(r, data["games"])
    bots = _bots(r, data["bots"], games, path.parent, check_bots, kept)
    limits = _limits(r, data.get("limits", {}))
    schedule = _schedule(r, data.get("schedule", {}), bots, games)
    stopping = _stopping(r, data.get("schedule", {}), len(deals))
    return TournamentConfig(name, path, bots, games, deals, seating, limits, schedule, stopping)


class _Reader:
    """Typed access to parsed TOML that raises ConfigError naming the file and key path."""

    def __init__(self, where: str) -> None:
        self.where = where

    def error(self, key: str, message: str) -> ConfigError:
        """A ConfigError for `key` (a path like 'games[0].players'; '' for the top level)."""
        return ConfigError(f"{self.where}: {key}: {message}" if key else f"{self.where}: {message}")

    def table(self, value: Any, key: str, allowed: Sequence[str],
              required: Sequence[str] = ()) -> dict[str, Any]:
        """`value` as a table holding only `allowed` keys and every `required` one."""
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {_toml_type(value)}")
        for name in value:
            if name not in allowed:
                at = f"{key}: unknown key" if key else "unknown top-level key"
                raise ConfigError(f"{self.where}: {at} {name!r} (allowed: {', '.join(allowed)})")
        for name in required:
            if name not in value:
                hint = _REQUIRED_HINTS.get(name)
                raise self.error(_join(key, name),
                                 f"required, but missing ({hint})" if hint else
                                 "required, but missing")
        return value

    def tables(self, value: Any, key: str) -> list[Any]:
        """`value` as a non-empty array (of tables, checked one by one by the caller)."""
        if not isinstance(value, list):
            raise self.error(key, f"expected an array of tables ([[{key}]]), "
                                  f"got {_toml_type(value)}")
        if not value:
            raise self.error(key, "needs at least one entry")
        return value

    def text(self, value: Any, key: str) -> str:
        """`value` as a non-empty one-line string, stripped."""
        if not isinstance(value, str):
            raise self.error(key, f"expected a string, got {_toml_type(value)}")
        stripped = value.strip()
        if not stripped or "\n" in stripped or "\r" in stripped:
            raise self.error(key, "expected a non-empty, one-line string")
        if not is_safe(stripped):  # it is shown and stored: names, specs, labels
            raise self.error(key, f"'{escape(stripped)}' holds a control character, a line "
                                  f"separator or a bidi override; only printable text is "
                                  f"allowed")
        return stripped

    def integer(self, value: Any, key: str, minimum: int | None = None,
                maximum: int = MAX_INTEGER) -> int:
        """`value` as an integer (not a boolean), at least `minimum` and at most `maximum` (at
        most MAX_INTEGER in size in any case)."""
        if type(value) is not int:
            raise self.error(key, f"expected an integer, got {_toml_type(value)}")
        if minimum is not None and value < minimum:
            raise self.error(key, f"must be {minimum} or more, not {value}")
        if abs(value) > MAX_INTEGER or value > maximum:
            most = f"at most {maximum:,}" if maximum < MAX_INTEGER else \
                f"at most {MAX_INTEGER:,} in size"
            raise self.error(key, f"must be {most}, not {_shown(value)}")
        return value

    def number(self, value: Any, key: str) -> float:
        """`value` as a finite number."""
        if type(value) not in (int, float) or not math.isfinite(value):
            raise self.error(key, f"expected a finite number, got {_toml_type(value)}")
        return float(value)

    def positive(self, value: Any, key: str) -> float:
        """`value` as a finite number greater than 0."""
        if type(value) not in (int, float):
            raise self.error(key, f"expected a number, got {_toml_type(value)}")
        if not (math.isfinite(value) and value > 0):
            raise self.error(key, f"must be a number greater than 0, not {value}")
        return float(value)

    def choice(self, value: Any, key: str, kind: type[E]) -> E:
        """`value` as a member of the string enum `kind`."""
        allowed = ", ".join(repr(m.value) for m in kind)
        if not isinstance(value, str):
            raise self.error(key, f"expected one of {allowed}, got {_toml_type(value)}")
        try:
            return kind(value)
        except ValueError:
            raise self.error(key, f"expected one of {allowed}, not {value!r}") from None

    def params(self, value: Any, key: str) -> list[tuple[str, str]]:
        """A table of parameters as (key, text) pairs; values are TOML numbers, bools or strings."""
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {_toml_type(value)}")
        pairs: list[tuple[str, str]] = []
        for name, item in value.items():
            if not _PARAM_KEY.fullmatch(name):
                raise self.error(_join(key, name), "a parameter name is letters, digits, "
                                                   "'_' and '-', starting with a letter")
            if isinstance(item, bool):
                pairs.append((name, "true" if item else "false"))
            elif isinstance(item, int | float | str):
                pairs.append((name, item if isinstance(item, str) else repr(item)))
            else:
                raise self.error(_join(key, name), f"expected a number, boolean or string, "
                                                   f"got {_toml_type(item)}")
        return pairs


def _shown(value: int) -> str:
    """An integer as written, or its size when it is long."""
    text = str(value)
    return text if len(text) <= 24 else f"a number of {len(text)} digits"


def _join(parent: str, child: str | int) -> str:
    if isinstance(child, int):
        return f"{parent}[{child}]"
    return f"{parent}.{child}" if parent else child


def _toml_type(value: Any) -> str:
    """The TOML name of a parsed value's type."""
    if isinstance(value, bool):
        return "boolean"
    for kind, name in ((int, "integer"), (float, "float"), (str, "string"), (dict, "table"),
                       (list, "array"), (datetime, "datetime"), (date, "date"), (time, "time")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _syntax_message(where: str, exc: tomllib.TOMLDecodeError) -> str:
    found = _SYNTAX_AT.match(str(exc))
    if found:
        return (f"{where}: line {found['line']}: {found['message']} "
                f"(column {found['column']})")
    return f"{where}: {exc}"


# --- sections -------------------------------------------------------------------------------


def _deals(r: _Reader, value: Any, config_dir: Path) -> DealSet:
    table = r.table(value, "deals", DEALS_KEYS)
    forms = "give list = NAME (with an optional count), seeds = [...], or count and base"
    if "list" in table and "seeds" in table:
        raise r.error("deals", f"list and seeds do not go together; {forms}")
    if "list" in table:
        for extra in ("base", "source"):
            if extra in table:
                raise r.error(f"deals.{extra}", f"does not go with deals.list; {forms}")
        name = r.text(table["list"], "deals.list")
        count = r.integer(table["count"], "deals.count", 1, MAX_DEALS) if "count" in table else None
        try:
            listed = DealSet(*resolve_seed_list(name, config_dir))
        except DealsError as exc:
            raise r.error("deals.list", str(exc)) from None
        try:
            return listed if count is None else listed.first(count)
        except DealsError as exc:
            raise r.error("deals.count", str(exc)) from None
    if "seeds" in table:
        for extra in ("count", "base"):
            if extra in table:
                raise r.error(f"deals.{extra}", f"does not go with deals.seeds; {forms}")
        return _explicit_seeds(r, table)
    if "source" in table:
        raise r.error("deals.source", "goes only with deals.seeds")
    if "count" not in table or "base" not in table:
        missing = ("deals.base" if "count" in table else
                   "deals.count" if "base" in table else "deals")
        raise r.error(missing, forms)
    count = r.integer(table["count"], "deals.count", 1, MAX_DEALS)
    base = r.integer(table["base"], "deals.base")
    return DealSet.from_count(count, base)


def _explicit_seeds(r: _Reader, table: dict[str, Any]) -> DealSet:
    seeds = table["seeds"]
    if not isinstance(seeds, list):
        raise r.error("deals.seeds", f"expected an array of integers, got {_toml_type(seeds)}")
    if not seeds:
        raise r.error("deals.seeds", "needs at least one seed")
    first: dict[int, int] = {}
    for i, seed in enumerate(seeds):
        r.integer(seed, f"deals.seeds[{i}]")
        if seed in first:
            raise r.error(f"deals.seeds[{i}]", f"seed {seed} repeats deals.seeds[{first[seed]}]")
        first[seed] = i
    source = r.text(table["source"], "deals.source") if "source" in table else "listed seeds"
    return DealSet(tuple(seeds), source)


def _games(r: _Reader, value: Any) -> tuple[GameEntry, ...]:
    entries: list[GameEntry] = []
    seen: dict[tuple[str, int], int] = {}
    for i, item in enumerate(r.tables(value, "games")):
        key = f"games[{i}]"
        table = r.table(item, key, GAME_KEYS, required=("game", "players", "variants"))
        name = r.text(table["game"], f"{key}.game")
        try:
            game = find_game(name)
        except ArenaError as exc:
            raise r.error(f"{key}.game", str(exc)) from None
        players = r.integer(table["players"], f"{key}.players", 1)
        if (game.name, players) in seen:
            raise r.error(key, f"{game.name} for {players} players is already "
                               f"games[{seen[game.name, players]}]; list all its variants there")
        seen[game.name, players] = i
        variants = _variants(r, table["variants"], key, game, players)
        trueskill = _trueskill(r, table.get("trueskill", {}), f"{key}.trueskill")
        entries.append(GameEntry(game.name, players, variants, trueskill))
    return tuple(entries)


def _variants(r: _Reader, value: Any, game_key: str, game: Game,
              players: int) -> tuple[VariantEntry, ...]:
    key = f"{game_key}.variants"
    if not isinstance(value, list):
        raise r.error(key, f"expected an array of preset names or tables, got {_toml_type(value)}")
    if not value:
        raise r.error(key, "needs at least one variant")
    entries: list[VariantEntry] = []
    labels: dict[str, int] = {}
    for j, item in enumerate(value):
        vkey = f"{key}[{j}]"
        name: str | None = None
        pairs: list[tuple[str, str]] = []
        if isinstance(item, str):
            preset, preset_key = r.text(item, vkey), vkey
        elif isinstance(item, dict):
            table = r.table(item, vkey, VARIANT_KEYS, required=("preset",))
            preset, preset_key = r.text(table["preset"], f"{vkey}.preset"), f"{vkey}.preset"
            if "name" in table:
                name = r.text(table["name"], f"{vkey}.name")
            if "params" in table:
                pairs = r.params(table["params"], f"{vkey}.params")
        else:
            raise r.error(vkey, f"expected a preset name or a table, got {_toml_type(item)}")
        overrides = _variant_overrides(r, pairs, f"{vkey}.params")
        if preset not in game.presets:
            known = ", ".join(game.presets)
            raise r.error(preset_key,
                          f"unknown variant {preset!r} for {game.name} (known: {known})")
        try:
            resolved = game.variant(preset, dict(overrides))
        except ArenaError as exc:
            raise r.error(f"{vkey}.params" if overrides else vkey, str(exc)) from None
        try:
            resolved.check_players(players)
        except ArenaError as exc:
            raise r.error(f"{game_key}.players", str(exc)) from None
        label = name or resolved.label
        if label in labels:
            raise r.error(vkey, f"duplicate variant label {label!r} (also {key}[{labels[label]}]);"
                                f" give one a distinct name")
        labels[label] = j
        entries.append(VariantEntry(label, preset, overrides))
    return tuple(entries)


def _variant_overrides(r: _Reader, pairs: list[tuple[str, str]],
                       key: str) -> tuple[tuple[str, str], ...]:
    """Variant parameters with names in their hyphen form (as on the command line), sorted."""
    found: dict[str, str] = {}
    for name, text in pairs:
        norm = name.replace("_", "-")
        if norm in found:
            raise r.error(_join(key, name), f"{norm!r} is given twice")
        found[norm] = text
    return tuple(sorted(found.items()))


def _trueskill(r: _Reader, value: Any, key: str) -> TrueSkillSettings:
    from arena.ratings.settings import TrueSkillSettings

    allowed = tuple(f.name for f in dataclasses.fields(TrueSkillSettings))
    table = r.table(value, key, allowed)
    given: dict[str, float] = {}
    for name, item in table.items():
        if type(item) not in (int, float):
            raise r.error(_join(key, name), f"expected a number, got {_toml_type(item)}")
        if not math.isfinite(item):
            raise r.error(_join(key, name), f"expected a finite number, not {item}")
        given[name] = float(item)
    try:
        settings = TrueSkillSettings(**given)
        settings.validate()
    except ArenaError as exc:
        raise r.error(key, str(exc)) from None
    return settings


def _bots(r: _Reader, value: Any, games: Sequence[GameEntry], config_dir: Path,
          check: bool = True, kept: Sequence[Path] = ()) -> tuple[BotEntry, ...]:
    entries: list[BotEntry] = []
    names: dict[str, int] = {}
    items = r.tables(value, "bots")
    for i, item in enumerate(items):
        key = f"bots[{i}]"
        table = r.table(item, key, BOT_KEYS, required=("spec",))
        written = r.text(table["spec"], f"{key}.spec")
        pairs = r.params(table["params"], f"{key}.params") if "params" in table else []
        written = _with_params(r, written, pairs, f"{key}.params")
        spec = anchored(written, config_dir)
        if written.strip() == "human" or any(m in written for m in HUMAN_MODULES):
            raise r.error(f"{key}.spec", "the human seat plays with 'arena play', not in "
                                         "tournaments (worker processes have no terminal)")
        if "isolation" in table:
            given = table["isolation"]
        else:  # looked up only when not given (a bot's name is looked for in every distribution)
            given = (Isolation.NONE if is_bundled(spec) else Isolation.PROCESS).value
        isolation = r.choice(given, f"{key}.isolation", Isolation)
        name = r.text(table["name"], f"{key}.name") if "name" in table else written
        if name in names:
            where = f"{key}.name" if "name" in table else key
            raise r.error(where, f"duplicate bot name {name!r} (also bots[{names[name]}]); "
                                 f"give one a distinct name")
        names[name] = i
        entries.append(BotEntry(name, spec, isolation))
    for i, entry in enumerate(entries) if check else ():
        for game in dict.fromkeys(g.game for g in games):
            if entry.isolation is Isolation.PROCESS:  # never import an untrusted bot in the arena
                # nor let it see, even while it is checked, what its games may not (the other
                # bots' code, the runs `kept`): `unseen_by` decides, as for every command
                problem = probe(entry.spec, game, private=unseen_by(
                    entry.spec, [e.spec for e in entries], kept))
            else:
                try:
                    resolve_bot(entry.spec, game)
                    problem = None
                except ArenaError as exc:
                    problem = str(exc)
            if problem is not None:
                raise r.error(f"bots[{i}].spec", problem)
    for i, game in enumerate(games):
        if game.players > 1 and len(entries) < 2:
            raise r.error("bots", f"games[{i}] seats {game.players} players, so it needs at least "
                                  f"2 bots, not {len(entries)}")
    return tuple(entries)


def _with_params(r: _Reader, spec: str, pairs: list[tuple[str, str]], key: str) -> str:
    """The spec with `key=value` parameters appended after a colon (or a comma if it has some)."""
    if not pairs:
        return spec
    _, sep, tail = spec.rpartition(":")
    has_params = bool(sep) and "=" in tail
    given = {part.partition("=")[0].strip().replace("-", "_")
             for part in tail.split(",")} if has_params else set()
    for name, text in pairs:
        if name.replace("-", "_") in given:
            raise r.error(_join(key, name), f"also given in the spec {spec!r}")
        if "," in text or ":" in text:
            raise r.error(_join(key, name), f"{text!r}: a bot parameter value cannot hold ',' "
                                            f"or ':' (it becomes part of the spec)")
    return spec + ("," if has_params else ":") + ",".join(f"{k}={v}" for k, v in pairs)


def _limits(r: _Reader, value: Any) -> Limits:
    table = r.table(value, "limits", LIMIT_KEYS)
    memory = table.get("memory_mb")
    share = r.number(table.get("fault_share", 0.25), "limits.fault_share")
    if not 0 <= share <= 1:
        raise r.error("limits.fault_share", f"must be between 0 and 1, not {share}")
    overage = r.number(table.get("overage_seconds", 0.0), "limits.overage_seconds")
    if overage < 0:
        raise r.error("limits.overage_seconds", f"must be 0 or more, not {overage}")
    return Limits(
        move_seconds=_seconds(r, table, "move_seconds"),
        game_seconds=_seconds(r, table, "game_seconds"),
        overage_seconds=float(overage),
        start_seconds=_seconds(r, table, "start_seconds"),
        end_seconds=_seconds(r, table, "end_seconds"),
        memory_mb=None if memory is None else r.integer(memory, "limits.memory_mb", 1),
        output_kb=r.integer(table.get("output_kb", 64), "limits.output_kb", 1),
        on_fault=r.choice(table.get("on_fault", OnFault.FORFEIT.value), "limits.on_fault",
                          OnFault),
        fault_share=float(share),
    )


def _seconds(r: _Reader, table: dict[str, Any], key: str) -> float | None:
    """An optional time limit of the [limits] table: None if not given."""
    value = table.get(key)
    return None if value is None else r.positive(value, f"limits.{key}")


def _schedule(r: _Reader, value: Any, bots: Sequence[BotEntry],
              games: Sequence[GameEntry]) -> Draw:
    table = r.table(value, "schedule", SCHEDULE_KEYS)
    form = r.choice(table.get("format", Format.ROUND_ROBIN.value), "schedule.format", Format)
    per_bot = (r.integer(table["tables_per_bot"], "schedule.tables_per_bot", 1)
               if "tables_per_bot" in table else None)
    if "challengers" in table and form is not Format.GAUNTLET:
        raise r.error("schedule.challengers", 'goes only with format = "gauntlet"')
    if "fill" in table and form is not Format.DUEL:
        raise r.error("schedule.fill", 'goes only with format = "duel"')
    if form is Format.DUEL:
        return _duel(r, table, bots, games, per_bot)
    if form is Format.ROUND_ROBIN:
        if per_bot is not None:
            raise r.error("schedule.tables_per_bot", 'goes with format = "sampled" or '
                                                     '"gauntlet", not "round-robin"')
        return Draw()
    names = [b.name for b in bots]
    if form is Format.SAMPLED:
        if per_bot is None:
            raise r.error("schedule.tables_per_bot", 'required with format = "sampled": at how '
                                                     'many tables each bot sits, an integer')
        for i, game in enumerate(games):
            if game.players > len(names):
                raise r.error(f"games[{i}].players", f"a sampled schedule seats distinct bots, "
                                                     f"so {game.players} seats need at least "
                                                     f"{game.players} bots, not {len(names)}")
            full = math.comb(len(names), game.players)
            drawn = table_count(len(names), game.players, per_bot)
            if game.players > 1 and drawn > full:
                raise r.error("schedule.tables_per_bot",
                              f"{per_bot} draws {drawn} tables for games[{i}], more than the "
                              f"{full} of a round robin; use format = \"round-robin\"")
        return Draw(Format.SAMPLED, per_bot)
    challengers = _challengers(r, table.get("challengers"), names)
    field = len(names) - len(challengers)
    if field < 1:
        raise r.error("schedule.challengers", "leaves no field to play against: at least one "
                                              "bot must not be a challenger")
    for i, game in enumerate(games):
        if game.players > field + 1:
            raise r.error(f"games[{i}].players",
                          f"a gauntlet table is one challenger and {game.players - 1} distinct "
                          f"field bots, and the field has {field}")
        if game.players > 2 and field > game.players - 1 and per_bot is None:
            raise r.error("schedule.tables_per_bot",
                          f"required for a gauntlet at {game.players} seats (games[{i}]): at how "
                          f"many tables each field bot sits, an integer")
    return Draw(Format.GAUNTLET, per_bot, challengers)


def _duel(r: _Reader, table: dict[str, Any], bots: Sequence[BotEntry],
          games: Sequence[GameEntry], per_bot: int | None) -> Draw:
    if per_bot is not None:
        raise r.error("schedule.tables_per_bot", 'goes with format = "sampled" or "gauntlet", '
                                                 'not "duel"')
    names = [b.name for b in bots]
    fill = r.text(table["fill"], "schedule.fill") if "fill" in table else None
    if fill is not None and fill not in names:
        raise r.error("schedule.fill", f"no bot named {fill!r} (bots: {', '.join(names)})")
    if len(names) - (fill is not None) != 2:
        raise r.error("bots", f"a duel is two bots{' and its fill' if fill else ''}, not "
                              f"{len(names)} bots")
    if fill is not None and all(g.players == 2 for g in games):
        raise r.error("schedule.fill", "a duel at two seats has no other seats to fill")
    for i, game in enumerate(games):
        if game.players < 2:
            raise r.error(f"games[{i}].players", "a duel needs two seats or more")
        if game.players > 2 and fill is None:
            raise r.error("schedule.fill", f"required for a duel at {game.players} seats "
                                           f"(games[{i}]): the bot in the other seats")
    return Draw(Format.DUEL, fill=fill)


def _stopping(r: _Reader, table: dict[str, Any], deals: int) -> Stopping:
    rule = r.choice(table.get("stop", Stop.NEVER.value), "schedule.stop", Stop)
    if rule is Stop.NEVER:
        for key in STOP_KEYS:
            if key in table:
                raise r.error(f"schedule.{key}", 'goes only with stop = "confident"')
        return Stopping()
    confidence = r.number(table.get("confidence", 0.95), "schedule.confidence")
    if not 0.5 < confidence < 1:
        raise r.error("schedule.confidence", f"must be above 0.5 and below 1 (the probability "
                                             f"that a bot is above the next), not {confidence}")
    budget = (r.integer(table["budget"], "schedule.budget", 1) if "budget" in table else None)
    round_deals = r.integer(table.get("round_deals", 1), "schedule.round_deals", 1)
    if round_deals > deals:
        raise r.error("schedule.round_deals", f"{round_deals} deals per round, more than the "
                                              f"{deals} of [deals]")
    return Stopping(rule, confidence, budget, round_deals)


def _challengers(r: _Reader, value: Any, names: Sequence[str]) -> tuple[str, ...]:
    key = "schedule.challengers"
    if value is None:
        raise r.error(key, 'required with format = "gauntlet": an array of bot names')
    if not isinstance(value, list):
        raise r.error(key, f"expected an array of bot names, got {_toml_type(value)}")
    if not value:
        raise r.error(key, "needs at least one bot name")
    seen: dict[str, int] = {}
    for i, item in enumerate(value):
        name = r.text(item, f"{key}[{i}]")
        if name not in names:
            raise r.error(f"{key}[{i}]", f"no bot named {name!r} (bots: {', '.join(names)})")
        if name in seen:
            raise r.error(f"{key}[{i}]", f"{name!r} repeats {key}[{seen[name]}]")
        seen[name] = i
    return tuple(n for n in names if n in seen)


def overridden(config: TournamentConfig, isolation: str | None = None,
               move_seconds: float | None = None) -> TournamentConfig:
    """The config with command-line overrides: every bot's isolation ('auto' restores the
    default: sandbox what is not bundled) and the seconds per decision."""
    bots = config.bots
    if isolation is not None:
        bots = tuple(dataclasses.replace(b, isolation=_isolation(isolation, b.spec)) for b in bots)
    limits = config.limits
    if move_seconds is not None:
        limits = dataclasses.replace(limits, move_seconds=move_seconds)
    return dataclasses.replace(config, bots=bots, limits=limits)


def _isolation(choice: str, spec: str) -> Isolation:
    if choice == "auto":
        return Isolation.NONE if is_bundled(spec) else Isolation.PROCESS
    return Isolation(choice)
