/* The live table: a person's seat in the browser. It draws what the server sends (this seat's
   view and the public events) with the replay viewer's board (board.js), and sends back the
   place of the legal move the person chose. Every text goes in through textContent. */
(function () {
  "use strict";
  var B = ArenaBoard, el = B.el, add = B.add;
  var conf = JSON.parse(document.getElementById("arena-data").textContent);
  var WHY = {
    "dig": "a card must match the upcard by suit or rank (or what an eight named), or be an eight",
    "frogs-in-the-pond": "you must follow the suit led when you can",
    "concentration": "only a face-down card in play can be turned",
    "paved-with-gold": "that place cannot be used for this move now",
    "cribbage-square": "a card must touch one already down, and all must fit in four rows and four columns",
    "old-mans-bundle": "that card cannot make this move now",
    "memorandum": "use the buttons below the board",
    "animals": "use the buttons below the board",
    "cuckoo": "use the buttons below the board"
  };
  var PACES = [[2.0, "slow"], [1.2, "steady"], [0.6, "normal"], [0.3, "quick"], [0.15, "fast"], [0.0, "at once"]];
  var socket = null, hello = null, board = null, last = null, history = [], legal = null;
  var before = null, tally = null, games = [];

  function history_of(kind) { return history.filter(function (e) { return e && e.kind === kind; }); }
  function say(text, cls) {
    var box = document.getElementById("say");
    box.textContent = text;
    box.className = "say" + (cls ? " " + cls : "");
  }
  function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }

  function draw() {
    if (!last || !hello) return;
    var box = document.getElementById("board");
    board.draw(box, last.view || {}, {seats: hello.seats, you: hello.you, events: last.events,
                                      told: last.told, history: history_of, next: last.next,
                                      acted: last.acted, before: before});
    drawMoves(box);
  }
  function drawMoves(box) {
    var panel = document.getElementById("moves");
    panel.textContent = "";
    if (!legal) {
      var who = last && last.next.length ? last.next.map(function (s) { return hello.seats[s]; }).join(", ") : null;
      add(panel, el("div", "title", who ? "waiting for " + who : "the game is over"));
      return;
    }
    add(panel, el("div", "title", "your move: click a lit card, or a move below"));
    var at = board.mark(box, legal, -1);
    legal.forEach(function (a, i) {
      var b = add(panel, el("button", "move"));
      b.type = "button";
      b.setAttribute("data-move", i);
      add(b, board.action(a, last.view));
      b.addEventListener("click", function () { choose(i); });
    });
    Array.prototype.forEach.call(box.querySelectorAll("[data-target]"), function (node) {
      node.addEventListener("click", function (e) {
        e.stopPropagation();
        var moves = at[node.getAttribute("data-target")] || [];
        if (moves.length === 1) choose(moves[0]);
        else {
          say("that card has more than one move: choose one below", "");
          moves.forEach(function (i) { panel.querySelector("[data-move=\"" + i + "\"]").classList.add("lit"); });
        }
      });
    });
  }
  function choose(i) {
    if (!legal) return;
    legal = null;
    say("", "");
    send({move: i});
    draw();
  }
  /* A click on the board that is no legal move: why, in words. */
  function refused(e) {
    var node = e.target.closest ? e.target.closest(".card") : null;
    if (!node || !hello) return;
    if (!legal) {
      var who = last && last.next.length ? last.next.map(function (s) { return hello.seats[s]; }).join(", ") : "nobody";
      say("not yet: it is " + who + "'s turn", "no");
      return;
    }
    if (node.classList.contains("legal")) return;
    var what = node.getAttribute("data-card") ? B.cardText(node.getAttribute("data-card")) : "that";
    say("you can't use " + what + " now: " + (WHY[hello.game] || "it is not one of your legal moves"), "no");
  }

  function receive(m) {
    if (m.type === "hello") {
      hello = m; board = new B.Board(m.game, m.seats); history = []; legal = null; last = null; before = null;
      document.getElementById("title").textContent = m.title + " \u2014 " + m.variant + ", deal " + m.number + " (seed " + m.seed + ")";
      document.getElementById("narration").textContent = "";
      document.getElementById("result").textContent = "";
      drawTally();
    } else if (m.type === "step") {
      before = last ? last.view : null;
      last = m;
      legal = null;
      m.events.forEach(function (e) { history.push(e); });
      var box = document.getElementById("narration");
      m.lines.forEach(function (line) { add(box, el("div", "line", line)); });
      box.scrollTop = box.scrollHeight;
      draw();
    } else if (m.type === "act") {
      legal = m.legal;
      draw();
      var first = document.querySelector("#moves button");
      if (first) first.focus({preventScroll: true});
    } else if (m.type === "over") {
      legal = null;
      tally = m.tally;
      games.push(m);
      draw();
      var res = document.getElementById("result");
      res.textContent = "";
      add(res, el("h2", "", "Deal " + games.length + " is over"));
      var t = add(res, el("table"));
      var head = add(t, el("tr"));
      ["player", "score", "place"].forEach(function (h) { add(head, el("th", "", h)); });
      hello.seats.forEach(function (name, i) {
        var tr = add(t, el("tr"));
        add(tr, el("td", "", name + (i === hello.you ? " (you)" : "")));
        add(tr, el("td", "final-score", m.scores[i])).setAttribute("data-seat", i);
        add(tr, el("td", "", m.ranks[i]));
      });
      if (m.replay !== null) {
        var a = add(res, el("a", "replay-link", "watch this game again (replay page)"));
        a.href = "/replay/" + Number(m.replay) + location.search; a.target = "_blank"; a.rel = "noopener";
        a.id = "replay-" + Number(m.replay);
      }
      drawTally();
    } else if (m.type === "closed") {
      legal = null;
      draw();
      say(m.why, "done");
      document.documentElement.setAttribute("data-closed", "1");
    }
  }
  function drawTally() {
    var box = document.getElementById("tally");
    box.textContent = "";
    if (!tally || !hello) return;
    add(box, el("span", "label", "running score after " + games.length + (games.length === 1 ? " deal" : " deals") + ": "));
    hello.seats.forEach(function (name, i) { add(box, el("span", "total", name + " " + tally[i])); });
  }

  function build() {
    var head = add(document.body, el("header"));
    add(head, el("h1", "", "")).id = "title";
    add(head, el("div", "meta", "your seat at the table: the moves you may make are lit"));
    var bar = add(document.body, el("nav", "controls"));
    add(bar, el("span", "label", "bots' pace"));
    var pace = add(bar, el("select"));
    pace.id = "pace";
    PACES.forEach(function (p) { var o = add(pace, el("option", "", p[1])); o.value = p[0]; if (p[0] === 0.6) o.selected = true; });
    pace.addEventListener("change", function () { send({pace: Number(pace.value)}); });
    add(bar, el("span", "limit", "no time limit: take your time"));
    var leave = add(bar, el("button", "", "leave the table"));
    leave.type = "button";
    leave.addEventListener("click", function () { send({leave: true}); });
    add(bar, el("span", "tally")).id = "tally";
    add(document.body, el("div", "say")).id = "say";
    var main = add(document.body, el("main"));
    var left = add(main, el("div", "left"));
    var box = add(left, el("section", "board"));
    box.id = "board";
    box.addEventListener("click", refused);
    add(left, el("section", "moves")).id = "moves";
    var aside = add(main, el("aside"));
    add(aside, el("h2", "", "What happened"));
    add(aside, el("div", "narration")).id = "narration";
    add(aside, el("section", "result")).id = "result";
    document.addEventListener("keydown", function (e) {
      if (!legal || e.target.tagName === "SELECT" || e.target.tagName === "BUTTON") return;
      var n = Number(e.key);
      if (n >= 1 && n <= legal.length && n <= 9) { e.preventDefault(); choose(n - 1); }
    });
    socket = new WebSocket(conf.socket);
    socket.onmessage = function (e) { receive(JSON.parse(e.data)); };
    socket.onclose = function () {
      if (!document.documentElement.getAttribute("data-closed")) say("the table closed the connection (is another page holding this seat, or did the game stop?)", "no");
    };
    document.documentElement.setAttribute("data-ready", "1");
  }
  build();
}());
