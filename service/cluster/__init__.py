"""Several nodes over one PostgreSQL: the bus between nodes and match ownership.

Sessions talk to :class:`~service.cluster.bus.Bus` (publish, subscribe, request/reply) and
:class:`~service.cluster.ownership.Ownership` (own, release, lost); a single node uses the
in-process bus (:func:`~service.cluster.bus.open_bus` with no URL). See docs/cluster.md.
"""

from __future__ import annotations

from service.cluster.bus import (Bus, BusClosed, BusError, BusUnavailable, NoResponder,
                                 RemoteError, RequestTimeout, Subscription, UnsupportedBus,
                                 bus_kind, open_bus)

__all__ = ["Bus", "BusClosed", "BusError", "BusUnavailable", "NoResponder", "RemoteError",
           "RequestTimeout", "Subscription", "UnsupportedBus", "bus_kind", "open_bus"]
