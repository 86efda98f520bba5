"""Logging setup for ``serve``: text lines, or one JSON object per line (``--log-format json``)
carrying the match, dialect and peer of the task that logged (sessions.logcontext)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, timezone
from typing import Any

from service.sessions import logcontext

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class ContextFilter(logging.Filter):
    """Copies the log context (match, dialect, peer) onto each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in logcontext.current().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, match, dialect, peer
    (and the traceback as ``exc`` when there is one)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "match": getattr(record, "match", None),
            "dialect": getattr(record, "dialect", None),
            "peer": getattr(record, "peer", None),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def handler_for(log_format: str, stream: Any = None) -> logging.Handler:
    handler = logging.StreamHandler(stream or sys.stdout)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    return handler


def configure_logging(level: str, log_format: str) -> None:
    """The root logger at ``level``, writing to stdout in ``log_format`` (text or json)."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler_for(log_format))
    root.setLevel(level)
