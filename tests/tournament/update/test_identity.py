"""What a run was played on: its bots' code (kept in bots.json, checked on resume) and its deals
(`--deals-like`, `deals_differ`)."""

from __future__ import annotations

import json
import stat
import tracemalloc
from importlib import metadata
from pathlib import Path

import pytest

from arena.tournament.planning.config import load_config, overridden
from arena.tournament.records.replay import replay_all
from arena.tournament.records.results import (
    BOTS,
    DIGEST,
    GAMES,
    KEY,
    KEY_SHARED,
    LOG,
    NUMBERS,
    RETIRED,
    RunDirectory,
    RunDirectoryError,
)
from arena.tournament.run import run_tournament
from arena.tournament.update import reconcile
from arena.tournament.update.identity import (
    BotKind,
    bot_code,
    changed_code,
    code_change,
    deals_differ,
    read_bots,
)
from tests.helpers import run_records

HOSTILE = Path(__file__).parents[2] / "sandbox" / "hostile" / "bots.py"

MINE = '''
from bots.algorithms.random_bot import RandomBot


class Mine(RandomBot):
    """Plays at random."""

    games = ("concentration",)
'''

CONFIG = """
name = "{name}"
[deals]
count = {count}
base = {base}
[limits]
move_seconds = 2.0
memory_mb = 256
[[bots]]
spec = "greedy"
[[bots]]
spec = "mine.py:Mine"
name = "mine"
isolation = "{isolation}"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def write_config(folder: Path, name: str = "t", count: int = 2, base: int = 1,
                 isolation: str = "none") -> Path:
    """A two-bot config in `folder`, its file bot `mine.py` beside it."""
    if not (folder / "mine.py").exists():
        (folder / "mine.py").write_text(MINE)
    path = folder / f"{name}.toml"
    path.write_text(CONFIG.format(name=name, count=count, base=base, isolation=isolation))
    return path


def _unidentified(run: Path) -> dict[int, dict[str, object]]:
    """A run's records by task id, without their durations and identities."""
    records = run_records(run)
    for record in records.values():
        del record["identity"]
    return records


# --- the games' identities ------------------------------------------------------------------


def test_bringing_a_run_up_to_date_digests_each_game_s_identity_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    run_tournament(load_config(write_config(tmp_path, count=2)), run)
    more = load_config(write_config(tmp_path, count=3))  # another config: matched by identity
    digested: list[str] = []
    of = reconcile.GameIdentities.of

    def counted(self: reconcile.GameIdentities, task: object) -> str:
        digested.append(of(self, task))  # type: ignore[arg-type]
        return digested[-1]

    monkeypatch.setattr(reconcile.GameIdentities, "of", counted)
    report = run_tournament(more, run)
    assert report.before == 4 and report.played == 2 and report.total == 6
    # each game of the schedule once: numbering them and choosing those to play share them
    assert sorted(digested) == sorted(set(digested)) and len(digested) == report.total


# --- the bots' code ---------------------------------------------------------------------------


def test_a_changed_bot_file_replays_its_games_on_resume_and_fresh_starts_over(
        tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    run = tmp_path / "run"
    first = run_tournament(config, run)
    recorded = read_bots(run)
    assert recorded is not None and recorded["mine"].kind is BotKind.FILE
    assert [name for name, _ in recorded["mine"].files] == ["mine.py"]
    assert run_tournament(config, run).played == 0  # the same code: a resume
    games = (run / GAMES).read_text()
    (tmp_path / "mine.py").write_text(MINE + "# a change\n")
    # every game has 'mine' at its table: all are played again, the old ones kept aside
    changed = run_tournament(config, run)
    assert changed.before == 0 and changed.played == first.played
    assert changed.retired == first.played
    assert changed.plan is not None and changed.plan.changed == ("mine",)
    assert changed.plan.describe() == (
        f"kept 0 games; to play {first.played} (changed: mine); no longer scheduled "
        f"{first.played} (kept on record, not rated)")
    # the old games stay in games.jsonl as they were, under their numbers, not rated
    assert (run / GAMES).read_text().startswith(games)
    assert not {r["task"] for r in RunDirectory(run).records()} & {
        json.loads(line)["task"] for line in games.splitlines()}
    now = read_bots(run)
    assert now is not None and now["mine"] != recorded["mine"] and now["greedy"] == \
        recorded["greedy"]
    assert changed_code(run) is None
    # put back as it was: its games are rated again, under their numbers; none is played
    (tmp_path / "mine.py").write_text(MINE)
    back = run_tournament(config, run)
    assert back.before == first.played and back.played == 0 and back.retired == first.played
    assert sorted(json.dumps(r, separators=(",", ":")) for r in RunDirectory(run).records()
                  ) == sorted(games.splitlines())
    again = run_tournament(config, run, fresh=True)
    assert again.before == 0 and again.played == first.played
    assert not (run / RETIRED).exists() and not (run / NUMBERS).exists()


def test_a_run_without_bots_json_gets_one_on_resume(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, count=3))
    run = tmp_path / "run"
    run_tournament(config, run)
    (run / BOTS).unlink()  # as a run begun by an older version, whose records had no identity
    records = [json.loads(line) for line in (run / GAMES).read_text().splitlines()]
    for record in records:
        del record["identity"]
    (run / GAMES).write_text("".join(json.dumps(r, separators=(",", ":")) + "\n"
                                     for r in records[:2]))
    (tmp_path / "mine.py").write_text(MINE + "# a change nobody can see now\n")
    report = run_tournament(config, run)
    assert report.before == 2 and report.complete
    assert read_bots(run) is not None
    # the two kept were given the identities of the tasks they were played as (numbers.json
    # keeps them: games.jsonl is not rewritten)
    kept = list(RunDirectory(run).records())
    assert [r["task"] for r in kept[:2]] == [r["task"] for r in records[:2]]
    assert all(len(r["identity"]) == 32 for r in kept) and len({r["identity"] for r in kept}) == 6
    assert f"no {BOTS} (a run begun before the bots' code was recorded)" in (
        run / LOG).read_text()


