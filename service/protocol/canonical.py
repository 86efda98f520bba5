"""The canonical protocol: JSON over WebSocket, one message set for every game.

Every message is a JSON object with a ``type`` tag. Client commands may carry an
``id`` (a string of Unicode text or a signed 64-bit integer); every answer to a command repeats
it as ``re``.
The reference, with an example session, is docs/protocol.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from service.errors import ProtocolError
from service.games.base import format_validation_error
from service.protocol.jsonwire import lone_surrogates, read_json, valid_text

#: the integers an ``id`` may be: what every encoder (orjson's too) writes back exactly
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
#: the longest string ``id`` a message that did not validate has echoed as ``re``
MAX_ECHOED_ID = 128


def _echoable(value: int | str | None) -> int | str | None:
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        raise ValueError("an integer id must fit in 64 bits (signed)")
    if isinstance(value, str) and not valid_text(value):
        raise ValueError("a string id must be Unicode text (no lone surrogate)")
    return value


#: a command's ``id``, echoed as ``re``: only what the encoder can write back
CorrelationId = Annotated[int | str | None, AfterValidator(_echoable)]
#: a match id as the store can hold it
MatchId = Annotated[int, Field(ge=1, le=2**31 - 1)]
MAX_MESSAGE_BYTES = 64 * 1024


class _Msg(BaseModel):
    # strict: JSON true is not match 1 and "5" is not 5
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class _Command(_Msg):
    id: CorrelationId = None


# --- client to server -------------------------------------------------------------


class Hello(_Command):
    """Identify: a known ``token`` reclaims a player; a new ``nickname`` gets a token.
    The nickname of a player first seen on a dialect without tokens reaches that player;
    ``claim`` then gives it its first token (README, "Identity")."""

    type: Literal["hello"]
    nickname: str | None = Field(default=None, min_length=1, max_length=32)
    token: str | None = Field(default=None, max_length=128)
    claim: bool = False
    #: with ``nickname``: sign in as a new device; with ``recovery_code`` too: the new password
    password: str | None = Field(default=None, min_length=1, max_length=128)
    #: with ``nickname``: spend the one-time recovery code for a new device
    recovery_code: str | None = Field(default=None, min_length=1, max_length=64)
    #: what to call this device in the player's list of devices ("Firefox on Linux")
    device: str | None = Field(default=None, max_length=100)
    #: every ``state`` and ``update`` then brings this connection's seat its legal actions
    #: while it is to act (no ``legal`` request needed)
    push_legal: bool = False


#: the name of a bot level ("random", "mcts")
BotLevel = Annotated[str, Field(min_length=1, max_length=32)]


class Create(_Command):
    type: Literal["create"]
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = Field(default=None, ge=1, le=8)
    seat: int | None = Field(default=None, ge=0)
    #: a private match: the answer carries its invitation code, which joining it takes
    private: bool = False
    #: one bot level per seat that computer players take (the seats the creator leaves free)
    bots: list[BotLevel] = Field(default_factory=list, max_length=8)
    #: a time control: ``{kind: "per_move", seconds}`` or ``{kind: "total", seconds,
    #: increment?}`` (docs/protocol.md, "Clocks"); none by default
    clock: dict[str, Any] | None = None


class Join(_Command):
    type: Literal["join"]
    match_id: MatchId
    seat: int | None = Field(default=None, ge=0)
    invite: str | None = Field(default=None, max_length=128)


class QuickJoin(_Command):
    type: Literal["quick_join"]
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = Field(default=None, ge=1, le=8)
    #: a bot level: computer players take every seat still free once you sit
    bots: BotLevel | None = None
    #: only a waiting match with this time control (or a new one with it)
    clock: dict[str, Any] | None = None


class Act(_Command):
    type: Literal["act"]
    match_id: MatchId
    action: dict[str, Any]
    client_id: str = Field(min_length=1, max_length=64)
    version: int | None = Field(default=None, ge=0)


class Watch(_Command):
    type: Literal["watch"]
    match_id: MatchId
    since: int | None = Field(default=None, ge=0)
    invite: str | None = Field(default=None, max_length=128)


class Resume(_Command):
    type: Literal["resume"]
    match_id: MatchId
    since: int | None = Field(default=None, ge=0)


class Rematch(_Command):
    type: Literal["rematch"]
    match_id: MatchId


class Leave(_Command):
    type: Literal["leave"]
    match_id: MatchId


class Resign(_Command):
    """Give up a match of two sides: the other side wins."""

    type: Literal["resign"]
    match_id: MatchId


class OfferDraw(_Command):
    """Offer a draw, or accept the one offered (games with draws only): when every side has
    offered, the match ends drawn."""

    type: Literal["offer_draw"]
    match_id: MatchId


class DeclineDraw(_Command):
    type: Literal["decline_draw"]
    match_id: MatchId


class Claim(_Command):
    """Claim the win over a side away longer than the game's grace (two sides only)."""

    type: Literal["claim"]
    match_id: MatchId


