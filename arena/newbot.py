"""`arena new-bot`: a commented, working bot file to start from, and a small tournament for it.

`write_bot("my_bot", "concentration", folder)` writes `folder/my_bot.py` (class `MyBot`) from the
game's template, and `folder/my_bot.toml`, a tournament of the new bot against the game's
bundled bots; `next_steps` gives the three commands that try it (validate, play, run). Every
registered game has a template: a bot that plays a sound but plainly improvable rule (it beats
`random` and loses to the game's best bundled bot, and is no copy of any bundled bot; the tests
check all three), with comments on what it sees and a FIRST IMPROVEMENT comment naming the rule
of the game that makes the first change pay. A game without a template of its own gets the
generic one (random legal actions).
"""

from __future__ import annotations

import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path

from arena.engine import find_game
from arena.errors import ArenaError

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
"""A bot name: a letter, then letters, digits, '_' or '-' (it names the file and the class)."""

DEALS = 10
"""Deals in the new bot's tournament (each played in every rotation of the seats)."""


class NewBotError(ArenaError):
    """A new bot that cannot be written: a bad name, or a file that already exists."""


@dataclass(frozen=True)
class Template:
    """A game's bot template and the bundled bots it is tried against."""

    source: str
    opponents: tuple[str, ...]
    players: int | None = None


def class_name(name: str) -> str:
    """The class a bot name gets: `my_bot` -> `MyBot`, `clever` -> `CleverBot`."""
    words = [w for w in re.split(r"[_-]+", name) if w]
    joined = "".join(w[0].upper() + w[1:] for w in words)
    return joined if joined.lower().endswith("bot") else joined + "Bot"


def check_name(name: str) -> str:
    """The bot name, without a '.py' suffix; NewBotError unless it makes a good file and class."""
    stem = name.removesuffix(".py")
    if not NAME.fullmatch(stem):
        raise NewBotError(f"bot name {name!r}: use a letter, then letters, digits, '_' or '-' "
                          f"(at most 64), e.g. my_bot")
    cls = class_name(stem)
    if cls in RESERVED:
        raise NewBotError(f"bot name {name!r}: its class would be {cls!r}, a name the bot file "
                          f"already uses; choose another name")
    return stem


def config_path(path: Path) -> Path:
    """The tournament config written beside a new bot file."""
    return path.with_suffix(".toml")


def write_bot(name: str, game: str, folder: Path) -> Path:
    """Write `<name>.py` (the game's template) and `<name>.toml` (its tournament) into
    `folder`; returns the bot file. Existing files are never overwritten."""
    stem = check_name(name)
    found = find_game(game)
    template = TEMPLATES.get(found.name, _generic(found.name))
    path = folder / f"{stem}.py"
    config = config_path(path)
    for target in (path, config):
        if target.exists():
            raise NewBotError(f"{target}: already exists; choose another name or move it away")
    cls = class_name(stem)
    play = _wrapped(_play_command(template, found.name, f"{path.name}:{cls}"), "    ")
    source = (template.source.replace("__ABOUT__", ABOUT).replace("__PLAY__", play)
              .replace("__CLASS__", cls)
              .replace("__FILE__", path.name).replace("__GAME__", found.name))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(source.lstrip("\n"), encoding="utf-8")
    config.write_text(_config_text(stem, cls, path.name, found.name, template), encoding="utf-8")
    return path


def next_steps(path: Path, game: str) -> list[str]:
    """The three commands that try a new bot: validate it, watch it play, run its tournament."""
    found = find_game(game)
    template = TEMPLATES.get(found.name, _generic(found.name))
    spec = f"{path}:{class_name(path.stem)}"
    return [f"arena validate {shlex.quote(spec)} --game {found.name}",
            _play_command(template, found.name, spec),
            f"arena run {shlex.quote(str(config_path(path)))}"]


def _play_command(template: Template, game: str, spec: str) -> str:
    """`arena play` with the new bot in seat 0 and bundled bots in the other seats."""
    seats = " ".join(f"-b {b}" for b in _table(template, game)[1:])
    return f"arena play {game} -b {shlex.quote(spec)} {seats} --show"


