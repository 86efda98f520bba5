// Ratings next to names (GET /api/ratings?game=&players=): asked for in one request per list
// drawn, and kept a minute or until the next screen; a player without a rating shows nothing.
// A name's rating sits in a slot filled in place when the answer comes: the page is not drawn
// again for it, so nothing a player is about to click is replaced under the pointer.

import { getJson } from "./net.js";
import { h } from "./ui.js";

const FRESH_MS = 60_000;

export class Ratings {
  constructor() {
    this.known = new Map(); // "game:id" -> {rating: {value, provisional} | null, at}
  }

  /** Forget every rating known (a new screen reads them afresh: a match may have ended since). */
  clear() {
    this.known.clear();
  }

  /** The rating of player `id` in `game` as known now ({value, provisional}), or null. */
  of(game, id) {
    return this.known.get(`${game}:${id}`)?.rating ?? null;
  }

  /** Ask for the ratings of `ids` in `game` not known lately, and fill their slots on the page
   * when they come; true when some were asked for. A failed read shows no ratings, and is not
   * asked again before the minute is out. */
  async want(game, ids) {
    const now = Date.now();
    const missing = [...new Set(ids.filter((id) => id !== null && id !== undefined))]
      .filter((id) => !(now - (this.known.get(`${game}:${id}`)?.at ?? -Infinity) < FRESH_MS));
    if (!missing.length) return false;
    for (const id of missing) this.known.set(`${game}:${id}`, { rating: this.of(game, id), at: now });
    let answer = { ratings: {} };
    try {
      answer = await getJson(`/api/ratings?game=${encodeURIComponent(game)}&players=${missing.join(",")}`);
    } catch {
      return false;
    }
    for (const id of missing) this.known.set(`${game}:${id}`, { rating: answer.ratings[String(id)] ?? null, at: now });
    for (const slot of document.querySelectorAll(`.rating-slot[data-game="${CSS.escape(game)}"]`)) {
      const id = Number(slot.dataset.player);
      if (missing.includes(id)) fillSlot(slot, this.of(game, id));
    }
    return true;
  }
}

/** A rating as shown beside a name: "1523", or "1523?" while provisional (few rated games). */
export function ratingBadge(rating, id = null) {
  if (!rating) return null;
  const value = Math.round(rating.value);
  return h("span", { class: `rating ${rating.provisional ? "provisional" : ""}`, ...(id ? { id } : {}),
    title: rating.provisional ? "rating (provisional: few rated matches yet)" : "rating" },
  `${value}${rating.provisional ? "?" : ""}`);
}

/** Where the rating of player `id` in `game` shows beside their name (null: no player): " 1523"
 * when known now, else empty until `Ratings.want` brings it. */
export function ratingSlot(ratings, game, id) {
  if (id === null || id === undefined) return null;
  const slot = h("span", { class: "rating-slot", dataset: { game, player: id } });
  fillSlot(slot, ratings.of(game, id));
  return slot;
}

function fillSlot(slot, rating) {
  const badge = ratingBadge(rating);
  slot.replaceChildren(...(badge ? [" ", badge] : []));
}

/** A player's name, linked to their profile when their id is known. */
export function playerLink(name, playerId) {
  if (playerId === null || playerId === undefined) return name;
  return h("a", { href: `#/players/${playerId}`, class: "player-link", dataset: { player: playerId } }, name);
}