def test_a_file_bot_counts_its_neighbours_but_not_the_other_bots_files(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(MINE)
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "theirs.py").write_text(MINE)
    spec = f"{tmp_path / 'mine.py'}:Mine"
    alone = bot_code(spec)
    assert [name for name, _ in alone.files] == ["helper.py", "mine.py", "theirs.py"]
    beside = bot_code(spec, [f"{tmp_path / 'theirs.py'}:Mine", "greedy"])
    assert [name for name, _ in beside.files] == ["helper.py", "mine.py"]
    (tmp_path / "helper.py").write_text("X = 2\n")
    (tmp_path / "extra.py").write_text("")
    after = bot_code(spec, [f"{tmp_path / 'theirs.py'}:Mine"])
    change = code_change("mine", beside, after)
    assert change is not None and change.startswith("bot 'mine' changed since this run began: ")
    assert "extra.py is new" in change and "helper.py differs (sha256 " in change


def test_a_module_bot_s_digest_changes_when_its_package_source_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "packages" / "mybots"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "tools.py").write_text("DEPTH = 1\n")
    (package / "bot.py").write_text(MINE)
    (package / "notes.txt").write_text("not code")
    monkeypatch.syspath_prepend(str(tmp_path / "packages"))
    before = bot_code("mybots.bot:Mine")
    assert before.kind is BotKind.MODULE and before.distribution == ""
    assert [name for name, _ in before.files] == [
        "mybots/__init__.py", "mybots/bot.py", "mybots/sub/__init__.py", "mybots/sub/tools.py"]
    (package / "notes.txt").write_text("still not code")
    assert bot_code("mybots.bot:Mine") == before
    (package / "sub" / "tools.py").write_text("DEPTH = 2\n")
    after = bot_code("mybots.bot:Mine")
    assert after.digest != before.digest
    change = code_change("deep", before, after)
    assert change is not None and "mybots/sub/tools.py differs (sha256 " in change


def test_a_registered_bot_is_its_distribution_version_and_package() -> None:
    found = bot_code("forgetful:recall=0.6")
    assert found.kind is BotKind.REGISTERED
    assert (found.distribution, found.version) == ("card-arena", metadata.version("card-arena"))
    names = [name for name, _ in found.files]
    assert "bots/concentration/forgetful.py" in names and "bots/concentration/greedy.py" in names
    assert found == bot_code("forgetful:recall=0.6")
    moved = type(found)(found.spec, found.kind, found.files, found.distribution, "9.9")
    assert code_change("forgetful", found, moved) == (
        f"bot 'forgetful' changed since this run began: card-arena {found.version} -> "
        f"card-arena 9.9")


