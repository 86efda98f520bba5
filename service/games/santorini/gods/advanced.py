"""Advanced gods: the rest of the seed-001 deck and the further gods of the rules file."""

from __future__ import annotations

from ..board import adjacent, mirror, neighbours, perimeter
from ..state import END, State
from .base import BuildOpt, God, SecondBuild


def unmoved_worker(st: State, seat: int) -> int | None:
    """The owner's worker that is not the turn's worker (None when there is none)."""
    assert st.turn is not None
    others = [w for w in st.workers_of(seat) if w != st.turn.worker]
    return others[0] if others else None


def next_to_any(st: State, seat: int, c: int) -> bool:
    return any(adjacent(st.pos(w), c) for w in st.workers_of(seat))


class Ares(God):
    name = "ARES"
    original = True
    text = "End of Your Turn: you may remove an unoccupied block (not dome) neighbouring your unmoved worker."

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        return "REMOVE" if done == "BUILD" else super().next_step(st, seat, done, skipped)

    def acting_worker(self, st: State, seat: int, step: str) -> int | None:
        return unmoved_worker(st, seat) if step == "REMOVE" else super().acting_worker(st, seat, step)

    def remove_options(self, st: State, seat: int) -> list[int]:
        u = unmoved_worker(st, seat)
        if u is None:
            return []
        return [c for c in neighbours(st.pos(u)) if not st.occupied(c) and st.blocks[c] > 0]


class Chronus(God):
    name = "CHRONUS"
    original = True
    players = frozenset({2})
    text = "Win Condition: you also win when there are at least five Complete Towers on the board."

    def wins_now(self, st: State, owner: int) -> str | None:
        return "chronus_towers" if st.complete_towers() >= 5 else None


class Hestia(SecondBuild):
    name = "HESTIA"
    original = True
    text = "Your Build: your worker may build one additional time, but not on a perimeter space."

    def second_build(self, st: State, options: list[BuildOpt]) -> list[BuildOpt]:
        return [o for o in options if not perimeter(o.cell)]


class Triton(God):
    name = "TRITON"
    original = True
    text = "Your Move: each time your worker moves into a perimeter space, it may immediately move again."

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        if done in ("MOVE", "MOVE_UNTIL") and not skipped:
            assert st.turn is not None and st.turn.worker is not None
            return "MOVE_UNTIL" if perimeter(st.pos(st.turn.worker)) else "BUILD"
        return super().next_step(st, seat, done, skipped)

    def may_continue(self, st: State, seat: int, step: str, to: int) -> bool:
        return perimeter(to)


class Zeus(God):
    name = "ZEUS"
    original = True
    text = "Your Build: your worker may build a block under itself."

    def build_options(self, st: State, seat: int, w: int, step: str) -> list[BuildOpt]:
        opts = super().build_options(st, seat, w, step)
        here = st.pos(w)
        if st.blocks[here] < 3:
            opts.append(BuildOpt(here, False))
        return opts


class Hera(God):
    name = "HERA"
    text = "Opponent's Turn: an opponent cannot win by moving into a perimeter space."

    def denies_win(self, st: State, owner: int, seat: int, to: int) -> bool:
        return perimeter(to)


class Limus(God):
    name = "LIMUS"
    text = "Opponent's Turn: opponent workers cannot build on spaces neighbouring your workers, unless building a dome to create a Complete Tower."

    def forbids_build(self, st: State, owner: int, seat: int, c: int, dome: bool) -> bool:
        completes_tower = dome and st.blocks[c] == 3
        return not completes_tower and next_to_any(st, owner, c)


class Medusa(God):
    name = "MEDUSA"
    text = "End of Your Turn: if possible, your workers build in lower neighbouring spaces occupied by opponent workers, removing the opponent workers from the game."

    def end_of_turn_captures(self, st: State, seat: int) -> list[int]:
        victims: list[int] = []
        for w in st.workers_of(seat):
            here = st.pos(w)
            for c in neighbours(here):
                occ = st.worker_at(c)
                if occ is not None and st.owner(occ) != seat and st.blocks[c] < st.blocks[here]:
                    if occ not in victims:
                        victims.append(occ)
        return sorted(victims)


class Poseidon(God):
    name = "POSEIDON"
    text = "End of Your Turn: if your unmoved worker is on the ground level, it may build up to three times in neighbouring spaces."

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        assert st.turn is not None
        more = done == "BUILD" or (done == "BUILD_UNMOVED" and not skipped and st.turn.extra_builds < 3)
        u = unmoved_worker(st, seat)
        if more and u is not None and st.blocks[st.pos(u)] == 0:
            return "BUILD_UNMOVED"
        return END if done in ("BUILD", "BUILD_UNMOVED") else super().next_step(st, seat, done, skipped)

    def acting_worker(self, st: State, seat: int, step: str) -> int | None:
        if step == "BUILD_UNMOVED":
            return unmoved_worker(st, seat)
        return super().acting_worker(st, seat, step)


class Charon(God):
    name = "CHARON"
    text = "Your Move: before your worker moves, you may force a neighbouring opponent worker to the space directly on the other side of your worker, if that space is unoccupied."

    def first_step(self, st: State, seat: int) -> str:
        return "FORCE"

    def force_options(self, st: State, seat: int, w: int) -> dict[int, int]:
        here = st.pos(w)
        out: dict[int, int] = {}
        for c in neighbours(here):
            occ = st.worker_at(c)
            if occ is None or st.owner(occ) == seat:
                continue
            dest = mirror(c, here)
            if dest is not None and not st.occupied(dest):
                out[c] = dest
        return out


class Hypnus(God):
    name = "HYPNUS"
    text = "Start of Opponent's Turn: if one of your opponent's workers is higher than all of their others, it cannot move."

    def blocked_workers(self, st: State, owner: int, seat: int) -> list[int]:
        ws = st.workers_of(seat)
        if len(ws) < 2:
            return []
        top = max(st.blocks[st.pos(w)] for w in ws)
        highest = [w for w in ws if st.blocks[st.pos(w)] == top]
        return highest if len(highest) == 1 else []


class Aphrodite(God):
    name = "APHRODITE"
    players = frozenset({2})
    binds = True
    text = "Any Move: if an opponent worker starts its turn neighbouring one of your workers, its last move must be to a space neighbouring one of your workers."

    def binds_workers(self, st: State, owner: int, seat: int) -> list[int]:
        return [w for w in st.workers_of(seat) if next_to_any(st, owner, st.pos(w))]

    def binds_to(self, st: State, owner: int, c: int) -> bool:
        return next_to_any(st, owner, c)


