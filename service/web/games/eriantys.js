// Eriantys: the ring of islands (merged groups show their tiles), Mother Nature, towers, the
// clouds, every school board (entrance, dining room, professors, coins), your assistant cards,
// and in expert matches the three characters. A move takes clicks: a student of your entrance,
// then the dining room or an island; an island for Mother Nature; a cloud; a character, then
// what it asks for (a colour, an island, swaps) one click at a time.

import { h, seatName } from "../ui.js";

const COLOURS = ["green", "red", "yellow", "pink", "blue"];
const MOVES = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4, 9: 5, 10: 5 };
/** Our own short wording of each character's effect. */
const CHARACTER_TEXT = {
  monk: "Take a student from this card and put it on an island of your choice.",
  farmer: "This turn you take a professor also when you only tie with its holder.",
  herald: "Pick an island: it is resolved now as if Mother Nature ended there.",
  magic_mailman: "Mother Nature may move up to two more islands this turn.",
  grandma_herbs: "Put a no-entry tile on an island: the next time Mother Nature stops there, nothing is resolved.",
  centaur: "Towers do not count towards influence this turn.",
  jester: "Swap up to three students between this card and your entrance.",
  knight: "Your influence counts two extra this turn.",
  mushroom_hunter: "Choose a colour: it counts for nobody's influence this turn.",
  minstrel: "Swap up to two students between your entrance and your dining room.",
  spoiled_princess: "Take a student from this card straight into your dining room.",
  thief: "Choose a colour: every player returns up to three of it from the dining room to the bag.",
};
/** What each character asks for, in order. */
const STEPS = {
  monk: ["color", "island"], herald: ["island"], grandma_herbs: ["island"], mushroom_hunter: ["color"],
  spoiled_princess: ["color"], thief: ["color"], jester: ["swaps"], minstrel: ["swaps"],
};

const label = (key) => key.replaceAll("_", " ");

function students(counts, attrs = () => ({}), make = null) {
  const out = [];
  for (const colour of COLOURS) {
    for (let i = 0; i < (counts[colour] || 0); i++) {
      out.push(make ? make(colour, i) : h("span", { class: `student ${colour}`, title: colour, ...attrs(colour, i) }));
    }
  }
  return out;
}

function tally(counts) {
  return COLOURS.filter((c) => counts[c]).map((c) => `${counts[c]} ${c}`).join(", ") || "no students";
}

function islandsRing(ctx, targets) {
  const { view } = ctx;
  const n = view.islands.length;
  return h("div", { class: "ring", id: "islands", role: "group", "aria-label": "islands" },
    view.islands.map((island, i) => {
      const angle = (2 * Math.PI * i) / n - Math.PI / 2;
      const target = targets.get(i);
      const towers = island.tower ? `${island.towers} ${island.tower} tower${island.towers > 1 ? "s" : ""}` : "";
      const text = `island ${i + 1}${island.tiles.length > 1 ? ` (${island.tiles.length} tiles)` : ""}: ${tally(island.students)}`
        + `${towers ? ", " + towers : ""}${island.mother_nature ? ", Mother Nature" : ""}${island.no_entry ? `, ${island.no_entry} no-entry` : ""}`;
      return h("button", {
        type: "button", class: `island ${target ? "target" : ""} ${island.mother_nature ? "mn" : ""}`,
        style: `--x: ${50 + 42 * Math.cos(angle)}%; --y: ${50 + 42 * Math.sin(angle)}%; --size: ${Math.min(island.tiles.length, 4)}`,
        "data-key": `island-${i}`, dataset: { island: i }, "aria-label": text + (target ? `: ${target.words}` : ""),
        onclick: () => target && target.run(),
      },
      h("span", { class: "island-name" }, `${i + 1}${island.tiles.length > 1 ? ` ×${island.tiles.length}` : ""}`),
      h("span", { class: "students" }, students(island.students)),
      island.tower ? h("span", { class: `tower ${island.tower}` }, `♜${island.towers}`) : null,
      island.mother_nature ? h("span", { class: "mother", title: "Mother Nature" }, "☘") : null,
      island.no_entry ? h("span", { class: "no-entry" }, `⛔${island.no_entry}`) : null);
    }),
    h("div", { class: "clouds", id: "clouds" }, view.clouds.map((cloud, i) => {
      const take = (ctx.legal || []).find((a) => a.type === "choose_cloud" && a.cloud === i);
      return h("button", { type: "button", class: `cloud ${take ? "target" : ""}`, "data-key": `cloud-${i}`, dataset: { cloud: i },
        disabled: !take, "aria-label": `cloud ${i + 1}: ${cloud.taken ? "taken" : tally(cloud.students)}`,
        onclick: () => take && ctx.act(take) }, students(cloud.students));
    })));
}

