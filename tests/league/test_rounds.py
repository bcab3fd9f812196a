"""Updates, rounds, standings, history and compare between rounds."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from arena.league.folder import League, LeagueError, new_league, parse_game
from arena.league.history import format_history, league_history
from arena.league.rounds import compare_rounds, read_round, rounds, standings, update
from arena.league.submissions import submit, withdraw
from arena.ratings.comparison import Code, Presence
from arena.tournament.playing.runner import Progress
from arena.tournament.records.results import RunDirectory
from tests.league.conftest import FIRST, LAST, passing, write_bot


def _games(league: League, pool: str) -> list[dict[str, object]]:
    return list(RunDirectory(league.path / "pools" / pool).records())


def test_a_submission_plays_after_the_authors_file_changes(league: League,
                                                            tmp_path: Path) -> None:
    submit(league, "greedy", validator=passing)
    spec = write_bot(tmp_path / "ada", FIRST)
    submit(league, spec, "ada", validator=passing)
    (tmp_path / "ada" / "mybot.py").write_text("raise SystemExit('edited after the deadline')\n")
    report = update(league, isolation="none")
    assert report.round == 1 and report.pools[0].report is not None
    records = _games(league, "concentration-standard-2p")
    assert len(records) == 4 and not any(r["faults"] for r in records)
    assert "ada" in standings(league)


def test_two_games_in_one_league(tmp_path: Path) -> None:
    league = new_league(tmp_path / "L", [parse_game("concentration"), parse_game("dig")],
                        deals=1)
    for bot in ("greedy", "random", "dig-sharp"):
        submit(league, bot, validator=passing)
    report = update(league, isolation="none")
    tables = {p.pool.id: set(p.bots) for p in report.pools}
    assert tables == {"concentration-standard-2p": {"greedy", "random"},
                      "dig-standard-2p": {"dig-sharp", "random"}}
    shown = standings(league)
    assert "concentration / standard@2p" in shown and "dig / standard@2p" in shown
    # one key for every pool: each is dealt like the league's deals
    keys = {RunDirectory(league.path / "pools" / p).key() for p in tables}
    assert keys == {league.key()}


def test_rounds_history_and_compare(league: League, tmp_path: Path) -> None:
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    submit(league, write_bot(tmp_path / "a", FIRST), "ada", validator=passing)
    update(league, isolation="none")
    submit(league, "tracker", validator=passing)  # joins
    submit(league, write_bot(tmp_path / "a", LAST), "ada", validator=passing)  # new code
    withdraw(league, "random")  # leaves
    update(league, isolation="none")
    assert rounds(league) == [1, 2]
    one, two = read_round(league, 1), read_round(league, 2)
    assert one["date"] <= two["date"] and two["bots"]["ada"]["version"] == 2
    assert "tracker" not in standings(league, 1) and "tracker" in standings(league, 2)
    shown = format_history(league_history(league))
    assert "round 1" in shown and "round 2" in shown and "tracker" in shown
    tracker = next(line for line in shown.splitlines() if line.startswith("tracker"))
    assert tracker.split()[1] == "-"  # not in round 1
    data = json.loads(format_history(league_history(league), "json"))
    assert set(data["pools"][0]["bots"]["greedy"]) == {"1", "2"}
    comparison = compare_rounds(league, 1, 2)
    (pool,) = comparison.pools
    by = {b.bot: b for b in pool.bots}
    assert by["tracker"].status is Presence.NEW and by["random"].status is Presence.GONE
    assert by["ada"].code is Code.CHANGED and by["greedy"].code is Code.SAME
    assert comparison.deals is None
    assert "code changed: ada: version 1 -> 2" in comparison.notes
    with pytest.raises(LeagueError, match="no round 3"):
        compare_rounds(league, 1, 3)


def test_an_interrupted_update_resumes(league: League, tmp_path: Path) -> None:
    for bot in ("greedy", "random", "tracker"):
        submit(league, bot, validator=passing)
    twin = tmp_path / "twin"
    import shutil

    shutil.copytree(league.path, twin)  # the same key and submissions: the same deals

    def stop_after_three(progress: Progress) -> None:
        if progress.played >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        update(league, on_progress=stop_after_three, isolation="none")
    assert rounds(league) == []  # no round is kept until every pool is up to date
    report = update(league, isolation="none")
    (part,) = report.pools
    assert part.report is not None and part.report.before >= 3
    assert part.report.before + part.report.played == part.report.total == 12
    update(League(twin, league.config), isolation="none")

    def key(record: dict[str, object]) -> int:
        return int(str(record["task"]))

    def strip(records: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in r.items() if k not in ("duration", "times")}
                for r in sorted(records, key=key)]

    pool = "concentration-standard-2p"
    assert strip(_games(league, pool)) == strip(list(
        RunDirectory(twin / "pools" / pool).records()))
    assert read_round(league, 1)["pools"][0]["ratings"] == \
        read_round(League(twin, league.config), 1)["pools"][0]["ratings"]


def test_a_changed_field_keeps_the_deals_and_the_old_records(league: League,
                                                             tmp_path: Path) -> None:
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    first = _games(league, "concentration-standard-2p")
    submit(league, "tracker", validator=passing)
    update(league, isolation="none")
    after = _games(league, "concentration-standard-2p")
    assert len(after) == 12
    # the games of the first week are played again identically on the same deals
    old = {(tuple(r["seats"]), r["seed"]): r["scores"] for r in first}  # type: ignore[arg-type]
    again = {(tuple(r["seats"]), r["seed"]): r["scores"] for r in after}  # type: ignore[arg-type]
    assert all(again[k] == v for k, v in old.items())
    # and every game of the first week stays on record: in the run (once the tournament plays
    # only what is new) or in the league's archive (while a changed field restarts the run)
    archived = [json.loads(line) for path in (league.path / "archive").rglob("*.jsonl")
                for line in path.read_text().splitlines()]
    on_record = {json.dumps(r, sort_keys=True) for r in (*after, *archived)}
    assert all(json.dumps(r, sort_keys=True) in on_record for r in first)


def test_a_crafted_round_is_refused_in_one_line(league: League) -> None:
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    path = league.path / "rounds" / "1" / "round.json"
    document = json.loads(path.read_text())
    document["pools"][0]["ratings"]["pools"][0]["bots"][0]["bot"] = "evil\x1b[2J"
    path.write_text(json.dumps(document))
    with pytest.raises(LeagueError, match="damaged"):
        standings(league, 1)
    path.write_text('{"round": 1, "pools": [{"ratings": {"pools": [{"bots": [{"x": 1}]}]}}]}')
    with pytest.raises(LeagueError, match="damaged"):
        format_history(league_history(league))


def test_two_updates_never_run_at_once(league: League) -> None:
    from arena.league.folder import UPDATE_LOCK, locked

    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    with locked(league, UPDATE_LOCK, wait=False), \
            pytest.raises(LeagueError, match="another update of this league is running"):
        update(league, isolation="none")
    assert rounds(league) == []
    submit(league, "tracker", validator=passing)  # a submission does not wait for an update


def test_a_round_keeps_its_evidence_so_its_moves_are_measured_as_between_runs(
        league: League) -> None:
    """A round keeps each pool's deal-clustered covariance: a move between rounds has the same
    interval as between the pool's runs rated afresh (without it, compare fell back to adding
    variances as if the skills were independent, which over-flags)."""
    for bot in ("greedy", "random", "forgetful"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    update(league, isolation="none")
    (pool,) = compare_rounds(league, 1, 2).pools
    from arena.ratings.comparison import compare
    from arena.tournament.rating import run_ratings

    (run,) = (p for p in (league.path / "pools").iterdir() if p.is_dir())
    ratings = run_ratings(run)
    ratings = type(ratings)(tuple(dataclasses.replace(p, variant=pool.variant)
                                  for p in ratings.pools))
    (fresh,) = compare(ratings, ratings).pools
    assert [b.delta_ci95 for b in pool.bots] == pytest.approx([b.delta_ci95 for b in fresh.bots])
    kept = read_round(league, 2)["pools"][0]["ratings"]["pools"][0]["evidence"]
    assert set(kept["bots"]) == {"greedy", "random", "forgetful"}


def test_a_crafted_evidence_in_a_round_is_refused_in_one_line(league: League) -> None:
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    path = league.path / "rounds" / "1" / "round.json"
    document = json.loads(path.read_text())
    document["pools"][0]["ratings"]["pools"][0]["evidence"]["covariance"] = [[1.0]]
    path.write_text(json.dumps(document))
    with pytest.raises(LeagueError, match="damaged"):
        compare_rounds(league, 1, 1)


def test_an_unchanged_pool_keeps_its_ratings_and_a_changed_one_is_rated_afresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An update's cost follows what changed: a pool whose records, config and ratings code
    are as they were carries its ratings over from the round before, not recomputed."""
    import arena.league.rounds as rounds_module

    league = new_league(tmp_path / "L", [parse_game("concentration"), parse_game("dig")],
                        deals=1)
    for bot in ("greedy", "random", "dig-sharp"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    rated: list[str] = []
    real = rounds_module.rated_run
    monkeypatch.setattr(rounds_module, "rated_run",
                        lambda path: rated.append(path.name) or real(path))
    submit(league, "tracker", validator=passing)  # plays Concentration only
    report = update(league, isolation="none")
    assert rated == ["concentration-standard-2p"]
    assert report.kept_ratings == ("dig-standard-2p",)
    one, two = ({p["id"]: p for p in read_round(league, n)["pools"]} for n in (1, 2))
    assert two["dig-standard-2p"] == one["dig-standard-2p"]
    assert "tracker" in json.dumps(two["concentration-standard-2p"]["ratings"])
    # records touched by hand (one game's line rewritten): that pool is rated afresh
    games = league.path / "pools" / "dig-standard-2p" / "games.jsonl"
    games.write_text(games.read_text().replace('"turns"', '"turns" ', 1))
    rated.clear()
    assert update(league, isolation="none").kept_ratings == ("concentration-standard-2p",)
    assert rated == ["dig-standard-2p"]


def test_the_bundled_bots_package_is_hashed_once_per_update(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pool plays bundled bots: their package's files are hashed once for the whole
    update, not once a pool (benchmarks/bench_league.py's fixed cost), and recorded alike."""
    from arena.tournament.update import identity

    league = new_league(tmp_path / "L", [parse_game("concentration"), parse_game("dig")],
                        deals=1)
    for bot in ("greedy", "random", "dig-sharp"):
        submit(league, bot, validator=passing)
    hashed: list[tuple[Path, ...]] = []
    real = identity._package_files

    def counted(roots: tuple[Path, ...]) -> list[tuple[str, Path]]:
        hashed.append(roots)
        return real(roots)

    monkeypatch.setattr(identity, "_package_files", counted)
    update(league, isolation="none")
    assert len(hashed) == 1
    pools = ("concentration-standard-2p", "dig-standard-2p")
    recorded = [json.loads((league.path / "pools" / p / "bots.json").read_text()) for p in pools]
    assert recorded[0]["random"] == recorded[1]["random"]
    submit(league, "tracker", validator=passing)  # hashes its code for the store
    hashed.clear()
    update(league, isolation="none")
    assert len(hashed) == 1


def test_a_pool_a_student_s_bot_joins_says_what_keeps_the_sandbox_s_promises(
        tmp_path: Path) -> None:
    """A pool's run that began with bundled bots only (in-process) says in its log what keeps
    the sandbox's promises once a student's bot plays in it sandboxed, as a run that begins
    with one does (docs/sandbox.md), and says it once."""
    from arena.sandbox.entry import confinement_facts
    from arena.sandbox.promises import promises_summary

    league = new_league(tmp_path / "L", [parse_game("concentration:standard:2")], deals=1)
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    update(league)  # bundled bots play in-process
    log = league.path / "pools" / "concentration-standard-2p" / "log.txt"
    assert "sandbox: " not in log.read_text()
    submit(league, write_bot(tmp_path / "ada", FIRST), "ada", validator=passing)
    update(league)  # a student's bot is sandboxed
    said = f"sandbox: {promises_summary(confinement_facts())}; "
    assert log.read_text().count(said) == 1
    submit(league, "tracker", validator=passing)
    update(league)  # the sandboxed run grows: said already
    assert log.read_text().count(said) == 1
