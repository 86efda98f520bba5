// One match, played from your seat (#/play/ID) or watched (#/watch/ID): whose turn, who is
// here, the board of the game, every error in words, the outcome and the rematch.

import { botName, describeAction, errorText, h, outcomeText, replaceKeepingFocus, Screen, seatName } from "./ui.js";
import { RENDERERS } from "./games/index.js";

function clientId() {
  return `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export class MatchScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.title = `Match ${this.id}`;
    this.legal = null;
    this.legalVersion = null;
    this.ui = {};
    this.notice = null;
  }

  get record() {
    return this.app.matches.get(this.id);
  }

  get playing() {
    return this.kind === "play";
  }

  async enter() {
    this.escape = (event) => {
      if (event.key !== "Escape") return;
      for (const key of ["from", "student", "character", "choice", "place", "color", "give", "res", "buy", "prod", "keep"]) this.ui[key] = null;
      this.render();
    };
    document.addEventListener("keydown", this.escape);
    this.render();
    if (this.app.conn.status === "open") await this.reattach();
  }

  /** resume (your seat) or watch, from the version we have: the server sends what we missed. */
  async reattach() {
    if (this.left) return;
    const since = this.record?.version;
    const type = this.playing ? "resume" : "watch";
    try {
      const invite = this.playing ? null : this.app.invite(this.id); // a private match is watched with its code
      const command = { type, match_id: this.id, ...(since !== undefined ? { since } : {}), ...(invite ? { invite } : {}) };
      await this.app.conn.request(command);
      this.error = null;
    } catch (error) {
      if (this.playing && ["session/not_seated", "session/not_identified"].includes(error.code)) {
        location.hash = `#/watch/${this.id}`; // not your match: watch it instead
        return;
      }
      this.fail(error);
    }
    this.legalVersion = null;
    this.render();
  }

  leave() {
    super.leave();
    document.removeEventListener("keydown", this.escape);
    if (!this.playing && this.app.conn.status === "open") {
      this.app.conn.request({ type: "leave", match_id: this.id }).catch(() => {});
    }
  }

  onMatch(matchId, message) {
    if (matchId !== this.id) return;
    if (message.type === "rematch" && message.new_match_id && this.record.you !== null && this.votedRematch) {
      location.hash = `#/play/${message.new_match_id}`;
      return;
    }
    if (message.type === "update" || message.type === "state") {
      this.ui.pending = false;
      if (message.legal && message.version === this.record.version) {
        // pushed with the position (hello push_legal): no legal request for this version
        this.legal = message.legal;
        this.legalAt = this.legalVersion = message.version;
      }
      if (message.type === "update" && message.seat !== this.record.you) this.notice = null;
    }
    this.render();
  }

  myTurn() {
    const r = this.record;
    return r && r.status === "active" && r.you !== null && r.you !== undefined && (r.to_act || []).includes(r.you);
  }

  fetchLegal() {
    const r = this.record;
    if (!this.myTurn() || this.legalVersion === r.version || this.app.conn.status !== "open") return;
    const version = r.version;
    this.legalVersion = version;
    this.app.conn.request({ type: "legal", match_id: this.id }).then((answer) => {
      if (this.left || answer.result.version !== this.record.version) return;
      this.legal = answer.result.actions;
      this.legalAt = answer.result.version;
      this.render();
    }).catch((error) => {
      this.legalVersion = null;
      this.fail(error);
    });
  }

  async act(action) {
    const r = this.record;
    this.error = null;
    this.legal = null; // nothing more to click until the position comes back
    this.ui.pending = true;
    this.render();
    try {
      await this.app.conn.request({ type: "act", match_id: this.id, action, client_id: clientId(), version: r.version });
    } catch (error) {
      this.ui.pending = false;
      this.legalVersion = null;
      this.fail(error);
    }
  }

  async rematch() {
    this.votedRematch = true;
    try {
      const answer = await this.app.conn.request({ type: "rematch", match_id: this.id });
      if (answer.result.new_match_id) location.hash = `#/play/${answer.result.new_match_id}`;
      else this.render();
    } catch (error) {
      this.fail(error);
    }
  }

  render() {
    if (this.left) return;
    const r = this.record;
    if (!r || !r.view) {
      replaceKeepingFocus(this.root, h("p", {}, h("a", { href: "#/" }, "← Lobby")),
        this.error ? this.errorLine() : h("p", { role: "status" }, `Loading match ${this.id}…`));
      return;
    }
    this.fetchLegal();
    const renderer = RENDERERS[r.game];
    const legal = this.myTurn() && this.legalAt === r.version ? this.legal : null;
    const ctx = {
      view: r.view, you: r.you ?? null, seats: r.seats, status: r.status, toAct: r.to_act || [],
      legal, act: (a) => this.act(a), ui: this.ui, redraw: () => this.render(),
      catalog: this.app.game(r.game)?.catalog || {}, interactive: this.playing, version: r.version,
    };
    replaceKeepingFocus(this.root,
      h("nav", {}, h("a", { href: "#/" }, "← Lobby"), " ", h("a", { href: `#/replay/${this.id}` }, "Replay")),
      h("header", { class: "match-head" },
        h("h1", {}, `${this.app.game(r.game)?.title || r.game} #${r.match_id}`),
        h("p", { id: "role" }, r.you === null || r.you === undefined ? "You are watching." : `You play ${seatName(r.seats, r.you)}.`)),
      this.statusLine(r),
      this.seatList(r),
      this.invitation(r),
      h("p", { id: "error", class: "error", role: "alert" }, errorText(this.error)),
      h("div", { class: "board-area", id: "board-area", dataset: { version: r.version, game: r.game, legal: legal ? legal.length : "" } },
        renderer ? renderer(ctx) : h("p", {}, `No board for ${r.game} yet.`)),
      this.endPanel(r),
      this.moveLog(r));
  }

  statusLine(r) {
    let text;
    if (r.status === "waiting") text = "Waiting for players to join…";
    else if (r.status === "finished") text = outcomeText(r.outcome, r.seats, r.you);
    else if (this.app.game(r.game)?.real_time) text = "Both sides move at once: move whenever you like.";
    else if (this.myTurn()) text = "Your turn.";
    else text = `Waiting for ${(r.to_act || []).map((s) => seatName(r.seats, s)).join(", ")}.`;
    return h("p", { id: "turn", class: `turn ${this.myTurn() ? "mine" : ""}`, role: "status",
      dataset: { status: r.status } }, text, ` (version ${r.version})`);
  }

  seatList(r) {
    return h("ul", { class: "seats", id: "seats", "aria-label": "players" }, (r.seats || []).map((s) =>
      h("li", { class: `seat ${s.present ? "present" : "away"} ${(r.to_act || []).includes(s.seat) ? "to-act" : ""}`,
        dataset: { seat: s.seat } },
      h("span", { class: "dot", "aria-hidden": "true" }),
      `${s.nickname || "(free seat)"} — ${s.label}`,
      s.bot ? h("span", { class: "bot", dataset: { bot: s.bot } }, ` · ${botName(s.bot)}`) : "",
      s.nickname && !s.bot ? (s.present ? " · here" : " · away") : "",
      s.stand_in ? ` · ${botName(s.stand_in)} plays for them` : "",
      s.seat === r.you ? " · you" : "")));
  }

  /** The link that lets a friend into this private match, while seats are free (its creator's
   * page only: the code is kept where it was received or opened). */
  invitation(r) {
    const code = this.app.invite(this.id);
    if (!code || r.status !== "waiting" || !this.playing) return null;
    const link = `${location.origin}${location.pathname}#/join/${this.id}/${code}`;
    const field = h("input", { id: "invite-link", "data-key": "invite-link", readonly: true, value: link,
      size: Math.min(link.length, 60), "aria-label": "invitation link" });
    const copy = async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(link);
        this.copied = "Copied.";
      } catch {
        this.copied = "Select the link and copy it."; // no clipboard access (e.g. not https)
      }
      this.render();
    };
    return h("section", { class: "invitation", id: "invitation" },
      h("p", {}, "A private match: only people who open this link can join it or watch it."),
      h("div", { class: "row" }, field,
        h("button", { type: "button", id: "copy-invite", "data-key": "copy-invite", onclick: copy }, "Copy link"),
        this.copied ? h("span", { class: "hint", role: "status" }, this.copied) : null));
  }

  endPanel(r) {
    if (r.status !== "finished") return null;
    const agreed = (r.agreed || []).map((s) => seatName(r.seats, s));
    const canVote = r.you !== null && r.you !== undefined;
    return h("section", { class: "end", id: "end" },
      h("p", { id: "outcome" }, outcomeText(r.outcome, r.seats, r.you)),
      canVote ? h("button", { type: "button", id: "rematch", "data-key": "rematch", onclick: () => this.rematch() },
        r.rematch_id ? "Go to the rematch" : "Rematch") : null,
      agreed.length ? h("p", { id: "rematch-votes" }, `Rematch asked by ${agreed.join(", ")}.`) : null);
  }

  moveLog(r) {
    const recent = r.log.slice(-12).reverse();
    return h("details", { class: "log" }, h("summary", {}, `Moves (${r.log.length} seen)`),
      h("ol", { id: "move-log" }, recent.map((e) =>
        h("li", { value: e.version }, `${seatName(r.seats, e.seat)}: ${describeAction(e.action)}`))));
  }
}
