// Santorini: the 5×5 board with levels, domes and workers; the god cards with their text; the
// challenger's pick, the choice of gods, placing workers, and each step of a turn, optional
// steps included (a Skip button when the step may be left out).

import { arrowKeys, h, SEAT_COLOURS, seatName, svg } from "../ui.js";

const LETTERS = "ABCDEF";
const PHASE_TEXT = {
  pick_gods: "The challenger picks the gods of this match.",
  choose_god: "Each player takes one of the offered gods; the challenger gets the last one.",
  place_workers: "Each player places two workers.",
  play: "Move, then build.",
  over: "The match is over.",
};
const VERBS = {
  select_worker: () => "Use this worker",
  move: () => "Move here",
  build: (a) => (a.dome ? "Build a dome" : "Build a block"),
  remove: () => "Remove the top block",
  force: () => "Force this worker across",
};

function godCard(name, gods, attrs = {}, extra = null) {
  const info = gods[name];
  return h(attrs.onclick ? "button" : "div", { class: "god", type: attrs.onclick ? "button" : null, ...attrs },
    h("strong", {}, name.charAt(0) + name.slice(1).toLowerCase()),
    h("span", { class: "god-text" }, info ? info.text : ""), extra);
}

function cellPicture(cell, worker) {
  const parts = [];
  for (let level = 1; level <= cell.blocks; level++) {
    const inset = 4 + (level - 1) * 12;
    parts.push(svg("rect", { x: inset, y: inset, width: 100 - 2 * inset, height: 100 - 2 * inset,
      rx: 4, class: `level level${level}` }));
  }
  if (cell.blocks) {
    parts.push(svg("text", { x: 92, y: 20, "text-anchor": "end", "font-size": 16, class: "level-number" }, cell.blocks));
  }
  if (cell.dome) parts.push(svg("path", { d: "M22 62 A28 28 0 0 1 78 62 Z", class: "dome" }));
  if (worker) { // one group: the piece that slides in when it was the last move
    parts.push(svg("g", { class: "piece" },
      svg("circle", { cx: 50, cy: 50, r: 15, fill: SEAT_COLOURS[worker.seat], stroke: "#fff", "stroke-width": 3 }),
      svg("text", { x: 50, y: 56, "text-anchor": "middle", "font-size": 18, fill: "#fff", "font-weight": "bold" }, LETTERS[worker.id])));
  }
  return svg("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" }, parts);
}

function describeCell(x, y, cell, worker, seats) {
  const level = cell.blocks ? `level ${cell.blocks}` : "ground";
  const who = worker ? `, worker ${LETTERS[worker.id]} of ${seatName(seats, worker.seat)}` : "";
  return `row ${x + 1}, column ${y + 1}: ${level}${cell.dome ? ", dome" : ""}${who}`;
}

function boardGrid(ctx, actionsAt, onCell, marks) {
  const { view } = ctx;
  const workers = new Map(view.workers.map((w) => [`${w.x},${w.y}`, w]));
  const cells = [];
  view.board.forEach((row, x) => row.forEach((cell, y) => {
    const here = `${x},${y}`;
    const worker = workers.get(here);
    const options = actionsAt(x, y);
    const words = options.map((a) => VERBS[a.type] ? VERBS[a.type](a) : a.type).join(" or ");
    const classes = ["cell", options.length ? "target" : "", marks.has(here) ? "selected" : "",
      options.some((a) => a.type === "select_worker") ? "movable" : ""].join(" ");
    cells.push(h("button", {
      type: "button", class: classes, "data-key": `s-${x}-${y}`, "data-row": x, "data-col": y,
      dataset: { x, y, height: cell.height, blocks: cell.blocks, dome: cell.dome ? "1" : "0" },
      "aria-label": describeCell(x, y, cell, worker, ctx.seats) + (words ? `: ${words}` : ""),
      onclick: () => onCell(x, y, options),
    }, cellPicture(cell, worker)));
  }));
  return arrowKeys(h("div", { class: "grid santorini", id: "board", role: "group", "aria-label": "board", style: "--n: 5" }, cells));
}

function pickPanel(ctx, gods) {
  const { view, ui, legal } = ctx;
  if (!legal || !legal.length) {
    return h("section", { class: "gods", id: "god-pick" }, h("h2", {}, "Gods in the box"),
      h("p", {}, "The challenger is choosing."), h("div", { class: "god-list" }, view.deck.map((n) => godCard(n, gods))));
  }
  ui.picked = ui.picked || [];
  const wanted = view.seats;
  const toggle = (name) => {
    ui.picked = ui.picked.includes(name) ? ui.picked.filter((g) => g !== name) : [...ui.picked, name].slice(-wanted);
    ctx.redraw();
  };
  const offer = legal.find((a) => a.type === "pick_gods" && a.gods.length === ui.picked.length
    && a.gods.every((g) => ui.picked.includes(g)));
  return h("section", { class: "gods", id: "god-pick" },
    h("h2", {}, `You are the challenger: pick ${wanted} gods`),
    h("div", { class: "god-list" }, view.deck.map((name) => godCard(name, gods, {
      onclick: () => toggle(name), "aria-pressed": ui.picked.includes(name) ? "true" : "false",
      "data-key": `god-${name}`, dataset: { god: name },
    }))),
    h("button", { type: "button", id: "offer-gods", "data-key": "offer-gods", disabled: !offer,
      onclick: () => { ui.picked = []; ctx.act(offer); } }, `Offer ${ui.picked.length ? ui.picked.join(" and ") : "…"}`));
}

