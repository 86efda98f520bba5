// Clocks (time controls): the create form's choice, and each seat's time shown beside its name,
// counting down on the page from the server's last reading (`state.clock` / `update.clock`).

import { h } from "./ui.js";

/** The time controls offered at creation: [value, words, clock sent with `create`]. */
export const CLOCK_CHOICES = [
  ["none", "No clock", null],
  ["move-1d", "1 day per move", { kind: "per_move", seconds: 86400 }],
  ["move-1h", "1 hour per move", { kind: "per_move", seconds: 3600 }],
  ["move-5m", "5 minutes per move", { kind: "per_move", seconds: 300 }],
  ["move-30s", "30 seconds per move", { kind: "per_move", seconds: 30 }],
  ["move-5s", "5 seconds per move", { kind: "per_move", seconds: 5 }],
  ["total-5m-5s", "5 min + 5 s a move", { kind: "total", seconds: 300, increment: 5 }],
  ["total-10m", "10 min + 0", { kind: "total", seconds: 600, increment: 0 }],
  ["total-30m-20s", "30 min + 20 s a move", { kind: "total", seconds: 1800, increment: 20 }],
];

/** The "Clock" choice of the create form (games whose `/api/games` entry says `clocks: true`):
 * its element and the `clock` it sends (null: none). */
export function clockField() {
  const select = h("select", { id: "opt-clock", "data-key": "opt-clock" },
    CLOCK_CHOICES.map(([value, words]) => h("option", { value }, words)));
  const element = h("div", { class: "row" }, h("label", { for: "opt-clock" }, "Clock "), select);
  const read = () => (CLOCK_CHOICES.find(([value]) => value === select.value) || [])[2] ?? null;
  return { element, read };
}

/** Seconds as a clock reads: "0:07", "4:59", "1:02:03", "2 d 03:00" when large. */
export function formatClock(seconds) {
  const total = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, "0");
  if (days) return `${days} d ${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  return `${minutes}:${secs}`;
}

/** Seconds left for `seat` now: the server's reading, less the time since this page got it
 * for a seat whose time runs (counted from receipt, so the two machines' clocks need not agree). */
export function secondsLeft(clock, seat, now = Date.now()) {
  const reading = Number(clock.remaining?.[String(seat)] ?? 0);
  const running = (clock.running || []).includes(seat);
  return running ? reading - (now - clock.received) / 1000 : reading;
}

/** The whole time a seat has (to say when it is low: under 10 % of it, or under 30 s). */
function fullTime(clock) {
  return Number(clock.control?.seconds) || 0;
}

function isLow(clock, left) {
  return left < 30 || left < fullTime(clock) * 0.1;
}

/** A seat's clock beside its name (null: the match has no clock). */
export function seatClock(clock, seat) {
  if (!clock || clock.remaining?.[String(seat)] === undefined) return null;
  const el = h("span", { class: "clock", dataset: { seat } });
  showClock(el, clock, seat);
  return el;
}

function showClock(el, clock, seat) {
  const left = secondsLeft(clock, seat);
  const running = (clock.running || []).includes(seat);
  el.textContent = formatClock(left);
  el.classList.toggle("running", running);
  el.classList.toggle("low", isLow(clock, left));
  el.dataset.left = String(Math.max(0, Math.ceil(left)));
  el.title = `${running ? "time running" : "time stopped"}: ${formatClock(left)} left (${clock.words || ""})`;
}

/** Every second, set the clocks shown in `root` again (only their text: the page is not
 * redrawn). Returns what stops it. */
export function tickClocks(root, clockOf) {
  const timer = setInterval(() => {
    const clock = clockOf();
    if (!clock) return;
    for (const el of root.querySelectorAll(".clock[data-seat]")) showClock(el, clock, Number(el.dataset.seat));
  }, 1000);
  return () => clearInterval(timer);
}
