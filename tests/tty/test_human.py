"""The human seat, driven through its input stream: scripted moves, bad input, help, quitting,
simultaneous decisions, the drawing (hidden cards stay hidden), and watching with a delay."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.api import Bot, GameInfo
from arena.cards import parse_card
from arena.cli import app
from arena.engine import Variant, all_games, find_game
from arena.errors import BotSpecError
from arena.games.animals import QUIET, call
from arena.games.memorandum.table import Say
from arena.loader import resolve_bot
from arena.match import deal_rng, play_game
from arena.record import FaultKind, GameRecord
from arena.show import ShowPrinter
from arena.tty import BadInput, HumanInterface, Style, interface_for
from arena.tty.human import HumanBot, HumanQuit
from arena.tty.style import plain
from bots.algorithms.random_bot import RandomBot

GAMES = sorted(game.name for game in all_games())
POSITIONS = [f"{r}{c}" for r in "abcd" for c in range(1, 14)]


def table_size(variant: Variant) -> int:
    """Two seats where the game allows, else its fewest."""
    allowed = variant.params.players_allowed()
    return 2 if 2 in allowed else allowed.start


def moves(game: str, count: int = 4000) -> list[str]:
    """A script that finishes any game: every position in turn for Concentration (rejected
    ones are simply retried with the next), else choice 1 and 's' (a suit after a Dig eight,
    stand in Cuckoo, bad input elsewhere)."""
    if game == "concentration":
        return POSITIONS * 60
    return ["1", "s"] * count


def play(game: str, lines: Iterable[str], seed: int = 1, humans: Sequence[int] = (0,),
         players: int | None = None, preset: str | None = None,
         ) -> tuple[GameRecord, list[str]]:
    """Play one game with human seats reading `lines` (each its own copy) and random bots
    elsewhere; the record and each human's output. Without the luck, which a seat is never
    shown (for Concentration most of the CPU)."""
    variant = find_game(game).variant(preset)
    n = players or table_size(variant)
    text = "".join(f"{line}\n" for line in lines)
    outputs = {seat: io.StringIO() for seat in humans}
    bots: list[Bot] = [HumanBot(input=io.StringIO(text), output=outputs[s]) if s in outputs
                       else RandomBot() for s in range(n)]
    names = ["human" if s in outputs else "random" for s in range(n)]
    record = play_game(variant, bots, names, seed, luck=False)
    return record, [outputs[s].getvalue() for s in humans]


# -- every game, through the input stream ------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_scripted_moves_finish_every_game(game: str) -> None:
    record, (out,) = play(game, moves(game))
    assert record.faults == ()
    assert "[seat 0]" in out
    assert "Final scores:" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_is_refused_and_the_turn_kept(game: str) -> None:
    script = moves(game, 300)
    clean, _ = play(game, script)
    # bad input before each of the first 60 lines, some dozens of decisions (all of a Concentration
    # game's 3,000 lines tripled its output, 2 MB, for the same check)
    noisy, (out,) = play(game, [bad for line in script[:60] for bad in ("zz", "99", "?", line)]
                         + script[60:])
    assert noisy.faults == ()
    same = ("scores", "ranks", "turns", "final")
    assert [getattr(noisy, f) for f in same] == [getattr(clean, f) for f in same]
    assert "'zz' is not" in out
    assert "99" in out and ("no choice 99" in out or "no position 99" in out
                            or "'99' is not" in out)
    assert "? shows this help; q leaves the game" in out


@pytest.mark.parametrize("game", GAMES)
def test_q_leaves_the_game_and_the_seat_forfeits(game: str) -> None:
    record, (out,) = play(game, ["q", "y"])
    (fault,) = record.faults
    assert fault.seat == 0 and fault.kind is FaultKind.EXCEPTION
    assert "HumanQuit" in fault.detail and "you left the game" in fault.detail
    assert record.ranks[0] == len(record.seats)
    assert "Leave the game?" in out


@pytest.mark.parametrize("game", GAMES)
def test_q_then_no_goes_on_playing(game: str) -> None:
    script = moves(game)
    record, _ = play(game, ["q", "n", *script])
    assert record.faults == ()
    clean, _ = play(game, script)
    assert record.scores == clean.scores


@pytest.mark.parametrize("game", GAMES)
def test_end_of_input_leaves_the_game(game: str) -> None:
    record, _ = play(game, [])
    (fault,) = record.faults
    assert "the input ended" in fault.detail


def test_every_game_has_its_own_interface() -> None:
    from arena.tty.registry import has_own_interface

    assert all(has_own_interface(game) for game in GAMES)


# -- simultaneous decisions ----------------------------------------------------------------------

def test_memorandum_with_two_human_seats() -> None:
    record, outs = play("memorandum", ["m", "p", "1"] * 400, humans=(0, 1), players=3)
    assert record.faults == ()
    for seat, out in enumerate(outs):
        assert f"[seat {seat}]" in out and f"[seat {1 - seat}]" not in out
        assert out.count("Your hand:") == 2  # the two deals this seat does not deal
        assert "Mine! (m) or pass (p)?" in out


def test_animals_with_two_human_seats() -> None:
    record, outs = play("animals", ["", "woof", "1"] * 3000, humans=(0, 1), players=3)
    assert record.faults == ()
    assert all("Final scores:" in out for out in outs)
    assert "you cannot call the dog: that is you" in outs[0]


def test_memorandum_hand_is_told_once_and_never_drawn() -> None:
    record, (out,) = play("memorandum", ["1"] * 400, players=3)
    assert record.faults == ()
    first_call = out.index("Mine! (m) or pass (p)?")
    assert out.index("Your hand:") < first_call
    assert "it is not shown again" in out


# -- the drawing: face-down cards seen earlier are not drawn again --------------------------------

def boards(out: str) -> list[tuple[list[str], str]]:
    """Each Concentration grid drawn (its row lines) and the 'Face up this turn' line after it."""
    found = []
    lines = plain(out).splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^\s+1\s+2\s+3", line):
            rows = []
            j = i + 1
            while j < len(lines) and re.match(r"^  [A-Z] ", lines[j]):
                rows.append(lines[j])
                j += 1
            up = lines[j] if j < len(lines) and lines[j].startswith("Face up") else ""
            found.append((rows, up))
    return found


def cells(row: str) -> list[str]:
    """The cells of one grid row, after the row letter."""
    return row[4:].split()


def test_cards_turned_back_are_drawn_face_down() -> None:
    # seed 0: A1 is 3D and A2 is QC, no match
    _, (out,) = play("concentration", ["a1", "a2", "b1"], seed=0, players=1)
    drawn = boards(out)
    assert len(drawn) == 4  # before a1, a2, b1, and the next card after b1
    assert cells(drawn[1][0][0])[0] == "3♦"
    assert "seat 0 (you) turns up Q♣ at A2" in out
    assert "no match: 3D QC go face down again" in plain(out).replace("♦", "D").replace("♣", "C")
    third = drawn[2][0]
    assert cells(third[0])[:2] == ["##", "##"]
    assert not any(card in " ".join(third) for card in ("3♦", "Q♣"))
    assert drawn[2][1] == ""


@pytest.mark.parametrize("players", [1, 2])
def test_a_whole_game_never_draws_a_card_but_those_face_up_this_turn(players: int) -> None:
    record, (out,) = play("concentration", POSITIONS * 60, seed=3, players=players)
    assert record.faults == ()
    drawn = boards(out)
    assert len(drawn) > 20
    for rows, up in drawn:
        shown = [c for row in rows for c in cells(row) if c not in ("##", "..")]
        listed = re.findall(r"(\S+) at [A-Z]\d+", up)
        assert sorted(shown) == sorted(listed)
        assert len(shown) <= 1  # drawn only before the first or the second card of a turn


def test_colour_for_red_suits_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Style.for_stream(Terminal()).colour
    assert not Style.for_stream(io.StringIO()).colour
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(Terminal()).colour
    monkeypatch.delenv("NO_COLOR")
    out = Terminal()
    bot = HumanBot(input=io.StringIO("a1\n"), output=out)
    play_game(find_game("concentration").variant(), [bot], ["human"], 0)
    assert "\x1b[31m3♦\x1b[0m" in out.getvalue()  # 3D is red
    assert "\x1b[31mQ♣" not in out.getvalue()


def test_symbols_fall_back_to_letters() -> None:
    ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    style = Style.for_stream(ascii_stream)
    assert not style.symbols
    assert style.text("turns up 10H and QS") == "turns up 10H and QS"
    assert Style().text("turns up 10H and QS") == "turns up 10♥ and Q♠"


# -- natural input, game by game -----------------------------------------------------------------

def seated(game: str, seat: int = 0, players: int | None = None, preset: str | None = None,
           seed: int = 1) -> tuple[Any, HumanInterface]:
    """A fresh state and the interface of `seat`."""
    variant = find_game(game).variant(preset)
    n = players or table_size(variant)
    state = variant.game.new_state(variant.params, n, deal_rng(seed))
    ui = interface_for(game)
    ui.start(GameInfo(game, variant.label, variant.params_view, seat, n, deal_rng(0)))
    return state, ui


def test_concentration_positions() -> None:
    state, ui = seated("concentration")
    legal, view = state.legal(0), state.view(0)
    for text in ("b7", "B7", "B 7", "2 7", "19", " b-7 "):
        assert ui.parse(text, legal, view) == 19
    assert ui.action_text(19) == "turn up B7"
    assert ui.parse("", (19,), view) == 19
    for text, why in (("k1", "no row K"), ("a14", "no column 14"), ("52", "no position 52"),
                      ("zz", "not a position"), ("", "type a position")):
        with pytest.raises(BadInput, match=why):
            ui.parse(text, legal, view)
    state.apply(0, 19)
    with pytest.raises(BadInput, match="B7 is already face up"):
        ui.parse("b7", state.legal(0), state.view(0))


def test_concentration_duel_reads_the_field_you_turn_up_in() -> None:
    state, ui = seated("concentration", seat=1, preset="duel")
    state.apply(0, 0)  # seat 0 turns up A1 of its field; seat 1 answers in its own
    view = state.view(1)
    assert ui.parse("a1", state.legal(1), view) == 52
    with pytest.raises(BadInput, match="not in the field"):
        ui.parse("1", state.legal(1), view)
    lines = ui.draw(view, 1)
    assert "  Your field (you turn up here)" in lines and "  Seat 0's field" in lines


def test_memorandum_answers() -> None:
    _, ui = seated("memorandum", players=3)
    legal = (Say.MINE, Say.PASS)
    for text in ("m", "M", "mine", "Mine!", "y", "yes", "1"):
        assert ui.parse(text, legal) is Say.MINE
    for text in ("p", "pass", "n", "no", "2"):
        assert ui.parse(text, legal) is Say.PASS
    with pytest.raises(BadInput, match='type m for "Mine!" or p to pass'):
        ui.parse("maybe", legal)


def test_animals_calls_by_name_or_noise() -> None:
    state, ui = seated("animals", seat=1, players=4)
    legal = state.legal(1)
    assert ui.parse("", legal) == QUIET
    assert ui.parse("quiet", legal) == QUIET
    assert ui.parse("woof", legal) == call(0)
    assert ui.parse("Dog", legal) == call(0)
    assert ui.parse("roar!", legal) == call(3)
    with pytest.raises(BadInput, match="that is you"):
        ui.parse("miaow", legal)


def test_dig_cards_and_namings() -> None:
    state, ui = seated("dig")
    seat = state.to_act()[0]
    legal, view = state.legal(seat), state.view(seat)
    ui.seat = seat
    playable = legal[0]
    assert ui.parse(playable[1].lower(), legal, view) == playable
    held = {str(c) for c in view.hand}
    outside = next(c for c in ("AS", "KD", "7C", "2H", "9S") if c not in held)
    with pytest.raises(BadInput, match=f"you do not hold {outside}"):
        ui.parse(outside, legal, view)
    naming = tuple(("name", code) for code in ("C", "D", "H", "S", "A", "10", "Q"))
    assert ui.parse("spades", naming) == ("name", "S")
    assert ui.parse("s", naming) == ("name", "S")
    assert ui.parse("♥", naming) == ("name", "H")
    assert ui.parse("queens", naming) == ("name", "Q")
    assert ui.parse("10", naming) == ("name", "10")
    assert ui.parse("ace", naming) == ("name", "A")
    with pytest.raises(BadInput, match="not a suit or a rank"):
        ui.parse("zz", naming)


def test_bundle_card_code_picks_the_move() -> None:
    _, ui = seated("old-mans-bundle")
    legal = (("steal", "7H"), ("trail", "7H"), ("take", "9C"), ("trail", "9C"))
    with pytest.raises(BadInput, match="'steal with 7H', 'trail 7H'"):
        ui.parse("7h", legal)
    assert ui.parse("trail 7h", legal) == ("trail", "7H")
    assert ui.parse("steal", legal) == ("steal", "7H")
    assert ui.parse("1", legal) == ("steal", "7H")
    with pytest.raises(BadInput, match="you do not hold 2S"):
        ui.parse("2s", legal)
    single = (("take", "7H", "7C"), ("take", "7H", "7S"), ("trail", "7H"))
    assert ui.parse("take 7s with 7h", single) == ("take", "7H", "7S")


def test_frogs_card_codes() -> None:
    state, ui = seated("frogs-in-the-pond")
    state.apply(state.to_act()[0], state.legal(state.to_act()[0])[0])  # the deal
    seat = state.to_act()[0]
    ui.seat = seat
    legal, view = state.legal(seat), state.view(seat)
    card = legal[-1]
    assert ui.parse(str(card).lower(), legal, view) == card
    assert ui.parse(f"play {card}", legal, view) == card


def test_paved_places_and_combinations() -> None:
    state, ui = seated("paved-with-gold")
    legal = state.legal(0)
    assert ui.parse("b3", legal) == ("look", 7)
    assert ui.parse("pair", legal) == ("claim", "pair", ())
    state.apply(0, ("look", 7))
    state.apply(0, ("look", 8))
    legal = state.legal(0)
    assert ui.parse("run", legal) == ("claim", "run", (7, 8))
    assert ui.parse("back", legal) == ("put-back",)
    assert ui.parse("five of a colour", legal)[1] == "five-of-a-colour"
    lines = ui.draw(state.view(0), 0)
    assert any("*" in line for line in lines)  # the held cards, marked


def test_cuckoo_stand_or_change() -> None:
    _, ui = seated("cuckoo", players=6)
    from arena.games.cuckoo.table import Say as CuckooSay

    legal = (CuckooSay.STAND, CuckooSay.CHANGE)
    assert ui.parse("s", legal) is CuckooSay.STAND
    assert ui.parse("c", legal) is CuckooSay.CHANGE
    assert ui.parse("swap", legal) is CuckooSay.CHANGE
    assert ui.parse("d", (CuckooSay.STAND, CuckooSay.DRAW)) is CuckooSay.DRAW


def test_generic_interface_for_a_game_without_one() -> None:
    @dataclasses.dataclass(frozen=True)
    class View:
        hand: tuple[Any, ...]
        pile_sizes: tuple[int, ...]
        top: Any

    ui = interface_for("no-such-game")
    view = View((parse_card("7H"), parse_card("QS")), (3, 4), None)
    lines = ui.draw(view, 0)
    assert lines == ["        hand: 7H QS", "  pile sizes: 3, 4", "         top: -"]
    legal = (("play", "7H"), ("play", "QS"), ("pass",))
    assert ui.choices(legal) == ["  1) play 7H   2) play QS   3) pass"]
    assert ui.parse("2", legal) == ("play", "QS")
    assert ui.parse("qs", legal) == ("play", "QS")
    assert ui.parse("pa", legal) == ("pass",)
    with pytest.raises(BadInput, match="'play' could be 'play 7H' or 'play QS'"):
        ui.parse("play", legal)
    with pytest.raises(BadInput, match="no choice 4"):
        ui.parse("4", legal)


# -- the bot, the loader and the command line ---------------------------------------------------

def test_act_raises_human_quit_for_q() -> None:
    bot = HumanBot.with_streams(io.StringIO("q\nyes\n"), io.StringIO())
    variant = find_game("dig").variant()
    state = variant.game.new_state(variant.params, 2, deal_rng(0))
    bot.start(GameInfo("dig", variant.label, variant.params_view, 0, 2, deal_rng(0)))
    from arena.api import Observation

    with pytest.raises(HumanQuit):
        bot.act(Observation(0, state.legal(0), (), state.view(0)))


def test_is_human() -> None:
    from arena.tty.human import is_human

    assert is_human("human") and is_human("bots.human:HumanBot")
    assert not is_human("greedy") and not is_human("bots.concentration.greedy:GreedyBot")


def test_loader_takes_no_parameters_for_the_streams() -> None:
    spec = resolve_bot("bots.human:HumanBot", "concentration")
    assert spec.plays("memorandum")
    with pytest.raises(BotSpecError, match="input"):
        resolve_bot("bots.human:HumanBot:input=x")


def test_arena_play_with_a_human_seat() -> None:
    result = CliRunner().invoke(app, ["play", "concentration", "-b", "bots.human:HumanBot",
                                      "-b", "greedy"], input="zz\na1\nq\ny\n")
    assert result.exit_code == 0, result.output
    assert "'zz' is not a position" in result.output
    assert "turns up" in result.output
    assert "[faults: 1]" in result.output


@pytest.mark.parametrize("typed", ["", "q\ny\n"], ids=["input-ended", "quit"])
def test_a_person_leaving_prints_no_traceback(typed: str) -> None:
    result = CliRunner().invoke(app, ["play", "concentration", "-b", "human", "-b", "greedy"],
                                input=typed)
    assert result.exit_code == 0, result.output
    assert "[faults: 1]" in result.output and "HumanQuit" in result.output  # the fault line
    assert "Traceback" not in result.output + result.stderr


# -- watching -------------------------------------------------------------------------------------

def test_show_pauses_after_each_narrated_step() -> None:
    lines: list[str] = []
    pauses: list[float] = []
    printer = ShowPrinter(lines.append, delay=0.25, sleep=pauses.append)
    variant = find_game("concentration").variant()
    play_game(variant, [RandomBot(), RandomBot()], ["a", "b"], 0, printer)
    assert pauses and set(pauses) == {0.25}
    assert len(pauses) <= len(lines)
    quiet: list[float] = []
    play_game(variant, [RandomBot(), RandomBot()], ["a", "b"], 0,
              ShowPrinter(lambda _: None, sleep=quiet.append))
    assert quiet == []
