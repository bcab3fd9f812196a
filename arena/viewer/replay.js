/* The arena's replay player: reads the page's data, draws one step of the game at a time.
   Every text it inserts goes in through textContent; it never parses data as HTML. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("arena-data").textContent);
  /* steps and views come as lists (no field name repeated): made objects once, here */
  var steps = data.steps.map(function (s) {
    var step = {};
    data.step_fields.forEach(function (k, i) { step[k] = s[i]; });
    return step;
  });
  data.shapes = data.shapes.map(function (s) {
    var view = {};
    data.fields[s[0]].forEach(function (k, i) { view[k] = s[i + 1]; });
    return view;
  });
  var pool = data.pool, seats = data.seats;
  var CARD = /^(10|[2-9AJQK])[CDHS]$|^JK[A-Z]?$/;
  var SUITS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var at = 0, viewKey = "table", timer = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function isCard(x) { return typeof x === "string" && CARD.test(x); }

  /* A card face up, a card's back (a string naming it), or an empty place (null). */
  function card(x, extra) {
    var node;
    if (isCard(x)) {
      var suit = x.charAt(x.length - 1);
      var joker = x.indexOf("JK") === 0;
      node = el("span", "card" + (joker ? " joker" : (suit === "H" || suit === "D") ? " red" : ""),
                joker ? "\u2605" + x.slice(2) : x.slice(0, -1) + SUITS[suit]);
      node.setAttribute("data-card", x);
      node.title = x;
    } else if (x === null || x === undefined || x === "empty" || x === "taken") {
      node = el("span", "card gone", "");
    } else {
      node = el("span", "card back back-" + String(x).replace(/[^a-z0-9-]/gi, ""), "");
      node.title = String(x);
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
  /* Any plain value: cards as cards, lists and objects by their parts, the rest as text. */
  /* Cards played by seats, as [seat, card] pairs in play order. */
  function plays(list) {
    var row = el("span", "cards");
    (list || []).forEach(function (p) {
      var one = add(row, el("span", "play"));
      add(one, card(p[1]));
      add(one, el("span", "by", seats[p[0]]));
    });
    if (!list || !list.length) add(row, el("span", "none", "none"));
    return row;
  }
  function value(x) {
    if (isCard(x)) return card(x);
    if (Array.isArray(x)) {
      if (!x.length) return el("span", "none", "none");
      if (x.every(isCard)) return cards(x);
      var list = el("span", "list");
      add(list, el("span", "punct", "["));
      x.forEach(function (v, i) { if (i) add(list, el("span", "punct", ", ")); add(list, value(v)); });
      add(list, el("span", "punct", "]"));
      return list;
    }
    if (x !== null && typeof x === "object") {
      var obj = el("span", "list");
      Object.keys(x).forEach(function (k) { add(obj, el("span", "key", k + ": ")); add(obj, value(x[k])); add(obj, el("span", "punct", " ")); });
      return obj;
    }
    return el("span", "text", x === null ? "\u2014" : x);
  }
  /* A pooled value; a list stored as a patch of an earlier one is rebuilt once, then kept. */
  function pooled(i) {
    var patch = data.patches[String(i)];
    if (!patch || pool[i] !== null) return pool[i];
    var list = pooled(patch[0]).slice();
    patch[1].forEach(function (change) { list[change[0]] = change[1]; });
    pool[i] = list;
    return list;
  }
  function events(step) { return step.events.map(pooled); }
  function viewOf(step, key) {
    var refs = data.shapes[step.views[key === "table" ? 0 : Number(key) + 1]] || {}, out = {};
    Object.keys(refs).forEach(function (k) { out[k] = pooled(refs[k]); });
    return out;
  }
  function field(box, label, node) {
    var row = add(box, el("div", "field"));
    add(row, el("span", "label", label));
    add(row, node);
    return row;
  }
  function perSeat(v, names) {
    /* Fields that hold one value per seat, shown in each seat's box. */
    var n = seats.length;
    return names.filter(function (k) { return Array.isArray(v[k]) && v[k].length === n; });
  }
  function seatBoxes(board, v, names, used, ring) {
    var keys = perSeat(v, names), step = steps[at];
    var wrap = add(board, el("div", ring ? "ring" : "seats"));
    seats.forEach(function (name, i) {
      var box = add(wrap, el("div", "seat"));
      box.setAttribute("data-seat", i);
      if (step.next.indexOf(i) >= 0) box.className += " to-act";
      if (step.acted.indexOf(i) >= 0) box.className += " acted";
      if (ring) {
        var a = 2 * Math.PI * i / seats.length - Math.PI / 2;
        box.style.left = (50 + 38 * Math.cos(a)) + "%";
        box.style.top = (50 + 36 * Math.sin(a)) + "%";
      }
      add(box, el("div", "name", name + (viewKey === String(i) ? " (you)" : "")));
      keys.forEach(function (k) { used[k] = 1; field(box, k.replace(/_/g, " "), value(v[k][i])); });
    });
    return wrap;
  }
  function rest(board, v, used) {
    /* Whatever a renderer did not draw itself: nothing the view holds is left out. */
    var keys = Object.keys(v).filter(function (k) { return !used[k]; });
    if (!keys.length) return;
    var box = add(board, el("div", "details"));
    keys.forEach(function (k) { field(box, k.replace(/_/g, " "), value(v[k])); });
  }
  function grid(cells, cols, mark) {
    var g = el("div", "grid");
    g.style.gridTemplateColumns = "repeat(" + cols + ", auto)";
    cells.forEach(function (c, i) { var node = add(g, card(c, mark ? mark(i, c) : "")); node.setAttribute("data-pos", i); });
    return g;
  }
  function scoredEvents(kind) {
    var found = [];
    for (var s = 0; s <= at; s++) events(steps[s]).forEach(function (e) { if (e && e.kind === kind) found.push(e); });
    return found;
  }

  var RENDER = {
    "concentration": function (board, v, used) {
      var up = v.face_up || [], lo = 0, hi = (v.cells || []).length;
      /* `field`: where the next card may be turned (in the duel, one player's half) */
      var m = /range\((\d+), (\d+)\)/.exec(v.field || "");
      if (m) { lo = Number(m[1]); hi = Number(m[2]); }
      /* the cards this step turned up stay in sight on the board, as the table saw them */
      var turned = {}, cells = (v.cells || []).slice(), size = (v.rows || 4) * (v.cols || 13);
      events(steps[at]).forEach(function (e) { if (e && e.kind === "reveal") { turned[e.position] = 1; cells[e.position] = e.card; } });
      for (var f = 0; f < cells.length; f += size) {
        var g = add(board, grid(cells.slice(f, f + size), v.cols || 13, function (i) {
          var p = i + f;
          return (up.indexOf(p) >= 0 || turned[p] ? "up" : "") + (p < lo || p >= hi ? " outside" : "");
        }));
        g.className += " field";
        Array.prototype.forEach.call(g.children, function (node, i) { node.setAttribute("data-pos", i + f); });
      }
      ["cells", "cols", "rows", "face_up", "field"].forEach(function (k) { used[k] = 1; });
      seatBoxes(board, v, ["scores"], used);
      var sets = scoredEvents("claim"), box = add(board, el("div", "taken"));
      add(box, el("div", "label", "sets taken"));
      seats.forEach(function (name, i) {
        var row = field(box, name, el("span"));
        sets.filter(function (e) { return e.seat === i; }).forEach(function (e) { row.appendChild(cards(e.cards, "set")); });
      });
    },
    "paved-with-gold": function (board, v, used) {
      var held = {};
      (v.hand || []).forEach(function (p) { held[p[0]] = p[1]; });
      var claim = v.claim_positions || [];
      if (v.cells) add(board, grid(v.cells.map(function (c, i) { return i in held ? held[i] : c; }), 5,
        function (i) { return (i in held ? "held up" : "") + (claim.indexOf(i) >= 0 ? " claimed" : ""); }));
      used.cells = used.hand = used.claim_positions = 1;
      var side = add(board, el("div", "center"));
      if ("stock" in v) { used.stock = 1; field(side, "stock", el("span", "text", v.stock + " cards")); }
      if ("claim" in v) { used.claim = 1; field(side, "claim", value(v.claim)); }
      if ("out" in v) { used.out = 1; field(side, "out of play", cards(v.out)); }
      seatBoxes(board, v, ["scores", "points", "bonus"], used);
      var won = scoredEvents("won"), box = add(board, el("div", "taken"));
      add(box, el("div", "label", "claims won"));
      seats.forEach(function (name, i) {
        var row = field(box, name, el("span"));
        won.filter(function (e) { return e.seat === i; }).forEach(function (e) {
          row.appendChild(cards(e.cards, "set"));
          row.appendChild(el("span", "text", e.combo + " " + e.points + "  "));
        });
      });
    },
    "cribbage-square": function (board, v, used) {
      var wrap = add(board, el("div", "seats"));
      (v.layouts || []).forEach(function (cells, s) {
        var box = add(wrap, el("div", "seat")), rows = [], cols = [], at2 = {};
        add(box, el("div", "name", seats[s] + (viewKey === String(s) ? " (you)" : "")));
        cells.forEach(function (pc) { rows.push(pc[0][0]); cols.push(pc[0][1]); at2[pc[0][0] + "," + pc[0][1]] = pc[1]; });
        var r0 = Math.min.apply(null, rows.concat([0])), c0 = Math.min.apply(null, cols.concat([0]));
        var r1 = Math.max.apply(null, rows.concat([r0 + 4])), c1 = Math.max.apply(null, cols.concat([c0 + 4]));
        var score = scoredEvents("scored").filter(function (e) { return e.seat === s; })[0];
        var g = add(box, el("div", "grid"));
        g.style.gridTemplateColumns = "repeat(" + (c1 - c0 + 2) + ", auto)";
        for (var r = r0; r <= r1; r++) {
          for (var c = c0; c <= c1; c++) add(g, card(at2[r + "," + c] || null));
          add(g, el("span", "sum", score && score.rows ? score.rows[r - r0] : ""));
        }
        for (var c2 = c0; c2 <= c1; c2++) add(g, el("span", "sum", score && score.columns ? score.columns[c2 - c0] : ""));
        add(g, el("span", "sum total", score ? score.total : ""));
      });
      used.layouts = 1;
      var side = add(board, el("div", "center"));
      if ("card" in v) { used.card = 1; field(side, "card to place", card(v.card)); }
      if ("starter" in v) { used.starter = 1; field(side, "starter", card(v.starter)); }
    },
    "memorandum": function (board, v, used) {
      var side = add(board, el("div", "center"));
      used.called = 1; field(side, "called", v.called ? card(v.called, "big") : value(null));
      ["unclaimed", "disputed"].forEach(function (k) { if (k in v) { used[k] = 1; field(side, k, cards(v[k])); } });
      var claims = scoredEvents("resolved"), last = claims[claims.length - 1];
      if (last) {
        var row = field(side, "last claim", card(last.card));
        add(row, el("span", "text", " " + (last.claimants.length ? "Mine! from " + last.claimants.map(function (s) { return seats[s]; }).join(", ") : "nobody claimed") + " \u2192 " + last.pile));
      }
      seatBoxes(board, v, ["received", "totals"], used);
    },
    "animals": function (board, v, used) {
      if (v.animals) { used.animals = 1; v.animal = v.animals; }
      seatBoxes(board, v, ["animal", "tops", "piles", "packs", "places"], used);
      used.animal = 1;
      var calls = scoredEvents("called"), box = add(board, el("div", "center"));
      add(box, el("div", "label", "calls (" + calls.length + ")"));
      calls.slice(-4).reverse().forEach(function (c) {
        add(box, el("div", "text", seats[c.seat] + " called " + (v.animals ? v.animals[c.named] + " (" + seats[c.named] + ")" : seats[c.named]) + ": " + c.verdict));
      });
    },
    "cuckoo": function (board, v, used) {
      var byTurn = {}, kings = {};
      (v.turns || []).forEach(function (t) { byTurn[t[0]] = t[1]; });
      (v.kings || []).forEach(function (k) { kings[k[0]] = k[1]; });
      v.turned = seats.map(function (_, i) { return i in byTurn ? byTurn[i] : null; });
      v.king = seats.map(function (_, i) { return i in kings ? kings[i] : null; });
      used.turns = used.kings = 1;
      var ring = seatBoxes(board, v, ["chips", "shown", "turned", "king"], used, true);
      var mid = add(ring, el("div", "middle"));
      if ("card" in v) { used.card = 1; field(mid, viewKey === "table" ? "card" : "your card", card(v.card, "big")); }
      used.turned = used.king = 1;
    },
    "old-mans-bundle": function (board, v, used) {
      var side = add(board, el("div", "center"));
      used.table = 1; field(side, "table", cards(v.table));
      if ("stock" in v) { used.stock = 1; field(side, "stock", el("span", "text", v.stock + " cards")); }
      seatBoxes(board, v, ["tops", "bundles", "hands"], used);
    },
    "dig": function (board, v, used) {
      var side = add(board, el("div", "center"));
      if ("top" in v) { used.top = 1; field(side, "upcard", card(v.top, "big")); }
      ["suit", "rank"].forEach(function (k) { if (k in v) { used[k] = 1; field(side, "named " + k, value(v[k])); } });
      ["stock", "pile"].forEach(function (k) { if (k in v) { used[k] = 1; field(side, k, el("span", "text", v[k] + " cards")); } });
      seatBoxes(board, v, ["hands"], used);
    },
    "frogs-in-the-pond": function (board, v, used) {
      var side = add(board, el("div", "center"));
      ["trick", "last_trick"].forEach(function (k) {
        if (k in v) { used[k] = 1; field(side, k.replace("_", " "), plays(v[k])); }
      });
      ["frogs", "removed"].forEach(function (k) {
        if (k in v) { used[k] = 1; field(side, k === "frogs" ? "your frogs" : k, cards(v[k])); }
      });
      seatBoxes(board, v, ["tricks_won", "totals"], used);
      var taken = scoredEvents("frog-taken"), box = add(board, el("div", "taken"));
      add(box, el("div", "label", "frogs taken (" + taken.length + ")"));
      seats.forEach(function (name, i) {
        field(box, name, el("span", "text", taken.filter(function (e) { return e.seat === i; }).length));
      });
    }
  };

  function draw() {
    var step = steps[at], v = viewOf(step, viewKey), used = {};
    var board = document.getElementById("board");
    board.textContent = "";
    var render = RENDER[data.game];
    if (render) render(board, v, used);
    if ("hand" in v) {
      used.hand = 1;
      if (v.hand.length === 0 || isCard(v.hand[0]) || v.hand[0] === null) field(add(board, el("div", "hand")), "your hand", cards(v.hand));
      else used.hand = 0;
    }
    rest(board, v, used);
    var counter = document.getElementById("counter");
    counter.textContent = "step " + at + " of " + (steps.length - 1);
    document.getElementById("slider").value = at;
    drawNarration(step);
    drawResult();
  }
  function drawNarration(step) {
    var box = document.getElementById("narration");
    box.textContent = "";
    var lines = step.lines.length ? step.lines.map(function (i) { return data.texts[i]; })
                                  : ["(nothing public happened)"];
    add(box, el("pre", "lines", lines.join("\n")));
    var mine = viewKey !== "table" && step.told[viewKey];
    if (mine) {
      add(box, el("div", "label", "told to you alone"));
      mine.forEach(function (e) { add(box, add(el("div", "told"), value(pooled(e)))); });
    }
    var who = el("div", "who");
    if (step.acted.length) who.textContent = "acted: " + step.acted.map(function (s) { return seats[s]; }).join(", ") + ". ";
    who.textContent += step.next.length ? "to act: " + step.next.map(function (s) { return seats[s]; }).join(", ") : "the game is over";
    add(box, who);
  }
  function drawResult() {
    var box = document.getElementById("result");
    box.textContent = "";
    if (at !== steps.length - 1) { box.hidden = true; return; }
    box.hidden = false;
    add(box, el("h2", "", "Result"));
    var table = add(box, el("table"));
    var head = add(table, el("tr"));
    ["seat", "bot", "score", "rank"].forEach(function (h) { add(head, el("th", "", h)); });
    seats.forEach(function (name, i) {
      var tr = add(table, el("tr"));
      add(tr, el("td", "", i));
      add(tr, el("td", "", name));
      var td = add(tr, el("td", "final-score", data.result.scores[i]));
      td.setAttribute("data-seat", i);
      add(tr, el("td", "", data.result.ranks[i]));
    });
    data.result.faults.forEach(function (f) {
      var fault = add(box, el("div", "fault"));
      add(fault, el("div", "", "fault: " + seats[f.seat] + " (seat " + f.seat + ") at decision " + f.decision + ": " + f.kind + ": " + f.detail));
      var out = data.result.outputs[String(f.seat)];
      if (out) add(fault, el("pre", "output", out.join("\n")));
    });
    data.differences.forEach(function (d) { add(box, el("div", "fault", d)); });
  }

  function go(i) { at = Math.max(0, Math.min(steps.length - 1, i)); draw(); }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    var button = document.getElementById("play");
    if (on) {
      if (at === steps.length - 1) go(0);
      timer = setInterval(function () { if (at >= steps.length - 1) play(false); else go(at + 1); },
                          1000 / Number(document.getElementById("speed").value));
    }
    button.textContent = timer ? "pause" : "play";
  }

  function build() {
    var head = add(document.body, el("header"));
    add(head, el("h1", "", data.title + " \u2014 " + data.variant));
    add(head, el("div", "meta", (data.task !== null ? "task " + data.task + ", " : "") + "seed " + data.seed + ": " + seats.join(" vs ")));
    if (data.differences.length) {
      var warn = add(document.body, el("div", "mismatch", "This replay differs from the record, so the page shows the replayed game: "));
      warn.id = "mismatch";
      data.differences.forEach(function (d) { add(warn, el("div", "", d)); });
    }
    var bar = add(document.body, el("nav", "controls"));
    function button(id, text, act) { var b = add(bar, el("button", "", text)); b.id = id; b.type = "button"; b.addEventListener("click", act); return b; }
    button("first", "|\u25c0", function () { play(false); go(0); }).title = "first step (Home)";
    button("back", "\u25c0", function () { play(false); go(at - 1); }).title = "step back (\u2190)";
    button("play", "play", function () { play(!timer); }).title = "play / pause (space)";
    button("forward", "\u25b6", function () { play(false); go(at + 1); }).title = "step forward (\u2192)";
    button("last", "\u25b6|", function () { play(false); go(steps.length - 1); }).title = "last step (End)";
    var slider = add(bar, el("input"));
    slider.id = "slider"; slider.type = "range"; slider.min = 0; slider.max = steps.length - 1; slider.value = 0;
    slider.addEventListener("input", function () { play(false); go(Number(slider.value)); });
    var counter = add(bar, el("span", "counter"));
    counter.id = "counter";
    counter.setAttribute("data-steps", steps.length);
    var speed = add(bar, el("select"));
    speed.id = "speed"; speed.title = "steps a second";
    [1, 2, 4, 8, 16, 32].forEach(function (n) { var o = add(speed, el("option", "", n + "/s")); o.value = n; if (n === 4) o.selected = true; });
    speed.addEventListener("change", function () { if (timer) play(true); });
    var views = add(bar, el("select"));
    views.id = "view"; views.title = "whose view";
    var o = add(views, el("option", "", "spectator (the table)")); o.value = "table";
    seats.forEach(function (name, i) { var opt = add(views, el("option", "", "seat " + i + ": " + name)); opt.value = String(i); });
    views.addEventListener("change", function () { viewKey = views.value; draw(); });
    var main = add(document.body, el("main"));
    add(main, el("section", "board")).id = "board";
    var aside = add(main, el("aside"));
    add(aside, el("h2", "", "Narration"));
    add(aside, el("div", "narration")).id = "narration";
    add(aside, el("section", "result")).id = "result";
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "SELECT") return;
      var keys = {ArrowRight: function () { play(false); go(at + 1); }, ArrowLeft: function () { play(false); go(at - 1); },
                  " ": function () { play(!timer); }, Home: function () { play(false); go(0); },
                  End: function () { play(false); go(steps.length - 1); }};
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    draw();
  }
  build();
}());
