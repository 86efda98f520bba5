"""What each ``/api`` route takes and answers, for the OpenAPI document (api_docs.py): its
request body (the pydantic model the route validates with), its query parameters with their
real types and ranges, who may call it (the bearer schemes), its success body (the model the
route's JSON is checked against, api_models.reply) and every status it answers with.

Path parameters are typed by name (openapi.PATH_PARAMETERS). A test (tests/gateway/test_openapi.py)
runs schemathesis against a live server with this document, and another checks that every
``/api`` route of the app has its entry here."""

from __future__ import annotations

from service.gateway import admin_http, http_account, http_create
from service.gateway import api_models as m
from service.gateway.openapi import FLAG, GAME, ID, Operation, Query
from service.store import MATCH_STATUSES, MAX_ID
from service.transfer import ExportDocument

def _limit(default: str, most: int | None = None, least: int = 0) -> Query:
    schema = {"type": "integer", "minimum": least, "maximum": MAX_ID if most is None else most}
    return Query("limit", schema, f"how many at most (default {default})")


OFFSET = Query("offset", ID, "how many to skip (default 0)")
INVITE = Query("invite", {"type": "string"},
               "a private match's invitation (or the X-Tavolo-Invite header)")
#: the errors of every route that reads a match as its caller may
READ = (400, 401, 404)

OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", "/api/health"): Operation(
        m.Health, more={503: m.Health | m.HealthUnavailable}),
    ("GET", "/api/games"): Operation(list[m.GameInfo]),
    ("GET", "/api/bots"): Operation(list[str]),
    ("GET", "/api/openapi.json"): Operation(m.JsonSchema),
    ("GET", "/api/schema/canonical.json"): Operation(m.JsonSchema),
    ("GET", "/api/games/{game}/actions.schema.json"): Operation(m.JsonSchema, (404,)),
    ("GET", "/api/lobby"): Operation(m.LobbyPage, (400,), query=(OFFSET, _limit("20"))),
    ("GET", "/api/matches"): Operation(
        list[m.MatchSummary], (400, 401, 404), security="reader", query=(
            Query("game", GAME, "only this game's"),
            Query("status", {"type": "string", "enum": list(MATCH_STATUSES)}, "only these"),
            OFFSET, _limit("100; more than 500 is 500"))),
    ("GET", "/api/matches/{match_id}"): Operation(
        m.MatchDetail, READ, security="reader", query=(INVITE,)),
    ("GET", "/api/matches/{match_id}/actions"): Operation(
        list[m.LoggedAction], READ, security="reader", query=(
            Query("after", ID, "only the actions after this version (default 0)"),
            _limit("500; more is 500"), INVITE)),
    ("GET", "/api/matches/{match_id}/at/{version}"): Operation(
        m.Position, READ, security="reader", query=(INVITE,)),
    ("GET", "/api/matches/{match_id}/moves"): Operation(
        list[m.MoveLine], READ, security="reader", query=(INVITE,)),
    ("GET", "/api/matches/{match_id}/export"): Operation(
        ExportDocument, (*READ, 409), security="reader", query=(INVITE,)),
    ("POST", "/api/matches"): Operation(
        m.Created, (400, 401, 403, 404, 429), status=201, body=http_create.NewMatch,
        security="player"),
    ("GET", "/api/players/{player_id}"): Operation(
        m.Profile, (400, 404), query=(OFFSET, _limit("20", 100, 1))),
    ("GET", "/api/leaderboards/{game}"): Operation(
        m.Leaderboard, (400, 404), query=(
            OFFSET, _limit("50", 100, 1),
            Query("provisional", FLAG, "1: the provisional ratings too"))),
    ("GET", "/api/ratings"): Operation(
        m.Ratings, (400, 404), query=(
            Query("game", GAME, "the game", required=True),
            Query("players", {"type": "array", "items": ID, "maxItems": 100},
                  "the players' ids (at most 100)", comma_list=True))),
    # --- accounts
    ("POST", "/api/account/sign-in"): Operation(
        m.Issued, (400, 401, 403, 429), body=http_account.SignIn,
        summary="Sign in with a nickname and its password: a new device token"),
    ("POST", "/api/account/recover"): Operation(
        m.Issued, (400, 401, 403, 429), body=http_account.Recover,
        summary="Sign in with a recovery code (and set a new password): a new device token"),
    ("GET", "/api/account"): Operation(
        m.AccountView, (401, 403), security="player",
        summary="The caller's account: the player and their devices"),
    ("POST", "/api/account/password"): Operation(
        m.PasswordSet, (400, 401, 403, 429), body=http_account.SetPassword, security="player",
        summary="Protect the nickname with a password (or change it: old_password)"),
    ("POST", "/api/account/recovery-code"): Operation(
        m.RecoveryCode, (400, 401, 403), security="player",
        summary="A new one-time recovery code (the old one stops working)"),
    ("DELETE", "/api/account/devices/{device_id}"): Operation(
        m.Revoked, (400, 401, 403, 404), security="player",
        summary="Revoke one of the caller's devices (its token stops working)"),
    ("POST", "/api/account/sign-out"): Operation(
        m.SignedOut, (401, 403), security="player",
        summary="Sign out: this device's token stops working"),
    # --- the admin API
    ("POST", "/api/admin/matches"): Operation(
        m.Created, (400, 404, 409), status=201, body=http_create.OperatorMatch,
        security="admin"),
    ("GET", "/api/admin/players"): Operation(
        list[m.PlayerSummary], (400,), security="admin", query=(
            OFFSET, _limit("100; more than 500 is 500"),
            Query("bots", FLAG, "1: the computer players too")),
        summary="Every player, oldest first"),
    ("GET", "/api/admin/players/{player_id}"): Operation(
        m.PlayerDetail, (400, 404), security="admin",
        summary="A player and the matches they hold a seat in"),
    ("GET", "/api/admin/matches/{match_id}/export"): Operation(
        ExportDocument, (400, 404), security="admin"),
    ("POST", "/api/admin/matches/{match_id}/abort"): Operation(
        m.MatchSummary, (400, 404, 409), security="admin",
        summary="Abort a match (its clients are told)"),
    ("DELETE", "/api/admin/matches/{match_id}"): Operation(
        m.Deleted, (400, 404, 409), security="admin",
        summary="Delete a match and its actions"),
    ("POST", "/api/admin/players/{player_id}/reset"): Operation(
        m.PlayerReset, (400, 404), body=admin_http.PlayerChange, security="admin"),
    ("POST", "/api/admin/players/{player_id}/rename"): Operation(
        m.Renamed, (400, 404, 409), body=admin_http.Rename, security="admin",
        summary="Give a player another nickname"),
    ("POST", "/api/admin/players/{player_id}/ban"): Operation(
        m.Banned, (400, 404, 409), body=admin_http.Ban, security="admin",
        summary="Ban a player: their matches end or get stand-ins, their connections close"),
    ("POST", "/api/admin/players/{player_id}/unban"): Operation(
        m.Unbanned, (400, 404, 409), body=admin_http.PlayerChange, security="admin",
        summary="Lift a player's ban"),
    ("GET", "/api/admin/log"): Operation(
        list[m.OperatorEntry], (400,), security="admin", query=(
            Query("player_id", ID, "only what was done to this player"),
            OFFSET, _limit("100; more than 500 is 500"))),
}
