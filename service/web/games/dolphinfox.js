// Dolphins & Foxes: the grid of water and land with the units on it. Both players move at once:
// click one of your units, then one of the squares highlighted around it.

import { arrowKeys, h, svg } from "../ui.js";

const WATER = new Set(["W", "D", "G"]);
const UNIT = { D: "dolphin", E: "dolphin", F: "fox", G: "fox" };
const TEAM_NAME = { D: "Dolphins", F: "Foxes" };

function unitIcon(kind) {
  const fill = kind === "dolphin" ? "#1d4f91" : "#c0501e";
  return svg("svg", { viewBox: "0 0 40 40", class: "unit", "aria-hidden": "true" },
    kind === "dolphin"
      ? svg("path", { d: "M6 26 C10 12 26 8 34 14 L30 17 C26 14 18 16 14 24 L18 30 Z", fill })
      : svg("path", { d: "M8 10 L16 18 L24 18 L32 10 L30 26 L20 34 L10 26 Z", fill }),
    svg("text", { x: 20, y: 38, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, kind === "dolphin" ? "D" : "F"));
}

export function dolphinfox(ctx) {
  const { view, ui } = ctx;
  const n = view.size;
  const moves = ctx.legal || [];
  const key = (r, c) => `${r},${c}`;
  const movable = new Set(moves.map((m) => key(m.r1, m.c1)));
  if (ui.from && !movable.has(ui.from)) ui.from = null;
  const targets = new Map(moves.filter((m) => key(m.r1, m.c1) === ui.from).map((m) => [key(m.r2, m.c2), m]));
  const click = (here) => {
    if (targets.has(here)) {
      const move = targets.get(here);
      ui.from = null;
      ctx.act(move);
    } else {
      ui.from = movable.has(here) && ui.from !== here ? here : null;
      ctx.redraw();
    }
  };
  const cells = [];
  for (let r = 1; r <= n; r++) {
    for (let c = 1; c <= n; c++) {
      const ch = view.board[(r - 1) * n + (c - 1)];
      const here = key(r, c);
      const terrain = WATER.has(ch) ? "water" : "land";
      const unit = UNIT[ch];
      const classes = ["cell", terrain, movable.has(here) ? "movable" : "", ui.from === here ? "selected" : "",
        targets.has(here) ? "target" : ""].join(" ");
      cells.push(h("button", {
        type: "button", class: classes, "data-key": `df-${r}-${c}`, "data-row": r, "data-col": c,
        "aria-pressed": ui.from === here ? "true" : null,
        "aria-label": `row ${r}, column ${c}: ${terrain}${unit ? `, ${unit}` : ""}${targets.has(here) ? ": move here" : ""}`,
        onclick: () => click(here),
      }, unit ? unitIcon(unit) : null));
    }
  }
  const grid = arrowKeys(h("div", { class: "grid dolphinfox", id: "board", role: "group", "aria-label": "board",
    style: `--n: ${n}`, dataset: { board: view.board } }, cells));
  const team = view.team ? TEAM_NAME[view.team] : null;
  return h("div", { class: "game dolphinfox-game" }, grid,
    h("aside", { class: "facts" },
      team ? h("p", {}, `You lead the ${team}. ${view.team === "D" ? "Water" : "Land"} is your home: you capture only there.`) : null,
      h("p", { id: "df-units" }, `Dolphins ${view.units.D} · Foxes ${view.units.F}`),
      h("p", { id: "df-moves" }, `Moves ${view.moves} of ${view.max_moves}`),
      legend(),
      ctx.interactive && ctx.status === "active" && !ctx.legal ? h("p", { class: "hint" }, "…") : null,
      ui.from ? h("p", { class: "hint" }, "Choose a highlighted square (Esc: cancel).") : null));
}

/** What the squares and pieces mean (the board draws them without words). */
function legend() {
  const swatch = (kind, ...inside) => h("span", { class: `swatch ${kind}`, "aria-hidden": "true" }, inside);
  const item = (sign, words) => h("li", {}, sign, h("span", {}, words));
  return h("ul", { class: "legend rows", id: "df-legend", "aria-label": "legend" },
    item(swatch("water"), "water: the Dolphins' home, where they capture"),
    item(swatch("land"), "land: the Foxes' home, where they capture"),
    item(swatch("water", unitIcon("dolphin")), "a dolphin (D)"),
    item(swatch("land", unitIcon("fox")), "a fox (F)"),
    item(swatch("land movable", unitIcon("fox")), "white frame: your unit that can move"),
    item(swatch("water target"), "yellow frame: where the chosen unit can go"));
}