def _wrapped(command: str, indent: str, width: int = 96) -> str:
    """A shell command over several lines (continued with a backslash) to fit `width`."""
    lines: list[str] = []
    line = ""
    for word in command.split(" -b "):
        piece = word if not line else f"-b {word}"
        if line and len(indent) + len(line) + len(piece) + 3 > width:
            lines.append(line + " \\")
            line = "    " + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return f"\n{indent}".join(lines)


def _players(template: Template, game: str) -> int:
    """Seats at the new bot's table: the template's, else the fewest the game allows (two at
    least)."""
    if template.players is not None:
        return template.players
    return max(2, find_game(game).variant().params.players_allowed().start)


def _table(template: Template, game: str) -> list[str]:
    """The new bot (as '') and the bundled bots filling the rest of a table, in turn."""
    players = _players(template, game)
    return ["", *[template.opponents[i % len(template.opponents)] for i in range(players - 1)]]


def _config_text(stem: str, cls: str, file_name: str, game: str, template: Template) -> str:
    players = _players(template, game)
    config_name = shlex.quote(str(Path(file_name).with_suffix(".toml")))
    paragraphs = [
        f"A small tournament for {cls} (made by `arena new-bot`): your bot against the bundled "
        f"{game} bots at tables of {players}, on {DEALS} deals of the standard openings book, "
        f"each deal played once per rotation of the seats. docs/config.md describes every key.",
        f"Run it with `arena run {config_name}` (from this folder). The results go to "
        f"results/{stem}/ under the folder you run it from: `arena ratings results/{stem}` "
        f"shows them again and `arena report results/{stem}` draws them."]
    header = "#\n".join("".join(f"# {line}\n" for line in textwrap.wrap(p, width=96))
                        for p in paragraphs)
    bots = "".join(f'\n[[bots]]\nspec = "{b}"\n'
                   for b in dict.fromkeys([*template.opponents, "random"]))
    return header + f"""
name = "{stem}"
seating = "rotations"

[deals]
list = "standard"
count = {DEALS}

# Your bot. The path is relative to this file; a bot that is not bundled plays sandboxed.
[[bots]]
name = "{stem}"
spec = "{file_name}:{cls}"
{bots}
[[games]]
game = "{game}"
players = {players}
variants = ["standard"]
"""


def _generic(game: str) -> Template:
    return Template(GENERIC.replace("__GAME__", game).replace("__ABOUT__", GENERIC_ABOUT),
                    ("random",))


ABOUT = ("This bot plays a sound but simple strategy: it beats `random` and loses to the best\n"
         "bundled bot. The comment marked FIRST IMPROVEMENT says what to change first, and which\n"
         "rule of the game makes it pay; \"Where to improve next\" goes on from there.")
"""What the header of every game's own template says about the bot."""

GENERIC_ABOUT = ("This game has no template of its own yet: this bot plays random legal actions,\n"
                 "and the game's rules page is where a strategy starts.")
"""What the header of the generic template says about the bot."""

RESERVED = frozenset({"Bot", "GameInfo", "Observation", "Recall", "Card", "Any", "ClassVar",
                      "Action", "Event"})
"""Names the templates import: a bot class may not take one of them."""

HEADER = '''
r"""__CLASS__: a bot for __GAME__, made by `arena new-bot` to be improved.

Try it from the folder that holds this file:

    arena validate __FILE__:__CLASS__ --game __GAME__
    __PLAY__

The arena makes a fresh bot for every game, calls start(info) once, act(obs) each time the bot
must decide (return one of obs.legal), and end(result) when the game is over. The player API is
in docs/bot-api.md, the rules of the game in docs/rules/__GAME__.md.

__ABOUT__
"""

from __future__ import annotations
'''

