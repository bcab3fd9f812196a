"""The Memorandum bots through the real match loop: who beats whom over seat-rotated deals."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from arena.api import GameInfo, Observation
from arena.cards import parse_cards
from arena.engine import find_game
from arena.errors import BotSpecError
from arena.games.memorandum import PRESETS, MemorandumState, Say, Stack
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from arena.session import SeriesTally, play_series
from bots.memorandum.heuristic import ChancerBot, ElephantBot, GoldfishBot

GAME = find_game("memorandum")
ELEPHANT = "bots.memorandum.heuristic:ElephantBot"
GOLDFISH = "bots.memorandum.heuristic:GoldfishBot"
CHANCER = "bots.memorandum.heuristic:ChancerBot"


def mean_scores(preset: str, specs: Sequence[str], deals: int, seed: int = 500) -> list[float]:
    """Mean score per entry over `deals` deals, each played in every rotation of the seats."""
    variant = GAME.variant(preset)
    bots = [resolve_bot(spec, "memorandum") for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults
        tally.add(game)
    return [row.mean_score for row in tally.summary()]


def records(preset: str, specs: Sequence[str], deals: int, seed: int = 500) -> list[str]:
    """The records of a seat-rotated series, without the bot names."""
    variant = GAME.variant(preset)
    bots = [resolve_bot(spec, "memorandum") for spec in specs]
    out = []
    for game in play_series(variant, bots, seed, deals, rotate=True):
        line = game.record.to_line()
        for bot in bots:
            line = line.replace(f'"{bot.name}"', '"?"')
        out.append(line)
    return out


def test_elephant_beats_goldfish_and_random() -> None:
    for preset in PRESETS:
        elephant, goldfish, rand = mean_scores(preset, [ELEPHANT, GOLDFISH, "random"], deals=12)
        assert elephant > goldfish + 5 and elephant > rand + 5, preset


def test_elephant_claims_exactly_its_own_cards() -> None:
    record = play_game(GAME.variant("standard"), [ElephantBot() for _ in range(4)],
                       ["e0", "e1", "e2", "e3"], seed=9)
    for n, summary in enumerate(record.final["deals"]):
        assert summary["right"] == [0 if s == n else 17 for s in range(4)]
        assert summary["returned"] == [0] * 4 and summary["dispute_pile"] == 0
        assert summary["unclaimed"] == summary["set_aside"] == 1
    assert record.scores == (55.0,) * 4  # 3 deals x 17 cards + 4 for the set-aside card


def test_goldfish_gets_weaker_as_its_capacity_shrinks() -> None:
    specs = [f"{GOLDFISH}:capacity={c}" for c in (0, 4, 12, 26)]
    scores = mean_scores("standard", specs[:3], deals=4)
    assert scores == sorted(scores) and scores[0] < scores[2]
    alone = [mean_scores("standard", [spec, ELEPHANT, ELEPHANT], deals=3)[0] for spec in specs]
    assert alone == sorted(alone) and len(set(alone)) == 4
    assert alone[-1] == mean_scores("standard", [ELEPHANT] * 3, deals=3)[0]


def test_goldfish_fading_memory_costs_points() -> None:
    fading = [f"{GOLDFISH}:capacity=26,fade={f}" for f in (0.0, 0.02, 0.2)]
    scores = [mean_scores("standard", [spec, ELEPHANT, ELEPHANT], deals=4)[0] for spec in fading]
    assert scores[0] > scores[1] > scores[2]


def test_goldfish_remembers_a_random_part_of_its_hand() -> None:
    bot = GoldfishBot(capacity=5)
    bot.start(GameInfo("memorandum", "standard", {}, 1, 3, bot_rng(0, 1)))
    hand = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S")
    assert len(bot.remember(hand)) == 5 and bot.remember(hand) <= set(hand)


@pytest.mark.parametrize("params", ["capacity=-1", "fade=1.5"])
def test_goldfish_rejects_bad_parameters(params: str) -> None:
    with pytest.raises(BotSpecError, match=params.split("=")[0]):
        resolve_bot(f"{GOLDFISH}:{params}")


def test_chancer_plays_like_elephant_when_nothing_is_set_aside() -> None:
    assert (records("standard", [CHANCER, "random", "random"], deals=3)
            == records("standard", [ELEPHANT, "random", "random"], deals=3))


def test_chancer_never_claims_wrongly_against_players_who_never_do() -> None:
    assert (records("short-pack", [CHANCER, ELEPHANT, GOLDFISH], deals=3)
            == records("short-pack", [ELEPHANT, ELEPHANT, GOLDFISH], deals=3))


@pytest.mark.parametrize("preset", ["short-pack", "six-jokers"])
def test_chancer_outscores_elephant_when_cards_are_set_aside(preset: str) -> None:
    chancer, elephant, _ = mean_scores(preset, [CHANCER, ELEPHANT, "random"], deals=15)
    assert chancer > elephant + 5


def test_chancer_spoils_a_set_aside_card_only_when_a_lone_false_claim_is_likely() -> None:
    bot = ChancerBot()
    bot.start(GameInfo("memorandum", "short-pack", {}, 1, 3, random.Random(0)))
    state = MemorandumState(PRESETS["short-pack"], 3, random.Random(0),
                            {0: Stack({1: parse_cards("AC")})})
    state.apply(0, Say.DEAL)
    events = state.seen_by(1, 0, len(state.log))
    obs = Observation(1, state.legal(1), events, state.view(1))
    assert bot.act(obs) == Say.MINE  # AC is its own
    bot.false_claims[2], bot.false_seen[2] = 50.0, 100.0  # seat 2 claims half of what it sees
    assert bot.spoil_value(3) > 0
    bot.own_claims[2], bot.own_seen[2] = 1.0, 1.0  # ... but claims every card of its own
    bot.aside_chance = 0.1
    assert bot.spoil_value(3) < 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    most = variant.params.players_allowed().stop - 1
    kinds = [ElephantBot, GoldfishBot, ChancerBot, lambda: GoldfishBot(3, 0.1)]
    for players in (3, most):
        bots = [kinds[s % len(kinds)]() for s in range(players)]
        record = play_game(variant, bots, [f"b{s}" for s in range(players)], seed=players)
        assert record.faults == ()
