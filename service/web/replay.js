// Replay a saved match: a slider over its versions; the server gives the spectator's picture of
// any version (GET /api/matches/ID/at/N), drawn with the same board as live play.

import { getJson } from "./net.js";
import { describeAction, h, outcomeText, replaceKeepingFocus, Screen, seatName } from "./ui.js";
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
    const detail = await getJson(`/api/matches/${this.id}`);
    this.last = detail.version;
    await this.show(0);
  }

  async show(version) {
    const wanted = Math.max(0, Math.min(version, this.last));
    this.at = wanted;
    if (!this.positions.has(wanted)) {
      const position = await getJson(`/api/matches/${this.id}/at/${wanted}`);
      this.positions.set(wanted, position);
    }
    if (this.at === wanted) this.render();
  }

  step(delta) {
    this.show(this.at + delta).catch((error) => this.fail(error));
  }

  render() {
    if (this.left) return;
    const p = this.positions.get(this.at);
    const nav = h("nav", {}, h("a", { href: "#/" }, "← Lobby"), " ",
      h("a", { href: `#/watch/${this.id}` }, "Watch live"));
    if (!p) {
      replaceKeepingFocus(this.root, nav, this.error ? this.errorLine() : h("p", { role: "status" }, "Loading…"));
      return;
    }
    const renderer = RENDERERS[p.game];
    const ctx = { view: p.view, you: null, seats: p.seats, status: p.status, toAct: p.to_act, legal: null,
      act: () => {}, ui: this.ui, redraw: () => this.render(), interactive: false,
      catalog: this.app.game(p.game)?.catalog || {}, version: p.version };
    const slider = h("input", { type: "range", id: "replay-slider", "data-key": "slider", min: 0, max: this.last,
      value: this.at, "aria-label": "version", oninput: (e) => this.show(Number(e.target.value)).catch((x) => this.fail(x)) });
    const button = (id, label, delta, disabled) => h("button", { type: "button", id, "data-key": id, disabled,
      onclick: () => this.step(delta) }, label);
    replaceKeepingFocus(this.root, nav,
      h("h1", {}, `Replay: ${this.app.game(p.game)?.title || p.game} #${p.match_id}`),
      h("div", { class: "replay-controls row" },
        button("replay-start", "⏮ Start", -this.at, this.at === 0),
        button("replay-back", "◀ Back", -1, this.at === 0),
        slider,
        button("replay-forward", "Forward ▶", 1, this.at === this.last),
        button("replay-end", "End ⏭", this.last - this.at, this.at === this.last)),
      h("p", { id: "replay-at", role: "status", dataset: { version: p.version } },
        `Version ${p.version} of ${p.last}`,
        p.action ? ` — ${seatName(p.seats, p.action.seat)}: ${describeAction(p.action.action)}` : " — the start"),
      this.error ? this.errorLine() : null,
      p.outcome ? h("p", { id: "outcome" }, outcomeText(p.outcome, p.seats, null)) : null,
      h("div", { class: "board-area", id: "board-area", dataset: { version: p.version, game: p.game } },
        renderer ? renderer(ctx) : h("p", {}, `No board for ${p.game}.`)));
  }
}
