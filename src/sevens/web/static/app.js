// Sevens: deadlines in the reader's time zone, live odds on the order forms, and pages that
// follow a game in progress.
// Everything works without this script; it only adds convenience.
"use strict";

// A time as a person reads it: to the minute, as the page's UTC times are, in the reader's time
// zone, named (toLocaleString() alone gave seconds here and minutes beside it, and no zone).
function shownTime(when) {
  return when.toLocaleString(undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short"
  });
}

function localTimes() {
  document.querySelectorAll("time[datetime]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    // The server's words (in UTC) stay at hand, as the element's tooltip.
    if (!isNaN(when)) { el.title = el.title || el.textContent; el.textContent = shownTime(when); }
  });
}

// The server's time now, as this page reckons it. A phone's own clock can be minutes or a day
// wrong: counting down by it said "passed" while the server still took orders, or "in 5 min" after
// it had played the turn. The page is told the server's time when it was made (data-now, on the
// "Up to date at" of every page that follows a game); how far this device's clock stood from it
// then is kept, and added to the device's clock from then on (a device asleep meanwhile still
// moves its clock on, unlike a timer).
var clockOffset = null;

function serverNow() {
  if (clockOffset === null) {
    var made = document.querySelector("[data-now]"), at = made ? new Date(made.dataset.now) : null;
    clockOffset = at && !isNaN(at) ? at - new Date() : 0;
  }
  return new Date(Date.now() + clockOffset);
}

// The device's clock can jump while the page is open (set by hand, put right by the network, a
// laptop waking): the offset taken when the page was made then counted a day wrong until a
// reload. Each poll's answer says the server's time (Sevens-Server-Time); a device clock more than
// 5 s off from what the offset gives is taken again from it (the answer's way over the network
// counts for less than that), and the countdowns are said again at once.
var countdownsAgain = function () {};

function serverSaid(response) {
  var said = new Date(response.headers.get("Sevens-Server-Time") || "");
  if (isNaN(said)) { return; }
  serverNow();  // the offset from the page as it was made, taken first if not yet
  var offset = said - new Date();
  if (Math.abs(offset - clockOffset) > 5000) {
    clockOffset = offset;
    countdownsAgain();
  }
}

// How long until a turn's deadline by the server's clock, kept up to date while the page is open.
function countdowns() {
  var boxes = document.querySelectorAll(".countdown[data-until]");
  if (!boxes.length) { return; }
  function left(minutes) {
    var days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60), rest = minutes % 60;
    var parts = [];
    if (days) { parts.push(days + " d"); }
    if (hours) { parts.push(hours + " h"); }
    if (rest || !parts.length) { parts.push(rest + " min"); }
    return parts.join(" ");
  }
  function tick() {
    boxes.forEach(function (el) {
      var until = new Date(el.dataset.until), now = serverNow(), ms = until - now;
      if (isNaN(ms)) { return; }
      // The minutes from the clock's minute now to the deadline's, as both are shown (seconds
      // dropped): due 14:10 at 12:00 is "2 h 10 min", whatever the seconds, and the last minute
      // is "under 1 min" (countdown_said in sevens.web.views counts alike).
      var minutes = Math.floor(until / 60000) - Math.floor(now / 60000);
      // Past it, the organiser is told the turn is theirs to reopen; anyone else, that it may be.
      var who = "organiser" in el.dataset ? "you pause or extend the deadline first (below)"
        : "the organiser pauses or extends the deadline first";
      el.textContent = ms > 0 ? "(in " + (minutes > 0 ? left(minutes) : "under 1 min") + ")"
        : "(passed: orders are closed; the turn plays as soon as the server gets to it, unless " + who + ")";
    });
  }
  tick();
  countdownsAgain = tick;
  setInterval(tick, 30000);
  // A phone holds back the timers of a page in the background: one brought back past the deadline
  // said "(in 4 min)" until the next tick, up to 30 s later. It says how things stand at once.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { tick(); } });
}

// The organiser's deadline at a date and time is read in this browser's time zone: the offset
// from UTC that zone has at the time chosen (summer or winter time) is sent with it, and the hint
// beside the box says which zone, where without this script the server reads the time as UTC.
function clockTimeDeadlines() {
  document.querySelectorAll("input[data-utc-offset-of]").forEach(function (hidden) {
    var box = document.getElementById(hidden.dataset.utcOffsetOf);
    var hint = box && document.getElementById(box.id.replace(/-at$/, "-zone"));
    if (!box || !hint) { return; }
    function pad(n) { return (n < 10 ? "0" : "") + n; }
    function said() {
      var when = box.value ? new Date(box.value) : new Date();  // a datetime-local value is local time
      if (isNaN(when)) { when = new Date(); }
      var east = -when.getTimezoneOffset(), away = Math.abs(east);
      hidden.value = String(east);
      var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
      hint.textContent = "in this browser's time zone" + (zone ? ", " + zone : "") + " (UTC" + (east < 0 ? "-" : "+")
        + pad(Math.floor(away / 60)) + ":" + pad(away % 60) + (box.value ? " on that day" : "") + ")";
    }
    said();
    box.addEventListener("input", said);
    hidden.form.addEventListener("submit", said);
  });
}

// A table wider than the screen scrolls sideways inside its .table-scroll box. Such a box is made
// reachable by keyboard (focused, the arrow keys scroll it) and named after its table's caption;
// a box that fits takes no place in the tab order.
function scrollBoxes(root) {
  root.querySelectorAll(".table-scroll").forEach(function (box) {
    if (box.scrollWidth > box.clientWidth) {
      var caption = box.querySelector("caption");
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", (caption ? caption.textContent : "Table") + " (scrolls sideways)");
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (name) { box.removeAttribute(name); });
    }
  });
}

function watchScrollBoxes() {
  var timer = null;
  scrollBoxes(document);
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { scrollBoxes(document); }, 200);
  });
}

// Only what cannot happen reads 0%, and only what must happen 100%: a long shot of 0.006% is not
// rounded away to "0.0%", nor is a near-certain win shown as certain.
function percent(x) {
  if (x <= 0) { return "0%"; }
  if (x >= 1) { return "100%"; }
  var p = 100 * x;
  if (p < 0.0001) { return "<0.0001%"; }
  if (p < 1) { return Number(p.toPrecision(2)) + "%"; }  // two figures for the long shots
  if (p > 99.9) { return ">99.9%"; }
  return p.toFixed(1) + "%";
}

function element(tag, text) {
  var el = document.createElement(tag);
  if (text !== undefined) { el.textContent = text; }
  return el;
}

// An order as the screen shows it ("12+6") and as a screen reader is told it ("12 FORCE, 6 FLAIR":
// "12 plus 6" read as a sum), as the match reports' orders (the templates' said macro).
function orderWords(order) { return order.force + " FORCE, " + order.flair + " FLAIR"; }

function saidOrder(order) {
  var box = element("span"), shown = box.appendChild(element("span", order.force + "+" + order.flair));
  shown.setAttribute("aria-hidden", "true");
  box.appendChild(element("span", " " + orderWords(order))).className = "visually-hidden";
  return box;
}

