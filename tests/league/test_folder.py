"""A league folder: made, opened, refused when it is not one."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.league.folder import CONFIG, LeagueError, new_league, open_league, parse_game
from arena.tournament.planning.config import ConfigError


def test_a_new_league_opens_with_its_pools_and_a_key(tmp_path: Path) -> None:
    made = new_league(tmp_path / "L", [parse_game("concentration:standard:2"), parse_game("dig")],
                      deals=3)
    opened = open_league(tmp_path / "L")
    assert [p.id for p in opened.config.pools] == ["concentration-standard-2p",
                                                    "dig-standard-2p"]
    assert opened.config.table("deals") == {"count": 3, "base": 1}
    assert len(made.key()) == 32 and opened.key() == made.key()


@pytest.mark.parametrize("make", ["missing", "empty", "file"])
def test_a_folder_that_is_not_a_league_is_refused_in_one_line(tmp_path: Path, make: str) -> None:
    where = tmp_path / "x"
    if make == "empty":
        where.mkdir()
    elif make == "file":
        where.write_text("hi")
    with pytest.raises(LeagueError) as caught:
        open_league(where)
    assert "\n" not in str(caught.value) and str(where) in str(caught.value)


def test_a_league_toml_names_its_mistake(tmp_path: Path) -> None:
    head = 'name = "L"\n[deals]\ncount = 2\nbase = 1\n[[games]]\ngame = "dig"\n'
    (tmp_path / CONFIG).write_text(head + 'players = 9\n')
    with pytest.raises(ConfigError, match=r"games\[0\]"):
        open_league(tmp_path)
    (tmp_path / CONFIG).write_text(head + '[limits]\nmove_seconds = -1\n')
    with pytest.raises(ConfigError, match=r"limits\.move_seconds"):
        open_league(tmp_path)


def test_a_league_is_made_only_in_a_new_folder(tmp_path: Path) -> None:
    (tmp_path / "L").mkdir()
    (tmp_path / "L" / "notes.txt").write_text("mine")
    with pytest.raises(LeagueError, match="not an empty folder"):
        new_league(tmp_path / "L", [parse_game("dig")])
    assert (tmp_path / "L" / "notes.txt").read_text() == "mine"


def test_the_shipped_league_config_makes_a_league(tmp_path: Path) -> None:
    from arena.league.folder import league_from

    shipped = Path(__file__).resolve().parents[2] / "configs" / "leagues" / "class.toml"
    made = league_from(tmp_path / "L", shipped)
    assert [p.id for p in made.config.pools] == [
        "concentration-standard-2p", "concentration-standard-3p", "dig-standard-2p"]
    assert open_league(tmp_path / "L").config == made.config


def test_a_pool_s_config_is_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool's config was parsed to check it and parsed again to be used, at every pool of
    every update (benchmarks/bench_league.py's fixed cost); once now, to the same config."""
    from arena.league import folder, rounds
    from arena.league.submissions import submit
    from arena.tournament.planning import config as configs

    league = new_league(tmp_path / "l", [parse_game("concentration:standard:2")], 2)
    for bot in ("greedy", "random"):
        submit(league, bot, validator=lambda spec, game, kept=(): (True, []))
    parsed: list[str] = []
    parse = configs.parse_config

    def counted(text: str, *args: object, **kwargs: object) -> configs.TournamentConfig:
        parsed.append(text)
        return parse(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(folder, "parse_config", counted)
    monkeypatch.setattr(rounds, "parse_config", counted, raising=False)  # where it parsed again
    found = rounds.pool_config(league, league.config.pools[0])
    assert found is not None and len(parsed) == 1
    assert found == parse(parsed[0], league.file(CONFIG), check_bots=False)
    folder.deals_config(league)
    assert len(parsed) == 2
