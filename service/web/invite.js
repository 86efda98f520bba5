// An invitation to a private match (#/join/ID/CODE): the page joins it with its code as soon as
// you have a nickname (the code is kept, so the match page can watch or share it later). When
// the match has no free seat for you, it offers to watch instead.

import { h, replaceKeepingFocus, Screen } from "./ui.js";
import { identitySection } from "./identity.js";

export class InviteScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.title = `Invitation to match ${this.id}`;
    this.trying = false;
  }

  async enter() {
    this.render();
    await this.reattach();
  }

  /** Called again after every (re)connection: join once we know who we are. */
  async reattach() {
    if (this.app.player && this.app.conn.status === "open" && !this.error) await this.join();
  }

  async join() {
    if (this.trying || this.left) return;
    this.trying = true;
    this.error = null;
    try {
      const command = { type: "join", match_id: this.id, invite: this.app.invite(this.id) };
      await this.app.conn.request(command);
      location.hash = `#/play/${this.id}`;
    } catch (error) {
      this.fail(error);
    } finally {
      this.trying = false;
    }
  }

  render() {
    if (this.left) return;
    const signedIn = Boolean(this.app.player);
    replaceKeepingFocus(this.root,
      h("p", {}, h("a", { href: "#/" }, "← Lobby")),
      h("h1", {}, `Invitation to match #${this.id}`),
      identitySection(this, () => this.join()),
      this.error ? this.errorLine() : h("p", { role: "status" }, signedIn ? "Joining…" : "Choose a nickname to join."),
      this.error ? h("div", { class: "row" },
        h("button", { type: "button", id: "invite-join", "data-key": "invite-join", disabled: !signedIn,
          onclick: () => this.join() }, "Try to join again"),
        h("a", { href: `#/watch/${this.id}`, id: "invite-watch", class: "button" }, "Watch instead")) : null);
  }
}
