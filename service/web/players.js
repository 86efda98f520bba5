// A player's profile (#/players/ID: GET /api/players/ID) and a game's leaderboard
// (#/leaderboards/GAME: GET /api/leaderboards/GAME), both paged. A profile lists finished
// public matches only (the server never lists a live or a private one).

import { getJson } from "./net.js";
import { botName, errorText, h, replaceKeepingFocus, Screen, when } from "./ui.js";
import { playerLink, ratingBadge } from "./ratings.js";

const HISTORY_PAGE = 20;
const BOARD_PAGE = 50;

/** Newer/older buttons over a paged list ({total, offset, limit}); `go(offset)` shows a page. */
function pager(id, page, go) {
  const { total, offset, limit } = page;
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return h("div", { class: "row pager", id },
    h("button", { type: "button", "data-key": `${id}-prev`, class: "prev", disabled: offset === 0,
      onclick: () => go(Math.max(0, offset - limit)) }, "← Previous"),
    h("span", { class: "page-at", role: "status" }, `${total ? offset + 1 : 0}–${last} of ${total}`),
    h("button", { type: "button", "data-key": `${id}-next`, class: "next", disabled: last >= total,
      onclick: () => go(offset + limit) }, "Next →"));
}

/** The rating in words for a table cell: "1523", "1523 (provisional)", or "—". */
function ratingCell(rating) {
  if (!rating) return h("span", { class: "hint" }, "—");
  return [ratingBadge(rating), rating.provisional ? h("span", { class: "hint" }, " provisional") : null];
}

function signed(change) {
  const rounded = Math.round(change);
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : "±0";
}

