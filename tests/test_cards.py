"""Tests for arena.cards: parsing the short text form, decks and colours."""

from __future__ import annotations

import pytest

from arena.cards import (
    Card,
    CardParseError,
    Colour,
    Rank,
    Suit,
    parse_card,
    parse_cards,
    standard_deck,
)
from arena.errors import ArenaError


@pytest.mark.parametrize(("text", "card"), [
    ("10H", Card(Rank.TEN, Suit.HEARTS)),
    ("QS", Card(Rank.QUEEN, Suit.SPADES)),
    ("qs", Card(Rank.QUEEN, Suit.SPADES)),
    (" AD ", Card(Rank.ACE, Suit.DIAMONDS)),
    ("2c", Card(Rank.TWO, Suit.CLUBS)),
    ("KH", Card(Rank.KING, Suit.HEARTS)),
    ("JD", Card(Rank.JACK, Suit.DIAMONDS)),
    ("JK", Card(Rank.JOKER)),
    ("JKR", Card(Rank.JOKER, None, Colour.RED)),
    ("jkb", Card(Rank.JOKER, None, Colour.BLACK)),
])
def test_parse_card(text: str, card: Card) -> None:
    assert parse_card(text) == card


def test_every_card_round_trips_through_its_text() -> None:
    for card in standard_deck(jokers=True):
        assert parse_card(str(card)) == card


def test_parse_cards_accepts_spaces_and_commas() -> None:
    assert parse_cards("10H QS, JK,AD") == (
        Card(Rank.TEN, Suit.HEARTS), Card(Rank.QUEEN, Suit.SPADES), Card(Rank.JOKER),
        Card(Rank.ACE, Suit.DIAMONDS))
    assert parse_cards("") == ()


@pytest.mark.parametrize("text", [
    "", "  ", "1H", "11H", "0H", "ZZ", "10X", "H10", "10", "J", "JKH", "JKX", "QQS", "AS AD",
])
def test_bad_text_raises_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_card(text)
    assert isinstance(caught.value, ArenaError)
    assert repr(text) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_parse_cards_names_the_bad_part() -> None:
    with pytest.raises(CardParseError, match="'XX'"):
        parse_cards("10H XX QS")


def test_card_parse_error_is_an_arena_error() -> None:
    assert issubclass(CardParseError, ArenaError)


def test_standard_deck() -> None:
    deck = standard_deck()
    assert len(deck) == len(set(deck)) == 52
    for suit in Suit:
        assert sorted(c.rank for c in deck if c.suit is suit) == list(range(1, 14))
    assert not any(c.is_joker for c in deck)


def test_standard_deck_with_jokers() -> None:
    deck = standard_deck(jokers=True)
    assert len(deck) == len(set(deck)) == 54
    jokers = [c for c in deck if c.is_joker]
    assert sorted(c.colour.value for c in jokers) == ["black", "red"]
    assert all(c.suit is None for c in jokers)


def test_standard_deck_is_a_new_list_each_time() -> None:
    first = standard_deck()
    first.pop()
    assert len(standard_deck()) == 52


@pytest.mark.parametrize(("suit", "colour"), [
    (Suit.HEARTS, Colour.RED), (Suit.DIAMONDS, Colour.RED),
    (Suit.CLUBS, Colour.BLACK), (Suit.SPADES, Colour.BLACK),
])
def test_suit_colours(suit: Suit, colour: Colour) -> None:
    assert suit.colour is colour
    assert Card(Rank.SEVEN, suit).colour is colour


def test_joker_colour_is_its_own() -> None:
    assert parse_card("JKR").colour is Colour.RED
    assert parse_card("JKB").colour is Colour.BLACK
    assert parse_card("JK").colour is None


def test_card_text_forms() -> None:
    assert str(parse_card("10h")) == "10H"
    assert parse_card("10H").pretty() == "10♥"
    assert parse_card("AS").pretty() == "A♠"
    assert str(parse_card("JKR")) == "JKR"
    assert str(parse_card("JK")) == "JK"


def test_card_rejects_suit_on_joker_and_missing_suit() -> None:
    with pytest.raises(ValueError, match="joker"):
        Card(Rank.JOKER, Suit.HEARTS)
    with pytest.raises(ValueError, match="joker"):
        Card(Rank.SEVEN)


def test_cards_are_hashable_values() -> None:
    assert Card(Rank.SEVEN, Suit.HEARTS) == parse_card("7H")
    assert len({parse_card("7H"), parse_card("7h"), parse_card("7D")}) == 2
    assert parse_card("JKR") != parse_card("JKB")
