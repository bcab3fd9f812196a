"""`frogs-search`: its card-counting playout policy, the playouts' accounting, the cards it
searches once, and whole games at every table size without fault, replayed exactly."""

from __future__ import annotations

import random

import pytest

from arena.api import GameInfo
from arena.cards import Card, parse_card, parse_cards
from arena.engine import Knowledge, find_game
from arena.games.frogs_in_the_pond import PRESETS, FrogsState, Say, Stack
from arena.games.frogs_in_the_pond.sampler import FrogsSampler
from arena.loader import resolve_bot
from arena.match import play_game
from bots.frogs_in_the_pond.search import (
    CARDS,
    NUMBER,
    FrogsSearchBot,
    by_suit,
    distinct,
    live_cards,
    play_out,
    points_table,
    policy,
)
from tests.bots.frogs_in_the_pond.test_heuristic import decide

PTS = points_table(PRESETS["standard"])


def nums(text: str) -> list[int]:
    """Card numbers of a text such as `"AH 10H 3S"`."""
    return [NUMBER[c] for c in parse_cards(text)]


def card(text: str) -> int:
    """The number of one card."""
    return NUMBER[parse_card(text)]


def choose(hands: dict[int, str], trick: list[tuple[int, str]], seat: int, players: int = 2,
           partners: bool = False) -> Card:
    """The policy's card for `seat` with these hands and this trick in progress."""
    table = [by_suit(nums(hands.get(s, ""))) for s in range(players)]
    side = [s % 2 for s in range(players)] if partners else list(range(players))
    return CARDS[policy(seat, table, [(s, card(c)) for s, c in trick], side, players, PTS)]


def test_cards_are_numbered_suit_by_suit_from_two_to_ace() -> None:
    assert len(CARDS) == 52 and len(set(CARDS)) == 52
    assert card("2C") == 0 and card("AC") == 12 and card("2D") == 13 and card("AS") == 51
    assert card("KH") < card("AH")


def test_policy_leads_its_most_valuable_master() -> None:
    assert choose({0: "AH 10H 3S", 1: "KH 4S"}, [], 0) == parse_card("AH")
    assert choose({0: "10H 9S 3C", 1: "4H 5S 6C"}, [], 0) == parse_card("10H")


def test_policy_leads_its_cheapest_card_without_a_master() -> None:
    assert choose({0: "10H 3S 5D", 1: "AH 4S 6D"}, [], 0) == parse_card("3S")


def test_policy_wins_with_its_most_valuable_winner() -> None:
    assert choose({0: "9C", 1: "10C KC 3C"}, [(0, "9C")], 1) == parse_card("10C")


def test_policy_ducks_with_its_cheapest_card() -> None:
    assert choose({0: "AC", 1: "10C 5C 3C"}, [(0, "AC")], 1) == parse_card("3C")


def test_policy_wins_only_when_no_opponent_still_to_play_can_beat_it() -> None:
    # three alone: seat 2 is still to play and holds the ace, so the king would be beaten
    hands = {0: "QD", 1: "KD 4D", 2: "AD 3C"}
    assert choose(hands, [(0, "QD")], 1, players=3) == parse_card("4D")
    hands = {0: "QD", 1: "KD 4D", 2: "3D 3C"}
    assert choose(hands, [(0, "QD")], 1, players=3) == parse_card("KD")


def test_policy_throws_a_counter_on_its_partners_safe_trick_only() -> None:
    # partners 1 and 3; seat 1 led, seat 2 followed, seat 3 to play, seat 0 still to come
    safe = {0: "KH 3C", 1: "", 2: "3H", 3: "10H 4H"}
    assert choose(safe, [(1, "AH"), (2, "3H")], 3, players=4,
                  partners=True) == parse_card("10H")
    unsafe = {0: "AH 3C", 1: "", 2: "3H", 3: "10H 4H"}
    assert choose(unsafe, [(1, "KH"), (2, "3H")], 3, players=4,
                  partners=True) == parse_card("4H")


def test_a_playout_shares_out_every_card_left_and_a_frog_a_trick() -> None:
    rng = random.Random(7)
    for players in (2, 3, 4, 5):
        pack = list(range(52))
        rng.shuffle(pack)
        size = 5
        hands = [pack[s * size:(s + 1) * size] for s in range(players)]
        side = [s % 2 for s in range(players)] if players == 4 else list(range(players))
        sides = len(set(side))
        left = sum(PTS[c] for h in hands for c in h)
        won = play_out([by_suit(h) for h in hands], [], 0, side, sides, players, PTS, 2.5)
        assert sum(won) == pytest.approx(left + 2.5 * size)


