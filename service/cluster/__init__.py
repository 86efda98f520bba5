"""Several nodes over one PostgreSQL: the bus between nodes and match ownership.

Sessions talk to :class:`~service.cluster.bus.Bus` (publish, subscribe, request/reply: a
command forwarded to its match's owner) and to an ownership (own, release, lost):
:class:`~service.cluster.ownership.Ownership` in PostgreSQL for a cluster,
:class:`~service.cluster.ownership_local.LocalOwnership` for a node alone. A node alone uses
the in-process bus (:func:`~service.cluster.bus.open_bus` with no URL). See docs/cluster.md.
"""

from __future__ import annotations
