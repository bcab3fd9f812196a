"""Difficulty levels: every level names a bundled bot that plays its game, levels are looked up
with clear errors, seats are filled as `arena play --level` does, and strength is measured."""

from __future__ import annotations

import pytest

from arena.engine import find_game
from arena.errors import ArenaError, UnknownGameError
from arena.levels import LEVELS, Level, level_spec, measure, parse_level, seat_bots, table_size
from arena.loader import is_bundled, resolve_bot
from arena.match import play_game
from tests.helpers import slow_unless

SEARCHING = {("animals", Level.EXPERT), ("paved-with-gold", Level.EXPERT)}
"""Levels whose bot searches at its full size: a whole game of it at every seat takes 10-30 s
(slow: `pytest -m slow`); the default run plays the same bots smaller in their own tests
(tests/bots/animals, tests/bots/paved_with_gold) and still checks that the level names them."""


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_every_game_has_every_level_and_each_names_a_bundled_bot(game: str) -> None:
    assert set(LEVELS[game]) == set(Level)
    for level in Level:
        spec = level_spec(game, level)
        assert is_bundled(spec), spec
        assert resolve_bot(spec, game).name


@pytest.mark.parametrize(("game", "level"), [
    slow_unless((game, level) not in SEARCHING, game, level, id=f"{game}-{level.value}")
    for game in sorted(LEVELS) for level in Level])
def test_every_level_is_a_bundled_bot_that_plays_the_game(game: str, level: Level) -> None:
    variant = find_game(game).variant()
    allowed = variant.params.players_allowed()
    players = 2 if 2 in allowed else allowed.start
    bot = resolve_bot(level_spec(game, level), game)
    record = play_game(variant, [bot.make() for _ in range(players)], [bot.name] * players, 0)
    assert record.faults == ()


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
