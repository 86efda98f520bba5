// Masters of Renaissance: the faith track (Vatican sections, Pope spaces, every marker and
// Lorenzo's black cross) and each player's board: warehouse depots 1/2/3, extra depots,
// strongbox, the three development slots, leaders and productions. Your own board is the one
// you click: depots to place or move resources, slots to put a bought card, leaders and
// productions to use.

import { h, SEAT_COLOURS, seatName, svg } from "../ui.js";
import { chip, amounts, amountWords, cardWords, devCard, leaderCard } from "./renaissance_parts.js";
import { depotKey, productions, startProduction } from "./renaissance_moves.js";

const SECTIONS = [[5, 8, 2], [12, 16, 3], [19, 24, 4]]; // first space, Pope space, tile VP
const TRACK_VP = { 3: 1, 6: 2, 9: 4, 12: 6, 15: 9, 18: 12, 21: 16, 24: 20 };
const CELL = 30;

/** The track in three pieces, each holding one Vatican section whole: side by side they are one
 * track; on a phone each is a row of its own (the track wraps instead of scrolling sideways). */
const PIECES = [[0, 8], [9, 16], [17, 24]];

function trackSpace(n, first) {
  const section = SECTIONS.find(([a, b]) => n >= a && n <= b);
  const pope = SECTIONS.some(([, b]) => b === n);
  const x = (n - first) * CELL;
  return svg("g", {},
    svg("rect", { x: x + 1, y: 14, width: CELL - 2, height: 34, rx: 3,
      class: `space ${section ? "vatican" : ""} ${pope ? "pope" : ""}` }),
    svg("text", { x: x + CELL / 2, y: 27, "text-anchor": "middle", class: "space-n" }, n),
    TRACK_VP[n] ? svg("text", { x: x + CELL / 2, y: 44, "text-anchor": "middle", class: "space-vp" }, `${TRACK_VP[n]}`) : null);
}

function trackPiece(ctx, [first, last]) {
  const { view } = ctx;
  const within = (n) => n >= first && n <= last;
  const markers = view.players.map((p, i) => (within(p.faith) ? svg("circle", {
    cx: (p.faith - first) * CELL + 8 + 7 * (i % 3), cy: 8 + 48 + 7 * Math.floor(i / 3) + 4,
    r: 6, fill: SEAT_COLOURS[p.seat % SEAT_COLOURS.length], stroke: "#222", class: "marker" },
  svg("title", {}, `${seatName(ctx.seats, p.seat)}: faith ${p.faith}`)) : null));
  const cross = view.lorenzo && within(view.lorenzo.black_cross) ? svg("text", {
    x: (view.lorenzo.black_cross - first) * CELL + CELL / 2, y: 11, "text-anchor": "middle", class: "black-cross" },
  "✚", svg("title", {}, `Lorenzo's black cross: ${view.lorenzo.black_cross}`)) : null;
  const tiles = SECTIONS.map(([a, b, vp], i) => (within(a) ? svg("g", {},
    svg("rect", { x: (a - first) * CELL, y: 76, width: (b - a + 1) * CELL, height: 14, rx: 4, class: `tile ${view.reports[i] ? "done" : ""}` }),
    svg("text", { x: ((a + b + 1) / 2 - first) * CELL, y: 87, "text-anchor": "middle", class: "tile-text" },
      `Vatican report ${i + 1}: ${vp} VP${view.reports[i] ? " (done)" : ""}`)) : null));
  const count = last - first + 1;
  return svg("svg", { viewBox: `0 0 ${count * CELL} 92`, class: "faith-piece", "aria-hidden": "true",
    style: `flex-grow: ${count}; --n: ${count}` },
  Array.from({ length: count }, (_, i) => trackSpace(first + i, first)), tiles, markers, cross);
}

/** The shared faith track: 0-24, the three sections and their tiles, every marker. */
export function faithTrack(ctx) {
  const { view } = ctx;
  const words = view.players.map((p) => `${seatName(ctx.seats, p.seat)} ${p.faith}`).join(", ")
    + (view.lorenzo ? `, Lorenzo ${view.lorenzo.black_cross}` : "");
  return h("figure", { class: "faith", id: "faith-track", role: "img", "aria-label": `faith track: ${words}` },
    PIECES.map((piece) => trackPiece(ctx, piece)));
}

function favourTiles(player) {
  return h("span", { class: "favours", "aria-label": "papal favour tiles" }, player.favours.map((f, i) =>
    h("span", { class: `favour f${f}`, title: f === 1 ? "face up" : f === -1 ? "removed" : "face down" },
      f === -1 ? "✗" : `${SECTIONS[i][2]}`)));
}

function depotButton(ctx, key, label, resource, count, capacity, targets) {
  const target = targets.get(key);
  const cells = Array.from({ length: capacity }, (_, i) =>
    i < count ? chip(resource) : h("span", { class: "res empty" }, ""));
  const text = `${label}: ${count ? `${count} ${resource}` : "empty"}${target ? ` — ${target.words}` : ""}`;
  return h(target ? "button" : "div", {
    type: target ? "button" : null, class: `depot ${target ? (target.selected ? "selected" : target.source ? "movable" : "target") : ""}`,
    "data-key": target ? `depot-${key}` : null, dataset: { depot: key }, "aria-label": text, title: text,
    onclick: target ? () => target.run() : null,
  }, h("span", { class: "depot-name" }, label), h("span", { class: "depot-cells" }, cells));
}