function choosePanel(ctx, gods) {
  const choices = (ctx.legal || []).filter((a) => a.type === "choose_god");
  return h("section", { class: "gods", id: "god-choose" },
    h("h2", {}, choices.length ? "Take your god" : "Offered gods"),
    h("div", { class: "god-list" }, ctx.view.offered.map((name) => {
      const action = choices.find((a) => a.god === name);
      return godCard(name, gods, action ? { onclick: () => ctx.act(action), "data-key": `take-${name}`, dataset: { god: name } } : {},
        action ? h("span", { class: "take" }, "Take") : null);
    })));
}

function placeHandler(ctx) {
  const { ui } = ctx;
  const free = new Set();
  if ((ctx.legal || []).some((a) => a.type === "place_workers")) {
    ctx.view.board.forEach((row, x) => row.forEach((cell, y) => {
      if (!ctx.view.workers.some((w) => w.x === x && w.y === y)) free.add(`${x},${y}`);
    }));
  }
  const actionsAt = (x, y) => (free.has(`${x},${y}`) && ui.place !== `${x},${y}` ? [{ type: "place" }] : []);
  const onCell = (x, y, options) => {
    if (!options.length) return;
    if (!ui.place) {
      ui.place = `${x},${y}`;
      ctx.redraw();
      return;
    }
    const [fx, fy] = ui.place.split(",").map(Number);
    const cells = [{ x: fx, y: fy }, { x, y }].sort((a, b) => a.x * 5 + a.y - (b.x * 5 + b.y));
    ui.place = null;
    ctx.act({ type: "place_workers", positions: cells });
  };
  return { actionsAt, onCell, marks: new Set(ui.place ? [ui.place] : []) };
}

function playHandler(ctx) {
  const { ui } = ctx;
  const legal = (ctx.legal || []).filter((a) => a.x !== undefined);
  const actionsAt = (x, y) => legal.filter((a) => a.x === x && a.y === y);
  const onCell = (x, y, options) => {
    ui.choice = null;
    if (options.length === 1) ctx.act(options[0]);
    else if (options.length > 1) {
      ui.choice = { x, y, options };
      ctx.redraw();
    }
  };
  const turn = ctx.view.turn;
  const marks = new Set(turn && turn.acting_at ? [turn.acting_at.join(",")] : []);
  return { actionsAt, onCell, marks };
}

function turnPanel(ctx) {
  const { view, ui } = ctx;
  const turn = view.turn;
  const parts = [];
  if (turn) {
    const step = turn.action === "select_worker" ? "choose a worker" : `${turn.action}${turn.optional ? " (optional)" : ""}`;
    parts.push(h("p", { id: "step" }, `Turn ${turn.number}, ${seatName(ctx.seats, turn.seat)}: ${step}.`));
  }
  if (ui.choice) {
    parts.push(h("div", { class: "chooser", id: "chooser", role: "group", "aria-label": "what to do here" },
      ui.choice.options.map((a, i) => h("button", { type: "button", "data-key": `choice-${i}`,
        onclick: () => { ui.choice = null; ctx.act(a); } }, VERBS[a.type](a))),
      h("button", { type: "button", onclick: () => { ui.choice = null; ctx.redraw(); } }, "Cancel")));
  }
  const skip = (ctx.legal || []).find((a) => a.type === "skip");
  if (skip) parts.push(h("button", { type: "button", id: "skip", "data-key": "skip", onclick: () => ctx.act(skip) }, "Skip this step"));
  if (view.phase === "place_workers" && ctx.legal && ctx.legal.length) {
    parts.push(h("p", { class: "hint" }, ui.place ? "Now the second worker." : "Click two free spaces for your workers."));
  }
  return h("div", { class: "turn-panel" }, parts);
}

function playersPanel(ctx, gods) {
  const { view } = ctx;
  return h("section", { class: "players", "aria-label": "gods of the players" },
    ctx.seats.map((s) => h("div", { class: `player ${view.alive[s.seat] ? "" : "out"}`, dataset: { seat: s.seat } },
      h("span", { class: "swatch", style: `background:${SEAT_COLOURS[s.seat]}` }),
      h("span", {}, `${seatName(ctx.seats, s.seat)}${view.alive[s.seat] ? "" : " — out"}`),
      view.gods[s.seat] ? godCard(view.gods[s.seat], gods) : null)));
}

export function santorini(ctx) {
  const { view } = ctx;
  const gods = ctx.catalog.gods || {};
  const phase = view.phase;
  const top = [h("p", { class: "phase", id: "phase", dataset: { phase } }, PHASE_TEXT[phase] || phase)];
  if (phase === "pick_gods") top.push(pickPanel(ctx, gods));
  if (phase === "choose_god") top.push(choosePanel(ctx, gods));
  const handler = phase === "place_workers" ? placeHandler(ctx) : phase === "play" ? playHandler(ctx)
    : { actionsAt: () => [], onCell: () => {}, marks: new Set() };
  return h("div", { class: "game santorini-game" },
    h("div", { class: "main-col" }, top, boardGrid(ctx, handler.actionsAt, handler.onCell, handler.marks), turnPanel(ctx)),
    h("aside", { class: "facts" }, playersPanel(ctx, gods),
      h("p", {}, `Complete towers: ${view.complete_towers}`)));
}
