// Who you are, on the lobby and the invitation page: your nickname with the account and
// sign-out buttons, or the forms to get one: a new nickname (a guest of this browser), the
// password of a protected nickname, or its recovery code with a new password.
//
// The state of these forms (which one, what is typed, a sign-out waiting for its answer) lives
// on the screen, so a live update of the lobby that draws them again loses nothing.

import { h } from "./ui.js";

/** What the identity block shows now: the screen draws it again only when this changes. */
export function identityKey(screen) {
  const p = screen.app.player;
  const who = p ? `${p.id}/${p.nickname}/${p.protected}/${p.password}` : "";
  return `${who}|${screen.signInMode || "guest"}|${screen.confirmSignOut ? "confirm" : ""}`;
}

/** Who you are: your nickname and Sign out; or the forms to sign in (then `then()`). A player
 * first seen on a client without tokens (protected: false) may claim the nickname for this
 * browser: from then on only this browser's token reaches it. */
export function identitySection(screen, then) {
  const attempt = async (how) => {
    screen.error = null;
    try {
      await how();
      await then();
    } catch (error) {
      screen.fail(error);
    }
  };
  return screen.app.player ? signedIn(screen, attempt) : signInForms(screen, attempt);
}

function signedIn(screen, attempt) {
  const app = screen.app;
  const player = app.player;
  const claim = player.protected === false
    ? h("button", { type: "button", id: "claim", "data-key": "claim",
      onclick: () => attempt(() => app.identify(player.nickname, true)) }, "Keep this nickname for this browser")
    : null;
  const signOut = () => attempt(async () => {
    screen.confirmSignOut = false;
    await app.signOut();
  });
  const ask = () => {
    if (player.password || !player.protected) return signOut(); // nothing is lost
    screen.confirmSignOut = true; // not protected: say what signing out loses first
    screen.render();
  };
  return h("section", { class: "identity", "aria-label": "you" },
    h("p", {}, "Playing as ", h("a", { href: `#/players/${player.id}`, id: "me" }, player.nickname), " "), claim,
    player.protected ? h("a", { href: "#/account", id: "account-link", class: "button" },
      player.password ? "Account" : "Account: protect this nickname") : null,
    screen.confirmSignOut ? signOutWarning(screen, signOut)
      : h("button", { type: "button", id: "sign-out", "data-key": "signout", onclick: ask }, "Sign out"));
}

/** Signing out of a nickname without a password loses it: say so, offer to protect it first. */
function signOutWarning(screen, signOut) {
  const cancel = () => {
    screen.confirmSignOut = false;
    screen.render();
  };
  return h("div", { class: "confirm", id: "sign-out-warning", role: "alertdialog", "aria-labelledby": "sign-out-words" },
    h("span", { id: "sign-out-words" }, "This nickname is not protected: signing out loses it and its unfinished "
      + "matches (nobody, you included, can come back to it). Protect it with a password first?"),
    h("a", { href: "#/account", id: "protect-first", class: "button", onclick: () => { screen.confirmSignOut = false; } },
      "Protect it first"),
    h("button", { type: "button", id: "sign-out-anyway", "data-key": "sign-out-anyway", class: "danger", onclick: signOut },
      "Sign out anyway"),
    h("button", { type: "button", id: "sign-out-cancel", "data-key": "sign-out-cancel", onclick: cancel }, "Cancel"));
}

/** The same input elements on every draw: what is typed survives a live update of the lobby. */
function inputs(screen) {
  if (!screen.signInInputs) {
    const field = (id, attrs) => h("input", { id, name: id, "data-key": id, required: true, ...attrs });
    screen.signInInputs = {
      nickname: field("nickname", { maxlength: 32, autocomplete: "nickname", placeholder: "your nickname" }),
      signInName: field("signin-nickname", { maxlength: 32, autocomplete: "username" }),
      password: field("signin-password", { type: "password", maxlength: 128, autocomplete: "current-password" }),
      code: field("recovery-code", { maxlength: 128, autocomplete: "off", spellcheck: "false" }),
      newPassword: field("recovery-password", { type: "password", minlength: 8, maxlength: 128, autocomplete: "new-password" }),
    };
  }
  return screen.signInInputs;
}

/** Sign in with `fields` ({nickname, password} or {nickname, recovery_code, password}); the
 * secrets typed are not kept in the page once they have served. */
async function signInWith(screen, fields) {
  await screen.app.signIn(fields);
  const typed = inputs(screen);
  for (const secret of [typed.password, typed.code, typed.newPassword]) secret.value = "";
}

function signInForms(screen, attempt) {
  const app = screen.app;
  const mode = screen.signInMode || "guest";
  const fields = inputs(screen);
  const switchTo = (next) => h("button", { type: "button", class: "link", id: `mode-${next}`, "data-key": `mode-${next}`,
    onclick: () => { screen.signInMode = next; screen.error = null; screen.render(); } },
  { guest: "Choose a new nickname", password: "Sign in with a password", recovery: "Use a recovery code" }[next]);
  const others = ["guest", "password", "recovery"].filter((m) => m !== mode).map(switchTo);
  const form = (id, submit, ...content) => h("form", { class: "identity", id, onsubmit: (event) => {
    event.preventDefault();
    attempt(submit);
  } }, content, h("span", { class: "other-ways" }, others));
  const label = (input, words) => h("label", { for: input.id }, words);
  if (mode === "password") {
    return form("signin-form", () => signInWith(screen, { nickname: fields.signInName.value.trim(), password: fields.password.value }),
      label(fields.signInName, "Nickname "), fields.signInName, label(fields.password, "Password "), fields.password,
      h("button", { type: "submit", id: "signin", "data-key": "signin" }, "Sign in"));
  }
  if (mode === "recovery") {
    return form("recovery-form", () => signInWith(screen, { nickname: fields.signInName.value.trim(),
      recovery_code: fields.code.value.trim(), password: fields.newPassword.value }),
    label(fields.signInName, "Nickname "), fields.signInName, label(fields.code, "Recovery code "), fields.code,
    label(fields.newPassword, "New password "), fields.newPassword,
    h("button", { type: "submit", id: "recover", "data-key": "recover" }, "Recover"));
  }
  return form("nickname-form", () => app.identify(fields.nickname.value.trim()),
    label(fields.nickname, "Choose a nickname to play "), fields.nickname,
    h("button", { type: "submit", "data-key": "enter" }, "Enter"));
}
