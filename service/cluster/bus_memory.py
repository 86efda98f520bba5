"""The in-process bus of a single node: what one process publishes, it alone receives.

Delivery is a queue put on each matching subscription, so a publisher never waits for a
handler; order per subject is the order of ``publish`` calls. Requests find their responder
at once, or raise NoResponder.
"""

from __future__ import annotations

from service.cluster.bus import Subscription
from service.cluster.envelope import REQUEST, EnvelopeBus


class MemoryBus(EnvelopeBus):
    kind = "memory"

    async def _send(self, subject: str, envelope: bytes) -> int | None:
        self._check_open()
        # only a request needs the count (NoResponder); a publish does not pay for it
        reached = self._reached(subject) if envelope[:1] == REQUEST else None
        self.router.deliver_all(subject, envelope)
        return reached

    def _reached(self, subject: str) -> int:
        return sum(1 for sub in self.router.all() if sub.matches(subject))

    async def _subscribe(self, sub: Subscription) -> None:
        self.router.add(sub)

    async def _unsubscribe(self, sub: Subscription) -> None:
        self.router.remove(sub)

    async def _close(self) -> None:
        await self._stop_local()