CONCENTRATION = HEADER + '''
from typing import Any, ClassVar

from arena.api import Bot, GameInfo, Observation, Recall, Reveal
from arena.cards import Card
from arena.games.concentration import ConcentrationView, MatchRule, cards_match


class __CLASS__(Bot):
    """Remembers the cards it turns up itself: takes a set it knows, else turns up a card it
    has not seen. It forgets what the others turn up: the first thing to improve."""

    # The games this bot plays; the arena will not seat it at any other.
    games: ClassVar[tuple[str, ...]] = ("concentration",)

    def start(self, info: GameInfo) -> None:
        """Read the variant and start with an empty memory."""
        # Bot.start keeps `info` as self.info and the bot's own random generator as self.rng.
        # Use self.rng for every random choice, never the `random` module: it is seeded from
        # the deal and the seat, so the same game always replays the same way.
        super().start(info)
        # info.params holds the variant's parameters as plain values. "match" says which cards
        # pair ("rank-colour" by default; "rank", "opposite-colour", "identical"); "set_size"
        # is 2, or 4 in four-of-a-kind. info.seat is this bot's seat, info.players the count.
        self.rule = MatchRule(info.params["match"])
        self.set_size = int(info.params["set_size"])
        # Remembering is the bot's job: an observation carries only what happened since this
        # bot last decided. Recall keeps "position -> card last seen there" from those events.
        self.recall: Recall[Card] = Recall()

    def act(self, obs: Observation[Any]) -> int:
        """Choose the position to turn up next: one of obs.legal."""
        # obs.events lists what this seat saw since its last decision, oldest first:
        # Reveal(seat, position, card) for every card turned up by anyone, Claim when a set is
        # taken (its positions leave the table), Miss when cards go face down again, Move when
        # face-down cards change places (the "moving" variant). Recall follows them all.
        #
        # FIRST IMPROVEMENT: remember the cards the others turn up too. This bot keeps only the
        # Reveals of its own seat, so it forgets half of what it sees. In Concentration every
        # card turned up is shown to all the players (docs/rules/concentration.md), so
        # `self.recall.update(obs.events)` would remember them all, at no cost.
        self.recall.update([e for e in obs.events
                            if not isinstance(e, Reveal) or e.seat == obs.seat])
        # obs.view is the table now. view.cells[p] is a Card while face up this turn, a Back
        # while face down, None once taken; view.face_up lists this turn's cards in order;
        # view.scores, view.turn, view.field (the positions you may use: your own in the duel).
        view: ConcentrationView = obs.view
        up = [card for card in (view.cells[p] for p in view.face_up) if isinstance(card, Card)]
        # obs.legal holds the positions this seat may turn up now. Return one of them: anything
        # else is a fault, and a fault forfeits the game.
        known = {p: card for p, card in self.recall.cards.items() if p in obs.legal}

        # cards_match(a, b, rule) says whether two cards pair under this variant's rule.
        if up:
            # Part of a set is face up: complete it if we remember a card that matches.
            for p, card in known.items():
                if all(cards_match(card, other, self.rule) for other in up):
                    return p
        else:
            # Nothing is face up yet: start on a set we know all the cards of.
            for p, card in known.items():
                mates = [q for q, other in known.items()
                         if q != p and cards_match(card, other, self.rule)]
                if len(mates) >= self.set_size - 1:
                    return p

        # Otherwise explore: turn up a card we have never seen.
        # Where to improve next:
        # - When the first card of a turn is new and its mate unknown, turning up a known card
        #   second (a "0-move") shows the others only one new card; docs/strategy.md works out
        #   when that beats turning up another unseen card (the bundled `optimal` does it).
        # - Towards the end, count the cards still unseen: the last few pairs can be certain.
        # - With moving cards, a Move event whose swaps is None means memory may be stale.
        unseen = [p for p in obs.legal if p not in known]
        return self.rng.choice(unseen or list(obs.legal))
'''

PAVED_WITH_GOLD = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, GameInfo, Observation, Recall
from arena.cards import Card
from arena.games.paved_with_gold import (
    BEST_FIRST,
    Aces,
    ComboRules,
    PavedView,
    Phase,
    Spot,
    actions,
)


