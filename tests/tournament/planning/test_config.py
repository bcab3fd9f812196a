"""Tests for arena.tournament.planning.config: every error is one line naming the file and key; the
shipped configs load; the canonical text loads back equal and its digest is stable."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from arena.errors import ArenaError
from arena.loader import resolve_bot
from arena.ratings.settings import TrueSkillSettings
from arena.sandbox import Isolation
from arena.sandbox import Limits as SandboxLimits
from arena.text import is_safe
from arena.tournament.planning.canonical import canonical_toml, config_digest
from arena.tournament.planning.config import (
    BotEntry,
    ConfigError,
    Limits,
    OnFault,
    Seating,
    Stop,
    Stopping,
    TournamentConfig,
    VariantEntry,
    load_config,
    parse_config,
)
from arena.tournament.planning.deals import DealSet

CONFIGS = Path(__file__).resolve().parents[3] / "configs"
SHIPPED = sorted(CONFIGS.glob("*.toml"))

BASE = """
name = "t"

[deals]
count = 3
base = 1

[[bots]]
spec = "random"

[[bots]]
spec = "greedy"

[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""

FULL = """
name = "full"
seating = "permutations"

[deals]
list = "standard"
count = 5

[[bots]]
spec = "greedy"

[[bots]]
spec = "forgetful"
name = "forgetful-weak"
params = { recall = 0.4, capacity = 4 }

[[bots]]
spec = "forgetful:recall=0.9"
params = { capacity = 16 }

[[bots]]
spec = "mybot.py:PlainBot"

[[games]]
game = "concentration"
players = 2

[games.trueskill]
draw_probability = 0.2
mu = 30

[[games.variants]]
preset = "standard"

[[games.variants]]
preset = "standard"
params = { one_flip = true, max-turns = 400 }

[[games.variants]]
preset = "two-decks"
name = "pairs of twins"

[[games]]
game = "concentration"
players = 1
variants = ["jokers"]

[limits]
move_seconds = 1
game_seconds = 60.5
start_seconds = 5
memory_mb = 512
on_fault = "disqualify"
"""

BOTS = '''
from arena.api import Bot


class PlainBot(Bot):
    """Plays the first legal action."""

    def act(self, obs):
        return obs.legal[0]


class DigBot(Bot):
    """Plays only Dig."""

    games = ("dig",)

    def act(self, obs):
        return obs.legal[0]
'''


def write(path: Path, text: str) -> Path:
    """Write dedented `text` to `path`, creating folders; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path: Path, text: str | None = None) -> str:
    """The one-line ConfigError of loading `text` written to `path` (or `path` as it is)."""
    if text is not None:
        write(path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert isinstance(caught.value, ArenaError)
    return message


def edit(text: str, old: str, new: str) -> str:
    """`text` with `old` (which must occur) replaced by `new`."""
    assert old in text
    return text.replace(old, new, 1)


# --- the shipped configs ----------------------------------------------------------------------


def test_the_three_examples_are_shipped() -> None:
    assert {p.name for p in SHIPPED} >= {"quick.toml", "classroom.toml", "solitaire.toml"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_configs_load_and_their_bots_resolve(path: Path) -> None:
    config = load_config(path)
    assert config.name == path.stem
    for bot in config.bots:
        for game in config.games:
            assert resolve_bot(bot.spec, game.game).plays(game.game)
    assert parse_config(canonical_toml(config), path) == config


def test_shipped_config_contents() -> None:
    quick = load_config(CONFIGS / "quick.toml")
    assert [b.name for b in quick.bots] == ["random", "greedy", "optimal", "forgetful"]
    assert len(quick.deals) == 20
    assert quick.seating is Seating.ROTATIONS
    classroom = load_config(CONFIGS / "classroom.toml")
    assert len(classroom.deals) == 50
    assert {b.spec.partition(":")[0] for b in classroom.bots} == {
        "random", "greedy", "optimal", "tracker", "forgetful"}
    assert {v.label for v in classroom.games[0].variants} == {
        "standard", "zebra", "one-flip", "any-color", "moving", "checkerboard"}
    solitaire = load_config(CONFIGS / "solitaire.toml")
    assert solitaire.games[0].players == 1
    assert len(solitaire.deals) == 200
    assert [v.label for v in solitaire.games[0].variants] == ["standard", "jokers"]


# --- what a config resolves to ----------------------------------------------------------------


def test_full_config_resolves(tmp_path: Path) -> None:
    write(tmp_path / "mybot.py", BOTS)
    config = load_config(write(tmp_path / "full.toml", FULL))
    assert config.name == "full"
    assert config.path == tmp_path / "full.toml"
    assert config.seating is Seating.PERMUTATIONS
    assert config.deals.source == "list 'standard' (packaged), first 5 of 1000"
    assert len(config.deals) == 5
    assert config.bots[:3] == (
        BotEntry("greedy", "greedy"),
        BotEntry("forgetful-weak", "forgetful:recall=0.4,capacity=4"),
        BotEntry("forgetful:recall=0.9,capacity=16", "forgetful:recall=0.9,capacity=16"),
    )
    file_bot = config.bots[3]
    assert file_bot.name == "mybot.py:PlainBot"
    assert file_bot.spec == f"{tmp_path / 'mybot.py'}:PlainBot"  # anchored at the config's folder
    pairs, alone = config.games
    assert (pairs.game, pairs.players, alone.players) == ("concentration", 2, 1)
    assert pairs.variants == (
        VariantEntry("standard", "standard"),
        VariantEntry("standard,max-turns=400,one-flip=true", "standard",
                     (("max-turns", "400"), ("one-flip", "true"))),
        VariantEntry("pairs of twins", "two-decks"),
    )
    assert pairs.trueskill == TrueSkillSettings(mu=30.0, draw_probability=0.2)
    assert alone.trueskill == TrueSkillSettings()
    assert config.limits == Limits(move_seconds=1.0, game_seconds=60.5, start_seconds=5.0,
                                   memory_mb=512, on_fault=OnFault.DISQUALIFY)
    # the sandbox gets them all; `end` is limited as a move (end_seconds not given)
    assert config.limits.sandbox() == SandboxLimits(
        move_seconds=1.0, game_seconds=60.5, memory_mb=512, start_seconds=5.0)
    assert file_bot.isolation is Isolation.PROCESS  # not bundled: sandboxed by default
    assert config.bots[0].isolation is Isolation.NONE


def test_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path / "t.toml", BASE))
    assert config.seating is Seating.ROTATIONS
    assert config.limits == Limits()
    assert config.deals == DealSet((1, 2, 3), "count 3 from base 1")
    assert [b.name for b in config.bots] == ["random", "greedy"]


def test_named_list_beside_the_config(tmp_path: Path) -> None:
    write(tmp_path / "seeds" / "weekly.txt", "7\n3\n5\n")
    config = load_config(write(tmp_path / "t.toml", edit(BASE, "count = 3\nbase = 1",
                                                        'list = "weekly"')))
    assert config.deals == DealSet((7, 3, 5), "list 'weekly' (seeds/weekly.txt)")


def test_named_list_from_the_package(tmp_path: Path) -> None:
    config = load_config(write(tmp_path / "t.toml", edit(BASE, "count = 3\nbase = 1",
                                                        'list = "standard"')))
    assert len(config.deals) >= 1000
    assert config.deals.source == "list 'standard' (packaged)"


def test_seed_file_path(tmp_path: Path) -> None:
    write(tmp_path / "lists" / "mine.txt", "4\n2\n")
    config = load_config(write(tmp_path / "t.toml", edit(BASE, "count = 3\nbase = 1",
                                                        'list = "lists/mine.txt"\ncount = 1')))
    assert config.deals == DealSet((4,), "file 'lists/mine.txt', first 1 of 2")


def test_explicit_seeds(tmp_path: Path) -> None:
    text = edit(BASE, "count = 3\nbase = 1", 'seeds = [9, 4, 100]\nsource = "from last week"')
    assert load_config(write(tmp_path / "t.toml", text)).deals == DealSet((9, 4, 100),
                                                                          "from last week")
    text = edit(BASE, "count = 3\nbase = 1", "seeds = [9]")
    assert load_config(write(tmp_path / "t.toml", text)).deals == DealSet((9,), "listed seeds")


# --- canonical text and digest ----------------------------------------------------------------


def test_canonical_round_trip(tmp_path: Path) -> None:
    write(tmp_path / "mybot.py", BOTS)
    config = load_config(write(tmp_path / "full.toml", FULL))
    canonical = canonical_toml(config)
    run_dir = tmp_path / "results" / "full"
    again = load_config(write(run_dir / "config.toml", canonical))
    assert again == config
    assert canonical_toml(again) == canonical
    assert config_digest(again) == config_digest(config)
    assert "seeds = [" in canonical


def test_digest_is_stable_and_does_not_depend_on_where_the_file_is(tmp_path: Path) -> None:
    path = write(tmp_path / "a" / "t.toml", BASE)
    first = config_digest(load_config(path))
    assert config_digest(load_config(path)) == first
    assert len(first) == 64
    moved = tmp_path / "b" / "t.toml"
    moved.parent.mkdir()
    shutil.copy(path, moved)
    assert config_digest(load_config(moved)) == first


def test_digest_changes_with_a_bot_parameter(tmp_path: Path) -> None:
    text = BASE + '\n[[bots]]\nspec = "forgetful"\nname = "f"\nparams = { recall = 0.4 }\n'
    before = config_digest(load_config(write(tmp_path / "t.toml", text)))
    after = config_digest(load_config(write(tmp_path / "t.toml", text.replace("0.4", "0.5"))))
    assert before != after


def test_canonical_holds_every_resolved_setting(tmp_path: Path) -> None:
    canonical = canonical_toml(load_config(write(tmp_path / "t.toml", BASE)))
    for line in ('name = "t"', 'seating = "rotations"', 'source = "count 3 from base 1"',
                 "1, 2, 3,", 'on_fault = "forfeit"', 'spec = "greedy"', "players = 2",
                 "draw_probability = 0.1", 'preset = "standard"'):
        assert line in canonical


def test_canonical_of_an_equal_config_is_equal(tmp_path: Path) -> None:
    one = load_config(write(tmp_path / "one.toml", BASE))
    reordered = edit(BASE, "count = 3\nbase = 1", "base = 1\ncount = 3")
    two = load_config(write(tmp_path / "two.toml", reordered))
    assert isinstance(two, TournamentConfig)
    assert one == two
    assert canonical_toml(one) == canonical_toml(two)


# --- every error: one line naming the file, the key and what is allowed -----------------------

ERRORS: list[tuple[str, str, str, str]] = [
    # (test id, old text, new text, expected message after "<file>: ")
    ("unknown variant", 'variants = ["standard"]', 'variants = ["standard", "zebr"]',
     "games[0].variants[1]: unknown variant 'zebr' for concentration (known: standard, "
     "any-color, zebra,"),
    ("unknown preset in a table", 'variants = ["standard"]',
     '[[games.variants]]\npreset = "zebr"',
     "games[0].variants[0].preset: unknown variant 'zebr' for concentration (known:"),
    ("unknown bot", '[[bots]]\nspec = "greedy"', '[[bots]]\nspec = "greedy"\n\n'
     '[[bots]]\nspec = "nosuch"', "bots[2].spec: bot spec 'nosuch': no registered bot 'nosuch'"),
    ("players of a variant", 'players = 2\nvariants = ["standard"]',
     'players = 3\nvariants = ["standard", "duel"]',
     "games[0].players: concentration variant 'duel' takes 2 players, not 3"),
    ("players below one", "players = 2", "players = 0", "games[0].players: must be 1 or more"),
    ("name type", 'name = "t"', "name = 3", "name: expected a string, got integer"),
    ("name empty", 'name = "t"', 'name = "  "', "name: expected a non-empty, one-line string"),
    ("name as a path", 'name = "t"', 'name = "../t"', "name: '../t': a name is letters"),
    ("name missing", 'name = "t"', "", "name: required, but missing"),
    ("unknown bot key", 'spec = "random"', 'sepc = "random"',
     "bots[0]: unknown key 'sepc' (allowed: spec, name, params, isolation)"),
    ("unknown top-level key", 'name = "t"', 'name = "t"\nnmae = "u"',
     "unknown top-level key 'nmae' (allowed: name, seating, deals, bots, games, limits, "
     "schedule)"),
    ("unknown game key", "players = 2", "players = 2\nplayer = 2",
     "games[0]: unknown key 'player' (allowed: game, players, variants, trueskill)"),
    ("unknown deals key", "base = 1", "base = 1\nbsae = 2",
     "deals: unknown key 'bsae' (allowed: list, count, base, seeds, source)"),
    ("syntax", 'name = "t"', 'name = "t"\nseating =', "line 3: Invalid value (column 10)"),
    ("seating", 'name = "t"', 'name = "t"\nseating = "rotation"',
     "seating: expected one of 'rotations', 'permutations', not 'rotation'"),
    ("duplicate bot names", '[[bots]]\nspec = "greedy"',
     '[[bots]]\nspec = "greedy"\nname = "random"',
     "bots[1].name: duplicate bot name 'random' (also bots[0]); give one a distinct name"),
    ("duplicate default bot names", '[[bots]]\nspec = "greedy"', '[[bots]]\nspec = "random"',
     "bots[1]: duplicate bot name 'random' (also bots[0])"),
    ("too few bots for a table", '[[bots]]\nspec = "greedy"', "",
     "bots: games[0] seats 2 players, so it needs at least 2 bots, not 1"),
    ("bots as one table", '[[bots]]\nspec = "random"\n\n[[bots]]\nspec = "greedy"',
     '[bots]\nspec = "random"', "bots: expected an array of tables ([[bots]]), got table"),
    ("bot parameter rejected", 'spec = "greedy"', 'spec = "forgetful"\nparams = { recall = 2 }',
     "bots[1].spec: bot spec 'forgetful:recall=2': creating ForgetfulBot raised ValueError"),
    ("bot parameter unknown", 'spec = "greedy"', 'spec = "forgetful"\nparams = { recal = 1 }',
     "bots[1].spec: bot spec 'forgetful:recal=1': ForgetfulBot has no parameter 'recal'"),
    ("bot parameter twice", 'spec = "greedy"',
     'spec = "forgetful:recall=0.5"\nparams = { recall = 0.6 }',
     "bots[1].params.recall: also given in the spec 'forgetful:recall=0.5'"),
    ("bot parameter of a bad type", 'spec = "greedy"',
     'spec = "forgetful"\nparams = { recall = [1] }',
     "bots[1].params.recall: expected a number, boolean or string, got array"),
    ("bot parameter with a comma", 'spec = "greedy"',
     'spec = "forgetful"\nparams = { recall = "1,2" }',
     "bots[1].params.recall: '1,2': a bot parameter value cannot hold ',' or ':'"),
    ("unknown game", 'game = "concentration"', 'game = "memoryy"',
     "games[0].game: unknown game 'memoryy' (known: "),
    ("no variants", 'variants = ["standard"]', "variants = []",
     "games[0].variants: needs at least one variant"),
    ("variant of a bad type", 'variants = ["standard"]', "variants = [1]",
     "games[0].variants[0]: expected a preset name or a table, got integer"),
    ("duplicate variant labels", 'variants = ["standard"]', 'variants = ["zebra", "zebra"]',
     "games[0].variants[1]: duplicate variant label 'zebra' (also games[0].variants[0])"),
    ("variant parameter value", 'variants = ["standard"]',
     '[[games.variants]]\npreset = "standard"\nparams = { decks = 3 }',
     "games[0].variants[0].params: decks must be 1 or 2, not 3"),
    ("variant parameter unknown", 'variants = ["standard"]',
     '[[games.variants]]\npreset = "standard"\nparams = { deks = 2 }',
     "games[0].variants[0].params: concentration variant 'standard': unknown parameter 'deks'"),
    ("variant parameter twice", 'variants = ["standard"]',
     '[[games.variants]]\npreset = "standard"\nparams = { one-flip = true, one_flip = false }',
     "games[0].variants[0].params.one_flip: 'one-flip' is given twice"),
    ("variant table key", 'variants = ["standard"]', '[[games.variants]]\npresett = "standard"',
     "games[0].variants[0]: unknown key 'presett' (allowed: preset, name, params)"),
    ("same game and table size twice", 'variants = ["standard"]',
     'variants = ["standard"]\n\n[[games]]\ngame = "concentration"\nplayers = 2\n'
     'variants = ["zebra"]',
     "games[1]: concentration for 2 players is already games[0]; list all its variants there"),
    ("trueskill range", 'variants = ["standard"]',
     'variants = ["standard"]\n\n[games.trueskill]\ndraw_probability = 1.5',
     "games[0].trueskill: TrueSkill setting draw_probability must be in [0, 1) (got 1.5)"),
    ("trueskill key", 'variants = ["standard"]',
     'variants = ["standard"]\n\n[games.trueskill]\nsigmaa = 1.5',
     "games[0].trueskill: unknown key 'sigmaa' (allowed: mu, sigma, beta, tau, "
     "draw_probability)"),
    ("trueskill type", 'variants = ["standard"]',
     'variants = ["standard"]\n\n[games.trueskill]\nmu = "25"',
     "games[0].trueskill.mu: expected a number, got string"),
    ("limits move", 'name = "t"', 'name = "t"\n\n[limits]\nmove_seconds = 0',
     "limits.move_seconds: must be a number greater than 0, not 0"),
    ("limits game", 'name = "t"', 'name = "t"\n\n[limits]\ngame_seconds = true',
     "limits.game_seconds: expected a number, got boolean"),
    ("limits memory", 'name = "t"', 'name = "t"\n\n[limits]\nmemory_mb = 1.5',
     "limits.memory_mb: expected an integer, got float"),
    ("limits fault", 'name = "t"', 'name = "t"\n\n[limits]\non_fault = "ban"',
     "limits.on_fault: expected one of 'forfeit', 'disqualify', not 'ban'"),
    ("limits key", 'name = "t"', 'name = "t"\n\n[limits]\nmove_second = 1',
     "limits: unknown key 'move_second' (allowed: move_seconds, game_seconds, overage_seconds, "
     "start_seconds, end_seconds, memory_mb, output_kb, on_fault, fault_share)"),
    ("limits start", 'name = "t"', 'name = "t"\n\n[limits]\nstart_seconds = -2',
     "limits.start_seconds: must be a number greater than 0, not -2"),
    ("limits end", 'name = "t"', 'name = "t"\n\n[limits]\nend_seconds = "3"',
     "limits.end_seconds: expected a number, got string"),
    ("deals missing", "[deals]\ncount = 3\nbase = 1", "", "deals: required, but missing"),
    ("deals empty", "count = 3\nbase = 1", "", "deals: give list = NAME"),
    ("deals count without base", "base = 1", "", "deals.base: give list = NAME"),
    ("deals count", "count = 3", "count = 0", "deals.count: must be 1 or more, not 0"),
    ("deals base type", "base = 1", 'base = "1"', "deals.base: expected an integer, got string"),
    ("deals list and seeds", "count = 3\nbase = 1", 'list = "standard"\nseeds = [1]',
     "deals: list and seeds do not go together"),
    ("deals list with base", "count = 3\nbase = 1", 'list = "standard"\nbase = 1',
     "deals.base: does not go with deals.list"),
    ("deals seeds with count", "count = 3\nbase = 1", "seeds = [1]\ncount = 1",
     "deals.count: does not go with deals.seeds"),
    ("deals source alone", "base = 1", 'base = 1\nsource = "x"',
     "deals.source: goes only with deals.seeds"),
    ("deals unknown list", "count = 3\nbase = 1", 'list = "weekly"',
     "deals.list: no seed list 'weekly' (looked in {dir}/seeds/weekly.txt and the packaged "
     "lists: standard)"),
    ("deals count beyond the list", "count = 3\nbase = 1", 'list = "standard"\ncount = 5000',
     "deals.count: list 'standard' (packaged) holds 1000 seeds, fewer than the 5000 asked for"),
    ("deals repeated seeds", "count = 3\nbase = 1", "seeds = [5, 6, 5]",
     "deals.seeds[2]: seed 5 repeats deals.seeds[0]"),
    ("deals seed type", "count = 3\nbase = 1", 'seeds = [5, "6"]',
     "deals.seeds[1]: expected an integer, got string"),
    ("deals no seeds", "count = 3\nbase = 1", "seeds = []", "deals.seeds: needs at least one seed"),
    ("schedule format", 'name = "t"', 'name = "t"\n[schedule]\nformat = "swiss"',
     "schedule.format: expected one of 'round-robin', 'sampled', 'gauntlet', 'duel', not "
     "'swiss'"),
    ("schedule key", 'name = "t"', 'name = "t"\n[schedule]\nfromat = "sampled"',
     "schedule: unknown key 'fromat' (allowed: format, tables_per_bot, challengers, fill, "
     "stop, confidence, budget, round_deals)"),
    ("fill outside a duel", 'name = "t"', 'name = "t"\n[schedule]\nfill = "random"',
     'schedule.fill: goes only with format = "duel"'),
    ("duel fill unknown", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "duel"\nfill = "nobody"',
     "schedule.fill: no bot named 'nobody' (bots: random, greedy)"),
    ("duel of one bot and a fill", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "duel"\nfill = "random"',
     "bots: a duel is two bots and its fill, not 2 bots"),
    ("duel at three seats without a fill", 'players = 2\nvariants = ["standard"]',
     'players = 3\nvariants = ["standard"]\n[schedule]\nformat = "duel"',
     "schedule.fill: required for a duel at 3 seats (games[0]): the bot in the other seats"),
    ("stop rule", 'name = "t"', 'name = "t"\n[schedule]\nstop = "sure"',
     "schedule.stop: expected one of 'never', 'confident', not 'sure'"),
    ("confidence without stop", 'name = "t"', 'name = "t"\n[schedule]\nconfidence = 0.9',
     'schedule.confidence: goes only with stop = "confident"'),
    ("budget without stop", 'name = "t"', 'name = "t"\n[schedule]\nbudget = 100',
     'schedule.budget: goes only with stop = "confident"'),
    ("confidence too low", 'name = "t"',
     'name = "t"\n[schedule]\nstop = "confident"\nconfidence = 0.5',
     "schedule.confidence: must be above 0.5 and below 1 (the probability that a bot is above "
     "the next), not 0.5"),
    ("confidence type", 'name = "t"',
     'name = "t"\n[schedule]\nstop = "confident"\nconfidence = "high"',
     "schedule.confidence: expected a finite number, got string"),
    ("budget zero", 'name = "t"', 'name = "t"\n[schedule]\nstop = "confident"\nbudget = 0',
     "schedule.budget: must be 1 or more, not 0"),
    ("round deals beyond the deals", 'name = "t"',
     'name = "t"\n[schedule]\nstop = "confident"\nround_deals = 4',
     "schedule.round_deals: 4 deals per round, more than the 3 of [deals]"),
    ("sampled without tables", 'name = "t"', 'name = "t"\n[schedule]\nformat = "sampled"',
     'schedule.tables_per_bot: required with format = "sampled"'),
    ("tables per bot type", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "sampled"\ntables_per_bot = "8"',
     "schedule.tables_per_bot: expected an integer, got string"),
    ("tables per bot zero", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "sampled"\ntables_per_bot = 0',
     "schedule.tables_per_bot: must be 1 or more, not 0"),
    ("sampled larger than the round robin", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "sampled"\ntables_per_bot = 2',
     "schedule.tables_per_bot: 2 draws 2 tables for games[0], more than the 1 of a round robin"),
    ("sampled tables larger than the pool", 'players = 2\nvariants = ["standard"]',
     'players = 3\nvariants = ["standard"]\n[schedule]\nformat = "sampled"\ntables_per_bot = 1',
     "games[0].players: a sampled schedule seats distinct bots, so 3 seats need at least 3"),
    ("tables per bot in a round robin", 'name = "t"',
     'name = "t"\n[schedule]\ntables_per_bot = 2',
     'schedule.tables_per_bot: goes with format = "sampled" or "gauntlet"'),
    ("challengers outside a gauntlet", 'name = "t"',
     'name = "t"\n[schedule]\nchallengers = ["random"]',
     'schedule.challengers: goes only with format = "gauntlet"'),
    ("gauntlet without challengers", 'name = "t"', 'name = "t"\n[schedule]\nformat = "gauntlet"',
     'schedule.challengers: required with format = "gauntlet"'),
    ("unknown challenger", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "gauntlet"\nchallengers = ["greedy", "optimal"]',
     "schedule.challengers[1]: no bot named 'optimal' (bots: random, greedy)"),
    ("repeated challenger", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "gauntlet"\nchallengers = ["greedy", "greedy"]',
     "schedule.challengers[1]: 'greedy' repeats schedule.challengers[0]"),
    ("gauntlet without a field", 'name = "t"',
     'name = "t"\n[schedule]\nformat = "gauntlet"\nchallengers = ["greedy", "random"]',
     "schedule.challengers: leaves no field to play against"),
    ("gauntlet table larger than the field", 'players = 2\nvariants = ["standard"]',
     'players = 3\nvariants = ["standard"]\n[schedule]\nformat = "gauntlet"\n'
     'challengers = ["greedy"]',
     "games[0].players: a gauntlet table is one challenger and 2 distinct field bots, and the "
     "field has 1"),
]


@pytest.mark.parametrize(("old", "new", "expected"), [e[1:] for e in ERRORS],
                         ids=[e[0] for e in ERRORS])
def test_errors_are_one_line_naming_file_and_key(tmp_path: Path, old: str, new: str,
                                                 expected: str) -> None:
    path = tmp_path / "configs" / "x.toml"
    message = error_of(path, edit(BASE, old, new))
    assert message.startswith(f"{path}: {expected.format(dir=path.parent)}"), message


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "configs" / "nope.toml"
    assert error_of(path) == f"{path}: no such config file"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_bytes(b'name = "\xff"\n')
    assert error_of(path) == f"{path}: line 1: not UTF-8 text (byte 0xff)"


def test_bot_that_does_not_play_the_game(tmp_path: Path) -> None:
    write(tmp_path / "configs" / "mybot.py", BOTS)
    path = tmp_path / "configs" / "x.toml"
    message = error_of(path, edit(BASE, 'spec = "greedy"', 'spec = "mybot.py:DigBot"'))
    assert message == (f"{path}: bots[1].spec: bot spec '{tmp_path}/configs/mybot.py:DigBot': "
                       f"DigBot plays dig, not concentration")


def test_bot_file_missing_names_the_anchored_path(tmp_path: Path) -> None:
    path = tmp_path / "configs" / "x.toml"
    message = error_of(path, edit(BASE, 'spec = "greedy"', 'spec = "bots/gone.py:Gone"'))
    assert message.startswith(f"{path}: bots[1].spec: bot spec ")
    assert f"file '{tmp_path}/configs/bots/gone.py' not found" in message


@pytest.mark.parametrize(("lines", "message"), [
    ("1\n2\n3\n4\n5\n6\nabc\n", "line 7: 'abc' is not an integer"),
    ("1\n2\n1\n", "line 3: seed 1 repeats line 1"),
])
def test_bad_seed_list_names_config_and_seed_file(tmp_path: Path, lines: str,
                                                  message: str) -> None:
    seeds = write(tmp_path / "configs" / "seeds" / "x.txt", lines)
    path = tmp_path / "configs" / "x.toml"
    got = error_of(path, edit(BASE, "count = 3\nbase = 1", 'list = "x"'))
    assert got == f"{path}: deals.list: {seeds}: {message}"


@pytest.mark.parametrize("key", ["bots", "games"])
def test_empty_bots_or_games(tmp_path: Path, key: str) -> None:
    path = tmp_path / "x.toml"
    blocks = BASE.split("\n\n")
    kept = [b for b in blocks if not b.lstrip().startswith(f"[[{key}]]")]
    text = f"{key} = []\n" + "\n\n".join(kept)
    assert error_of(path, text) == f"{path}: {key}: needs at least one entry"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_docs_show_each_shipped_config_verbatim(path: Path) -> None:
    docs = (CONFIGS.parent / "docs" / "config.md").read_text(encoding="utf-8")
    assert f"### configs/{path.name}\n\n```toml\n{path.read_text(encoding='utf-8')}```" in docs


def test_a_round_robin_is_left_out_of_the_canonical_text(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text(BASE)
    explicit = tmp_path / "explicit.toml"
    explicit.write_text(edit(BASE, 'name = "t"', 'name = "t"\n[schedule]\nformat = "round-robin"'))
    assert "[schedule]" not in canonical_toml(load_config(plain))
    assert config_digest(load_config(plain)) == config_digest(load_config(explicit))


def test_stopping_keys_change_the_digest_and_round_trip(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text(BASE)
    stopping = tmp_path / "stopping.toml"
    stopping.write_text(edit(BASE, 'name = "t"', 'name = "t"\n[schedule]\nstop = "confident"\n'
                                                 'budget = 120'))
    config = load_config(stopping)
    assert config.stopping == Stopping(Stop.CONFIDENT, 0.95, 120, 1)
    text = canonical_toml(config)
    assert 'format = "round-robin"\nstop = "confident"\nconfidence = 0.95\nbudget = 120' in text
    again = tmp_path / "again.toml"
    again.write_text(text)
    assert load_config(again) == config
    assert config_digest(load_config(again)) == config_digest(config) != config_digest(
        load_config(plain))
    never = tmp_path / "never.toml"
    never.write_text(edit(BASE, 'name = "t"', 'name = "t"\n[schedule]\nstop = "never"'))
    assert canonical_toml(load_config(never)) == canonical_toml(load_config(plain))


def test_a_sampled_or_gauntlet_schedule_round_trips(tmp_path: Path) -> None:
    bots = "".join(f'\n[[bots]]\nspec = "random"\nname = "r{i}"\n' for i in range(6))
    for schedule in ('format = "sampled"\ntables_per_bot = 3',
                     'format = "sampled"\ntables_per_bot = 3\nstop = "confident"\n'
                     'confidence = 0.9\nround_deals = 2',
                     'format = "gauntlet"\nchallengers = ["r4", "r1"]\ntables_per_bot = 2'):
        path = tmp_path / "s.toml"
        path.write_text(f'name = "s"\n[schedule]\n{schedule}\n[deals]\ncount = 2\nbase = 1\n'
                        f'{bots}\n[[games]]\ngame = "memorandum"\nplayers = 3\n'
                        f'variants = ["standard"]\n')
        config = load_config(path)
        again = tmp_path / "again.toml"
        again.write_text(canonical_toml(config))
        assert "[schedule]" in canonical_toml(config)
        assert load_config(again) == config
        assert config_digest(load_config(again)) == config_digest(config)


def test_a_name_with_a_control_character_is_refused(tmp_path: Path) -> None:
    """A name is shown and stored in every record: it holds printable text only (issue 27)."""
    path = tmp_path / "x.toml"
    path.write_text('name = "x"\n[deals]\ncount = 1\nbase = 1\n[[bots]]\nspec = "greedy"\n'
                    'name = "greedy\\u001b[31m\\u202e"\n[[bots]]\nspec = "random"\n'
                    '[[games]]\ngame = "concentration"\nplayers = 2\nvariants = ["standard"]\n')
    message = error_of(path)
    assert message.startswith(f"{path}: bots[0].name: 'greedy\\x1b[31m\\u202e' holds a "
                              f"control character")
    assert is_safe(message)
