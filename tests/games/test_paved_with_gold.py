"""Paved with Gold scenarios on stacked decks: claims, the accidental pair, bonus cards, refills
and the end claim."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from arena.api import Event, Reveal
from arena.cards import Card, parse_card, standard_deck
from arena.engine import ScoreOrder, find_game
from arena.games.paved_with_gold import (
    BEST_FIRST,
    END_BELOW,
    SQUARE,
    Aces,
    Announce,
    Bonus,
    Combo,
    ComboRules,
    End,
    EndClaim,
    Failed,
    GameOver,
    Look,
    PavedParams,
    PavedState,
    Phase,
    PutBack,
    Refill,
    Spot,
    Verdict,
    Won,
    actions,
    position_name,
)
from arena.games.paved_with_gold.scenarios import (
    claim_moves,
    play,
    played_down,
    stacked_state,
)
from arena.match import play_game
from arena.show import ShowPrinter
from bots.algorithms.random_bot import RandomBot

GAME = find_game("paved-with-gold")


def cards(*texts: str) -> tuple[Card, ...]:
    """Cards from their short forms."""
    return tuple(parse_card(t) for t in texts)


def deal(square: Mapping[int, str] | Sequence[str] = (), stock: Sequence[str] = (),
         players: int = 2, preset: str = "standard",
         overrides: Mapping[str, str] | None = None) -> PavedState:
    """A state on a stacked deck (see arena.games.paved_with_gold.scenarios)."""
    params = GAME.variant(preset, overrides).params
    assert isinstance(params, PavedParams)
    return stacked_state(square, stock, players, params)


do = play


def public(state: PavedState, events: Sequence[Event], start: int) -> list[Event]:
    """The events among `events` (logged from index `start`) that every seat sees."""
    return [e for i, e in enumerate(events, start) if i not in state.private]


# -- the scenario table: one claim on a stacked square -----------------------------------------

@dataclass(frozen=True)
class ClaimCase:
    """A claim of `combo`: the cards picked up lie at places 0, 1; those turned up at 10, 11, ..."""

    combo: Combo
    held: tuple[str, ...]
    turned: tuple[str, ...]
    won: bool
    preset: str = "standard"
    overrides: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return (f"{self.preset}:{self.combo.value}:{'-'.join(self.held) or 'announced'}"
                f"+{'-'.join(self.turned)}")


CLAIMS = [
    ClaimCase(Combo.PAIR, ("7H",), ("7S",), won=True),
    ClaimCase(Combo.PAIR, ("7H",), ("8H",), won=False),
    ClaimCase(Combo.PAIR, (), ("QD", "QC"), won=True),  # announced before picking up
    ClaimCase(Combo.PAIR, (), ("QD", "KD"), won=False),
    ClaimCase(Combo.THREE_OF_A_KIND, ("7H",), ("7S", "7D"), won=True),
    ClaimCase(Combo.THREE_OF_A_KIND, ("7H", "7S"), ("7C",), won=True),
    ClaimCase(Combo.THREE_OF_A_KIND, ("7H",), ("7S", "8D"), won=False),
    ClaimCase(Combo.FLUSH, ("2H",), ("9H", "KH"), won=True),
    ClaimCase(Combo.FLUSH, ("2H", "9H"), ("KH",), won=True),
    ClaimCase(Combo.FLUSH, ("2H",), ("9H", "KS"), won=False),
    ClaimCase(Combo.RUN, ("7H",), ("8S", "9D"), won=True),  # any suits
    ClaimCase(Combo.RUN, ("9D", "7H"), ("8S",), won=True),  # in any order
    ClaimCase(Combo.RUN, ("7H",), ("8S", "10D"), won=False),
    ClaimCase(Combo.RUN, ("7H",), ("7S", "8D"), won=False),
    ClaimCase(Combo.RUN, ("AH",), ("2S", "3D"), won=True),
    ClaimCase(Combo.RUN, ("QH",), ("KS", "AD"), won=True),  # ace high
    ClaimCase(Combo.RUN, ("KH",), ("AS", "2D"), won=False),  # not round the corner
    ClaimCase(Combo.RUN, ("QH",), ("KS", "AD"), won=False, preset="ace-low"),
    ClaimCase(Combo.RUN, ("AH",), ("2S", "3D"), won=True, preset="ace-low"),
    ClaimCase(Combo.RUN, ("KH",), ("AS", "2D"), won=True, preset="round-the-corner"),
    ClaimCase(Combo.RUN, ("QH",), ("KS", "AD"), won=True, preset="round-the-corner"),
    ClaimCase(Combo.RUN, ("7H",), ("8S", "9D"), won=False, preset="suited-runs"),
    ClaimCase(Combo.RUN, ("7H",), ("8H", "9H"), won=True, preset="suited-runs"),
    ClaimCase(Combo.PRIME, ("2C",), ("5D", "9H", "KS"), won=True),
    ClaimCase(Combo.PRIME, ("2C", "5D"), ("9H", "KS"), won=True),
    ClaimCase(Combo.PRIME, ("2C",), ("5D", "9H", "KC"), won=False),
    ClaimCase(Combo.FIVE_OF_A_COLOUR, ("AH",), ("2D", "3H", "4D", "5H"), won=True),
    ClaimCase(Combo.FIVE_OF_A_COLOUR, ("AS", "2C"), ("3S", "4C", "5S"), won=True),
    ClaimCase(Combo.FIVE_OF_A_COLOUR, ("AH",), ("2D", "3H", "4D", "5S"), won=False),
]


@pytest.mark.parametrize("case", CLAIMS, ids=str)
def test_claim(case: ClaimCase) -> None:
    held = list(range(len(case.held)))
    turned = list(range(10, 10 + len(case.turned)))
    square = {**dict(zip(held, case.held, strict=True)),
              **dict(zip(turned, case.turned, strict=True))}
    refill = ("JC", "JD", "JH", "JS", "10C")
    state = deal(square, stock=refill, preset=case.preset, overrides=case.overrides)
    mark = len(state.log)
    events = do(state, *claim_moves(case.combo, held, turned))
    shown = public(state, events, mark)
    positions = (*held, *turned)
    claim_cards = cards(*case.held, *case.turned)

    assert [e for e in shown if isinstance(e, Announce)] == [Announce(0, case.combo, tuple(held))]
    assert [e for e in shown if isinstance(e, Reveal)] == [
        Reveal(0, p, c) for p, c in zip(positions, claim_cards, strict=True)]
    final = state.outcome().final
    if case.won:
        assert Won(0, positions, case.combo, claim_cards, case.combo.points) in shown
        assert final["points"] == [case.combo.points, 0] and final["bonus"] == [0, 0]
        assert final["claims"] == [1, 0] and final["false_claims"] == [0, 0]
        assert state.outcome().scores == (case.combo.points, 0)
    else:
        assert Failed(0, case.combo, positions, claim_cards) in shown
        assert Bonus(1, positions, claim_cards, 0) in shown
        assert final["points"] == [0, 0] and final["bonus"] == [0, len(positions)]
        assert final["claims"] == [0, 0] and final["false_claims"] == [1, 0]
        assert state.outcome().scores == (0, len(positions))
    # the vacated places are refilled from the stock, in place order, face down
    filled = tuple(sorted(positions))
    assert shown[-1] == Refill(None, filled, 27 - len(filled))
    assert [state.square[p] for p in filled] == list(cards(*refill[:len(filled)]))
    assert all(state.view(1).cells[p] is Spot.DOWN for p in filled)
    assert state.to_act() == (1,) and state.phase is Phase.LOOK
    assert state.outcome().turns == 1


# -- looking, putting back, the accidental pair ------------------------------------------------

def test_a_look_is_private_but_everyone_sees_where() -> None:
    state = deal(["7H", "7S"])
    mark = len(state.log)
    events = do(state, actions.look(0))
    assert events == [Look(0, 0), Reveal(0, 0, parse_card("7H"))]
    assert state.private == {mark + 1: frozenset({0})}
    assert state.seen_by(1, mark, len(state.log)) == (Look(0, 0),)
    mine, theirs = state.view(0), state.view(1)
    assert mine.hand == ((0, parse_card("7H")),) and theirs.hand == ()
    assert mine.cells[0] is Spot.HELD and theirs.cells[0] is Spot.HELD
    assert list(state.visible_cards(0)) == [parse_card("7H")]
    assert list(state.visible_cards(1)) == []


def test_put_back_ends_the_turn_and_scores_nothing() -> None:
    state = deal(["7H", "8S"])
    events = do(state, actions.look(0), actions.look(1), actions.PUT_BACK_ACTION)
    assert events[-1] == PutBack(0, (0, 1))
    assert state.to_act() == (1,) and state.view(0).hand == ()
    assert state.view(1).cells[:2] == (Spot.DOWN, Spot.DOWN)
    assert state.outcome().scores == (0, 0) and state.outcome().turns == 1


def test_the_accidental_pair_does_not_score() -> None:
    state = deal(["7H", "7S", "7D"])
    do(state, actions.look(0), actions.look(1))
    legal = state.legal(0)
    assert actions.claim(Combo.PAIR, (0, 1)) not in legal
    assert actions.claim(Combo.THREE_OF_A_KIND, (0, 1)) in legal  # with a third card it may
    assert not any(a[0] == actions.LOOK for a in legal)  # two cards at most
    do(state, actions.PUT_BACK_ACTION)
    assert state.outcome().scores == (0, 0)
    # announced before picking up, the same two cards do score
    do(state, *claim_moves(Combo.PAIR, (), (0, 1)))
    assert state.outcome().final["points"] == [0, 4]


def test_what_may_be_claimed_depends_on_the_cards_in_hand() -> None:
    state = deal()
    assert set(state.legal(0)) == {*(actions.look(p) for p in range(25)),
                                   actions.claim(Combo.PAIR, ())}
    do(state, actions.look(3))
    assert set(state.legal(0)) == {*(actions.look(p) for p in range(25) if p != 3),
                                   actions.PUT_BACK_ACTION,
                                   *(actions.claim(c, (3,)) for c in Combo)}
    do(state, actions.look(4))
    assert set(state.legal(0)) == {actions.PUT_BACK_ACTION, *(
        actions.claim(c, (3, 4)) for c in Combo if c is not Combo.PAIR)}
    do(state, actions.claim(Combo.RUN, (3, 4)))
    assert set(state.legal(0)) == {actions.turn_up(p) for p in range(25) if p not in (3, 4)}


def test_a_claim_turns_up_all_its_cards_even_once_it_has_failed() -> None:
    state = deal({0: "AH", 10: "KS", 11: "2D", 12: "3H", 13: "4D"})
    do(state, actions.look(0), actions.claim(Combo.FIVE_OF_A_COLOUR, (0,)), actions.turn_up(10))
    assert state.phase is Phase.TURN_UP and state.to_act() == (0,)
    view = state.view(1)
    assert view.claim is Combo.FIVE_OF_A_COLOUR and view.claim_positions == (0, 10)
    assert view.cells[0] == parse_card("AH") and view.cells[10] == parse_card("KS")
    assert sorted(map(str, state.visible_cards(1))) == ["AH", "KS"]
    do(state, actions.turn_up(11), actions.turn_up(12), actions.turn_up(13))
    assert state.outcome().final["bonus"] == [0, 5]


def test_another_turn_after_a_successful_claim_only() -> None:
    state = deal({0: "7H", 1: "7S", 2: "8D", 3: "9C"}, preset="another-turn")
    do(state, *claim_moves(Combo.PAIR, (0,), (1,)))
    assert state.to_act() == (0,)
    do(state, *claim_moves(Combo.PAIR, (2,), (3,)))
    assert state.to_act() == (1,)


# -- three players: the claimant chooses who gets the bonus cards -------------------------------

@pytest.mark.parametrize("receiver", [1, 2])
def test_three_players_false_claim_bonus_goes_to_the_chosen_opponent(receiver: int) -> None:
    state = deal({0: "7H", 1: "8S"}, players=3)
    do(state, *claim_moves(Combo.PAIR, (0,), (1,)))
    assert state.phase is Phase.BONUS_TO and state.to_act() == (0,)
    assert state.legal(0) == (actions.bonus_to(1), actions.bonus_to(2))
    assert sorted(map(str, state.visible_cards(2))) == ["7H", "8S"]
    events = do(state, actions.bonus_to(receiver))
    assert events[0] == Bonus(receiver, (0, 1), cards("7H", "8S"), 0)
    assert state.outcome().final["bonus"] == [0, 2, 0] if receiver == 1 else [0, 0, 2]
    assert state.to_act() == (1,)


def test_three_players_the_choice_comes_in_turn_order_from_the_claimant() -> None:
    state = deal({0: "7H", 1: "8S"}, players=3)
    do(state, actions.look(2), actions.PUT_BACK_ACTION)
    do(state, *claim_moves(Combo.PAIR, (0,), (1,)))  # seat 1 claims falsely
    assert state.legal(1) == (actions.bonus_to(2), actions.bonus_to(0))


# -- refilling ---------------------------------------------------------------------------------

REDS = [f"{r}{s}" for s in "HD" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
BLACKS = [f"{r}{s}" for s in "CS" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]


def test_refills_run_out_and_leave_places_empty() -> None:
    # square: 25 reds; stock: the last red, then the 26 blacks
    state = deal(REDS[:25], stock=[REDS[25], *BLACKS])
    for first in range(0, 25, 5):
        places = list(range(first, first + 5))
        do(state, *claim_moves(Combo.FIVE_OF_A_COLOUR, places[:1], places[1:]))
    assert len(state.stock) == 2
    assert state.square[0] == parse_card(REDS[25])
    assert state.square[1:25] == list(cards(*BLACKS[:24]))
    events = do(state, *claim_moves(Combo.FIVE_OF_A_COLOUR, [1], [2, 3, 4, 5]))
    assert events[-1] == Refill(None, (1, 2), 0)
    assert state.square[1:3] == list(cards(*BLACKS[24:26]))
    view = state.view(0)
    assert view.cells[3:6] == (Spot.EMPTY,) * 3 and view.stock == 0
    assert actions.look(3) not in state.legal(0)
    assert state.outcome().final["points"] == [75, 75]
    # with the stock empty a claim leaves its places empty, and the Refill names none
    events = do(state, *claim_moves(Combo.FIVE_OF_A_COLOUR, [6], [7, 8, 9, 10]))
    assert events[-1] == Refill(None, (), 0)
    assert sum(c is not None for c in state.square) == 17


# -- the end claim -----------------------------------------------------------------------------

@dataclass(frozen=True)
class EndCase:
    """An end claim with these cards left in the square."""

    left: tuple[str, ...]
    right: bool
    combo: Combo | None = None

    def __str__(self) -> str:
        return "-".join(self.left) or "empty"


END_CASES = [
    EndCase(("2C", "7D", "QH", "9C"), right=True),
    EndCase((), right=True),
    EndCase(("KD",), right=True),
    EndCase(("2C", "7D", "QH", "2H"), right=False, combo=Combo.PAIR),
    EndCase(("2C", "3D", "QH", "4H"), right=False, combo=Combo.RUN),
    EndCase(("2C", "7C", "QH", "9C"), right=False, combo=Combo.FLUSH),
    EndCase(("2C", "7D", "QH", "9S"), right=False, combo=Combo.PRIME),
    EndCase(("2C", "7S", "QC", "9S", "4C", "JD"), right=False, combo=Combo.FIVE_OF_A_COLOUR),
    EndCase(("2C", "7D", "QH", "9C", "5S", "5H", "10D", "KH"), right=False,
            combo=Combo.FIVE_OF_A_COLOUR),  # the verdict names the best one found
]


@pytest.mark.parametrize("case", END_CASES, ids=str)
def test_end_claim(case: EndCase) -> None:
    state = played_down(case.left)
    seat = state.seat
    assert actions.END_ACTION in state.legal(seat)
    before = state.outcome().final["bonus"]
    mark = len(state.log)
    events = do(state, actions.END_ACTION)
    places = tuple(range(SQUARE - len(case.left), SQUARE))
    assert events[0] == EndClaim(seat, places)
    assert events[1:1 + len(places)] == [Reveal(None, p, state_card) for p, state_card in
                                          zip(places, cards(*case.left), strict=True)]
    assert not set(range(mark, len(state.log))) & set(state.private)
    verdict = events[1 + len(places)]
    assert isinstance(verdict, Verdict) and verdict.right is case.right
    assert verdict.combo is case.combo
    if case.combo is not None:
        shown = [state_card for p, state_card in zip(places, cards(*case.left), strict=True)
                 if p in verdict.positions]
        assert ComboRules().holds(case.combo, shown)
    receiver = seat if case.right else 1 - seat
    after = state.outcome().final["bonus"]
    assert after[receiver] - before[receiver] == len(case.left)
    assert events[-1] == GameOver(None, End.END_CLAIM)
    assert state.to_act() == ()
    final = state.outcome().final
    assert final["end"] == "end-claim" and final["left"] == 0
    assert final["end_claim"] == {"seat": seat, "right": case.right, "cards": len(case.left)}


def test_the_end_claim_needs_an_empty_stock_and_fewer_than_nine_cards() -> None:
    assert actions.END_ACTION not in deal().legal(0)
    nine = ("2C", "7D", "QH", "9C", "5S", "5H", "10D", "KH", "3D")
    assert len(nine) == END_BELOW
    state = played_down(nine)
    assert actions.END_ACTION not in state.legal(state.seat)
    places = [p for p, c in enumerate(state.square) if str(c) in ("5S", "5H")]
    do(state, *claim_moves(Combo.PAIR, places[:1], places[1:]))
    assert actions.END_ACTION in state.legal(state.seat)


def test_an_empty_square_leaves_only_the_end_claim() -> None:
    state = played_down(())
    assert state.legal(state.seat) == (actions.END_ACTION,)


def test_three_players_wrong_end_claim_bonus_to_the_chosen_opponent() -> None:
    state = played_down(("2C", "2H", "9S"), players=3)
    seat = state.seat
    do(state, actions.END_ACTION)
    assert state.phase is Phase.BONUS_TO and state.to_act() == (seat,)
    assert {"2C", "2H", "9S"} <= set(map(str, state.visible_cards((seat + 1) % 3)))
    before = state.outcome().final["bonus"]
    choice = (seat + 2) % 3
    events = do(state, actions.bonus_to(choice))
    assert isinstance(events[0], Bonus) and events[0].seat == choice
    assert state.outcome().final["bonus"][choice] == before[choice] + 3
    assert events[-1] == GameOver(None, End.END_CLAIM) and state.to_act() == ()


# -- the turn limit, scores and the record ---------------------------------------------------

def test_the_turn_limit_ends_the_game_and_leaves_the_cards_to_nobody() -> None:
    state = deal(overrides={"max-turns": "3"})
    for _ in range(3):
        do(state, actions.look(0), actions.PUT_BACK_ACTION)
    assert state.to_act() == () and state.log[-1] == GameOver(None, End.TURN_LIMIT)
    outcome = state.outcome()
    assert outcome.final["end"] == "turn-limit" and outcome.final["left"] == 52
    assert outcome.scores == (0, 0) and outcome.order is ScoreOrder.HIGHER_WINS


def test_max_turns_must_be_positive() -> None:
    from arena.errors import VariantError
    with pytest.raises(VariantError, match="max-turns"):
        GAME.variant("standard", {"max-turns": "0"})


def test_the_score_is_points_plus_bonus_cards() -> None:
    state = deal({0: "7H", 1: "7S", 2: "2C", 3: "9D"})
    do(state, *claim_moves(Combo.PAIR, (0,), (1,)))  # seat 0: 4 points
    do(state, *claim_moves(Combo.PAIR, (2,), (3,)))  # seat 1 fails: 2 bonus cards to seat 0
    assert state.outcome().scores == (6, 0)
    assert state.view(1).scores == (6, 0) and state.view(1).points == (4, 0)
    assert state.view(1).bonus == (2, 0)
    assert sorted(map(str, state.view(1).out)) == ["2C", "7H", "7S", "9D"]


def test_every_card_is_accounted_for() -> None:
    state = played_down(("2C", "7D"))
    assert Counter(state.inventory()) == Counter(standard_deck())
    do(state, actions.END_ACTION)
    assert Counter(state.inventory()) == Counter(standard_deck())
    assert not any(state.square)


def test_positions_are_named_by_row_and_column() -> None:
    assert [position_name(p) for p in (0, 4, 7, 24)] == ["A1", "A5", "B3", "E5"]


# -- narration ---------------------------------------------------------------------------------

def test_narration_fits_and_never_names_a_private_card() -> None:
    lines: list[str] = []
    variant = GAME.variant("standard")
    bots = [RandomBot(), RandomBot(), RandomBot()]
    record = play_game(variant, bots, ["ann", "bob", "cy"], 5, ShowPrinter(lines.append))
    assert record.final["end"] in ("end-claim", "turn-limit")
    assert all(len(line) <= 80 for line in lines)
    assert any(line.startswith("Game over") for line in lines)
    state = deal(["7H", "8S"])
    state.narrate_deal()
    seen = []
    for move in (actions.look(0), actions.look(1), actions.PUT_BACK_ACTION):
        mark = len(state.log)
        do(state, move)
        for i, event in enumerate(state.log[mark:], mark):
            if i not in state.private:
                seen += state.narrate(event, ["ann", "bob"])
    assert seen == ["Turn 1: ann", "  picks up A1 and looks at it",
                    "  picks up A2 and looks at it", "  puts back A1, A2"]


# -- finding combinations ----------------------------------------------------------------------

RUN_ONLY = (Combo.RUN,)


@pytest.mark.parametrize(("hand", "must", "rules", "combos", "expected"), [
    (("7H", "8S", "9D", "KH"), (), ComboRules(), BEST_FIRST, Combo.RUN),
    (("7H", "8S", "9D", "KH"), (3,), ComboRules(), BEST_FIRST, None),  # nothing uses KH
    (("7H", "8S", "9D", "KC"), (), ComboRules(), BEST_FIRST, Combo.PRIME),
    (("7H", "8H", "9D", "10H"), (0,), ComboRules(suited_runs=True), RUN_ONLY, None),
    (("7H", "8H", "9D", "10H", "9H"), (0,), ComboRules(suited_runs=True), RUN_ONLY, Combo.RUN),
    (("2C", "5D", "9H", "KS", "3C"), (0, 4), ComboRules(), BEST_FIRST, None),
    (("2C", "5D", "9H", "KS", "3C"), (0,), ComboRules(), BEST_FIRST, Combo.PRIME),
    (("AH", "2D", "3H", "4D", "5H", "6S"), (5,), ComboRules(), BEST_FIRST, Combo.RUN),
    (("AH", "2D", "3H", "4D", "5H", "6S"), (), ComboRules(), BEST_FIRST,
     Combo.FIVE_OF_A_COLOUR),
    (("KH", "AD", "2C"), (), ComboRules(), BEST_FIRST, None),
    (("KH", "AD", "2C"), (), ComboRules(Aces.ROUND_THE_CORNER), BEST_FIRST, Combo.RUN),
    (("QH", "KD", "AC"), (), ComboRules(Aces.LOW), BEST_FIRST, None),
])
def test_find_the_best_combination_using_given_cards(
        hand: tuple[str, ...], must: tuple[int, ...], rules: ComboRules,
        combos: tuple[Combo, ...], expected: Combo | None) -> None:
    found = rules.find(cards(*hand), combos, must=must)
    if expected is None:
        assert found is None
        return
    assert found is not None and found[0] is expected
    assert set(must) <= set(found[1]) and len(set(found[1])) == expected.size
    assert rules.holds(expected, [cards(*hand)[i] for i in found[1]])


def test_legal_sets_stay_small() -> None:
    variant = GAME.variant("standard")
    for players in (2, 3):
        state = variant.game.new_state(variant.params, players, random.Random(7))
        rng = random.Random(7)
        while seats := state.to_act():
            legal = state.legal(seats[0])
            assert 1 <= len(legal) <= SQUARE + len(Combo)  # 24 looks, put back, 6 claims
            state.apply(seats[0], legal[rng.randrange(len(legal))])
