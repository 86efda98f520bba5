"""The store's errors and the one place database exceptions become them."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from service.errors import StoreError
from service.store.episodes import FailureEpisodes

log = logging.getLogger(__name__)

#: what a database driver raises when the database cannot serve a request; asyncpg's
#: InternalClientError is its own state going wrong (``cannot switch to state 12; another
#: operation is in progress`` after the server cut the connection mid-statement)
DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    SQLAlchemyError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError,
    asyncpg.InternalClientError)


class StoreConflict(StoreError):
    """A write lost against saved data (a unique key, a stale version). Nothing changed."""

    code = "store/conflict"


class StoreUnknownOutcome(StoreError):
    """The commit was sent but not confirmed (the connection died meanwhile): the change may
    or may not be saved. Reading the store again tells."""

    code = "store/unknown_outcome"


@contextmanager
def translated(episodes: FailureEpisodes | None = None, *, wrote: bool = False) -> Iterator[None]:
    """The one place where database exceptions become StoreError. ``episodes`` hears of each
    failure and of each success (``wrote``: the block committed a write), so a failure is
    logged once per episode, with its cause, and its end once (store/episodes.py)."""
    try:
        yield
    except (IntegrityError, asyncpg.IntegrityConstraintViolationError) as exc:
        raise StoreConflict("the change conflicts with saved data") from exc
    except DATABASE_ERRORS as exc:
        if episodes is not None:
            episodes.failed(exc)
        raise unavailable() from exc
    if episodes is not None:
        episodes.succeeded(wrote=wrote)


def unavailable() -> StoreError:
    return StoreError("the database is unavailable", code="store/unavailable")


@contextmanager
def before_commit(episodes: FailureEpisodes | None = None) -> Iterator[None]:
    """The commit path before its COMMIT is sent: nothing is saved whatever goes wrong, so
    every exception (a driver's of any kind, or a bug) is ``store/unavailable`` or a
    conflict, never an internal error. Cancellation passes through."""
    try:
        with translated(episodes):
            yield
    except StoreError:
        raise
    except Exception as exc:
        log.exception("unexpected error before the commit; nothing was saved")
        raise unavailable() from exc


@contextmanager
def at_commit(episodes: FailureEpisodes | None = None) -> Iterator[None]:
    """The COMMIT itself: any failure leaves the outcome unknown (it may have been made).
    A commit that returns is a successful write (``episodes``)."""
    try:
        yield
    except Exception as exc:
        if not isinstance(exc, DATABASE_ERRORS):
            log.exception("unexpected error at the commit; it may or may not be saved")
        elif episodes is not None:
            episodes.failed(exc)
        raise StoreUnknownOutcome("the database did not confirm the commit") from exc
    if episodes is not None:
        episodes.succeeded(wrote=True)
