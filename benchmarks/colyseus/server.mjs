// A minimal Colyseus room playing Dolphins & Foxes (rules.mjs), durable in PostgreSQL:
// every move is validated, then COMMITTED (the action row and the match's new version,
// status and snapshot in one transaction), and only then acknowledged to its sender and
// sent to both seats (each its view and its legal moves, as Tavolo pushes them).
//
//   node server.mjs --port 2567 [--group] [--pg postgres://postgres@127.0.0.1:5432/test]
//
// Default: one transaction per move (BEGIN, INSERT action, UPDATE match WHERE version =
// v - 1, COMMIT), a match's commits in its order. --group: one writer connection puts every
// move waiting when it is free into one transaction (as Tavolo's appender does).
// Tables: colyseus_matches, colyseus_actions (created here; --drop drops them and exits).
import { Room, Server } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import pg from "pg";
import { apply, dump, legal, outcome, over, setup, view } from "./rules.mjs";

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const PORT = Number(arg("--port", "2567"));
const GROUP = argv.includes("--group");
const pool = new pg.Pool({
  connectionString: arg("--pg", "postgres://postgres@127.0.0.1:5432/test"),
  application_name: "colyseus_reference", max: 24,
  idleTimeoutMillis: 0, // kept open, so that their CPU is read over the whole window
});

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS colyseus_matches (id BIGSERIAL PRIMARY KEY, version INTEGER NOT NULL,
    status TEXT NOT NULL, snapshot TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS colyseus_actions (match_id BIGINT NOT NULL, seq INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, client_id TEXT, PRIMARY KEY (match_id, seq));`;

// -- the durable write -------------------------------------------------------------------

// one transaction per move; the caller orders a match's moves
async function commitOne(row) {
  const db = await pool.connect();
  try {
    await db.query("BEGIN");
    await db.query("INSERT INTO colyseus_actions VALUES ($1, $2, $3, $4, $5)",
      [row.matchId, row.version, row.seat, row.action, row.clientId]);
    const updated = await db.query(
      "UPDATE colyseus_matches SET version = $1, status = $2, snapshot = $3 WHERE id = $4 AND version = $5",
      [row.version, row.status, row.snapshot, row.matchId, row.version - 1]);
    if (updated.rowCount !== 1) throw new Error(`match ${row.matchId} is not at version ${row.version - 1}`);
    await db.query("COMMIT");
  } catch (error) {
    await db.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    db.release();
  }
}

// group commit: every row waiting when the writer is free goes into one transaction
const waiting = [];
let writing = false;
function commitGrouped(row) {
  return new Promise((resolve, reject) => {
    waiting.push({ row, resolve, reject });
    if (!writing) writeBatches();
  });
}

async function writeBatches() {
  writing = true;
  const db = await pool.connect();
  try {
    while (waiting.length) {
      const batch = waiting.splice(0);
      const rows = batch.map((b) => b.row);
      const last = new Map(); // match -> [first version - 1, its last row in the batch]
      for (const r of rows) {
        const seen = last.get(r.matchId);
        last.set(r.matchId, [seen ? seen[0] : r.version - 1, r]);
      }
      const ends = [...last.values()];
      try {
        await db.query("BEGIN");
        await db.query(
          "INSERT INTO colyseus_actions SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[])",
          [rows.map((r) => r.matchId), rows.map((r) => r.version), rows.map((r) => r.seat),
           rows.map((r) => r.action), rows.map((r) => r.clientId)]);
        const updated = await db.query(
          `UPDATE colyseus_matches m SET version = u.version, status = u.status, snapshot = u.snapshot
             FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[])
               AS u(id, before, version, status, snapshot)
            WHERE m.id = u.id AND m.version = u.before`,
          [ends.map(([, r]) => r.matchId), ends.map(([b]) => b), ends.map(([, r]) => r.version),
           ends.map(([, r]) => r.status), ends.map(([, r]) => r.snapshot)]);
        if (updated.rowCount !== ends.length) throw new Error("a match was not at the version it should be");
        await db.query("COMMIT");
        for (const b of batch) b.resolve();
      } catch (error) {
        await db.query("ROLLBACK").catch(() => {});
        for (const b of batch) b.reject(error);
      }
    }
  } finally {
    db.release();
    writing = false;
  }
}

const commit = GROUP ? commitGrouped : commitOne;

// -- the room ----------------------------------------------------------------------------

class DolphinFoxRoom extends Room {
  maxClients = 2;

  async onCreate() {
    this.setPatchRate(null); // no synchronised schema state: the room sends its own messages
    this.game = setup(Math.floor(Math.random() * 2 ** 31));
    this.version = 0;
    this.status = "waiting";
    this.seats = [null, null];
    this.chain = Promise.resolve(); // a match's commits and deliveries, in its order
    const created = await pool.query(
      "INSERT INTO colyseus_matches (version, status, snapshot) VALUES (0, 'waiting', $1) RETURNING id",
      [JSON.stringify(dump(this.game))]);
    this.matchId = Number(created.rows[0].id);
    this.onMessage("act", (client, cmd) => this.act(client, cmd));
  }

  async onJoin(client) {
    const seat = this.seats[0] === null ? 0 : 1;
    this.seats[seat] = client;
    client.userData = { seat };
    if (this.seats[0] !== null && this.seats[1] !== null) {
      await pool.query("UPDATE colyseus_matches SET status = 'active' WHERE id = $1", [this.matchId]);
      this.status = "active";
      this.lock();
      this.tell(this.position("state"));
    }
  }

  onLeave(client) {
    const seat = client.userData?.seat;
    if (seat !== undefined) this.seats[seat] = null;
  }

  // what each seat is sent about the position as it is now: [seat, message]
  position(kind, extra = {}) {
    const toAct = this.status === "active" && !over(this.game) ? [0, 1] : [];
    const result = outcome(this.game);
    return [0, 1].map((seat) => [seat, {
      type: kind, match_id: this.matchId, version: this.version, status: this.status,
      you: seat, to_act: toAct, view: view(this.game, seat),
      legal: toAct.includes(seat) ? legal(this.game, seat) : null, outcome: result, ...extra,
    }]);
  }

  tell(messages) {
    for (const [seat, message] of messages) this.seats[seat]?.send(message.type, message);
  }

  act(client, cmd) {
    const seat = client.userData?.seat;
    const refuse = (code, message) => client.send("error", { type: "error", re: cmd?.id, code, message });
    if (seat === undefined || this.status !== "active") return refuse("not_active", "the match is not being played");
    const why = apply(this.game, seat, cmd?.action);
    if (why !== null) return refuse(...why);
    this.version += 1;
    if (over(this.game)) this.status = "finished";
    const action = { type: "move", r1: cmd.action.r1, c1: cmd.action.c1, r2: cmd.action.r2, c2: cmd.action.c2 };
    const row = { matchId: this.matchId, version: this.version, seat, action: JSON.stringify(action),
                  clientId: cmd.client_id ?? null, status: this.status, snapshot: JSON.stringify(dump(this.game)) };
    const version = this.version;
    // built now, sent once this version is committed (the next move may be played meanwhile)
    const update = this.position("update", { seat, action });
    const deliver = () => {
      client.send("ack", { type: "ack", re: cmd.id, version });
      this.tell(update);
    };
    const failed = (error) => {
      console.error(`match ${this.matchId}: the commit failed: ${error.message}`);
      this.disconnect(); // nothing after an unsaved move may be acknowledged
    };
    if (GROUP) {
      const saved = commit(row);
      this.chain = this.chain.then(() => saved).then(deliver, failed);
    } else {
      this.chain = this.chain.then(() => commit(row)).then(deliver, failed);
    }
  }
}

// -- start -------------------------------------------------------------------------------

if (argv.includes("--drop")) {
  await pool.query("DROP TABLE IF EXISTS colyseus_actions, colyseus_matches");
  await pool.end();
} else {
  await pool.query(SCHEMA);
  const server = new Server({ transport: new WebSocketTransport(), greet: false });
  server.define("dolphinfox", DolphinFoxRoom);
  await server.listen(PORT, "127.0.0.1");
  console.log(`listening: http on 127.0.0.1:${PORT}${GROUP ? " (group commit)" : ""}`);
}