def test_the_installed_distributions_are_looked_up_once_whatever_bot_files_are_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing a bot file in-process puts its folder on the import path; the distributions
    found there are the same, so they are not looked up again (a league update looked them up
    once more per pool after its first student's file, about 0.2 s each: benchmarks/
    bench_league.py's week 2)."""
    import sys

    from arena.loader import resolve_bot
    from arena.tournament.planning.config import parse_config
    from arena.tournament.update import identity

    monkeypatch.setattr(sys, "path", list(sys.path))
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "bot.py").write_text(
        "from arena.api import Bot\n\n\nclass Student(Bot):\n    games = ('concentration',)\n"
        "\n    def act(self, obs):\n        return obs.legal[0]\n")
    text = (f'name = "n"\n[deals]\ncount = 1\nbase = 1\n[[bots]]\nspec = "greedy"\n'
            f'[[bots]]\nspec = "{folder / "bot.py"}:Student"\n[[games]]\n'
            f'game = "concentration"\nplayers = 2\nvariants = ["standard"]\n')
    config = parse_config(text, tmp_path / "n.toml")
    identity.bots_code(config)
    looked_up = identity._providers.cache_info().misses
    resolve_bot(f"{folder / 'bot.py'}:Student")
    assert str(folder) in sys.path
    identity.bots_code(config)
    assert identity._providers.cache_info().misses == looked_up


