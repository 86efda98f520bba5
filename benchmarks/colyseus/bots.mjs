// Bots for server.mjs, playing as benchmarks/load.py's bots play Tavolo (service/bots/client.py):
// each match's two seats act at once (Dolphins & Foxes is real time); a seat plays a random
// move of the latest legal list the server pushed as soon as it has one, waits for its answer
// (ack or refusal), then looks again; a finished match is replaced by a new one.
//
//   node bots.mjs --url ws://127.0.0.1:2567 --matches 10 --seconds 15 --start-at EPOCH
//
// Prints "progress N" (acks so far) every second, then one "result {json}" line in the
// shape load.py's bot processes print (acks in seconds, refused, finished, failed, cpu).
import { Client } from "colyseus.js";
import { writeSync } from "node:fs";
import { performance } from "node:perf_hooks";

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const URL = arg("--url", "ws://127.0.0.1:2567");
const MATCHES = Number(arg("--matches", "10"));
const SECONDS = Number(arg("--seconds", "15"));
const START_AT = Number(arg("--start-at", "0"));
const TIMEOUT_MS = 60_000;

const tally = { acks: [], refused: 0, finished: 0 };

class Seat {
  constructor(room) {
    this.room = room;
    this.status = "waiting";
    this.offer = null; // [version, legal moves] of the latest state or update
    this.replies = new Map();
    this.ids = 0;
    this.wake = null;
    const seen = (m) => {
      this.status = m.status;
      this.offer = [m.version, m.legal || []];
      this.poke();
    };
    room.onMessage("state", seen);
    room.onMessage("update", seen);
    const answer = (m) => {
      const waiter = this.replies.get(m.re);
      this.replies.delete(m.re);
      waiter?.(m);
    };
    room.onMessage("ack", answer);
    room.onMessage("error", answer);
    room.onLeave(() => { this.status = "left"; this.poke(); });
  }

  poke() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  changed() {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the server said nothing for 60 s")), TIMEOUT_MS);
      this.wake = () => { clearTimeout(timer); resolve(); };
    });
  }

  call(message) {
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer for 60 s")), TIMEOUT_MS);
      this.replies.set(id, (m) => { clearTimeout(timer); resolve(m); });
      this.room.send("act", { ...message, id });
    });
  }

  async play(deadline) {
    for (let turn = 0; ; turn++) {
      if (this.status === "finished" || this.status === "left" || performance.now() > deadline) return;
      const offer = this.offer;
      this.offer = null;
      if (offer !== null && offer[1].length) {
        const started = performance.now();
        const moves = offer[1];
        const answer = await this.call({ client_id: `x${turn}`, version: offer[0],
                                         action: moves[Math.floor(Math.random() * moves.length)] });
        if (answer.type === "ack") tally.acks.push((performance.now() - started) / 1000);
        else tally.refused += 1; // the position moved on meanwhile: look again
      } else {
        const changed = this.changed();
        await changed;
      }
    }
  }
}

async function oneMatch(client, deadline) {
  const first = await client.create("dolphinfox");
  const seats = [new Seat(first)]; // listening before the second seat joins and the state comes
  const second = await client.joinById(first.roomId);
  seats.push(new Seat(second));
  try {
    await Promise.all(seats.map((s) => s.play(deadline)));
    if (seats.some((s) => s.status === "finished")) tally.finished += 1;
  } finally {
    await Promise.all([first.leave(), second.leave()].map((p) => p.catch(() => {})));
  }
}

async function slot(client, deadline) {
  while (performance.now() < deadline) await oneMatch(client, deadline);
}

await new Promise((resolve) => setTimeout(resolve, Math.max(0, START_AT * 1000 - Date.now())));
const deadline = performance.now() + SECONDS * 1000;
const client = new Client(URL);
const slots = Array.from({ length: MATCHES }, () => slot(client, deadline));
const failed = [];
slots.forEach((p) => p.catch((error) => failed.push(String(error))));
while (performance.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, deadline - performance.now()))));
  console.log(`progress ${tally.acks.length}`);
  if (failed.length === MATCHES) break;
}
const usage = process.cpuUsage();
// written synchronously (console.log to a pipe is asynchronous and exit() would cut it
// short), and again while the pipe is full (EAGAIN)
function writeAll(text) {
  let data = Buffer.from(text);
  while (data.length) {
    try {
      data = data.subarray(writeSync(1, data));
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
    }
  }
}
writeAll("result " + JSON.stringify({ acks: tally.acks, refused: tally.refused, finished: tally.finished,
                                      failed, cpu: (usage.user + usage.system) / 1e6 }) + "\n");
process.exit(0); // the matches still being played are abandoned, not finished
