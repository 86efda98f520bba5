"""Who this node is, for ``/api/health`` and ``/metrics``: the cluster's own view once the
cluster is wired in (``app[HUB].cluster``: ``node_id``, ``bus_kind``, ``owned_count()``,
``members()``), else what the settings say of a node that runs alone."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from service.gateway.keys import HUB, SETTINGS
from service.settings import bus_kind_of, node_id_of

log = logging.getLogger(__name__)

#: what the bus is called when there is none (a node alone; the cluster's in-process bus)
NO_BUS = "none"


def _cluster(app: web.Application) -> Any:
    hub = app.get(HUB)
    return getattr(hub, "cluster", None) if hub is not None else None


def node_id(app: web.Application) -> str:
    found = getattr(_cluster(app), "node_id", None)
    return found if isinstance(found, str) and found else node_id_of(app[SETTINGS])


def bus_kind(app: web.Application) -> str:
    found = getattr(_cluster(app), "bus_kind", None)
    kind = found if isinstance(found, str) and found else bus_kind_of(app[SETTINGS])
    return NO_BUS if kind == "memory" else kind


async def cluster_view(app: web.Application) -> dict[str, Any]:
    """``{"bus", "members", "owned_matches"}``: the members the cluster sees (this node when
    it runs alone), and the matches this node owns (when alone: every one it holds)."""
    cluster, node = _cluster(app), node_id(app)
    members: list[str] = [node]
    if callable(getattr(cluster, "members", None)):
        try:
            members = sorted(await cluster.members())
        except Exception:  # noqa: BLE001 - health must answer; the failure is in the log
            log.warning("the cluster's members could not be read", exc_info=True)
            members = []
    kind, owned = bus_kind(app), getattr(cluster, "owned_count", None)
    # a node alone owns every match it holds (it asks nobody, so it counts no ownership)
    count = owned() if callable(owned) and kind != NO_BUS else len(app[HUB].live())
    return {"bus": kind, "members": members, "owned_matches": count}
