"""`dig-search`: its bare playout engine plays Dig's rules, its playout policy plays as
`dig-sharp` would with both hands in view, and the bot plays whole games legally and replayably."""

from __future__ import annotations

import random

import pytest

from arena.cards import parse_card
from arena.engine import find_game
from arena.games.dig.state import DigState
from arena.loader import resolve_bot
from arena.match import play_game
from bots.dig.search import (
    NONE,
    DigSearchBot,
    Endgame,
    FastDig,
    TooBig,
    apply_action,
    card_of,
    mask_of,
    number,
    numbers_of,
    play_out,
    sharp_name,
    sharp_play,
)


def cards(text: str) -> list[int]:
    """Card numbers from short forms: '5H 9C'."""
    return [number(parse_card(c)) for c in text.split()]


def position(mine: str, theirs: str, suit: str, rank: str, stock: str = "2C 3C 4C",
             ranks_named: bool = True) -> FastDig:
    """Seat 0 to play `mine` against `theirs`, the pile asking for `suit` or `rank`."""
    suits = "CDHS"
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return FastDig([mask_of(cards(mine)), mask_of(cards(theirs))], cards(stock), cards("KD"),
                   suits.index(suit) if suit else NONE, ranks.index(rank) if rank else NONE, 0,
                   False, 0, 0, ranks_named, False, 300, random.Random(1))


def fast_state(game: FastDig) -> tuple[object, ...]:
    """What the bare engine says of its position, as cards."""
    return (tuple(sorted(map(str, map(card_of, numbers_of(game.hands[0]))))),
            tuple(sorted(map(str, map(card_of, numbers_of(game.hands[1]))))),
            tuple(map(str, map(card_of, game.stock))), game.seat, game.naming, game.over,
            game.margin(0), game.turns)


def engine_state(state: DigState) -> tuple[object, ...]:
    """The same of the engine's own state."""
    left = [len(h) for h in state.hands]
    return (tuple(sorted(map(str, state.hands[0]))), tuple(sorted(map(str, state.hands[1]))),
            tuple(map(str, state.stock)), state.seat, state.phase.name == "NAME",
            state.phase.name == "OVER", left[1] - left[0], state.turns)


@pytest.mark.parametrize("preset", ["standard", "suit-only"])
@pytest.mark.parametrize("seed", range(6))
def test_the_bare_engine_plays_as_the_game_does(preset: str, seed: int) -> None:
    variant = find_game("dig").variant(preset)
    state = variant.game.new_state(variant.params, 2, random.Random(seed))
    assert isinstance(state, DigState)
    game = FastDig.of(state, random.Random(0))
    rng = random.Random(seed)
    steps = 0
    while state.to_act():
        assert fast_state(game) == engine_state(state)
        (seat,) = state.to_act()
        legal = state.legal(seat)
        action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        apply_action(game, action)
        steps += 1
    assert fast_state(game) == engine_state(state)
    assert game.over and steps > 10


def test_a_playout_ends_with_every_card_where_it_was_dealt() -> None:
    variant = find_game("dig").variant("reshuffle")
    state = variant.game.new_state(variant.params, 2, random.Random(3))
    assert isinstance(state, DigState)
    game = FastDig.of(state, random.Random(0))
    play_out(game)
    assert game.over
    everything = [*numbers_of(game.hands[0]), *numbers_of(game.hands[1]), *game.stock,
                  *game.pile]
    assert sorted(everything) == list(range(52))


def test_an_eight_alone_is_enough_not_to_dig() -> None:
    game = position("8S 5C", "2C 3C", "H", "6")
    game.begin()
    assert (numbers_of(game.hands[0]), game.stock, game.seat) == (cards("5C 8S"), cards("2C 3C 4C"),
                                                                  0)
    game = position("9S 5C", "2C 3C", "H", "6", stock="2D 4H 3C")
    game.begin()
    assert game.hands[0] == mask_of(cards("9S 5C 3C 4H"))
    assert (game.stock, game.seat) == (cards("2D"), 0)


def test_the_policy_keeps_its_eights_while_another_card_follows() -> None:
    game = position("8S 5H", "2C 3C", "H", "5")
    assert card_of(sharp_play(game)) == parse_card("5H")


def test_the_policy_plays_an_eight_when_nothing_else_follows() -> None:
    game = position("8S 5C", "2C 3C", "H", "6")
    assert card_of(sharp_play(game)) == parse_card("8S")


def test_the_policy_leaves_what_the_other_hand_cannot_follow() -> None:
    # 5H leaves hearts or fives, which the other hand follows with 7H; KS leaves spades or kings,
    # which it cannot follow. Without that pressure, 5H (which 5C would follow) would score higher.
    game = position("5H KS 5C", "7H 2D", "H", "K")
    assert card_of(sharp_play(game)) == parse_card("KS")


def test_the_policy_sheds_from_its_longest_suit_when_the_other_hand_can_follow_all() -> None:
    game = position("5H 9C 2C 3C", "8D 4S", "H", "9")
    assert card_of(sharp_play(game)) == parse_card("9C")