function warehouse(ctx, player, targets) {
  const extra = Object.entries(player.extra).map(([res, n]) =>
    depotButton(ctx, depotKey("extra", res), `Extra ${res}`, res, n, 2, targets));
  return h("div", { class: "warehouse", "aria-label": "warehouse" },
    player.depots.map((d) => depotButton(ctx, String(d.depot), `Depot ${d.depot}`, d.resource, d.count, d.depot, targets)),
    extra);
}

function strongbox(player) {
  const produced = Object.keys(player.produced).length ? h("small", { class: "produced" }, ` (made this turn: ${amountWords(player.produced)})`) : null;
  return h("div", { class: "strongbox", "aria-label": `strongbox: ${amountWords(player.strongbox)}` },
    h("span", { class: "depot-name" }, "Strongbox"), amounts(player.strongbox), produced);
}

function slot(ctx, player, n, targets, canProduce) {
  const stack = player.slots[n - 1];
  const target = targets.get(n);
  const top = stack[stack.length - 1];
  const words = `slot ${n}: ${top ? cardWords(top) : "empty"}${stack.length > 1 ? ` on ${stack.length - 1} more` : ""}`;
  return h("div", { class: "slot-col" },
    h(target ? "button" : "div", { type: target ? "button" : null, class: `slot ${target ? "target" : ""}`,
      "data-key": target ? `slot-${n}` : null, dataset: { slot: n }, "aria-label": words + (target ? ` — ${target.words}` : ""),
      onclick: target ? () => target.run() : null },
    h("span", { class: "depot-name" }, `Slot ${n}`),
    stack.slice(0, -1).map((c) => h("span", { class: `covered c-${c.color}` }, `L${c.level} ${c.color} ${c.vp} VP`)),
    top ? devCard(top) : h("span", { class: "hint" }, "empty")),
    canProduce ? h("button", { type: "button", class: "produce", "data-key": `produce-slot${n}`,
      onclick: () => startProduction(ctx, { kind: "card", slot: n }) }, `Produce with slot ${n}`) : null);
}

function leaders(ctx, player, can) {
  const legal = ctx.legal || [];
  const find = (type, id) => legal.find((a) => a.type === type && a.leader === id);
  if (!player.leaders) {
    return [player.active_leaders.map((l) => leaderCard(l, { class: "active" })),
      player.hand_size ? h("p", { class: "hint" }, `${player.hand_size} leader${player.hand_size > 1 ? "s" : ""} in hand`) : null];
  }
  return player.leaders.filter((l) => l.status !== "discarded").map((l) => {
    const activate = find("activate_leader", l.id);
    const discard = find("discard_leader", l.id);
    return leaderCard(l, { class: l.status, dataset: { status: l.status } },
      h("p", { class: "status" }, l.status === "active" ? "Active" : "In your hand"),
      activate ? h("button", { type: "button", "data-key": `activate-${l.id}`, onclick: () => ctx.act(activate) }, "Activate") : null,
      discard ? h("button", { type: "button", "data-key": `discard-leader-${l.id}`, onclick: () => ctx.act(discard) }, "Discard (+1 faith)") : null,
      can.has(`leader${l.id}`) ? h("button", { type: "button", class: "produce", "data-key": `produce-leader${l.id}`,
        onclick: () => startProduction(ctx, { kind: "leader", leader: l.id }) }, "Produce") : null);
  });
}

/** One player's board; `targets` are the clicks possible on your own. */
export function playerBoard(ctx, player, targets) {
  const mine = player.seat === ctx.you;
  const none = new Map();
  const can = mine ? productions(ctx) : new Set();
  return h("section", { class: `rn-player ${mine ? "mine" : ""} ${ctx.toAct.includes(player.seat) ? "to-act" : ""}`,
    id: mine ? "my-board" : `board-${player.seat}`, dataset: { seat: player.seat },
    "aria-label": `board of ${seatName(ctx.seats, player.seat)}` },
  h("h3", {}, h("span", { class: "swatch", style: `background: ${SEAT_COLOURS[player.seat % SEAT_COLOURS.length]}` }),
    ` ${seatName(ctx.seats, player.seat)} — faith ${player.faith} · ${player.score} VP `, favourTiles(player),
    player.setup_done ? "" : " · setting up"),
  h("div", { class: "rn-stores" }, warehouse(ctx, player, mine ? targets.depots : none), strongbox(player),
    can.has("base") ? h("button", { type: "button", class: "produce", id: "produce-base", "data-key": "produce-base",
      onclick: () => startProduction(ctx, { kind: "base" }) }, "Base production: 2 resources → 1") : null),
  h("div", { class: "slots", "aria-label": "development slots" },
    [1, 2, 3].map((n) => slot(ctx, player, n, mine ? targets.slots : none, can.has(`slot${n}`)))),
  h("div", { class: "rn-leaders", "aria-label": "leaders" }, leaders(ctx, player, can)));
}
