"""Settings that lift Tavolo's per-client limits, for load benchmarks and fuzz runs that
play many clients from one address (never for a public server)."""

from __future__ import annotations

UNLIMITED: dict[str, int] = {
    "max_connections_per_address": 1_000_000,
    "network_connection_share": 1,
    "creation_burst_per_connection": 1_000_000,
    "creation_per_minute_per_connection": 1_000_000,
    "creation_burst_per_address": 1_000_000,
    "creation_per_minute_per_address": 1_000_000,
    # what one player or address may hold open (sessions/admission.py)
    "max_waiting_per_player": 1_000_000,
    "max_waiting_per_address": 1_000_000,
    "max_bot_matches_per_player": 1_000_000,
    # the frame budgets (sessions/budget.py): fuzz runs send nothing but rejected frames
    "stranger_frames_per_second": 1_000_000,
    "stranger_frame_burst": 1_000_000,
    "frames_per_second": 1_000_000,
    "frame_burst": 1_000_000,
    "rejected_free_streak": 1_000_000,
    "rejected_close_streak": 1_000_000,
    "rejected_burst_per_address": 1_000_000,
    "rejected_per_second_per_address": 1_000_000,
}


def setting_args(**settings: object) -> tuple[str, ...]:
    """``--set NAME=VALUE`` arguments of ``serve`` for these settings."""
    return tuple(arg for name, value in settings.items() for arg in ("--set", f"{name}={value}"))


def unlimited_args() -> tuple[str, ...]:
    """``serve`` arguments that lift the per-client limits (UNLIMITED)."""
    return setting_args(**UNLIMITED)
