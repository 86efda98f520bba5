// Tavolo in the browser: one connection, the matches it follows, and a screen per route.
//   #/              the lobby
//   #/play/ID       your seat in a match        #/watch/ID   a match as a spectator
//   #/replay/ID     a saved match, step by step
//   #/join/ID/CODE  an invitation to a private match: join it (or watch it) with its code
//   #/account       your password, recovery code and devices
//   #/players/ID    a player's profile         #/leaderboards/GAME   a game's ratings
//   #/rules/GAME    a game's rules

import { Connection, getJson, postJson, socketUrl } from "./net.js";
import { h, orderedLevels } from "./ui.js";
import { LobbyScreen } from "./lobby.js";
import { MatchScreen } from "./match.js";
import { ReplayScreen } from "./replay.js";
import { InviteScreen } from "./invite.js";
import { AccountScreen } from "./account.js";
import { LeaderboardScreen, ProfileScreen } from "./players.js";
import { RulesScreen } from "./rules.js";
import { Ratings } from "./ratings.js";

const TOKEN_KEY = "tavolo.token";
const INVITE_KEY = "tavolo.invite.";

export class App {
  constructor(root) {
    this.root = root;
    this.main = root.querySelector("main");
    this.banner = root.querySelector("#connection");
    this.announcer = root.querySelector("#announcer");
    this.conn = new Connection(socketUrl());
    this.player = null;
    this.unfinished = [];
    this.openMatches = [];
    this.games = [];
    this.botLevels = [];
    this.nicknameOnly = null; // a player without a token (first seen on a seed dialect)
    this.matches = new Map();
    this.screen = null;
    this.identityError = null;
    this.ratings = new Ratings();
    this.conn.onMessage((message) => this.dispatch(message));
    this.conn.onStatus((status) => this.connectionChanged(status));
    window.addEventListener("hashchange", () => this.route());
  }

  async start() {
    const [games, levels] = await Promise.all([getJson("/api/games"), getJson("/api/bots")]);
    this.games = games;
    this.botLevels = orderedLevels(levels);
    this.conn.start();
    this.route();
  }

  game(name) {
    return this.games.find((g) => g.name === name);
  }

  // --- the connection ------------------------------------------------------------------

  async connectionChanged(status) {
    this.showBanner(status);
    if (status !== "open") return;
    try {
      await this.identify();
      if (this.screen) await this.screen.reattach();
    } catch (error) {
      if (error.code !== "client/disconnected") this.identityError = error;
    }
    this.conn.resend();
    if (this.screen) this.screen.render();
  }

  showBanner(status) {
    const lost = status !== "open";
    document.body.dataset.connection = status;
    if (!this.everOpen && !lost) { // the first connection: nothing to say
      this.everOpen = true;
      this.banner.hidden = true;
      return;
    }
    this.banner.hidden = false;
    if (lost) {
      const seconds = Math.max(0, Math.round((this.conn.retryAt - Date.now()) / 1000));
      this.banner.textContent = status === "connecting" ? "Connecting to the server…"
        : `Connection lost — reconnecting${seconds ? ` in ${seconds} s` : ""}…`;
      this.banner.className = "banner lost";
    } else {
      this.banner.textContent = "Reconnected.";
      this.banner.className = "banner ok";
      setTimeout(() => { if (this.conn.status === "open") this.banner.hidden = true; }, 2500);
    }
  }

  /** hello with the saved token (or a nickname): who we are and what we may resume. A player
   * without a token is said hello to by nickname again on every reconnect; `claim` gives it
   * its first token, kept by this browser. */
  async identify(nickname = null, claim = false) {
    const token = localStorage.getItem(TOKEN_KEY);
    const name = nickname || (token ? null : this.nicknameOnly);
    if (!token && !name) return;
    // push_legal: every state and update brings our seat its legal actions while it is to act
    const hello = name ? { type: "hello", nickname: name, push_legal: true, ...(claim ? { claim: true } : {}) } : { type: "hello", token, push_legal: true };
    try {
      this.welcomed(await this.conn.request(hello));
    } catch (error) {
      if (error.code === "session/bad_token") {
        localStorage.removeItem(TOKEN_KEY);
        this.player = null;
      }
      throw error;
    }
  }

  /** A saved token not yet answered by the server (the page is still signing in). */
  get signingIn() {
    return !this.player && !this.identityError && Boolean(localStorage.getItem(TOKEN_KEY));
  }

  /** Sign in on this browser with the nickname's password (`{nickname, password}`) or its
   * recovery code and a new password (`{nickname, recovery_code, password}`): the server gives
   * this browser a token of its own, a device named after the browser. */
  async signIn(fields) {
    this.welcomed(await this.conn.request({ type: "hello", ...fields, device: deviceLabel(), push_legal: true }));
  }

