"""Service settings: from the command line, the environment, or code (tests).

Every field can also come from a ``TAVOLO_<NAME>`` environment variable (pydantic-settings),
e.g. ``TAVOLO_HTTP_PORT=9000`` or ``TAVOLO_LISTEN='{"santorini": null}'`` (JSON for structured
fields; ``TAVOLO_CORS_ORIGINS`` is a comma-separated list; ``null`` is None). Each has a flag
of ``serve`` too (service/cli_settings.py, ``--<name-with-dashes>``); command-line flags win."""

from __future__ import annotations

import os
import re
import socket
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from service.store.engine import SqliteSynchronous

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///tavolo.db"
DATABASE_ENV = "TAVOLO_DATABASE_URL"


def database_url_from_env(explicit: str | None = None) -> str:
    """``--database-url`` wins, then ``TAVOLO_DATABASE_URL``, then a SQLite file here."""
    return explicit or os.environ.get(DATABASE_ENV) or DEFAULT_DATABASE_URL


class Settings(BaseSettings):
    #: ``TAVOLO_WAITING_ABORT_AFTER=null`` is None, as ``--waiting-abort-after null`` is
    model_config = SettingsConfigDict(extra="forbid", env_prefix="TAVOLO_",
                                      env_parse_none_str="null")

    database_url: str = DEFAULT_DATABASE_URL
    host: str = "0.0.0.0"
    http_port: int = Field(default=8080, ge=0, le=65535)
    #: dialect -> TCP port (0: any free port); a dialect absent here uses its default port;
    #: None switches it off
    listen: dict[str, int | None] = Field(default_factory=dict)
    #: frames a client may have queued before it is dropped as not reading
    outbox: int = Field(default=512, ge=1)
    migrate: bool = True
    #: web origins (``https://example.org``, or ``*``) whose pages may call ``/api`` (CORS)
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)

    #: SQLite durability: FULL (default) survives an OS crash or power cut; NORMAL is faster
    #: and survives a process crash only (see README, "Durability")
    sqlite_synchronous: SqliteSynchronous = "FULL"
    #: the whole state of a match is saved every this many actions (and when it starts or
    #: ends), not with each one; a load replays the actions after it (README, "Configuration")
    snapshot_every: int = Field(default=16, ge=1, le=1000)

    # --- the match lifecycle (README, "Match lifecycle") --------------------------------
    #: seconds a waiting match nobody is attached to lives before it is aborted (None: never)
    waiting_abort_after: float | None = Field(default=1800.0, gt=0)
    #: seconds between two sweeps for idle waiting matches and away seats
    lifecycle_sweep_interval: float = Field(default=5.0, gt=0)
    #: the bot level that plays a seat abandoned in a game of more than two sides, once a
    #: player present claims (docs/protocol.md, "Stand-ins")
    stand_in_level: Literal["random", "mcts"] = "random"
    #: the bearer token that opens ``/api/admin/...``; None: the admin API is switched off
    admin_token: str | None = Field(default=None, min_length=16)  # TAVOLO_ADMIN_TOKEN

    # --- who may create, and the admin throttle (README, "Who may create") -------------
    #: wrong admin tokens one address may send before it is locked out; the first lockout
    #: (s), doubled at each further wrong token up to the longest (s)
    admin_auth_failures: int = Field(default=5, ge=1)
    admin_lockout_first: float = Field(default=10.0, gt=0)
    admin_lockout_max: float = Field(default=3600.0, gt=0)
    #: wrong passwords or recovery codes a player may send before each next try waits: the
    #: first wait (s), doubled at each further wrong one up to the longest (s); and what one
    #: address may send before it waits likewise (sessions/accounts.py)
    login_failures_free: int = Field(default=5, ge=1)
    login_wait_first: float = Field(default=1.0, gt=0)
    login_wait_max: float = Field(default=900.0, gt=0)
    login_address_failures: int = Field(default=20, ge=1)
    #: open waiting matches one player, and one address, may hold at a time
    max_waiting_per_player: int = Field(default=3, ge=1)
    max_waiting_per_address: int = Field(default=10, ge=1)
    #: matches of bots only (no person seated) one player may have running at a time, and
    #: this process altogether (they keep the bot workers busy)
    max_bot_matches_per_player: int = Field(default=2, ge=0)
    max_bot_matches: int = Field(default=4, ge=0)

    # --- bounded resources (README, "Limits") -----------------------------------------
    #: open connections from one address, per listener (each TCP dialect, and WebSocket)
    max_connections_per_address: int = Field(default=128, ge=1)
    #: open connections per listener, all addresses together
    max_connections_per_listener: int = Field(default=10_000, ge=1)
    #: file descriptors kept free: past the limit minus this reserve, new connections are shed
    fd_reserve: int = Field(default=64, ge=0)
    #: the share of max_connections_per_listener one network (an IPv4 /24, an IPv6 /64) may
    #: hold on each listener (each TCP dialect, the HTTP port, the WebSockets)
    network_connection_share: float = Field(default=0.05, gt=0, le=1)
    #: seconds an HTTP client has to send a whole request head (from connecting, or since its
    #: last answer on a kept-alive connection); then it is closed
    http_header_timeout: float = Field(default=10.0, gt=0)
    #: seconds without a complete frame after which a TCP client of a dialect without
    #: heartbeat is closed (bytes that complete no frame, and blank lines, do not count;
    #: None: never)
    tcp_idle_timeout: float | None = Field(default=600.0, gt=0)
    #: new players, and new matches, one connection may create at once / per minute after
    creation_burst_per_connection: int = Field(default=10, ge=1)
    creation_per_minute_per_connection: float = Field(default=10.0, gt=0)
    #: the same for all the connections of one address together
    creation_burst_per_address: int = Field(default=60, ge=1)
    creation_per_minute_per_address: float = Field(default=60.0, gt=0)
    #: seconds a waiting match nobody follows stays in memory (it stays in the store)
    waiting_match_grace: float = Field(default=60.0, ge=0)

    # --- what one connection may cost (README, "Hardening": frame budgets) --------------
    #: frames a second, and at once, one connection may send once it said who it is (hello,
    #: login); past that its reads wait
    frames_per_second: float = Field(default=2000.0, gt=0)
    frame_burst: int = Field(default=20_000, ge=1)
    #: the same before it said who it is
    stranger_frames_per_second: float = Field(default=10.0, gt=0)
    stranger_frame_burst: int = Field(default=30, ge=1)
    #: rejected frames in a row a connection may send before its reads are paused (each
    #: pause twice the one before, up to rejected_max_pause s), and that close it
    rejected_free_streak: int = Field(default=10, ge=0)
    rejected_close_streak: int = Field(default=25, ge=1)
    rejected_max_pause: float = Field(default=2.0, gt=0)
    #: rejected frames one address may send at once, and a second, all its connections
    #: together; past that its connections that did not say who they are wait
    rejected_burst_per_address: int = Field(default=100, ge=1)
    rejected_per_second_per_address: float = Field(default=5.0, gt=0)
    #: database connections of the players' pool (kept, added under load), and of the
    #: strangers' own lane (connections that did not say who they are)
    database_pool_size: int = Field(default=5, ge=1)
    database_pool_overflow: int = Field(default=10, ge=0)
    database_strangers_pool: int = Field(default=2, ge=1)

    #: bots: worker processes that think, the amount of search per move (in seconds of one
    #: core's playouts: a fixed count per game, not a time limit), and in real-time games the
    #: least time between two moves of one bot (s)
    bot_workers: int = Field(default=1, ge=1, le=64)
    bot_budget: float = Field(default=1.0, gt=0, le=60)
    bot_pace: float = Field(default=1.0, ge=0, le=60)

    #: multiplies the seed dialects' heartbeat limits (Santorini's pong wait, g13's and
    #: Renaissance's silence limits, g27's ping timeout): 100 lets a person type a session
    #: by hand with nc (``serve --hand-testing``); 1 is the seeds' own timing
    heartbeat_scale: float = Field(default=1.0, ge=1.0, le=10_000.0)

    # --- the cluster (README, "Running a cluster"; docs/cluster.md) --------------------
    #: the bus between nodes (nats://, redis://, postgresql://); None: this node runs alone
    cluster_bus: str | None = None  # TAVOLO_CLUSTER_BUS
    #: this node's id in logs, /api/health, /metrics and the cluster (None: <hostname>-<pid>)
    node_id: str | None = None  # TAVOLO_NODE_ID
    #: listen with SO_REUSEPORT, so several processes share every port (serve --workers)
    reuse_port: bool = False

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [o.strip() for o in value.split(",") if o.strip()]
        return value

    @field_validator("cluster_bus", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("node_id")
    @classmethod
    def _node_id(cls, value: str | None) -> str | None:
        from service.cluster.ownership import check_node_id

        return None if value is None else check_node_id(value)

    @classmethod
    def for_tests(cls, database_url: str, **overrides: object) -> Settings:
        """Loopback only, and every TCP dialect on a free port, so parallel runs never collide."""
        from service.sessions.dialects import DIALECTS

        listen: dict[str, int | None] = {name: 0 for name in DIALECTS}
        listen.update(overrides.pop("listen", {}))  # type: ignore[call-overload]
        return cls.model_validate({"database_url": database_url, "host": "127.0.0.1",
                                   "http_port": 0, "listen": listen, **overrides})


#: the longest node id (service/cluster/ownership.check_node_id)
MAX_NODE_ID = 40


def suffixed_node_id(base: str, suffix: str) -> str:
    """``base`` cut so that ``base + suffix`` is no longer than a node id may be."""
    return base[: MAX_NODE_ID - len(suffix)] + suffix


def default_node_id(pid: int | None = None) -> str:
    """``<hostname>-<pid>``, cut and cleaned to a valid node id (1-40 of [A-Za-z0-9_.-])."""
    host = re.sub(r"[^A-Za-z0-9_.-]", "_", socket.gethostname()) or "node"
    return suffixed_node_id(host, f"-{os.getpid() if pid is None else pid}")


def node_id_of(settings: Settings) -> str:
    """This node's id: the one configured (``--node-id``, ``TAVOLO_NODE_ID``), else
    ``<hostname>-<pid>``."""
    from service.cluster.ownership import check_node_id

    return check_node_id(settings.node_id or default_node_id())


def bus_kind_of(settings: Settings) -> str:
    """The kind of the cluster bus (``nats``, ``redis``, ``postgresql``), or ``none``; raises
    ``UnsupportedBus`` (a ValueError, one line) for a URL of another scheme."""
    from service.cluster.bus import bus_kind

    return bus_kind(settings.cluster_bus) if settings.cluster_bus else "none"
