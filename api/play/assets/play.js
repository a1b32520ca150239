// The play page: the board of one game, played by clicking (click-click
// or drag), by keyboard (arrows and Enter) and with a screen reader.
// The server decides everything: the page shows the state it is sent
// (server-sent events) and sends each action as the player's command.

import { parseEvents, choicesFor, targetsFrom, sourcesOf, moveAt } from "./board.js";

const $ = (id) => document.getElementById(id);
const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? "";

const page = {
  game: meta("arbiter-game"),
  csrf: meta("arbiter-csrf"),
  bearer: "", // the Activity's session (no cookies reach an iframe)
  state: null,
  selected: -1, // the cell a move starts from, or -1
  cursor: -1, // the focused cell, for the keyboard
  // busy is the version of the state an action was sent from, until its
  // answer comes, or -1. A newer state (an event may bring it before the
  // answer: a player who moves again) can be acted on at once.
  busy: -1,
  confirming: null,
};

function headers(extra = {}) {
  const h = { ...extra };
  if (page.bearer) h.Authorization = "Bearer " + page.bearer;
  if (page.csrf) h["X-Arbiter-CSRF"] = page.csrf;
  return h;
}

// base is where the page reads and acts on its game: a player's, or a
// wall's read-only one for a spectator.
function base() {
  return meta("arbiter-base") || `/play/game/${encodeURIComponent(page.game)}/`;
}

function say(text, bad = false) {
  const m = $("message");
  m.textContent = text;
  m.className = bad ? "bad" : "";
}

