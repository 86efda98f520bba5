"""Service settings: from the command line, the environment, or code (tests)."""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///tavolo.db"
DATABASE_ENV = "TAVOLO_DATABASE_URL"


def database_url_from_env(explicit: str | None = None) -> str:
    """``--database-url`` wins, then ``TAVOLO_DATABASE_URL``, then a SQLite file here."""
    return explicit or os.environ.get(DATABASE_ENV) or DEFAULT_DATABASE_URL


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    database_url: str = DEFAULT_DATABASE_URL
    host: str = "0.0.0.0"
    http_port: int = Field(default=8080, ge=0, le=65535)
    #: dialect -> TCP port (0: any free port); a dialect absent here uses its default port;
    #: None switches it off
    listen: dict[str, int | None] = Field(default_factory=dict)
    #: frames a client may have queued before it is dropped as not reading
    outbox: int = Field(default=512, ge=1)
    migrate: bool = True
    #: bots: worker processes that think, the time limit per move (s), and in real-time
    #: games the least time between two moves of one bot (s)
    bot_workers: int = Field(default=1, ge=1, le=64)
    bot_budget: float = Field(default=1.0, gt=0, le=60)
    bot_pace: float = Field(default=1.0, ge=0, le=60)

    @classmethod
    def for_tests(cls, database_url: str, **overrides: object) -> Settings:
        """Loopback only, and every TCP dialect on a free port, so parallel runs never collide."""
        from service.sessions.dialects import DIALECTS

        listen: dict[str, int | None] = {name: 0 for name in DIALECTS}
        listen.update(overrides.pop("listen", {}))  # type: ignore[call-overload]
        return cls.model_validate({"database_url": database_url, "host": "127.0.0.1",
                                   "http_port": 0, "listen": listen, **overrides})