// The odds as a sentence and a small table, one row per distinct set of opposing orders (bots whose
// mixes are the same are named together), built as DOM nodes so that no text is read as markup.
// ``last``: the final, after which SCRUM is of no use, so what a win would add is not said.
function describe(data, team, last) {
  var box = element("div");
  // What the order costs, said with what it leaves: "71 SCRUM left" alone read to a newcomer as
  // either the team's balance now or what the order spends.
  var spent = data.order.force + data.order.flair;
  var costs = spent ? " It spends " + spent + " of its " + (data.scrum_left + spent) + " SCRUM points, leaving " :
    " It spends nothing, leaving ";
  // The server names the boxes it took as 0 (as it does for the API): the odds' own account of
  // what they assume, rather than this page's reading of the boxes, which may have changed since.
  var empty = (data.assumed_zero || []).map(function (box) { return box.toUpperCase(); });
  // With a box still empty there is no order yet: "Your order 12+0" claimed one nobody typed.
  var whose = empty.length ? empty.join(" and ") + (empty.length === 1 ? " is" : " are") +
    " still empty: these odds take " + (empty.length === 1 ? "it" : "them") + " as 0 (type 0 there to send none). " : "Your order ";
  var rest = ": expected " +
    data.expected_points + " points." + costs + data.scrum_left + " after this match" +
    (last ? "." : " (" + (data.scrum_left + 10) + " if it wins).");
  // Shown with the order's short form; the live region beside the output says it in words, and
  // is what a screen reader reads of it (the sentence was read twice, "12 plus 6" both times).
  var sentence = box.appendChild(element("p", whose + data.order.force + "+" + data.order.flair + rest));
  sentence.setAttribute("aria-hidden", "true");
  sentence.dataset.said = whose + orderWords(data.order) + rest;
  if (!data.against.length) { return box; }
  if (data.opponent_bot) {
    box.appendChild(element("p", "Nobody manages them: the bot " + data.opponent_bot +
      " plays them (unless a manager takes their seat first)."));
  }
  var rows = [];
  var notes = [];
  data.against.forEach(function (row) {
    // Bots share a row only when the odds are against the same orders: the same mix, or the same
    // one order. A kept answer from before mixes were sent has neither field.
    var mixed = row.mix_size > 1;
    var key = row.order.force + "+" + row.order.flair + (row.mix ? JSON.stringify(row.mix) : " typical");
    var bot = row.bot === data.opponent_bot ? row.bot + " (plays them)" : row.bot;
    var same = rows.filter(function (r) { return r.key === key; })[0];
    if (same) { same.bots.push(bot); } else { rows.push({ key: key, bots: [bot], row: row, mixed: mixed }); }
    if (row.bot === data.opponent_bot) { (same || rows[rows.length - 1]).theirs = true; }
  });
  rows.forEach(function (r) {
    if (r.mixed) { notes.push(r.bots.join(", ") + ": " + mixWords(r.row)); }
    if (r.row.mix === null) { notes.push(r.bots.join(", ") + ": one typical order (it does not say what it mixes over)"); }
  });
  var knockout = data.against[0].draw === undefined;
  // On a phone the stylesheet lays each row out as a grid (the bots on a line of their own, the
  // figures under them), which is no longer a table's layout: the roles keep it a table for
  // screen readers, the bots naming their row.
  var table = element("table");
  table.className = "odds-table";
  table.setAttribute("role", "table");
  table.appendChild(element("caption", "Odds of " + team + " " + againstWords(rows)));
  table.firstChild.className = "visually-hidden";
  var head = element("tr");
  head.setAttribute("role", "row");
  ["if they play like", "their order", "win", knockout ? "level after count-back" : "draw", "loss"].forEach(
    function (title) {
      var th = head.appendChild(element("th", title));
      th.setAttribute("scope", "col");
      th.setAttribute("role", "columnheader");
    });
  table.appendChild(head);
  rows.forEach(function (r) {
    var tr = element("tr");
    tr.setAttribute("role", "row");
    if (r.theirs) { tr.className = "their-bot"; }
    var bots = tr.appendChild(element("th", r.bots.join(", ")));
    bots.setAttribute("scope", "row");
    bots.setAttribute("role", "rowheader");
    var order = tr.appendChild(element("td"));
    order.appendChild(saidOrder(r.row.order));
    // Its likeliest order only: the figures are against the whole mix, which the note under the table gives.
    if (r.mixed) { order.appendChild(element("span", "(mix)")).className = "mix-mark"; }
    [percent(r.row.win), percent(knockout ? r.row.level : r.row.draw), percent(r.row.loss)].forEach(
      function (text) { tr.appendChild(element("td", text)); });
    Array.prototype.forEach.call(tr.querySelectorAll("td"), function (td) { td.setAttribute("role", "cell"); });
    table.appendChild(tr);
  });
  var scroll = element("div");
  scroll.className = "table-scroll";
  scroll.appendChild(table);
  box.appendChild(scroll);
  if (notes.length) {
    // A mixing bot's order shown is only its likeliest: the figures are against every order it may give.
    box.appendChild(element("p", "Against a bot that mixes, the odds are against every order it may give, each " +
      "weighted by its chance; the order shown is its likeliest. " + notes.join("; ") + ".")).className = "odds-mixes";
  }
  return box;
}

// What the figures are against, for the table's caption: each bot's whole mix, weighted, but for
// a sample standing in for a large one and a bot that names one typical order only.
function againstWords(rows) {
  function bots(kept) { return kept.map(function (r) { return r.bots.join(", "); }).join(", "); }
  var sampled = rows.filter(function (r) { return r.row.mix_size > r.row.mix_used; });
  var typical = rows.filter(function (r) { return r.row.mix === null; });
  var words = "against the orders each bot may give, each weighted by its chance";
  if (rows.some(function (r) { return r.mixed; })) { words += "; a mixing bot's order shown is its likeliest"; }
  if (sampled.length) { words += "; for " + bots(sampled) + ", an even sample of its orders (not exact)"; }
  if (typical.length) { words += "; for " + bots(typical) + ", one typical order"; }
  return words;
}

// A bot's mix in words: "11+9 62.5%, 8+12 37.5%"; a long one by its size, a sample said to be one.
function mixWords(row) {
  if (row.mix_size > row.mix_used) {
    return row.mix_size.toLocaleString("en") + " orders, by an even sample of " + row.mix_used + " (not exact)";
  }
  if (row.mix.length === 0 || row.mix.length > 4) { return row.mix_size.toLocaleString("en") + " orders"; }
  return row.mix.slice().sort(function (a, b) { return b.chance - a.chance; }).map(function (o) {
    return o.force + "+" + o.flair + " " + percent(o.chance);
  }).join(", ");
}

// The table is rebuilt at every keystroke; a screen reader is told only its first sentence (the
// expected points, or why there are no odds), through a live region that stays in place.
function show(out, content, failed) {
  // A message alone (why there are no odds, or what to type) is hidden from screen readers here as
  // the odds' sentence is: the live region below says it, and it was heard twice.
  var shown = content;
  if (typeof content === "string") {
    shown = element("span", content);
    shown.setAttribute("aria-hidden", "true");
  }
  out.replaceChildren(shown);
  out.classList.toggle("error", failed);
  scrollBoxes(out);
  var said = out.parentNode.querySelector(".odds-said");
  if (said) {
    var first = typeof content === "string" ? content : content.querySelector("p") || content;
    said.textContent = typeof first === "string" ? first : first.dataset.said || first.textContent;
  }
}

