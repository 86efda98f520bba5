// One match, played from your seat (#/play/ID) or watched (#/watch/ID): whose turn (a sticky
// bar, the tab's title, a notification when the tab is hidden), who is here, the board of the
// game with the last move marked, the moves in words, the ways out (Resign, Claim, Leave), every
// error in words, the outcome and the rematch.

import { botName, describeAction, errorText, h, outcomeText, playerName, replaceKeepingFocus, Screen, seatName } from "./ui.js";
import { RENDERERS } from "./games/index.js";
import { lastMoveMarks, markLastMove } from "./lastmove.js";
import { playerLink, ratingSlot } from "./ratings.js";
import { seatClock, tickClocks } from "./clock.js";
import { drawPanel } from "./draws.js";
import { rulesLink } from "./rules.js";

const NOTIFY_ASKED = "tavolo.notify.asked";
/** boards that need the page's whole width: their log goes under the board, not beside it */
const WIDE = new Set(["eriantys", "renaissance"]);

/** What each way out asks before it is sent, and what its button says. */
const EXITS = {
  resign: { label: "Resign", ask: "Resign this match? The other side wins.", yes: "Yes, resign" },
  claim: { label: "Claim the win", ask: "Claim the win over the players who are away?", yes: "Yes, claim" },
  stand_in: { label: "Play on without them", ask: "Let a computer play for the players who are away?", yes: "Yes, go on" },
  leave: { label: "Leave", ask: "Leave this match? Your seat is given back.", yes: "Yes, leave" },
};

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
    this.confirming = null; // the way out waiting for its confirmation
    this.headingFocused = false;
    this.wasMyTurn = false;
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
      this.confirming = null; // a way out waiting for its confirmation is dropped too
      this.render();
    };
    document.addEventListener("keydown", this.escape);
    this.stopClocks = tickClocks(this.root, () => this.record?.clock ?? null);
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
    clearTimeout(this.tick);
    if (this.stopClocks) this.stopClocks();
    document.title = "Tavolo";
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
      if (message.type === "update" && message.seat !== this.record.you) {
        this.notice = null;
        this.app.announce((message.said || []).join(" "));
      }
      const mine = this.myTurn();
      if (mine && !this.wasMyTurn) this.tellTurn(message);
      this.wasMyTurn = mine;
    }
    this.render();
  }

  /** It became our turn: a browser notification when the tab is hidden (if allowed). */
  tellTurn(message) {
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    const r = this.record;
    const title = `Your turn — ${this.matchName(r)}`;
    try {
      const note = new Notification(title, { body: (message.said || []).join(" "), tag: `tavolo-${r.match_id}` });
      note.onclick = () => { window.focus(); note.close(); };
    } catch {
      // some browsers allow notifications only from a service worker: the title still says it
    }
  }

  /** The notification permission, asked once, only when the player clicks to be told. */
  notifyOffer() {
    if (!this.playing || !("Notification" in window) || Notification.permission !== "default"
      || localStorage.getItem(NOTIFY_ASKED)) return null;
    const ask = async () => {
      localStorage.setItem(NOTIFY_ASKED, "1");
      try {
        await Notification.requestPermission();
      } catch {
        // refused or unavailable: nothing more to ask
      }
      this.render();
    };
    return h("button", { type: "button", id: "notify", "data-key": "notify", class: "quiet", onclick: ask },
      "Notify me when it is my turn");
  }

  /** The match as its heading, the tab's title and the turn notification name it. */
  matchName(r) {
    return `${this.app.game(r.game)?.title || r.game} #${r.match_id}`;
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
    if (r && r.view) {
      document.title = `${this.myTurn() ? "(your turn) " : ""}${this.matchName(r)} — Tavolo`;
    }
    if (!r || !r.view) {
      replaceKeepingFocus(this.root, h("p", {}, h("a", { href: "#/" }, "← Lobby")),
        this.error ? this.errorLine() : h("p", { role: "status" }, `Loading match ${this.id}…`));
      return;
    }
    this.fetchLegal();
    this.scheduleClaims(r);
    const renderer = RENDERERS[r.game];
    const legal = this.myTurn() && this.legalAt === r.version ? this.legal : null;
    const ctx = {
      view: r.view, you: r.you ?? null, seats: r.seats, status: r.status, toAct: r.to_act || [],
      legal, act: (a) => this.act(a), ui: this.ui, redraw: () => this.render(),
      catalog: this.app.game(r.game)?.catalog || {}, interactive: this.playing, version: r.version,
    };
    const logScroll = this.root.querySelector("#move-log")?.scrollTop || 0;
    const board = h("div", { class: "board-area", id: "board-area", dataset: { version: r.version, game: r.game, legal: legal ? legal.length : "" } },
      renderer ? renderer(ctx) : h("p", {}, `No board for ${r.game} yet.`));
    const heading = h("h1", { id: "match-heading", tabindex: "-1", "data-key": "match-heading" }, this.matchName(r));
    replaceKeepingFocus(this.root,
      h("nav", {}, h("a", { href: "#/" }, "← Lobby"), " ", h("a", { href: `#/replay/${this.id}` }, "Replay")),
      h("header", { class: "match-head" }, heading,
        h("p", { id: "role" }, r.you === null || r.you === undefined ? "You are watching." : `You play ${seatName(r.seats, r.you)}.`)),
      this.goal(r),
      this.statusBar(r),
      this.seatList(r),
      this.invitation(r),
      h("p", { id: "error", class: "error", role: "alert" }, errorText(this.error)),
      this.endPanel(r),
      h("div", { class: `match-body ${WIDE.has(r.game) ? "wide" : ""}`, dataset: { game: r.game } }, board, this.moveLog(r)));
    if (r.last && r.last.version === r.version) markLastMove(board, lastMoveMarks(r.game, r.last), r.last.at);
    const log = this.root.querySelector("#move-log");
    if (log) log.scrollTop = logScroll;
    if (!this.headingFocused) { // a match that opens takes the focus to its heading
      this.headingFocused = true;
      heading.focus();
    }
  }

  /** The game's goal in one sentence (the server's `goal`) and the link to its rules. */
  goal(r) {
    const goal = this.app.game(r.game)?.goal;
    return h("p", { id: "goal", class: "goal" }, goal ? [h("strong", {}, "Goal: "), goal, " "] : null,
      rulesLink(r.game, "Rules"));
  }

  /** Whose turn, and the ways out: stays in view while the board scrolls (sticky). */
  statusBar(r) {
    return h("div", { class: "status-bar", id: "status-bar" }, this.statusLine(r), this.turnClocks(r),
      h("div", { class: "exits", id: "exits" }, this.exits(r), drawPanel(this, r)), this.notifyOffer(), this.lastSaid(r));
  }

  /** The last move in words, under whose turn it is (the log has them all). */
  lastSaid(r) {
    const last = r.log.length ? r.log[r.log.length - 1] : null;
    if (!last) return null;
    return h("p", { class: "last-said", id: "last-said" }, h("strong", {}, "Last move: "), entryText(r, last));
  }

  /** The ways out of this match for our seat, each with a confirmation. */
  exits(r) {
    if (!this.playing || r.you === null || r.you === undefined) return null;
    const twoSides = this.sides(r) === 2;
    const offered = [];
    if (r.status === "waiting") offered.push("leave");
    if (r.status === "active" && twoSides) offered.push("resign");
    if (r.status === "active" && this.claimable(r).length) offered.push(twoSides ? "claim" : "stand_in");
    if (this.confirming && this.confirming !== "draw" && !offered.includes(this.confirming)) this.confirming = null;
    if (this.confirming === "draw") return null; // the draw offer waits for its confirmation
    if (this.confirming) {
      const exit = EXITS[this.confirming];
      const kind = this.confirming;
      return h("span", { class: "confirm", id: "confirm", role: "group", "aria-label": exit.ask },
        h("span", {}, exit.ask), " ",
        h("button", { type: "button", id: `confirm-${kind}`, "data-key": `confirm-${kind}`, class: "danger",
          onclick: () => this.exit(kind) }, exit.yes), " ",
        h("button", { type: "button", id: "confirm-cancel", "data-key": "confirm-cancel",
          onclick: () => { this.confirming = null; this.render(); } }, "Cancel"));
    }
    const away = this.claimable(r);
    return offered.map((kind) => h("button", { type: "button", id: kind === "stand_in" ? "claim" : kind,
      "data-key": kind, onclick: () => { this.confirming = kind; this.render(); },
      title: kind === "claim" || kind === "stand_in" ? `${away.map((s) => playerName(s)).join(", ")} ${away.length > 1 ? "are" : "is"} away` : null },
    EXITS[kind].label));
  }

  async exit(kind) {
    this.confirming = null;
    this.error = null;
    const type = kind === "stand_in" ? "claim" : kind;
    try {
      await this.app.conn.request({ type, match_id: this.id });
    } catch (error) {
      if (error.code === "session/not_abandoned") this.reattach(); // our count was off: ask again
      this.fail(error);
      return;
    }
    if (kind === "leave") location.hash = "#/";
    else this.render();
  }

  /** The away players of the other sides a claim is possible over now, as the server counts
   * (its state says in how many seconds: ``claim_in``). */
  claimable(r) {
    const now = Date.now();
    return this.awayOpponents(r).filter((s) => s.claim_told && s.claim_at !== null && s.claim_at <= now);
  }

  /** Wake up when the next claim becomes possible: a count the server told is shown as it is;
   * one this page guessed (a seat just left: one grace from now) is checked with the server. */
  scheduleClaims(r) {
    clearTimeout(this.tick);
    if (!this.playing || r.status !== "active") return;
    const now = Date.now();
    const next = this.awayOpponents(r).filter((s) => s.claim_at !== null && (s.claim_at > now || !s.claim_told))
      .sort((a, b) => a.claim_at - b.claim_at)[0];
    if (!next) return;
    const wait = Math.max(0, next.claim_at - now);
    // the minutes shown go down while nothing happens: redraw at least every 15 s
    this.tick = setTimeout(() => {
      if (this.left) return;
      if (!next.claim_told && next.claim_at <= Date.now()) this.reattach(); // the server's count
      else this.render();
    }, Math.min(wait + 250, 15000));
  }

  /** When a claim over an away seat becomes possible, in words, as the server counts it. */
  claimableIn(r, seat) {
    if (!seat.claim_at || !this.playing || !this.awayOpponents(r).includes(seat)) return "";
    const left = Math.ceil((seat.claim_at - Date.now()) / 1000);
    if (left <= 0) return seat.claim_told ? " · a claim is possible now" : "";
    const when = left >= 90 ? `about ${Math.ceil(left / 60)} min` : `${left} s`;
    return ` · a claim is possible in ${when}`;
  }

  sides(r) {
    return new Set((r.seats || []).map((s) => (s.team === null || s.team === undefined ? `seat ${s.seat}` : `team ${s.team}`))).size;
  }

  /** The players of the other sides who are away (a claim may be possible once the game's
   * grace has passed; the server says how long that is if it is too early). */
  awayOpponents(r) {
    const mine = (r.seats || []).find((s) => s.seat === r.you);
    const sameSide = (s) => s.seat === r.you || (mine && mine.team !== null && mine.team !== undefined && s.team === mine.team);
    return (r.seats || []).filter((s) => !sameSide(s) && s.nickname && !s.present && !s.bot && !s.stand_in);
  }

  statusLine(r) {
    let text;
    if (r.status === "waiting") text = "Waiting for players to join…";
    else if (r.status === "finished") text = outcomeText(r.outcome, r.seats, r.you, r.outcome_said);
    else if (this.app.game(r.game)?.real_time) text = "Both sides move at once: move whenever you like.";
    else if (this.myTurn()) text = "Your turn.";
    else text = `Waiting for ${(r.to_act || []).map((s) => seatName(r.seats, s)).join(", ")}.`;
    return h("p", { id: "turn", class: `turn ${this.myTurn() ? "mine" : ""}`, role: "status",
      dataset: { status: r.status } }, text, ` (version ${r.version})`);
  }

  /** The clocks running now, named, in the bar that stays in view (the seat list scrolls away
   * on a phone); outside the status line, whose changes are announced, so no tick is read out. */
  turnClocks(r) {
    const running = r.status === "active" ? r.clock?.running || [] : [];
    if (!running.length) return null;
    return h("span", { id: "turn-clocks", class: "turn-clocks" }, running.map((seat) =>
      h("span", { class: "turn-clock" }, seatClock(r.clock, seat), seat === r.you ? "you" : seatName(r.seats, seat))));
  }

  /** Who a seat's player is, when known: the server's `player_id`, or ours for our own seat. */
  playerIdOf(r, s) {
    if (s.bot || !s.nickname) return null;
    return s.player_id ?? (s.seat === r.you && this.app.player ? this.app.player.id : null);
  }

  seatList(r) {
    const ids = (r.seats || []).map((s) => this.playerIdOf(r, s));
    this.app.ratings.want(r.game, ids); // filled in place when they come
    return h("ul", { class: "seats", id: "seats", "aria-label": "players" }, (r.seats || []).map((s, i) =>
      h("li", { class: `seat ${s.present ? "present" : "away"} ${(r.to_act || []).includes(s.seat) ? "to-act" : ""}`,
        dataset: { seat: s.seat } },
      h("span", { class: "dot", "aria-hidden": "true" }),
      seatClock(r.clock, s.seat),
      s.nickname && !s.bot ? playerLink(s.nickname, ids[i]) : s.nickname ? playerName(s) : "(free seat)",
      ratingSlot(this.app.ratings, r.game, ids[i]), ` — ${s.label}`,
      s.bot ? h("span", { class: "bot", dataset: { bot: s.bot } }, " · a computer player") : "",
      s.nickname && !s.bot ? (s.present ? " · here" : ` · away${awayFor(s)}${this.claimableIn(r, s)}`) : "",
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
    return h("section", { class: "end", id: "end", "aria-label": "the end of the match" },
      h("p", { id: "outcome" }, outcomeText(r.outcome, r.seats, r.you, r.outcome_said)),
      canVote ? h("button", { type: "button", id: "rematch", "data-key": "rematch", onclick: () => this.rematch() },
        r.rematch_id ? "Go to the rematch" : "Rematch") : null,
      agreed.length ? h("p", { id: "rematch-votes" }, `Rematch asked by ${agreed.join(", ")}.`) : null);
  }

  /** Every move seen on this page, in words, newest first; it scrolls back. */
  moveLog(r) {
    const entries = r.log.slice().reverse();
    return h("section", { class: "log", id: "log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title" }, "Moves"),
      entries.length
        ? h("ol", { id: "move-log", reversed: true, tabindex: "0", "aria-label": "moves, newest first" },
          entries.map((e) => h("li", { value: e.version, dataset: { version: e.version, seat: e.seat },
            class: e.seat === r.you ? "own" : "" }, entryText(r, e))))
        : h("p", { class: "hint", id: "move-log-empty" }, r.status === "waiting"
          ? "The moves will be listed here." : "Moves made from now on are listed here, newest first."));
  }
}

/** A log entry: the server's words, or (for moves caught up after a reconnect) the action. */
function entryText(r, e) {
  if (e.said && e.said.length) return e.said.join(" ");
  return `${seatName(r.seats, e.seat)}: ${describeAction(e.action)}`;
}

/** " for 3 min" while a seat is away (counted from when this page heard it left). */
function awayFor(seat) {
  if (!seat.away_since) return "";
  const minutes = Math.floor((Date.now() - seat.away_since) / 60000);
  return minutes >= 1 ? ` for ${minutes} min` : "";
}
