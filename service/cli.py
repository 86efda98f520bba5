"""`python -m service ...` (or `tavolo ...`): serve, bot, matches list/show/replay/export/import/
abort/delete, players list/show, schema, db upgrade."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
from aiohttp import web
from pydantic import ValidationError

from service import cli_ops, cli_ratings, cli_settings, cli_workers
from service.cli_ports import PortBusy, check_ports
from service.app import create_app, gate, listening_dialects
from service.gateway.access_log import QuietHealthAccessLogger
from service.gateway.http_site import GatedSite, runner_options
from service.gateway.keys import DESCRIPTORS
from service.bots.client import BotClientError, Plan, run
from service.bots.policies import LEVELS
from service.games.base import format_validation_error
from service.games.registry import all_games
from service import cli_admin
from service.cli_admin import abort_match, delete_match, list_players, print_rows, show_player
from service.inspection import match_detail, match_summary, render_detail, replay
from service.logs import LOG_FORMATS, LOG_LEVELS, configure_logging
from service.schemas import schema_names
from service.settings import Settings, database_url_from_env, node_id_of
from service.store import MATCH_STATUSES, OPERATOR, Store
from service.store.exclusive import ServeLockError, lock_for_serve
from service.transfer import tavolo_version


def _listen(value: str) -> tuple[str, int | None]:
    name, sep, port = value.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("expected DIALECT=PORT or DIALECT=off")
    if port == "off":
        return name, None
    if not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"bad port {port!r}")
    return name, int(port)


def _setting(value: str) -> tuple[str, Any]:
    name, sep, raw = value.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("expected NAME=VALUE")
    return name, cli_settings.parse(name, raw)


def _log_level(value: str) -> str:
    if value.upper() not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(LOG_LEVELS)}")
    return value.upper()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tavolo", description="Tavolo board-game service")
    parser.add_argument("--version", action="version", version=f"tavolo {tavolo_version()}")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--database-url", help="SQLAlchemy URL (default: $TAVOLO_DATABASE_URL, "
                    "else sqlite file tavolo.db here)")
    sub = parser.add_subparsers(dest="command", required=True)
    _serve_parser(sub.add_parser("serve", parents=[db], help="run the service"))
    _matches_parser(sub, db)
    _players_parser(sub, db)
    cli_ratings.add_parser(sub, db)
    _bot_parser(sub.add_parser("bot", help="play matches as external bots over the canonical protocol"))
    schema = sub.add_parser("schema", help="print a JSON Schema: the canonical messages or a game's actions")
    schema.add_argument("what", choices=schema_names(), help="canonical, or a game's name")
    dbcmd = sub.add_parser("db", help="database administration").add_subparsers(
        dest="db_command", required=True)
    dbcmd.add_parser("upgrade", parents=[db], help="migrate the database to the newest schema")
    return parser


def _serve_parser(serve: argparse.ArgumentParser) -> None:
    """Flags left out take their value from TAVOLO_* variables, else the Settings default."""
    serve.add_argument("--host", help="address to listen on (default 0.0.0.0; $TAVOLO_HOST)")
    serve.add_argument("--http-port", type=int, help="HTTP and WebSocket port (default 8080)")
    serve.add_argument("--listen", type=_listen, action="append", default=[], metavar="DIALECT=PORT",
                       help="TCP port of a dialect (0: any free port; off: disable); may repeat")
    serve.add_argument("--log-level", type=_log_level, metavar="LEVEL",
                       help=f"one of {', '.join(LOG_LEVELS)} ($TAVOLO_LOG_LEVEL; default INFO)")
    serve.add_argument("--log-format", choices=LOG_FORMATS,
                       help="text lines, or one JSON object per line with match, dialect and peer "
                            "($TAVOLO_LOG_FORMAT; default text)")
    serve.add_argument("--set", type=_setting, action="append", default=[], metavar="NAME=VALUE",
                       help="any other setting of service/settings.py (VALUE as JSON, else text), "
                            "e.g. sqlite_synchronous=NORMAL or max_connections_per_address=64")
    serve.add_argument("--hand-testing", action="store_true",
                       help="relax the seed dialects' heartbeats 100-fold for sessions typed by "
                            "hand (same as --set heartbeat_scale=100)")
    serve.add_argument("--bot-workers", type=int, help="processes in which bots think (default 1)")
    serve.add_argument("--bot-budget", type=float, help="the amount of search per move, in seconds of one "
                       "core's playouts (a fixed count per game, default 1)")
    serve.add_argument("--bot-pace", type=float,
                       help="least time between two moves of one bot in real-time games (s, default 1)")
    serve.add_argument("--cluster-bus", metavar="URL",
                       help="join the cluster of the nodes over this PostgreSQL database and this "
                            "bus (nats://, redis://, postgresql://; $TAVOLO_CLUSTER_BUS); without "
                            "it the node runs alone")
    serve.add_argument("--node-id", metavar="ID", help="this node's id in logs, /api/health and "
                       "/metrics (1-40 of A-Za-z0-9_.-; $TAVOLO_NODE_ID; default <hostname>-<pid>)")
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="run N processes sharing every port (SO_REUSEPORT), a cluster of N "
                            "nodes: needs PostgreSQL and --cluster-bus (default 1)")
    cli_settings.add_setting_flags(serve)


def _matches_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    matches = sub.add_parser("matches", help="inspect, export and import saved matches").add_subparsers(
        dest="matches_command", required=True)
    listing = matches.add_parser("list", parents=[db], help="list matches, newest first")
    listing.add_argument("--game", help="only this game")
    listing.add_argument("--status", choices=MATCH_STATUSES, help="only matches in this status")
    listing.add_argument("--limit", type=int, default=100, help="at most this many (default 100)")
    listing.add_argument("--json", action="store_true", help="JSON instead of a table")
    show = matches.add_parser("show", parents=[db], help="one match in detail")
    show.add_argument("id", type=int, help="the match id")
    show.add_argument("--json", action="store_true", help="JSON instead of text")
    rep = matches.add_parser("replay", parents=[db],
                             help="check that the log reproduces the snapshot, or travel in time")
    rep.add_argument("id", type=int, help="the match id")
    rep.add_argument("--at", type=int, metavar="N", help="show the position after N actions")
    rep.add_argument("--moves", action="store_true",
                     help="print the readable move list (up to --at N, if given)")
    rep.add_argument("--json", action="store_true", help="with --at: the spectator view as JSON")
    export = matches.add_parser("export", parents=[db], help="write a match as one JSON document")
    export.add_argument("id", type=int, help="the match id")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    imp = matches.add_parser("import", parents=[db],
                             help="re-create an exported match and prove it by replay")
    imp.add_argument("file", help="the export document (- for stdin)")
    abort = matches.add_parser("abort", parents=[db], help="end a waiting or active match "
                               "without a winner (on a running server prefer the HTTP admin API: "
                               "its clients are told)")
    abort.add_argument("id", type=int, help="the match id")
    delete = matches.add_parser("delete", parents=[db],
                                help="delete a match with its seats and actions")
    delete.add_argument("id", type=int, help="the match id")


def _players_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    players = sub.add_parser("players", help="inspect players").add_subparsers(
        dest="players_command", required=True)
    plist = players.add_parser("list", parents=[db], help="list players, newest first")
    plist.add_argument("--bots", action="store_true", help="include computer players")
    plist.add_argument("--limit", type=int, default=100, help="at most this many (default 100)")
    plist.add_argument("--json", action="store_true", help="print JSON instead of a table")
    pshow = players.add_parser("show", parents=[db], help="one player and its matches")
    pshow.add_argument("player", help="the player's nickname, or #ID for its id")
    pshow.add_argument("--json", action="store_true", help="print JSON instead of text")
    cli_admin.add_player_changes(players, db)


def _bot_parser(bot: argparse.ArgumentParser) -> None:
    bot.add_argument("--url", default="ws://127.0.0.1:8080/ws", help="the server's canonical WebSocket")
    bot.add_argument("--game", required=True, help="the game to play")
    bot.add_argument("--matches", type=int, default=1, help="how many matches to play")
    bot.add_argument("--parallel", type=int, default=1, help="matches played at once")
    bot.add_argument("--level", choices=["random"], default="random",
                     help="how the external bots play (they see only their own view)")
    bot.add_argument("--against", metavar="LEVEL",
                     help="one external bot per match; server bots of LEVEL take the other seats")
    bot.add_argument("--seats", type=int, help="players per match (default: the game's least)")
    bot.add_argument("--options", type=_json_object, default={}, help="game options as JSON")
    bot.add_argument("--seed", type=int, help="seed of the bots' choices")


def _json_object(value: str) -> dict[str, Any]:
    try:
        found = json.loads(value)
    except ValueError:
        found = None
    if not isinstance(found, dict):
        raise argparse.ArgumentTypeError("expected a JSON object")
    return found


class _PipeClosed(Exception):
    """Whoever read our output stopped reading (``tavolo ... | head``). Not an OSError, so the
    commands' one-line store errors (cli_ops.guarded) let it through to :func:`main`."""


