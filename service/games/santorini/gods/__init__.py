"""Every god power, by its seed-001 name."""

from __future__ import annotations

from .advanced import (
    Aphrodite,
    Ares,
    Charon,
    Chronus,
    Hera,
    Hestia,
    Hypnus,
    Limus,
    Medusa,
    Poseidon,
    Triton,
    Zeus,
)
from .base import BuildOpt, God, MoveOpt
from .simple import (
    Apollo, Artemis, Athena, Atlas, Demeter, Hephaestus, Hermes, Minotaur, Pan, Prometheus,
)

_ALL: tuple[type[God], ...] = (
    Apollo, Artemis, Athena, Atlas, Demeter, Hephaestus, Minotaur, Pan, Prometheus,
    Ares, Chronus, Hestia, Triton, Zeus,
    Hera, Limus, Medusa, Poseidon, Charon, Hypnus, Aphrodite, Hermes,
)

#: name -> power object (stateless; per-match data lives in State.flags)
GODS: dict[str, God] = {cls.name: cls() for cls in _ALL}
#: the no-power stand-in used in games without gods
NO_GOD = God()

ORIGINAL_DECK: tuple[str, ...] = tuple(g.name for g in GODS.values() if g.original)


def deck(kind: str, players: int) -> list[str]:
    """Names of the gods on offer for ``players`` players ("original" or "full" deck)."""
    names = ORIGINAL_DECK if kind == "original" else tuple(GODS)
    return [n for n in names if players in GODS[n].players]


def god_of(name: str | None) -> God:
    return NO_GOD if name is None else GODS[name]


__all__ = ["GODS", "NO_GOD", "ORIGINAL_DECK", "BuildOpt", "God", "MoveOpt", "deck", "god_of"]
