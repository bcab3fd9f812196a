"""The Cuckoo bots: their decisions in set positions, and who beats whom over seat-rotated deals."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from arena.api import Bot, GameInfo, Observation
from arena.cards import parse_card
from arena.engine import find_game
from arena.errors import BotSpecError
from arena.games.cuckoo import PRESETS, CuckooState, Say, Stack
from arena.loader import resolve_bot
from arena.match import play_game
from arena.session import SeriesTally, play_series
from bots.algorithms.random_bot import RandomBot
from bots.cuckoo.heuristic import CuckooSharpBot, CuckooSimpleBot, lose, point, unseen

GAME = find_game("cuckoo")
SHARP = "bots.cuckoo.heuristic:CuckooSharpBot"
SIMPLE = "bots.cuckoo.heuristic:CuckooSimpleBot"


def mean_ranks(specs: Sequence[str], deals: int, seed: int = 700,
               preset: str = "standard") -> list[float]:
    """Mean place per entry over `deals` deals, each played in every rotation of the seats."""
    variant = GAME.variant(preset)
    bots = [resolve_bot(spec, "cuckoo") for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults
        tally.add(game)
    return [row.mean_rank for row in tally.summary()]


def test_sharp_beats_five_simple_bots() -> None:
    # one bot among five others, every seat rotation: who sits at whose left matters in Cuckoo,
    # and here every seat has the same kind of neighbours, so the others average the same place
    ranks = mean_ranks([SHARP] + [SIMPLE] * 5, deals=20)
    others = sum(ranks[1:]) / 5
    assert ranks[0] < 3.3 < others, ranks


def test_both_bots_beat_five_random_bots() -> None:
    for spec in (SHARP, SIMPLE):
        ranks = mean_ranks([spec] + ["random"] * 5, deals=10)
        assert ranks[0] < 2.2 < 3.5 < sum(ranks[1:]) / 5, (spec, ranks)


def decide(bot: Bot, state: CuckooState, seat: int) -> object:
    """What `bot`, sitting at `seat` from the start of the game, does now."""
    bot.start(GameInfo("cuckoo", "standard", {}, seat, state.seats, random.Random(0)))
    obs = Observation(seat, state.legal(seat), state.seen_by(seat, 0, len(state.log)),
                      state.view(seat))
    return bot.act(obs)


def position(cards: Mapping[int, str], actions: Sequence[Say], draw: str | None = None
             ) -> CuckooState:
    """Deal 0 at six seats with these cards, played this far."""
    stack = Stack({s: parse_card(t) for s, t in cards.items()},
                  parse_card(draw) if draw else None)
    state = CuckooState(PRESETS["standard"], 6, random.Random(0), {0: stack})
    state.apply(0, Say.DEAL)
    for action in actions:
        (seat,) = state.to_act()
        state.apply(seat, action)
    return state


@pytest.mark.parametrize(("text", "action"), [("6H", Say.CHANGE), ("7H", Say.STAND),
                                              ("KH", Say.STAND), ("AH", Say.CHANGE)])
def test_simple_changes_below_its_threshold(text: str, action: Say) -> None:
    state = position({1: text}, [])
    assert decide(CuckooSimpleBot(), state, 1) == action


def test_simple_dealer_draws_below_its_threshold() -> None:
    state = position({0: "3S"}, [Say.STAND] * 5)
    assert decide(CuckooSimpleBot(), state, 0) == Say.DRAW
    assert decide(CuckooSimpleBot(threshold=3), state, 0) == Say.STAND


def test_both_deal_when_dealing() -> None:
    state = CuckooState(PRESETS["standard"], 6, random.Random(0))
    assert decide(CuckooSimpleBot(), state, 0) == Say.DEAL
    assert decide(CuckooSharpBot(), state, 0) == Say.DEAL


def test_sharp_stands_when_the_player_at_its_right_took_a_lower_card() -> None:
    # seat 1 changes with seat 2, taking 2's ace and giving it a four: seat 2 knows seat 1 now
    # holds the ace, so the four cannot be the lowest card
    state = position({1: "4C", 2: "AD"}, [Say.CHANGE])
    assert decide(CuckooSharpBot(), state, 2) == Say.STAND
    assert decide(CuckooSimpleBot(), state, 2) == Say.CHANGE


def test_sharp_dealer_stands_on_a_king_and_draws_on_an_ace() -> None:
    assert decide(CuckooSharpBot(), position({0: "KS"}, [Say.STAND] * 5), 0) == Say.STAND
    assert decide(CuckooSharpBot(), position({0: "AS"}, [Say.STAND] * 5), 0) == Say.DRAW


def test_sharp_counts_the_kings_shown() -> None:
    bot = CuckooSharpBot()
    state = position({1: "5C", 2: "KD", 3: "QS", 4: "KC", 5: "8H"},
                     [Say.CHANGE, Say.STAND])  # seat 2's king is shown; seat 3 stands
    decide(bot, state, 4)
    assert bot.kings == {2: parse_card("KD")}
    base = unseen([parse_card("KC"), parse_card("KD")])
    assert base[13] == pytest.approx(2 / 50)


def test_sharp_losing_chances_fall_as_the_card_rises() -> None:
    bot = CuckooSharpBot()
    state = position({}, [Say.STAND, Say.STAND])
    decide(bot, state, 3)
    chances = [bot.losing_chances(parse_card(f"{r}H"))[0] for r in ("A", "4", "8", "Q", "K")]
    assert chances == sorted(chances, reverse=True) and chances[-1] < 0.01


def test_lose_counts_ties_as_losing() -> None:
    assert lose(5, [point(5), point(9)]) == 1.0
    assert lose(5, [point(4)]) == 0.0


def test_sharp_learns_how_each_player_stands() -> None:
    bot = CuckooSharpBot()
    bots: list[Bot] = [bot, *[RandomBot() for _ in range(5)]]
    play_game(GAME.variant("standard"), bots, [str(s) for s in range(6)], seed=3)
    assert sum(map(sum, bot.seen)) > 0
    fixed = CuckooSharpBot(learn=False)
    play_game(GAME.variant("standard"), [fixed, *[RandomBot() for _ in range(5)]],
              [str(s) for s in range(6)], seed=3)
    assert sum(map(sum, fixed.seen)) == 0


@pytest.mark.parametrize("spec", [f"{SIMPLE}:threshold=0", f"{SIMPLE}:threshold=15",
                                  f"{SHARP}:prior_weight=0"])
def test_bad_parameters_are_rejected(spec: str) -> None:
    with pytest.raises(BotSpecError, match=spec.rsplit(":", 1)[1].split("=")[0]):
        resolve_bot(spec)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    kinds = [CuckooSharpBot, CuckooSimpleBot, RandomBot, lambda: CuckooSimpleBot(4)]
    for players in (6, 20):
        bots = [kinds[s % len(kinds)]() for s in range(players)]
        record = play_game(variant, bots, [f"b{s}" for s in range(players)], seed=players)
        assert record.faults == ()
