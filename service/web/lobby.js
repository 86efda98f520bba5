// The lobby: who you are, new matches, open matches (live), yours to resume, live and past ones.

import { getJson } from "./net.js";
import { h, replaceKeepingFocus, Screen } from "./ui.js";
import { optionsForm, optionsSummary } from "./options.js";

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
      getJson("/api/matches?status=active&limit=30"), getJson("/api/matches?status=finished&limit=30"),
    ]);
    this.render();
  }

  async run(command) {
    this.error = null;
    try {
      const answer = await this.app.conn.request(command);
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
    const who = this.app.player ? this.app.player.nickname : "";
    if (this.drawn.who !== who) replaceKeepingFocus(this.parts.identity, this.identity());
    if (this.drawn.who !== who || this.drawn.game !== this.chosen) replaceKeepingFocus(this.parts.form, this.newMatch());
    this.drawn = { who, game: this.chosen };
    replaceKeepingFocus(this.parts.error, this.error ? this.errorLine() : null);
    replaceKeepingFocus(this.parts.lists, this.openList(), this.mine(), this.liveList(), this.pastList());
  }

  identity() {
    const app = this.app;
    if (app.player) {
      return h("section", { class: "identity", "aria-label": "you" },
        h("p", {}, "Playing as ", h("strong", { id: "me" }, app.player.nickname), " "),
        h("button", { type: "button", "data-key": "signout", onclick: () => app.signOut() }, "Sign out"));
    }
    // the same element on every render: what is typed survives a live update of the lobby
    this.nickname = this.nickname || h("input", { id: "nickname", name: "nickname", required: true, maxlength: 32,
      autocomplete: "nickname", "data-key": "nickname", placeholder: "your nickname" });
    const input = this.nickname;
    const submit = async (event) => {
      event.preventDefault();
      this.error = null;
      try {
        await app.identify(input.value.trim());
        await this.refreshLists();
      } catch (error) {
        this.fail(error);
      }
    };
    return h("form", { class: "identity", onsubmit: submit },
      h("label", { for: "nickname" }, "Choose a nickname to play "), input,
      h("button", { type: "submit", "data-key": "enter" }, "Enter"));
  }

  newMatch() {
    const games = this.app.games;
    if (!this.chosen) this.chosen = games[0].name;
    const game = this.app.game(this.chosen);
    const select = h("select", { id: "new-game", "data-key": "new-game",
      onchange: (e) => { this.chosen = e.target.value; this.render(); } },
    games.map((g) => h("option", { value: g.name, selected: g.name === this.chosen }, g.title)));
    if (!this.form || this.form.game !== game.name) this.form = optionsForm(game);
    const disabled = !this.app.player;
    const command = (type) => ({ type, game: game.name, options: this.form.read(), seats: this.form.seats() });
    return h("section", { class: "new-match", "aria-labelledby": "new-title" },
      h("h2", { id: "new-title" }, "New match"),
      h("div", { class: "row" }, h("label", { for: "new-game" }, "Game "), select),
      this.form.element,
      h("div", { class: "row" },
        h("button", { type: "button", id: "create", "data-key": "create", disabled,
          onclick: () => this.run(command("create")) }, "Create match"),
        h("button", { type: "button", id: "quick-join", "data-key": "quick-join", disabled,
          onclick: () => this.run(command("quick_join")) }, "Quick join"),
        disabled ? h("span", { class: "hint" }, "Choose a nickname first.") : null));
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
        h("span", { class: "seats" }, m.seats.map((s) => s.nickname || "·free·").join(" vs ")),
        join, " ", h("a", { href: `#/watch/${m.match_id}` }, "Watch"));
    });
    return h("section", { "aria-labelledby": "open-title" },
      h("h2", { id: "open-title" }, "Open matches"),
      rows.length ? h("ul", { id: "open-matches", class: "matches" }, rows)
        : h("p", { id: "open-matches", class: "hint" }, "No match is waiting for players. Create one!"));
  }

  mine() {
    if (!this.app.player) return null;
    const rows = this.app.unfinished.map((m) => h("li", { class: "match", dataset: { match: m.match_id } },
      h("a", { href: `#/play/${m.match_id}` }, `Resume #${m.match_id} ${this.app.game(m.game)?.title || m.game}`),
      ` — ${m.status}, version ${m.version}`));
    return h("section", { "aria-labelledby": "mine-title" },
      h("h2", { id: "mine-title" }, "Your unfinished matches"),
      rows.length ? h("ul", { id: "my-matches", class: "matches" }, rows) : h("p", { class: "hint" }, "None."));
  }

  listOf(id, title, matches, verb, route) {
    const rows = matches.map((m) => h("li", { class: "match", dataset: { match: m.id } },
      h("a", { href: `#/${route}/${m.id}` }, `${verb} #${m.id} ${this.app.game(m.game)?.title || m.game}`),
      ` — ${m.players.join(" vs ")}, ${m.version} moves`));
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
