"""The seed-003 dialect (Masters of Renaissance): plain-text lines, typed commands, dialogues."""

from __future__ import annotations

from service.protocol.framing import LineFramer
from service.protocol.renaissance import MAX_LINE
from service.sessions.dialects.base import Dialect
from service.sessions.dialects.renaissance.conversation import NAME, RenaissanceConversation

DIALECT = Dialect(
    name=NAME,
    default_port=48745,
    framer=lambda: LineFramer(max_line=MAX_LINE),
    conversation=RenaissanceConversation,
    description="Masters of Renaissance, seed 003: one plain-text line per message, typed commands",
)

__all__ = ["DIALECT", "NAME", "RenaissanceConversation"]
