// A game's rules (#/rules/GAME): the Markdown page the server serves at /rules/GAME, drawn by
// the page's own small renderer (markdown.js: text only, nothing in the page can run).

import { errorText, h, replaceKeepingFocus, Screen } from "./ui.js";
import { markdown } from "./markdown.js";

export class RulesScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.game = this.id;
    this.title = `Rules of ${this.app.game(this.game)?.title || this.game}`;
    this.text = null;
  }

  async enter() {
    this.render();
    const answer = await fetch(`/rules/${encodeURIComponent(this.game)}`);
    if (!answer.ok) throw new Error(`The rules could not be read (${answer.status}): ${await answer.text()}`);
    this.text = await answer.text();
    this.render();
    this.root.querySelector("#rules-heading")?.focus();
  }

  render() {
    if (this.left) return;
    const game = this.app.game(this.game);
    const body = this.error ? h("p", { class: "error", role: "alert" }, errorText(this.error))
      : this.text === null ? h("p", { role: "status" }, "Loading the rules…")
        : h("article", { id: "rules", class: "rules" }, markdown(this.text));
    replaceKeepingFocus(this.root,
      h("nav", {}, h("a", { href: "#/" }, "← Lobby"), " ",
        h("a", { href: "#", id: "rules-back", onclick: (e) => { e.preventDefault(); history.back(); } }, "Back")),
      h("h1", { id: "rules-heading", tabindex: "-1", "data-key": "rules-heading" }, this.title),
      game?.goal ? h("p", { class: "goal", id: "rules-goal" }, h("strong", {}, "Goal: "), game.goal) : null,
      body);
  }
}

/** The link to a game's rules screen, as the lobby and the match page show it. */
export function rulesLink(game, words = "Rules") {
  return h("a", { href: `#/rules/${game}`, class: "rules-link", dataset: { rules: game } }, words);
}
