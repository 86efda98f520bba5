// A form for a game's options, made from the JSON schema that /api/games publishes.

import { h, levelWords } from "./ui.js";

function field(name, schema) {
  const id = `opt-${name}`;
  const label = h("label", { for: id }, `${schema.title || name} `);
  const nullable = (schema.anyOf || []).some((s) => s.type === "null");
  const base = (schema.anyOf || [schema]).find((s) => s.type !== "null") || schema;
  if (base.type === "boolean") {
    const input = h("input", { type: "checkbox", id, "data-key": id, checked: schema.default === true });
    return { name, element: h("div", { class: "row" }, input, " ", label), read: () => input.checked };
  }
  if (base.type === "integer") {
    const input = h("input", { type: "number", id, "data-key": id, min: base.minimum, max: base.maximum,
      value: schema.default ?? "", placeholder: nullable ? "any" : null });
    return { name, element: h("div", { class: "row" }, label, input),
      read: () => (input.value === "" ? (nullable ? null : undefined) : Number(input.value)) };
  }
  if (base.enum) {
    const select = h("select", { id, "data-key": id },
      base.enum.map((v) => h("option", { value: v, selected: v === schema.default }, v)));
    return { name, element: h("div", { class: "row" }, label, select), read: () => select.value };
  }
  if (base.type === "array" && base.items && base.items.enum) {
    const boxes = base.items.enum.map((v) => h("input", { type: "checkbox", value: v, id: `${id}-${v}`, "data-key": `${id}-${v}` }));
    const wanted = base.minItems;
    const element = h("fieldset", { class: "choices", id },
      h("legend", {}, `${schema.title || name}${wanted ? ` (choose ${wanted}, or none for a random draw)` : ""}`),
      boxes.map((b) => h("label", { class: "choice" }, b, ` ${b.value.replaceAll("_", " ")}`)));
    const read = () => {
      const picked = boxes.filter((b) => b.checked).map((b) => b.value);
      return picked.length ? picked : (nullable ? null : []);
    };
    return { name, element, read };
  }
  return null; // not offered in the form (the server's default applies)
}

/** Who takes the seats you leave free: a person (who joins later) or a bot of a level. The
 * server seats the bots in the first free seats, in order (`create {bots}`). */
function opponents(levels) {
  const element = h("div", { id: "opponents", class: "opponents" });
  let selects = [];
  const redraw = (seats) => {
    selects = [];
    const rows = [];
    for (let n = 1; n < seats; n++) {
      const id = `opt-other-${n}`;
      const select = h("select", { id, "data-key": id },
        h("option", { value: "" }, "a person"),
        levels.map((level) => h("option", { value: level }, `a bot (${levelWords(level)})`)));
      selects.push(select);
      rows.push(h("div", { class: "row" }, h("label", { for: id }, `Other player ${n}: `), select));
    }
    element.replaceChildren(...rows);
  };
  return { element, redraw, bots: () => selects.map((s) => s.value).filter(Boolean) };
}

export function optionsForm(game, levels = []) {
  const fields = Object.entries(game.options.properties || {}).map(([n, s]) => field(n, s)).filter(Boolean);
  const seatChoices = [];
  for (let n = game.min_seats; n <= game.max_seats; n++) seatChoices.push(n);
  const others = opponents(levels);
  const seats = h("select", { id: "opt-seats", "data-key": "opt-seats", onchange: () => others.redraw(Number(seats.value)) },
    seatChoices.map((n) => h("option", { value: n }, `${n} ${n === 1 ? "player" : "players"}`)));
  others.redraw(game.min_seats);
  const hidden = h("input", { type: "checkbox", id: "opt-private", "data-key": "opt-private" });
  const element = h("fieldset", { class: "options", id: "options" },
    h("legend", {}, `${game.title} options`),
    h("div", { class: "row" }, h("label", { for: "opt-seats" }, "Players "), seats),
    levels.length ? others.element : null,
    fields.map((f) => f.element),
    h("div", { class: "row" }, hidden, " ",
      h("label", { for: "opt-private" }, "Private: only whoever has the invitation link may join or watch")));
  const read = () => {
    const options = {};
    for (const f of fields) {
      const value = f.read();
      if (value !== undefined) options[f.name] = value;
    }
    return options;
  };
  return { game: game.name, element, read, seats: () => Number(seats.value), bots: others.bots,
    private: () => hidden.checked };
}

export function optionsSummary(options) {
  return Object.entries(options || {})
    .filter(([, v]) => v !== null && v !== false)
    .map(([k, v]) => (v === true ? k : `${k} ${Array.isArray(v) ? v.join("/") : v}`).replaceAll("_", " "))
    .join(", ");
}