function school(ctx, player, selectable, diningTarget) {
  const { view, ui } = ctx;
  const mine = player.seat === ctx.you;
  const team = view.teams[player.team];
  const professors = COLOURS.filter((c) => view.professors[c] === player.seat);
  const entrance = !mine ? students(player.entrance) : students(player.entrance, null, (colour, i) => {
    const can = mine && selectable.has(colour);
    const chosen = ui.student === colour && i === 0;
    return h("button", { type: "button", class: `student ${colour} ${can ? "movable" : ""} ${chosen ? "selected" : ""}`,
      disabled: !can, "data-key": `entrance-${colour}-${i}`, dataset: { color: colour }, "aria-label": `${colour} student in the entrance`,
      "aria-pressed": chosen ? "true" : null,
      onclick: () => { ui.student = ui.student === colour ? null : colour; ui.character = null; ctx.redraw(); } });
  });
  return h("section", { class: `school ${mine ? "mine" : ""} ${ctx.toAct.includes(player.seat) ? "to-act" : ""}`,
    dataset: { seat: player.seat }, "aria-label": `school of ${seatName(ctx.seats, player.seat)}` },
  h("h3", {}, `${seatName(ctx.seats, player.seat)} — ${team.tower} towers: ${team.towers_left}`,
    view.expert ? ` · coins ${player.coins}` : "", player.played ? ` · played ${player.played}` : ""),
  h("div", { class: "entrance", "aria-label": "entrance" }, h("span", { class: "label" }, "Entrance"), entrance),
  h(diningTarget ? "button" : "div", {
    class: `dining ${diningTarget ? "target" : ""}`, type: diningTarget ? "button" : null,
    "data-key": mine ? "dining" : null, id: mine ? "my-dining" : null,
    "aria-label": `dining room: ${tally(player.dining)}${diningTarget ? ": move the student here" : ""}`,
    onclick: diningTarget ? () => diningTarget() : null,
  }, h("span", { class: "label" }, "Dining room (★: holds the professor)"), COLOURS.map((c) => h("div", { class: `table lane-${c}`, dataset: { color: c } },
    h("span", { class: `lane-name ln-${c}` }, c),
    h("span", { class: "lane-count" }, `${player.dining[c] || 0}`),
    h("span", { class: `prof ${professors.includes(c) ? "held" : ""} ${c}`,
      title: professors.includes(c) ? `holds the ${c} professor` : `${c} professor: not here` }, professors.includes(c) ? "★" : "·"),
    h("span", { class: "lane-students" }, students({ [c]: player.dining[c] }))))));
}

function assistants(ctx) {
  const me = ctx.view.players.find((p) => p.seat === ctx.you);
  if (!me) return null;
  const playable = new Map((ctx.legal || []).filter((a) => a.type === "play_assistant").map((a) => [a.card, a]));
  return h("section", { class: "assistants", id: "assistants", "aria-label": "your assistant cards" },
    h("h3", {}, playable.size ? "Play an assistant card" : "Your assistant cards"),
    me.hand.map((card) => h("button", { type: "button", class: `assistant ${playable.has(card) ? "target" : ""}`,
      disabled: !playable.has(card), "data-key": `assistant-${card}`, dataset: { card },
      onclick: () => ctx.act(playable.get(card)) }, h("strong", {}, card), h("small", {}, ` ${MOVES[card]} step${MOVES[card] > 1 ? "s" : ""}`))));
}

