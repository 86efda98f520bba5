// Small DOM helpers shared by every screen: element builders, focus keeping, wording.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    // through the CSSOM: the Content-Security-Policy refuses style attributes (style-src 'self')
    else if (key === "style") el.style.cssText = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** h("button", {class: "x", onclick: f}, "label") */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace the content of `root`, keeping keyboard focus on the element with the same data-key
 * (and, for a text field kept across draws, where its caret or selection was: someone typing,
 * or a selection about to be typed over, is not disturbed by a redraw). */
export function replaceKeepingFocus(root, ...nodes) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : null;
  const selection = key ? selectionOf(active) : null;
  root.replaceChildren(...nodes.flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false));
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus();
    if (again === active && selection) active.setSelectionRange(...selection);
  }
}

/** Where the caret or selection of a text field is (null: not a text field). */
function selectionOf(element) {
  try {
    const start = element.selectionStart;
    return typeof start === "number" ? [start, element.selectionEnd, element.selectionDirection] : null;
  } catch {
    return null; // a field without a selection (a number, a checkbox)
  }
}

/** What an error code means for the person at the page, beyond the server's message. */
const ERROR_WORDS = {
  "session/rate_limited": "Too many new players or matches from here just now: wait a minute, then try again.",
  "session/no_such_match": "There is no such match, or it is private: a private match can be joined or watched "
    + "only through its invitation link.",
  "session/nickname_taken": "That nickname belongs to someone else (a player who keeps it with their own browser, "
    + "or a computer player): choose another one.",
  "session/bad_nickname": "That nickname cannot be used: 1 to 32 characters, letters of one alphabet, "
    + "no invisible or control characters.",
  "session/bad_bot_level": "There is no computer player of that level.",
  "session/too_many_bots": "There are more bots than free seats.",
  "session/too_many_waiting": "You already have open matches waiting for players: play or leave one of them first.",
  "session/bad_password": "That nickname and password do not match (or the nickname has no password).",
  "session/bad_recovery_code": "That recovery code is not the nickname's current code (a code works once; "
    + "a newer code replaces an older one).",
  "session/banned": "This nickname has been banned by the operators.",
  "session/weak_password": "That password cannot be used: 8 to 128 characters, at least 4 of them different.",
  "session/bad_token": "This browser is no longer signed in (it was signed out or revoked from another device): "
    + "sign in again.",
  "session/unknown_player": "There is no such player.",
  "session/unknown_game": "There is no such game.",
};

export function errorText(error) {
  if (!error) return "";
  if (!error.code) return String(error.message || error);
  const words = error.code === "session/throttled" ? throttled(error) : ERROR_WORDS[error.code];
  return words ? `${words} (${error.message}; ${error.code})` : `${error.message} (${error.code})`;
}

/** Too many wrong passwords: how long to wait, from the server's ``details.retry_after`` (s). */
function throttled(error) {
  const seconds = Math.ceil(Number(error.details?.retry_after) || 0);
  const wait = seconds >= 90 ? `about ${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return `Too many wrong passwords for this nickname: wait ${seconds ? wait : "a little"}, then try again.`;
}

/** An ISO time as a person reads it here (the browser's language and time zone). */
export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** A computer player, as seats and lists show it (its nickname, random-bot-34355495, says
 * nothing to a person). */
export function botName(level) {
  return `Bot (${level})`;
}

/** The computer levels as a person picks them: weakest first, the server's aliases (mcts, the
 * old name of hard) last; each with words that say what it is. */
const LEVEL_ORDER = ["easy", "medium", "hard", "random"];
const LEVEL_WORDS = { easy: "easy", medium: "medium", hard: "hard", random: "random moves", mcts: "mcts (the old name of hard)" };

export function orderedLevels(levels) {
  const known = LEVEL_ORDER.filter((l) => levels.includes(l));
  return [...known, ...levels.filter((l) => !known.includes(l))];
}

export function levelWords(level) {
  return LEVEL_WORDS[level] || level;
}

/** The level offered first when a person plays the computer: medium when the server has it. */
export function defaultLevel(levels) {
  return levels.includes("medium") ? "medium" : levels[0];
}

/** What a person reads for a seat's player: the nickname, or "Bot (level)" for a computer. */
export function playerName(s) {
  return s.bot ? botName(s.bot) : s.nickname;
}

export function seatName(seats, seat) {
  const s = seats && seats.find((x) => x.seat === seat);
  if (!s) return `seat ${seat}`;
  return s.nickname ? `${playerName(s)} (${s.label})` : `${s.label} (empty)`;
}

/** Why a match ended outside the rules, in words (a resignation, a claim, an abort). */
function endedWhy(outcome, seats) {
  const detail = outcome.detail || {};
  if (outcome.reason === "resigned" && detail.seat !== undefined) return ` — ${seatName(seats, detail.seat)} resigned`;
  if (outcome.reason === "abandoned" && detail.away) return ` — ${detail.away.map((s) => seatName(seats, s)).join(", ")} left the match`;
  return null;
}

/** How the match ended: the server's words for us (`outcome_said`) when it sent them. */
export function outcomeText(outcome, seats, you, said = null) {
  if (!outcome) return "";
  if (said && said.length) return said.join(" ");
  const names = outcome.winners.map((w) => seatName(seats, w)).join(", ");
  const why = endedWhy(outcome, seats) ?? (outcome.reason ? ` — ${outcome.reason.replaceAll("_", " ")}` : "");
  if (outcome.draw) return `Draw${names ? " between " + names : ""}${why}`;
  if (!names && (outcome.reason || "").startsWith("lorenzo")) return `Lorenzo wins${why}`; // solo Renaissance
  if (!names) return `Nobody wins${why}`;
  const mine = you !== null && you !== undefined && outcome.winners.includes(you);
  return `${mine ? "You win! " : ""}Winner: ${names}${why}`;
}

/** An action in words, for move logs and the replay ("move 1,2 → 2,2"). */
export function describeAction(action) {
  const { type, ...rest } = action;
  const parts = Object.entries(rest).map(([k, v]) =>
    `${k} ${typeof v === "object" ? JSON.stringify(v).replace(/["{}]/g, "") : v}`);
  return `${type.replaceAll("_", " ")}${parts.length ? ": " + parts.join(", ") : ""}`;
}

/** What every screen answers to; the app calls these as routes and messages come. */
export class Screen {
  constructor(app, root, kind, id) {
    this.app = app;
    this.root = root;
    this.kind = kind;
    this.id = id;
    this.error = null;
    this.left = false;
  }
  async enter() { this.render(); }
  leave() { this.left = true; }
  async reattach() {}
  render() {}
  onLobby() {}
  onMatch() {}
  fail(error) {
    this.error = error;
    this.render();
  }
  errorLine() {
    return h("p", { class: "error", role: "alert", "aria-live": "assertive" }, errorText(this.error));
  }
}

/** Arrow keys move the focus between the buttons of a board grid (data-row / data-col). */
export function arrowKeys(grid) {
  grid.addEventListener("keydown", (event) => {
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    const cell = event.target.closest("[data-row]");
    if (!step || !cell) return;
    const row = Number(cell.dataset.row) + step[0];
    const col = Number(cell.dataset.col) + step[1];
    const next = grid.querySelector(`[data-row="${row}"][data-col="${col}"]`);
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
  return grid;
}

export const SEAT_COLOURS = ["#2f6fd6", "#d9622b", "#2a9d55", "#8e44ad"];
