"""Export and import of whole matches: one JSON document with everything needed to replay one.

The document holds the game, options, seed, seats (with nicknames), every action, the result,
the version, and the Tavolo version that wrote it. ``import_match`` replays the document from
its seed with the game's engine before it writes anything, so a document that does not replay
(or whose result the replay contradicts) changes nothing; after writing, the saved match is
replayed again from the store (``inspection.replay``) as the proof.

A document is hostile input like any client frame: :func:`load_document` reads at most
``MAX_DOCUMENT_BYTES`` nested at most ``jsonwire.MAX_DEPTH`` deep, the people's nicknames follow
the one nickname rule (``normalise_nickname``) and a computer seat's level must be one the caller
knows (the CLI passes the bots' levels): anything else is refused before anything is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from service.errors import ServiceError
from service.games.base import format_validation_error
from service.games.registry import get_game
from service.inspection import initial_state, replay
from service.protocol.jsonwire import load_json
from service.sessions.lifecycle import ENDED_OUTSIDE_RULES
from service.store import (MATCH_STATUSES, ActionRecord, MatchRecord, Store, Viewer,
                           normalise_nickname)

#: the layout of the export document; bumped when a field changes meaning
EXPORT_FORMAT = 1
#: the largest export document read (a long match's log is a few MB)
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


def tavolo_version() -> str:
    try:
        return version("tavolo")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


class ExportedSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0)
    label: str | None = None
    nickname: str | None = None
    team: int | None = None
    bot_level: str | None = None


class ExportedAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(ge=1)
    seat: int = Field(ge=0)
    action: dict[str, Any]
    at: str | None = None


class ExportDocument(BaseModel):
    """``matches export`` / ``GET /api/matches/{id}/export``; ``matches import`` reads it back."""

    model_config = ConfigDict(extra="forbid")
    format: int = EXPORT_FORMAT
    tavolo: str
    match_id: int
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    version: int = Field(ge=0)
    dialect: str | None = None
    seats: list[ExportedSeat] = Field(min_length=1)
    actions: list[ExportedAction]
    result: dict[str, Any] | None = None


class ImportRefused(ServiceError):
    """An export document that cannot be imported; nothing was written."""

    code = "import/refused"


def export_document(record: MatchRecord, log: list[ActionRecord]) -> dict[str, Any]:
    doc = ExportDocument(
        tavolo=tavolo_version(), match_id=record.id, game=record.game, options=record.options,
        seed=record.seed, status=record.status, version=record.version, dialect=record.dialect,
        seats=[ExportedSeat(seat=s.seat, label=s.label, nickname=s.nickname, team=s.team,
                            bot_level=s.bot_level) for s in record.seats],
        actions=[ExportedAction(seq=a.seq, seat=a.seat, action=a.action,
                                at=a.created_at.isoformat()) for a in log],
        result=record.result)
    return doc.model_dump(mode="json")


def load_document(data: bytes, *, limit: int = MAX_DOCUMENT_BYTES) -> Any:
    """The JSON value of an export document's bytes (read with at most ``limit + 1`` bytes, so
    a longer one is told from one of exactly ``limit``). ImportRefused, one line, when it is
    larger than ``limit``, not UTF-8, not JSON, or nested deeper than ``jsonwire.MAX_DEPTH``."""
    if len(data) > limit:
        raise ImportRefused(f"the document is larger than {limit} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportRefused(f"the document is not UTF-8 (byte {exc.start})") from None
    try:
        return load_json(text)
    except ServiceError as exc:  # "not valid JSON" or "JSON nested deeper than 32 levels"
        raise ImportRefused(f"not a Tavolo export: {exc.message}") from None


def parse_document(raw: Any, bot_levels: Collection[str]) -> ExportDocument:
    """The document checked field by field; ``bot_levels``: the levels a computer seat may
    have (anything else is refused, as a server bot of an unknown level could not play)."""
    try:
        doc = ExportDocument.model_validate(raw)
    except ValidationError as exc:
        raise ImportRefused(f"not a Tavolo export: {format_validation_error(exc)}") from exc
    if doc.format != EXPORT_FORMAT:
        raise ImportRefused(f"export format {doc.format} is not {EXPORT_FORMAT}")
    if doc.status not in MATCH_STATUSES:
        raise ImportRefused(f"status must be one of {', '.join(MATCH_STATUSES)}")
    if [a.seq for a in doc.actions] != list(range(1, len(doc.actions) + 1)):
        raise ImportRefused("the actions must be numbered 1, 2, 3, ... without gaps")
    if doc.version != len(doc.actions):
        raise ImportRefused(f"version {doc.version} but {len(doc.actions)} actions")
    if sorted(s.seat for s in doc.seats) != list(range(len(doc.seats))):
        raise ImportRefused("the seats must be numbered 0, 1, 2, ... without gaps")
    for seat in doc.seats:
        _check_seat(seat, bot_levels)
    return doc


def _check_seat(seat: ExportedSeat, bot_levels: Collection[str]) -> None:
    """A person's nickname follows the nickname rule (it is normalised in place); a computer
    seat has a known level."""
    if seat.bot_level is not None:
        if seat.bot_level not in bot_levels:
            known = ", ".join(sorted(bot_levels)) or "none"
            raise ImportRefused(f"seat {seat.seat}: no bot level {seat.bot_level!r} "
                                f"(levels: {known})")
        return
    if seat.nickname is not None:
        try:
            seat.nickname = normalise_nickname(seat.nickname)
        except ServiceError as exc:
            raise ImportRefused(f"seat {seat.seat}: nickname {seat.nickname!r} refused: "
                                f"{exc.message}") from None


def replayed_snapshots(doc: ExportDocument) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """Replay the document from its seed: the snapshot and result after each action. Raises
    ImportRefused when the game, options, seats or an action do not fit the engine, or when
    the replay's result is not the document's."""
    try:
        game = get_game(doc.game)
        state = initial_state(doc.game, len(doc.seats), doc.options, doc.seed)
        after: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
        for action in doc.actions:
            game.apply(state, action.seat, game.parse_action(action.action))
            outcome = game.outcome(state)
            after.append((game.dump_state(state), outcome.to_dict() if outcome else None))
    except ServiceError as exc:
        raise ImportRefused(f"the document does not replay: {exc.message}") from exc
    result = after[-1][1] if after else None
    # a finished match ends where the rules end it, or by a resignation or a claim (then the
    # replay reaches no outcome); an aborted one may carry a result given outside the rules,
    # which is kept as the document has it
    by_people = (doc.status == "finished" and result is None and doc.result is not None
                 and doc.result.get("reason") in ENDED_OUTSIDE_RULES)
    if doc.status == "finished" and not by_people and (result is None or result != doc.result):
        raise ImportRefused(f"the document says finished with {doc.result}, the replay ends "
                            f"with {result}")
    if doc.status != "finished" and result is not None:
        raise ImportRefused(f"the replay ends with {result} but the document says {doc.status}")
    if doc.status in ("waiting", "active") and doc.result is not None:
        raise ImportRefused(f"a {doc.status} match has no result")
    return after


async def import_match(store: Store, raw: Any, *,
                       bot_levels: Collection[str]) -> tuple[MatchRecord, str | None]:
    """Re-create an exported match as a new match; returns it and the replay check of the
    saved copy (None: the snapshot was reproduced). People's seats go to the player of the
    same nickname (created without a token if new), computer seats to new bots of a level
    in ``bot_levels``."""
    doc = parse_document(raw, bot_levels)
    after = replayed_snapshots(doc)
    game = get_game(doc.game)
    start = game.dump_state(initial_state(doc.game, len(doc.seats), doc.options, doc.seed))
    seats = [(s.seat, await _seat_player(store, s), s.team, s.label)
             for s in sorted(doc.seats, key=lambda s: s.seat)]
    record = await store.create_match(
        game=doc.game, options=doc.options, seed=doc.seed, seats=seats, snapshot=start,
        status="active", dialect=doc.dialect)
    for action, (snapshot, _) in zip(doc.actions, after):  # the state every few actions
        await store.append_action(record.id, seq=action.seq, seat=action.seat,
                                  action=action.action, status="active", result=None,
                                  snapshot=(snapshot if store.snapshot_due(action.seq, "active")
                                            else None))
    await store.set_status(record.id, doc.status, result=doc.result,  # and the last one whole
                           snapshot=after[-1][0] if after else start,
                           snapshot_version=len(doc.actions))
    saved = await store.get_match(record.id)
    assert saved is not None
    return saved, replay(saved, await store.actions(saved.id))


async def _seat_player(store: Store, seat: ExportedSeat) -> int | None:
    if seat.bot_level is not None:
        bot = await store.create_player(f"{seat.bot_level}-bot-{secrets.token_hex(4)}", None,
                                        bot_level=seat.bot_level)
        return bot.id
    if seat.nickname is None:
        return None
    return (await store.get_or_create_player(seat.nickname)).id


def move_list(record: MatchRecord, log: list[ActionRecord], *, viewer: Viewer) -> list[str]:
    """One readable line per action, as ``viewer`` may know it: number, seat (label and
    nickname), and the action."""
    game = get_game(record.game)
    names = {s.seat: s.nickname for s in record.seats}
    return [f"{a.seq:>4}. {game.seat_label(a.seat)}"
            f"{' (' + names[a.seat] + ')' if names.get(a.seat) else ''}: "
            f"{describe(a.seen_by(game, viewer)['action'])}"
            for a in log]


def describe(action: Any) -> str:
    """An action written compactly: its type first, then ``key=value`` for each field; a
    nested object (a square, a coordinate) is the tuple of its values, ``(2,0)``."""
    if isinstance(action, dict):
        head = str(action.get("type", action.get("kind", "")))
        rest = [f"{k}={_value(v)}" for k, v in action.items() if k not in ("type", "kind")]
        return " ".join(part for part in [head, *rest] if part)
    return _value(action)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "(" + ",".join(_value(v) for v in value.values()) + ")"
    if isinstance(value, list):
        return ",".join(_value(v) for v in value) if value else "-"
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = ["EXPORT_FORMAT", "MAX_DOCUMENT_BYTES", "ExportDocument", "ImportRefused", "describe",
           "export_document", "import_match", "load_document", "move_list", "parse_document"]