// Each order form's last answer is kept for the tab's life (sessionStorage), with the key the
// server gave it: a digest of what the odds depend on besides the draft (the turn, both teams'
// SCRUM, the bot facing them, the player). A page loaded again (after saving an order, or a
// reload) that gives the same key and holds the same draft shows it rather than ask: on a 16-team
// page that was about 9 kB each time. A new turn or another bot changes the key, and they are asked.
function keptOddsName(form) { return "sevens-odds " + form.dataset.odds + " " + form.dataset.team; }

function keptOdds(form) {
  try {
    return JSON.parse(window.sessionStorage.getItem(keptOddsName(form)));
  } catch (e) { return null; }  // storage turned off, or not JSON
}

function keepOdds(form, kept) {
  var name = keptOddsName(form);
  try {
    if (kept) { window.sessionStorage.setItem(name, JSON.stringify(kept)); } else { window.sessionStorage.removeItem(name); }
  } catch (e) { /* full or turned off: the odds are asked again next time */ }
}

// A box left empty is refused by the browser before sending (the boxes are required); its own
// words ("Please fill out this field") said neither which team nor that 0 is an answer.
function explainEmptyBoxes(form) {
  [["force", "FORCE"], ["flair", "FLAIR"]].forEach(function (pair) {
    var box = form.elements[pair[0]];
    if (!box) { return; }
    box.addEventListener("invalid", function () {
      if (box.validity.valueMissing) {
        box.setCustomValidity("Type the " + pair[1] + " points for " + form.dataset.name + ", 0 for none.");
      }
    });
    ["input", "change"].forEach(function (kind) { box.addEventListener(kind, function () { box.setCustomValidity(""); }); });
  });
}

// Drawn once per page load: the server drops this page's drafts of a team still waiting for their
// odds when a newer one comes, and never another tab's (another name). Not a secret: it only
// groups this browser's own requests.
var ODDS_PAGE = Math.random().toString(36).slice(2, 14) || "page";

function watchOdds(form) {
  var out = form.querySelector("output.odds");
  var timer = null;
  var latest = 0;
  var unanswered = false;  // the latest request found no network
  function update(loading) {
    // Answers may come back out of order: only the latest request's may be shown, or the odds of
    // the empty form asked for at load could replace those of what was typed since.
    var mine = ++latest;
    var force = form.elements.force.value;
    var flair = form.elements.flair.value;
    // Nothing typed: no order, so no odds (they read "Your order 0+0" for an order nobody gave).
    if (force.trim() === "" && flair.trim() === "") {
      show(out, "Type FORCE and FLAIR points to see this order's expected points and chances.", false);
      return;
    }
    if (loading) {
      var kept = keptOdds(form);
      if (kept && kept.key === form.dataset.oddsKey && kept.force === force && kept.flair === flair) {
        show(out, describe(kept.body, form.dataset.name, form.dataset.last === "true"), false);
        return;
      }
      if (kept && kept.key !== form.dataset.oddsKey) { keepOdds(form, null); }  // another turn's, or player's
    }
    // In the body, not the address: addresses end up in access logs, and a draft is secret.
    // One box empty is sent empty: the server takes it as 0 and says so (assumed_zero), which the
    // form refuses until 0 is typed.
    // The page's name lets the server drop this form's older drafts still waiting for the odds
    // process: their answers would not be shown (mine !== latest), and they held up this one.
    var draft = new URLSearchParams({ team: form.dataset.team, force: force, flair: flair, page: ODDS_PAGE });
    fetch(form.dataset.odds, { method: "POST", body: draft, credentials: "same-origin" }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (result) {
      if (mine !== latest) { return; }
      show(out, result.ok ? describe(result.body, form.dataset.name, form.dataset.last === "true") : (result.body.detail || "no odds for this order"), !result.ok);
      if (result.ok) { keepOdds(form, { key: result.body.key, force: force, flair: flair, body: result.body }); }
    }).catch(function () {
      if (mine === latest) { unanswered = true; show(out, "odds unavailable", true); }
    });
  }
  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { update(false); }, 250);
  });
  // Odds asked while the network was lost (a phone between two masts) said "odds unavailable"
  // until the next keystroke: they are asked again as soon as the browser is back online.
  window.addEventListener("online", function () {
    if (unanswered) { unanswered = false; update(false); }
  });
  update(true);
}

// How often a page asks whether its game moved on while its reader uses it: the server's
// SEVENS_POLL_SECONDS, which each page carries on its <body> (5 s unless its operator set another).
var LIVE_POLL_MS = (function () {
  var given = document.body ? Number(document.body.dataset.pollMs) : NaN;
  return given > 0 ? given : 5000;
}());
// A fetch of the list of who has ordered is given up after LIST_TIMEOUT_MS, its answer's body
// included. The list is fetched one at a time, and a request the network lost (a phone moving
// between networks, a connection dropped without a word) is never answered nor refused: the list
// was never fetched again. The polls of /state, and the page's look at its own address before it
// reloads, are given up alike: each tick asks anew, but a lost request holds its connection, and
// once six of them held all the browser opens to a server, every later one waited behind them.
var LIST_TIMEOUT_MS = 30000;

// fetch(url) as the page's polls do (``method``: GET if not given), ``read`` making of its response
// what is wanted (its body read); the whole is given up, the promise refused, after LIST_TIMEOUT_MS.
function fetchWithin(url, read, method) {
  var control = typeof AbortController === "function" ? new AbortController() : null;
  var options = { method: method || "GET", credentials: "same-origin", cache: "no-store" };
  var timer = null;
  if (control) {
    options.signal = control.signal;
    timer = window.setTimeout(function () { control.abort(); }, LIST_TIMEOUT_MS);
  }
  function settled() { if (timer !== null) { window.clearTimeout(timer); } }
  return fetch(url, options).then(read).then(function (got) { settled(); return got; },
    function (error) { settled(); throw error; });
}

// The status the server answers ``url`` with, asked for the headers alone (HEAD) before a reload:
// a page reloaded into the server's passing trouble (a 5xx, or 429) would leave its reader on an
// error page.
function headStatus(url) {
  return fetchWithin(url, function (response) { return response.status; }, "HEAD");
}
function passingTrouble(status) { return status >= 500 || status === 429; }

// A page left alone (a phone on the table, its screen on) asks less often: a poll costs a metered
// connection about 1 kB each way, 720 an hour at 5 s. After IDLE_AFTER_MS without the reader's
// touch, a key or a scroll, it asks every IDLE_POLL_MS (a quarter as often, whatever the server's
// pace); the reader's next touch asks at once and goes back to LIVE_POLL_MS. A hidden page
// (another tab, a locked phone) asks nothing at all.
var IDLE_POLL_MS = 4 * LIVE_POLL_MS;
var IDLE_AFTER_MS = 180000;
// How long a page that reloads itself as the game moves on leaves its reload to finish before it
// polls again (a minute: a page a loaded server takes longer than that to send is as good as lost).
var RELOAD_PATIENCE_MS = 60000;

// ``check`` such that what it throws, or the promise it returns refuses, is caught: a poll's tick
// that fails (an element it expects not in the page, an answer it cannot read) was an unhandled
// error in the console, and one thrown before the next tick was set stopped the polls for good.
// The first is logged (console.error), once: a failure that comes back at every tick says nothing new.
function caught(check) {
  var logged = false;
  function failed(error) {
    if (logged) { return; }
    logged = true;
    console.error("Sevens: this page's poll failed (said once; it keeps polling):", error);
  }
  return function () {
    try {
      var done = check.apply(this, arguments);
      if (done && typeof done.then === "function") { done.then(null, failed); }
    } catch (error) { failed(error); }
  };
}

