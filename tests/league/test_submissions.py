"""Submissions kept by version: stored by digest, validated, listed, withdrawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.league.folder import League, LeagueError, new_league, parse_game
from arena.league.rounds import pool_config
from arena.league.submissions import read_submissions, submit, withdraw
from tests.league.conftest import BROKEN, FIRST, LAST, passing, write_bot


def _playing(league: League) -> dict[str, str]:
    config = pool_config(league, league.config.pools[0])
    return {} if config is None else {b.name: b.spec for b in config.bots}


def test_a_submission_is_kept_as_it_was_submitted(league: League, tmp_path: Path) -> None:
    spec = write_bot(tmp_path / "ada", FIRST)
    version = submit(league, spec, "ada", validator=passing)
    (tmp_path / "ada" / "mybot.py").write_text("this is no longer Python\n")
    stored = league.path / version.spec.partition(":")[0]
    assert "obs.legal[0]" in stored.read_text()
    assert version.games == ("concentration",) and version.passed and version.number == 1


def test_versions_and_withdraw(league: League, tmp_path: Path) -> None:
    submit(league, "greedy", validator=passing)
    first = submit(league, write_bot(tmp_path / "a", FIRST), "ada", validator=passing)
    second = submit(league, write_bot(tmp_path / "a", LAST), "ada", validator=passing)
    assert (first.number, second.number) == (1, 2) and first.digest != second.digest
    subs = read_submissions(league)
    assert subs["ada"].playing() == second and subs["ada"].status() == "playing v2"
    assert second.digest in _playing(league)["ada"]
    withdraw(league, "ada")
    subs = read_submissions(league)
    assert subs["ada"].playing() is None and len(subs["ada"].versions) == 2
    assert _playing(league) == {}  # greedy alone: fewer than two bots, no table
    with pytest.raises(LeagueError, match="no bot named 'bob'"):
        withdraw(league, "bob")


def test_a_failed_validation_is_recorded_and_plays_nothing(league: League,
                                                             tmp_path: Path) -> None:
    submit(league, "greedy", validator=passing)
    submit(league, "random", validator=passing)
    good = submit(league, write_bot(tmp_path / "a", FIRST), "ada", validator=passing)
    bad = submit(league, write_bot(tmp_path / "a", LAST), "ada",
                 validator=lambda spec, game, kept: (False, ["FAIL: a fault"]))
    subs = read_submissions(league)
    assert not bad.passed and bad.validation == ("concentration: FAIL: a fault",)
    assert subs["ada"].playing() == good  # the latest *passing* version plays
    assert "failed" in subs["ada"].status()
    assert good.digest in _playing(league)["ada"]
    lone = submit(league, write_bot(tmp_path / "b", BROKEN), "bob",
                  validator=lambda spec, game, kept: (False, ["FAIL"]))
    assert not lone.passed and "bob" not in _playing(league)


def test_a_sandboxed_validation_fails_a_broken_bot(league: League, tmp_path: Path) -> None:
    bad = submit(league, write_bot(tmp_path / "b", BROKEN), "bob")
    assert not bad.passed
    assert any("FAIL" in line for line in bad.validation)
    assert read_submissions(league)["bob"].playing() is None


def test_bad_submissions_are_one_line(league: League, tmp_path: Path) -> None:
    with pytest.raises(LeagueError, match="not a bundled bot"):
        submit(league, "nosuchbot", validator=passing)
    with pytest.raises(LeagueError, match="plays dig; the league plays concentration"):
        submit(league, "dig-sharp", validator=passing)
    with pytest.raises(LeagueError, match="does not play it"):
        submit(league, "random", games=["dig"], validator=passing)
    with pytest.raises(LeagueError, match="needs a name"):
        submit(league, write_bot(tmp_path / "a", FIRST), validator=passing)
    with pytest.raises(LeagueError, match="--name"):
        submit(league, write_bot(tmp_path / "a", FIRST), "a b", validator=passing)
    assert read_submissions(league) == {}


def test_a_bot_plays_the_games_it_declares(tmp_path: Path) -> None:
    league = new_league(tmp_path / "L", [parse_game("concentration"), parse_game("dig")])
    assert submit(league, "random", validator=passing).games == ("concentration", "dig")
    assert submit(league, "random", "r2", games=["dig"], validator=passing).games == ("dig",)
    with pytest.raises(LeagueError, match="plays dig, not concentration"):
        submit(league, "dig-sharp", games=["concentration"], validator=passing)
    folder = write_bot(tmp_path / "ada", FIRST)
    (tmp_path / "ada" / "helper.py").write_text("X = 1\n")
    version = submit(league, folder, "ada", folder=True, validator=passing)
    assert version.games == ("concentration",) and version.kind == "folder"
    assert (league.path / "store" / version.digest / "helper.py").read_text() == "X = 1\n"


def test_a_crafted_submissions_file_cannot_name_other_code(league: League) -> None:
    import json

    submit(league, "greedy", validator=passing)
    path = league.path / "submissions.json"
    data = json.loads(path.read_text())
    entry = data["bots"]["greedy"]["versions"][0]
    for kind, spec in (("bundled", "os:system"), ("file", "/tmp/evil.py:Evil"),
                       ("file", f"store/{'0' * 64}/../../evil.py:Evil")):
        entry.update(kind=kind, spec=spec, digest="0" * 64)
        path.write_text(json.dumps(data))
        with pytest.raises(LeagueError, match="damaged"):
            read_submissions(league)


def test_a_submission_sees_only_its_own_version_of_the_league(league: League,
                                                              tmp_path: Path) -> None:
    from arena.league.submissions import unseen_in

    ada = submit(league, write_bot(tmp_path / "a", FIRST), "ada", validator=passing)
    bob = submit(league, write_bot(tmp_path / "b", LAST), "bob", validator=passing)
    store = (league.path / "store").resolve()
    hidden = unseen_in(league, store / ada.digest)
    assert store / bob.digest in hidden and store / ada.digest not in hidden
    assert (league.path / "submissions.json").resolve() in hidden
    assert (league.path / "deals").resolve() in hidden  # the league's key
    kept: list[object] = []
    submit(league, write_bot(tmp_path / "c", FIRST, "Other"), "cy",
           validator=lambda spec, game, seen: (kept.append(seen), (True, ["ok"]))[1])
    assert store / ada.digest in kept[0] and store / bob.digest in kept[0]  # type: ignore[operator]