class Legal(_Command):
    type: Literal["legal"]
    match_id: MatchId


class Ping(_Command):
    type: Literal["ping"]


class SetPassword(_Command):
    """Protect the nickname with a password (``old_password``: the one it has, if any)."""

    type: Literal["set_password"]
    password: str = Field(max_length=128)
    old_password: str | None = Field(default=None, max_length=128)


class RecoveryCode(_Command):
    """A new one-time recovery code, shown once (it replaces any earlier one)."""

    type: Literal["recovery_code"]


class Devices(_Command):
    type: Literal["devices"]


class RevokeDevice(_Command):
    type: Literal["revoke_device"]
    device_id: int = Field(ge=1, le=2**31 - 1)


class SignOut(_Command):
    """This connection's token stops working (its device is revoked)."""

    type: Literal["sign_out"]


#: open matches a lobby page holds by default, and at most (the HTTP lobby's too)
LOBBY_PAGE = 50
LOBBY_MAX_PAGE = 200


class Lobby(_Command):
    """The open matches of every game; ``subscribe`` keeps them coming as they change."""

    type: Literal["lobby"]
    subscribe: bool = True
    #: which page of the fair order to answer (pushes always bring the first page)
    offset: int = Field(default=0, ge=0, le=1_000_000)
    limit: int = Field(default=LOBBY_PAGE, ge=1, le=LOBBY_MAX_PAGE)


