// The canonical protocol over one WebSocket that comes back by itself.
//
// request(msg) gives every command an id and resolves with its answer (welcome, ok, ack, pong)
// or rejects with the error message. Pushed messages (state, update, presence, caught_up,
// rematch, lobby) go to the listeners. When the socket drops, pending commands fail with
// "connection lost", except `act`, which is resent with the same client_id after the
// reconnect (the server answers a duplicate with its first ack, so nothing is applied twice).
// Commands asked before the very first connection is up wait for it.

const FIRST_DELAY = 250;
const MAX_DELAY = 5000;

export class Connection {
  constructor(url) {
    this.url = url;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.delay = FIRST_DELAY;
    this.status = "connecting";
    this.retryAt = null;
  }

  start() {
    this.open();
  }

  onMessage(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener) {
    this.statusListeners.add(listener);
  }

  setStatus(status) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  open() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = FIRST_DELAY;
      this.setStatus("open"); // the app says hello, re-attaches, then calls resend()
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = () => this.closed(ws);
  }

  closed(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    for (const [id, entry] of this.pending) {
      if (entry.message.type === "act") {
        entry.sent = false; // resent after the reconnect
        continue;
      }
      entry.reject({ code: "client/disconnected", message: "the connection was lost; try again" });
      this.pending.delete(id);
    }
    this.retryAt = Date.now() + this.delay;
    this.setStatus("reconnecting");
    setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, MAX_DELAY);
  }

  /** Send the acts that were in flight when the connection dropped (same client_id). */
  resend() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    for (const entry of this.pending.values()) {
      if (entry.sent) continue;
      entry.sent = true;
      this.ws.send(JSON.stringify(entry.message));
    }
  }

  receive(message) {
    if (message.re !== undefined && this.pending.has(message.re)) {
      const entry = this.pending.get(message.re);
      this.pending.delete(message.re);
      if (message.type === "error") entry.reject(message);
      else entry.resolve(message);
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  request(message) {
    const id = this.nextId++;
    const full = { ...message, id };
    return new Promise((resolve, reject) => {
      const entry = { message: full, resolve, reject, sent: false };
      this.pending.set(id, entry);
      if (this.ws && this.ws.readyState === WebSocket.OPEN) {
        entry.sent = true;
        this.ws.send(JSON.stringify(full));
      } else if (message.type !== "act" && this.status !== "connecting") {
        this.pending.delete(id);
        reject({ code: "client/disconnected", message: "not connected to the server; reconnecting" });
      }
    });
  }
}

export function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

export async function getJson(path, headers = {}) {
  return answerOf(await fetch(path, { headers: { Accept: "application/json", ...headers } }));
}

export async function postJson(path, body = {}, headers = {}) {
  return answerOf(await fetch(path, { method: "POST", body: JSON.stringify(body),
    headers: { Accept: "application/json", "Content-Type": "application/json", ...headers } }));
}

/** The JSON of a response, or the server's error ({error: {code, message, details}}) thrown as
 * the WebSocket's errors are: the same words for both. */
async function answerOf(response) {
  if (response.ok) return response.json();
  const text = await response.text();
  let error = null;
  try {
    error = JSON.parse(text).error;
  } catch {
    // not JSON (a proxy's page): the status and the text
  }
  throw error && error.code ? error : { code: `http/${response.status}`, message: text };
}
