"""The admin API's throttle of wrong admin tokens per address (sessions/throttle.py)."""

from __future__ import annotations

from aiohttp import web

from service.sessions.throttle import FailureThrottle

AdminThrottle = FailureThrottle
ADMIN_THROTTLE = web.AppKey("admin_throttle", FailureThrottle)


def address_of(request: web.Request) -> str:
    return request.remote or "?"