def _pipe_safe(run: Callable[[Store], Awaitable[int]]) -> Callable[[Store], Awaitable[int]]:
    async def go(store: Store) -> int:
        try:
            return await run(store)
        except BrokenPipeError as exc:
            raise _PipeClosed() from exc
    return go


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; output cut short by its reader (``| head``) ends it quietly."""
    try:
        code = _command(argv)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
        return code
    except (BrokenPipeError, _PipeClosed):
        # the rest of the output goes nowhere (Python's documented recipe for SIGPIPE)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _command(argv: Sequence[str] | None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(raw)
    if args.command == "bot":
        return _bot(args)
    if args.command == "schema":
        return cli_ops.schema(args)
    url = database_url_from_env(args.database_url)
    if args.command == "serve":
        return _serve(args, url, raw)
    if args.command == "db":
        return _with_store(url, _upgrade)
    if args.command == "ratings":
        return cli_ratings.run(args, url)
    if args.command == "players":
        if args.players_command in cli_admin.PLAYER_CHANGES:
            change = cli_admin.PLAYER_CHANGES[args.players_command]
            return _with_store(url, lambda store: change(store, args))
        run_players = {"list": list_players, "show": show_player,
                       "log": cli_admin.show_log}[args.players_command]
        return cli_ops.run_readonly(url, _pipe_safe(lambda store: run_players(store, args)))
    if args.matches_command == "import":
        doc = cli_ops.import_document(args, frozenset(LEVELS))
        if isinstance(doc, int):
            return doc
        return _with_store(url, lambda store: cli_ops.import_(store, doc, frozenset(LEVELS)),
                           migrate=True)
    handlers: dict[str, Callable[[Store], Awaitable[int]]] = {
        "list": lambda store: _list(store, args),
        "show": lambda store: _show(store, args),
        "replay": lambda store: _replay(store, args),
        "export": lambda store: cli_ops.export(store, args),
        "abort": lambda store: abort_match(store, args),
        "delete": lambda store: delete_match(store, args),
    }
    if args.matches_command == "list" and args.game is not None:
        known = sorted(g.name for g in all_games())
        if args.game not in known:
            print(f"tavolo matches list: unknown game {args.game!r} (games: {', '.join(known)})",
                  file=sys.stderr)
            return cli_ops.USAGE
    # every matches command but import works on an existing database and never creates one
    return cli_ops.run_readonly(url, _pipe_safe(handlers[args.matches_command]))


def _with_store(url: str, run: Callable[[Store], Awaitable[int]], *, migrate: bool = False) -> int:
    """A command that may write: the database is created and migrated if need be."""
    async def go() -> int:
        store = Store(cli_ops.checked_url(url))
        try:
            if migrate:
                await store.upgrade()
            return await run(store)
        finally:
            await store.close()

    return cli_ops.guarded(go)


async def _upgrade(store: Store) -> int:
    await store.upgrade()
    print(f"database at head: {store.url}")
    return 0


async def _list(store: Store, args: argparse.Namespace) -> int:
    records = await store.list_matches(game=args.game, status=args.status, limit=args.limit)
    rows = [match_summary(r) for r in records]
    return print_rows(rows, args.json, f"{'id':>6}  {'game':<12} {'status':<9} {'version':>7}  players",
                      lambda row: f"{row['id']:>6}  {row['game']:<12} {row['status']:<9} "
                                  f"{row['version']:>7}  {', '.join(row['players'])}")


async def _show(store: Store, args: argparse.Namespace) -> int:
    record = await store.get_match(args.id)
    if record is None:
        print(f"no match {args.id}", file=sys.stderr)
        return 1
    recent = await store.actions(record.id, after=max(record.version - 10, 0))
    if args.json:
        print(json.dumps(match_detail(record, recent, viewer=OPERATOR), indent=2))
        return 0
    print(render_detail(record, recent))
    return 0


async def _replay(store: Store, args: argparse.Namespace) -> int:
    if args.at is not None or args.moves:
        return await cli_ops.replay_at(store, args)
    record = await store.get_match(args.id)
    if record is None:
        print(f"no match {args.id}", file=sys.stderr)
        return 1
    difference = replay(record, await store.actions(record.id))
    if difference is None:
        print(f"match {record.id}: {record.version} actions replayed; the snapshot matches")
        return 0
    print(f"match {record.id}: replay differs: {difference}")
    return 1


def _bot(args: argparse.Namespace) -> int:
    plan = Plan(url=args.url, game=args.game, options=args.options, seats=args.seats,
                against=args.against, seed=args.seed)
    try:
        tally, seconds, ids = asyncio.run(run(plan, max(args.matches, 0), max(args.parallel, 1)))
    except (BotClientError, OSError, aiohttp.ClientError, asyncio.TimeoutError) as exc:
        print(f"tavolo bot: {exc or type(exc).__name__}", file=sys.stderr)
        return 1
    print(f"matches: {' '.join(map(str, ids))}")
    print(tally.summary(seconds))
    return 0


def serve_settings(args: argparse.Namespace, url: str) -> Settings:
    """Flags given on the command line, over TAVOLO_* variables, over the defaults. Raises
    ValueError (pydantic's ValidationError is one) or CliError with the reason."""
    flags = {"host": args.host, "http_port": args.http_port, "bot_workers": args.bot_workers,
             "bot_budget": args.bot_budget, "bot_pace": args.bot_pace,
             "heartbeat_scale": 100.0 if args.hand_testing else None,
             "listen": dict(args.listen) or None, "cluster_bus": args.cluster_bus,
             "node_id": args.node_id}
    try:
        settings = Settings(**{**dict(args.set), **cli_settings.setting_flags(args),
                               **{k: v for k, v in flags.items() if v is not None},
                               "database_url": cli_ops.checked_url(url)})
    except ValidationError as exc:
        raise ValueError(format_validation_error(exc)) from None
    listening_dialects(settings)
    return settings


def log_options(args: argparse.Namespace) -> tuple[str, str]:
    """(level, format): the flags, else TAVOLO_LOG_LEVEL and TAVOLO_LOG_FORMAT, else INFO and
    text. A bad variable is a ValueError naming it."""
    level = args.log_level or os.environ.get("TAVOLO_LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ValueError(f"TAVOLO_LOG_LEVEL={level!r}: expected one of {', '.join(LOG_LEVELS)}")
    log_format = args.log_format or os.environ.get("TAVOLO_LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise ValueError(f"TAVOLO_LOG_FORMAT={log_format!r}: expected one of {', '.join(LOG_FORMATS)}")
    return level, log_format


def _serve(args: argparse.Namespace, url: str, argv: Sequence[str]) -> int:
    try:
        settings = serve_settings(args, url)
        bus = cli_workers.check_cluster(settings, args.workers)
        node = node_id_of(settings)
        args.log_level, args.log_format = log_options(args)
        # a port another process holds is named before anything is migrated or announced
        check_ports(settings.host, _ports(settings), reuse_port=settings.reuse_port)
    except (ValueError, cli_ops.CliError, PortBusy) as exc:
        print(f"tavolo serve: {exc}", file=sys.stderr)
        return 2
    if args.workers > 1:  # this process only supervises; each worker is a node
        configure_logging(args.log_level, args.log_format, node)
        return cli_workers.run_workers(argv, settings, _dialect_ports(settings), args.workers,
                                       node)
    try:  # SQLite is single-process: a second serve on the same file is refused
        serve_lock = lock_for_serve(settings.database_url)
    except ServeLockError as exc:
        print(f"tavolo serve: {exc}", file=sys.stderr)
        return 2
    configure_logging(args.log_level, args.log_format, node)
    logging.getLogger("service").info("node %s (cluster bus: %s)", node, bus)
    try:
        return cli_ops.guarded(lambda: _run_server(settings))
    finally:
        if serve_lock is not None:
            serve_lock.release()


def _dialect_ports(settings: Settings) -> dict[str, int]:
    """Each listening dialect's name -> its port (0: any free port)."""
    return {d.name: port for d, port in listening_dialects(settings).items()}


def _ports(settings: Settings) -> dict[str, int]:
    """Listener name -> the fixed port it will take (any free port, 0, is never busy)."""
    ports = {"http": settings.http_port, **_dialect_ports(settings)}
    return {name: port for name, port in ports.items() if port}


async def _run_server(settings: Settings) -> int:
    # SIGTERM from the first moment: one that comes while starting up stops the server as soon
    # as it has started, cleanly, instead of killing the process before the handler is in
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    app = create_app(settings)
    # a request head within http_header_timeout; a request running at shutdown bounded too
    runner = web.AppRunner(app, handle_signals=False, access_log_class=QuietHealthAccessLogger,
                           **runner_options(settings.http_header_timeout))
    try:
        await runner.setup()
    except BaseException:
        await runner.cleanup()
        raise
    site = GatedSite(runner, settings.host, settings.http_port,
                     gate(settings, "http", app[DESCRIPTORS]), reuse_port=settings.reuse_port)
    await site.start()
    logging.getLogger("service").info("listening: http on %s", _site_address(site))
    await stop.wait()
    logging.getLogger("service").info("shutting down")
    await runner.cleanup()
    return 0


def _site_address(site: web.BaseSite) -> Any:
    server = site._server  # aiohttp keeps the asyncio server here; we only read its socket
    if server is not None and getattr(server, "sockets", None):
        host, port = server.sockets[0].getsockname()[:2]
        return f"{host}:{port}"
    return site.name
