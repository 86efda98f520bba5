// The lobby: who you are, new matches, open matches (live), yours to resume, live and past ones.

import { getJson } from "./net.js";
import { botName, defaultLevel, errorText, h, levelWords, replaceKeepingFocus, Screen } from "./ui.js";
import { optionsForm, optionsSummary } from "./options.js";
import { identityKey, identitySection } from "./identity.js";
import { playerLink, ratingSlot } from "./ratings.js";
import { clockField } from "./clock.js";
import { rulesLink } from "./rules.js";

export class LobbyScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.title = "Lobby";
    this.active = [];
    this.finished = [];
    this.chosen = null;
    this.form = null;
    this.refreshing = null;
  }

  async enter() {
    this.render();
    if (this.app.player && this.app.conn.status === "open") {
      await this.app.identify(); // your unfinished matches, fresh
      this.render();
    }
    await this.reattach();
  }

  async reattach() {
    if (this.app.conn.status === "open") {
      const answer = await this.app.conn.request({ type: "lobby", subscribe: true });
      this.app.openMatches = answer.result.matches;
    }
    await this.refreshLists();
  }

  leave() {
    super.leave();
    if (this.app.conn.status === "open") this.app.conn.request({ type: "lobby", subscribe: false }).catch(() => {});
  }

  onLobby() {
    this.render();
    clearTimeout(this.refreshing);
    this.refreshing = setTimeout(() => this.refreshLists().catch((e) => this.fail(e)), 200);
  }

  async refreshLists() {
    [this.active, this.finished] = await Promise.all([
      getJson("/api/matches?status=active&limit=30", this.app.readHeaders(null, true)),
      getJson("/api/matches?status=finished&limit=30", this.app.readHeaders(null, true)),
    ]);
    this.render();
  }

  async run(command) {
    this.error = null;
    try {
      const answer = await this.app.conn.request(command);
      if (answer.result.invite) this.app.keepInvite(answer.result.match_id, answer.result.invite);
      location.hash = `#/play/${answer.result.match_id}`;
    } catch (error) {
      this.fail(error);
    }
  }

  /** The forms are drawn again only when what they show changes (who you are, the game
   * chosen): a live update of the lists never disturbs someone typing. */
  render() {
    if (this.left) return;
    if (!this.parts || !this.root.contains(this.parts.lists)) {
      this.parts = { identity: h("div"), error: h("div"), form: h("div"), lists: h("div") };
      this.root.replaceChildren(h("h1", {}, "Tavolo"), this.parts.identity, this.parts.error,
        this.parts.form, this.parts.lists);
      this.drawn = {};
    }
    const who = this.app.player ? `${this.app.player.nickname}/${this.app.player.protected}` : "";
    const identity = identityKey(this);
    if (this.drawn.identity !== identity) replaceKeepingFocus(this.parts.identity, this.identity());
    if (this.drawn.who !== who || this.drawn.game !== this.chosen) replaceKeepingFocus(this.parts.form, this.newMatch());
    this.drawn = { who, identity, game: this.chosen };
    replaceKeepingFocus(this.parts.error, this.error ? this.errorLine() : this.identityProblem());
    this.wantRatings();
    replaceKeepingFocus(this.parts.lists, this.yourTurn(), this.openList(), this.mine(), this.liveList(), this.pastList(),
      this.gameList());
  }

  /** Why the saved token did not sign this browser in (signed out or revoked elsewhere). */
  identityProblem() {
    const problem = this.app.identityError;
    if (!problem || this.app.player) return null;
    return h("p", { class: "error", id: "identity-error", role: "alert" }, errorText(problem));
  }

  identity() {
    return identitySection(this, () => this.refreshLists());
  }

  newMatch() {
    const games = this.app.games;
    if (!this.chosen) this.chosen = games[0].name;
    const game = this.app.game(this.chosen);
    const select = h("select", { id: "new-game", "data-key": "new-game",
      onchange: (e) => { this.chosen = e.target.value; this.render(); } },
    games.map((g) => h("option", { value: g.name, selected: g.name === this.chosen }, g.title)));
    const levels = this.app.botLevels;
    if (!this.form || this.form.game !== game.name) {
      this.form = optionsForm(game, levels);
      this.clock = game.clocks ? clockField() : null; // real-time games keep their own rule
    }
    const disabled = !this.app.player;
    const command = (type) => ({ type, game: game.name, options: this.form.read(), seats: this.form.seats() });
    // the clock chosen goes with every way in: quick join pairs only with a match of the same clock
    const timed = () => {
      const clock = this.clock ? this.clock.read() : null;
      return clock ? { clock } : {};
    };
    const create = () => {
      const bots = this.form.bots();
      return { ...command("create"), ...(bots.length ? { bots } : {}), ...(this.form.private() ? { private: true } : {}),
        ...timed() };
    };
    const level = h("select", { id: "computer-level", "data-key": "computer-level", "aria-label": "computer level" },
      levels.map((l) => h("option", { value: l, selected: l === defaultLevel(levels) }, levelWords(l))));
    const computer = () => this.run({ ...command("quick_join"), bots: level.value, ...timed() });
    return h("section", { class: "new-match", "aria-labelledby": "new-title" },
      h("h2", { id: "new-title" }, "New match"),
      h("div", { class: "row" }, h("label", { for: "new-game" }, "Game "), select, " ", rulesLink(game.name, `Rules of ${game.title}`)),
      game.goal ? h("p", { class: "goal hint", id: "new-goal" }, game.goal) : null,
      this.form.element,
      this.clock ? this.clock.element : null,
      h("div", { class: "row" },
        h("button", { type: "button", id: "create", "data-key": "create", disabled,
          onclick: () => this.run(create()) }, "Create match"),
        h("button", { type: "button", id: "quick-join", "data-key": "quick-join", disabled,
          onclick: () => this.run({ ...command("quick_join"), ...timed() }) }, "Quick join"),
        levels.length ? [h("button", { type: "button", id: "play-computer", "data-key": "play-computer", disabled,
          onclick: computer }, "Play against the computer"), " ", level] : null,
        disabled ? h("span", { class: "hint" }, "Choose a nickname first.") : null));
  }

  /** Every game, with a link to its rules. */
  gameList() {
    return h("section", { "aria-labelledby": "games-title", class: "game-list" },
      h("h2", { id: "games-title" }, "Games"),
      h("ul", { id: "games", class: "matches" }, this.app.games.map((g) => h("li", { dataset: { game: g.name } },
        h("strong", {}, g.title), g.goal ? ` — ${g.goal} ` : " ", rulesLink(g.name, `Rules of ${g.title}`)))));
  }

  openList() {
    const me = this.app.player;
    const rows = this.app.openMatches.map((m) => {
      const mine = me && m.seats.some((s) => s.nickname === me.nickname);
      const join = mine
        ? h("a", { href: `#/play/${m.match_id}`, class: "button" }, "Open")
        : h("button", { type: "button", "data-key": `join-${m.match_id}`, disabled: !me,
          onclick: () => this.run({ type: "join", match_id: m.match_id }) }, "Join");
      return h("li", { class: "match", dataset: { match: m.match_id, game: m.game } },
        h("span", { class: "what" }, `#${m.match_id} ${m.title}`),
        h("span", { class: "options" }, optionsSummary(m.options)),
        m.clock ? h("span", { class: "match-clock", title: "clock" }, ` · clock ${m.clock}`) : null,
        h("span", { class: "seats" }, m.seats.map((s, i) => [i ? " vs " : "", this.seatShown(m.game, s)])),
        join, " ", h("a", { href: `#/watch/${m.match_id}` }, "Watch"));
    });
    return h("section", { "aria-labelledby": "open-title" },
      h("h2", { id: "open-title" }, "Open matches"),
      rows.length ? h("ul", { id: "open-matches", class: "matches" }, rows)
        : h("p", { id: "open-matches", class: "hint" }, "No match is waiting for players. Create one!"));
  }

  /** A seat of an open match: the bot, the free seat, or the player (linked to their profile
   * and rated, when the server says who they are). */
  seatShown(game, s) {
    if (s.bot) return botName(s.bot);
    if (!s.nickname) return "·free·";
    const id = s.player_id ?? (this.app.player && s.nickname === this.app.player.nickname ? this.app.player.id : null);
    return [playerLink(s.nickname, id), ratingSlot(this.app.ratings, game, id)];
  }

  /** Ask for the ratings of the players of the lists shown (filled in place when they come). */
  wantRatings() {
    const byGame = new Map();
    for (const m of this.app.openMatches) {
      const ids = m.seats.filter((s) => !s.bot && s.nickname).map((s) => s.player_id
        ?? (this.app.player && s.nickname === this.app.player.nickname ? this.app.player.id : null));
      byGame.set(m.game, [...(byGame.get(m.game) || []), ...ids]);
    }
    for (const m of [...this.active, ...this.finished].filter((x) => !x.private)) {
      byGame.set(m.game, [...(byGame.get(m.game) || []), ...(m.player_ids || [])]);
    }
    for (const [game, ids] of byGame) {
      this.app.ratings.want(game, ids);
    }
  }

  /** A move in one of our matches (this connection still follows the matches we played
   * here): the "your turn" list follows it without asking the server again. */
  onMatch(matchId, message) {
    const m = this.app.unfinished.find((x) => x.match_id === matchId);
    if (!m || message.to_act === undefined) return;
    Object.assign(m, { to_act: message.to_act, status: message.status, version: message.version });
    m.your_turn = m.status === "active" && m.to_act.includes(m.seat);
    this.render();
  }

  /** The signed-in player's matches waiting for their move (welcome's `your_turn`). */
  yourTurn() {
    if (!this.app.player) return null;
    const waiting = this.app.unfinished.filter((m) => m.your_turn);
    const rows = waiting.map((m) => h("li", { class: "match your-turn", dataset: { match: m.match_id } },
      h("a", { href: `#/play/${m.match_id}` }, `Play #${m.match_id} ${this.app.game(m.game)?.title || m.game}`),
      ` — move ${m.version + 1}`));
    return h("section", { "aria-labelledby": "your-turn-title", class: "your-turn-list" },
      h("h2", { id: "your-turn-title" }, `Your turn${rows.length ? ` (${rows.length})` : ""}`),
      rows.length ? h("ul", { id: "your-turn", class: "matches" }, rows)
        : h("p", { id: "your-turn-none", class: "hint" }, "No match is waiting for your move."));
  }

  mine() {
    if (!this.app.player) return null;
    const rows = this.app.unfinished.map((m) => h("li", { class: "match", dataset: { match: m.match_id } },
      h("a", { href: `#/play/${m.match_id}` }, `Resume #${m.match_id} ${this.app.game(m.game)?.title || m.game}`),
      ` — ${m.status}, version ${m.version}`, m.your_turn ? h("strong", {}, " · your turn") : null));
    return h("section", { "aria-labelledby": "mine-title" },
      h("h2", { id: "mine-title" }, "Your unfinished matches"),
      rows.length ? h("ul", { id: "my-matches", class: "matches" }, rows) : h("p", { class: "hint" }, "None."));
  }

  listOf(id, title, matches, verb, route) {
    const rows = matches.filter((m) => !m.private).map((m) => h("li", { class: "match", dataset: { match: m.id } },
      h("a", { href: `#/${route}/${m.id}` }, `${verb} #${m.id} ${this.app.game(m.game)?.title || m.game}`),
      " — ", m.players.map((name, i) => {
        const bot = (m.bots || [])[i];
        if (bot) return [i ? " vs " : "", h("span", { class: "bot", dataset: { bot } }, botName(bot))];
        const id = (m.player_ids || [])[i];
        return [i ? " vs " : "", playerLink(name, id), ratingSlot(this.app.ratings, m.game, id)];
      }),
      `, ${m.version} moves`));
    return h("section", { "aria-labelledby": `${id}-title` },
      h("h2", { id: `${id}-title` }, title),
      rows.length ? h("ul", { id, class: "matches" }, rows) : h("p", { class: "hint" }, "None."));
  }

  liveList() {
    return this.listOf("live-matches", "Being played now", this.active, "Watch", "watch");
  }

  pastList() {
    return this.listOf("past-matches", "Finished matches", this.finished, "Replay", "replay");
  }
}
