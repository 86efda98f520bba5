// Masters of Renaissance, the small pieces every part of the board draws: resources, marbles,
// development cards, leaders in words, payments in words, and the chooser that asks one
// question with buttons (a payment, a count) when one click could mean several moves.

import { h } from "../ui.js";

export const RESOURCES = ["coin", "servant", "shield", "stone"];
export const COLOURS = ["green", "blue", "yellow", "purple"];
export const MARBLE_WORDS = {
  yellow: "yellow marble (coin)", purple: "purple marble (servant)", blue: "blue marble (shield)",
  grey: "grey marble (stone)", red: "red marble (faith)", white: "white marble",
};
const SYMBOL = { coin: "¢", servant: "☺", shield: "◆", stone: "▲" };

/** One resource: a coloured chip with its name for screen readers and tooltips. */
export function chip(resource, extra = {}) {
  return h("span", { class: `res r-${resource}`, title: resource, "aria-label": resource, ...extra }, SYMBOL[resource] || "?");
}

/** {coin: 2, stone: 1} as chips ("2¢ 1▲"), or a dash when empty. */
export function amounts(counts) {
  const parts = RESOURCES.filter((r) => counts && counts[r]).map((r) =>
    h("span", { class: "amount" }, counts[r] > 1 ? `${counts[r]}` : "", chip(r)));
  return parts.length ? parts : [h("span", { class: "hint" }, "–")];
}

/** {coin: 2, stone: 1} in words: "2 coin, 1 stone". */
export function amountWords(counts) {
  return RESOURCES.filter((r) => counts && counts[r]).map((r) => `${counts[r]} ${r}`).join(", ") || "nothing";
}

export function marble(colour, extra = {}) {
  return h("span", { class: `marble m-${colour}`, title: MARBLE_WORDS[colour], ...extra });
}

/** A development card: colour band with level and points, its cost, its production. */
export function devCard(card, attrs = {}, tag = "div") {
  const faith = card.faith ? h("span", { class: "faith-gain" }, `+${card.faith}✝`) : null;
  const out = faith && !Object.keys(card.output).length ? faith : [amounts(card.output), faith];
  return h(tag, { ...attrs, class: `dev c-${card.color} ${attrs.class || ""}`,
    "aria-label": attrs["aria-label"] || cardWords(card) },
  h("span", { class: "dev-head" }, `L${card.level} ${card.color}`, h("strong", { class: "vp" }, `${card.vp} VP`)),
  h("span", { class: "dev-cost" }, h("small", {}, "cost "), amounts(card.cost)),
  h("span", { class: "dev-prod" }, amounts(card.input), " → ", out));
}

export function cardWords(card) {
  const faith = card.faith ? ` and ${card.faith} faith` : "";
  return `level ${card.level} ${card.color} card, ${card.vp} points, costs ${amountWords(card.cost)}, `
    + `produces ${amountWords(card.output)}${faith} from ${amountWords(card.input)}`;
}

/** What a leader does, in our own words. */
export function leaderPower(leader) {
  const r = leader.resource;
  return {
    discount: `Development cards cost 1 ${r} less.`,
    extra_depot: `An extra depot holding up to 2 ${r}.`,
    white_marble: `White marbles from the market give ${r}.`,
    production: `Production: 1 ${r} → 1 resource of your choice and 1 faith.`,
  }[leader.kind] || leader.kind;
}

export function leaderNeeds(leader) {
  const cards = leader.requires.cards.map((c) => `${c.count} ${c.color}${c.level ? ` level-${c.level}` : ""} card${c.count > 1 ? "s" : ""}`);
  const res = amountWords(leader.requires.resources);
  return `Needs ${[...cards, ...(res === "nothing" ? [] : [res])].join(" + ")}`;
}

export function leaderCard(leader, attrs = {}, ...more) {
  return h("div", { ...attrs, class: `leader k-${leader.kind} ${attrs.class || ""}`, dataset: { leader: leader.id, ...(attrs.dataset || {}) } },
    h("strong", {}, `Leader ${leader.id} · ${leader.kind.replace("_", " ")} `, chip(leader.resource), ` · ${leader.vp} VP`),
    h("p", { class: "power" }, leaderPower(leader)),
    h("p", { class: "needs" }, leaderNeeds(leader)), more);
}

/** {"warehouse": {...}, "strongbox": {...}} in words. */
export function payWords(pay) {
  if (!pay) return "automatically (warehouse, then extra depots, then strongbox)";
  const parts = ["warehouse", "extra", "strongbox"].filter((k) => pay[k] && Object.keys(pay[k]).length)
    .map((k) => `${amountWords(pay[k])} from the ${k === "extra" ? "extra depots" : k}`);
  return parts.join(" and ") || "nothing";
}

/**
 * Act on one of `candidates` (the same move, different payments): at once when only one
 * payment is possible, else ask: automatic payment or one of the explicit ones.
 */
export function payThen(ctx, candidates, title) {
  const key = (a) => JSON.stringify(a.pay || null);
  const distinct = [...new Map(candidates.map((a) => [key(a), a])).values()];
  if (distinct.length === 1) {
    clearChoices(ctx.ui);
    ctx.act(distinct[0]);
    return;
  }
  ask(ctx, title, [{ key: "pay-auto", label: "Pay automatically", action: { ...distinct[0], pay: null } },
    ...distinct.map((a, i) => ({ key: `pay-${i}`, label: `Pay ${payWords(a.pay)}`, action: a }))]);
}

export function ask(ctx, title, options) {
  ctx.ui.choice = { title, options };
  ctx.redraw();
}

export function clearChoices(ui) {
  for (const key of ["res", "from", "buy", "prod", "choice", "keep"]) ui[key] = null;
}

/** The open question, as buttons (Esc or Cancel drops it). */
export function chooser(ctx) {
  const choice = ctx.ui.choice;
  if (!choice || !ctx.legal) return null;
  return h("div", { class: "chooser rn-chooser", id: "chooser", role: "group", "aria-label": choice.title },
    h("strong", {}, choice.title),
    choice.options.map((o) => h("button", { type: "button", "data-key": `choice-${o.key}`, onclick: () => {
      clearChoices(ctx.ui);
      ctx.act(o.action);
    } }, o.label)),
    h("button", { type: "button", "data-key": "choice-cancel", onclick: () => { clearChoices(ctx.ui); ctx.redraw(); } }, "Cancel"));
}
