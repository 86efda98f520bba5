"""Store faults for tests: a commit the database makes (or not) but whose answer is lost."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import OperationalError

from service.store import Store


class CommitThenFail:
    """Sessions whose next commit is made and then reported as lost (a connection cut
    between the COMMIT and its answer); or, with ``saved=False``, lost before it is made."""

    def __init__(self, store: Store, *, saved: bool) -> None:
        self.real, self.saved, self.armed = store._sessions, saved, True
        store._sessions = self  # type: ignore[assignment]

    def begin(self) -> Any:
        return self.real.begin()

    def __call__(self) -> Any:
        session = self.real()
        if self.armed:
            self.armed = False
            commit = session.commit

            async def lost_commit() -> None:
                if self.saved:
                    await commit()
                raise OperationalError("COMMIT", {}, ConnectionResetError("connection lost"))

            session.commit = lost_commit  # type: ignore[method-assign]
        return session