// Calls ``check`` every LIVE_POLL_MS while the page is shown and the reader busy with it, every
// IDLE_POLL_MS once they have left it alone; never while hidden. Returns a function that stops it.
// What ``check`` throws is caught (above), and the next tick is set all the same.
function poll(check) {
  var touched = Date.now(), timer = null, stopped = false;
  check = caught(check);
  // A big screen is watched, never touched: it keeps the busy pace (one television, mains power).
  var watched = document.getElementById("big-screen") !== null;
  function idle() { return !watched && Date.now() - touched >= IDLE_AFTER_MS; }
  function next() {
    if (stopped) { return; }
    timer = window.setTimeout(function () {
      if (!document.hidden) { check(); }
      next();
    }, idle() ? IDLE_POLL_MS : LIVE_POLL_MS);
  }
  function woken() {
    var was = idle();
    touched = Date.now();
    if (was && !stopped) {  // back from a long wait: ask now, not up to IDLE_POLL_MS later
      window.clearTimeout(timer);
      if (!document.hidden) { check(); }
      next();
    }
  }
  ["pointerdown", "keydown", "scroll", "wheel", "touchstart"].forEach(function (kind) {
    window.addEventListener(kind, woken, { passive: true, capture: true });
  });
  // Shown again, the page's own listener asks at once; the pace starts again from there.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { touched = Date.now(); window.clearTimeout(timer); next(); }
  });
  next();
  return function () { stopped = true; window.clearTimeout(timer); };
}

// A player's page lists whether each team has ordered this turn (never what). Orders coming in do
// not move a player's version (a reload would interrupt whoever is typing an order), so the page's
// poll carries a mark of that list instead: when it differs from the list shown, the list alone is
// fetched again and put in place. Nothing else of the page changes, the forms least of all; the
// count's paragraph stays in place as a polite live region, so a screen reader says the new count.
// The shown list is brought to the fresh one item by item: an item keeps its element, and only
// one whose words changed is rewritten, so that a screen reader reading inside the list keeps its
// place (a list replaced whole would throw it back out of the list).
function mendList(shown, fresh) {
  var byTeam = {};
  Array.prototype.forEach.call(shown.children, function (item) { byTeam[item.dataset.team] = item; });
  var at = shown.firstElementChild;
  Array.prototype.forEach.call(fresh.children, function (item) {
    var kept = byTeam[item.dataset.team];
    if (!kept) {
      kept = document.importNode(item, true);
    } else {
      if (kept.className !== item.className) { kept.className = item.className; }
      // Its markup, not only its words: a manager's name sits in its own <bdi> (written right to left).
      if (kept.innerHTML !== item.innerHTML) { kept.innerHTML = item.innerHTML; }
    }
    if (kept === at) { at = at.nextElementSibling; } else { shown.insertBefore(kept, at); }
  });
  while (at) { var gone = at; at = at.nextElementSibling; shown.removeChild(gone); }
}

// A poll the server failed (a game whose stored record is damaged, a database down) says why at
// the top of the page, rather than leave the page saying it is up to date as of its last good
// poll; the note goes once a poll is answered again. So does a game no longer found (404): the
// page was open on it, so it was deleted (or, private, this browser was signed out of it), and an
// order typed there would be refused. A 403 or 409 has the page's own answer (it reloads when the
// game moves on).
// Not "its organiser deleted it": the server's tidy deletes games long over too, and which it was is not known here.
var GAME_NOT_FOUND = "the server no longer finds it for this browser: it was deleted, by its organiser or by the " +
  "server once it had long been over (a deleted game is gone for good, and nothing sent from this page can be " +
  "saved), or, in a private game, this browser was signed out of it";

// After UNANSWERED_SAID_AFTER polls in a row went unanswered (given up, or refused by the network:
// a device offline, a server down or restarting), the page says so rather than leave only its "up
// to date" time standing still; one poll lost now and then says nothing.
var UNANSWERED_SAID_AFTER = 3;
var UNANSWERED = "no answer from the server to its last few asks (is this device offline, or the server " +
  "down?); it keeps asking, and follows the game again once answered";

function pollTrouble(response) {
  if (response.status === 404) { return Promise.resolve(GAME_NOT_FOUND); }
  if (response.status < 500) { return Promise.resolve(null); }
  return response.json().then(function (body) { return (body && body.detail) || null; }, function () { return null; })
    .then(function (detail) { return detail || "the server answered " + response.status + "; reload the page to see why"; });
}

function sayPollTrouble(words) {
  var main = document.querySelector("main") || document.body, note = document.getElementById("poll-trouble");
  if (words === null) {
    if (note !== null) { note.parentNode.removeChild(note); }
    return;
  }
  var said = "This page cannot follow the game: " + words;
  if (note === null) {
    note = element("p");
    note.id = "poll-trouble";
    note.className = "live-note";
    note.setAttribute("role", "alert");
    main.insertBefore(note, main.firstChild);
  }
  if (note.textContent !== said) { note.textContent = said; }
}

function refreshWhoOrdered(mark) {
  var part = document.getElementById("who-ordered");
  if (!part || !part.dataset.url || part.dataset.mark === mark || part.dataset.fetching) { return; }
  part.dataset.fetching = "yes";
  fetchWithin(part.dataset.url, function (response) {
    if (!response.ok) {
      return pollTrouble(response).then(function (words) { if (words) { sayPollTrouble(words); } return null; });
    }
    return response.text().then(function (text) { return { mark: response.headers.get("X-Who-Ordered"), text: text }; });
  }).then(function (got) {
    if (!got) { return; }
    var fresh = new DOMParser().parseFromString("<div>" + got.text + "</div>", "text/html");
    var count = fresh.getElementById("who-ordered-count"), list = fresh.getElementById("who-ordered-list");
    var shownCount = document.getElementById("who-ordered-count"), shownList = document.getElementById("who-ordered-list");
    if (!count || !list || !shownCount || !shownList) { return; }
    if (shownCount.textContent !== count.textContent) { shownCount.textContent = count.textContent; }
    mendList(shownList, list);
    // The line above the teams once all the player's orders are ready: whom the turn waits for.
    var waits = fresh.getElementById("all-ready-waits"), shownWaits = document.getElementById("all-ready-waits");
    if (waits && shownWaits && shownWaits.innerHTML !== waits.innerHTML) { shownWaits.innerHTML = waits.innerHTML; }
    if (got.mark) { part.dataset.mark = got.mark; }
  }).catch(function () { /* offline for a moment: the next tick tries again */ }).then(function () {
    delete part.dataset.fetching;
  });
}

