"""Tests for arena.engine: ranking, variants and their parameters, player counts, the registry."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arena.engine import (
    Game,
    ScoreOrder,
    all_games,
    find_game,
    legal_action,
    plain_action,
    rank_scores,
)
from arena.errors import ArenaError, PlayersError, UnknownGameError, VariantError
from arena.games.concentration import PRESETS, ConcentrationParams, MatchRule, Scoring

HIGHER = ScoreOrder.HIGHER_WINS
LOWER = ScoreOrder.LOWER_WINS


@pytest.fixture
def conc() -> Game:
    """The registered Concentration game."""
    return find_game("concentration")


# -- rank_scores ------------------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "order", "forfeited", "ranks"), [
    ((10, 10, 5), HIGHER, (), (1, 1, 3)),
    ((5, 10, 10), HIGHER, (), (3, 1, 1)),
    ((3, 1, 3, 2), HIGHER, (), (1, 4, 1, 3)),
    ((7, 7, 7), HIGHER, (), (1, 1, 1)),
    ((1, 2, 3, 4), HIGHER, (), (4, 3, 2, 1)),
    ((40, 35, 35), LOWER, (), (3, 1, 1)),
    ((40, 35, 50), LOWER, (), (2, 1, 3)),
    ((42,), LOWER, (), (1,)),
    ((-2, 1, 1), HIGHER, (), (3, 1, 1)),
    ((26, 0), HIGHER, (0,), (2, 1)),
    ((10, 5, 7), HIGHER, (0,), (3, 2, 1)),
    ((10, 5, 7, 7), HIGHER, (0, 1), (3, 3, 1, 1)),
    ((30, 40, 20), LOWER, (2,), (1, 2, 3)),
    ((1, 2), HIGHER, (0, 1), (1, 1)),
])
def test_rank_scores(scores: tuple[float, ...], order: ScoreOrder, forfeited: tuple[int, ...],
                     ranks: tuple[int, ...]) -> None:
    assert rank_scores(scores, order, forfeited) == ranks


def test_rank_scores_forfeit_ranks_last_even_with_the_best_score() -> None:
    ranks = rank_scores((100, 1, 2, 3), HIGHER, (0,))
    assert ranks[0] == 4
    assert sorted(ranks[1:]) == [1, 2, 3]


# -- presets and overrides ---------------------------------------------------------------------

def test_default_preset_is_standard(conc: Game) -> None:
    chosen = conc.variant()
    assert chosen.label == "standard"
    assert chosen.params == ConcentrationParams()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_resolves_and_validates(conc: Game, preset: str) -> None:
    chosen = conc.variant(preset)
    assert chosen.label == preset
    assert chosen.params is PRESETS[preset]
    chosen.params.validate()
    json.dumps(chosen.params.as_dict())


def test_unknown_preset_lists_the_known_ones(conc: Game) -> None:
    with pytest.raises(VariantError) as caught:
        conc.variant("zebr")
    message = str(caught.value)
    assert "'zebr'" in message and "concentration" in message
    for preset in PRESETS:
        assert preset in message
    assert "\n" not in message


def test_overrides_are_typed_by_field(conc: Game) -> None:
    chosen = conc.variant("standard", {"decks": "2", "match": "identical", "rows": "8",
                                       "cols": "13", "one-flip": "true", "scoring": "chips-winner"})
    params = chosen.params
    assert isinstance(params, ConcentrationParams)
    assert params.decks == 2 and type(params.decks) is int
    assert params.rows == 8 and params.cols == 13
    assert params.match is MatchRule.IDENTICAL
    assert params.one_flip is True
    assert params.scoring is Scoring.CHIPS_WINNER
    assert chosen.label.startswith("standard,")
    assert "decks=2" in chosen.label


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("yes", True), ("1", True), ("ON", True),
    ("false", False), ("no", False), ("0", False), ("off", False),
])
def test_bool_override_spellings(conc: Game, text: str, value: bool) -> None:
    assert conc.variant("standard", {"one_flip": text}).params.one_flip is value


def test_enum_override_is_case_insensitive(conc: Game) -> None:
    assert conc.variant("standard", {"match": "RANK"}).params.match is MatchRule.RANK


def test_override_keys_take_dashes_or_underscores(conc: Game) -> None:
    dashed = conc.variant("standard", {"max-turns": "7"}).params
    underscored = conc.variant("standard", {"max_turns": "7"}).params
    assert dashed == underscored
    assert dashed.max_turns == 7


def test_override_does_not_change_the_preset(conc: Game) -> None:
    conc.variant("standard", {"one-flip": "true"})
    assert conc.variant("standard").params.one_flip is False
    assert PRESETS["standard"].one_flip is False


def test_unknown_parameter_lists_known_ones(conc: Game) -> None:
    with pytest.raises(VariantError) as caught:
        conc.variant("standard", {"flips": "1"})
    message = str(caught.value)
    assert "'flips'" in message
    assert "one-flip" in message and "max-turns" in message


@pytest.mark.parametrize(("key", "text", "mentions"), [
    ("decks", "two", "'two'"),
    ("decks", "1.5", "'1.5'"),
    ("one-flip", "maybe", "'maybe'"),
    ("match", "purple", "rank-colour"),
    ("scoring", "points", "chips-per-pair"),
])
def test_bad_value_names_the_parameter(conc: Game, key: str, text: str, mentions: str) -> None:
    with pytest.raises(VariantError) as caught:
        conc.variant("standard", {key: text})
    message = str(caught.value)
    assert repr(key) in message
    assert mentions in message
    assert "\n" not in message


@pytest.mark.parametrize(("preset", "overrides", "names"), [
    ("standard", {"decks": "3"}, "decks"),
    ("standard", {"set-size": "3"}, "set-size"),
    ("standard", {"jokers": "true"}, "rows x cols"),
    ("standard", {"rows": "5"}, "rows x cols"),
    ("standard", {"rows": "0", "cols": "0"}, "rows x cols"),
    ("standard", {"moves": "-1"}, "moves"),
    ("standard", {"max-turns": "-1"}, "max-turns"),
    ("standard", {"match": "identical"}, "match=identical"),
    ("standard", {"checkerboard": "true"}, "checkerboard"),
    ("standard", {"duel": "true"}, "duel"),
    ("duel", {"one-flip": "true"}, "one-flip"),
    ("duel", {"checkerboard": "true"}, "checkerboard"),
    ("duel", {"moves": "2"}, "moves"),
    ("duel", {"set-size": "4"}, "set-size"),
    ("four-of-a-kind", {"match": "opposite-colour"}, "set-size"),
    ("four-of-a-kind", {"match": "rank-colour"}, "set-size"),
    ("any-color-jokers", {"set-size": "4"}, "set-size"),
    ("two-decks", {"set-size": "4"}, "set-size"),
])
def test_invalid_combinations_name_the_parameter(conc: Game, preset: str,
                                                 overrides: dict[str, str], names: str) -> None:
    with pytest.raises(VariantError) as caught:
        conc.variant(preset, overrides)
    assert names in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("preset", "overrides"), [
    ("standard", {"rows": "2", "cols": "26"}),
    ("standard", {"rows": "52", "cols": "1"}),
    ("two-decks", {"one-flip": "true"}),
    ("four-of-a-kind", {"decks": "2", "rows": "8", "cols": "13"}),
    ("four-of-a-kind", {"decks": "2", "rows": "8", "cols": "13", "match": "rank-colour"}),
    ("moving", {"show-moves": "true", "moves": "5"}),
    ("checkerboard", {"rows": "4", "cols": "26"}),
    ("chips-winner", {"match": "rank", "jokers": "true", "rows": "6", "cols": "9"}),
])
def test_valid_combinations_are_accepted(conc: Game, preset: str,
                                         overrides: dict[str, str]) -> None:
    conc.variant(preset, overrides).params.validate()


@pytest.mark.parametrize(("preset", "overrides"), [
    ("checkerboard", {"rows": "13", "cols": "8"}),
    ("two-decks-jokers", {"checkerboard": "true"}),  # 9 x 12: six red and six blue per row
])
def test_balanced_checkerboard_layouts_are_accepted(conc: Game, preset: str,
                                                     overrides: dict[str, str]) -> None:
    conc.variant(preset, overrides)


# -- player counts ---------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "allowed"), [
    ("standard", range(1, 7)),
    ("two-decks", range(1, 7)),
    ("four-of-a-kind", range(1, 7)),
    ("duel", range(2, 3)),
    ("chips-winner", range(2, 7)),
    ("chips-per-pair", range(2, 7)),
])
def test_check_players(conc: Game, preset: str, allowed: range) -> None:
    chosen = conc.variant(preset)
    for players in range(0, 9):
        if players in allowed:
            chosen.check_players(players)
        else:
            with pytest.raises(PlayersError) as caught:
                chosen.check_players(players)
            message = str(caught.value)
            assert preset in message and f"not {players}" in message


def test_check_players_message_gives_the_range(conc: Game) -> None:
    with pytest.raises(PlayersError, match="takes 2 players, not 3"):
        conc.variant("duel").check_players(3)
    with pytest.raises(PlayersError, match="takes 1 to 6 players, not 7"):
        conc.variant("standard").check_players(7)
    with pytest.raises(PlayersError, match="takes 2 to 6 players, not 1"):
        conc.variant("chips-winner").check_players(1)


# -- the registry ------------------------------------------------------------------------------

def test_find_game() -> None:
    game = find_game("concentration")
    assert game.name == "concentration"
    assert find_game("Concentration") is game


def test_find_game_imports_that_game_alone() -> None:
    """A process that needs one game (a sandboxed bot's host) does not import the others (what
    games share, `arena.games.common`, it may)."""
    code = ("import sys; from arena.engine import find_game; find_game('frogs-in-the-pond'); "
            "print(sorted({m.split('.')[2] for m in sys.modules if m.count('.') >= 2 "
            "and m.startswith('arena.games.') and m != 'arena.games.common'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['frogs_in_the_pond']"


def test_unknown_game_lists_known_games() -> None:
    with pytest.raises(UnknownGameError) as caught:
        find_game("pelmanismo")
    message = str(caught.value)
    assert "'pelmanismo'" in message
    for game in all_games():
        assert game.name in message


def test_all_games_is_sorted_and_complete() -> None:
    names = [g.name for g in all_games()]
    assert "concentration" in names
    assert names == sorted(names)
    for name in names:
        game = find_game(name)
        assert game.default_preset in game.presets


def test_error_family() -> None:
    for error in (UnknownGameError, VariantError, PlayersError):
        assert issubclass(error, ArenaError)


# -- plain_action, legal_action ------------------------------------------------------------------

def test_an_action_s_plain_form_is_made_of_ints_strings_and_tuples() -> None:
    from arena.cards import parse_card
    from arena.games.frogs_in_the_pond.table import Say

    assert plain_action(7) == 7
    assert plain_action(parse_card("10H")) == "10H"
    assert plain_action(Say.DEAL) == "deal" and type(plain_action(Say.DEAL)) is not Say
    assert plain_action(("play", parse_card("JKR"), (1, 2))) == ("play", "JKR", (1, 2))
    assert plain_action(["look", 3]) == ("look", 3)
    for no_form in (1.5, None, True, object()):
        with pytest.raises(ValueError, match="not a plain action"):
            plain_action(no_form)


def test_a_legal_action_is_found_from_itself_or_its_plain_form() -> None:
    from arena.cards import parse_card

    ace, ten = parse_card("AS"), parse_card("10H")
    legal = (("play", ace), ("play", ten), "pass")
    assert legal_action(legal, ("play", ten)) is legal[1]
    assert legal_action(legal, ("play", "10H")) is legal[1]
    assert legal_action(legal, ["play", "AS"]) is legal[0]
    assert legal_action(legal, "pass") == "pass"
    assert legal_action(legal, ("play", "KS")) is None
    assert legal_action(legal, 2.5) is None


def test_mistyped_names_get_a_suggestion(conc: Game) -> None:
    with pytest.raises(UnknownGameError, match=r"did you mean 'concentration'\? known: "):
        find_game("concentraton")
    with pytest.raises(VariantError, match=r"did you mean 'zebra'\? known: "):
        conc.variant("zebr")
    with pytest.raises(VariantError, match=r"did you mean 'one-flip'\? known: "):
        conc.variant(None, {"one-flp": "true"})
    with pytest.raises(UnknownGameError) as caught:
        find_game("chess")
    assert "did you mean" not in str(caught.value)
