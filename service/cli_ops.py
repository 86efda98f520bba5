"""The operator side of the CLI: opening a database read-only, one-line errors, export,
import, time travel and the JSON schemas. ``service.cli`` builds the parser and dispatches."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from service.errors import ServiceError
from service.games.registry import get_game
from service.inspection import position_at, state_after
from service.schemas import schema_document
from service.store import OPERATOR, Store
from service.store.engine import is_read_only_url, is_sqlite_url, normalise_url, read_only_url
from service.store.migrate import current_revision, head_revision
from service.transfer import (
    MAX_DOCUMENT_BYTES, ExportDocument, export_document, import_match, load_document, move_list,
    parse_document,
)

#: exit status of a usage or configuration error (argparse's own)
USAGE = 2


class CliError(Exception):
    """A one-line reason to stop, printed as ``tavolo: ...`` with exit status 2."""


def shown_url(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def checked_url(url: str) -> str:
    """The URL with its async driver, or CliError for what SQLAlchemy cannot use."""
    try:
        normalised = normalise_url(url)
        backend = make_url(normalised).get_backend_name()
    except (ValueError, ArgumentError) as exc:
        raise CliError(f"bad database URL {url!r}: {exc}") from None
    if backend not in ("sqlite", "postgresql"):
        raise CliError(f"unsupported database {backend!r} in {shown_url(normalised)}: "
                       "Tavolo runs on sqlite:// or postgresql://")
    return normalised


def store_failure(exc: BaseException) -> str:
    """One line for a store that cannot be opened: the driver's own first line if any."""
    cause = exc.__cause__ or exc.__context__ or exc
    if isinstance(cause, SQLAlchemyError) and getattr(cause, "orig", None) is not None:
        cause = cause.orig  # type: ignore[assignment]
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    return text


def writable(path: Path) -> bool:
    """Whether this process may write the SQLite file ``path`` and the files SQLite keeps
    beside it (``-wal``, ``-shm``, in the same folder)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


async def open_readonly(url: str) -> Store:
    """A store on an existing Tavolo database at the newest schema; never creates one."""
    url = checked_url(url)
    if is_sqlite_url(url):
        path = make_url(url).database
        if not path or path == ":memory:" or not Path(path).is_file():
            raise CliError(f"no database file at {path or '(memory)'}; nothing to read")
        if not writable(Path(path)):  # a backup: read as it is, nothing written beside it
            print(f"reading {shown_url(url)} (read-only)", file=sys.stderr)
            url = read_only_url(url)
    if not is_read_only_url(url):
        print(f"reading {shown_url(url)}", file=sys.stderr)
    try:
        revision = await current_revision(url)
    except (ServiceError, SQLAlchemyError, OSError) as exc:
        raise CliError(f"cannot read {shown_url(url)}: {store_failure(exc)}") from None
    if revision != head_revision():
        state = "no Tavolo schema" if revision is None else f"schema {revision}"
        raise CliError(f"{shown_url(url)} has {state}; run `tavolo db upgrade` first")
    return Store(url)


def run_readonly(url: str, handler: Callable[[Store], Awaitable[int]]) -> int:
    async def go() -> int:
        store = await open_readonly(url)
        try:
            return await handler(store)
        finally:
            await store.close()

    return guarded(go)


def guarded(make: Callable[[], Awaitable[int]]) -> int:
    """Run a command; a configuration or store failure is one line on stderr, exit 2."""
    try:
        return asyncio.run(make())  # type: ignore[arg-type]
    except CliError as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
    except (ServiceError, SQLAlchemyError, OSError) as exc:
        print(f"tavolo: {getattr(exc, 'message', '') or 'database error'}: {store_failure(exc)}",
              file=sys.stderr)
    return USAGE


async def _found(store: Store, match_id: int) -> Any:
    record = await store.get_match(match_id)
    if record is None:
        print(f"no match {match_id}", file=sys.stderr)
    return record


async def export(store: Store, args: argparse.Namespace) -> int:
    record = await _found(store, args.id)
    if record is None:
        return 1
    text = json.dumps(export_document(record, await store.actions(record.id)), indent=2)
    if args.output in (None, "-"):
        print(text)
    else:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        print(f"match {record.id} written to {args.output}", file=sys.stderr)
    return 0


def read_bounded(name: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """At most ``limit + 1`` bytes of the file ``name`` (``-``: stdin): enough to tell that a
    longer one (``/dev/zero``) is too long without reading it all."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(limit + 1)
        with open(name, "rb") as stream:
            return stream.read(limit + 1)
    except OSError as exc:
        raise CliError(f"cannot read {name}: {exc}") from None


def import_document(args: argparse.Namespace, bot_levels: Collection[str]) -> ExportDocument | int:
    """The document of ``matches import FILE``, read and checked before any database is
    opened, so a refused one leaves nothing behind (not even a new database file); an exit
    code when it is refused (one line on stderr). ``bot_levels``: the levels a computer seat
    may have."""
    try:
        return parse_document(load_document(read_bounded(args.file)), bot_levels)
    except CliError as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return USAGE
    except ServiceError as exc:
        print(f"tavolo: {exc.message}", file=sys.stderr)
        return 1


async def import_(store: Store, doc: ExportDocument, bot_levels: Collection[str]) -> int:
    """``matches import``: the checked document saved as a new match, then replayed."""
    try:
        record, difference = await import_match(store, doc, bot_levels=bot_levels)
    except ServiceError as exc:
        if exc.code.startswith("store/"):
            raise
        print(f"tavolo: {exc.message}", file=sys.stderr)
        return 1
    if difference is not None:
        print(f"match {record.id} imported but its replay differs: {difference}")
        return 1
    print(f"imported as match {record.id} ({record.game}, {record.status}, "
          f"{record.version} actions); replayed from the seed: the snapshot matches")
    return 0


async def replay_at(store: Store, args: argparse.Namespace) -> int:
    """``matches replay ID --at N``: the position after N actions (``--moves``: the move list)."""
    record = await _found(store, args.id)
    if record is None:
        return 1
    if args.at is not None and not 0 <= args.at <= record.version:
        print(f"--at must be from 0 to {record.version}", file=sys.stderr)
        return 1
    upto = record.version if args.at is None else args.at
    log = await store.actions(record.id, after=0, limit=upto) if upto else []
    if args.moves:
        print("\n".join(move_list(record, log, viewer=OPERATOR)) or "no actions yet")
        return 0
    position = position_at(record, log, viewer=OPERATOR)
    if args.json:
        print(json.dumps(position, indent=2))
        return 0
    print(f"match {record.id} after {upto} of {record.version} actions: {position['status']}")
    print("\n".join(move_list(record, log[-1:], viewer=OPERATOR)) if log else "(the start)")
    print(get_game(record.game).render(state_after(record, log)))
    return 0


def schema(args: argparse.Namespace) -> int:
    try:
        document = schema_document(args.what)
    except KeyError:
        print(f"tavolo: no schema {args.what!r}", file=sys.stderr)
        return USAGE
    print(json.dumps(document, indent=2))
    return 0
