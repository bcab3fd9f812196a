"""Difficulty levels: every level names a bundled bot that plays its game, levels are looked up
with clear errors, seats are filled as `arena play --level` does, and strength is measured."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from arena.engine import find_game
from arena.errors import ArenaError, UnknownGameError
from arena.levels import LEVELS, Level, level_spec, measure, parse_level, seat_bots, table_size
from arena.loader import is_bundled, registered_bots, resolve_bot
from arena.match import play_game
from tests.helpers import slow_unless

TESTS = Path(__file__).resolve().parent


def searcher(game: str, level: Level) -> str | None:
    """The class of the level's bot (`module:Class`) if it searches, that is lives in a `search`
    module (bots/<game>/search.py, bots/algorithms/search.py), else None. A whole game of one at
    its full size at every seat takes seconds (10-30 s for Animals and Paved with Gold), so the
    default run plays these smaller in their own tests (tests/bots) and `pytest -m slow` plays
    them here; the default run still checks that the level names them."""
    name = level_spec(game, level).split(":", 1)[0]
    target = next(bot.target for bot in registered_bots() if bot.name == name)
    return target if target.split(":")[0].rsplit(".", 1)[-1] == "search" else None


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_every_game_has_every_level_and_each_names_a_bundled_bot(game: str) -> None:
    assert set(LEVELS[game]) == set(Level)
    for level in Level:
        spec = level_spec(game, level)
        assert is_bundled(spec), spec
        assert resolve_bot(spec, game).name


@pytest.mark.parametrize(("game", "level"), [
    slow_unless(searcher(game, level) is None, game, level, id=f"{game}-{level.value}")
    for game in sorted(LEVELS) for level in Level])
def test_every_level_is_a_bundled_bot_that_plays_the_game(game: str, level: Level) -> None:
    variant = find_game(game).variant()
    allowed = variant.params.players_allowed()
    players = 2 if 2 in allowed else allowed.start
    bot = resolve_bot(level_spec(game, level), game)
    record = play_game(variant, [bot.make() for _ in range(players)], [bot.name] * players, 0)
    assert record.faults == ()


def _whole_game_tests() -> list[str]:
    """The source of every test function of tests/bots in the default run (not marked slow) that
    plays a whole game (`play_game`)."""
    found = []
    for path in sorted((TESTS / "bots").rglob("test_*.py")):
        text = path.read_text()
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") and not any(
                    "slow" in ast.unparse(mark) for mark in node.decorator_list):
                source = ast.get_source_segment(text, node) or ""
                if "play_game(" in source:
                    found.append(source)
    return found


def test_every_game_plays_levels_here_and_every_searching_one_whole_in_its_own_tests() -> None:
    """The default run plays at least one level of every game here, and each searching level's
    bot is played whole by a test of tests/bots that names it (its class or its spec)."""
    kept = {game for game in LEVELS for level in Level if searcher(game, level) is None}
    assert kept == set(LEVELS)
    tests = _whole_game_tests()
    for game in LEVELS:
        for level in Level:
            target = searcher(game, level)
            if target is not None:
                spec = level_spec(game, level).split(":", 1)[0]
                named = re.compile(rf"\b{target.split(':')[1]}\b|[\"']{spec}[:\"']")
                assert any(named.search(test) for test in tests), (
                    f"no test of tests/bots plays {target} ({game} {level.value}) whole")


def test_the_games_with_levels_are_registered() -> None:
    for game in LEVELS:
        assert find_game(game).name == game


def test_level_names() -> None:
    assert parse_level(" Hard ") is Level.HARD
    assert level_spec("concentration", "expert") == "optimal"
    assert level_spec("concentration", Level.EASY) == "forgetful:recall=0.4,capacity=4"
    with pytest.raises(ArenaError, match=r"unknown level 'brutal' \(levels: easy, medium, "
                                         r"hard, expert\)"):
        level_spec("concentration", "brutal")
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        level_spec("chess", "easy")


def test_a_game_without_levels_says_which_have_them(monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.levels

    monkeypatch.setattr(arena.levels, "LEVELS", {"dig": LEVELS["dig"]})
    with pytest.raises(ArenaError, match=r"concentration has no levels yet \(games with "
                                         r"levels: dig\)"):
        level_spec("concentration", "easy")


def test_seats_filled_by_a_level() -> None:
    conc = find_game("concentration").variant()
    assert seat_bots(conc, ["human"], "hard") == ["human", "greedy"]
    assert seat_bots(conc, [], "expert") == ["optimal", "optimal"]
    assert seat_bots(conc, ["human"], "easy", seats=4) == ["human"] + [
        "forgetful:recall=0.4,capacity=4"] * 3
    assert seat_bots(conc, ["human", "random"], "hard") == ["human", "random"]
    memo = find_game("memorandum").variant()
    assert seat_bots(memo, ["human"], "hard") == ["human", "elephant", "elephant"]
    assert len(seat_bots(find_game("cuckoo").variant(), ["human"], "medium")) == 6
    assert table_size(find_game("dig").variant(), 1) == 2


def test_seats_without_a_level() -> None:
    conc = find_game("concentration").variant()
    assert seat_bots(conc, ["human", "greedy"], None) == ["human", "greedy"]
    with pytest.raises(ArenaError, match="--seats needs --level"):
        seat_bots(conc, ["human"], None, seats=3)
    with pytest.raises(ArenaError, match="fewer than the 2 bots"):
        seat_bots(conc, ["human", "greedy"], "hard", seats=1)


def test_measure_plays_every_rotation() -> None:
    found = measure("dig", "expert", "random", deals=3, seed=5)
    assert (found.game, found.level, found.players, found.games) == ("dig", Level.EXPERT, 2, 6)
    assert 0.0 <= found.wins <= 1.0
    assert found.score == pytest.approx(-found.opponent_score)  # Dig is zero-sum
    multi = measure("memorandum", "hard", "random", deals=1)
    assert (multi.players, multi.games) == (3, 3)


def test_expert_beats_easy_at_concentration() -> None:
    found = measure("concentration", "expert", level_spec("concentration", "easy"), deals=10)
    assert found.wins > 0.8
