// Masters of Renaissance: the market tray (click a row's or a column's arrow to take it), the
// development card grid (click a card, then one of your slots, then the payment if there is a
// choice), the faith track, every player's board, the set-up (keep 2 of 4 leaders, bonus
// resources into a depot), the market resources waiting to be placed or discarded, white
// marbles to convert, and in solo games Lorenzo's black cross and his last token.

import { h, seatName } from "../ui.js";
import { amountWords, chip, chooser, clearChoices, COLOURS, leaderCard, marble, MARBLE_WORDS, RESOURCES, devCard } from "./renaissance_parts.js";
import { buyable, depotTargets, productionSteps, slotTargets } from "./renaissance_moves.js";
import { faithTrack, playerBoard } from "./renaissance_board.js";

function market(ctx) {
  const { view } = ctx;
  const takes = new Map((ctx.legal || []).filter((a) => a.type === "take_from_market").map((a) => [`${a.line}-${a.index}`, a]));
  const arrow = (line, index, symbol) => {
    const take = takes.get(`${line}-${index}`);
    return h("button", { type: "button", class: `arrow ${take ? "target" : ""}`, disabled: !take,
      "data-key": `take-${line}-${index}`, dataset: { line, index },
      "aria-label": `take ${line} ${index}`, onclick: () => { clearChoices(ctx.ui); ctx.act(take); } }, symbol);
  };
  const cells = [];
  view.market.rows.forEach((row, r) => {
    row.forEach((colour, c) => cells.push(h("span", { class: "tray-cell", style: `grid-area: ${r + 1} / ${c + 1}`, dataset: { mrow: r + 1, mcol: c + 1 } },
      marble(colour, { "aria-label": `row ${r + 1}, column ${c + 1}: ${MARBLE_WORDS[colour]}`, role: "img" }))));
    cells.push(h("span", { style: `grid-area: ${r + 1} / 5` }, arrow("row", r + 1, "◀")));
  });
  for (let c = 0; c < 4; c++) cells.push(h("span", { style: `grid-area: 4 / ${c + 1}` }, arrow("column", c + 1, "▲")));
  return h("section", { class: "market", id: "market", "aria-label": "market" },
    h("h3", {}, "Market ", h("span", { class: "spare" }, "spare ", marble(view.market.spare,
      { id: "spare", "aria-label": `spare: ${MARBLE_WORDS[view.market.spare]}`, role: "img" }))),
    h("div", { class: "tray" }, cells));
}

function grid(ctx) {
  const { view, ui } = ctx;
  const can = buyable(ctx);
  return h("section", { class: "dev-grid", id: "dev-grid", "aria-label": "development cards" },
    h("h3", {}, "Development cards"),
    h("div", { class: "grid-cards" }, [3, 2, 1].map((level) => COLOURS.map((colour) => {
      const deck = view.grid.find((d) => d.level === level && d.color === colour);
      const key = `${level}-${colour}`;
      const chosen = ui.buy && ui.buy.level === level && ui.buy.color === colour;
      if (!deck.top) return h("div", { class: "dev empty", dataset: { deck: key } }, `L${level} ${colour}: none left`);
      return devCard(deck.top, {
        class: `${can.has(key) ? "target" : ""} ${chosen ? "selected" : ""}`, type: "button", disabled: !can.has(key),
        "data-key": `card-${key}`, dataset: { deck: key, count: deck.count },
        onclick: () => { clearChoices(ui); if (!chosen) ui.buy = { level, color: colour }; ctx.redraw(); },
      }, "button");
    }))));
}

function setupPanel(ctx, me) {
  const { ui } = ctx;
  const legal = ctx.legal || [];
  const pairs = legal.filter((a) => a.type === "choose_leaders");
  const keep = ui.keep || [];
  const toggle = (id) => {
    const next = keep.includes(id) ? keep.filter((x) => x !== id) : [...keep, id];
    const pick = next.length === 2 && pairs.find((a) => [...a.leaders].sort().join() === [...next].sort().join());
    ui.keep = pick ? null : next;
    if (pick) ctx.act(pick);
    else ctx.redraw();
  };
  const bonus = RESOURCES.filter((r) => legal.some((a) => a.type === "take_bonus_resource" && a.resource === r));
  return h("section", { class: "rn-setup", id: "setup" },
    me.dealt && me.dealt.length ? [h("h3", {}, "Keep 2 of these 4 leaders"),
      h("div", { class: "leader-row" }, me.dealt.map((l) => leaderCard(l, { class: keep.includes(l.id) ? "selected" : "" },
        pairs.length ? h("button", { type: "button", "data-key": `keep-${l.id}`, "aria-pressed": keep.includes(l.id) ? "true" : "false",
          onclick: () => toggle(l.id) }, keep.includes(l.id) ? "Kept ✓" : "Keep") : null)))] : null,
    bonus.length ? [h("h3", {}, `Take ${me.bonus_left} starting resource${me.bonus_left > 1 ? "s" : ""}: a resource, then a depot`),
      resourcePicker(ctx, bonus, "bonus")] : null);
}

function resourcePicker(ctx, resources, prefix, counts = null) {
  const { ui } = ctx;
  return h("div", { class: "row" }, resources.map((r) => h("button", { type: "button",
    class: `pick-res ${ui.res === r ? "selected" : "movable"}`, "data-key": `${prefix}-${r}`, dataset: { resource: r },
    "aria-pressed": ui.res === r ? "true" : "false",
    onclick: () => { const again = ui.res === r; clearChoices(ui); ui.res = again ? null : r; ctx.redraw(); } },
  chip(r), ` ${counts ? `${counts[r]} ` : ""}${r}`)));
}

