"""The store's errors and the one place database exceptions become them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from service.errors import StoreError

#: what a database driver raises when the database cannot serve a request
DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    SQLAlchemyError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class StoreConflict(StoreError):
    """A write lost against saved data (a unique key, a stale version). Nothing changed."""

    code = "store/conflict"


class StoreUnknownOutcome(StoreError):
    """The commit was sent but not confirmed (the connection died meanwhile): the change may
    or may not be saved. Reading the store again tells."""

    code = "store/unknown_outcome"


@contextmanager
def translated() -> Iterator[None]:
    """The one place where database exceptions become StoreError."""
    try:
        yield
    except (IntegrityError, asyncpg.IntegrityConstraintViolationError) as exc:
        raise StoreConflict("the change conflicts with saved data") from exc
    except DATABASE_ERRORS as exc:
        raise StoreError("the database is unavailable", code="store/unavailable") from exc