// listen reads the game's events over fetch (EventSource sends no
// Authorization header) and shows each state; it reconnects after a break.
async function listen() {
  for (;;) {
    try {
      const resp = await fetch(base() + "events", { headers: headers(), cache: "no-store" });
      if (resp.status === 401 || resp.status === 403 || resp.status === 404) {
        const err = await resp.json().catch(() => ({}));
        say(err.error || "This board cannot be shown.", true);
        return;
      }
      const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        const { events, rest } = parseEvents(buf);
        buf = rest;
        for (const ev of events) if (ev.name === "game") show(JSON.parse(ev.data));
      }
    } catch (e) {
      // the connection broke: try again in a moment
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

// show draws a state of the game, keeping the selection when it still fits.
// A state older than the one shown (an answer overtaken by an event) is
// dropped: versions only grow.
function show(st) {
  if (page.state && st.version < page.state.version) return;
  const fresh = !page.state || page.state.version !== st.version;
  page.state = st;
  if (fresh) page.selected = -1;
  document.title = `${st.title}: ${st.players[0]} – ${st.players[1]}`;
  $("title").textContent = st.title;
  $("players").textContent = `${st.sides[0]} ${st.players[0]} against ${st.sides[1]} ${st.players[1]}`;
  const board = $("board");
  board.innerHTML = st.svg;
  board.dataset.version = st.version;
  const svg = board.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `${st.title} board`);
  for (const c of cells()) {
    c.addEventListener("pointerdown", onDown);
    c.addEventListener("pointerup", onUp);
    c.addEventListener("keydown", onKey);
    c.addEventListener("focus", () => { page.cursor = +c.dataset.i; });
  }
  mark();
  showStatus();
  showActions();
}

function cells() {
  return [...document.querySelectorAll("#board rect.cell")];
}

function cell(i) {
  return document.querySelector(`#board rect.cell[data-i="${i}"]`);
}

// mark shows the selection and, for it, the legal targets; with none
// selected, the pieces that can move and the cells a piece can be dropped on.
function mark() {
  const st = page.state;
  const moves = st.moves || [];
  const sources = sourcesOf(moves);
  // With nothing selected, the cells a drop (a move with no start) goes to.
  const targets = targetsFrom(moves, page.selected);
  for (const c of cells()) {
    const i = +c.dataset.i;
    c.classList.toggle("selected", i === page.selected);
    c.classList.toggle("target", targets.has(i));
    c.classList.toggle("movable", page.selected < 0 && sources.has(i));
    const base = c.getAttribute("aria-label").replace(/ \((selected|can move|legal target)\)$/, "");
    const note = i === page.selected ? " (selected)" : targets.has(i) ? " (legal target)" : page.selected < 0 && sources.has(i) ? " (can move)" : "";
    c.setAttribute("aria-label", base + note);
    c.setAttribute("tabindex", i === page.cursor ? "0" : "-1");
  }
  if (page.cursor < 0 || !cell(page.cursor)) {
    const first = [...sources][0] ?? +(cells()[0]?.dataset.i ?? -1);
    page.cursor = first;
    cell(first)?.setAttribute("tabindex", "0");
  }
  const passes = moves.filter((m) => m.from < 0 && m.to < 0);
  showChoices(page.selected < 0 ? passes : []);
}

function showStatus() {
  const st = page.state;
  let line;
  if (st.status === "finished") line = `Game over: ${st.result}`;
  else if (st.status === "challenge") line = "The challenge has not been accepted yet.";
  else if (st.status === "paused") line = "A referee has paused the game.";
  else if (st.you && st.toMove === st.you) line = `Your move (${st.sides[st.you - 1]}).`;
  else line = `${st.players[st.toMove - 1]} to move (${st.sides[st.toMove - 1]}).`;
  if (st.last) line += ` Last move: ${st.last}.`;
  if (st.drawOffer && st.drawOffer !== st.you) line += " A draw is offered.";
  if (st.undoOffer && st.undoOffer !== st.you) line += " A takeback is asked for.";
  $("status").textContent = line;
  const dl = st.deadline && !st.deadline.startsWith("0001") ? new Date(st.deadline) : null;
  $("clock").textContent = dl ? `Move due by ${dl.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })} (your time)` : "";
}

function showActions() {
  const st = page.state;
  const playing = st.you > 0 && st.status === "active";
  $("actions").hidden = !playing;
  $("draw").hidden = !st.drawable;
  $("draw").textContent = st.drawOffer && st.drawOffer !== st.you ? "Accept draw" : "Offer draw";
  const asked = st.undoOffer && st.undoOffer !== st.you;
  $("undo").textContent = asked ? "Allow takeback" : "Take back";
  $("undo").hidden = !asked && !st.undoable; // nothing of yours to take back yet
}

// choose handles a press on cell i: select a piece, or play to a target.
function choose(i) {
  const st = page.state;
  if (!st || page.busy === st.version) return;
  const moves = st.moves || [];
  if (page.selected >= 0 && i !== page.selected) {
    const found = moveAt(moves, page.selected, i);
    if (found.length === 1) return send("move", found[0].text);
    if (found.length > 1) return showChoices(found);
  }
  if (i === page.selected) {
    page.selected = -1;
  } else if (sourcesOf(moves).has(i)) {
    page.selected = i;
  } else {
    const direct = moveAt(moves, -1, i); // a move that only names a cell (a drop)
    if (direct.length === 1) return send("move", direct[0].text);
    if (direct.length > 1) return showChoices(direct);
    page.selected = -1;
    if (st.you && st.toMove !== st.you && st.status === "active") say("It is not your move.");
  }
  mark();
}

// showChoices lists moves as buttons: passes, or moves the cells alone
// do not tell apart.
function showChoices(list) {
  const box = $("choices");
  box.replaceChildren(...choicesFor(list).map((m) => {
    const b = document.createElement("button");
    b.textContent = m.from < 0 && m.to < 0 ? `Pass (${m.text})` : m.text;
    b.addEventListener("click", () => send("move", m.text));
    return b;
  }));
  box.hidden = list.length === 0;
}

let dragFrom = -1;

function onDown(e) {
  dragFrom = +e.currentTarget.dataset.i;
  e.currentTarget.releasePointerCapture?.(e.pointerId);
}

function onUp(e) {
  const i = +e.currentTarget.dataset.i;
  if (dragFrom >= 0 && dragFrom !== i && page.selected !== dragFrom && sourcesOf(page.state.moves || []).has(dragFrom)) {
    page.selected = dragFrom; // a drag: from where it started to here
  }
  dragFrom = -1;
  choose(i);
}

// onKey moves the cursor with the arrows (to the nearest cell that way)
// and presses the cell with Enter or Space.
function onKey(e) {
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    choose(+e.currentTarget.dataset.i);
    cell(page.cursor)?.focus();
    return;
  }
  if (e.key === "Escape") {
    page.selected = -1;
    mark();
    return;
  }
  const d = dirs[e.key];
  if (!d) return;
  e.preventDefault();
  const at = (c) => ({ x: +c.getAttribute("x") + c.getAttribute("width") / 2, y: +c.getAttribute("y") + c.getAttribute("height") / 2 });
  const from = at(e.currentTarget);
  let best = null, bestScore = Infinity;
  for (const c of cells()) {
    const p = at(c);
    const along = (p.x - from.x) * d[0] + (p.y - from.y) * d[1];
    if (along <= 0) continue;
    const across = Math.abs((p.x - from.x) * d[1]) + Math.abs((p.y - from.y) * d[0]);
    const score = along + 3 * across;
    if (score < bestScore) { best = c; bestScore = score; }
  }
  if (best) {
    page.cursor = +best.dataset.i;
    mark();
    best.focus();
  }
}

