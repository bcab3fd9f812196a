#!/usr/bin/env python3
"""A Card Arena bot over the line protocol (docs/protocol.md), standard library only.

Every game: a random legal move. Concentration: greedy with a perfect memory, move for move the
bundled `greedy` (its random choices come from the same seed: `random.Random(bytes.fromhex(seed))`).
Run it as `arena play concentration cmd:clients/python-stdio/bot.py` or name its folder.
"""

import json
import random
import sys

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank_of(card):
    """A card's rank value (1 to 13), 0 for a joker."""
    if card.startswith("JK"):
        return 0
    return RANKS.get(card[:-1]) or int(card[:-1])


def match_key(card, rule):
    """The card's match key (as the arena's Concentration defines it)."""
    if card.startswith("JK"):
        return -1
    rank, suit = rank_of(card), card[-1]
    if rule == "rank":
        return rank
    if rule == "identical":
        return rank * 8 + "CDHS".index(suit)
    return rank * 2 + (suit in "DH")


def mate_key(key, rule):
    """The key of the cards that match a card with key `key`."""
    return key ^ 1 if rule == "opposite-colour" and key >= 0 else key


def is_card(cell):
    return isinstance(cell, str) and cell not in ("plain", "red", "blue")


class Greedy:
    """Takes a remembered set; else a remembered mate of what is face up; else explores."""

    def __init__(self, params, rng):
        self.rule = params["match"]
        self.set_size = int(params["set_size"])
        self.duel = bool(params["duel"])
        self.rng = rng
        self.known = {}  # position -> match key, in the order first seen

    def update(self, events):
        known = self.known
        for ev in events:
            kind = ev.get("layout", ev["kind"])
            if kind == "reveal":
                known[ev["position"]] = match_key(ev["card"], self.rule)
            elif kind == "remove":
                for p in ev["positions"]:
                    known.pop(p, None)
            elif kind == "move":
                for a, b in ev.get("swaps") or ():
                    ca, cb = known.pop(a, None), known.pop(b, None)
                    if ca is not None:
                        known[b] = ca
                    if cb is not None:
                        known[a] = cb

    def known_set(self, field):
        items = [(p, k) for p, k in self.known.items() if p in field] if self.duel \
            else list(self.known.items())
        if self.set_size == 2:
            firsts = {}
            for p, key in items:
                q = firsts.get(mate_key(key, self.rule)) if self.rule == "opposite-colour" \
                    else firsts.setdefault(key, p)
                if self.rule == "opposite-colour":
                    if q is not None:
                        return [q, p]
                    firsts[key] = p
                elif q != p:
                    return [q, p]
            return None
        buckets = {}
        for p, key in items:
            bucket = buckets.setdefault(key, [])
            bucket.append(p)
            if len(bucket) == self.set_size:
                return bucket
        return None

    def can_succeed(self, cards):
        def match(a, b):
            if a.startswith("JK") or b.startswith("JK"):
                return a.startswith("JK") and b.startswith("JK")
            return rank_of(a) == rank_of(b) and (
                self.rule == "rank"
                or (self.rule == "rank-colour" and (a[-1] in "DH") == (b[-1] in "DH"))
                or (self.rule == "opposite-colour" and (a[-1] in "DH") != (b[-1] in "DH"))
                or (self.rule == "identical" and a[-1] == b[-1]))
        return all(match(a, b) for i, a in enumerate(cards) for b in cards[i + 1:])

    def act(self, msg):
        self.update(msg["events"])
        view, legal = msg["view"], msg["legal"]
        field = set(view["field"])
        up = view["face_up"]
        if up:
            cards = [view["cells"][p] for p in up]
            if len(cards) == 1 or self.can_succeed(cards):
                wanted = mate_key(match_key(cards[0], self.rule), self.rule)
                for p, key in self.known.items():
                    if key == wanted and p in field and p not in up and p in legal:
                        return legal.index(p)
        else:
            found = self.known_set(field)
            if found is not None:
                return legal.index(found[0])
        unseen = [p for p in legal if p not in self.known]
        pool = unseen or legal
        return legal.index(pool[self.rng.randrange(len(pool))])


class Random:
    """A random legal move."""

    def __init__(self, rng):
        self.rng = rng

    def act(self, msg):
        return self.rng.randrange(len(msg["legal"]))


def main():
    strategy = None
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "act":
            reply = {"index": strategy.act(msg)}
        else:
            if msg["type"] == "start":
                rng = random.Random(bytes.fromhex(msg["seed"]))
                strategy = Greedy(msg["parameters"], rng) if msg["game"] == "concentration" \
                    else Random(rng)
            reply = {"ok": True}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
