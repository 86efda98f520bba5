// Draws by agreement on the match page (games whose `/api/games` entry says `draws: true`):
// "Offer draw" with a confirmation, and an offer of the other side with Accept and Decline.
// The seats offering now are the record's `draw_offers` (from `state`, the `draw` push; every
// `update` clears them: a move answers an offer).

import { h, playerName } from "./ui.js";

/** The draw part of the status bar for `screen` (a MatchScreen), or null. */
export function drawPanel(screen, r) {
  const seated = screen.playing && r.you !== null && r.you !== undefined;
  // a solo game has no other side to agree with
  if (!seated || r.status !== "active" || !screen.app.game(r.game)?.draws || screen.sides(r) < 2) return null;
  const offers = r.draw_offers || [];
  const theirs = offers.filter((seat) => seat !== r.you);
  if (offers.includes(r.you)) { // with more sides, some may have offered too: the others answer
    const too = theirs.length ? ` (${names(r, theirs).join(" and ")} too)` : "";
    return h("p", { id: "draw-offered", class: "draw", role: "status" },
      `You offered a draw${too}: waiting for the other side's answer.`);
  }
  if (theirs.length) return theirOffer(screen, r, theirs);
  if (screen.confirming === "draw") {
    return h("span", { class: "confirm", id: "confirm-draw-group", role: "group", "aria-label": "Offer a draw?" },
      h("span", {}, "Offer a draw? The match ends drawn if the other side accepts."), " ",
      h("button", { type: "button", id: "confirm-draw", "data-key": "confirm-draw",
        onclick: () => send(screen, "offer_draw") }, "Yes, offer a draw"), " ",
      h("button", { type: "button", id: "confirm-cancel", "data-key": "confirm-cancel",
        onclick: () => { screen.confirming = null; screen.render(); } }, "Cancel"));
  }
  return h("button", { type: "button", id: "offer-draw", "data-key": "offer-draw",
    onclick: () => { screen.confirming = "draw"; screen.render(); } }, "Offer draw");
}

/** "bob offers a draw" with Accept (our offer too: the match ends drawn) and Decline. */
function theirOffer(screen, r, seats) {
  const offering = names(r, seats);
  return h("div", { id: "draw-offer", class: "draw", role: "group", "aria-label": "draw offer" },
    h("span", { id: "draw-offer-text" }, `${offering.join(" and ")} ${offering.length > 1 ? "offer" : "offers"} a draw.`), " ",
    h("button", { type: "button", id: "accept-draw", "data-key": "accept-draw",
      onclick: () => send(screen, "offer_draw") }, "Accept"), " ",
    h("button", { type: "button", id: "decline-draw", "data-key": "decline-draw",
      onclick: () => send(screen, "decline_draw") }, "Decline"));
}

function names(r, seats) {
  return seats.map((seat) => {
    const s = (r.seats || []).find((x) => x.seat === seat);
    return s && s.nickname ? playerName(s) : `seat ${seat}`;
  });
}

async function send(screen, type) {
  screen.confirming = null;
  screen.error = null;
  try {
    await screen.app.conn.request({ type, match_id: screen.id });
  } catch (error) {
    screen.fail(error);
    return;
  }
  screen.render();
}
