// Masters of Renaissance: what each click does now, worked out from `legal` and the half-made
// move kept in ctx.ui (a resource to place, a depot to move from, a card to buy, a production
// being set up). Only clicks that lead to a legal action are offered.

import { h } from "../ui.js";
import { ask, chip, clearChoices, payThen, RESOURCES } from "./renaissance_parts.js";

/** A depot's key on the page: "1", "2", "3", or "extra-coin" for an extra depot. */
export const depotKey = (depot, resource) => (depot === "extra" ? `extra-${resource}` : String(depot));

/** Act at once when one action is left, else ask how many to move. */
function countThen(ctx, actions) {
  if (actions.length === 1) {
    clearChoices(ctx.ui);
    ctx.act(actions[0]);
    return;
  }
  ask(ctx, `How many ${actions[0].resource} to move?`,
    actions.map((a) => ({ key: `count-${a.count}`, label: `Move ${a.count}`, action: a })));
}

function placeTargets(ctx, out) {
  const { ui } = ctx;
  for (const a of ctx.legal || []) {
    if ((a.type === "take_bonus_resource" || a.type === "place_resource") && a.resource === ui.res) {
      out.set(depotKey(a.depot, a.resource), { words: `put the ${ui.res} here`, run: () => { clearChoices(ui); ctx.act(a); } });
    }
  }
  return out;
}

function moveTargets(ctx, out) {
  const { ui } = ctx;
  const moves = new Map();
  for (const a of ctx.legal || []) {
    if (a.type === "swap_depots" && [String(a.first), String(a.second)].includes(ui.from)) {
      moves.set(String(String(a.first) === ui.from ? a.second : a.first), [a]);
    } else if (a.type === "move_resources" && depotKey(a.source, a.resource) === ui.from) {
      const key = depotKey(a.target, a.resource);
      moves.set(key, [...(moves.get(key) || []), a]);
    }
  }
  for (const [key, actions] of moves) {
    const words = actions[0].type === "swap_depots" ? "swap the two depots" : `move ${actions[0].resource} here`;
    out.set(key, { words, run: () => countThen(ctx, actions) });
  }
  out.set(ui.from, { words: "chosen: click again to cancel", selected: true, run: () => { ui.from = null; ctx.redraw(); } });
  return out;
}

/** depot key -> {words, run, selected?, source?}: what clicking that depot does now. */
export function depotTargets(ctx) {
  const { ui } = ctx;
  const out = new Map();
  if (ui.res) return placeTargets(ctx, out);
  if (ui.from) return moveTargets(ctx, out);
  const me = ctx.view.players.find((p) => p.seat === ctx.you);
  const empty = (d) => !me || !me.depots[d - 1].count;
  for (const a of ctx.legal || []) {
    if (a.type === "swap_depots" && empty(a.first) && empty(a.second)) continue; // nothing would change
    const keys = a.type === "swap_depots" ? [String(a.first), String(a.second)]
      : a.type === "move_resources" ? [depotKey(a.source, a.resource)] : [];
    for (const key of keys) {
      out.set(key, { words: "move or swap what it holds", source: true,
        run: () => { clearChoices(ui); ui.from = key; ctx.redraw(); } });
    }
  }
  return out;
}

/** slot -> {words, run} while a card to buy is chosen. */
export function slotTargets(ctx) {
  const { ui } = ctx;
  const out = new Map();
  if (!ui.buy) return out;
  const buys = (ctx.legal || []).filter((a) => a.type === "buy_card" && a.level === ui.buy.level && a.color === ui.buy.color);
  for (const slot of new Set(buys.map((a) => a.slot))) {
    out.set(slot, { words: "put the card here", run: () =>
      payThen(ctx, buys.filter((a) => a.slot === slot), `Pay for the level ${ui.buy.level} ${ui.buy.color} card`) });
  }
  return out;
}

/** (level, colour) of the grid cards that can be bought now. */
export function buyable(ctx) {
  return new Set((ctx.legal || []).filter((a) => a.type === "buy_card").map((a) => `${a.level}-${a.color}`));
}

function resourceButtons(prefix, resources, onpick) {
  return h("div", { class: "row" }, resources.map((r) => h("button", { type: "button", class: "pick-res",
    "data-key": `${prefix}-${r}`, dataset: { resource: r }, onclick: () => onpick(r) }, chip(r), ` ${r}`)));
}

const sorted = (list) => [...list].sort().join();

/** The base production, one choice at a time: two inputs, then the output, then the payment. */
function baseSteps(ctx, prod) {
  const all = (ctx.legal || []).filter((a) => a.type === "produce_base");
  const redraw = (change) => { Object.assign(prod, change); ctx.redraw(); };
  if (prod.inputs.length < 2) {
    const fits = (r) => all.some((a) => prod.inputs.length === 0 ? a.inputs.includes(r) : sorted(a.inputs) === sorted([...prod.inputs, r]));
    return [h("p", {}, prod.inputs.length ? `First input: ${prod.inputs[0]}. Second input:` : "Base production: choose the first of two inputs:"),
      resourceButtons("prod-in", RESOURCES.filter(fits), (r) => redraw({ inputs: [...prod.inputs, r] }))];
  }
  const matching = all.filter((a) => sorted(a.inputs) === sorted(prod.inputs));
  return [h("p", {}, `Inputs: ${prod.inputs.join(" + ")}. Choose the output:`),
    resourceButtons("prod-out", RESOURCES.filter((r) => matching.some((a) => a.output === r)), (r) =>
      payThen(ctx, matching.filter((a) => a.output === r), `Pay ${prod.inputs.join(" + ")} for 1 ${r}`))];
}

function leaderSteps(ctx, prod) {
  const all = (ctx.legal || []).filter((a) => a.type === "produce_leader" && a.leader === prod.leader);
  return [h("p", {}, `Leader ${prod.leader}'s production: choose the output:`),
    resourceButtons("prod-out", RESOURCES.filter((r) => all.some((a) => a.output === r)), (r) =>
      payThen(ctx, all.filter((a) => a.output === r), `Pay for leader ${prod.leader}'s production`))];
}

/** The panel of a production being set up (base or leader), or null. */
export function productionSteps(ctx) {
  const prod = ctx.ui.prod;
  if (!prod || !ctx.legal) return null;
  return h("div", { class: "steps rn-steps", id: "production-steps" },
    prod.kind === "base" ? baseSteps(ctx, prod) : leaderSteps(ctx, prod),
    h("button", { type: "button", "data-key": "prod-cancel", onclick: () => { clearChoices(ctx.ui); ctx.redraw(); } }, "Cancel"));
}

/** Start a production: a card's runs at once (or asks the payment); base/leader take choices. */
export function startProduction(ctx, what) {
  clearChoices(ctx.ui);
  if (what.kind === "card") {
    const runs = (ctx.legal || []).filter((a) => a.type === "produce_card" && a.slot === what.slot);
    payThen(ctx, runs, `Pay for the production of slot ${what.slot}`);
    return;
  }
  ctx.ui.prod = what.kind === "base" ? { kind: "base", inputs: [] } : { kind: "leader", leader: what.leader };
  ctx.redraw();
}

/** Which productions can be started now: "base", "slot1".., "leader13". */
export function productions(ctx) {
  const out = new Set();
  for (const a of ctx.legal || []) {
    if (a.type === "produce_base") out.add("base");
    if (a.type === "produce_card") out.add(`slot${a.slot}`);
    if (a.type === "produce_leader") out.add(`leader${a.leader}`);
  }
  return out;
}
