"""The one error tree of Tavolo.

Every error a client can see is a :class:`ServiceError` with a stable ``code``
(``area/reason``) and a human ``message``. Each transport maps these to its wire
form in exactly one place; clients never see tracebacks.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base of every error that may be shown to a client."""

    code: str = "service/error"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class RulesError(ServiceError):
    """A well-formed action that the rules do not allow now. Changes nothing."""

    code = "rules/illegal"

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message, code=f"rules/{reason}", **details)
        self.reason = reason


class MalformedAction(ServiceError):
    """Input that cannot be an action (or options) of this game at all."""

    code = "action/malformed"


class ProtocolError(ServiceError):
    """A frame or message that breaks the wire protocol."""

    code = "protocol/malformed"


class SessionError(ServiceError):
    """Lobby, seat, identity or match-lifecycle errors."""

    code = "session/error"


class NicknameTaken(SessionError):
    """The nickname belongs to another player (for nickname-only dialects: one who holds a
    token, who is reached with that token only)."""

    code = "session/nickname_taken"


class Banned(NicknameTaken):
    """The player is banned. A NicknameTaken too: a nickname-only dialect refuses a banned
    nickname with its own "nickname taken" answer."""

    code = "session/banned"


class BadNickname(SessionError):
    """A nickname the one nickname rule refuses (service/store/nicknames.py)."""

    code = "session/bad_nickname"


#: what a nickname-only dialect answers with its own "nickname not valid / taken" reply
NICKNAME_REFUSED = (NicknameTaken, BadNickname)


class AdminError(ServiceError):
    """The admin API refused the caller: switched off (``admin/disabled``, no admin token
    configured) or not authenticated (``admin/unauthorized``)."""

    code = "admin/unauthorized"


class StoreError(ServiceError):
    """The store could not make an action durable; the action was not applied."""

    code = "store/unavailable"
