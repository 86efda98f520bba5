"""A player's board: warehouse depots, extra depots, strongbox, payments and leader powers."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from service.games.renaissance import catalog as K
from service.games.renaissance.actions import Payment
from service.games.renaissance.catalog import Counts
from service.games.renaissance.state import Player, fail

SOURCES = ("warehouse", "extra", "strongbox")


# --- leaders ---------------------------------------------------------------------------------


def active_leaders(p: Player, kind: str) -> list[K.Leader]:
    return [K.LEADERS[lid] for lid, st in zip(p.leaders, p.status)
            if st == "active" and K.LEADERS[lid].kind == kind]


def powers(p: Player, kind: str) -> list[int]:
    """Resources of the active leaders of one kind (discount, extra_depot, white_marble...)."""
    return [leader.resource for leader in active_leaders(p, kind)]


def hand(p: Player) -> list[int]:
    return [lid for lid, st in zip(p.leaders, p.status) if st == "hand"]


def cards_owned(p: Player) -> list[K.DevCard]:
    return [K.CARDS[cid] for stack in p.slots for cid in stack]


def meets(p: Player, leader: K.Leader) -> bool:
    """Requirements are owned, not paid: cards of any level unless stated, resources anywhere."""
    owned = cards_owned(p)
    for colour, count, level in leader.cards:
        if sum(1 for c in owned if c.colour == colour and (not level or c.level == level)) < count:
            return False
    have = held(p)
    return all(have[r] >= n for r, n in enumerate(leader.resources))


# --- storage ---------------------------------------------------------------------------------


def warehouse(p: Player) -> Counts:
    out = [0, 0, 0, 0]
    for r, n in p.depots:
        if n:
            out[r] += n
    return out


def held(p: Player) -> Counts:
    """Every stored resource (warehouse, extra depots, strongbox), by resource."""
    wh = warehouse(p)
    return [wh[r] + p.extra[r] + p.strongbox[r] for r in range(4)]


def place_problem(p: Player, r: int, depot: int | str, count: int = 1) -> str:
    """Why ``count`` of resource ``r`` cannot go into ``depot`` now ('' when it can)."""
    if depot == "extra":
        if r not in powers(p, "extra_depot"):
            return "no_extra_depot"
        return "extra_depot_full" if p.extra[r] + count > K.EXTRA_CAPACITY else ""
    assert isinstance(depot, int)
    kind, n = p.depots[depot - 1]
    if n and kind != r:
        return "depot_other_type"
    if any(d != depot - 1 and p.depots[d][1] and p.depots[d][0] == r for d in range(3)):
        return "type_in_other_depot"
    return "depot_full" if n + count > K.DEPOT_CAPACITY[depot - 1] else ""


def put(p: Player, r: int, depot: int | str, count: int = 1) -> None:
    problem = place_problem(p, r, depot, count)
    if problem:
        raise fail(problem)
    if depot == "extra":
        p.extra[r] += count
    else:
        assert isinstance(depot, int)
        p.depots[depot - 1] = [r, p.depots[depot - 1][1] + count]


def take(p: Player, r: int, depot: int | str, count: int) -> None:
    """Remove ``count`` of ``r`` from a depot (checked first)."""
    if depot == "extra":
        if p.extra[r] < count:
            raise fail("not_enough_in_depot")
        p.extra[r] -= count
        return
    assert isinstance(depot, int)
    kind, n = p.depots[depot - 1]
    if kind != r or n < count:
        raise fail("not_enough_in_depot")
    p.depots[depot - 1] = [r, n - count] if n > count else [-1, 0]


def swap_problem(p: Player, first: int, second: int) -> str:
    if first == second:
        return "same_depot"
    a, b = p.depots[first - 1], p.depots[second - 1]
    if b[1] > K.DEPOT_CAPACITY[first - 1] or a[1] > K.DEPOT_CAPACITY[second - 1]:
        return "cannot_swap"
    return ""


def swap(p: Player, first: int, second: int) -> None:
    problem = swap_problem(p, first, second)
    if problem:
        raise fail(problem)
    d = p.depots
    d[first - 1], d[second - 1] = d[second - 1], d[first - 1]


def depot_errors(p: Player) -> list[str]:
    """Broken depot rules, for the invariant checks of the tests."""
    errors = []
    kinds = [r for r, n in p.depots if n]
    if len(kinds) != len(set(kinds)):
        errors.append("one resource in two depots")
    for i, (r, n) in enumerate(p.depots):
        if not 0 <= n <= K.DEPOT_CAPACITY[i] or (n == 0) != (r == -1):
            errors.append(f"depot {i + 1} holds {n} of {r}")
    extras = powers(p, "extra_depot")
    for r in range(4):
        if p.extra[r] and (r not in extras or p.extra[r] > K.EXTRA_CAPACITY):
            errors.append(f"extra depot of {K.RESOURCES[r]} holds {p.extra[r]}")
    return errors


# --- payments --------------------------------------------------------------------------------


def spendable(p: Player) -> dict[str, Counts]:
    """What each source can pay now (this turn's production output cannot)."""
    return {"warehouse": warehouse(p), "extra": list(p.extra),
            "strongbox": [p.strongbox[r] - p.produced[r] for r in range(4)]}


def payment_counts(p: Player, price: Counts, pay: Payment | None) -> dict[str, Counts]:
    """The per-source amounts a payment takes, checked against the price and the stock."""
    avail = spendable(p)
    if pay is None:
        if any(sum(avail[s][r] for s in SOURCES) < price[r] for r in range(4)):
            raise fail("not_enough_resources")
        return allocate(price, avail, SOURCES)
    counts = {s: _counts(getattr(pay, s)) for s in SOURCES}
    if any(sum(counts[s][r] for s in SOURCES) != price[r] for r in range(4)):
        raise fail("wrong_payment")
    if any(counts[s][r] > avail[s][r] for s in SOURCES for r in range(4)):
        raise fail("not_enough_resources")
    return counts


def _counts(amounts: dict[str, int]) -> Counts:
    out = [0, 0, 0, 0]
    for name, n in amounts.items():
        out[K.RES_INDEX[name]] += n
    return out


def allocate(price: Counts, avail: dict[str, Counts], order: tuple[str, ...]) -> dict[str, Counts]:
    """Take the price from the sources in ``order`` (the caller knows it is affordable)."""
    out = {s: [0, 0, 0, 0] for s in SOURCES}
    for r in range(4):
        need = price[r]
        for s in order:
            n = min(need, avail[s][r])
            out[s][r] = n
            need -= n
    return out


def spend(p: Player, counts: dict[str, Counts]) -> None:
    for r in range(4):
        if counts["warehouse"][r]:
            depot = next(i for i, (kind, n) in enumerate(p.depots) if n and kind == r)
            take(p, r, depot + 1, counts["warehouse"][r])
        p.extra[r] -= counts["extra"][r]
        p.strongbox[r] -= counts["strongbox"][r]


def payment_options(avail: dict[str, Counts], price: Counts) -> list[Payment]:
    """Distinct explicit payments from ``avail`` (see :func:`spendable`): one per order of
    preference of the three sources; none when the price is out of reach."""
    if any(avail["warehouse"][r] + avail["extra"][r] + avail["strongbox"][r] < price[r]
           for r in range(4)):
        return []
    if all(price[r] == 0 or sum(1 for s in SOURCES if avail[s][r]) <= 1 for r in range(4)):
        return [to_payment(allocate(price, avail, SOURCES))]  # one way to pay
    seen: list[dict[str, Counts]] = []
    for order in permutations(SOURCES):
        counts = allocate(price, avail, order)
        if counts not in seen:
            seen.append(counts)
    return [to_payment(c) for c in seen]


def to_payment(counts: dict[str, Counts]) -> Payment:
    return Payment(**{s: K.named(counts[s]) for s in SOURCES})


def payment_view(counts: dict[str, Counts]) -> dict[str, Any]:
    return {s: K.named(counts[s]) for s in SOURCES if any(counts[s])}
