"""The single-node ownership: the same calls as the PostgreSQL one, and it owns whatever its
process asks for."""

from __future__ import annotations

import pytest

from service.cluster.ownership import OwnershipLost
from service.cluster.ownership_local import LocalOwnership


async def test_a_lone_node_owns_every_match_it_asks_for() -> None:
    alone = LocalOwnership("solo")
    lost: list[frozenset[int]] = []
    alone.on_lost(lost.append)
    assert await alone.try_own(5) and await alone.try_own(5) and await alone.try_own(9)
    assert alone.owned() == frozenset({5, 9}) and alone.owns(5)
    assert await alone.owners() == {5: "solo", 9: "solo"}
    assert await alone.owner_of(9) == "solo" and await alone.owner_of(10) is None
    assert await alone.members() == ["solo"]
    assert await alone.release(5) and not await alone.release(5)
    assert alone.owned() == frozenset({9})
    await alone.close()
    assert alone.owned() == frozenset() and lost == [] and not alone.lost.is_set()
    with pytest.raises(OwnershipLost):
        await alone.try_own(1)


async def test_bad_input_is_refused_alone_too() -> None:
    alone = LocalOwnership()
    for bad in (0, -3, 2**31, "7", False):
        with pytest.raises(ValueError, match="bad match id"):
            await alone.try_own(bad)  # type: ignore[arg-type]
    assert alone.owned() == frozenset()
    with pytest.raises(ValueError, match="bad node id"):
        LocalOwnership("two words")
