"""Typed keys of the resources that live in the aiohttp application."""

from __future__ import annotations

from aiohttp import web

from service.bots.seats import BotSeats
from service.gateway.limits import ConnectionGate, DescriptorBudget
from service.gateway.tcp import TcpListener
from service.sessions.hub import Hub
from service.settings import Settings
from service.store import Store

SETTINGS = web.AppKey("settings", Settings)
STORE = web.AppKey("store", Store)
HUB = web.AppKey("hub", Hub)
#: the file descriptors the whole process may hold for connections (every listener's gate
#: counts against it, the HTTP port's for the WebSockets upgraded from its connections)
DESCRIPTORS = web.AppKey("descriptors", DescriptorBudget)
#: the WebSocket endpoints' connection limits
WS_GATE = web.AppKey("ws_gate", ConnectionGate)
#: dialect name -> its running TCP listener (``.port`` is the bound port)
LISTENERS = web.AppKey("listeners", dict[str, TcpListener])
#: the drivers of the bot seats of live matches
BOTS = web.AppKey("bots", BotSeats)
