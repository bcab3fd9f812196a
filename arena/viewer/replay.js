/* The arena's replay player: reads the page's data, draws one step of the game at a time with
   the shared board (board.js). Every text it inserts goes in through textContent. */
(function () {
  "use strict";
  var B = ArenaBoard, el = B.el, add = B.add;

  /* The data: JSON, or packed (gzip in base64, unpacked by the browser's DecompressionStream). */
  function unpack(then) {
    var tag = document.getElementById("arena-data");
    if (tag.type === "application/json") { then(JSON.parse(tag.textContent)); return; }
    var bytes = Uint8Array.from(atob(tag.textContent.trim()), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(stream).text().then(function (text) { then(JSON.parse(text)); });
  }

  function start(data) {
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
    var board = new B.Board(data.game, seats);
    var at = 0, viewKey = "table", timer = null, lineNodes = [], shownTo = -1;

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
    /* Each decision of the game: its step, seat, number (the game's, the seat's own), legal
       actions, choice, time (microseconds, where recorded) and fault. */
    var decisions = [], bySeat = seats.map(function () { return []; });
    (function () {
      var game = 0, own = seats.map(function () { return 0; });
      var faults = {};
      data.result.faults.forEach(function (f) { faults[f.decision + ":" + f.seat] = f; });
      steps.forEach(function (step, s) {
        step.decisions.forEach(function (d) {
          game += 1; own[d[0]] += 1;
          var times = data.times && data.times[d[0]];
          var one = {step: s, seat: d[0], game: game, own: own[d[0]], legal: d[1], chosen: d[2],
                     micros: times && own[d[0]] <= times.length ? times[own[d[0]] - 1] : null,
                     fault: faults[game + ":" + d[0]] || null};
          decisions.push(one);
          bySeat[d[0]].push(one);
        });
      });
    }());
    function decisionAt(s, seat) {
      return bySeat[seat].filter(function (d) { return d.step === s; })[0] || null;
    }
    function history(kind) {
      var found = [];
      for (var s = 0; s <= at; s++) events(steps[s]).forEach(function (e) { if (e && e.kind === kind) found.push(e); });
      return found;
    }
    function took(micros) {
      if (micros === null) return "time not recorded";
      if (micros < 1000) return "took " + micros + " \u00b5s";
      if (micros < 1e6) return "took " + (micros / 1000).toFixed(1) + " ms";
      return "took " + (micros / 1e6).toFixed(2) + " s";
    }

    function draw() {
      var step = steps[at], you = viewKey === "table" ? null : Number(viewKey);
      var v = viewOf(step, viewKey);
      var told = you === null ? [] : (step.told[viewKey] || []).map(pooled);
      var box = document.getElementById("board");
      board.draw(box, v, {seats: seats, you: you, events: events(step), told: told, history: history,
                          next: step.next, acted: step.acted,
                          before: at ? viewOf(steps[at - 1], viewKey) : null});
      drawDecision(box, v, you);
      document.getElementById("counter").textContent = "step " + at + " of " + (steps.length - 1);
      document.getElementById("slider").value = at;
      drawNarration(step, told);
      drawResult();
    }
    /* In a seat's view, at each of its decisions: its legal moves, its choice, time, fault. */
    function drawDecision(box, v, you) {
      var panel = document.getElementById("decision");
      panel.textContent = "";
      panel.hidden = true;
      if (you === null) return;
      var d = decisionAt(at, you);
      if (!d) return;
      panel.hidden = false;
      var legal = B.legalList(pooled(d.legal));
      add(panel, el("div", "title", "decision " + d.own + " of " + seats[you] + " (the game's " + d.game + "), " + took(d.micros)));
      var list = add(panel, el("div", "moves"));
      add(list, el("span", "label", "legal moves (" + legal.length + ")"));
      legal.forEach(function (a, i) {
        var chip = add(list, el("span", "move" + (i === d.chosen ? " chosen" : "")));
        chip.setAttribute("data-move", i);
        add(chip, board.action(a, v));
      });
      var chose = add(panel, el("div", "chose"));
      if (d.fault) {
        chose.className += " fault";
        chose.textContent = "fault: " + d.fault.kind + ": " + d.fault.detail + (d.chosen >= 0 ? " \u2014 played for it: " : "");
      } else {
        chose.textContent = d.chosen >= 0 ? "chose: " : "chose: (not recorded)";
      }
      if (d.chosen >= 0) add(chose, board.action(legal[d.chosen], v));
      board.mark(box, legal, d.chosen);
    }
    function drawNarration(step, told) {
      var box = document.getElementById("narration");
      /* the whole game so far: lines of the steps up to this one, the current ones marked */
      var lo = Math.min(shownTo, at), hi = Math.max(shownTo, at);
      for (var s = lo + 1; s <= hi; s++) {
        lineNodes[s].forEach(function (node) { node.hidden = s > at; });
      }
      if (shownTo >= 0) lineNodes[shownTo].forEach(function (node) { node.classList.remove("now"); });
      lineNodes[at].forEach(function (node) { node.classList.add("now"); });
      shownTo = at;
      var last = null;
      for (var t = at; t >= 0 && !last; t--) last = lineNodes[t][lineNodes[t].length - 1] || null;
      if (last) box.scrollTop = Math.max(0, last.offsetTop - box.offsetTop - box.clientHeight + last.offsetHeight + 4);
      var mine = document.getElementById("told");
      mine.textContent = "";
      if (told.length) {
        add(mine, el("div", "label", "told to you alone"));
        told.forEach(function (e) { add(add(mine, el("div", "told")), board.value(e)); });
      }
      var who = document.getElementById("who");
      who.textContent = "";
      if (step.acted.length) who.textContent = "moved: " + step.acted.map(function (s) { return seats[s]; }).join(", ") + ". ";
      who.textContent += step.next.length ? "to move: " + step.next.map(function (s) { return seats[s]; }).join(", ") : "the game is over";
    }
    function buildNarration() {
      var box = document.getElementById("narration");
      steps.forEach(function (step, s) {
        var lines = step.lines.map(function (i) { return data.texts[i]; });
        if (s === 0 && !lines.length) lines = ["(the deal)"];
        lineNodes.push(lines.map(function (text) {
          var a = add(box, el("a", "line", text));
          a.href = "#step-" + s;
          a.setAttribute("data-step", s);
          a.hidden = true;
          a.addEventListener("click", function (e) { e.preventDefault(); play(false); go(s); });
          return a;
        }));
      });
    }
    function drawResult() {
      var box = document.getElementById("result");
      box.textContent = "";
      if (at !== steps.length - 1) { box.hidden = true; return; }
      box.hidden = false;
      add(box, el("h2", "", "Result"));
      var table = add(box, el("table"));
      var head = add(table, el("tr"));
      ["seat", "player", "score", "place"].forEach(function (h) { add(head, el("th", "", h)); });
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
    /* The next decision of the seat viewed, or the next fault (of that seat, or anyone's). */
    function nextDecision() {
      if (viewKey === "table") return;
      var d = bySeat[Number(viewKey)].filter(function (x) { return x.step > at; })[0];
      if (d) go(d.step);
    }
    function nextFault() {
      var d = decisions.filter(function (x) {
        return x.fault && x.step > at && (viewKey === "table" || x.seat === Number(viewKey));
      })[0];
      if (d) go(d.step);
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
      var nextD = button("next-decision", "next decision of this seat", function () { play(false); nextDecision(); });
      nextD.title = "the next step where the seat viewed decides (d)";
      button("next-fault", "next fault", function () { play(false); nextFault(); }).title = "the next step where a bot faulted (f)";
      function viewChanged() { viewKey = views.value; nextD.disabled = viewKey === "table"; draw(); }
      views.addEventListener("change", viewChanged);
      nextD.disabled = true;
      var main = add(document.body, el("main"));
      var left = add(main, el("div", "left"));
      add(left, el("section", "board")).id = "board";
      var panel = add(left, el("section", "decision"));
      panel.id = "decision";
      panel.hidden = true;
      var aside = add(main, el("aside"));
      add(aside, el("h2", "", "Narration"));
      add(aside, el("div", "narration")).id = "narration";
      add(aside, el("div", "told-box")).id = "told";
      add(aside, el("div", "who")).id = "who";
      add(aside, el("section", "result")).id = "result";
      buildNarration();
      document.addEventListener("keydown", function (e) {
        if (e.target && e.target.tagName === "SELECT") return;
        var keys = {ArrowRight: function () { play(false); go(at + 1); }, ArrowLeft: function () { play(false); go(at - 1); },
                    " ": function () { play(!timer); }, Home: function () { play(false); go(0); },
                    End: function () { play(false); go(steps.length - 1); },
                    d: function () { play(false); nextDecision(); }, f: function () { play(false); nextFault(); }};
        if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
      });
      var wanted = /^#step-(\d+)$/.exec(location.hash);
      go(wanted ? Number(wanted[1]) : 0);
      document.documentElement.setAttribute("data-ready", "1");
    }
    build();
  }
  unpack(start);
}());