ClientMessage = Annotated[
    Hello | Create | Join | QuickJoin | Act | Watch | Resume | Rematch | Leave | Legal | Ping
    | Lobby | Resign | Claim | SetPassword | RecoveryCode | Devices | RevokeDevice | SignOut
    | OfferDraw | DeclineDraw,
    Field(discriminator="type"),
]
_client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> ClientMessage:
    """One client frame to a command; ProtocolError with a stable code otherwise."""
    size = len(text.encode("utf-8", errors="surrogatepass")) if isinstance(text, str) else len(text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("message too large", code="protocol/frame_too_long")
    data = read_json(text)
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object", code="protocol/bad_message")
    if lone_surrogates(text, data):  # nothing could echo, show or store it
        raise ProtocolError("strings must be Unicode text (a \\u escape of a lone surrogate "
                            "is not)", code="protocol/bad_message", re=correlation_of(data))
    try:
        return _client_adapter.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(format_validation_error(exc), code="protocol/bad_message",
                            re=correlation_of(data)) from None


def correlation_of(data: dict[str, Any]) -> CorrelationId:
    """The ``id`` of a message that did not validate, when it can be echoed as ``re``:
    an integer of 64 bits (JSON true is none), or a string of Unicode text of at most
    MAX_ECHOED_ID characters."""
    found = data.get("id")
    if isinstance(found, bool):
        return None
    if isinstance(found, int):
        return found if INT64_MIN <= found <= INT64_MAX else None
    if isinstance(found, str):
        return found if len(found) <= MAX_ECHOED_ID and valid_text(found) else None
    return None


# --- server to client -------------------------------------------------------------


class Welcome(_Msg):
    type: Literal["welcome"] = "welcome"
    re: CorrelationId = None
    player: dict[str, Any]
    token: str | None = None
    matches: list[dict[str, Any]] = Field(default_factory=list)


class Ok(_Msg):
    type: Literal["ok"] = "ok"
    re: CorrelationId = None
    result: dict[str, Any] = Field(default_factory=dict)


class Ack(_Msg):
    type: Literal["ack"] = "ack"
    re: CorrelationId = None
    match_id: MatchId
    client_id: str
    version: int
    duplicate: bool = False


class Error(_Msg):
    type: Literal["error"] = "error"
    re: CorrelationId = None
    code: str
    message: str
    details: dict[str, Any] | None = None


class State(_Msg):
    """A full picture of a match as one seat (or a spectator) may see it."""

    type: Literal["state"] = "state"
    match_id: MatchId
    game: str
    version: int
    status: str
    seats: list[dict[str, Any]]
    you: int | None
    to_act: list[int]
    view: dict[str, Any]
    outcome: dict[str, Any] | None = None
    rematch_id: int | None = None
    #: your legal actions, when you are to act and said ``hello {push_legal: true}``
    legal: list[dict[str, Any]] | None = None
    #: seconds a seat must be away before the others may claim over it (``Game.abandon_grace``);
    #: an away seat of an active match says ``away_for`` and ``claim_in`` (seconds)
    claim_grace: float | None = None
    #: how the match ended in words for you (``outcome`` is for programs)
    outcome_said: list[str] | None = None
    #: the clocks, when the match has a time control: each seat's seconds left as of ``at``
    #: and the seats whose time runs from then (docs/protocol.md, "Clocks")
    clock: dict[str, Any] | None = None
    #: in a game with draws by agreement: the seats that offer one now
    draw_offers: list[int] | None = None


class Update(_Msg):
    """One applied action, in order; ``version`` grows by one each time."""

    type: Literal["update"] = "update"
    match_id: MatchId
    version: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    to_act: list[int]
    status: str
    view: dict[str, Any]
    outcome: dict[str, Any] | None = None
    #: your legal actions, when you are to act and said ``hello {push_legal: true}``
    legal: list[dict[str, Any]] | None = None
    #: what happened, in words, as your seat may know it (the game's ``describe``): one
    #: sentence per event worth telling, squares numbered as the boards label them
    said: list[str] = Field(default_factory=list)
    #: with ``outcome``: how the match ended, in words for you
    outcome_said: list[str] | None = None
    #: the clocks after this action (a match with a time control)
    clock: dict[str, Any] | None = None


class CaughtUp(_Msg):
    """The actions a reconnecting client missed (a ``state`` follows)."""

    type: Literal["caught_up"] = "caught_up"
    match_id: MatchId
    since: int
    version: int
    actions: list[dict[str, Any]]


class Presence(_Msg):
    type: Literal["presence"] = "presence"
    match_id: MatchId
    seat: int
    present: bool
    nickname: str | None = None


class RematchNotice(_Msg):
    type: Literal["rematch"] = "rematch"
    match_id: MatchId
    agreed: list[int]
    new_match_id: int | None = None


class EndedNotice(_Msg):
    """The match ended outside the game (resigned, claimed after an absence, aborted);
    a ``state`` follows."""

    type: Literal["ended"] = "ended"
    match_id: MatchId
    status: str
    outcome: dict[str, Any]


class StandInNotice(_Msg):
    """A server-side bot of ``level`` now plays the away ``seat`` (after a claim in a game of
    more than two sides); ``level`` null: its player is back. A ``state`` follows."""

    type: Literal["stand_in"] = "stand_in"
    match_id: MatchId
    seat: int
    level: str | None
    nickname: str | None = None


class DrawNotice(_Msg):
    """The seats that offer a draw now (empty: the offers were declined). An action answers
    an offer: a client forgets the offers at every ``update``."""

    type: Literal["draw"] = "draw"
    match_id: MatchId
    offered: list[int]


class LobbyNotice(_Msg):
    """The open matches again, pushed to a ``lobby`` subscriber whenever they change."""

    type: Literal["lobby"] = "lobby"
    matches: list[dict[str, Any]]


class Pong(_Msg):
    type: Literal["pong"] = "pong"
    re: CorrelationId = None


ServerMessage = (Welcome | Ok | Ack | Error | State | Update | CaughtUp | Presence | RematchNotice | Pong
                 | LobbyNotice | EndedNotice | StandInNotice | DrawNotice)


#: fields sent even when null, because null means something there (``you``: a spectator;
#: a stand-in's ``level``: the player is back)
_KEEP_NULL = {"you", "level"}


def encode(message: ServerMessage) -> str:
    """The JSON text of a server message: null fields left out (but those of ``_KEEP_NULL``).

    The fields hold plain JSON values already (views, actions and events are JSON data by the
    game contract), so orjson writes them from the model as they stand: a fifth to a
    tenth of the cost of ``model_dump(mode="json")``, which walks and copies every view."""
    data = {name: value for name, value in message.__dict__.items()
            if value is not None or name in _KEEP_NULL}
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def encode_ack(*, re: CorrelationId, match_id: int, client_id: str, version: int,
               duplicate: bool = False) -> str:
    """The JSON text of an ``ack``, the same as ``encode(Ack(...))`` writes, without the
    model (one per action; its values come from a command already validated)."""
    data: dict[str, Any] = {"type": "ack"}
    if re is not None:
        data["re"] = re
    data.update(match_id=match_id, client_id=client_id, version=version, duplicate=duplicate)
    return orjson.dumps(data).decode()


def encode_update(*, match_id: int, version: int, seat: int, action: dict[str, Any],
                  events: list[dict[str, Any]], to_act: list[int], status: str,
                  view: dict[str, Any], outcome: dict[str, Any] | None = None,
                  legal: list[dict[str, Any]] | None = None, said: list[str] | None = None,
                  outcome_said: list[str] | None = None,
                  clock: dict[str, Any] | None = None) -> str:
    """The JSON text of an ``update``, the same as ``encode(Update(...))`` writes, built
    without the model: the hot path sends one to every listener of every action, and its
    values are the match's own JSON data (the game contract), which the model would only
    check and copy again. A test holds the two to the same text."""
    data: dict[str, Any] = {"type": "update", "match_id": match_id, "version": version,
                            "seat": seat, "action": action, "events": events, "to_act": to_act,
                            "status": status, "view": view}
    if outcome is not None:
        data["outcome"] = outcome
    if legal is not None:
        data["legal"] = legal
    data["said"] = [] if said is None else said
    if outcome_said is not None:
        data["outcome_said"] = outcome_said
    if clock is not None:
        data["clock"] = clock
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
