// Your account (#/account): protect the nickname with a password (set_password), get a
// recovery code (recovery_code: shown once), and the devices that hold a token of yours
// (devices, revoke_device). Everything goes over the page's connection, as this browser's player.

import { errorText, h, replaceKeepingFocus, Screen, when } from "./ui.js";

export class AccountScreen extends Screen {
  constructor(...args) {
    super(...args);
    this.title = "Your account";
    this.devices = null;
    this.code = null; // the recovery code just given: shown on this page only, once
    this.notice = null;
    this.revoking = null; // the device waiting for its confirmation
    this.fields = null;
  }

  async enter() {
    this.render();
    await this.reattach();
  }

  /** After every (re)connection: the device list, once we know who we are. */
  async reattach() {
    if (!this.app.player || this.app.conn.status !== "open" || this.left) return;
    await this.loadDevices();
  }

  async loadDevices() {
    try {
      this.devices = (await this.app.conn.request({ type: "devices" })).result.devices;
    } catch (error) {
      this.fail(error);
      return;
    }
    this.render();
  }

  /** A command of this page: its answer, or its error shown in words (then null). */
  async send(command) {
    this.error = null;
    this.notice = null;
    try {
      return (await this.app.conn.request(command)).result;
    } catch (error) {
      this.fail(error);
      return null;
    }
  }

  /** Each part is drawn again only when what it shows changes: a device list that comes in
   * never replaces the button being clicked or the field being typed in. */
  render() {
    if (this.left) return;
    const player = this.app.player;
    const who = player ? `${player.id}/${player.nickname}/${player.password}` : this.app.signingIn ? "signing in" : "";
    if (!this.parts || this.drawn.who !== who || !this.root.contains(this.parts.status)) {
      this.parts = { status: h("div"), password: h("div"), recovery: h("div"), devices: h("div") };
      replaceKeepingFocus(this.root,
        h("nav", {}, h("a", { href: "#/" }, "← Lobby"), player ? [" ", h("a", { href: `#/players/${player.id}` }, "Your profile")] : null),
        h("h1", {}, player ? `Your account: ${player.nickname}` : "Your account"),
        this.parts.status, player ? [this.parts.password, this.parts.recovery, this.parts.devices] : this.nobody());
      this.drawn = { who };
    }
    replaceKeepingFocus(this.parts.status,
      h("p", { id: "account-error", class: "error", role: "alert" }, errorText(this.error)),
      this.notice ? h("p", { id: "account-notice", class: "notice", role: "status" }, this.notice) : null);
    if (!player) return;
    this.part("password", who, () => this.passwordSection(player));
    this.part("recovery", `${this.code}|${this.copied}`, () => this.recoverySection());
    this.part("devices", `${JSON.stringify(this.devices)}|${this.revoking}`, () => this.deviceSection());
  }

  part(name, key, build) {
    if (this.drawn[name] === key) return;
    replaceKeepingFocus(this.parts[name], build());
    this.drawn[name] = key;
  }

  nobody() {
    if (this.app.signingIn) return h("p", { role: "status" }, "Signing in…");
    return h("p", { id: "account-none" }, "You are not signed in: ", h("a", { href: "#/" }, "choose a nickname or sign in"), " first.");
  }

  /** The same inputs on every draw: what is typed survives a redraw. */
  inputs() {
    if (!this.fields) {
      const field = (id, autocomplete) => h("input", { id, name: id, "data-key": id, type: "password", maxlength: 128, autocomplete });
      this.fields = { old: field("old-password", "current-password"), fresh: field("new-password", "new-password"),
        again: field("new-password-again", "new-password") };
      this.fields.fresh.minLength = 8;
    }
    return this.fields;
  }

  passwordSection(player) {
    const f = this.inputs();
    const label = (input, words) => h("label", { for: input.id }, words);
    const submit = (event) => {
      event.preventDefault();
      this.setPassword(player);
    };
    return h("section", { id: "password", "aria-labelledby": "password-title" },
      h("h2", { id: "password-title" }, player.password ? "Change your password" : "Protect this nickname"),
      h("p", { id: "password-state", class: player.password ? "" : "warning" }, player.password
        ? "This nickname has a password: sign in with it on any device."
        : "This nickname is not protected: only this browser can reach it. If its storage is cleared or you sign out, "
          + "the nickname and its unfinished matches are lost. A password lets you sign in on any device."),
      h("form", { id: "password-form", class: "stack", onsubmit: submit },
        player.password ? h("div", { class: "row" }, label(f.old, "Current password "), f.old) : null,
        h("div", { class: "row" }, label(f.fresh, "New password (8 to 128 characters) "), f.fresh),
        h("div", { class: "row" }, label(f.again, "The new password again "), f.again),
        h("div", { class: "row" }, h("button", { type: "submit", id: "set-password", "data-key": "set-password" },
          player.password ? "Change the password" : "Set the password"))));
  }