class __CLASS__(Bot):
    """Perfect memory: claims the best combination it knows for sure, else looks at a card it
    has not seen and puts it back."""

    games: ClassVar[tuple[str, ...]] = ("paved-with-gold",)

    def start(self, info: GameInfo) -> None:
        """Learn the variant's run rules; nothing seen yet."""
        super().start(info)  # keeps self.info and self.rng (use it for every random choice)
        self.rules = ComboRules(Aces(info.params["aces"]), bool(info.params["suited_runs"]))
        # Your own looks arrive as Reveal events only you see; cards that leave the square
        # arrive as Won and Bonus events (both are Remove events). Recall follows them.
        self.recall: Recall[Card] = Recall()
        self.plan: list[int] = []  # the places still to turn up for the claim being made

    def act(self, obs: Observation[Any]) -> Action:
        """Look, claim, turn up or put back, depending on the phase of the turn."""
        self.recall.update(obs.events)
        view: PavedView = obs.view
        # The cards we remember that still lie face down in the square.
        known = {p: c for p, c in self.recall.cards.items() if view.cells[p] is Spot.DOWN}
        if view.phase is Phase.LOOK:
            return self.start_turn(obs, view, known)
        if view.phase is Phase.HOLD:
            return self.holding(obs, view, known)
        if view.phase is Phase.TURN_UP:
            for p in self.plan:  # the next card of our plan that is not face up yet
                if actions.turn_up(p) in obs.legal:
                    return actions.turn_up(p)
        if view.phase is Phase.BONUS_TO:  # three players: a false claim's cards go to...
            return min(obs.legal, key=lambda a: view.scores[a[1]])  # ...the lowest scorer
        return self.rng.choice(obs.legal)

    def start_turn(self, obs: Observation[Any], view: PavedView,
                   known: dict[int, Card]) -> Action:
        """Pick up the first card of a known combination, or end the game, or explore."""
        places = list(known)
        # FIRST IMPROVEMENT: hold out for the big combinations. This bot claims the best one it
        # knows now, often a pair. In David Parlett's *Paved with Gold* a pair scores 4 for two
        # cards and five of a colour 25 for five (docs/rules/paved-with-gold.md,
        # "Combinations"): cards are the scarce resource, so while a bigger combination can
        # still be made from the cards in play, spending two on a pair gives points away.
        found = self.rules.find([known[p] for p in places])
        if found is not None:
            return actions.look(places[found[1][0]])
        down = [p for p, cell in enumerate(view.cells) if cell is Spot.DOWN]
        if (actions.END_ACTION in obs.legal and len(known) == len(down)
                and not self.rules.any_combo(list(known.values()))):
            return actions.END_ACTION  # we know every card left and none combine
        unseen = [a for a in obs.legal if a[0] == actions.LOOK and a[1] not in known]
        looks = [a for a in obs.legal if a[0] == actions.LOOK]
        # Where to improve next: watch which places the others look at twice (they are building
        # a combination there), and with the stock empty, end the game when you are ahead.
        return self.rng.choice(unseen or looks or list(obs.legal))

    def holding(self, obs: Observation[Any], view: PavedView, known: dict[int, Card]) -> Action:
        """Claim the best combination the held cards complete with known ones, else put back."""
        held = [p for p, _ in view.hand]  # view.hand: the cards you hold, as (place, card)
        places = held + list(known)
        cards = [c for _, c in view.hand] + list(known.values())
        # Only a combination bigger than what you hold may be claimed (an accidental pair of two
        # picked-up cards never scores), and it must use every card you hold.
        combos = [c for c in BEST_FIRST if c.size > len(held)]
        found = self.rules.find(cards, combos, must=range(len(held)))
        if found is not None:
            combo, indices = found
            claim = actions.claim(combo, tuple(held))
            if claim in obs.legal:
                self.plan = [places[i] for i in indices if places[i] not in held]
                return claim
        # Holding one card: look at a second one we have not seen (two looks a turn learn more).
        unseen = [a for a in obs.legal if a[0] == actions.LOOK and a[1] not in known]
        return self.rng.choice(unseen) if unseen else actions.PUT_BACK_ACTION
