"""A ratings table's shared ranks in plain words, with how many more deals would likely tell the
bots apart.

For two neighbours of a shared rank, with d the difference of their mus and se its standard
error (the deal-clustered one P(> next) uses), the table tells them apart once d / se reaches
the two-sided 95% quantile. If d is the true difference and se shrinks as 1/sqrt(deals) (each
deal independent evidence), that happens with probability 80% after N deals, where

    N = G · ((z_0.975 + z_0.80) · se / d)²,    G the deals played so far

(the usual sample size of a two-sided test at 5% with 80% power, e.g. Wasserman, *All of
Statistics*, 2004, ch. 10; Cohen, *Statistical Power Analysis*, 1988). The line gives N - G, the
fewest over the group's neighbours: the first split the next deals would likely bring. It is a
forecast from the spread measured now, not a promise: the difference measured from few deals
is itself uncertain. See docs/ratings.md, "Shared ranks in plain words".
"""

from __future__ import annotations

import math
from itertools import pairwise

from arena.ratings.tables import BotRow, PoolRatings
from arena.ratings.verdicts import Z95

Z80 = 0.8416212335729143
"""The normal quantile of 80%: the power the forecast is made at."""
TENFOLD = 10
"""Beyond this many times the deals played, the line says only that they are close."""
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


def more_deals(difference: float, se: float, deals: int) -> int | None:
    """How many more deals would tell two bots apart at 95% with probability 80%, if their
    difference is `difference` with standard error `se` after `deals` deals; None where no
    number would (no difference)."""
    if round(difference, 6) == 0 or deals < 1:
        return None
    if se <= 0:
        return 0
    needed = deals * ((Z95 + Z80) * se / abs(difference)) ** 2
    return max(0, math.ceil(needed - deals))


def place(rank: int) -> str:
    """'first place', 'second place', ... ('place 11' beyond the tenth)."""
    return f"{_ORDINALS[rank - 1]} place" if rank <= len(_ORDINALS) else f"place {rank}"


def _names(rows: list[BotRow]) -> str:
    names = [r.bot for r in rows]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def shared_ranks_in_words(pool: PoolRatings) -> tuple[str, ...]:
    """One line per shared rank of the table: who shares which place, and how many more deals
    would likely tell them apart; one line when every bot is told apart."""
    groups: list[list[BotRow]] = []
    for row in pool.bots:
        if groups and groups[-1][0].rank == row.rank:
            groups[-1].append(row)
        else:
            groups.append([row])
    lines = []
    for group in groups:
        if len(group) < 2:
            continue
        head = f"{_names(group)} share {place(group[0].rank)}"
        if pool.deals < 2:
            lines.append(f"{head}: after one deal the luck of the deal cannot be measured "
                         f"yet; more deals will tell")
            continue
        best: tuple[int, BotRow, BotRow] | None = None
        for above, below in pairwise(group):
            se = _spread(pool, above, below)
            more = more_deals(above.mu - below.mu, se, pool.deals)
            if more is not None and (best is None or more < best[0]):
                best = (more, above, below)
        if best is None:
            lines.append(f"{head}: they played alike, and no number of deals will tell them "
                         f"apart")
        elif best[0] > TENFOLD * pool.deals:
            lines.append(f"{head}: they are close; even {TENFOLD} times the {pool.deals} deals "
                         f"played would likely not tell them apart")
        else:
            more, above, below = best
            who = "them" if len(group) == 2 else f"{above.bot} from {below.bot}"
            lines.append(f"{head}: about {more} more deal{'s' if more != 1 else ''} would "
                         f"likely tell {who} apart")
    if not lines and len(pool.bots) > 1:
        lines.append("Every bot is told apart from the next at 95%.")
    return tuple(lines)


def _spread(pool: PoolRatings, above: BotRow, below: BotRow) -> float:
    """The standard error of two bots' difference, as P(> next) uses it."""
    found = pool.evidence.spread(above.bot, below.bot) if pool.evidence is not None else None
    return math.hypot(above.sigma, below.sigma) if found is None else found
