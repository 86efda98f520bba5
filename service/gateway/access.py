"""Who reads a match over HTTP, and what of it they may see.

A request names its reader with ``Authorization: Bearer <player token>`` (the canonical
``hello`` token) and may bring a private match's invitation as ``X-Tavolo-Invite`` (or the
``invite`` query parameter, as an invitation link carries it). A private match is shown to
its players, to whoever brings its invitation, and to nobody else: to anyone else it does not
exist (``session/no_such_match``, as for an id never used). Operators read every match through
the admin API and the CLI, never through these routes, so the admin token is only ever tried
where it is throttled (README, "What others see").
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from service.errors import SessionError
from service.gateway.api_errors import NoSuchMatch, match_id_of
from service.gateway.keys import STORE
from service.sessions.identity import admits, hash_token
from service.store import MatchRecord

INVITE_HEADER = "X-Tavolo-Invite"
#: longer than any token or invitation Tavolo issues: refused before it is hashed
MAX_SECRET = 128


@dataclass(frozen=True)
class Reader:
    """Who asks: a player (by id) or nobody known, with the invitation they bring."""

    player_id: int | None = None
    invite: str | None = None

    def seat_in(self, record: MatchRecord) -> int | None:
        """The reader's seat in ``record``: their view of its actions (None: a spectator)."""
        if self.player_id is None:
            return None
        return next((s.seat for s in record.seats if s.player_id == self.player_id), None)

    def may_read(self, record: MatchRecord) -> bool:
        return admits(record.invite_hash, self.seat_in(record) is not None, self.invite)


async def reader_of(request: web.Request) -> Reader:
    """The reader a request names. A token nobody holds is ``session/bad_token`` (401)."""
    invite = request.headers.get(INVITE_HEADER) or request.query.get("invite")
    if invite is not None and len(invite) > MAX_SECRET:
        invite = None  # no invitation is that long: it opens nothing
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return Reader(invite=invite)
    player = None
    if len(token) <= MAX_SECRET:
        player = await request.app[STORE].player_by_token_hash(hash_token(token))
    if player is None:
        raise SessionError("unknown token: send a player's token as 'Authorization: Bearer "
                           "<token>', or none", code="session/bad_token")
    return Reader(player.id, invite)


async def readable_match(request: web.Request) -> tuple[MatchRecord, Reader]:
    """The match of the route's ``match_id`` if the request's reader may read it, else
    ``session/no_such_match`` whether or not it exists."""
    reader = await reader_of(request)
    record = await request.app[STORE].get_match(match_id_of(request))
    if record is None or not reader.may_read(record):
        raise NoSuchMatch()
    return record, reader
