"""Dialect conversations: each seed protocol (and the canonical one) on top of the hub."""

from __future__ import annotations

from service.sessions.dialects.base import Conversation, Dialect
from service.sessions.dialects.canonical import DIALECT as CANONICAL
from service.sessions.dialects.dolphinfox import DIALECT as DOLPHINFOX
from service.sessions.dialects.eriantys_g13 import DIALECT as ERIANTYS_G13
from service.sessions.dialects.eriantys_g13_java import DIALECT as ERIANTYS_G13_JAVA
from service.sessions.dialects.eriantys_g27 import DIALECT as ERIANTYS_G27
from service.sessions.dialects.renaissance import DIALECT as RENAISSANCE
from service.sessions.dialects.santorini import DIALECT as SANTORINI

#: every seed dialect by name; a dialect is added here and nowhere else
DIALECTS: dict[str, Dialect] = {d.name: d for d in (DOLPHINFOX, SANTORINI, ERIANTYS_G13, ERIANTYS_G27,
                                                 RENAISSANCE, ERIANTYS_G13_JAVA)}

__all__ = ["CANONICAL", "DIALECTS", "Conversation", "Dialect"]
