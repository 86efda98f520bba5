"""The operator's commands of the CLI: matches abort/delete, players list/show, and what
operators do to players: reset, rename, ban, unban, and the log of it."""

from __future__ import annotations

import argparse
import getpass
import json
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from service.errors import SessionError
from service.inspection import operator_entry, player_detail, player_summary
from service.sessions.hub import Hub
from service.store import PlayerRecord, Store
from service.store.models import MATCH_STATUSES


async def abort_match(store: Store, args: argparse.Namespace) -> int:
    """Abort through a hub of this process: saved like the server would (a running server's
    clients are not told; its next action on the match is refused and it reloads)."""
    try:
        await Hub(store).lifecycle.abort(args.id, by="admin")
    except SessionError as exc:
        print(f"match {args.id}: {exc.message}", file=sys.stderr)
        return 1
    print(f"match {args.id} aborted")
    return 0


async def delete_match(store: Store, args: argparse.Namespace) -> int:
    if not await Hub(store).lifecycle.delete(args.id):
        print(f"no match {args.id}", file=sys.stderr)
        return 1
    print(f"match {args.id} deleted")
    return 0


def print_rows(rows: list[dict[str, Any]], as_json: bool, header: str,
               line: Callable[[dict[str, Any]], str]) -> int:
    """A listing: JSON, or a header and one line per row."""
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    print(header)
    for row in rows:
        print(line(row))
    return 0


async def list_players(store: Store, args: argparse.Namespace) -> int:
    rows = [player_summary(p) for p in await store.list_players(limit=args.limit, bots=args.bots)]
    return print_rows(rows, args.json, f"{'id':>6}  {'nickname':<32} {'token':<5} {'bot':<8} last seen",
                      lambda row: f"{row['id']:>6}  {row['nickname']:<32} "
                                  f"{'yes' if row['protected'] else 'no':<5} "
                                  f"{row['bot'] or '-':<8} {row['last_seen_at'] or '-'}")


async def find_player(store: Store, name: str) -> PlayerRecord | None:
    """``#12`` is the player with id 12; anything else a nickname."""
    if name.startswith("#") and name[1:].isdigit():
        return await store.player_by_id(int(name[1:]))
    return await store.player_by_nickname(name)


async def show_player(store: Store, args: argparse.Namespace) -> int:
    player = await find_player(store, args.player)
    if player is None:
        print(f"no player {args.player!r}", file=sys.stderr)
        return 1
    detail = player_detail(player, await store.matches_of_player(player.id, statuses=MATCH_STATUSES))
    if args.json:
        print(json.dumps(detail, indent=2))
        return 0
    print(f"player {detail['id']}  {detail['nickname']}  token {'yes' if detail['protected'] else 'no'}"
          f"  bot {detail['bot'] or '-'}\n  created {detail['created_at']}"
          f"  last seen {detail['last_seen_at']}")
    for m in detail["matches"]:
        print(f"  match {m['id']:>6}  {m['game']:<12} {m['status']:<9} seat {m['seat']}"
              f"  version {m['version']}")
    return 0


# --- what operators do to players (logged with who did it) --------------------------------

def add_player_changes(players: Any, db: argparse.ArgumentParser) -> None:
    """``players reset|rename|ban|unban|log`` under the ``players`` command."""
    def change(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = players.add_parser(name, parents=[db], help=help_text)
        parser.add_argument("player", help="the player's nickname, or #ID for its id")
        parser.add_argument("--by", help="who does it, for the operators' log "
                                         "(default: this user on this host)")
        return parser

    change("reset", "clear the player's password and devices; print a new recovery code")
    change("rename", "give the player a new nickname").add_argument(
        "nickname", help="the new nickname (the one nickname rule applies)")
    change("ban", "ban the player: refused everywhere, their matches go on without them"
           ).add_argument("--reason", required=True, help="why (shown to the player)")
    change("unban", "lift the player's ban")
    log = players.add_parser("log", parents=[db], help="what operators did to players")
    log.add_argument("--player", help="only this player (nickname or #ID)")
    log.add_argument("--limit", type=int, default=100, help="at most this many (default 100)")
    log.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _operator(args: argparse.Namespace) -> str:
    return f"{args.by or getpass.getuser()} (CLI on {socket.gethostname()})"


async def _changed(store: Store, args: argparse.Namespace,
                   change: Callable[[Hub, PlayerRecord, str], Awaitable[str]]) -> int:
    player = await find_player(store, args.player)
    if player is None:
        print(f"no player {args.player!r}", file=sys.stderr)
        return 1
    try:
        print(await change(Hub(store), player, _operator(args)))
    except SessionError as exc:
        print(f"player {args.player}: {exc.message} ({exc.code})", file=sys.stderr)
        return 1
    return 0


async def reset_player(store: Store, args: argparse.Namespace) -> int:
    async def reset(hub: Hub, player: PlayerRecord, operator: str) -> str:
        code = await hub.reset_player(player, operator=operator)
        return (f"player {player.id} ({player.nickname}): password and devices cleared\n"
                f"recovery code (give it to the player; it is shown once): {code}")
    return await _changed(store, args, reset)


async def rename_player(store: Store, args: argparse.Namespace) -> int:
    async def rename(hub: Hub, player: PlayerRecord, operator: str) -> str:
        nickname = await hub.rename(player, args.nickname, operator=operator)
        return f"player {player.id} is now {nickname!r}"
    return await _changed(store, args, rename)


async def ban_player(store: Store, args: argparse.Namespace) -> int:
    async def ban(hub: Hub, player: PlayerRecord, operator: str) -> str:
        await hub.ban(player, args.reason, operator=operator)
        return f"player {player.id} ({player.nickname}) banned: {args.reason}"
    return await _changed(store, args, ban)


async def unban_player(store: Store, args: argparse.Namespace) -> int:
    async def unban(hub: Hub, player: PlayerRecord, operator: str) -> str:
        await hub.unban(player, operator=operator)
        return f"player {player.id} ({player.nickname}) is no longer banned"
    return await _changed(store, args, unban)


PLAYER_CHANGES = {"reset": reset_player, "rename": rename_player, "ban": ban_player,
                  "unban": unban_player}


async def show_log(store: Store, args: argparse.Namespace) -> int:
    player_id = None
    if args.player is not None:
        player = await find_player(store, args.player)
        if player is None:
            print(f"no player {args.player!r}", file=sys.stderr)
            return 1
        player_id = player.id
    rows = [operator_entry(e) for e in await store.operator_log(player_id=player_id,
                                                                limit=args.limit)]
    return print_rows(rows, args.json, f"{'at':<32} {'what':<7} {'player':>6}  operator",
                      lambda row: f"{row['at']:<32} {row['what']:<7} {row['player_id']:>6}  "
                                  f"{row['operator']}  {json.dumps(row['detail'] or {})}")
