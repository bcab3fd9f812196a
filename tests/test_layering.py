"""The house keeps its shape: no import cycles, and every package imports only the layers below it
(docs/architecture.md draws the map these rules hold).

Imports are read from the source, all of them: at the top of a module, inside functions, and
under `if TYPE_CHECKING:`, since each is a dependency a reader must follow."""

from __future__ import annotations

import ast
import functools
import re
from collections import UserDict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arena", "bots")

BASE = "base"
PLAYER_API = "player API"
CORE = "core"
GAMES = "games"
SANDBOX = "sandbox"
RATINGS = "ratings"
TOURNAMENT = "tournament"
LEAGUE = "league"
PEOPLE = "people"
CLI = "cli"
BOTS = "bots"
RL = "rl"
VIEWER = "viewer"
TABLE = "table"
LUCK = "luck"

ROOMS: dict[str, str] = {
    "arena": BASE, "arena.errors": BASE, "arena.values": BASE, "arena.frozen": BASE,
    "arena.text": BASE, "arena.safe_files": BASE,
    "arena.api": PLAYER_API, "arena.cards": PLAYER_API,
    "arena.engine": CORE, "arena.record": CORE, "arena.match": CORE, "arena.loader": CORE,
    "arena.session": CORE, "arena.protocol": CORE,
    "arena.luck": LUCK,
    "arena.games": GAMES, "arena.sandbox": SANDBOX, "arena.ratings": RATINGS,
    "arena.tournament": TOURNAMENT, "arena.league": LEAGUE,
    "arena.tty": PEOPLE, "arena.levels": PEOPLE, "arena.show": PEOPLE, "arena.catalog": PEOPLE,
    "arena.newbot": PEOPLE, "arena.bot_templates": PEOPLE,
    "arena.cli": CLI,
    "arena.viewer": VIEWER,
    "arena.table": TABLE,
    "arena.rl": RL,
    "bots": BOTS,
}
"""Each module's room, by the longest prefix of its name that is listed."""

MAY_IMPORT: dict[str, frozenset[str]] = {
    BASE: frozenset({BASE}),
    PLAYER_API: frozenset({BASE, PLAYER_API}),
    CORE: frozenset({BASE, PLAYER_API, CORE, LUCK}),
    LUCK: frozenset({BASE, PLAYER_API, CORE, LUCK}),
    GAMES: frozenset({BASE, PLAYER_API, LUCK, GAMES}),
    SANDBOX: frozenset({BASE, PLAYER_API, CORE, SANDBOX}),
    RATINGS: frozenset({BASE, PLAYER_API, CORE, RATINGS}),
    TOURNAMENT: frozenset({BASE, PLAYER_API, CORE, SANDBOX, RATINGS, TOURNAMENT}),
    VIEWER: frozenset({BASE, PLAYER_API, CORE, GAMES, SANDBOX, RATINGS, TOURNAMENT, VIEWER}),
    LEAGUE: frozenset({BASE, PLAYER_API, CORE, SANDBOX, RATINGS, TOURNAMENT, VIEWER, LEAGUE}),
    PEOPLE: frozenset({BASE, PLAYER_API, CORE, GAMES, PEOPLE}),
    TABLE: frozenset({BASE, PLAYER_API, CORE, TOURNAMENT, VIEWER, TABLE}),
    CLI: frozenset({BASE, PLAYER_API, CORE, GAMES, SANDBOX, RATINGS, TOURNAMENT, VIEWER, LEAGUE,
                    PEOPLE, CLI, TABLE}),
    BOTS: frozenset({BASE, PLAYER_API, CORE, GAMES, PEOPLE, BOTS}),
    RL: frozenset({BASE, PLAYER_API, CORE, GAMES, RL}),
}
"""The rooms each room may import from."""

ALLOWED: frozenset[tuple[str, str]] = frozenset({
    ("arena.engine", "arena.games"),  # the game registry imports a game's package by its name
    ("arena.games", "arena.engine"),  # games implement the rules protocol
    # a program bot's compact encoding (docs/protocol.md), imported only when a bot asks for it
    ("arena.protocol.command", "arena.rl.compact"),
})
"""Single edges allowed across the rooms: (importer or its package, imported)."""


def modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = modules()


def imports(name: str, path: Path) -> Iterator[str]:
    """The modules of the packages that a module imports (the longest known name of each)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                kept = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*kept, base] if base else kept)
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            known = _known(target)
            if known is not None and known != name:
                yield known


def _known(target: str) -> str | None:
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in MODULES:
            return candidate
    return None


class _Graph(UserDict[str, set[str]]):
    """Each module and the modules it imports, read when a test first asks (a second of parsing
    every file, not done at collection, which every test process does)."""

    def __init__(self) -> None:  # no UserDict.__init__: `data` is made on first use
        pass

    @functools.cached_property
    def data(self) -> dict[str, set[str]]:  # type: ignore[override]
        """The graph itself."""
        return {name: set(imports(name, path)) for name, path in MODULES.items()}


GRAPH = _Graph()


@pytest.fixture(scope="module", autouse=True)
def graph_read_once() -> None:
    """The graph read once for this module's tests: a module-scoped fixture also keeps them in
    one test process (tests/conftest.py), so that no other process parses every file again."""
    assert GRAPH.data


def room(name: str) -> str:
    """The room of a module: its longest listed prefix."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        found = ROOMS.get(".".join(parts[:end]))
        if found is not None:
            return found
    raise AssertionError(f"{name} is in no room: add it to ROOMS (and to docs/architecture.md)")


def _allowed(importer: str, imported: str) -> bool:
    return any((importer == a or importer.startswith(a + ".")) and imported == b
               for a, b in ALLOWED)


def test_every_module_is_in_a_room() -> None:
    for name in MODULES:
        room(name)


def test_no_module_imports_a_room_above_its_own() -> None:
    wrong = sorted(f"{a} ({room(a)}) imports {b} ({room(b)})"
                   for a, targets in GRAPH.items() for b in targets
                   if room(b) not in MAY_IMPORT[room(a)] and not _allowed(a, b))
    assert not wrong, "\n".join(wrong)


def test_there_are_no_import_cycles() -> None:
    cycles: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str], on_path: set[str]) -> None:
        for target in sorted(GRAPH[name]):
            if target in on_path:
                cycles.append([*path[path.index(target):], target])
            elif target not in done:
                visit(target, [*path, target], on_path | {target})
        done.add(name)

    for name in sorted(GRAPH):
        if name not in done:
            visit(name, [name], {name})
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_the_sandbox_is_entered_by_its_front_door() -> None:
    """Outside `arena.sandbox`, only the package itself is imported, never its modules."""
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if b.startswith("arena.sandbox.") and not a.startswith("arena.sandbox"))
    assert not wrong, "\n".join(wrong)


LUCK_MODEL = "arena.luck.model"
"""The luck model's protocol: the engine names it (`Game.luck_model`) and games implement it."""


def test_the_luck_model_imports_only_the_base_and_the_player_api() -> None:
    """`arena.luck.model` stands below the engine (which hands out models) and the games (which
    write them), so that neither import makes a cycle through the match loop's tally."""
    assert {room(b) for b in GRAPH[LUCK_MODEL]} <= {BASE, PLAYER_API}, GRAPH[LUCK_MODEL]


def test_games_take_only_the_luck_models_protocol_from_the_luck_room() -> None:
    """A game writes its own luck model against the protocol; the tally is the match loop's."""
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if room(a) == GAMES and room(b) == LUCK and b != LUCK_MODEL)
    assert not wrong, "\n".join(wrong)


def test_the_luck_rules_see_a_game_import_the_tally_and_the_model_import_the_engine() -> None:
    """The two rules above can fail."""
    GRAPH["arena.games.dig.state"].add("arena.luck.tally")
    try:
        with pytest.raises(AssertionError, match=re.escape("dig.state imports arena.luck.tally")):
            test_games_take_only_the_luck_models_protocol_from_the_luck_room()
    finally:
        GRAPH["arena.games.dig.state"].discard("arena.luck.tally")
    GRAPH[LUCK_MODEL].add("arena.engine")
    try:
        with pytest.raises(AssertionError):
            test_the_luck_model_imports_only_the_base_and_the_player_api()
    finally:
        GRAPH[LUCK_MODEL].discard("arena.engine")