def test_a_distribution_s_version_is_read_once_for_all_its_bots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each bundled bot names the same installed distribution; its metadata (an email-format
    file parsed each time) is read once per look, not once per bot (eight times in a league
    update of two pools: benchmarks/bench_league.py's fixed cost), with the same code found."""
    from importlib import metadata

    from arena.tournament.planning.config import parse_config
    from arena.tournament.update import identity

    specs = ("greedy", "random", "tracker", "forgetful", "optimal")
    text = 'name = "n"\n[deals]\ncount = 1\nbase = 1\n' + "".join(
        f'[[bots]]\nspec = "{spec}"\n' for spec in specs) + \
        '[[games]]\ngame = "concentration"\nplayers = 2\nvariants = ["standard"]\n'
    config = parse_config(text, tmp_path / "n.toml")
    read: list[str] = []
    version = metadata.version

    def counted(name: str) -> str:
        read.append(name)
        return version(name)

    monkeypatch.setattr(metadata, "version", counted)
    code = identity.bots_code(config)
    assert len(read) == len(set(read)) >= 1
    assert {c.version for c in code.values()} == {version(read[0])}


def test_changed_code_is_said_for_replays_and_reports(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run_tournament(load_config(write_config(tmp_path)), run)
    assert changed_code(run) is None
    (tmp_path / "mine.py").write_text(MINE + "# a change\n")
    said = changed_code(run)
    assert said is not None and said.startswith(f"{run}: bot 'mine' changed since this run "
                                                f"began: mine.py differs")
    (run / BOTS).unlink()
    assert changed_code(run) is None  # an old run: nothing to check against


def test_the_config_digest_does_not_hold_the_bots_code(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run_tournament(load_config(write_config(tmp_path)), run)
    digest = (run / DIGEST).read_text()
    (tmp_path / "mine.py").write_text(MINE + "# a change\n")
    run_tournament(load_config(write_config(tmp_path)), run, fresh=True)
    assert (run / DIGEST).read_text() == digest


# --- deals ------------------------------------------------------------------------------------


def test_deals_like_reproduces_an_in_process_run(tmp_path: Path) -> None:
    earlier, later = tmp_path / "a", tmp_path / "b"
    run_tournament(load_config(write_config(tmp_path, "t", count=3, base=5)), earlier)
    other = load_config(write_config(tmp_path, "t2", count=7, base=100))  # other deals, ignored
    report = run_tournament(other, later, deals_like=earlier)
    assert report.complete and report.total == 3 * 2
    assert run_records(later) == run_records(earlier)
    assert not (earlier / KEY).exists() and not (later / KEY).exists()
    assert deals_differ(earlier, later) is None
    assert "dealt like" in (later / LOG).read_text()
    # the same command again resumes
    assert run_tournament(other, later, deals_like=earlier).played == 0
    # the config's own deals are others
    own = tmp_path / "c"
    run_tournament(other, own)
    differ = deals_differ(earlier, own)
    assert differ == (f"the runs were played on different deals: different seeds ({earlier}: "
                      f"3 deals from seed 5; {own}: 7 deals from seed 100)")


def test_deals_like_copies_the_key_of_a_sandboxed_run(tmp_path: Path) -> None:
    earlier, later = tmp_path / "a", tmp_path / "b"
    config = load_config(write_config(tmp_path, isolation="process"))
    run_tournament(config, earlier)
    key = (earlier / KEY).read_text()
    run_tournament(config, later, deals_like=earlier)
    assert (later / KEY).read_text() == key
    assert stat.S_IMODE((later / KEY).stat().st_mode) == 0o600
    assert (later / KEY_SHARED).read_text().splitlines() == [str(earlier.resolve())]
    assert (earlier / KEY_SHARED).read_text().splitlines() == [str(later.resolve())]
    # same seeds and key: the same deals, and the same games
    assert run_records(later) == run_records(earlier)
    assert deals_differ(earlier, later) is None
    assert replay_all(later) == []
    # the same seeds with a key of its own: other deals
    own = tmp_path / "c"
    run_tournament(config, own)
    differ = deals_differ(earlier, own)
    assert differ is not None and "different keys" in differ and "\n" not in differ
    assert key.strip() not in differ
    # a run that played with its own key is not dealt like another
    with pytest.raises(RunDirectoryError, match="dealt with a key of its own"):
        run_tournament(config, own, deals_like=earlier)
    # the reverse: an earlier key, no sandboxed bot: played in-process with that key
    inside = tmp_path / "d"
    run_tournament(overridden(config, "none"), inside, deals_like=earlier)
    assert (inside / KEY).read_text() == key
    # the same games, but not the same identities: isolation is part of what decides a game
    assert _unidentified(inside) == _unidentified(earlier)
    assert replay_all(inside) == []


def test_sandboxed_bots_are_not_dealt_like_a_run_without_a_key(tmp_path: Path) -> None:
    earlier, later = tmp_path / "a", tmp_path / "b"
    run_tournament(load_config(write_config(tmp_path)), earlier)
    sandboxed = load_config(write_config(tmp_path, "s", isolation="process"))
    with pytest.raises(RunDirectoryError) as refused:
        run_tournament(sandboxed, later, deals_like=earlier)
    assert str(refused.value).startswith(f"{earlier}: was played without a key")
    assert "--isolation none" in str(refused.value)
    assert not later.exists()
    keyed = tmp_path / "k"
    run_tournament(sandboxed, keyed)
    assert deals_differ(earlier, keyed) == (
        f"the runs were played on different deals: the same seeds, but {keyed} dealt them with a "
        f"secret key (it has sandboxed bots) and {earlier} without")


def test_deals_like_needs_a_run_directory(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    (tmp_path / "empty").mkdir()
    for where in (tmp_path / "empty", tmp_path / "nowhere"):
        with pytest.raises(RunDirectoryError, match=r"not a run directory \(no config.toml\)"):
            run_tournament(config, tmp_path / "b", deals_like=where)
    assert not (tmp_path / "b").exists()


SNOOP_CONFIG = """
name = "snooping"
[deals]
count = 1
base = 1
[limits]
move_seconds = 0.5
overage_seconds = 0.5
memory_mb = 256
[[bots]]
spec = "greedy"
[[bots]]
spec = "{hostile}:Snoop:target={target},other={other}"
name = "snoop"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def test_a_bot_cannot_read_the_key_of_the_runs_it_is_dealt_like(tmp_path: Path) -> None:
    # as tests/sandbox/test_stand_in.py checks for the run's own key: a run dealt like another
    # keeps that run's directory (and those it was dealt like in turn) from its bots too
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    run_tournament(load_config(write_config(tmp_path, isolation="process")), first)
    run_tournament(load_config(write_config(tmp_path)), second, deals_like=first)
    path = tmp_path / "snooping.toml"
    path.write_text(SNOOP_CONFIG.format(hostile=HOSTILE, target=first / KEY, other=second / KEY))
    assert run_tournament(load_config(path), third, deals_like=second).complete
    assert (third / KEY).read_text() == (first / KEY).read_text()
    assert sorted((third / KEY_SHARED).read_text().splitlines()) == sorted(
        [str(first.resolve()), str(second.resolve())])
    games = 2 * 2  # the earlier runs' two deals (not the config's one), in both seats
    records = [json.loads(line) for line in (third / GAMES).read_text().splitlines()]
    assert len(records) == games and all(record["faults"] == [] for record in records)
    snooped = (third / "bots" / "snoop.log").read_text()
    assert snooped.count(f"snoop could not read {first / KEY}") == games, snooped
    assert snooped.count(f"snoop could not read {second / KEY}") == games, snooped
    assert "snoop could read" not in snooped and "snoop could list" not in snooped


def test_a_huge_file_beside_a_bot_is_hashed_a_block_at_a_time(tmp_path: Path) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text("from bots.algorithms.random_bot import RandomBot\n\n\n"
                   "class Mine(RandomBot):\n    pass\n")
    with (tmp_path / "huge.py").open("wb") as f:
        f.truncate(64 << 20)  # sparse
    tracemalloc.start()
    try:
        code = bot_code(f"{bot}:Mine", [])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, peak
    assert "huge.py" in dict(code.files)