function pendingPanel(ctx) {
  const { view, ui } = ctx;
  const legal = ctx.legal || [];
  const pending = view.turn.pending;
  const converts = legal.filter((a) => a.type === "convert_white_marble");
  if (view.phase !== "play" || (!Object.keys(pending).length && !view.turn.pending_white)) return null;
  const discard = ui.res && legal.find((a) => a.type === "discard_resource" && a.resource === ui.res);
  return h("section", { class: "pending", id: "pending" },
    h("h3", {}, `From the market, still to place: ${amountWords(pending)}`,
      view.turn.pending_white ? ` and ${view.turn.pending_white} white marble${view.turn.pending_white > 1 ? "s" : ""}` : ""),
    converts.length ? h("div", { class: "row" }, "Convert a white marble into: ", converts.map((a) =>
      h("button", { type: "button", "data-key": `convert-${a.resource}`, onclick: () => ctx.act(a) }, chip(a.resource), ` ${a.resource}`))) : null,
    legal.length ? [resourcePicker(ctx, RESOURCES.filter((r) => pending[r]), "pending", pending),
      ui.res ? h("p", { class: "hint" }, `Click a highlighted depot for the ${ui.res}, or `,
        h("button", { type: "button", id: "discard", "data-key": "discard", disabled: !discard,
          onclick: () => { clearChoices(ui); ctx.act(discard); } }, `discard it (others gain 1 faith)`)) : null] : null);
}

function lorenzo(ctx) {
  const lz = ctx.view.lorenzo;
  if (!lz) return null;
  const t = lz.last_token;
  const words = !t ? "no token revealed yet"
    : t.kind === "discard_cards" ? `discard ${t.count} ${t.color} cards`
      : `black cross +${t.steps}${t.shuffle ? ", then shuffle the tokens" : ""}`;
  return h("section", { class: "lorenzo", id: "lorenzo", "aria-label": "Lorenzo il Magnifico" },
    h("h3", {}, "Lorenzo il Magnifico"),
    h("p", {}, `Black cross on ${lz.black_cross} · ${lz.tokens_left} tokens in the pile · ${lz.removed} cards taken`),
    h("p", { id: "lorenzo-token", class: `token ${t ? `t-${t.kind}` : ""}`, dataset: { kind: t ? t.kind : "" } },
      h("strong", {}, "Last token: "), words));
}

function headline(ctx) {
  const { view } = ctx;
  const bits = [];
  if (view.phase === "setup") bits.push("Set-up: everyone keeps 2 leaders; seats 2-4 take their starting resources");
  else if (view.phase === "play") {
    bits.push(`Turn ${view.turns + 1}: ${seatName(ctx.seats, view.current)}`);
    bits.push(view.turn.main ? `main action done (${view.turn.main})` : "main action: market, buy a card or produce");
  } else bits.push("Game over");
  if (view.final_round) bits.push("last round");
  return h("p", { id: "phase", class: "phase", dataset: { phase: view.phase, turns: view.turns, main: view.turn.main } }, bits.join(" · "));
}

function finalScores(ctx) {
  const result = ctx.view.result;
  if (!result) return null;
  return h("p", { id: "final-scores", class: "phase" }, "Scores: ",
    result.scores.map((s, seat) => `${seatName(ctx.seats, seat)} ${s} VP`).join(" · "),
    ` (${result.reason.replaceAll("_", " ")})`);
}

function turnButtons(ctx) {
  const end = (ctx.legal || []).find((a) => a.type === "end_turn");
  const hint = ctx.ui.buy ? "Now click one of your highlighted slots (Esc: cancel)."
    : ctx.ui.from ? "Click a highlighted depot to swap or move to (Esc: cancel)."
      : ctx.ui.res && ctx.view.phase === "setup" ? `Now click a highlighted depot for the ${ctx.ui.res} (Esc: cancel).` : null;
  return [hint ? h("p", { class: "hint", id: "hint" }, hint) : null, chooser(ctx), productionSteps(ctx),
    end ? h("button", { type: "button", id: "end-turn", "data-key": "end-turn", onclick: () => { clearChoices(ctx.ui); ctx.act(end); } }, "End the turn") : null];
}

export function renaissance(ctx) {
  const { view, ui } = ctx;
  if (!(ctx.legal || []).length) clearChoices(ui);
  const targets = { depots: depotTargets(ctx), slots: slotTargets(ctx) };
  const me = view.players.find((p) => p.seat === ctx.you);
  const others = view.players.filter((p) => p !== me);
  return h("div", { class: "game renaissance-game", id: "board" },
    h("div", { class: "main-col" }, headline(ctx), finalScores(ctx), faithTrack(ctx),
      me && view.phase === "setup" && ctx.legal ? setupPanel(ctx, me) : null,
      pendingPanel(ctx), turnButtons(ctx),
      me ? playerBoard(ctx, me, targets) : null,
      others.map((p) => playerBoard(ctx, p, targets))),
    h("aside", { class: "facts" }, legend(ctx), lorenzo(ctx), market(ctx), grid(ctx)));
}

/** What the resource chips and marks stand for (the board draws them as symbols). */
function legend(ctx) {
  const item = (sign, words) => h("li", {}, sign, h("span", {}, words));
  return h("ul", { class: "legend", id: "rn-legend", "aria-label": "legend" },
    RESOURCES.map((r) => item(chip(r), r)),
    item(h("span", { class: "faith-gain" }, "✝"), "faith"),
    item(h("span", { class: "legend-vp" }, "VP"), "victory points"),
    ctx.view.lorenzo ? item(h("span", { class: "black-cross-sign" }, "✚"), "Lorenzo's black cross") : null);
}
