"""The yardstick of issue 23: a bare aiohttp server running Tavolo's own rules of a game with
group commit (sqlite3, or asyncpg on PostgreSQL), no ORM, no pydantic, no sessions layer,
measured by the same bots as ``benchmarks/load.py`` and interleaved with Tavolo itself.

The bare server speaks just enough of the canonical protocol for load.py's bots (``hello``
with ``push_legal``, ``create``, ``join``, ``act`` with ``client_id`` and ``version``;
``state`` and ``update`` pushed with the seat's legal actions) and does the same durable
work per action as Tavolo: the action row and the match's new snapshot and version written
in one commit, every action of the batch waiting for that commit before its ``ack`` and
``update`` go out. On SQLite (``synchronous=FULL``, WAL, as Tavolo's default) a batch is one
transaction of two ``executemany``; on PostgreSQL it is one statement in autocommit (each
match moved to its last version of the batch, guarded by the version it had, joined to the
insert of the action rows), as Tavolo's PostgreSQL appender does. It checks the seat, the
version and the rules, and nothing else: no identity, limits, budgets, hidden information
beyond the game's own views, metrics or logs. What Tavolo costs above it is the price of
everything else.

    python benchmarks/bare_reference.py --matches 20 --seconds 15 --rounds 3
    python benchmarks/bare_reference.py --game santorini --database postgres
    python benchmarks/bare_reference.py --also /tmp/before   # and an older Tavolo, interleaved
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import sqlite3
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncpg
from aiohttp import WSMsgType, web
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (benchmarks/load.py: the bots, the driver, the summary)

from service.cli_workers import free_port  # noqa: E402
from service.games.base import Game  # noqa: E402
from service.games.registry import get_game  # noqa: E402
from service.tools.databases import asyncpg_dsn, fresh_database  # noqa: E402

#: an append: (match id, its new version, seat, action JSON, client id, status, snapshot JSON)
Row = tuple[int, int, int, str, Any, str, str]


# -- the bare server -------------------------------------------------------------------------

class SqliteGroupCommit:
    """One writer thread: every append waiting when it wakes goes into one transaction."""

    def __init__(self, path: str, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: queue.SimpleQueue[tuple[Row, asyncio.Future[None]]] = queue.SimpleQueue()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db.executescript("""
            PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;
            CREATE TABLE IF NOT EXISTS matches (id INTEGER PRIMARY KEY, version INTEGER,
                status TEXT, snapshot TEXT);
            CREATE TABLE IF NOT EXISTS actions (match_id INTEGER, seq INTEGER, seat INTEGER,
                action TEXT, client_id TEXT, PRIMARY KEY (match_id, seq));""")
        #: matches are created on a connection of the event loop's own (rare, off the hot path)
        self.setup = sqlite3.connect(path, isolation_level=None, timeout=30)
        self.setup.execute("PRAGMA synchronous=FULL")
        threading.Thread(target=self._run, daemon=True).start()

    async def create(self, snapshot: str) -> int:
        return int(self.setup.execute("INSERT INTO matches (version, status, snapshot) "
                                      "VALUES (0, 'active', ?)", (snapshot,)).lastrowid or 0)

    def append(self, row: Row) -> asyncio.Future[None]:
        done: asyncio.Future[None] = self.loop.create_future()
        self.pending.put((row, done))
        return done

    def _run(self) -> None:
        while True:
            batch = [self.pending.get()]
            while not self.pending.empty():
                batch.append(self.pending.get())
            rows = [row for row, _ in batch]
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                [row[:5] for row in rows])
            self.db.executemany("UPDATE matches SET version = ?, status = ?, snapshot = ? "
                                "WHERE id = ? AND version = ?",
                                [(row[1], row[5], row[6], row[0], row[1] - 1) for row in rows])
            self.db.execute("COMMIT")
            for _, done in batch:
                self.loop.call_soon_threadsafe(done.set_result, None)


#: one batch, one statement: each match moves once, from the version it had to its last of the
#: batch; the action rows of the matches that moved are inserted by the same statement
PG_BATCH = """
WITH moved AS (
    UPDATE matches m SET version = u.last, status = u.status, snapshot = u.snapshot
    FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[])
        AS u(id, first, last, status, snapshot)
    WHERE m.id = u.id AND m.version = u.first - 1
    RETURNING m.id)
INSERT INTO actions (match_id, seq, seat, action, client_id)
SELECT a.match_id, a.seq, a.seat, a.action, a.client_id
FROM unnest($6::bigint[], $7::int[], $8::int[], $9::text[], $10::text[])
    AS a(match_id, seq, seat, action, client_id)
