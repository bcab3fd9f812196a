#!/usr/bin/env node
// A Card Arena bot over the line protocol (docs/protocol.md), for Node, no packages.
//
// Every game: a random legal move. Concentration: greedy with a perfect memory, move for move
// the bundled `greedy` (its random draws are Python's: MT19937 seeded from `seed_words`).
"use strict";
const readline = require("readline");

// Python's random: MT19937 seeded by init_by_array, and randrange(n)
class PythonRandom {
  constructor(key) {
    const mt = new Uint32Array(624);
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) {
      mt[i] = Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    }
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.mt = mt;
    this.index = 624;
  }
  next32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11; y ^= (y << 7) & 0x9d2c5680; y ^= (y << 15) & 0xefc60000; y ^= y >>> 18;
    return y >>> 0;
  }
  randbelow(n) {  // the top bit_length(n) bits, retried until below n
    const k = 32 - Math.clz32(n);
    let r;
    do { r = this.next32() >>> (32 - k); } while (r >= n);
    return r;
  }
}

const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
const isJoker = (card) => card.startsWith("JK");
const rankOf = (card) => (isJoker(card) ? 0 : RANKS[card.slice(0, -1)] || Number(card.slice(0, -1)));
const isRed = (card) => "DH".includes(card.slice(-1));

class Greedy {
  constructor(params, rng) {
    this.rule = params.match;
    this.setSize = params.set_size;
    this.duel = params.duel;
    this.rng = rng;
    this.known = new Map();  // position -> match key, in the order first seen
  }
  key(card) {
    if (isJoker(card)) return -1;
    const rank = rankOf(card);
    if (this.rule === "rank") return rank;
    if (this.rule === "identical") return rank * 8 + "CDHS".indexOf(card.slice(-1));
    return rank * 2 + (isRed(card) ? 1 : 0);
  }
  mate(key) { return this.rule === "opposite-colour" && key >= 0 ? key ^ 1 : key; }
  matches(a, b) {
    if (isJoker(a) || isJoker(b)) return isJoker(a) && isJoker(b);
    if (rankOf(a) !== rankOf(b)) return false;
    if (this.rule === "rank") return true;
    if (this.rule === "rank-colour") return isRed(a) === isRed(b);
    if (this.rule === "opposite-colour") return isRed(a) !== isRed(b);
    return a.slice(-1) === b.slice(-1);
  }
  update(events) {
    for (const ev of events) {
      const kind = ev.layout || ev.kind;
      if (kind === "reveal") this.known.set(ev.position, this.key(ev.card));
      else if (kind === "remove") ev.positions.forEach((p) => this.known.delete(p));
      else if (kind === "move") {
        for (const [a, b] of ev.swaps || []) {
          const ka = this.known.get(a), kb = this.known.get(b);
          this.known.delete(a); this.known.delete(b);
          if (ka !== undefined) this.known.set(b, ka);
          if (kb !== undefined) this.known.set(a, kb);
        }
      }
    }
  }
  knownSet(field) {
    const items = [...this.known].filter(([p]) => !this.duel || field.has(p));
    if (this.setSize === 2) {
      const firsts = new Map();
      for (const [p, key] of items) {
        if (this.rule === "opposite-colour") {
          if (firsts.has(this.mate(key))) return firsts.get(this.mate(key));
          firsts.set(key, p);
        } else if (firsts.has(key)) return firsts.get(key);
        else firsts.set(key, p);
      }
      return null;
    }
    const buckets = new Map();
    for (const [p, key] of items) {
      const bucket = buckets.get(key) || [];
      bucket.push(p);
      buckets.set(key, bucket);
      if (bucket.length === this.setSize) return bucket[0];
    }
    return null;
  }
  act(msg) {
    this.update(msg.events);
    const { legal, view } = msg;
    const field = new Set(view.field), up = view.face_up;
    if (up.length) {
      const cards = up.map((p) => view.cells[p]);
      const possible = cards.every((a, i) => cards.slice(i + 1).every((b) => this.matches(a, b)));
      if (cards.length === 1 || possible) {
        const wanted = this.mate(this.key(cards[0]));
        for (const [p, key] of this.known) {
          if (key === wanted && field.has(p) && !up.includes(p) && legal.includes(p)) {
            return legal.indexOf(p);
          }
        }
      }
    } else {
      const found = this.knownSet(field);
      if (found !== null) return legal.indexOf(found);
    }
    const unseen = legal.filter((p) => !this.known.has(p));
    const pool = unseen.length ? unseen : legal;
    return legal.indexOf(pool[this.rng.randbelow(pool.length)]);
  }
}

class RandomMoves {
  constructor(rng) { this.rng = rng; }
  act(msg) { return this.rng.randbelow(msg.legal.length); }
}

let strategy = null;
readline.createInterface({ input: process.stdin, terminal: false }).on("line", (line) => {
  const msg = JSON.parse(line);
  let reply = { ok: true };
  if (msg.type === "act") reply = { index: strategy.act(msg) };
  else if (msg.type === "start") {
    const rng = new PythonRandom(msg.seed_words);
    strategy = msg.game === "concentration" ? new Greedy(msg.parameters, rng) : new RandomMoves(rng);
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