// The server's page for a 503 answered to a GET (its database unusable for a while) was a dead end
// for whoever opened an address then: nothing on it asked again. Its script asks the same address
// for the headers alone (HEAD), first after the page's poll pace, then twice as long after each
// try still refused, up to the answer's Retry-After, and reloads once the answer is no longer the
// server's passing trouble (5xx, 429) or none; meanwhile its live region says when it last tried
// and what came back. The page of a 503 answered to a form has no such region: a reload would send
// the form again.
function retryByItself() {
  var said = document.getElementById("self-retry");
  if (!said || !(Number(said.dataset.retryAfter) >= 0)) { return; }
  var most = Math.max(LIVE_POLL_MS, 1000 * Number(said.dataset.retryAfter)), wait = LIVE_POLL_MS;
  var timer = null, asked = Date.now(), asking = false;
  function seconds(ms) { return Math.round(ms / 1000) + " s"; }
  function tell(last) {
    said.className = "live-note";
    said.textContent = "This page asks the server again by itself, next in " + seconds(wait) +
      " (less often the longer it lasts, up to every " + seconds(most) + "), and reloads once the server can send it" +
      (last ? "; last try " + new Date().toLocaleTimeString(undefined, { hour12: false }) + ": " + last : "") + ".";
  }
  function after(ms) { window.clearTimeout(timer); timer = window.setTimeout(ask, ms); }
  function refused(what) {
    wait = Math.min(2 * wait, most);
    tell(what);
    after(wait);
  }
  function ask() {
    if (asking) { return; }
    if (document.hidden) { after(wait); return; }  // a tab in the background asks once shown again
    asking = true;
    asked = Date.now();
    headStatus(window.location.href).then(function (status) {
      asking = false;
      if (passingTrouble(status)) { refused("still " + status); return; }
      window.location.reload();
      after(RELOAD_PATIENCE_MS);  // a reload stopped (or that slow) is asked for again
    }, function () {
      asking = false;
      refused("no answer");
    });
  }
  tell(null);
  after(wait);
  // Shown again, it asks at once, but never twice within the page's poll pace.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && Date.now() - asked >= LIVE_POLL_MS) { ask(); }
  });
}

// A page that follows the game reloads itself when it moves on, and the new turn's reports go in
// above the older ones (and a table can grow): a reader scrolled down to a report, or a table,
// would find other things where they were reading. So just before such a reload the page notes
// what the reader had in view (the parts of the page with an id on the screen, the smallest and
// the nearest the top first, and where each stood), for this tab alone; the reloaded page puts
// the first of them still there back where it stood. A reader at the top stays at the top, where
// the news is.
var READING = "sevens-reading-place";

function noteReadingPlace(main) {
  if (window.scrollY <= 0) { return; }
  var height = window.innerHeight, seen = [];
  main.querySelectorAll("[id]").forEach(function (el) {
    if (el.closest("#live-note")) { return; }
    var box = el.getBoundingClientRect();
    if (box.height <= 0 || box.bottom <= 0 || box.top >= height) { return; }
    seen.push({ id: el.id, top: box.top, upper: box.top < height / 2 ? 0 : 1, size: box.height });
  });
  if (!seen.length) { return; }
  seen.sort(function (a, b) { return a.upper - b.upper || a.size - b.size; });
  var places = seen.slice(0, 8).map(function (s) { return { id: s.id, top: s.top }; });
  try {
    window.sessionStorage.setItem(READING, JSON.stringify({ page: pagePath(), places: places }));
    // The browser's own return to the same height would put other things there.
    if (window.history && "scrollRestoration" in window.history) { window.history.scrollRestoration = "manual"; }
  } catch (e) { /* storage refused: the browser keeps the height, as before */ }
}

// What this tab kept under `key` for the page it reloads into (null if nothing, or storage refused),
// taken once: a later reload by the reader's own hand finds nothing.
function takeKept(key) {
  try {
    var kept = JSON.parse(window.sessionStorage.getItem(key) || "null");
    window.sessionStorage.removeItem(key);
    return kept;
  } catch (e) { return null; }
}

function restoreReadingPlace() {
  var kept = takeKept(READING);
  var history = window.history && "scrollRestoration" in window.history ? window.history : null;
  function putBack() {
    if (!kept || kept.page !== pagePath() || !kept.places) { return; }
    for (var i = 0; i < kept.places.length; i += 1) {
      var el = document.getElementById(kept.places[i].id);
      if (el && el.getBoundingClientRect().height > 0) {
        window.scrollBy(0, el.getBoundingClientRect().top - kept.places[i].top);
        return;
      }
    }
  }
  putBack();
  // Again once everything is loaded (the browser may still move the page until then); after
  // that, a reload by the reader's own hand gets the browser's usual behaviour again.
  window.addEventListener("load", function () {
    putBack();
    if (history) { window.setTimeout(function () { history.scrollRestoration = "auto"; }, 0); }
  });
}

