"""aiohttp's access log, with the health checks of load balancers and of Docker
(``GET /api/health`` every few seconds, answered 200) at DEBUG instead of INFO: the log keeps
the requests people make. A health check that fails is logged at INFO as any request is."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp.web_log import AccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

#: the paths whose successful requests are logged at DEBUG
QUIET_PATHS = frozenset({"/api/health"})


class _AtDebug:
    """A logger whose ``info`` is ``debug``."""

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger

    def info(self, *args: Any, **kwargs: Any) -> None:
        self._logger.debug(*args, **kwargs)

    def exception(self, *args: Any, **kwargs: Any) -> None:
        self._logger.exception(*args, **kwargs)


class QuietHealthAccessLogger(AccessLogger):
    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        if request.path not in QUIET_PATHS or response.status >= 400:
            super().log(request, response, time)
            return
        logger = self.logger
        self.logger = _AtDebug(logger)  # type: ignore[assignment]
        try:  # synchronous: no other request logs meanwhile
            super().log(request, response, time)
        finally:
            self.logger = logger