@pytest.mark.parametrize("module", ["arena.api", "arena.cards"])
def test_the_player_api_imports_nothing_above_it(module: str) -> None:
    assert {room(b) for b in GRAPH[module]} <= {BASE, PLAYER_API}


def test_the_web_server_is_reached_only_by_the_command_and_alone_imports_aiohttp() -> None:
    """The table's web server (aiohttp, an optional extra) is imported by `arena play --web`
    alone, so no other command or library import needs it, and `arena --help` stays fast."""
    server = "arena.table.server"
    importers = sorted(a for a, targets in GRAPH.items() if server in targets)
    assert importers == ["arena.cli.playing"], importers
    users = sorted(name for name, path in MODULES.items()
                   if re.search(r"^\s*(import aiohttp|from aiohttp\b)",
                                path.read_text(encoding="utf-8"), re.M))
    assert users == [server], users


def test_at_most_twenty_modules_stand_directly_in_arena() -> None:
    top = sorted(p.name for p in (ROOT / "arena").glob("*.py"))
    assert len(top) <= 20, top


TOURNAMENT_ORDER = ("arena.tournament.planning", "arena.tournament.playing",
                    "arena.tournament.records", "arena.tournament.update")
"""The tournament's sub-rooms, lowest first: each imports only those before it (and itself);
the modules directly in `arena/tournament/` (a whole run, its ratings, duels, stopping) may
import them all."""


def _tournament_layer(name: str) -> int:
    """A tournament module's place in TOURNAMENT_ORDER (its length for the room's top)."""
    for place, sub in enumerate(TOURNAMENT_ORDER):
        if name == sub or name.startswith(sub + "."):
            return place
    return len(TOURNAMENT_ORDER)


def test_the_tournament_sub_rooms_import_only_those_below() -> None:
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if a.startswith("arena.tournament.") and b.startswith("arena.tournament.")
                   and _tournament_layer(b) > _tournament_layer(a))
    assert not wrong, "\n".join(wrong)


def test_the_tournament_rule_sees_planning_import_the_run_directory() -> None:
    """The rule above can fail: planning reaching up into the records."""
    GRAPH["arena.tournament.planning.config"].add("arena.tournament.records.results")
    try:
        wrong = re.escape("arena.tournament.planning.config imports "
                          "arena.tournament.records.results")
        with pytest.raises(AssertionError, match=wrong):
            test_the_tournament_sub_rooms_import_only_those_below()
    finally:
        GRAPH["arena.tournament.planning.config"].discard("arena.tournament.records.results")


GENERIC_BOTS = "bots.algorithms"
"""What every game's bots share (determinized search and its hints, the memory strategies, the
random bot): it knows no game; a game hands it what it needs (`Game.sampler()`, `SearchHints`)."""


def _game_names() -> frozenset[str]:
    """Every game's registered name and its package's name (`old-mans-bundle`,
    `old_mans_bundle`), read from the tree: a folder of `arena/games/` is a game."""
    folders = [p.name for p in (ROOT / "arena" / "games").iterdir()
               if p.is_dir() and (p / "__init__.py").is_file()]
    return frozenset(folders) | frozenset(f.replace("_", "-") for f in folders)


GAME_NAMES = _game_names()


