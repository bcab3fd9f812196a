"""The words of the report pages and standings, explained for a reader who is not a
statistician: one list, drawn at the foot of every report page (`#glossary`) and written to
docs/glossary.md by scripts/glossary.py."""

from __future__ import annotations

import html

GLOSSARY: tuple[tuple[str, str], ...] = (
    ("game", "One game played by the bots at one table, from the deal to the last card. The "
             "ratings count games; 'matches' in older outputs means the same."),
    ("deal", "One shuffle of the cards. The same deal is played again with the seats turned "
             "(and at every table), so that no bot is luckier with the cards than another. The "
             "games of one deal share its luck, so the figures count deals, not games, as the "
             "pieces of evidence."),
    ("pool", "A game in one variant at one table size. Each pool has its own ratings: a rating "
             "in one pool says nothing about another."),
    ("rating (mu)", "TrueSkill's estimate of a bot's skill from all the pool's games at once "
                    "(called mu in the standings). Only the difference between two bots of one "
                    "pool means anything: the pool's average stays near 25."),
    ("95% interval (±)", "The range the rating is known to within, from how much the results "
                         "varied from deal to deal: if the same bots played other deals, their "
                         "ratings would land inside their intervals about 19 times out of 20. "
                         "It is the same interval in the standings, the history, the report "
                         "and the JSON (mu_ci95)."),
    ("sigma", "The standard error of a rating, relative to the pool's average: the 95% interval "
              "is about two sigmas each way (Student's t on the deals less one). Two bots' "
              "sigmas cannot be combined to judge their difference: P(> next) uses the error of "
              "the difference itself."),
    ("rank, =n", "A bot's place in the table. Bots that cannot be told apart share a rank, "
                 "shown =2: the ratings put them in an order, but the games do not show that "
                 "order to be real. The line under the table says how many more deals would "
                 "likely tell them apart."),
    ("P(> next)", "The chance that the bot is really stronger than the bot on the next row. "
                  "A new rank starts only when it is 97.5% or more (the data choose which bot "
                  "is above, so each side gets half of the 5% left)."),
    ("significant, *", "More than the luck of the deals would give, at the 95% level: about "
                       "one figure in twenty is starred by chance alone."),
    ("edge", "In the head-to-head table, the row bot's mean score advantage over the column "
             "bot per deal they both played (positive: the row bot did better)."),
    ("p", "The chance of an edge at least this large if the two bots were equal. Below 0.05, "
          "the edge is starred."),
    ("LOS", "Likelihood of superiority: the chance that the bot is the stronger of the two, from "
            "its wins and losses against the other alone."),
    ("W, D, L", "Wins (alone in first place), draws (first place shared) and losses, per seat "
                "played."),
    ("mean score", "The bot's average score per game, with its 95% interval. In solitaire the "
                   "score is the number of turns: lower is better."),
    ("faults, !", "Times a bot broke a rule of the arena (too slow, an error, an illegal move). "
                  "! marks a bot that faulted in more than the league's share of its games."),
    ("last (first) in every game, ↓ ↑", "A bot that finished last (or first) in every game it "
                                        "played: its games say it is below (above) the others, "
                                        "not by how much, so its interval is set as wide as "
                                        "one game ending otherwise would move its rating."),
    ("last (first) in every game but those of a few deals, ≈↓ ≈↑",
     "A bot that finished last (or first) in every game but those of at most a third of its "
     "deals: its rating rests on those few deals, so its interval is set at least as wide as "
     "leaving one of them out moves its rating."),
    ("progression", "The ratings as the deals were played: after the first n deals, each bot's "
                    "rating and interval. It ends on the table."),
    ("history, scale", "Each bot's rating round by round. Every round is put on the latest "
                       "round's scale: shifted by the average move of the bots whose code did "
                       "not change (or of the league's anchors), so a bot that did not change "
                       "moves only as far as its games say. A ring marks a move significant at "
                       "95%."),
    ("move, reference, anchor", "In compare: a bot's change of rating between two rounds, "
                                "measured against the reference (the bots whose code did not "
                                "change, or the anchors the organiser names) rather than the "
                                "pool's average, which moves when strong bots join."),
)
"""Each word, and what it means, in the order a reader meets them."""


def glossary_html() -> str:
    """The glossary as a page section (`#glossary`)."""
    items = "".join(f"<dt>{html.escape(term)}</dt><dd>{html.escape(text)}</dd>"
                    for term, text in GLOSSARY)
    return (f'<section id="glossary"><h2>The words used</h2><dl class="glossary">{items}'
            f"</dl></section>")


def glossary_markdown() -> str:
    """docs/glossary.md: the same words, for the docs."""
    lines = ["# The words of the standings and reports", "",
             "What the report pages, the standings and `compare` say, in plain words. Every "
             "report page shows this list at its foot (written from `arena/viewer/glossary.py` "
             "by `scripts/glossary.py`); the methods are in [ratings.md](ratings.md).", ""]
    for term, text in GLOSSARY:
        lines += [f"- **{term}**: {text}"]
    return "\n".join(lines) + "\n"
