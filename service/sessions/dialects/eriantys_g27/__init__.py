"""Seed 004: Eriantys as group 27 spoke it (see docs/protocols/eriantys-g27.md)."""

from __future__ import annotations

from service.sessions.dialects.eriantys_g27.conversation import DIALECT, EriantysG27Conversation
from service.sessions.dialects.eriantys_g27.play import NAME

__all__ = ["DIALECT", "NAME", "EriantysG27Conversation"]
