"""A league folder: its config (`league.toml`), its pools and the run directory of each, and the
deals every pool is played on (one key, made once, kept forever).

Layout of a league folder:

- `league.toml`: its name, its games (game, variant preset, table size), its deals, and the
  `[limits]` and `[schedule]` every pool's run takes (as in a tournament config);
- `submissions.json` and `store/<digest>/`: the submitted bots, by version (`submissions`);
- `deals/`: a run directory that plays nothing: it holds the league's seeds and its key, and
  every pool is played with `--deals-like` it, so all pools share one key and stay on their
  deals whatever joins or leaves;
- `pools/<game>-<variant>-<N>p/`: the run directory of each pool;
- `rounds/<N>/round.json`: the standings of every update (`rounds`).
"""

from __future__ import annotations

import fcntl
import json
import re
import secrets
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.engine import find_game
from arena.errors import ArenaError
from arena.safe_files import (
    UnsafeFileError,
    check_entry,
    open_append,
    parse_toml,
    read_text,
    real_folder,
    write_text,
)
from arena.tournament.planning.canonical import canonical_toml, config_digest
from arena.tournament.planning.config import ConfigError, TournamentConfig, parse_config
from arena.tournament.records.results import DIGEST, RunDirectory

CONFIG = "league.toml"
SUBMISSIONS = "submissions.json"
STORE = "store"
DEALS = "deals"
POOLS = "pools"
ROUNDS = "rounds"
ARCHIVE = "archive"
LOCK = ".lock"
UPDATE_LOCK = ".update-lock"

TOP_KEYS = ("name", "deals", "games", "limits", "schedule", "anchors")
GAME_KEYS = ("game", "variant", "players")
MAX_CONFIG_BYTES = 1024 * 1024
_NAME = re.compile(r"\w[\w.-]*")


class LeagueError(ArenaError):
    """A league folder that cannot be used as asked: not a league, an unknown name, a bot for a
    game the league does not play."""


@dataclass(frozen=True)
class Pool:
    """One pool of the league: a game, in one variant preset, at one table size."""

    game: str
    variant: str
    players: int

    @property
    def id(self) -> str:
        """The pool's name, which names its run directory: `concentration-standard-2p`."""
        return f"{self.game}-{self.variant}-{self.players}p"

    @property
    def label(self) -> str:
        """The variant label its ratings are shown under: `standard@2p`."""
        return f"{self.variant}@{self.players}p"


@dataclass(frozen=True)
class LeagueConfig:
    """A league's validated config; `tables` holds its [deals], [limits] and [schedule] as
    given (they are checked as a tournament config's)."""

    name: str
    pools: tuple[Pool, ...]
    tables: tuple[tuple[str, Any], ...]
    anchors: tuple[str, ...] = ()
    """The bots that fix the scale of the history and of compare between rounds, where they
    play unchanged in both rounds (Ordo's anchors); none: the bots whose code did not change."""

    def table(self, key: str) -> dict[str, Any]:
        """One of the [deals], [limits], [schedule] tables ({} if not given)."""
        return dict(dict(self.tables).get(key, {}))

    def games(self) -> tuple[str, ...]:
        """The games the league plays, in order."""
        return tuple(dict.fromkeys(p.game for p in self.pools))


class League:
    """A league folder on disk."""

    def __init__(self, path: Path, config: LeagueConfig) -> None:
        self.path = path
        self.config = config

    def file(self, name: str) -> Path:
        """A file or folder of the league."""
        return self.path / name

    def pool_dir(self, pool: Pool) -> Path:
        """The run directory of a pool."""
        return self.path / POOLS / pool.id

    def key(self) -> str:
        """The league's key (in its deals run directory); "" if it has none yet."""
        return RunDirectory(self.file(DEALS)).key()


@contextmanager
def locked(league: League, name: str = LOCK, wait: bool = True) -> Iterator[None]:
    """Hold one of the league's advisory locks: `.lock` while submissions.json is written (two
    submissions wait for each other), `.update-lock` (not waited for: LeagueError) while an
    update runs, so that two updates never play into the same runs."""
    with open_append(league.file(name)) as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise LeagueError(f"{league.path}: another update of this league is running; "
                              f"wait for it to end") from None
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def open_league(path: Path) -> League:
    """The league in folder `path`; LeagueError (one line) if the folder is not a league."""
    config_path = path / CONFIG
    try:
        if not check_entry(path, folder=True):
            raise LeagueError(f"{path}: no such league folder (make one with 'arena league new')")
        if not check_entry(config_path):
            raise LeagueError(f"{path}: not a league folder (no {CONFIG}; make one with "
                              f"'arena league new')")
        text = read_text(config_path, MAX_CONFIG_BYTES)
    except UnsafeFileError as exc:
        raise LeagueError(str(exc)) from None
    return League(path, parse_league(text, config_path))