'''

MEMORANDUM = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, GameInfo, Observation
from arena.cards import Card, Colour, Rank
from arena.games.memorandum import DealStarted, HandDealt, MemorandumView, Say


class __CLASS__(Bot):
    """Remembers its hand as rank and colour ("a red seven") and says "Mine!" for every card
    that fits: all of its own cards, and now and then a twin that is somebody else's."""

    games: ClassVar[tuple[str, ...]] = ("memorandum",)

    def start(self, info: GameInfo) -> None:
        """Nothing remembered yet."""
        super().start(info)  # keeps self.info and self.rng (use it for every random choice)
        self.hand: set[tuple[Rank, Colour | None]] = set()

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when it is our turn to deal; otherwise claim the called card if it fits."""
        for event in obs.events:
            if isinstance(event, DealStarted):
                self.hand = set()  # a new deal: last deal's hand is gone
            elif isinstance(event, HandDealt):
                # Your hand is shown once, in this private event, and never again: what you
                # keep of it is up to you. event.cards are Card objects (print one: 7H).
                #
                # FIRST IMPROVEMENT: keep the cards themselves, `set(event.cards)`, not their
                # rank and colour. With only "a red seven" in mind this bot also claims the
                # 7D when it holds the 7H. In David Parlett's *Memorandum* a card claimed by
                # two players goes to the dispute pile and is worth p points (p = the players
                # at the table) to its real owner instead of 1: a wrong "Mine!" is a gift to
                # the owner (docs/rules/memorandum.md, "Scoring a deal").
                self.hand = {(card.rank, card.colour) for card in event.cards}
        if Say.DEAL in obs.legal:  # the dealer's only action
            return Say.DEAL
        view: MemorandumView = obs.view  # view.called is the card waiting for claims
        called: Card | None = view.called
        assert called is not None
        # Where to improve next: with exact memory, the others' claims (Resolved events) show
        # who claims cards that are not theirs; docs/rules/memorandum.md ("The dispute rule")
        # shows when a false "Mine!" costs the others more than it costs you (the bundled
        # `chancer` plays that way).
        return Say.MINE if (called.rank, called.colour) in self.hand else Say.PASS
'''

ANIMALS = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.animals import QUIET, AnimalsView, Faced, call, partners


class __CLASS__(Bot):
    """Watches its own cards only: when the card it has just faced matches another player's top
    card, calls that player; otherwise keeps quiet."""

    games: ClassVar[tuple[str, ...]] = ("animals",)

    def act(self, obs: Observation[Any]) -> Action:
        """After every faced card: call a matching player's animal, or keep quiet."""
        # obs.legal is QUIET or call(seat) for every other player still in. All seats answer
        # at once; the first right call heard (by lot among the right calls) takes the named
        # player's whole up-pile, and a wrong call pays them a card.
        view: AnimalsView = obs.view  # tops (top card of each up-pile), piles, packs, places
        # Every decision follows one Faced(seat, number, card) event: the card just faced.
        faced = [e for e in obs.events if isinstance(e, Faced)]
        mine = bool(faced) and faced[-1].seat == obs.seat
        # FIRST IMPROVEMENT: watch every faced card, not only your own. A match is made by
        # either of its two cards: when another player faces a card that matches YOUR top
        # card, they call you and take your pile unless you call them too (right calls are
        # heard by lot): in *Animals or Menagerie* both players of a match race to call. Drop
        # the `mine` test.
        matching = partners(view.tops, obs.seat, view.places) if mine else []
        # Where to improve next: when several players match, name the one with the biggest
        # up-pile (view.piles), as the bundled `animals-sharp` does.
        return call(matching[0]) if matching else QUIET