JOIN moved ON moved.id = a.match_id"""


class PostgresGroupCommit:
    """One writer task on its own connection: every append waiting when it wakes goes into
    one statement (``PG_BATCH``) in autocommit."""

    def __init__(self, writer: asyncpg.Connection, setup: asyncpg.Pool) -> None:
        self.writer, self.setup = writer, setup
        self.pending: asyncio.Queue[tuple[Row, asyncio.Future[None]]] = asyncio.Queue()
        self.task = asyncio.create_task(self._run())

    @classmethod
    async def open(cls, dsn: str) -> PostgresGroupCommit:
        writer, setup = await asyncpg.connect(dsn), await asyncpg.create_pool(dsn, min_size=1, max_size=4)
        await writer.execute("""
            CREATE TABLE IF NOT EXISTS matches (id BIGSERIAL PRIMARY KEY, version INTEGER,
                status TEXT, snapshot TEXT);
            CREATE TABLE IF NOT EXISTS actions (match_id BIGINT, seq INTEGER, seat INTEGER,
                action TEXT, client_id TEXT, PRIMARY KEY (match_id, seq));""")
        return cls(writer, setup)

    async def create(self, snapshot: str) -> int:
        return int(await self.setup.fetchval("INSERT INTO matches (version, status, snapshot) "
                                             "VALUES (0, 'active', $1) RETURNING id", snapshot))

    def append(self, row: Row) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.put_nowait((row, done))
        return done

    async def _run(self) -> None:
        while True:
            batch = [await self.pending.get()]
            while not self.pending.empty():
                batch.append(self.pending.get_nowait())
            moves: dict[int, list[Any]] = {}  # match id -> [first, last, status, snapshot]
            for row, _ in batch:
                move = moves.setdefault(row[0], [row[1], row[1], row[5], row[6]])
                move[1:] = [row[1], row[5], row[6]]
            columns = list(zip(*(row[:5] for row, _ in batch), strict=True))
            await self.writer.execute(
                PG_BATCH, list(moves), *(list(c) for c in zip(*moves.values(), strict=True)),
                *(list(c) for c in columns))
            for _, done in batch:
                done.set_result(None)


class Match:
    def __init__(self, match_id: int, state: Any, seats: int) -> None:
        self.id, self.state, self.version = match_id, state, 0
        self.seats: list[Any] = [None] * seats  # the connection in each seat
        self.status = "waiting"


async def serve(port: int, database: str, game: Game[Any]) -> None:
    matches: dict[int, Match] = {}
    store: SqliteGroupCommit | PostgresGroupCommit
    if database.startswith("sqlite"):
        store = SqliteGroupCommit(make_url(database).database or "", asyncio.get_running_loop())
    else:
        store = await PostgresGroupCommit.open(asyncpg_dsn(database))

    def position(match: Match, viewer: int, kind: str, **extra: Any) -> str:
        to_act = sorted(game.to_act(match.state)) if match.status == "active" else []
        outcome = game.outcome(match.state)
        return json.dumps({
            "type": kind, "match_id": match.id, "version": match.version, "status": match.status,
            "seats": [{"seat": s} for s in range(len(match.seats))], "you": viewer,
            "to_act": to_act, "view": game.view(match.state, viewer),
            "legal": ([game.dump_action(a) for a in game.legal_actions(match.state, viewer)]
                      if viewer in to_act else None),
            "outcome": outcome.to_dict() if outcome else None, **extra})

    async def tell(match: Match, kind: str, **extra: Any) -> None:
        for viewer, ws in enumerate(match.seats):
            if ws is not None and not ws.closed:
                await ws.send_str(position(match, viewer, kind, **extra))

    async def seat(match: Match, ws: web.WebSocketResponse, re: Any) -> None:
        """``ws`` takes the first free seat; the match starts once every seat is taken."""
        taken = match.seats.index(None)
        match.seats[taken] = ws
        if None not in match.seats:
            match.status = "active"
        await ws.send_str(json.dumps({"type": "ok", "re": re,
                                      "result": {"match_id": match.id, "seat": taken}}))
        await (tell(match, "state") if match.status == "active"
               else ws.send_str(position(match, taken, "state")))

    async def socket_handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        try:
            await converse(ws)
        except ConnectionError:  # a bot process ends with its connections open
            pass
        return ws

    async def converse(ws: web.WebSocketResponse) -> None:
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                break
            cmd = json.loads(message.data)
            kind, re = cmd.get("type"), cmd.get("id")
            if kind == "hello":
                await ws.send_str(json.dumps({"type": "welcome", "re": re}))
            elif kind == "create":
                seats = cmd.get("seats") or game.min_seats
                state = game.setup(seats, game.parse_options(cmd.get("options") or {}), 7)
                match = Match(await store.create(json.dumps(game.dump_state(state))), state, seats)
                matches[match.id] = match
                await seat(match, ws, re)
            elif kind == "join":
                await seat(matches[cmd["match_id"]], ws, re)
            elif kind == "act":
                match = matches[cmd["match_id"]]
                by = match.seats.index(ws)
                try:
                    if cmd.get("version") not in (None, match.version) and not game.real_time:
                        raise ValueError("stale")
                    action = game.parse_action(cmd["action"])
                    if by not in game.to_act(match.state):
                        raise ValueError("not your turn")
                    game.apply(match.state, by, action)
                except Exception as exc:  # noqa: BLE001  (the reference answers any refusal alike)
                    await ws.send_str(json.dumps({"type": "error", "re": re, "code": "rules/illegal",
                                                  "message": str(exc)}))
                    continue
                match.version += 1
                if game.outcome(match.state) is not None:
                    match.status = "finished"
                await store.append((match.id, match.version, by,
                                    json.dumps(game.dump_action(action)), cmd.get("client_id"),
                                    match.status, json.dumps(game.dump_state(match.state))))
                await ws.send_str(json.dumps({"type": "ack", "re": re, "version": match.version}))
                await tell(match, "update", seat=by, action=game.dump_action(action))

    app = web.Application()
    app.router.add_get("/ws", socket_handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print(f"listening: http on 127.0.0.1:{port}", flush=True)
    await asyncio.Event().wait()


# -- the driver ------------------------------------------------------------------------------

async def run_bare(args: argparse.Namespace) -> dict[str, float | str]:
    port = free_port("127.0.0.1")
    url, cleanup = await fresh_database(args.database)
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", str(port), "--db", url, "--game", args.game,
        stdout=asyncio.subprocess.PIPE)
    try:
        assert process.stdout is not None
        await asyncio.wait_for(process.stdout.readline(), 30)
        server = SimpleNamespace(process=process, ports={"http": port})
        return await load.drive(args, server)  # type: ignore[arg-type]
    finally:
        process.kill()
        await process.wait()
        await cleanup()


async def run_tavolo_from(tree: str, args: argparse.Namespace) -> dict[str, float | str]:
    """One Tavolo run whose server (and bots) import the ``service`` of another checkout
    ``tree`` (e.g. ``git archive`` of the commit before a change), so that before and after
    are measured in the same interleaved series."""
    cwd, path = os.getcwd(), os.environ.get("PYTHONPATH")
    os.chdir(tree)  # ``python -m service`` looks in its working directory first
    os.environ["PYTHONPATH"] = tree
    try:
        return await load.run_tavolo(args)
    finally:
        os.chdir(cwd)
        if path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = path


async def main(args: argparse.Namespace) -> None:
    runs: list[tuple[str, Any]] = [("bare", run_bare), ("tavolo", load.run_tavolo)]
    for tree in args.also:
        name = Path(tree).name[:12]
        runs.append((name, lambda a, t=str(Path(tree).resolve()): run_tavolo_from(t, a)))
    rows = await load.interleaved(runs, args, lambda round_, name, result: (
        f"round {round_} {name:12}  {result['actions_per_s']:7.0f} actions/s  server CPU "
        f"{result['server_cpu_ms_per_action']:.3f} ms/action  ack p50 "
        f"{result['ack_p50_ms']:.1f} p99 {result['ack_p99_ms']:.1f} ms  load "
        f"{result['load_avg_1m']:.2f}"))
    for name, results in rows.items():
        cpu = [float(r["server_cpu_ms_per_action"]) for r in results]
        rate = [float(r["actions_per_s"]) for r in results]
        print(f"{name:12}  server CPU per action mean {sum(cpu) / len(cpu):.3f} ms "
              f"(each {', '.join(f'{c:.3f}' for c in cpu)}); actions/s mean {sum(rate) / len(rate):.0f}")
    bare = sum(float(r["server_cpu_ms_per_action"]) for r in rows["bare"])
    for name in rows:
        if name != "bare":
            ours = sum(float(r["server_cpu_ms_per_action"]) for r in rows[name])
            print(f"{name} / bare, server CPU per action: {ours / bare:.2f}x (target <= 1.2x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    load.interleaved_arguments(parser)
    parser.add_argument("--also", metavar="TREE", action="append", default=[],
                        help="in each round also run the Tavolo of another checkout (named "
                             "after its folder; repeatable), e.g. `git archive` of the "
                             "commit before a change")
    parser.add_argument("--game", choices=load.GAMES, default="dolphinfox")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.serve:
        asyncio.run(serve(parsed.serve, parsed.db, get_game(parsed.game)))
    else:
        parsed.setup_only = False
        parsed.server_arg = []  # load.run_tavolo: the server as load.py starts it
        asyncio.run(main(parsed))
