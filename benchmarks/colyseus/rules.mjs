// Dolphins & Foxes, ported from service/games/dolphinfox/game.py and board.py (the same
// legal moves in the same order, the same refusals, the same end of the game, the same
// snapshot shape as dump_state). Seat 0 is the dolphin team, seat 1 the fox team;
// squares are [row, column], 1-based. Only the terrain's random draw differs (a seeded
// mulberry32 here, Python's random there): the rules of a position do not depend on it.

export const DOLPHINS = 0;
export const FOXES = 1;
const TEAM_LETTERS = ["D", "F"];
const TEAM_NAMES = ["dolphins", "foxes"];
const HOME = ["W", "L"]; // a unit is safe on its home terrain and captures there
const UNIT_CHARS = { "0W": "D", "0L": "E", "1L": "F", "1W": "G" };

export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample(random, items, k) {
  const pool = items.slice();
  const out = [];
  for (let i = 0; i < k; i++) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return out;
}

const key = (r, c) => r * 32 + c; // size <= 16
const mirror = (r, c, size) => [size + 1 - r, size + 1 - c];

function generateTerrain(size, units, random) {
  const grid = Array.from({ length: size }, () => Array(size).fill("L"));
  for (let r = 1; r <= size / 2; r++) {
    for (let c = 1; c <= size; c++) {
      const water = random() < 0.5;
      const [mr, mc] = mirror(r, c, size);
      grid[r - 1][c - 1] = water ? "W" : "L";
      grid[mr - 1][mc - 1] = water ? "L" : "W";
    }
  }
  const landInRow1 = [];
  for (let c = 1; c <= size; c++) if (grid[0][c - 1] === "L") landInRow1.push(c);
  const missing = units - (size - landInRow1.length);
  for (const c of sample(random, landInRow1, Math.max(missing, 0))) {
    grid[0][c - 1] = "W";
    const [mr, mc] = mirror(1, c, size);
    grid[mr - 1][mc - 1] = "L";
  }
  return grid.map((row) => row.join("")).join("");
}

export function setup(seed, { size = 8, units = 3, maxMoves = 200 } = {}) {
  const random = rng(seed);
  const terrain = generateTerrain(size, units, random);
  const water = [];
  for (let c = 1; c <= size; c++) if (terrain[c - 1] === "W") water.push(c);
  const state = { size, terrain, maxMoves, units: new Map(), moves: 0, winner: null,
                  draw: false, endReason: "", startRows: [1, size] };
  for (const c of sample(random, water, units)) {
    state.units.set(key(1, c), DOLPHINS);
    const [mr, mc] = mirror(1, c, size);
    state.units.set(key(mr, mc), FOXES);
  }
  return state;
}

export const over = (s) => s.winner !== null || s.draw;
const terrainAt = (s, r, c) => s.terrain[(r - 1) * s.size + (c - 1)];
const onBoard = (s, r, c) => r >= 1 && r <= s.size && c >= 1 && c <= s.size;
function count(s, team) {
  let n = 0;
  for (const t of s.units.values()) if (t === team) n++;
  return n;
}

// why a unit of `seat` may not step onto the adjacent on-board square (r, c), or null
function targetRefusal(s, seat, r, c) {
  const occupant = s.units.get(key(r, c));
  if (occupant === seat) return ["own_unit_there", "a unit of your own team stands there"];
  if (occupant !== undefined && terrainAt(s, r, c) !== HOME[seat]) {
    return ["capture_abroad", "you can only capture on your own home terrain"];
  }
  return null;
}

export function legal(s, seat) {
  if (over(s)) return [];
  const own = [...s.units].filter(([, t]) => t === seat).map(([k]) => k).sort((a, b) => a - b);
  const moves = [];
  for (const k of own) {
    const r = k >> 5, c = k & 31;
    for (const [r2, c2] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
      if (onBoard(s, r2, c2) && targetRefusal(s, seat, r2, c2) === null) {
        moves.push({ type: "move", r1: r, c1: c, r2, c2 });
      }
    }
  }
  return moves;
}

function refusal(s, seat, m) {
  if (seat !== DOLPHINS && seat !== FOXES) return ["not_a_player", "only the two team players move units"];
  if (!onBoard(s, m.r1, m.c1) || !onBoard(s, m.r2, m.c2)) return ["off_board", `squares must be within 1..${s.size}`];
  if (Math.abs(m.r1 - m.r2) + Math.abs(m.c1 - m.c2) !== 1) return ["not_adjacent", "a unit moves one square up, down, left or right"];
  if (s.units.get(key(m.r1, m.c1)) !== seat) return ["no_own_unit", `no ${TEAM_NAMES[seat]} unit stands on ${m.r1} ${m.c1}`];
  return targetRefusal(s, seat, m.r2, m.c2);
}

// validate and play `action` for `seat`; returns null, or [code, message] and changes nothing
export function apply(s, seat, action) {
  const m = action || {};
  if (m.type !== "move" || ![m.r1, m.c1, m.r2, m.c2].every(Number.isInteger)) {
    return ["bad_action", "a move is {type: 'move', r1, c1, r2, c2} with integers"];
  }
  if (over(s)) return ["game_over", "the game is over"];
  const why = refusal(s, seat, m);
  if (why !== null) return why;
  s.units.delete(key(m.r1, m.c1));
  s.units.set(key(m.r2, m.c2), seat);
  s.moves += 1;
  const other = 1 - seat;
  if (count(s, other) === 0) [s.winner, s.endReason] = [seat, "eliminated"];
  else if (m.r2 === s.startRows[other]) [s.winner, s.endReason] = [seat, "crossed"];
  else if (s.moves >= s.maxMoves) {
    const d = count(s, DOLPHINS), f = count(s, FOXES);
    s.endReason = "move_limit";
    if (d === f) s.draw = true;
    else s.winner = d > f ? DOLPHINS : FOXES;
  }
  return null;
}

export function outcome(s) {
  if (!over(s)) return null;
  return { winners: s.winner === null ? [] : [s.winner], draw: s.draw, reason: s.endReason };
}

export function board(s) {
  const chars = s.terrain.split("");
  for (const [k, team] of s.units) {
    const i = ((k >> 5) - 1) * s.size + ((k & 31) - 1);
    chars[i] = UNIT_CHARS[team + s.terrain[i]];
  }
  return chars.join("");
}

export function view(s, seat) {
  const v = { size: s.size, board: board(s), moves: s.moves, max_moves: s.maxMoves,
              units: { D: count(s, DOLPHINS), F: count(s, FOXES) }, over: over(s) };
  if (seat !== null) v.team = TEAM_LETTERS[seat];
  if (over(s)) v.outcome = outcome(s);
  return v;
}

// the snapshot, as DolphinFox.dump_state writes it
export function dump(s) {
  return {
    size: s.size, terrain: s.terrain, max_moves: s.maxMoves,
    units: [...s.units].sort((a, b) => a[0] - b[0]).map(([k, t]) => [k >> 5, k & 31, t]),
    moves: s.moves, winner: s.winner, draw: s.draw, end_reason: s.endReason,
    start_rows: s.startRows,
  };
}

export function load(d) {
  return { size: d.size, terrain: d.terrain, maxMoves: d.max_moves,
           units: new Map(d.units.map(([r, c, t]) => [key(r, c), t])), moves: d.moves,
           winner: d.winner, draw: d.draw, endReason: d.end_reason, startRows: d.start_rows };
}