'''

CUCKOO = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.cuckoo import CuckooView, Say

STAND = 7  # stand on a seven or better (the middle of the pack); change below it
DEALER_STAND = 2  # the dealer draws only on an ace (see act)


class __CLASS__(Bot):
    """Stands on a seven or better and changes below it; as the dealer, draws only on an ace,
    since a dealer who draws a king pays alone."""

    games: ClassVar[tuple[str, ...]] = ("cuckoo",)

    def act(self, obs: Observation[Any]) -> Action:
        """Deal, or stand, or change with the player at the left (the dealer: draw)."""
        if Say.DEAL in obs.legal:  # the dealer about to deal has this one action
            return Say.DEAL
        view: CuckooView = obs.view  # card: your own card; order, turns, chips, kings shown
        assert view.card is not None
        if Say.DRAW in obs.legal:
            # The dealer goes last and may draw from the pack: about one draw in thirteen is
            # a king, and then the dealer pays alone (docs/rules/cuckoo.md, "Showdown"). An
            # ace is the lowest card or tied for it, so with an ace the draw is worth the risk.
            return Say.DRAW if view.card.rank < DEALER_STAND else Say.STAND
        # FIRST IMPROVEMENT: move the bar with the number of players still in. With many
        # players the lowest card is nearly always an ace or a two, so a four is safe; with two
        # or three left it is a coin toss around the seven (docs/rules/cuckoo.md, "Playing
        # well"). Count the players still in (view.chips) and set the bar from it; the dealer,
        # who sees every turn, can do the same with view.turns.
        # Where to improve next: the player at your right who changed with you gave you the
        # card they did not want and now holds yours (docs/rules/cuckoo.md, "Playing well").
        return Say.STAND if view.card.rank >= STAND else Say.CHANGE
'''

DIG = HEADER + '''
from collections import Counter
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.cards import Rank
from arena.games.dig import WILD, DigView, Phase, actions


class __CLASS__(Bot):
    """Keeps its eights for when nothing else follows and sheds the suit it holds most of;
    after an eight, names the rank it holds most of (or, where ranks may not be named, its
    longest suit)."""

    games: ClassVar[tuple[str, ...]] = ("dig",)

    def act(self, obs: Observation[Any]) -> Action:
        """Play a card, or name a suit or rank after playing an eight."""
        view: DigView = obs.view  # hand, top (the pile's top card), suit and rank to follow
        # What we hold of each suit and rank, eights left out.
        rest = [c for c in view.hand if c.rank is not WILD]
        suits = Counter(c.suit for c in rest)
        ranks = Counter(c.rank for c in rest)
        if view.phase is Phase.NAME:
            # obs.legal holds ("name", "H") for each suit and, in `standard`, ("name", "Q") for
            # each rank; actions.read_name gives the Suit or Rank. A rank has four cards and a
            # suit thirteen, so the opponent follows a named rank far less often: name the
            # rank we hold most of, so that we can follow it ourselves.
            def held(action: Action) -> tuple[bool, int]:
                named = actions.read_name(action)
                if isinstance(named, Rank):
                    return (True, ranks[named])
                return (False, suits[named])
            return max(obs.legal, key=held)
        # obs.legal lists ("play", "7H") for every card that may be played now (a player who
        # cannot follow digs from the stock automatically); actions.read_play gives its Card.
        cards = [(actions.read_play(a), a) for a in obs.legal]
        # Eights are wild: keep them for the turn nothing else follows.
        plain = [(c, a) for c, a in cards if c.rank is not WILD] or cards
        # FIRST IMPROVEMENT: read the opponent's digs, and play and name toward what they lack.
        # A player who digs (a Dug event) or passes could not follow: in Dig they then hold no
        # card of the suit and rank asked for, and no eight (docs/rules/dig.md).
        # Where to improve next: count the cards not yet seen to judge how likely they are to
        # follow, and press harder when they are down to a card or two (`dig-sharp` does).
        return max(plain, key=lambda card_action: suits[card_action[0].suit])[1]
'''

FROGS = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.cards import Card
from arena.games.frogs_in_the_pond import CARD_POINTS, FrogsView, Say, power, winning_play


def points(card: Card) -> int:
    """What the card counts when won: ten 10, five 5, ace 4, king 3, queen 2, jack 1."""
    return CARD_POINTS.get(card.rank, 0)