// Pages of a game in progress follow it: when the server's version of the game moves on (a turn
// resolved, the game started, paused or ended; for the organiser also seats taken and orders in;
// for a player also their own orders and autopilots, set from another tab or device),
// the page reloads itself, unless the reader has typed into a form or has the focus on something
// in the page (a keyboard or screen reader user at a button): then it only says so. A
// refused form sent back holds typing too (what was sent), and so does a form whose typing was
// kept while another was sent, so a reload would lose it as well.
function followGame() {
  var main = document.querySelector("main[data-live]");
  if (!main) { return; }
  var edited = main.querySelector(".error-summary, .kept-note") !== null;
  var stop = null;
  main.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("input", function () { edited = true; });
  });
  var reloadingSince = null, askingPage = false, unanswered = 0;
  // The note on what a form just did belongs to the page it was posted from, not the next turn's.
  function reloadAddress() {
    var url = new URL(window.location.href);
    ["done", "team", "turn"].forEach(function (key) { url.searchParams.delete(key); });
    // And so does the fragment the form's answer scrolled to it by: the page reloaded has no
    // #message, and would keep an address naming nothing in it (or another turn's note).
    if (url.hash === "#message") { url.hash = ""; }
    return url.href;
  }
  function reload() {
    noteReadingPlace(main);
    var address = reloadAddress();
    if (address === window.location.href) { window.location.reload(); } else { window.location.replace(address); }
  }
  // A page reloaded while the server cannot send it (restarting, overloaded, a proxy with no server
  // behind it) became that error page, which follows nothing: the reader was left on it until they
  // reloaded by hand. So the page first asks its new address for the headers alone, and reloads
  // unless that answer is the server's passing trouble (5xx, 429) or none came: then it stays,
  // says why, and asks again at the next poll that finds the game moved on.
  var RELOAD_LATER = "; the page asks again every few seconds and reloads by itself once it can";
  function reloadWhenServed() {
    if (askingPage) { return; }
    askingPage = true;
    headStatus(reloadAddress()).then(function (status) {
      if (!passingTrouble(status)) {
        // Polls wait while the reload is under way: the next one's answer would start it again, which
        // cuts short the one under way, and a server slower to send the page than the polls' pace
        // (under load) never got to send it, the page left on the old turn for good. A reload still
        // not done after RELOAD_PATIENCE_MS was stopped (or is that slow): the polls go on, and a
        // game still moved on reloads the page again.
        reloadingSince = Date.now();
        reload();
        return;
      }
      sayPollTrouble("the game has moved on, but the server cannot send this page just now (it answered " + status +
        ")" + RELOAD_LATER);
    }, function () {
      sayPollTrouble("the game has moved on, but the server did not send this page when asked" + RELOAD_LATER);
    }).then(function () { askingPage = false; });
  }
  // Whoever has moved the focus into the page (Tab, a screen reader's cursor on a control, a
  // menu opened) is in the middle of something: a reload would throw them back to the top.
  function busy() {
    var focused = document.activeElement;
    return edited || (focused !== null && focused !== document.body && main.contains(focused));
  }
  // The note stands just after the part of the page that holds the focus (its form, table or
  // paragraph: what is above does not move), so that it is on the screen where the reader is and
  // the next Tabs reach its button; with no focus in the page, at the page's top. Its words go
  // into a live region already in the page, as screen readers announce a change to a region they
  // know, not one that comes in with its words.
  function place(note) {
    var focused = document.activeElement;
    // The page itself focused (a screen reader may put the focus there) has no part to follow.
    if (focused === null || focused === document.body || focused === main || !main.contains(focused)) {
      main.insertBefore(note, main.firstChild);
      return;
    }
    var part = focused;
    while (part.parentNode !== main && !/^(SECTION|ARTICLE)$/.test(part.parentNode.tagName)) { part = part.parentNode; }
    part.parentNode.insertBefore(note, part.nextSibling);
    note.scrollIntoView({ block: "nearest" });
  }
  // ``own``: what moved is this player's own orders or autopilots, from another tab or device.
  function moved(state, own) {
    if (!busy()) {
      reloadWhenServed();
      return;
    }
    sayPollTrouble(null);
    stop();
    var note = document.getElementById("live-note"), said;
    if (note === null) {  // a second move (the tab shown again) says the latest in the same note
      note = element("div");
      note.className = "live-note";
      note.id = "live-note";
      said = element("span");
      said.setAttribute("role", "status");
      note.appendChild(said);
      note.appendChild(document.createTextNode(" "));
      var again = element("button", "Reload the page");
      again.type = "button";
      again.className = "small";
      again.addEventListener("click", reload);
      note.appendChild(again);
      place(note);
    }
    said = note.querySelector("[role=status]");
    window.setTimeout(function () {
      said.textContent = own && state.version === main.dataset.version
        ? "Your orders or autopilots were changed in another tab or on another device: reload to see them as they stand."
        : "The game has moved on (" + state.status + (state.turn ? ", turn " + state.turn : "") + ").";
    }, 100);
  }
  // The page says when it last found the game as it shows it: a time that stops moving tells the
  // reader the page has lost the server (a laptop asleep, a phone off the network).
  function upToDate() {
    var stamp = document.getElementById("as-of"), now = serverNow();
    if (stamp === null) { return; }
    stamp.setAttribute("datetime", now.toISOString());
    stamp.textContent = shownTime(now);
  }
  function check() {
    if (document.hidden) { return null; }
    if (reloadingSince !== null && Date.now() - reloadingSince < RELOAD_PATIENCE_MS) { return null; }
    return fetchWithin(main.dataset.live, function (response) {
      unanswered = 0;
      if (response.ok) { serverSaid(response); return response.json(); }
      return pollTrouble(response).then(function (words) { if (words) { sayPollTrouble(words); } return null; });
    }).then(function (state) {
      // Moved on, the trouble note stays until the page reloads: the look at its address may fail.
      if (state && state.version !== main.dataset.version) { moved(state, false); return; }
      if (state) { sayPollTrouble(null); }
      // An order sent from another tab or device: this page still shows the one it replaced.
      if (state && state.own !== undefined && main.dataset.own !== undefined && state.own !== main.dataset.own) {
        moved(state, true);
        return;
      }
      if (state) { upToDate(); }
      if (state && state.who_ordered) { refreshWhoOrdered(state.who_ordered); }
    }, function () {  // unanswered (offline, or given up): the next tick asks again, at its pace
      unanswered += 1;
      if (unanswered >= UNANSWERED_SAID_AFTER) { sayPollTrouble(UNANSWERED); }
    });
  }
  // The ask as the page comes to the front is caught as the ticks are, and logged with them once.
  var ask = caught(check);
  stop = poll(ask);
  document.addEventListener("visibilitychange", ask);
}

// A page holds several forms (the organiser's: a bot per team, the extend box; a player's: an
// order per team), and sending one brings the page back as the server has it, which lost what was
// typed into the others. So as a form is sent, what was typed (and not sent) into the page's other
// forms is put aside for this tab alone (sessionStorage), and put back when the same page comes
// back, each such form saying that it is not sent yet. A form is matched by its id and its hidden
// fields (the team, the turn): an order typed for turn 3 never lands in turn 4's form. What is put
// aside lasts one page load, so it is read once and removed, whichever page comes next.
// Leaving the page with typing not sent (a reload, a link) keeps it the same way.
var KEPT = "sevens-typed-not-sent";

function pagePath() {
  var main = document.querySelector("main[data-canonical]");
  return main ? new URL(main.dataset.canonical, window.location.href).pathname : window.location.pathname;
}

function formKey(form) {
  if (!form.id) { return null; }
  var parts = [form.id];
  Array.prototype.forEach.call(form.querySelectorAll("input[type=hidden]"), function (field) {
    // Not the seat mark: it holds the time its page was made, so it differs at each load. Nor the
    // organiser's proof: made for the session, as the token is, so it differs once signed in again.
    if (field.name && field.name !== "csrf" && field.name !== "seat" && field.name !== "organises") {
      parts.push(field.name + "=" + field.value);
    }
  });
  return parts.join("&");
}

// The boxes and menus of ``form`` whose value is not what the page came with: name -> value
// (buttons, hidden fields, check boxes and outputs are not typed into).
var TYPED_INTO = /^(text|number|search|email|url|tel)$/;

function typedInto(form) {
  var typed = {}, any = false;
  Array.prototype.forEach.call(form.elements, function (field) {
    if (!field.name || field.readOnly || field.disabled) { return; }
    var changed = false;
    if (field.tagName === "SELECT") {
      changed = Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    } else if (field.tagName === "TEXTAREA" || (field.tagName === "INPUT" && TYPED_INTO.test(field.type))) {
      changed = field.value !== field.defaultValue;
    }
    if (changed) { typed[field.name] = field.value; any = true; }
  });
  return any ? typed : null;
}

function restoreTyping() {
  var kept = takeKept(KEPT);
  if (!kept || kept.page !== pagePath() || !kept.forms) { return; }
  var found = false;
  var samePage = Object.keys(kept.forms).some(function (key) {
    return document.getElementById(key.split("&")[0]) !== null;
  });
  document.querySelectorAll("form[id]").forEach(function (form) {
    var typed = kept.forms[formKey(form)];
    if (!typed) { return; }
    found = true;
    Object.keys(typed).forEach(function (name) {
      var field = form.elements[name];
      if (field && field.type !== "hidden") { field.value = typed[name]; }
    });
    var note = element("span", "Not sent yet: what you typed here was kept while the page came back.");
    note.className = "kept-note";
    note.id = form.id + "-kept";
    form.appendChild(note);
    // A folded form (a team's autopilot) opens, or its note and kept typing would go unseen.
    var fold = form.closest("details");
    if (fold) { fold.open = true; }
  });
  // A page that answers with none of those forms (a new link shown once) keeps them, once, for
  // the next load of the page they came from, the one its link back leads to. Forms that are
  // there but for another team or turn are dropped.
  if (!found && !samePage && !kept.carried) {
    kept.carried = true;
    try { window.sessionStorage.setItem(KEPT, JSON.stringify(kept)); } catch (e) { /* nothing kept */ }
  }
}