  welcomed(welcome) {
    if (welcome.token) localStorage.setItem(TOKEN_KEY, welcome.token);
    this.nicknameOnly = welcome.token || welcome.player.protected ? null : welcome.player.nickname;
    this.player = welcome.player;
    this.unfinished = welcome.matches;
    this.identityError = null;
  }

  /** `sign_out` (the server stops taking this browser's token; over HTTP when the socket is
   * down), then forget the token. A token the server already refuses is simply forgotten. */
  async signOut() {
    const token = localStorage.getItem(TOKEN_KEY);
    this.signingOut = true; // HTTP reads stop carrying the token the server is about to refuse
    try {
      if (token) await this.endToken(token);
    } finally {
      this.signingOut = false;
    }
    localStorage.removeItem(TOKEN_KEY);
    this.nicknameOnly = null;
    this.player = null;
    this.unfinished = [];
    if (!this.screen) return;
    // the server let go of what this connection followed (the lobby's feed): follow it again
    if (this.conn.status === "open") await this.screen.reattach();
    this.screen.render();
  }

  async endToken(token) {
    try {
      await this.conn.request({ type: "sign_out" });
    } catch (error) {
      if (error.code === "client/disconnected") {
        await postJson("/api/account/sign-out", {}, { Authorization: `Bearer ${token}` });
      } else if (!["session/bad_token", "session/not_identified"].includes(error.code)) {
        throw error;
      }
    }
  }

  // --- invitations to private matches (kept so a reload can still share or watch) ----------

  keepInvite(matchId, code) {
    localStorage.setItem(INVITE_KEY + matchId, code);
  }

  invite(matchId) {
    return localStorage.getItem(INVITE_KEY + matchId);
  }