class __CLASS__(Bot):
    """Leads its highest card; following, takes the trick with its lowest winning card when it
    can, else throws the card that counts least."""

    games: ClassVar[tuple[str, ...]] = ("frogs-in-the-pond",)

    def act(self, obs: Observation[Any]) -> Action:
        """Deal when dealing; else play a card to the trick."""
        if Say.DEAL in obs.legal:
            return Say.DEAL
        # obs.legal holds the cards you may play: the suit led if you have it, else any.
        view: FrogsView = obs.view  # hand, trick (seat, card) so far, sides, tricks_won, totals
        cards: list[Card] = [c for c in obs.legal if isinstance(c, Card)]
        if not view.trick:
            return max(cards, key=power)  # leading: our strongest card (ace high)
        # Every trick won also takes a frog from the pond, so a trick is worth having even
        # with no counters in it. winning_play(trick) is the (seat, card) winning it so far.
        _, best = winning_play(view.trick)
        winners = [c for c in cards if c.suit is best.suit and power(c) > power(best)]
        if winners:
            return min(winners, key=power)
        # FIRST IMPROVEMENT: never overtake your partner; throw them your tens and fives. With
        # four players, seats 0 and 2 are partners (view.sides): when your partner is winning
        # the trick, feed it counters, as the traditional rules advise partners
        # (docs/rules/frogs-in-the-pond.md).
        # Where to improve next: count the cards played (Played events) to know which of yours
        # are masters, and lead those; keep tens back until they are sure to win.
        return min(cards, key=lambda c: (points(c), power(c)))
'''

OLD_MANS_BUNDLE = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.old_mans_bundle import BundleView, Verb, actions


class __CLASS__(Bot):
    """Steals the opponent's bundle when it can, else takes in the most cards, else trails its
    lowest card."""

    games: ClassVar[tuple[str, ...]] = ("old-mans-bundle",)

    def act(self, obs: Observation[Any]) -> Action:
        """Steal, take or trail."""
        # obs.legal holds ("take", "7H"), ("steal", "7H") and ("trail", "7H") actions;
        # actions.read turns one into a Move with its verb, card and target.
        view: BundleView = obs.view  # hand, table, tops and sizes of both bundles, stock
        moves = [(actions.read(a), a) for a in obs.legal]
        steals = [a for m, a in moves if m.verb is Verb.STEAL]
        if steals:
            return steals[0]
        takes = [(sum(t.rank == m.card.rank for t in view.table), a)
                 for m, a in moves if m.verb is Verb.TAKE]
        if takes:
            return max(takes, key=lambda t: t[0])[1]
        # FIRST IMPROVEMENT: protect your bundle's top card. The opponent steals the bundle
        # whole by playing a card of the rank of its top card (the rules of Stealing the Old
        # Man's Bundle, docs/rules/old-mans-bundle.md). Every card that leaves a hand is shown,
        # so the cards you have not seen are the opponent's hand and the stock: among the
        # takes, choose the one whose new top card they are least likely to hold, and trail
        # what they can take least.
        trails = [(m.card.rank, a) for m, a in moves]
        return min(trails, key=lambda t: t[0])[1]
'''

CRIBBAGE_SQUARE = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.cribbage_square import SquareView


def _pip(rank: int) -> int:
    return min(rank, 10)  # court cards count ten toward fifteens


class __CLASS__(Bot):
    """Lays each card where it pairs with, or makes fifteen with, the most cards already in its
    row and its column."""

    games: ClassVar[tuple[str, ...]] = ("cribbage-square",)

    def act(self, obs: Observation[Any]) -> Action:
        """Choose a place (row, col) from obs.legal for the card turned up."""
        view: SquareView = obs.view  # card (to lay now), cells (your square), layouts, number
        card = view.card
        assert card is not None

        def fit(place: tuple[int, int]) -> int:
            row, col = place
            lines = [c for (r, k), c in view.cells if r == row or k == col]
            pairs = sum(c.rank == card.rank for c in lines)
            fifteens = sum(_pip(c.rank) + _pip(card.rank) == 15 for c in lines)
            return pairs + fifteens

        # FIRST IMPROVEMENT: count runs and flushes, not only pairs and fifteens. Every row and
        # column is scored as a cribbage hand with the starter: fifteens, pairs, runs, a flush
        # (*Patience Games*, "analogous to the very popular Poker Patience";
        # docs/rules/cribbage-square.md).
        # hand_points(line, starter) from arena.games.cribbage_square scores a full line.
        # Where to improve next: weigh the cards still to come (52 less those seen) and keep
        # places open for them; docs/rules/cribbage-square.md describes square-search.
        return max(obs.legal, key=fit)