function keepTypingOnSend() {
  var sending = false;
  document.querySelectorAll("form").forEach(function (sent) {
    sent.addEventListener("submit", function (event) {
      if (event.defaultPrevented) { return; }  // not sent after all (a question answered No)
      sending = true;
      var forms = {}, any = false;
      document.querySelectorAll("form[id]").forEach(function (form) {
        var key = formKey(form), typed = form === sent ? null : typedInto(form);
        if (key && typed) { forms[key] = typed; any = true; }
      });
      try {
        if (any) {
          window.sessionStorage.setItem(KEPT, JSON.stringify({ page: pagePath(), forms: forms }));
        } else {
          window.sessionStorage.removeItem(KEPT);
        }
      } catch (e) { /* storage refused: the page comes back as the server has it */ }
    });
  });
  // A page left with typing not sent, by a reload (on a phone a pull down the page does one, often
  // by accident) or a link, keeps it for its next load, as a send does for the other forms: the
  // order half typed came back empty. A send has kept what it had to already. Only what was typed
  // since this load is kept: typing kept before and left as it was lasts one load, as ever, so a
  // second reload shows the page as the server has it.
  var typedHere = [];
  document.querySelectorAll("form[id]").forEach(function (form) {
    form.addEventListener("input", function () { if (typedHere.indexOf(form) < 0) { typedHere.push(form); } });
  });
  window.addEventListener("pagehide", function () {
    if (sending) { return; }
    var forms = {}, any = false;
    typedHere.forEach(function (form) {
      var key = formKey(form), typed = typedInto(form);
      if (key && typed) { forms[key] = typed; any = true; }
    });
    if (!any) { return; }
    try {
      window.sessionStorage.setItem(KEPT, JSON.stringify({ page: pagePath(), forms: forms }));
    } catch (e) { /* storage refused: the page comes back as the server has it */ }
  });
}

// The tab keeps a player's drafts (each order form's last odds, with the draft they were asked
// for, and typing not sent) for the pages' own use. Signing out hands the browser on, perhaps to
// the next person at a shared device: nothing of them may be left to read back (R13). Run after
// keepTypingOnSend's own listener, which keeps the typing of the page it is sent from.
function forgetOnSignOut() {
  var form = document.getElementById("sign-out");
  if (!form) { return; }
  form.addEventListener("submit", function (event) {
    if (event.defaultPrevented) { return; }
    try {
      var keys = [];
      for (var i = 0; i < window.sessionStorage.length; i++) { keys.push(window.sessionStorage.key(i)); }
      keys.forEach(function (key) { if (key && key.indexOf("sevens-") === 0) { window.sessionStorage.removeItem(key); } });
    } catch (e) { /* storage turned off: nothing was kept */ }
  });
}
// A page that shows links once (a new game's, a new organiser link, a new invite) may stay open
// while another tab or browser makes a newer link for the same organiser or seat, which retires
// the one shown here. So the page asks whether its links still work (a mark per link, that tells
// nothing of the link) every few seconds while it is in front, as it comes back to the front, and
// when the reader copies from it, and says so at each link that no longer works.
function watchShownLinks() {
  var main = document.querySelector("main[data-links]");
  if (!main) { return; }
  var shown = main.querySelectorAll("[data-link][data-mark]");
  if (!shown.length) { return; }
  var stop = null;
  function what(el) {
    return el.dataset.link === "organiser" ? "the organiser link" : "seat " + el.dataset.link.slice(1);
  }
  function say(before, text) {
    var note = element("p", text);
    note.className = "retired-note";
    note.setAttribute("role", "alert");
    before.parentNode.insertBefore(note, before);
    return note;
  }
  // ``el``: the link's <code>, or the list item that holds it (a new game's invites).
  function retire(el, why) {
    if (el.dataset.retired) { return; }
    el.dataset.retired = why;
    var code = el.tagName === "CODE" ? el : el.querySelector("code");
    code.classList.add("retired-link");
    var note = element("strong", "This link no longer works: " + why + ". Do not send it.");
    note.className = "retired-note";
    note.setAttribute("role", "alert");
    code.parentNode.insertBefore(note, code.nextSibling);
    var take = el.querySelector("a.take-seat");
    if (take) { take.hidden = true; }
    var copy = code.id ? document.querySelector("button[data-copies='" + code.id + "']") : null;
    if (copy) { copy.hidden = true; }  // a link that no longer works is not offered to copy
  }
  // ``el`` as for retire: an invite this browser can no longer check, since it no longer organises.
  function unsure(el) {
    var code = el.tagName === "CODE" ? el : el.querySelector("code");
    if (el.dataset.unsure || el.dataset.retired) { return; }
    el.dataset.unsure = "yes";
    var note = element("strong", "This browser no longer organises the game (a new organiser link was made in " +
      "another browser), so it cannot tell whether this link still works: whoever organises it now can.");
    note.className = "unsure-note";
    note.setAttribute("role", "status");
    code.parentNode.insertBefore(note, code.nextSibling);
  }
  // ``el`` shown for a part in the game this browser no longer has.
  function lostPart(el) {
    if (el.dataset.link === "organiser" || el.dataset.held) {
      retire(el, "this browser has lost its part in the game since this page was shown " +
        "(a new " + (el.dataset.link === "organiser" ? "organiser link" : "link for " + what(el)) +
        " was made in another browser)");
    } else {
      unsure(el);
    }
  }
  function allLinksBox() {
    var box = document.getElementById("all-links");
    var gone = Array.prototype.slice.call(main.querySelectorAll("#invites [data-retired]"));
    if (!box || !gone.length) { return; }
    var seats = gone.map(function (el) { return el.dataset.link.slice(1); }).join(", ");
    var note = document.getElementById("all-links-retired") ||
      say(box.previousElementSibling || box, "");
    note.id = "all-links-retired";
    note.textContent = "In this box the link" + (gone.length > 1 ? "s of seats " : " of seat ") + seats +
      (gone.length > 1 ? " no longer work" : " no longer works") +
      ": newer ones were made after this page was shown. Do not send the box as it is.";
  }
  function check() {
    fetch(main.dataset.links, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (response.status === 403 || response.status === 404) { return { lost: true }; }
      return response.ok ? response.json() : null;
    }).then(function (marks) {
      if (!marks) { return; }
      if (marks.lost) {
        // This browser no longer organises the game (a new organiser link made in another
        // browser), or no longer plays the seat (signed out): the organiser link it was shown, or
        // the link to its own seat (``data-held``), is gone with it. A seat's invite shown to the
        // organiser still opens that seat, and whether a newer one replaced it is no longer this
        // browser's to know: say that, rather than call it dead.
        stop();
        shown.forEach(lostPart);
        return;
      }
      // No mark for a link shown: the answer is for a part this browser still has (a seat it
      // plays), not the one the link was shown for (organising).
      shown.forEach(function (el) {
        var now = marks[el.dataset.link];
        if (now === undefined) {
          lostPart(el);
        } else if (now !== el.dataset.mark) {
          retire(el, "a newer link for " + what(el) + " was made after this page was shown (in another tab or browser)");
        }
      });
      allLinksBox();
    }).catch(function () { /* offline for a moment: try again at the next tick */ });
  }
  stop = poll(check);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { check(); } });
  window.addEventListener("focus", check);
  document.addEventListener("copy", check);
  main.querySelectorAll("button[data-copies]").forEach(function (button) { button.addEventListener("click", check); });
}