export class ProfileScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.title = `Player ${this.id}`;
    this.profile = null;
    this.offset = 0;
  }

  async enter() {
    this.render();
    await this.load(0);
  }

  async load(offset) {
    this.error = null;
    try {
      this.profile = await getJson(`/api/players/${this.id}?offset=${offset}&limit=${HISTORY_PAGE}`);
      this.offset = offset;
      document.title = `${this.profile.nickname} — Tavolo`;
    } catch (error) {
      this.error = error;
    }
    this.render();
  }

  render() {
    if (this.left) return;
    const p = this.profile;
    const nav = h("nav", {}, h("a", { href: "#/" }, "← Lobby"), " ", h("a", { href: "#/leaderboards" }, "Leaderboards"));
    if (!p) {
      replaceKeepingFocus(this.root, nav, this.error ? this.errorLine()
        : h("p", { role: "status" }, `Loading player ${this.id}…`));
      return;
    }
    const you = this.app.player && this.app.player.id === p.id;
    replaceKeepingFocus(this.root, nav,
      h("h1", { id: "profile-name" }, p.bot ? `${p.nickname} (a computer player)` : p.nickname),
      h("p", { id: "member-since" }, `Member since ${when(p.member_since)}`,
        you ? [" · ", h("a", { href: "#/account", id: "profile-account" }, "your account")] : null),
      this.error ? this.errorLine() : null,
      this.gameTable(p.games),
      this.history(p.history));
  }

  gameTable(games) {
    if (!games.length) return h("p", { id: "profile-games", class: "hint" }, "No finished match yet.");
    return h("table", { id: "profile-games", class: "table" },
      h("caption", {}, "Games"),
      h("thead", {}, h("tr", {}, ["Game", "Played", "Won", "Lost", "Drawn", "Rating"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, games.map((g) => h("tr", { dataset: { game: g.game } },
        h("th", { scope: "row" }, h("a", { href: `#/leaderboards/${g.game}` }, this.app.game(g.game)?.title || g.game)),
        h("td", {}, g.played), h("td", {}, g.wins), h("td", {}, g.losses), h("td", {}, g.draws),
        h("td", { class: "rating-cell" }, ratingCell(g.rating))))));
  }

  history(page) {
    const rows = page.matches.map((m) => h("li", { class: `match outcome-${m.outcome}`, dataset: { match: m.match_id } },
      h("span", { class: "what" }, `#${m.match_id} ${this.app.game(m.game)?.title || m.game}`),
      h("span", { class: "result" }, { win: "Won", loss: "Lost", draw: "Drawn" }[m.outcome] || "Aborted",
        m.reason ? ` (${m.reason.replaceAll("_", " ")})` : ""),
      h("span", { class: "opponents" }, "against ", m.opponents.some((o) => o.nickname) ? m.opponents.filter((o) => o.nickname)
        .map((o, i) => [i ? ", " : "", o.bot ? botName(o.bot) : playerLink(o.nickname, o.player_id)]) : "nobody"),
      h("span", { class: "rated" }, m.rated ? `rated ${m.rating_change === null || m.rating_change === undefined ? "" : signed(m.rating_change)}` : "unrated"),
      h("span", { class: "hint" }, when(m.ended_at)),
      h("a", { href: `#/replay/${m.match_id}`, class: "replay-link" }, "Replay")));
    return h("section", { id: "history", "aria-labelledby": "history-title" },
      h("h2", { id: "history-title" }, "Matches"),
      rows.length ? h("ul", { id: "history-list", class: "matches" }, rows)
        : h("p", { id: "history-list", class: "hint" }, "No finished public match yet."),
      pager("history-pages", page, (offset) => this.load(offset).catch((e) => this.fail(e))));
  }
}

export class LeaderboardScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.board = null;
    this.provisional = false;
  }

  get game() {
    return this.id || this.app.games[0]?.name;
  }

  async enter() {
    this.title = `Leaderboard: ${this.app.game(this.game)?.title || this.game}`;
    this.render();
    await this.load(0);
  }

  async load(offset) {
    this.error = null;
    const provisional = this.provisional ? "&provisional=1" : "";
    try {
      this.board = await getJson(`/api/leaderboards/${encodeURIComponent(this.game)}?offset=${offset}&limit=${BOARD_PAGE}${provisional}`);
    } catch (error) {
      this.board = null;
      this.error = error;
    }
    this.render();
  }

  render() {
    if (this.left) return;
    const picker = h("select", { id: "leaderboard-game", "data-key": "leaderboard-game", "aria-label": "game",
      onchange: (e) => { location.hash = `#/leaderboards/${e.target.value}`; } },
    this.app.games.map((g) => h("option", { value: g.name, selected: g.name === this.game }, g.title)));
    const toggle = h("input", { type: "checkbox", id: "leaderboard-provisional", "data-key": "leaderboard-provisional",
      checked: this.provisional, onchange: (e) => { this.provisional = e.target.checked; this.load(0); } });
    replaceKeepingFocus(this.root,
      h("nav", {}, h("a", { href: "#/" }, "← Lobby")),
      h("h1", {}, "Leaderboard"),
      h("div", { class: "row" }, h("label", { for: "leaderboard-game" }, "Game "), picker,
        toggle, h("label", { for: "leaderboard-provisional" }, "with provisional ratings")),
      this.error ? this.errorLine() : null,
      this.board ? this.table(this.board) : (this.error ? null : h("p", { role: "status" }, "Loading…")));
  }

  table(board) {
    if (!board.players.length) {
      return h("p", { id: "leaderboard", class: "hint" }, this.provisional ? "Nobody has played a rated match of this game yet."
        : "Nobody has an established rating in this game yet (tick \u201cwith provisional ratings\u201d to see everyone).");
    }
    return [h("table", { id: "leaderboard", class: "table" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Won", "Lost", "Drawn"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, board.players.map((p) => h("tr", { dataset: { player: p.player_id } },
        h("td", {}, p.rank), h("th", { scope: "row" }, playerLink(p.nickname, p.player_id)),
        h("td", { class: "rating-cell" }, ratingCell({ value: p.rating, provisional: p.provisional })),
        h("td", {}, p.games), h("td", {}, p.wins), h("td", {}, p.losses), h("td", {}, p.draws))))),
    pager("leaderboard-pages", board, (offset) => this.load(offset))];
  }
}