  /** The credentials an HTTP read about a match carries: our token (a private match is shown
   * to its players) and the match's invitation, if this browser keeps one. */
  readHeaders(matchId = null, signedIn = false) {
    // `signedIn`: the token only once the server took it on this page (the lobby's lists are
    // asked for again then), never a stale one it would refuse
    const token = (signedIn && !this.player) || this.signingOut ? null : localStorage.getItem(TOKEN_KEY);
    const code = matchId === null ? null : this.invite(matchId);
    return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(code ? { "X-Tavolo-Invite": code } : {}) };
  }

  // --- what the server pushes ----------------------------------------------------------

  dispatch(message) {
    if (message.type === "lobby") {
      this.openMatches = message.matches;
      if (this.screen) this.screen.onLobby();
      return;
    }
    if (message.match_id === undefined) return;
    const record = this.record(message.match_id);
    const apply = {
      state: () => this.applyState(record, message),
      update: () => this.applyUpdate(record, message),
      caught_up: () => this.applyCaughtUp(record, message),
      presence: () => {
        const seat = (record.seats || []).find((s) => s.seat === message.seat);
        if (seat) {
          seat.present = message.present;
          seat.away_since = message.present ? null : Date.now();
          // until the server counts it (the next state), a claim is possible one grace from now
          seat.claim_at = message.present || !record.claim_grace ? null : Date.now() + record.claim_grace * 1000;
          seat.claim_told = false;
        }
      },
      draw: () => { record.draw_offers = message.offered; },
      rematch: () => { record.agreed = message.agreed; record.rematch_id = message.new_match_id ?? null; },
    }[message.type];
    if (!apply) return;
    apply();
    if (this.screen) this.screen.onMatch(message.match_id, message);
  }

  record(matchId) {
    if (!this.matches.has(matchId)) this.matches.set(matchId, { match_id: matchId, log: [], agreed: [] });
    return this.matches.get(matchId);
  }

  applyState(record, state) {
    const { type, ...fields } = state;
    // how long a seat has been away is this page's own count: a fresh state keeps it
    const awaySince = new Map((record.seats || []).filter((s) => s.away_since).map((s) => [s.seat, s.away_since]));
    const now = Date.now();
    for (const seat of fields.seats || []) {
      if (!seat.present) seat.away_since = awaySince.get(seat.seat) ?? now - (seat.away_for || 0) * 1000;
      // the server's count: when a claim over this away seat becomes possible
      seat.claim_at = seat.claim_in === undefined ? null : now + seat.claim_in * 1000;
      seat.claim_told = seat.claim_in !== undefined;
    }
    if (record.version !== undefined && state.version < record.version) record.log = [];
    Object.assign(record, fields, { rematch_id: state.rematch_id ?? null, outcome: state.outcome ?? null,
      outcome_said: state.outcome_said ?? null });
    record.log = record.log.filter((entry) => entry.version <= state.version);
    record.clock = readClock(state.clock, record.outcome);
    if (record.last && record.last.version > state.version) record.last = null;
  }

  /** The actions missed while away, in the server's words (replayed for our seat: `said`,
   * which a very long match leaves empty: the log then writes the action); the last one is
   * still marked on the board (from its events, or its action when the server sent none). */
  applyCaughtUp(record, caught) {
    const known = new Set(record.log.map((e) => e.version));
    const entries = caught.actions.filter((a) => !known.has(a.seq))
      .map((a) => logEntry(a.seq, a));
    record.log.push(...entries);
    if (entries.length) record.last = { ...entries[entries.length - 1], at: Date.now() };
  }

  applyUpdate(record, update) {
    if (record.version !== undefined && update.version <= record.version) return;
    const entry = logEntry(update.version, update);
    record.log.push(entry);
    record.last = { ...entry, at: Date.now() };
    Object.assign(record, {
      version: update.version, to_act: update.to_act, status: update.status,
      view: update.view, outcome: update.outcome ?? null, outcome_said: update.outcome_said ?? null,
      draw_offers: [], // a move answers every draw offer
    });
    if (update.clock) record.clock = readClock(update.clock, record.outcome);
  }

  /** Say `text` to screen readers (the polite live region outside the redrawn screen). */
  announce(text) {
    if (!this.announcer || !text) return;
    this.announcer.textContent = text;
  }

  // --- routes --------------------------------------------------------------------------

  route() {
    const [, kind, id, code] = location.hash.match(/^#\/(play|watch|replay|join|players)\/(\d+)(?:\/([\w-]+))?$/)
      || location.hash.match(/^#\/(leaderboards|rules)(?:\/([\w-]+))?$/) || location.hash.match(/^#\/(account)$/) || [];
    if (this.screen) this.screen.leave();
    this.ratings.clear();
    const Screen = { play: MatchScreen, watch: MatchScreen, replay: ReplayScreen, join: InviteScreen,
      account: AccountScreen, players: ProfileScreen, leaderboards: LeaderboardScreen, rules: RulesScreen }[kind]
      || LobbyScreen;
    if (code) this.keepInvite(Number(id), code);
    this.screen = new Screen(this, this.main, kind, ["leaderboards", "rules"].includes(kind) ? id : Number(id));
    this.screen.enter().catch((error) => this.screen.fail(error));
    document.title = this.screen.title ? `${this.screen.title} — Tavolo` : "Tavolo";
  }
}

/** This browser as the device list names it ("Chrome on Linux"): the token a password or a
 * recovery code gives is one device of the player's. */
function deviceLabel() {
  const ua = navigator.userAgent;
  const browsers = [[/Edg\//, "Edge"], [/OPR\//, "Opera"], [/Firefox\//, "Firefox"], [/Chrom(e|ium)\//, "Chrome"], [/Safari\//, "Safari"]];
  const systems = [[/Android/, "Android"], [/iPhone|iPad/, "iOS"], [/Windows/, "Windows"], [/Mac OS X/, "macOS"], [/CrOS/, "ChromeOS"], [/Linux/, "Linux"]];
  const browser = (browsers.find(([pattern]) => pattern.test(ua)) || [null, "A browser"])[1];
  const system = (systems.find(([pattern]) => pattern.test(ua)) || [null, null])[1];
  return system ? `${browser} on ${system}` : browser;
}

/** A clock reading of the server (`clock {control, words, at, running, remaining}`), with when
 * this page got it: the page counts down from then (null: the match has no clock). A match
 * ended by a time-out shows the late seat's time as 0. */
function readClock(clock, outcome) {
  if (!clock) return null;
  const reading = { ...clock, remaining: { ...clock.remaining }, received: Date.now() };
  // the server stops the clocks where they were at the last reading: the seat out of time has none
  const late = outcome?.reason === "time_out" ? outcome.detail?.seat : undefined;
  if (late !== undefined) reading.remaining[String(late)] = 0;
  return reading;
}

/** One move of a match's log, from an update or a caught-up action (which names its version `seq`). */
function logEntry(version, moved) {
  return { version, seat: moved.seat, action: moved.action, events: moved.events || [], said: moved.said || [] };
}

const app = new App(document.body);
window.tavolo = app;
app.start().catch((error) => {
  document.querySelector("main").replaceChildren(h("p", { class: "error", role: "alert" },
    `Tavolo could not start: ${error.message || error}`));
});