// A form sent while the browser knows it is offline (a phone in a tunnel, on a train) went to the
// browser's own error page, and the way back found the page as the server had it: the order typed
// was lost. Such a send is stopped here, before anything else hears of it (the question an act
// asks first, the typing kept for other forms), and the form says why, keeping what was typed.
function holdSendsOffline() {
  document.addEventListener("submit", function (event) {
    if (navigator.onLine !== false) { return; }
    event.preventDefault();
    event.stopPropagation();
    var form = event.target, note = form.querySelector(".offline-note");
    if (note === null) {
      note = element("span");
      note.className = "offline-note";
      note.setAttribute("role", "alert");
      form.appendChild(note);
    }
    note.textContent = "Not sent: this device is offline. What you typed is still here: send it again once it is back online.";
  }, true);
  // Back online: the notes have said their piece, and the next send goes as usual.
  window.addEventListener("online", function () {
    document.querySelectorAll(".offline-note").forEach(function (note) { note.remove(); });
  });
}

// Acts that cannot be undone ask first; without JavaScript the form is sent as it is. A form of a
// row (a seat's) asks its own question and names, in data-confirm-more, the hidden paragraph
// that says the rest, the same for every row, written once on the page.
function confirmActs() {
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var more = form.dataset.confirmMore ? document.getElementById(form.dataset.confirmMore) : null;
      var question = more ? form.dataset.confirm + " " + more.textContent : form.dataset.confirm;
      if (!window.confirm(question)) { event.preventDefault(); }
    });
  });
}

// A page that answers a form (the game just created, a new invite, a refused order) names the
// address to show instead of the form's: reloading it then reads that page, rather than sending
// the form again (a second game, another invite, a stale order).
function canonicalAddress() {
  var main = document.querySelector("main[data-canonical]");
  if (main && window.history && window.history.replaceState) {
    window.history.replaceState(null, "", main.dataset.canonical);
    // An address naming a part of the page (a team's "#team-...") stops the browser from focusing
    // a refused form's summary (or a refused button's note) as the page opens: focus it here
    // instead, once loading is done.
    var summary = document.querySelector(".error-summary[autofocus], .notice[autofocus]");
    if (summary) { window.setTimeout(function () { summary.focus(); }, 0); }
  }
}

// A refused form's summary links to the box to fix: the link puts the focus in that box, ready to
// type (without JavaScript the link scrolls to it, and Tab goes on from there).
function errorSummaryLinks() {
  document.querySelectorAll(".error-summary a[href^='#']").forEach(function (link) {
    link.addEventListener("click", function (event) {
      var box = document.getElementById(link.getAttribute("href").slice(1));
      if (!box) { return; }
      event.preventDefault();
      box.focus();
    });
  });
}

// "Copy all the invite links", and "Copy" beside a link shown once (an organiser link, an invite):
// the buttons show only where this script runs. A button copies its box (a textarea) or the text of
// its link (a <code>, which the keyboard alone could not select) through the clipboard; where the
// browser refuses that, it selects the text for Ctrl+C (a box works that way without the script
// too). What happened is said in the status beside it.
function copyButtons() {
  document.querySelectorAll("button[data-copies]").forEach(function (button) {
    var box = document.getElementById(button.dataset.copies);
    var said = document.getElementById(button.id + "-said");
    if (!box || !said) { return; }
    var field = box.tagName === "TEXTAREA";
    function text() { return field ? box.value : box.textContent.trim(); }
    var lines = text().split("\n").length;
    var done = lines > 1 ? "Copied " + lines + " links: paste them where you send them."
      : "Copied: paste the link where you send it.";
    function tell(words) { said.textContent = words; }
    function selectForHand() {
      if (field) {
        box.focus();
        box.select();
      } else {
        var range = document.createRange();
        range.selectNodeContents(box);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
      }
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      tell(copied ? done
        : "This browser did not let the page copy: " + (field ? "the links are selected in the box" : "the link is selected") +
          ", press Ctrl+C (Cmd+C on a Mac) to copy " + (field ? "them." : "it."));
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      tell("");
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text()).then(function () { tell(done); }, selectForHand);
      } else {
        selectForHand();
      }
    });
  });
}

// A live count on the name boxes in characters as a reader sees them (a flag or an emoji is one),
// as the server counts a name: a box's maxlength is in UTF-16 units, past the cap for most text,
// so someone typing emoji could not tell where the cap was. It never stops a name being sent: the
// server judges, and says what is too long. Where there is no Intl.Segmenter it counts code points.
// A character of format characters alone (the zero width space between Thai or Khmer words) shows
// nothing, and is not counted, as the server does not (names.shown_length).
function characterCounts() {
  var segmenter = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  var unseen = /^\p{Cf}+$/u;
  function count(text) {
    return Array.from(segmenter ? segmenter.segment(text) : text, function (part) {
      return typeof part === "string" ? part : part.segment;
    }).filter(function (shown) { return !unseen.test(shown); }).length;
  }
  document.querySelectorAll("input[data-count]").forEach(function (box) {
    var most = Number(box.dataset.count), timer = null;
    var shown = element("span"), said = element("span");
    shown.className = "hint char-count";
    shown.id = box.id + "-count";
    shown.setAttribute("aria-hidden", "true");  // read with the box (aria-describedby); said below when typing stops
    said.className = "visually-hidden";
    said.setAttribute("aria-live", "polite");
    var label = box.closest("label") || box;
    label.parentNode.insertBefore(said, label.nextSibling);
    label.parentNode.insertBefore(shown, label.nextSibling);
    box.setAttribute("aria-describedby", ((box.getAttribute("aria-describedby") || "") + " " + shown.id).trim());
    function words() {
      var n = count(box.value);
      shown.classList.toggle("too-long", n > most);
      return n + " of " + most + " characters" + (n > most ? ": too long" : "");
    }
    shown.textContent = words();
    box.addEventListener("input", function () {
      var text = words();
      shown.textContent = text;
      // Said once typing pauses, not at every key.
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { said.textContent = text; }, 700);
    });
  });
}

// The big screen asks the browser to keep the screen on (Screen Wake Lock, in Chromium over HTTPS
// or on this machine) and says whether it does; the browser lets go when the page is hidden, so it
// asks again when the page is shown.
function keepAwake() {
  var note = document.getElementById("wake-note");
  if (!note) { return; }
  if (!("wakeLock" in navigator)) {
    note.textContent = "This browser cannot keep the screen on: turn off the screen's sleep in its own settings. The page follows the game by itself.";
    return;
  }
  var lock = null;
  function ask() {
    navigator.wakeLock.request("screen").then(function (held) {
      lock = held;
      note.textContent = "This screen is kept on while this page is shown. The page follows the game by itself.";
    }, function () {
      note.textContent = "The browser refused to keep the screen on (a page over plain HTTP, or a battery saver): turn off the screen's sleep in its own settings. The page follows the game by itself.";
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && (lock === null || lock.released)) { ask(); }
  });
  ask();
}

document.addEventListener("DOMContentLoaded", function () {
  copyButtons();
  keepAwake();
  canonicalAddress();
  restoreTyping();
  characterCounts();
  errorSummaryLinks();
  localTimes();
  watchScrollBoxes();
  countdowns();
  clockTimeDeadlines();
  holdSendsOffline();
  confirmActs();
  keepTypingOnSend();
  forgetOnSignOut();
  document.querySelectorAll("form.order-form[data-odds]").forEach(watchOdds);
  document.querySelectorAll("form.order-form").forEach(explainEmptyBoxes);
  restoreReadingPlace();
  followGame();
  watchShownLinks();
  retryByItself();
});