function characterPanel(ctx) {
  const { view, ui } = ctx;
  if (!view.expert) return null;
  const playable = (ctx.legal || []).filter((a) => a.type === "play_character");
  return h("section", { class: "characters", id: "characters", "aria-label": "characters" },
    h("h3", {}, `Characters (reserve ${view.reserve} coins)`),
    view.characters.map((card) => {
      const options = playable.filter((a) => a.character === card.key);
      const chosen = ui.character === card.key;
      return h("div", { class: `character ${chosen ? "selected" : ""}`, id: `char-${card.key}`, dataset: { character: card.key } },
        h("strong", {}, `${card.name} — ${card.cost} coin${card.cost > 1 ? "s" : ""}`),
        h("p", {}, CHARACTER_TEXT[card.key] || ""),
        card.students ? h("div", { class: "students" }, students(card.students)) : null,
        card.no_entry ? h("p", {}, `No-entry tiles: ${card.no_entry}`) : null,
        h("button", { type: "button", class: "use", "data-key": `use-${card.key}`, disabled: !options.length,
          onclick: () => startCharacter(ctx, card.key, options) }, chosen ? "Cancel" : "Use"),
        chosen ? characterSteps(ctx, card, options) : null);
    }));
}

function startCharacter(ctx, key, options) {
  const { ui } = ctx;
  ui.student = null;
  if (ui.character === key) {
    ui.character = null;
  } else if (!STEPS[key]) {
    ctx.act(options[0]);
    return;
  } else {
    Object.assign(ui, { character: key, color: null, swaps: [], give: null });
  }
  ctx.redraw();
}

function colourButtons(ctx, colours, prefix, onpick) {
  return h("div", { class: "row" }, colours.map((c) => h("button", { type: "button", class: `pick ${c}`,
    "data-key": `${prefix}-${c}`, onclick: () => onpick(c) }, c)));
}

function characterSteps(ctx, card, options) {
  const { ui } = ctx;
  const steps = STEPS[card.key];
  if (steps[0] === "swaps") return swapBuilder(ctx, card, options);
  if (steps[0] === "color" && !ui.color) {
    const colours = COLOURS.filter((c) => options.some((a) => a.color === c));
    return h("div", { class: "steps" }, h("p", {}, "Choose a colour:"), colourButtons(ctx, colours, "pick-color", (c) => {
      const rest = options.filter((a) => a.color === c);
      if (steps.length === 1) ctx.act(rest[0]);
      else { ui.color = c; ctx.redraw(); }
    }));
  }
  return h("p", { class: "steps hint" }, `Now click an island${ui.color ? ` for the ${ui.color} student` : ""}.`);
}