def parse_league(text: str, where: Path) -> LeagueConfig:
    """Validate a league.toml; ConfigError naming the file and key of a fault."""
    try:
        data = parse_toml(text, str(where))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not TOML: {exc}") from None
    except UnsafeFileError as exc:
        raise ConfigError(str(exc)) from None
    for key in data:
        if key not in TOP_KEYS:
            raise ConfigError(f"{where}: unknown top-level key {key!r} (allowed: "
                              f"{', '.join(TOP_KEYS)})")
    for key in ("name", "deals", "games"):
        if key not in data:
            raise ConfigError(f"{where}: {key}: required, but missing")
    name = data["name"]
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{where}: name: letters, digits, '_', '-' and '.', starting with a "
                          f"letter, digit or '_'")
    games = data["games"]
    if not isinstance(games, list) or not games:
        raise ConfigError(f"{where}: games: expected an array of tables ([[games]]), at least "
                          f"one")
    pools: list[Pool] = []
    for i, item in enumerate(games):
        pools.append(_pool(item, f"{where}: games[{i}]"))
        if pools[-1] in pools[:-1]:
            raise ConfigError(f"{where}: games[{i}]: repeats games[{pools.index(pools[-1])}]")
    tables = []
    for key in ("deals", "limits", "schedule"):
        if key in data:
            if not isinstance(data[key], dict):
                raise ConfigError(f"{where}: {key}: expected a table")
            tables.append((key, data[key]))
    anchors = data.get("anchors", [])
    if not isinstance(anchors, list) or not all(isinstance(a, str) and a for a in anchors):
        raise ConfigError(f"{where}: anchors: expected an array of bot names")
    config = LeagueConfig(name, tuple(pools), tuple(tables), tuple(dict.fromkeys(anchors)))
    # [deals], [limits] and [schedule] are a tournament config's: checked as one is
    check = {"deals": config.table("deals"), "limits": config.table("limits")}
    most = max(p.players for p in pools)
    stand_ins = [f"check-{i}" for i in range(max(2, most))]
    pool_tournament(config, pools[0], [(n, "random", "none") for n in stand_ins], where, check)
    return config


def _pool(item: Any, where: str, named: str | None = None) -> Pool:
    """One [[games]] entry, checked against the game registry; a fault is named `where.key`,
    or `named` alone where given (a --game option's value)."""

    def at(key: str) -> str:
        return named if named is not None else f"{where}.{key}"

    if isinstance(item, str):
        item = {"game": item}
    if not isinstance(item, dict):
        raise ConfigError(f"{where}: expected a table (game, variant, players) or a game name")
    for key in item:
        if key not in GAME_KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (allowed: {', '.join(GAME_KEYS)})")
    game_name = item.get("game")
    if not isinstance(game_name, str):
        raise ConfigError(f"{at('game')}: required, a game name such as 'concentration'")
    try:
        game = find_game(game_name)
        preset = item.get("variant", "standard")
        if not isinstance(preset, str) or preset not in game.presets:
            raise ConfigError(f"{at('variant')}: unknown variant {preset!r} for {game.name} "
                              f"(known: {', '.join(game.presets)})")
        variant = game.variant(preset)
        players = item.get("players")
        if players is None:
            allowed = variant.params.players_allowed()
            players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
        if type(players) is not int:
            raise ConfigError(f"{at('players')}: expected an integer")
        variant.check_players(players)
    except ConfigError:
        raise
    except ArenaError as exc:
        raise ConfigError(f"{named or where}: {exc}") from None
    return Pool(game.name, preset, players)


