"""Logging setup for ``serve``: text lines, or one JSON object per line (``--log-format json``)
carrying the match, dialect and peer of the task that logged (sessions.logcontext). Every
line names the node that wrote it (``node=<id>`` in text, ``"node"`` in JSON), so the lines
of a cluster's nodes can be merged and still told apart."""

from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, timezone
from typing import Any

from service.sessions import logcontext

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s node=%(node)s %(name)s: %(message)s"
#: the node of a record logged where no node id was configured (tests' own handlers)
NO_NODE = "-"


class NodeFilter(logging.Filter):
    """Puts the node id on each record (``record.node``)."""

    def __init__(self, node: str | None) -> None:
        super().__init__()
        self.node = node or NO_NODE

    def filter(self, record: logging.LogRecord) -> bool:
        record.node = self.node
        return True


class ContextFilter(logging.Filter):
    """Copies the log context (match, dialect, peer) onto each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in logcontext.current().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, node, logger, message, match, dialect, peer
    (and the traceback as ``exc`` when there is one); a match event's fields (``event``,
    ``game``, ``player``, ``seat``, ``reason``, ...) each as a key of its own."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(),
            "level": record.levelname,
            "node": getattr(record, "node", None),
            "logger": record.name,
            "message": record.getMessage(),
            "match": getattr(record, "match", None),
            "dialect": getattr(record, "dialect", None),
            "peer": getattr(record, "peer", None),
        }
        fields = getattr(record, "event_fields", None)  # a match's life (logcontext.match_event)
        if isinstance(fields, dict):
            out.update({k: v for k, v in fields.items() if k not in out})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class BadRequestFilter(logging.Filter):
    """aiohttp logs a request it cannot parse (a malformed header, a broken request line) at
    ERROR with a traceback, although the client is at fault and was answered 400: one INFO
    line naming the client and the parser's reason instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        from aiohttp.http_exceptions import HttpProcessingError

        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError) and 400 <= (error.code or 400) < 500:
            reason = " ".join(str(error.message).split())[:200]
            record.msg, record.args = "%s (bad request: %s %s)", (
                record.getMessage(), error.code, reason)
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.exc_info = record.exc_text = None
        return True


#: the logger aiohttp's server reports request errors on
AIOHTTP_SERVER = "aiohttp.server"


def handler_for(log_format: str, stream: Any = None, node: str | None = None) -> logging.Handler:
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.addFilter(ContextFilter())
    handler.addFilter(NodeFilter(node))
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    return handler


def configure_logging(level: str, log_format: str, node: str | None = None) -> None:
    """The root logger at ``level``, writing to stdout in ``log_format`` (text or json),
    every line naming ``node``."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler_for(log_format, node=node))
    root.setLevel(level)
    server = logging.getLogger(AIOHTTP_SERVER)
    if not any(isinstance(f, BadRequestFilter) for f in server.filters):
        server.addFilter(BadRequestFilter())
