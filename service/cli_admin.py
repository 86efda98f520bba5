"""The operator's commands of the CLI: matches abort/delete, players list/show."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from service.errors import SessionError
from service.inspection import player_detail, player_summary
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