def _named_games(path: Path) -> set[str]:
    """The games a module names in its code: string constants that are a game's name (its
    docstrings aside, which may mention a game as an example)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and node.value in GAME_NAMES}


def _game_of(name: str) -> str | None:
    """The game whose package a module is in (`arena.games.dig.state`, `bots.dig.search`)."""
    parts = name.split(".")
    if parts[:2] == ["arena", "games"] and len(parts) > 2 and parts[2] in GAME_NAMES:
        return parts[2]
    if parts[0] == "bots" and len(parts) > 1 and parts[1] in GAME_NAMES:
        return parts[1]
    return None


def test_the_generic_bots_import_and_name_no_game() -> None:
    """`bots.algorithms` imports no game, nor any game's bots, and holds no game's name."""
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if a.startswith(GENERIC_BOTS) and _game_of(b) is not None)
    wrong += sorted(f"{name} names {', '.join(sorted(games))}"
                    for name, path in MODULES.items() if name.startswith(GENERIC_BOTS)
                    for games in [_named_games(path)] if games)
    assert not wrong, "\n".join(wrong)


def test_a_games_bots_import_no_other_game() -> None:
    """A game's bots package (`bots.<game>`) imports its own game and the generic bots only."""
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if _game_of(a) is not None and a.startswith("bots.")
                   and _game_of(b) not in (None, _game_of(a)))
    assert not wrong, "\n".join(wrong)


def test_the_bots_rules_see_a_generic_module_that_knows_a_game(tmp_path: Path) -> None:
    """The rules above can fail: the generic search importing a game's bots or its game, a
    generic module naming a game, a game's bots importing another game."""
    for imported in ("bots.dig.search", "arena.games.cuckoo"):
        GRAPH["bots.algorithms.search"].add(imported)
        try:
            with pytest.raises(AssertionError,
                               match=re.escape(f"bots.algorithms.search imports {imported}")):
                test_the_generic_bots_import_and_name_no_game()
        finally:
            GRAPH["bots.algorithms.search"].discard(imported)
    table = tmp_path / "table.py"
    table.write_text('"""Mentions dig in its docstring, which is allowed."""\n'
                     'SAMPLES = {"cuckoo": 100, "old-mans-bundle": 8}\n', encoding="utf-8")
    assert _named_games(table) == {"cuckoo", "old-mans-bundle"}
    MODULES["bots.algorithms.table"] = table
    try:
        with pytest.raises(AssertionError, match=re.escape("bots.algorithms.table names cuckoo, "
                                                           "old-mans-bundle")):
            test_the_generic_bots_import_and_name_no_game()
    finally:
        del MODULES["bots.algorithms.table"]
    GRAPH["bots.dig.search"].add("arena.games.cuckoo")
    try:
        with pytest.raises(AssertionError, match=re.escape("bots.dig.search imports "
                                                           "arena.games.cuckoo")):
            test_a_games_bots_import_no_other_game()
    finally:
        GRAPH["bots.dig.search"].discard("arena.games.cuckoo")


def test_the_arena_never_imports_the_bundled_bots() -> None:
    """The bots stand beside the arena (found by their entry points): no module of `arena`
    imports `bots`, the human seat included (it lives in `arena/tty/`)."""
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if a.startswith("arena") and room(b) == BOTS)
    assert not wrong, "\n".join(wrong)


def test_the_rules_see_the_cli_reach_into_the_bots() -> None:
    """The rules can fail: the command line importing the human seat from `bots/` again."""
    GRAPH["arena.cli.playing"].add("bots.human")
    try:
        wrong = re.escape("arena.cli.playing imports bots.human")
        with pytest.raises(AssertionError, match=wrong):
            test_the_arena_never_imports_the_bundled_bots()
        with pytest.raises(AssertionError,
                           match=re.escape("arena.cli.playing (cli) imports bots.human (bots)")):
            test_no_module_imports_a_room_above_its_own()
    finally:
        GRAPH["arena.cli.playing"].discard("bots.human")


def test_the_rules_see_a_cycle_and_a_wrong_import() -> None:
    """The checks above can fail: a made-up cycle and a game importing the tournament."""
    GRAPH["arena.cards"].add("arena.api")
    try:
        cycle = re.escape("arena.api -> arena.cards -> arena.api")
        with pytest.raises(AssertionError, match=cycle):
            test_there_are_no_import_cycles()
    finally:
        GRAPH["arena.cards"].discard("arena.api")
    GRAPH["arena.games.dig.state"].add("arena.tournament.run")
    try:
        wrong = re.escape("dig.state (games) imports arena.tournament.run")
        with pytest.raises(AssertionError, match=wrong):
            test_no_module_imports_a_room_above_its_own()
    finally:
        GRAPH["arena.games.dig.state"].discard("arena.tournament.run")
