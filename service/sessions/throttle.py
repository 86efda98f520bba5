"""Wrong secrets throttled per address: admin tokens (README, "Who may create, and what the
browser is told") and players' passwords and recovery codes (sessions/accounts.py).

An address may send ``allowed`` wrong secrets; each further wrong one locks it out for a
time that doubles (``first_lockout``, then twice that, ... up to ``max_lockout``). While locked
out, every try from it is refused (429 with ``Retry-After`` over HTTP) whatever it carries, and
the secret is not even compared. Each lockout is logged as a WARNING (an alarm for the
operator). A right secret clears the address's count; so does ``max_lockout`` seconds without a
wrong one after the last lockout ended. At most ``addresses`` addresses are remembered (the
least recent are forgotten). A lockout never lasts: it costs time, never the account.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass
class _Failures:
    count: int = 0
    last: float = 0.0
    locked_until: float = 0.0


class FailureThrottle:
    def __init__(self, *, what: str = "admin API", secret: str = "tokens", allowed: int = 5, first_lockout: float = 10.0,
                 max_lockout: float = 3600.0, addresses: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.secret = what, secret
        self.allowed = allowed
        self.first_lockout = first_lockout
        self.max_lockout = max_lockout
        self.addresses = addresses
        self.clock = clock
        self._seen: dict[str, _Failures] = {}

    def retry_after(self, address: str) -> int | None:
        """Whole seconds until ``address`` may try again, or None when it may now."""
        record = self._seen.get(address)
        if record is None:
            return None
        left = record.locked_until - self.clock()
        return math.ceil(left) if left > 0 else None

    def failed(self, address: str) -> None:
        """Count a wrong secret from ``address``; lock it out past ``allowed``."""
        now = self.clock()
        record = self._record(address, now)
        record.count += 1
        record.last = now
        over = record.count - self.allowed
        if over > 0:
            lockout = min(self.first_lockout * 2 ** min(over - 1, 40), self.max_lockout)
            record.locked_until = now + lockout
            log.warning("%s: %d wrong %s from %s; refused for %.0f s", self.what,
                        record.count, self.secret, address, lockout)

    def succeeded(self, address: str) -> None:
        self._seen.pop(address, None)

    def _record(self, address: str, now: float) -> _Failures:
        record = self._seen.pop(address, None)
        if record is None or now - max(record.last, record.locked_until) > self.max_lockout:
            record = _Failures()
            while len(self._seen) >= self.addresses:
                del self._seen[next(iter(self._seen))]
        self._seen[address] = record  # most recent last
        return record

