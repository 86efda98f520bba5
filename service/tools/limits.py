"""Settings that lift Tavolo's per-client limits, for load benchmarks and fuzz runs that
play many clients from one address (never for a public server)."""

from __future__ import annotations

UNLIMITED: dict[str, int] = {
    "max_connections_per_address": 1_000_000,
    "creation_burst_per_connection": 1_000_000,
    "creation_per_minute_per_connection": 1_000_000,
    "creation_burst_per_address": 1_000_000,
    "creation_per_minute_per_address": 1_000_000,
}
