"""Typed keys of the resources that live in the aiohttp application."""

from __future__ import annotations

import asyncio

from aiohttp import web

from service.sessions.hub import Hub
from service.settings import Settings
from service.store import Store

SETTINGS = web.AppKey("settings", Settings)
STORE = web.AppKey("store", Store)
HUB = web.AppKey("hub", Hub)
#: dialect name -> its running TCP server (the real bound port is in its sockets)
LISTENERS = web.AppKey("listeners", dict[str, asyncio.Server])
