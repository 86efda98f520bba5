"""Shared helpers of the Santorini rules tests (imported by file name; no conftest)."""

from __future__ import annotations

from typing import Any

import pytest

from service.errors import RulesError
from service.games.base import ActionModel
from service.games.santorini import GAME
from service.games.santorini.actions import Build, Force, Move, Remove, SelectWorker, Skip
from service.games.santorini.notation import position
from service.games.santorini.state import State

__all__ = ["GAME", "act", "cells_of", "check_legal_exact", "pos", "rejects", "sel", "step"]


def pos(board: str, gods: list[str | None] | None = None, current: int = 0, **kw: Any) -> State:
    return position(board, gods, current=current, **kw)


def act(st: State, seat: int, **raw: Any) -> list[dict[str, Any]]:
    return GAME.apply(st, seat, GAME.parse_action(raw))


def sel(st: State, seat: int, x: int, y: int) -> list[dict[str, Any]]:
    return act(st, seat, type="select_worker", x=x, y=y)


def rejects(st: State, seat: int, code: str, **raw: Any) -> None:
    before = GAME.dump_state(st)
    with pytest.raises(RulesError) as info:
        act(st, seat, **raw)
    assert info.value.code == f"rules/{code}", info.value.message
    assert GAME.dump_state(st) == before


def cells_of(st: State, seat: int, kind: str) -> set[tuple[int, int]]:
    """Targets (x, y) of the legal actions of type ``kind``."""
    return {(a.x, a.y) for a in GAME.legal_actions(st, seat) or [] if a.type == kind}  # type: ignore[attr-defined]


def step(st: State) -> str:
    assert st.turn is not None
    return st.turn.step


def universe() -> list[ActionModel]:
    """Every play action that could be sent (all cells, every kind)."""
    out: list[ActionModel] = [Skip()]
    for x in range(5):
        for y in range(5):
            out += [SelectWorker(x=x, y=y), Move(x=x, y=y), Build(x=x, y=y),
                    Build(x=x, y=y, dome=True), Remove(x=x, y=y), Force(x=x, y=y)]
    return out


ALL_PLAY = universe()


def check_legal_exact(st: State) -> None:
    """legal_actions lists exactly the play actions apply accepts; a refusal changes nothing."""
    (seat,) = GAME.to_act(st)
    legal = GAME.legal_actions(st, seat) or []
    before = GAME.dump_state(st)
    for a in ALL_PLAY:
        trial = GAME.load_state(before)
        try:
            GAME.apply(trial, seat, a)
            accepted = True
        except RulesError:
            accepted = False
            assert GAME.dump_state(trial) == before
        assert accepted == (a in legal), (a, accepted)
    assert GAME.dump_state(st) == before