def test_the_policy_names_what_the_other_hand_lacks() -> None:
    game = position("2C 3C 4H", "7C 9S 9H", "", "")
    game.naming = True
    assert sharp_name(game) == (NONE, 1)  # a two: it holds no two, while it holds C, S and H
    game.ranks_named = False
    assert sharp_name(game) == (1, NONE)  # suits only: diamonds, which it lacks


def test_dig_search_plays_whole_games_without_fault_and_replays_them() -> None:
    variant = find_game("dig").variant()
    spec = resolve_bot("dig-search:samples=3", "dig")
    other = resolve_bot("dig-sharp", "dig")
    records = [play_game(variant, [spec.make(), other.make()], ["dig-search", "dig-sharp"], 4)
               for _ in range(2)]
    assert records[0].faults == ()
    assert records[0].to_json() == records[1].to_json()


@pytest.mark.parametrize("params", [{"samples": 0}, {"rollouts": 0}, {"budget": -1.0}])
def test_dig_search_rejects_parameters_out_of_range(params: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        DigSearchBot(**params)  # type: ignore[arg-type]


def brute_force(game: FastDig, memo: dict[tuple[object, ...], int]) -> int:
    """The margin of the seat to act with exact play, by trying every play and naming (memo on
    the whole position, no pruning)."""
    if game.over:
        return game.margin(game.seat)
    key = (game.hands[0], game.hands[1], tuple(game.stock),
           game.suit, game.rank, game.seat, game.naming, game.passes)
    if key in memo:
        return memo[key]
    seat = game.seat
    if game.naming:
        options = [(s, NONE) for s in range(4)] + [(NONE, r) for r in range(13) if r != 7]
        moves = [lambda g, o=o: g.name(*o) for o in options]
    else:
        moves = [lambda g, c=c: g.play(c) for c in numbers_of(game.hands[seat])
                 if game.follows(c)]
    best = -99
    for move in moves:
        twin = game.copy()
        move(twin)
        value = brute_force(twin, memo)
        best = max(best, value if twin.seat == seat else -value)
    memo[key] = best
    return best


@pytest.mark.parametrize("seed", range(40))
def test_the_endgame_solver_finds_the_exact_margin(seed: int) -> None:
    rng = random.Random(seed)
    pack = list(range(52))
    rng.shuffle(pack)
    mine, theirs = pack[:rng.randint(1, 6)], pack[6:6 + rng.randint(1, 6)]
    stock = pack[12:12 + rng.randint(0, 4)]
    top = pack[20]
    naming = seed % 2 == 1  # seat 0 has just played an eight and names
    game = FastDig([mask_of(mine), mask_of(theirs)], stock, [top], top // 13, top % 13, 0,
                   naming, 0, 0, seed % 4 != 3, False, 300, random.Random(0))
    if not naming:
        game.begin()
    solver = Endgame(10**6)
    assert solver.value(game) == brute_force(game, {})
    for card in numbers_of(game.hands[game.seat]) if not game.naming and not game.over else ():
        if game.follows(card):  # the same solver again, on the same stock: memo kept
            twin = game.copy()
            twin.play(card)
            value = solver.value(twin)
            assert value == brute_force(twin, {})
    other = game.copy()  # the same solver on another stock: nothing remembered may serve
    other.stock.reverse()
    assert solver.value(other) == brute_force(other, {})


def test_the_endgame_solver_gives_up_past_its_limit() -> None:
    rng = random.Random(5)
    pack = list(range(52))
    rng.shuffle(pack)
    game = FastDig([mask_of(pack[:9]), mask_of(pack[9:18])], pack[18:22], [pack[30]], 0, NONE,
                   0, False, 0, 0, True, False, 300, random.Random(0))
    game.begin()
    with pytest.raises(TooBig):
        Endgame(5).value(game)


def test_with_the_stock_out_dig_search_scores_each_action_by_exact_play() -> None:
    from arena.api import GameInfo
    from arena.engine import Knowledge
    from tests.games.test_samplers import knowledge

    variant = find_game("dig").variant()
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = variant.game.new_state(variant.params, 2, random.Random(seed))
        assert isinstance(state, DigState)
        while state.to_act():
            (seat,) = state.to_act()
            legal = state.legal(seat)
            if seat == 0 and not state.stock and len(legal) > 1:
                break
            state.apply(seat, legal[rng.randrange(len(legal))])
        else:
            continue
        bot = DigSearchBot(samples=5, limit=10**6)
        bot.start(GameInfo("dig", "standard", {}, 0, 2, random.Random(1)))
        known: Knowledge = knowledge(variant, state, 0)
        exact = []
        for action in legal:
            game = FastDig.of(state, random.Random(0))
            apply_action(game, action)
            value = Endgame(10**6).value(game)
            exact.append(value if game.seat == 0 else -value)
        assert bot.evaluate(known, legal) == exact
        found += 1
        if found == 3:
            break
    assert found == 3
