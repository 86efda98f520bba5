"""What every log line is about: the match, the dialect and the peer of the task that logs.

The gateway sets ``dialect`` and ``peer`` for each connection's task (tasks it starts inherit
them); a match runtime sets ``match`` while it handles an action. ``service.logs`` puts them
on every record.

:func:`match_event` writes one INFO line when something happens in a match's life (created,
started, joined, left, stand-in, finished, aborted) with ``event``, ``match``, ``game`` and
the rest (``player``, ``seat``, ``reason``, ...) as structured fields of the record
(``record.event_fields``; JSON logs show each as its own key), and counts the matches
created, finished and aborted for ``/metrics``."""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Any

from service import metrics

match_var: ContextVar[int | None] = ContextVar("tavolo_match", default=None)
dialect_var: ContextVar[str | None] = ContextVar("tavolo_dialect", default=None)
peer_var: ContextVar[str | None] = ContextVar("tavolo_peer", default=None)

#: the events of a match's life (the ``event`` field of their log lines)
CREATED, STARTED, JOINED, LEFT = "match_created", "match_started", "player_joined", "player_left"
STAND_IN, FINISHED, ABORTED = "stand_in", "match_finished", "match_aborted"
EVENTS = (CREATED, STARTED, JOINED, LEFT, STAND_IN, FINISHED, ABORTED)

log = logging.getLogger("service.matches")


def current() -> dict[str, object]:
    return {"match": match_var.get(), "dialect": dialect_var.get(), "peer": peer_var.get()}


def about(match_id: int) -> dict[str, Any]:
    """``extra`` for a log call about ``match_id`` made outside its connection's task (the
    record carries the match's id whatever the context says)."""
    return {"match": match_id}


def match_event(event: str, match_id: int, game: str, text: str, **fields: Any) -> None:
    """One INFO line ``match <id> (<game>): <text>``, structured as the docstring above says."""
    log.info("match %s (%s): %s", match_id, game, text,
             extra={"match": match_id, "event_fields": {"event": event, "game": game, **fields}})
    if event == CREATED:
        metrics.MATCHES_CREATED.labels(game).inc()
    elif event == FINISHED:
        metrics.MATCHES_FINISHED.labels(game, str(fields.get("reason") or "unknown")).inc()
    elif event == ABORTED:
        metrics.MATCHES_ABORTED.labels(game, str(fields.get("by") or "unknown")).inc()


def result_text(result: dict[str, Any] | None) -> str:
    """A match's result in words: ``won by seat(s) 0 (checkmate)``, ``a draw (...)``."""
    if not result:
        return "no result"
    reason = f" ({result['reason']})" if result.get("reason") else ""
    if result.get("draw"):
        return f"a draw{reason}"
    winners = result.get("winners") or []
    if not winners:
        return f"no winner{reason}"
    return f"won by seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))}{reason}"


def match_ended(match_id: int, game: str, status: str, result: dict[str, Any] | None,
                version: int) -> None:
    """The line (and count) of a match that ended: ``finished`` (by the rules, a resignation,
    an abandon; with the result) or ``aborted`` (with who aborted it)."""
    result = result or {}
    if status == "aborted":
        by = (result.get("detail") or {}).get("by") or "unknown"
        match_event(ABORTED, match_id, game, f"aborted by {by} at version {version}",
                    by=by, version=version)
        return
    match_event(FINISHED, match_id, game, f"finished at version {version}: "
                f"{result_text(result)}", reason=result.get("reason") or "unknown",
                result=result, version=version)
