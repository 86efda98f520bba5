"""A player's account over HTTP, ``/api/account/...`` (docs/protocol.md, "Accounts"): sign in
with a nickname and password, or a recovery code, from any device; then, with that device's
token as ``Authorization: Bearer <token>``, protect the nickname, get a recovery code, see and
revoke devices, sign out. The same hub calls as the canonical protocol's."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from service.errors import ProtocolError, SessionError
from service.games.base import format_validation_error
from service.gateway import api_models as models
from service.gateway.admin_http import bearer
from service.gateway.api_errors import number
from service.gateway.keys import HUB
from service.sessions.accounts import device_words, player_words
from service.sessions.hub import Identity

MAX_SECRET = 128


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SignIn(_Body):
    nickname: str = Field(min_length=1, max_length=32)
    password: str = Field(min_length=1, max_length=128)
    device: str | None = Field(default=None, max_length=100)


class Recover(_Body):
    nickname: str = Field(min_length=1, max_length=32)
    code: str = Field(min_length=1, max_length=64)
    password: str | None = Field(default=None, max_length=128)
    device: str | None = Field(default=None, max_length=100)


class SetPassword(_Body):
    password: str = Field(max_length=128)
    old_password: str | None = Field(default=None, max_length=128)


async def _body(request: web.Request, model: type[_Body]) -> Any:
    try:
        return model.model_validate_json(await request.read())
    except ValidationError as exc:
        raise ProtocolError(format_validation_error(exc), code="protocol/bad_message") from None


async def _signed_in(request: web.Request) -> Identity:
    """The player whose device token the request carries (401 without one)."""
    token = bearer(request)
    if token is None:
        raise SessionError("send your token as 'Authorization: Bearer <token>'",
                           code="session/token_required")
    if len(token) > MAX_SECRET:
        raise SessionError("unknown token", code="session/bad_token")
    return await request.app[HUB].identify(token=token)


def _issued(identity: Identity) -> web.Response:
    return models.reply(models.Issued, {"token": identity.new_token,
                                        "player": player_words(identity.player)})


async def sign_in(request: web.Request) -> web.Response:
    body: SignIn = await _body(request, SignIn)
    hub = request.app[HUB]
    with hub.limits.client_scope(request.remote):
        return _issued(await hub.identify(nickname=body.nickname, password=body.password,
                                          device=body.device or request.headers.get("User-Agent")))


async def recover(request: web.Request) -> web.Response:
    body: Recover = await _body(request, Recover)
    hub = request.app[HUB]
    with hub.limits.client_scope(request.remote):
        return _issued(await hub.identify(nickname=body.nickname, recovery_code=body.code,
                                          password=body.password,
                                          device=body.device or request.headers.get("User-Agent")))


async def account(request: web.Request) -> web.Response:
    me = await _signed_in(request)
    accounts = request.app[HUB].accounts
    devices = await accounts.devices(me.player)
    current = await accounts.current_device(me.token_hash)
    return models.reply(models.AccountView, {
        "player": {**player_words(me.player), "created_at": me.player.created_at.isoformat()},
        "devices": [device_words(d, current=d.id == current) for d in devices],
        "current_device": current})


async def set_password(request: web.Request) -> web.Response:
    me = await _signed_in(request)
    body: SetPassword = await _body(request, SetPassword)
    await request.app[HUB].accounts.set_password(me.player, body.password, body.old_password)
    return models.reply(models.PasswordSet, {"password": True})


async def recovery_code(request: web.Request) -> web.Response:
    me = await _signed_in(request)
    code = await request.app[HUB].accounts.new_recovery_code(me.player)
    return models.reply(models.RecoveryCode, {"code": code})


async def revoke_device(request: web.Request) -> web.Response:
    me = await _signed_in(request)
    device_id = number(request.match_info["device_id"], "a device id")
    await request.app[HUB].accounts.revoke(me.player, device_id)
    return models.reply(models.Revoked, {"device_id": device_id, "revoked": True})


async def sign_out(request: web.Request) -> web.Response:
    me = await _signed_in(request)
    await request.app[HUB].accounts.sign_out(me.player, me.token_hash or "")
    return models.reply(models.SignedOut, {"signed_out": True})


def add_routes(app: web.Application) -> None:
    app.router.add_post("/api/account/sign-in", sign_in)
    app.router.add_post("/api/account/recover", recover)
    app.router.add_get("/api/account", account)
    app.router.add_post("/api/account/password", set_password)
    app.router.add_post("/api/account/recovery-code", recovery_code)
    app.router.add_delete("/api/account/devices/{device_id}", revoke_device)
    app.router.add_post("/api/account/sign-out", sign_out)
