// Replay a saved match: a slider over its versions; the server gives the spectator's picture of
// any version (GET /api/matches/ID/at/N), drawn with the same board as live play.

import { getJson } from "./net.js";
import { describeAction, h, outcomeText, replaceKeepingFocus, Screen, seatName, svg } from "./ui.js";
import { RENDERERS } from "./games/index.js";

export class ReplayScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.title = `Replay of match ${this.id}`;
    this.positions = new Map();
    this.at = 0;
    this.last = null;
    this.ui = {};
  }

  async enter() {
    this.render();
    const detail = await getJson(`/api/matches/${this.id}`, this.app.readHeaders(this.id));
    this.last = detail.version;
    await this.show(0);
  }

  async show(version) {
    const wanted = Math.max(0, Math.min(version, this.last));
    this.at = wanted;
    if (!this.positions.has(wanted)) {
      const position = await getJson(`/api/matches/${this.id}/at/${wanted}`, this.app.readHeaders(this.id));
      this.positions.set(wanted, position);
    }
    if (this.at === wanted) this.render();
  }

  step(to) {
    this.show(to).catch((error) => this.fail(error));
  }

  /** The controls are made once (a slider being dragged must stay the same element); only
   * the position below them is drawn again. */
  controls() {
    const button = (id, label, target, icon, after = false) => h("button", { type: "button", id, "data-key": id,
      class: "icon-button", onclick: () => this.step(target()) }, after ? [label, " ", icon] : [icon, " ", label]);
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: this.last, value: this.at,
      "aria-label": "version", oninput: (e) => this.step(Number(e.target.value)) });
    const buttons = {
      start: button("replay-start", "Start", () => 0, icon("start")),
      back: button("replay-back", "Back", () => this.at - 1, icon("back")),
      forward: button("replay-forward", "Forward", () => this.at + 1, icon("forward"), true),
      end: button("replay-end", "End", () => this.last, icon("end"), true),
    };
    const title = h("h1", {});
    const position = h("div");
    this.root.replaceChildren(h("nav", {}, h("a", { href: "#/" }, "← Lobby"), " ",
      h("a", { href: `#/watch/${this.id}` }, "Watch live")), title,
    h("div", { class: "replay-controls row" }, buttons.start, buttons.back, slider, buttons.forward, buttons.end),
    position);
    return { slider, buttons, title, position };
  }

  render() {
    if (this.left) return;
    const p = this.positions.get(this.at);
    if (!p) {
      replaceKeepingFocus(this.root, h("p", {}, h("a", { href: "#/" }, "← Lobby")),
        this.error ? this.errorLine() : h("p", { role: "status" }, "Loading…"));
      return;
    }
    if (!this.parts || !this.root.contains(this.parts.slider)) this.parts = this.controls();
    const { slider, buttons, title, position } = this.parts;
    title.textContent = `Replay: ${this.app.game(p.game)?.title || p.game} #${p.match_id}`;
    slider.value = String(this.at);
    buttons.start.disabled = buttons.back.disabled = this.at === 0;
    buttons.forward.disabled = buttons.end.disabled = this.at === this.last;
    const renderer = RENDERERS[p.game];
    const ctx = { view: p.view, you: null, seats: p.seats, status: p.status, toAct: p.to_act, legal: null,
      act: () => {}, ui: this.ui, redraw: () => this.render(), interactive: false,
      catalog: this.app.game(p.game)?.catalog || {}, version: p.version };
    replaceKeepingFocus(position,
      h("p", { id: "replay-at", role: "status", dataset: { version: p.version } },
        `Version ${p.version} of ${p.last}`,
        p.action ? ` — ${seatName(p.seats, p.action.seat)}: ${describeAction(p.action.action)}` : " — the start"),
      this.error ? this.errorLine() : null,
      p.outcome ? h("p", { id: "outcome" }, outcomeText(p.outcome, p.seats, null)) : null,
      h("div", { class: "board-area", id: "board-area", dataset: { version: p.version, game: p.game } },
        renderer ? renderer(ctx) : h("p", {}, `No board for ${p.game}.`)));
  }
}

/** The replay buttons' icons, drawn as SVG (the media symbols ⏮ ⏭ are missing from common
 * fonts and showed as empty boxes): a triangle, with a bar for "to the start / end". */
const ICONS = {
  back: "M11 3 L4 8 L11 13 Z",
  start: "M12 3 L5 8 L12 13 Z M3 3 H5 V13 H3 Z",
  forward: "M5 3 L12 8 L5 13 Z",
  end: "M4 3 L11 8 L4 13 Z M11 3 H13 V13 H11 Z",
};

function icon(name) {
  return svg("svg", { class: "icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: ICONS[name], fill: "currentColor" }));
}