def parse_game(text: str) -> dict[str, Any]:
    """A `--game GAME[:VARIANT[:PLAYERS]]` value as a [[games]] table, checked against the game
    registry (a ConfigError naming the option as given)."""
    parts = text.split(":")
    if len(parts) > 3 or not parts[0]:
        raise LeagueError(f"--game {text!r}: expected GAME, GAME:VARIANT or GAME:VARIANT:PLAYERS")
    table: dict[str, Any] = {"game": parts[0]}
    if len(parts) > 1 and parts[1]:
        table["variant"] = parts[1]
    if len(parts) > 2:
        if not parts[2].isdigit():
            raise LeagueError(f"--game {text!r}: the table size must be a whole number")
        table["players"] = int(parts[2])
    _pool(table, "", named=f"--game {text!r}")  # its mistake named as the user wrote it
    return table


def new_league(path: Path, games: Sequence[Mapping[str, Any]], deals: int = 8, base: int = 1,
               name: str | None = None) -> League:
    """Make a league folder: its league.toml (games, deals), its deals and its key."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise LeagueError(f"{path}: exists and is not an empty folder; a league is made in a "
                          f"new folder")
    name = name or path.resolve().name
    lines = [f"name = {_toml(name)}", "", "[deals]", f"count = {deals}", f"base = {base}", ""]
    for game in games:
        lines += ["[[games]]", *(f"{k} = {_toml(v)}" for k, v in game.items()), ""]
    lines += ["[limits]", "move_seconds = 1.0", "game_seconds = 60.0", ""]
    text = "\n".join(lines)
    config = parse_league(text, path / CONFIG)
    real_folder(path, make=True)
    write_text(path / CONFIG, text)
    league = League(path, config)
    ready_deals(league)
    return league


def league_from(path: Path, source: Path) -> League:
    """Make a league folder from a league.toml written elsewhere (configs/leagues/...)."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise LeagueError(f"{path}: exists and is not an empty folder; a league is made in a "
                          f"new folder")
    try:
        text = read_text(source, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        raise LeagueError(f"{source}: no such league config") from None
    except UnsafeFileError as exc:
        raise LeagueError(str(exc)) from None
    config = parse_league(text, source)
    real_folder(path, make=True)
    write_text(path / CONFIG, text)
    league = League(path, config)
    ready_deals(league)
    return league


def ready_deals(league: League) -> Path:
    """The league's deals run directory, made (with a new key) or brought to the league's
    [deals], its key kept; its path."""
    where = league.file(DEALS)
    config = deals_config(league)
    canonical, digest = canonical_toml(config), config_digest(config)
    run = RunDirectory(where)
    key = run.key() if (where / DIGEST).exists() else ""
    same = (where / DIGEST).exists() and read_text(where / DIGEST, 1024).strip() == digest
    if not same:
        RunDirectory.prepare(where, canonical, digest, fresh=True)
        run.set_key(key or secrets.token_hex(16))
    return where


def deals_config(league: League) -> TournamentConfig:
    """The config of the league's deals run directory: its [deals], at its first pool."""
    pool = league.config.pools[0]
    stand_ins = [(f"deal-{i}", "random", "none") for i in range(max(2, pool.players))]
    return pool_tournament(league.config, pool, stand_ins, league.file(CONFIG),
                           {"deals": league.config.table("deals")}, suffix="deals")


def pool_tournament(config: LeagueConfig, pool: Pool, bots: Sequence[tuple[str, str, str]],
                    where: Path, tables: Mapping[str, Mapping[str, Any]] | None = None,
                    suffix: str | None = None) -> TournamentConfig:
    """The tournament config of one pool with these bots (name, spec, isolation), parsed once
    (a ConfigError names a league.toml's mistake in its terms); with `tables`, those tables
    only."""
    tables = {k: config.table(k) for k in ("deals", "limits", "schedule")} \
        if tables is None else tables
    lines = [f"name = {_toml(config.name + '-' + (suffix or pool.id))}", ""]
    for key, table in tables.items():
        if table:
            lines += [f"[{key}]", *(f"{k} = {_toml(v)}" for k, v in table.items()), ""]
    for name, spec, isolation in bots:
        lines += ["[[bots]]", f"name = {_toml(name)}", f"spec = {_toml(spec)}",
                  f"isolation = {_toml(isolation)}", ""]
    lines += ["[[games]]", f"game = {_toml(pool.game)}", f"players = {pool.players}",
              f"variants = [{_toml(pool.variant)}]", ""]
    return parse_config("\n".join(lines), where, check_bots=False)


def _toml(value: Any) -> str:
    """A TOML value: a string, number, boolean or an array of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise ConfigError(f"a value of type {type(value).__name__} cannot be passed to a pool's "
                      f"config (numbers, strings, booleans and arrays of them only)")