// send asks the server to do an action; the answer carries the game as
// it is now, refused or not.
async function send(action, move = "") {
  const from = page.state.version;
  if (page.busy === from) return;
  page.busy = from;
  showChoices([]);
  try {
    const resp = await fetch(base() + "act", {
      method: "POST",
      headers: headers({ "Content-Type": "application/json" }),
      body: JSON.stringify({ action, move, version: from }),
    });
    const ans = await resp.json();
    if (!resp.ok) {
      say(ans.error || "Refused.", true);
    } else {
      say(ans.text.split("\n")[0].replace(/\*\*/g, ""), !ans.ok);
      if (ans.game) show(ans.game);
    }
  } catch (e) {
    say("The server cannot be reached; nothing was sent. Try again.", true);
  } finally {
    if (page.busy === from) page.busy = -1;
  }
}

// confirm asks before a resignation, a draw offer or a takeback.
function confirmThen(question, action) {
  page.confirming = action;
  $("confirm-text").textContent = question;
  $("confirm").hidden = false;
  $("confirm-yes").focus();
}

function setup() {
  $("resign").addEventListener("click", () => confirmThen("Resign this game? The other side wins.", "resign"));
  $("draw").addEventListener("click", () => confirmThen($("draw").textContent === "Accept draw" ? "Accept the draw?" : "Offer a draw?", "draw"));
  $("undo").addEventListener("click", () => confirmThen($("undo").textContent === "Allow takeback" ? "Allow the takeback?" : "Ask to take back your last move?", "undo"));
  $("confirm-yes").addEventListener("click", () => {
    $("confirm").hidden = true;
    send(page.confirming);
  });
  $("confirm-no").addEventListener("click", () => {
    $("confirm").hidden = true;
    say("Nothing was changed.");
  });
}

// activity signs in inside Discord: the Embedded App SDK's authorize
// gives a code that the server exchanges for a session.
async function activity() {
  const params = new URLSearchParams(location.search);
  const { signIn } = await import("./activity.js");
  const { session, game } = await signIn(meta("arbiter-client"), params);
  page.bearer = session;
  page.game = game;
}

async function main() {
  setup();
  if (!page.game) {
    try {
      await activity();
    } catch (e) {
      say(`Signing in through Discord failed: ${e.message}`, true);
      return;
    }
  }
  listen();
}

main();