  async setPassword(player) {
    const f = this.inputs();
    if (f.fresh.value !== f.again.value) {
      this.fail({ message: "The two new passwords are not the same: type them again." });
      return;
    }
    const command = { type: "set_password", password: f.fresh.value, ...(player.password ? { old_password: f.old.value } : {}) };
    if (!(await this.send(command))) return;
    for (const input of Object.values(f)) input.value = "";
    this.app.player = { ...player, password: true };
    this.notice = "Password set: sign in with it on any device (Sign in with a password).";
    this.render();
  }

  recoverySection() {
    const get = async () => {
      const answer = await this.send({ type: "recovery_code" });
      this.code = answer ? answer.code : this.code;
      this.copied = null;
      this.render();
    };
    return h("section", { id: "recovery", "aria-labelledby": "recovery-title" },
      h("h2", { id: "recovery-title" }, "Recovery code"),
      h("p", {}, "With a recovery code you can choose a new password when you forget yours (Use a recovery code). "
        + "A code works once; a new one replaces the one before."),
      this.code ? this.codeShown() : null,
      h("button", { type: "button", id: "get-recovery-code", "data-key": "get-recovery-code", onclick: get },
        this.code ? "Get another code (this one stops working)" : "Get a recovery code"));
  }

  /** The code, once: this page never asks the server for it again. */
  codeShown() {
    const field = h("input", { id: "recovery-code-shown", "data-key": "recovery-code-shown", readonly: true, value: this.code,
      size: Math.min(this.code.length + 2, 48), "aria-label": "your recovery code" });
    const copy = async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(this.code);
        this.copied = "Copied.";
      } catch {
        this.copied = "Select the code and copy it."; // no clipboard access (e.g. not https)
      }
      this.render();
    };
    return h("div", { class: "code-box" },
      h("p", { id: "recovery-once", class: "warning" }, h("strong", {}, "Store it now: it is shown once. "),
        "Keep it somewhere safe outside this browser (a password manager, paper)."),
      h("div", { class: "row" }, field,
        h("button", { type: "button", id: "copy-recovery-code", "data-key": "copy-recovery-code", onclick: copy }, "Copy"),
        this.copied ? h("span", { class: "hint", role: "status" }, this.copied) : null));
  }

  deviceSection() {
    const rows = (this.devices || []).map((d) => h("li", { class: "device", dataset: { device: d.id, current: d.current } },
      h("span", { class: "what" }, d.label || "a device"), d.current ? h("strong", { class: "this-device" }, " (this device)") : null,
      h("span", { class: "hint" }, ` — since ${when(d.created_at)}, last used ${when(d.last_used_at)}`),
      d.current ? null : this.revokeButton(d)));
    return h("section", { id: "devices", "aria-labelledby": "devices-title" },
      h("h2", { id: "devices-title" }, "Your devices"),
      h("p", {}, "Each browser signed in as you holds a token of its own. Revoke one you do not use any more: "
        + "that browser is signed out at once."),
      this.devices === null ? h("p", { role: "status" }, "Loading…")
        : h("ul", { id: "device-list", class: "matches" }, rows));
  }

  revokeButton(device) {
    if (this.revoking !== device.id) {
      return h("button", { type: "button", "data-key": `revoke-${device.id}`, class: "revoke",
        onclick: () => { this.revoking = device.id; this.render(); } }, "Revoke");
    }
    const revoke = async () => {
      this.revoking = null;
      if (await this.send({ type: "revoke_device", device_id: device.id })) {
        this.notice = `${device.label || "The device"} is signed out.`;
        await this.loadDevices();
      }
    };
    return h("span", { class: "confirm" }, `Sign ${device.label || "this device"} out?`, " ",
      h("button", { type: "button", class: "danger confirm-revoke", "data-key": `confirm-revoke-${device.id}`, onclick: revoke }, "Yes, revoke"),
      " ", h("button", { type: "button", "data-key": `cancel-revoke-${device.id}`, onclick: () => { this.revoking = null; this.render(); } }, "Cancel"));
  }
}