'''

GENERIC = HEADER + '''
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation


class __CLASS__(Bot):
    """Plays a random legal action: a starting point for a real strategy."""

    games: ClassVar[tuple[str, ...]] = ("__GAME__",)

    def act(self, obs: Observation[Any]) -> Action:
        """Choose one of obs.legal."""
        # obs.legal: what you may do now; obs.events: what you saw happen since your last
        # decision (remembering it is your job); obs.view: the table as your seat sees it.
        # The game's rules page lists its actions, events and view.
        return self.rng.choice(obs.legal)
'''

TEMPLATES: dict[str, Template] = {
    "concentration": Template(CONCENTRATION, ("greedy", "optimal")),
    "paved-with-gold": Template(PAVED_WITH_GOLD, ("prospector", "prospector-forgetful")),
    "memorandum": Template(MEMORANDUM, ("chancer", "elephant", "goldfish")),
    "animals": Template(ANIMALS, ("animals-sharp", "animals-simple")),
    "cuckoo": Template(CUCKOO, ("cuckoo-sharp", "cuckoo-simple")),
    "dig": Template(DIG, ("dig-sharp", "dig-simple")),
    "frogs-in-the-pond": Template(FROGS, ("frogs-sharp", "frogs-simple"), players=4),
    "old-mans-bundle": Template(OLD_MANS_BUNDLE, ("bundle-sharp", "bundle-simple")),
    "cribbage-square": Template(CRIBBAGE_SQUARE, ("square-search", "square-greedy")),
}
"""The template of each game, by game name."""


# -- a bot in another language (`arena new-bot --lang`): the reference clients as starters ------


@dataclass(frozen=True)
class Language:
    """A language a new bot may be written in over the line protocol (docs/protocol.md): its
    starter file (one of the reference clients, shipped with the arena), the command that runs
    it, and the step that builds it, if any."""

    source: str
    command: str
    build: str = ""


LANGUAGES: dict[str, Language] = {
    "c": Language("c/bot.c", "./bot", "cc -O2 -o bot bot.c"),
    "js": Language("js/bot.js", "node bot.js"),
    "python-stdio": Language("python-stdio/bot.py", "python3 -u bot.py"),
}
"""`arena new-bot --lang` choices (`python`, the default, writes a Python class instead)."""


def write_program_bot(name: str, game: str, folder: Path, lang: str) -> Path:
    """Write a folder `folder/<name>/` holding a bot in `lang` (its source, from the reference
    client) and its `bot.toml`; returns the folder, which is the bot's spec. Nothing existing is
    overwritten."""
    from importlib.resources import files

    stem = check_name(name)
    found = find_game(game)
    language = LANGUAGES.get(lang)
    if language is None:
        raise NewBotError(f"unknown language {lang!r} (known: python, {', '.join(LANGUAGES)})")
    target = folder / stem
    if target.exists():
        raise NewBotError(f"{target}: already exists; choose another name or move it away")
    source = files("arena.protocol").joinpath("starters", *language.source.split("/"))
    target.mkdir(parents=True)
    file_name = language.source.rpartition("/")[2]
    (target / file_name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    if file_name.endswith((".py", ".js")):
        (target / file_name).chmod(0o755)
    (target / "bot.toml").write_text(
        f'name = "{stem}"\ncommand = "{language.command}"\ngames = ["{found.name}"]\n'
        + (f"# build first, in this folder: {language.build}\n" if language.build else ""),
        encoding="utf-8")
    return target


def program_next_steps(target: Path, game: str, lang: str) -> list[str]:
    """The commands that try a new bot in another language: build it (C), validate it, play it."""
    found = find_game(game)
    language = LANGUAGES[lang]
    spec = shlex.quote(str(target) if "/" in str(target) else f"./{target}")
    steps = [f"(cd {shlex.quote(str(target))} && {language.build})"] if language.build else []
    return [*steps, f"arena validate {spec} --game {found.name}",
            f"arena play {found.name} -b {spec} -b random --games 10"]
