// The last move, marked on the board: which squares, islands, clouds, market lines, depots and
// slots it touched, derived from the events (or, after a catch-up, the action) of the last
// update. Marks are CSS classes on elements the board renderers already draw, put on after each
// render: `last-move` on what changed, `last-from` on where a piece came from; a piece that moved
// slides in from its old square (a short CSS animation, off under prefers-reduced-motion).

/** [{sel, role: "to"|"from", slide?: [dRow, dCol]}] for one game's last update. */
export function lastMoveMarks(game, last) {
  if (!last) return [];
  const find = MARKS[game];
  return find ? find(last.events || [], last.action || {}) : [];
}

const cell = (row, col) => `#board .cell[data-row="${row}"][data-col="${col}"]`;

const MARKS = {
  santorini(events, action) {
    const marks = [];
    const at = ([x, y]) => cell(x, y);
    for (const e of events) {
      if (e.type === "worker_moved" || e.type === "worker_forced") {
        marks.push({ sel: at(e.from), role: "from" },
          { sel: at(e.to), role: "to", slide: [e.from[0] - e.to[0], e.from[1] - e.to[1]] });
      } else if (e.type === "piece_built" || e.type === "block_removed" || e.type === "worker_selected") {
        marks.push({ sel: at(e.at), role: "to" });
      } else if (e.type === "workers_placed") {
        for (const p of e.positions) marks.push({ sel: at(p), role: "to" });
      }
    }
    if (!events.length && action.x !== undefined) marks.push({ sel: cell(action.x, action.y), role: "to" });
    return marks;
  },

  dolphinfox(events, action) {
    const moved = events.find((e) => e.type === "unit_moved");
    const [from, to] = moved ? [moved.from, moved.to]
      : action.r1 !== undefined ? [[action.r1, action.c1], [action.r2, action.c2]] : [null, null];
    if (!from) return [];
    return [{ sel: cell(from[0], from[1]), role: "from" },
      { sel: cell(to[0], to[1]), role: "to", slide: [from[0] - to[0], from[1] - to[1]] }];
  },

  eriantys(events, action) {
    const marks = [];
    const island = (i) => `#islands [data-island="${i}"]`;
    for (const e of events) {
      if (e.type === "student_moved") {
        if (typeof e.to === "number") marks.push({ sel: island(e.to), role: "to" });
        else if (e.to === "dining") marks.push({ sel: `.school[data-seat="${e.seat}"] .dining`, role: "to" });
        if (typeof e.from === "string" && e.from !== "entrance") marks.push({ sel: `[data-character="${e.from}"]`, role: "from" });
      } else if (e.type === "mother_nature_moved" || e.type === "tower_placed" || e.type === "no_entry_placed") {
        marks.push({ sel: island(e.island), role: "to" });
      } else if (e.type === "cloud_taken") {
        marks.push({ sel: `[data-cloud="${e.cloud}"]`, role: "from" }, { sel: `.school[data-seat="${e.seat}"] .entrance`, role: "to" });
      } else if (e.type === "assistant_played") {
        marks.push({ sel: `.school[data-seat="${e.seat}"] h3`, role: "to" });
      } else if (e.type === "character_played") {
        marks.push({ sel: `[data-character="${e.character}"]`, role: "to" });
      }
    }
    if (!events.length && action.type === "choose_cloud") marks.push({ sel: `[data-cloud="${action.cloud}"]`, role: "from" });
    return marks;
  },

  renaissance(events, action) {
    const marks = [];
    const board = (s) => `.rn-player[data-seat="${s}"]`;
    for (const e of events) {
      if (e.type === "resources_taken") {
        const key = e.line === "row" ? "mrow" : "mcol";
        marks.push({ sel: `#market [data-line="${e.line}"][data-index="${e.index}"]`, role: "to" },
          { sel: `#market .tray-cell[data-${key}="${e.index}"]`, role: "to" });
      } else if (e.type === "card_bought") {
        marks.push({ sel: `${board(e.seat)} [data-slot="${e.slot}"]`, role: "to" },
          { sel: `#dev-grid [data-deck="${e.level}-${e.color}"]`, role: "from" });
      } else if (e.type === "resource_placed" || e.type === "bonus_resource_taken") {
        marks.push({ sel: `${board(e.seat)} [data-depot="${e.depot}"]`, role: "to" });
      } else if (e.type === "depots_swapped") {
        marks.push({ sel: `${board(e.seat)} [data-depot="${e.first}"]`, role: "to" },
          { sel: `${board(e.seat)} [data-depot="${e.second}"]`, role: "to" });
      } else if (e.type === "resources_moved") {
        marks.push({ sel: `${board(e.seat)} [data-depot="${e.source}"]`, role: "from" },
          { sel: `${board(e.seat)} [data-depot="${e.target}"]`, role: "to" });
      } else if (e.type === "production_run") {
        marks.push({ sel: `${board(e.seat)} .strongbox`, role: "to" });
        if (e.production.startsWith("slot")) marks.push({ sel: `${board(e.seat)} [data-slot="${e.production.slice(4)}"]`, role: "from" });
      } else if (e.type === "leader_activated" || e.type === "leader_discarded" || e.type === "leaders_chosen") {
        marks.push({ sel: `${board(e.seat)} .rn-leaders`, role: "to" });
      }
    }
    if (!events.length && action.type === "take_from_market") {
      marks.push({ sel: `#market [data-line="${action.line}"][data-index="${action.index}"]`, role: "to" });
    }
    return marks;
  },
};

/** Put the marks on the page; `since` is when the move came (ms), so that an animation
 * redrawn by a later render goes on from where it was instead of starting again. */
export function markLastMove(root, marks, since) {
  const elapsed = Math.max(0, Date.now() - since);
  for (const mark of marks) {
    for (const el of root.querySelectorAll(mark.sel)) {
      el.classList.add(mark.role === "from" ? "last-from" : "last-move");
      el.style.setProperty("--since", `-${elapsed}ms`);
      if (mark.slide && el.querySelector(".piece, svg.unit")) {
        el.classList.add("slide-in");
        el.style.setProperty("--dr", mark.slide[0]);
        el.style.setProperty("--dc", mark.slide[1]);
      }
    }
  }
}
