/* The arena's board: draws one moment of a game, as one view saw it, in a player's words.
   Shared by the replay page (replay.js) and the live table (arena/table/table.js). Every text it
   inserts goes in through textContent; it never parses data as HTML. */
var ArenaBoard = (function () {
  "use strict";
  var CARD = /^(10|[2-9AJQK])[CDHS]$|^JK[A-Z]?$/;
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var SUIT_NAMES = {C: "clubs", D: "diamonds", H: "hearts", S: "spades"};
  var RANKS = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"};

  /* Each field of a view in the words of the game's rules page ("": not shown, as it is drawn
     elsewhere or only the engine needs it). A field no table names is shown by its own name. */
  var COMMON = {players: "", phase: "", to_act: "", seat: "", role: "", field: "", rows: "",
                cols: "", number: "", turn: "turn", dealer: "dealer", deal: "deal",
                deals: "deals in the game", scores: "score", totals: "points", stock: "stock",
                hand: "your hand"};
  var WORDS = {
    "concentration": {scores: "score", turn: "turns played"},
    "paved-with-gold": {bonus: "bonus", points: "points", claim: "claim being made",
                        out: "out of play", claim_positions: ""},
    "cribbage-square": {card: "card to place", starter: "starter", placement: "", layouts: ""},
    "memorandum": {called: "called card", deal: "deal", hand_size: "cards in a hand",
                   pack_size: "", received: "cards you got", unclaimed: "unclaimed pile",
                   disputed: "dispute pile", totals: "points", deals: ""},
    "animals": {animals: "", animal: "animal", tops: "up-pile", piles: "up-pile", packs: "pack",
                places: "finished", facer: "", faces: "cards faced", limit: "", dealer: ""},
    "cuckoo": {chips: "chips", shown: "card shown", turned: "this deal", king: "king shown",
               deal_limit: "", order: "", card: "your card", deal: "deal"},
    "old-mans-bundle": {table: "table", tops: "bundle top", bundles: "bundle",
                        hands: "cards in hand", round: "round", rounds: "", turn: ""},
    "dig": {top: "upcard", hands: "cards in hand", pile: "pile", turn: ""},
    "frogs-in-the-pond": {sides: "", leader: "leads", trick: "trick", last_trick: "last trick",
                          last_winner: "", frogs: "your frogs", frogs_left: "frogs in the pond",
                          tricks_won: "tricks won", totals: "points", target: "game to",
                          tadpole: "", removed: "out of play", number: "trick"}
  };
  /* Fields that count cards ("12 cards"), and fields that name a seat (shown by its name). */
  var COUNTS = {piles: 1, packs: 1, hands: 1, bundles: 1, stock: 1, pile: 1, frogs_left: 1,
                hand_size: 1};
  var SEAT_FIELDS = {dealer: 1, leader: 1, last_winner: 1, facer: 1};
  /* The actions in the rules' words. */
  var ACTION_WORDS = {
    "stand": "stand", "change": "change", "draw": "draw", "deal": "deal",
    "mine": "Mine!", "pass": "keep quiet", "quiet": "keep quiet", "call": "call",
    "play": "play", "name": "name", "trail": "trail", "take": "take in", "steal": "steal",
    "look": "look at", "turn-up": "turn up", "claim": "claim", "end": "end the turn",
    "put-back": "put back"
  };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function isCard(x) { return typeof x === "string" && CARD.test(x); }
  function cardText(x) {
    return x.indexOf("JK") === 0 ? "\u2605" + x.slice(2) : x.slice(0, -1) + SUITS[x.charAt(x.length - 1)];
  }

  /* A card face up, a card's back (a string naming it), or an empty place (null). */
  function card(x, extra) {
    var node;
    if (isCard(x)) {
      var suit = x.charAt(x.length - 1);
      var joker = x.indexOf("JK") === 0;
      node = el("span", "card" + (joker ? " joker" : (suit === "H" || suit === "D") ? " red" : ""), cardText(x));
      node.setAttribute("data-card", x);
      node.title = x;
    } else if (x === null || x === undefined || x === "empty" || x === "taken") {
      node = el("span", "card gone", "");
    } else {
      node = el("span", "card back back-" + String(x).replace(/[^a-z0-9-]/gi, ""), "");
      node.title = "face down";
    }
    if (extra) node.className += " " + extra;
    return node;
  }
  function cards(list, cls) {
    var row = el("span", "cards" + (cls ? " " + cls : ""));
    (list || []).forEach(function (c) { add(row, card(c)); });
    if (!list || !list.length) add(row, el("span", "none", "none"));
    return row;
  }
  function field(box, label, node) {
    var row = add(box, el("div", "field"));
    add(row, el("span", "label", label));
    add(row, node);
    return row;
  }
  function grid(cells, cols, mark) {
    var g = el("div", "grid");
    g.style.gridTemplateColumns = "repeat(" + cols + ", auto)";
    cells.forEach(function (c, i) { var node = add(g, card(c, mark ? mark(i, c) : "")); node.setAttribute("data-pos", i); });
    return g;
  }
  /* A place of a layout as the rules name it: row letter and column number (B7). */
  function place(p, cols) { return String.fromCharCode(65 + Math.floor(p / cols)) + (p % cols + 1); }

  /* The board's words for a field of `game`'s view. */
  function word(game, k) {
    var own = WORDS[game] || {};
    if (k in own) return own[k];
    if (k in COMMON) return COMMON[k];
    return k.replace(/_/g, " ");
  }

  function Board(game, seats) {
    this.game = game;
    this.seats = seats;
  }
  Board.prototype.value = function (x, k) {
    var self = this;
    if (k && SEAT_FIELDS[k] && typeof x === "number") return el("span", "text", this.seats[x] === undefined ? x : this.seats[x]);
    if (k && COUNTS[k] && typeof x === "number") return el("span", "text", x + (x === 1 ? " card" : " cards"));
    if (isCard(x)) return card(x);
    if (Array.isArray(x)) {
      if (!x.length) return el("span", "none", "none");
      if (x.every(isCard)) return cards(x);
      var list = el("span", "list");
      x.forEach(function (v, i) { if (i) add(list, el("span", "punct", ", ")); add(list, self.value(v)); });
      return list;
    }
    if (x !== null && typeof x === "object") {
      var obj = el("span", "list");
      Object.keys(x).forEach(function (key) { add(obj, el("span", "key", word(self.game, key) + ": ")); add(obj, self.value(x[key], key)); add(obj, el("span", "punct", " ")); });
      return obj;
    }
    if (x === true) return el("span", "text", "yes");
    if (x === false) return el("span", "text", "no");
    return el("span", "text", x === null ? "\u2014" : x);
  };
  /* An action as a player would say it, cards drawn as cards. */
  Board.prototype.action = function (a, v) {
    var self = this, node = el("span", "action");
    var cols = (v && v.cols) || 5;
    function part(x, i, whole) {
      if (isCard(x)) { add(node, card(x, "small")); return; }
      if (typeof x === "string" && x in ACTION_WORDS && i === 0) { add(node, el("span", "", ACTION_WORDS[x] + " ")); return; }
      if (typeof x === "string" && SUIT_NAMES[x]) { add(node, el("span", "", SUITS[x] + " " + SUIT_NAMES[x] + " ")); return; }
      if (typeof x === "number") {
        if (whole[0] === "call") { add(node, el("span", "", (v && v.animals ? v.animals[x] + " (" + self.seats[x] + ")" : self.seats[x]) + " ")); return; }
        if (whole[0] === "name") { add(node, el("span", "", "rank " + (RANKS[x] || x) + " ")); return; }
        if (self.game === "concentration" || self.game === "paved-with-gold") { add(node, el("span", "", place(x, cols) + " ")); return; }
        add(node, el("span", "", x + " ")); return;
      }
      if (Array.isArray(x)) {
        if (x.length === 2 && typeof x[0] === "number" && typeof x[1] === "number" && self.game === "cribbage-square") { add(node, el("span", "", "row " + x[0] + ", column " + x[1] + " ")); return; }
        x.forEach(function (y, j) { part(y, j + 1, x); });
        return;
      }
      add(node, el("span", "", String(x).replace(/-/g, " ") + " "));
    }
    if (this.game === "cribbage-square" && Array.isArray(a) && a.length === 2 && typeof a[0] === "number") {
      add(node, el("span", "", "lay at row " + a[0] + ", column " + a[1]));
      return node;
    }
    if (isCard(a)) { add(node, el("span", "", "play ")); add(node, card(a, "small")); return node; }
    if (typeof a === "number") { add(node, el("span", "", "turn " + place(a, cols))); return node; }
    if (Array.isArray(a)) a.forEach(function (x, i) { part(x, i, a); }); else part(a, 0, [a]);
    return node;
  };
  /* What an action points at on the board: a position, a card, a cell (row,column). */
  Board.prototype.targets = function (a) {
    var found = [];
    (function walk(x, top) {
      if (typeof x === "number") found.push("pos:" + x);
      else if (isCard(x)) found.push("card:" + x);
      else if (Array.isArray(x)) {
        if (top && x.length === 2 && typeof x[0] === "number" && typeof x[1] === "number") found.push("rc:" + x[0] + "," + x[1]);
        else x.forEach(function (y) { walk(y, false); });
      }
    })(a, true);
    return found;
  };

  function seatBox(ctx, wrap, i) {
    var box = add(wrap, el("div", "seat"));
    box.setAttribute("data-seat", i);
    if (ctx.next.indexOf(i) >= 0) box.className += " to-act";
    if (ctx.acted.indexOf(i) >= 0) box.className += " acted";
    add(box, el("div", "name", ctx.seats[i] + (ctx.you === i ? " (you)" : "")));
    return box;
  }
  Board.prototype.seatBoxes = function (board, v, names, used, ctx, ring) {
    var self = this, n = ctx.seats.length;
    var keys = names.filter(function (k) { return Array.isArray(v[k]) && v[k].length === n; });
    var wrap = add(board, el("div", ring ? "ring" + (n > 10 ? " crowded" : "") : "seats"));
    ctx.seats.forEach(function (name, i) {
      var box = seatBox(ctx, wrap, i);
      if (ring) {
        var a = 2 * Math.PI * i / n - Math.PI / 2;
        box.style.left = (50 + (n > 10 ? 45 : 40) * Math.cos(a)) + "%";
        box.style.top = (50 + 42 * Math.sin(a)) + "%";
      }
      keys.forEach(function (k) {
        used[k] = 1;
        var label = word(self.game, k);
        /* round a ring, what a seat has not (no king shown) is left out: twenty seats fit */
        if (label && !(ring && v[k][i] === null)) field(box, label, self.value(v[k][i], k));
      });
    });
    return wrap;
  };
  Board.prototype.rest = function (board, v, used) {
    /* Whatever a renderer did not draw itself, in the rules' words. */
    var self = this;
    var keys = Object.keys(v).filter(function (k) { return !used[k] && word(self.game, k); });
    if (!keys.length) return;
    var box = add(board, el("div", "details"));
    keys.forEach(function (k) { field(box, word(self.game, k), self.value(v[k], k)); });
  };
  /* This moment's events that name cards: every card the view was shown now is on the board. */
  function justNow(board, ctx) {
    var shown = [];
    ctx.events.concat(ctx.told || []).forEach(function (e) {
      (function walk(x) {
        if (isCard(x)) { if (shown.indexOf(x) < 0) shown.push(x); }
        else if (Array.isArray(x)) x.forEach(walk);
        else if (x && typeof x === "object") Object.keys(x).forEach(function (k) { if (k !== "kind") walk(x[k]); });
      })(e);
    });
    if (!shown.length) return;
    var box = add(board, el("div", "just-now"));
    field(box, "just now", cards(shown));
  }

  var RENDER = {
    "concentration": function (board, v, used, ctx) {
      var up = v.face_up || [], lo = 0, hi = (v.cells || []).length;
      /* `field`: where the next card may be turned (in the duel, one player's half) */
      var m = /range\((\d+), (\d+)\)/.exec(v.field || "");
      if (m) { lo = Number(m[1]); hi = Number(m[2]); }
      /* the cards this step turned up stay in sight, and both cards of a miss stay face up on
         the step the second was turned, as the table saw them */
      var turned = {}, cells = (v.cells || []).slice(), size = (v.rows || 4) * (v.cols || 13);
      var reveals = ctx.history("reveal");
      ctx.events.forEach(function (e) {
        if (e && e.kind === "reveal") { turned[e.position] = "up"; cells[e.position] = e.card; }
        if (e && e.kind === "miss") {
          (e.positions || []).forEach(function (p) {
            for (var r = reveals.length - 1; r >= 0; r--) {
              if (reveals[r].position === p) { cells[p] = reveals[r].card; turned[p] = "up missed"; break; }
            }
          });
        }
      });
      for (var f = 0; f < cells.length; f += size) {
        var g = add(board, grid(cells.slice(f, f + size), v.cols || 13, function (i) {
          var p = i + f;
          return (turned[p] || (up.indexOf(p) >= 0 ? "up" : "")) + (p < lo || p >= hi ? " outside" : "");
        }));
        g.className += " field layout";
        Array.prototype.forEach.call(g.children, function (node, i) { node.setAttribute("data-pos", i + f); });
      }
      ctx.events.forEach(function (e) {
        if (e && e.kind === "miss") add(board, el("div", "note", "no pair: both cards go face down again"));
      });
      ["cells", "cols", "rows", "face_up", "field"].forEach(function (k) { used[k] = 1; });
      this.seatBoxes(board, v, ["scores"], used, ctx);
      var sets = ctx.history("claim"), box = add(board, el("div", "taken"));
      add(box, el("div", "label", "pairs taken"));
      ctx.seats.forEach(function (name, i) {
        var row = field(box, name, el("span"));
        sets.filter(function (e) { return e.seat === i; }).forEach(function (e) { row.appendChild(cards(e.cards, "set")); });
      });
    },
    "paved-with-gold": function (board, v, used, ctx) {
      var self = this, held = {};
      (v.hand || []).forEach(function (p) { held[p[0]] = p[1]; });
      var claim = v.claim_positions || [];
      if (v.cells) add(board, grid(v.cells.map(function (c, i) { return i in held ? held[i] : c; }), 5,
        function (i) { return (i in held ? "held up" : "") + (claim.indexOf(i) >= 0 ? " claimed" : ""); })).className += " layout";
      used.cells = used.hand = used.claim_positions = 1;
      var side = add(board, el("div", "center"));
      if ("stock" in v) { used.stock = 1; field(side, "stock", self.value(v.stock, "stock")); }
      if ("claim" in v) { used.claim = 1; if (v.claim) field(side, "claim being made", self.value(v.claim)); }
      if ("out" in v) { used.out = 1; field(side, "out of play", cards(v.out)); }
      this.seatBoxes(board, v, ["scores", "points", "bonus"], used, ctx);
      var won = ctx.history("won"), box = add(board, el("div", "taken"));
      add(box, el("div", "label", "claims won"));
      ctx.seats.forEach(function (name, i) {
        var row = field(box, name, el("span"));
        won.filter(function (e) { return e.seat === i; }).forEach(function (e) {
          row.appendChild(cards(e.cards, "set"));
          row.appendChild(el("span", "text", String(e.combo).replace(/-/g, " ") + " " + e.points + "  "));
        });
      });
    },
    "cribbage-square": function (board, v, used, ctx) {
      var wrap = add(board, el("div", "seats"));
      (v.layouts || []).forEach(function (cells, s) {
        var box = seatBox(ctx, wrap, s), rows = [], cols = [], at2 = {};
        cells.forEach(function (pc) { rows.push(pc[0][0]); cols.push(pc[0][1]); at2[pc[0][0] + "," + pc[0][1]] = pc[1]; });
        /* the square may still grow to any side by as much as it lacks of four */
        var r0 = Math.min.apply(null, rows.concat([0])), c0 = Math.min.apply(null, cols.concat([0]));
        var r1 = Math.max.apply(null, rows.concat([0])), c1 = Math.max.apply(null, cols.concat([0]));
        var open = s === ctx.you && cells.length < 16;
        if (open) { var dr = 3 - (r1 - r0), dc = 3 - (c1 - c0); r0 -= dr; r1 += dr; c0 -= dc; c1 += dc; }
        else { r1 = Math.max(r1, r0 + 3); c1 = Math.max(c1, c0 + 3); }
        var score = ctx.history("scored").filter(function (e) { return e.seat === s; })[0];
        var g = add(box, el("div", "grid layout"));
        g.style.gridTemplateColumns = "repeat(" + (c1 - c0 + 2) + ", auto)";
        for (var r = r0; r <= r1; r++) {
          for (var c = c0; c <= c1; c++) add(g, card(at2[r + "," + c] || null)).setAttribute("data-rc", s === ctx.you ? r + "," + c : "");
          add(g, el("span", "sum", score && score.rows ? score.rows[r - r0] : ""));
        }
        for (var c2 = c0; c2 <= c1; c2++) add(g, el("span", "sum", score && score.columns ? score.columns[c2 - c0] : ""));
        add(g, el("span", "sum total", score ? score.total : ""));
      });
      used.layouts = used.seat = 1;
      var side = add(board, el("div", "center"));
      if ("card" in v) { used.card = 1; if (v.card) field(side, "card to place", card(v.card, "big")); }
      if ("starter" in v) { used.starter = 1; field(side, "starter", card(v.starter)); }
    },
    "memorandum": function (board, v, used, ctx) {
      var self = this, side = add(board, el("div", "center"));
      used.called = 1; field(side, "called card", v.called ? card(v.called, "big") : self.value(null));
      ["unclaimed", "disputed"].forEach(function (k) { if (k in v) { used[k] = 1; field(side, word(self.game, k), cards(v[k])); } });
      var claims = ctx.history("resolved"), last = claims[claims.length - 1];
      if (last) {
        var row = field(side, "last call", card(last.card));
        add(row, el("span", "text", " " + (last.claimants.length ? "Mine! from " + last.claimants.map(function (s) { return ctx.seats[s]; }).join(", ") : "nobody said Mine!") + " \u2192 " + last.pile));
      }
      this.seatBoxes(board, v, ["received", "totals"], used, ctx);
    },
    "animals": function (board, v, used, ctx) {
      if (v.animals) { used.animals = 1; v.animal = v.animals; }
      this.seatBoxes(board, v, ["animal", "tops", "piles", "packs", "places"], used, ctx);
      used.animal = 1;
      var calls = ctx.history("called"), box = add(board, el("div", "center"));
      add(box, el("div", "label", "calls (" + calls.length + ")"));
      calls.slice(-4).reverse().forEach(function (c) {
        add(box, el("div", "text", ctx.seats[c.seat] + " called " + (v.animals ? v.animals[c.named] + " (" + ctx.seats[c.named] + ")" : ctx.seats[c.named]) + ": " + c.verdict));
      });
    },
    "cuckoo": function (board, v, used, ctx) {
      var byTurn = {}, kings = {};
      (v.turns || []).forEach(function (t) { byTurn[t[0]] = t[1]; });
      (v.kings || []).forEach(function (k) { kings[k[0]] = k[1]; });
      v.turned = ctx.seats.map(function (_, i) { return i in byTurn ? byTurn[i] : null; });
      v.king = ctx.seats.map(function (_, i) { return i in kings ? kings[i] : null; });
      used.turns = used.kings = 1;
      var ring = this.seatBoxes(board, v, ["chips", "shown", "turned", "king"], used, ctx, true);
      var mid = add(ring, el("div", "middle"));
      if ("card" in v) { used.card = 1; if (v.card) field(mid, ctx.you === null ? "card" : "your card", card(v.card, "big")); }
      if ("dealer" in v) { used.dealer = 1; field(mid, "dealer", this.value(v.dealer, "dealer")); }
      used.turned = used.king = 1;
    },
    "old-mans-bundle": function (board, v, used, ctx) {
      var side = add(board, el("div", "center"));
      used.table = 1; field(side, "table", cards(v.table));
      if ("stock" in v) { used.stock = 1; field(side, "stock", this.value(v.stock, "stock")); }
      ctx.events.forEach(function (e) {
        if (e && (e.kind === "took" || e.kind === "stole")) {
          var row = field(side, e.kind === "took" ? "taken in" : "stolen", cards([e.card].concat(e.taken || [])));
          if (e.kind === "stole") add(row, el("span", "text", " a bundle of " + e.count + " cards"));
        }
      });
      this.seatBoxes(board, v, ["tops", "bundles", "hands"], used, ctx);
    },
    "dig": function (board, v, used, ctx) {
      var side = add(board, el("div", "center"));
      if ("top" in v) { used.top = 1; field(side, "upcard", card(v.top, "big")); }
      used.suit = used.rank = 1;
      if (v.phase === "name") {
        field(side, "to follow", el("span", "text", "an eight: its player names a suit or a rank"));
      } else if (v.suit && v.rank !== null && v.rank !== undefined) {
        field(side, "to follow", el("span", "text", SUITS[v.suit] + " " + SUIT_NAMES[v.suit] + " or rank " + (RANKS[v.rank] || v.rank) + ", or an eight"));
      } else if (v.suit || v.rank) {
        field(side, "named", el("span", "text", (v.suit ? SUITS[v.suit] + " " + SUIT_NAMES[v.suit] : "rank " + (RANKS[v.rank] || v.rank)) + " (or an eight)"));
      }
      ["stock", "pile"].forEach(function (k) { if (k in v) { used[k] = 1; field(side, k, this.value(v[k], k)); } }, this);
      ctx.events.forEach(function (e) {
        if (e && e.kind === "dug") add(side, el("div", "note", ctx.seats[e.seat] + " dug " + e.count + (e.count === 1 ? " card" : " cards") + " from the stock"));
      });
      this.seatBoxes(board, v, ["hands"], used, ctx);
    },
    "frogs-in-the-pond": function (board, v, used, ctx) {
      var self = this, side = add(board, el("div", "center"));
      used.trick = used.last_trick = used.last_winner = 1;
      var won = ctx.events.filter(function (e) { return e && e.kind === "trick-won"; })[0];
      if (won && (!v.trick || !v.trick.length) && v.last_trick) {
        /* a trick stays on the table until it is taken: here, the step it was won */
        add(field(side, "trick", plays(v.last_trick, ctx)), el("span", "text", " taken by " + ctx.seats[won.seat]));
      } else {
        field(side, "trick", plays(v.trick || [], ctx));
        if (v.last_trick && v.last_trick.length) add(field(side, "last trick", plays(v.last_trick, ctx)), el("span", "text", v.last_winner !== null && v.last_winner !== undefined ? " won by " + ctx.seats[v.last_winner] : ""));
      }
      ["frogs", "removed"].forEach(function (k) {
        if (k in v) { used[k] = 1; field(side, word(self.game, k), cards(v[k])); }
      });
      this.seatBoxes(board, v, ["tricks_won", "totals"], used, ctx);
      var taken = ctx.history("frog-taken"), box = add(board, el("div", "taken"));
      add(box, el("div", "label", "frogs taken (" + taken.length + ")"));
      ctx.seats.forEach(function (name, i) {
        field(box, name, el("span", "text", taken.filter(function (e) { return e.seat === i; }).length));
      });
    }
  };
  /* Cards played by seats, as [seat, card] pairs in play order. */
  function plays(list, ctx) {
    var row = el("span", "cards");
    (list || []).forEach(function (p) {
      var one = add(row, el("span", "play"));
      add(one, card(p[1]));
      add(one, el("span", "by", ctx.seats[p[0]]));
    });
    if (!list || !list.length) add(row, el("span", "none", "none"));
    return row;
  }

  /* Draw view `v` into `board`. ctx: seats, you (a seat number or null), events (this
     moment's public events), told (those told to `you` alone), history(kind) (public events
     of that kind so far), next and acted (seats), before (the same view a moment earlier). */
  Board.prototype.draw = function (board, v, ctx) {
    var used = {};
    board.textContent = "";
    var render = RENDER[this.game];
    if (render) render.call(this, board, v, used, ctx);
    if ("hand" in v) {
      used.hand = 1;
      if (v.hand.length === 0 || isCard(v.hand[0]) || v.hand[0] === null) {
        var had = ctx.before && Array.isArray(ctx.before.hand) ? ctx.before.hand : null;
        var row = cards(v.hand);
        if (had) Array.prototype.forEach.call(row.children, function (node) {
          var c = node.getAttribute("data-card");
          if (c && had.indexOf(c) < 0) node.className += " new";
        });
        field(add(board, el("div", "hand")), "your hand", row);
      } else used.hand = 0;
    }
    justNow(board, ctx);
    this.rest(board, v, used);
  };
  /* Mark on the board what each legal action points at (class `legal`), and the chosen one
     (`chosen`); return, per element, the actions pointing at it. */
  Board.prototype.mark = function (board, legal, chosen) {
    var self = this, at = {};
    legal.forEach(function (a, i) {
      self.targets(a).forEach(function (t) {
        var kind = t.slice(0, t.indexOf(":")), key = t.slice(t.indexOf(":") + 1);
        var selector = kind === "pos" ? ".layout [data-pos=\"" + key + "\"]"
          : kind === "card" ? ".hand [data-card=\"" + key + "\"]" : ".layout [data-rc=\"" + key + "\"]";
        Array.prototype.forEach.call(board.querySelectorAll(selector), function (node) {
          node.classList.add("legal");
          if (i === chosen) node.classList.add("chosen");
          (at[t] = at[t] || []).push(i);
          node.setAttribute("data-target", t);
        });
      });
    });
    return at;
  };
  /* A decision's legal actions as the page keeps them: a list, or a text of runs of numbers. */
  function legalList(form) {
    if (typeof form !== "string") return form;
    var out = [];
    form.split(" ").forEach(function (run) {
      var ends = run.split("-").map(Number);
      for (var i = ends[0]; i <= ends[ends.length - 1]; i++) out.push(i);
    });
    return out;
  }

  return {Board: Board, el: el, add: add, card: card, cards: cards, field: field,
          isCard: isCard, legalList: legalList, cardText: cardText};
}());