def test_equivalent_cards_are_searched_once() -> None:
    hand = nums("7S 8S 9S 10S 3H")
    live = set(hand) | set(nums("AS 4H"))
    kept = distinct(hand, hand, live, PTS)
    assert sorted(kept) == sorted(nums("7S 10S 3H"))
    live.add(card("8S") + 0)  # nothing changes: it is held
    live.add(card("6S"))
    assert sorted(distinct(hand, hand, live, PTS)) == sorted(nums("7S 10S 3H"))
    # a live card between two held cards keeps both
    hand = nums("7S 9S")
    assert sorted(distinct(hand, hand, set(hand) | {card("8S")}, PTS)) == sorted(hand)
    # a card gone between them does not
    assert distinct(hand, hand, set(hand), PTS) == [card("7S")]


def test_a_card_in_the_trick_in_progress_tells_cards_apart() -> None:
    # two players, seat 1 leads the eight of spades: the seven and the nine of seat 0 differ
    stack = Stack({1: parse_cards("8S"), 0: parse_cards("7S 9S")}, ())
    state = FrogsState(PRESETS["standard"], 2, random.Random(0), {0: stack})
    state.apply(0, Say.DEAL)
    state.apply(1, parse_card("8S"))
    sampled = FrogsSampler().sample(knowledge_of(state, 0), 1, random.Random(1))[0]
    assert isinstance(sampled, FrogsState)
    live = live_cards(sampled, 0)
    assert card("8S") in live and card("2C") not in live
    hand = [NUMBER[c] for c in state.hands[0]]
    legal = [NUMBER[c] for c in state.legal(0)]  # type: ignore[index]
    assert {card("7S"), card("9S")} <= set(distinct(hand, legal, live, PTS))


def knowledge_of(state: FrogsState, seat: int) -> Knowledge:
    """What `seat` knows of `state`."""
    return Knowledge(state.params, state.seats, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def test_the_bot_wins_the_last_trick_with_its_most_valuable_winner() -> None:
    hands = {0: "10C KC 3C", 1: "9C", 2: "4C", 3: "6C"}
    got = decide(FrogsSearchBot(samples=4), "standard", hands, "9C 4C 6C")
    assert got == parse_card("10C")


def test_the_bot_keeps_its_ten_off_an_opponents_sure_trick() -> None:
    # two players; seat 1 leads the ace of hearts, seat 0 holds the ten and low hearts
    hands = {1: "AH 2D 3D 4D 6D 7D 8D 9D JD QD KD AD 3S 4S 6S 7S 8S", 0: "10H 3H"}
    got = decide(FrogsSearchBot(samples=8), "standard", hands, "AH", players=2)
    assert got.suit == parse_card("3H").suit and PTS[NUMBER[got]] == 0


@pytest.mark.parametrize(("preset", "players"), [
    ("standard", 2), ("standard", 3), ("standard", 4), ("four-individual", 4),
    ("standard", 5), ("tadpole", 2), ("tadpole", 4)])
def test_whole_games_without_fault_replayed_exactly(preset: str, players: int) -> None:
    variant = find_game("frogs-in-the-pond").variant(preset, {"target": "30"})
    spec = resolve_bot("frogs-search:samples=3", "frogs-in-the-pond")
    other = resolve_bot("frogs-sharp", "frogs-in-the-pond")
    records = []
    for _ in range(2):
        bots = [spec.make() if s % 2 == 0 else other.make() for s in range(players)]
        records.append(play_game(variant, bots, [f"b{s}" for s in range(players)], 3))
    assert records[0].faults == ()
    assert records[0].to_json() == records[1].to_json()


@pytest.mark.parametrize("params", [{"samples": 0}, {"budget": -1.0}])
def test_parameters_out_of_range_are_refused(params: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        FrogsSearchBot(**params)  # type: ignore[arg-type]


def test_a_spent_budget_stops_after_the_first_sample() -> None:
    stack = Stack({1: parse_cards("8S 9H"), 0: parse_cards("7S 9S 10S QS")}, ())
    state = FrogsState(PRESETS["standard"], 2, random.Random(0), {0: stack})
    state.apply(0, Say.DEAL)
    state.apply(1, parse_card("8S"))
    known = knowledge_of(state, 0)
    legal = [NUMBER[c] for c in state.legal(0)]  # type: ignore[index]
    values = []
    for bot in (FrogsSearchBot(samples=1), FrogsSearchBot(samples=6, budget=1e-9),
                FrogsSearchBot(samples=6)):
        bot.start(GameInfo("frogs-in-the-pond", "standard", {}, 0, 2, random.Random(3)))
        values.append(bot.evaluate(known, legal))
    assert values[0] == values[1] != values[2]