function swapBuilder(ctx, card, options) {
  const { ui } = ctx;
  const jester = card.key === "jester";
  const fromName = jester ? "from this card" : "from your entrance";
  const toName = jester ? "from your entrance" : "from your dining room";
  const same = (a) => a.swaps.length === ui.swaps.length
    && [...a.swaps].map(String).sort().join() === [...ui.swaps].map(String).sort().join();
  const extend = (pair) => options.some((a) => a.swaps.length > ui.swaps.length
    && ui.swaps.concat([pair]).every((p) => a.swaps.some((q) => String(q) === String(p))));
  const done = options.find(same);
  const first = COLOURS.filter((c) => COLOURS.some((d) => extend([c, d])));
  const second = ui.give ? COLOURS.filter((d) => extend([ui.give, d])) : [];
  return h("div", { class: "steps" },
    h("p", {}, `Swaps so far: ${ui.swaps.map(([a, b]) => `${a} ⇄ ${b}`).join(", ") || "none"}`),
    ui.give ? h("p", {}, `Give ${ui.give} ${fromName} for a student ${toName}:`) : h("p", {}, `Take a student ${fromName}:`),
    ui.give ? colourButtons(ctx, second, "swap-b", (d) => { ui.swaps = [...ui.swaps, [ui.give, d]]; ui.give = null; ctx.redraw(); })
      : colourButtons(ctx, first, "swap-a", (c) => { ui.give = c; ctx.redraw(); }),
    h("button", { type: "button", id: "swaps-done", "data-key": "swaps-done", disabled: !done || !ui.swaps.length,
      onclick: () => ctx.act(done) }, "Play these swaps"));
}

/** island index -> {words, run} for the click that is possible now */
function islandTargets(ctx) {
  const { view, ui } = ctx;
  const legal = ctx.legal || [];
  const targets = new Map();
  if (ui.character) {
    const options = legal.filter((a) => a.type === "play_character" && a.character === ui.character
      && a.island !== undefined && (!ui.color || a.color === ui.color));
    for (const a of options) targets.set(a.island, { words: `use ${label(ui.character)} here`, run: () => ctx.act(a) });
    return targets;
  }
  if (ui.student) {
    for (const a of legal.filter((x) => x.type === "move_student" && x.color === ui.student && x.to !== "dining")) {
      targets.set(a.to, { words: `move the ${ui.student} student here`, run: () => { ui.student = null; ctx.act(a); } });
    }
    return targets;
  }
  const n = view.islands.length;
  for (const a of legal.filter((x) => x.type === "move_mother_nature").sort((x, y) => x.steps - y.steps)) {
    const island = (view.mother_nature + a.steps) % n;
    if (!targets.has(island)) targets.set(island, { words: `Mother Nature moves ${a.steps} here`, run: () => ctx.act(a) });
  }
  return targets;
}

function headline(ctx) {
  const { view } = ctx;
  const turn = view.turn;
  const bits = [`Round ${view.round}`, view.phase === "planning" ? "planning: everyone plays an assistant" : view.phase];
  if (turn) bits.push(`${turn.students_moved} of ${turn.students_moved + turn.students_to_move} students moved`,
    turn.mother_nature_moved ? "Mother Nature has moved" : `Mother Nature: up to ${turn.max_steps} steps`);
  if (view.last_round) bits.push("last round");
  bits.push(`bag ${view.bag.count}`);
  return h("p", { id: "phase", class: "phase", dataset: { phase: view.phase, round: view.round } }, bits.join(" · "));
}

export function eriantys(ctx) {
  const { view, ui } = ctx;
  const legal = ctx.legal || [];
  if (!legal.length) Object.assign(ui, { student: null, character: null });
  const movable = new Set(legal.filter((a) => a.type === "move_student").map((a) => a.color));
  const toDining = ui.student && legal.find((a) => a.type === "move_student" && a.color === ui.student && a.to === "dining");
  const end = legal.find((a) => a.type === "end_turn");
  const schools = view.players.map((p) => school(ctx, p, movable,
    p.seat === ctx.you && toDining ? () => { ui.student = null; ctx.act(toDining); } : null));
  return h("div", { class: "game eriantys-game", id: "board" },
    h("div", { class: "main-col" }, headline(ctx), islandsRing(ctx, islandTargets(ctx)),
      end ? h("button", { type: "button", id: "end-turn", "data-key": "end-turn", onclick: () => ctx.act(end) }, "End the turn") : null,
      ui.student ? h("p", { class: "hint" }, `Move the ${ui.student} student: click your dining room or an island (Esc: cancel).`) : null,
      assistants(ctx)),
    h("aside", { class: "facts" }, characterPanel(ctx), schools));
}
