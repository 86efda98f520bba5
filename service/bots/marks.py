"""Which level chose a bot's move, recorded where the move is already saved: the action's
``client_id`` (``actions.client_id``), which a bot seat writes as ``bot-<level>-<version>-<n>``
(the match's version the bot saw, and its count of moves since it started). Moves saved before
the level was recorded carry ``bot-<version>-<n>``: their level is unknown.

This module imports nothing of ours, so operator views (``service/inspection.py``) read the
mark without loading the bots.
"""

from __future__ import annotations

import re

#: ``bot-<level>-<version>-<n>``; a level is a lower-case word (``hard``, ``random``)
_MARK = re.compile(r"bot-([a-z][a-z0-9_]*)-(\d+)-(\d+)")


def bot_client_id(level: str, version: int, count: int) -> str:
    """The ``client_id`` of a bot's move: the level that chose it, the version it saw and the
    bot's count of moves (distinct per move, as the idempotency of ``act`` needs)."""
    return f"bot-{level}-{version}-{count}"


def level_of(client_id: str | None) -> str | None:
    """The level that chose a move whose ``client_id`` is ``client_id``; None when the id does
    not say (a person's move, or a bot's saved before the level was recorded)."""
    if client_id is None:
        return None
    mark = _MARK.fullmatch(client_id)
    return mark.group(1) if mark else None
