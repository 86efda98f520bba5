"""Every rules error code of Santorini, in one place (``rules/<reason>``)."""

from __future__ import annotations

from typing import NoReturn

from service.errors import RulesError

#: reason -> what it means (the docs page lists the same table)
CODES: dict[str, str] = {
    "game_over": "the match is finished",
    "not_your_turn": "another seat is to act",
    "wrong_phase": "this action belongs to another phase (god picking, placement, play)",
    "wrong_step": "this action is not what the current step of the turn asks for",
    "god_not_allowed": "unknown god, god not in this deck, or not allowed with this many players",
    "wrong_god_count": "the challenger must offer exactly as many distinct gods as players",
    "god_not_offered": "the chosen god is not among those still on offer",
    "illegal_placement": "worker placement on an occupied cell, or not two distinct cells",
    "not_your_worker": "no worker of yours on that cell",
    "worker_stuck": "that worker cannot take this turn (no legal first step)",
    "worker_locked": "the worker of this turn is already chosen: it has acted",
    "already_selected": "that worker is already the selected one: selecting it again changes nothing",
    "no_worker": "select a worker first",
    "illegal_move": "the selected worker cannot move there now",
    "illegal_build": "the worker cannot build that there now",
    "illegal_remove": "the block cannot be removed there",
    "illegal_force": "that worker cannot be forced",
    "cannot_skip": "this step is mandatory",
}


def illegal(reason: str, message: str) -> NoReturn:
    """Raise the RulesError for ``reason`` (must be one of CODES)."""
    assert reason in CODES, reason
    raise RulesError(reason, message)
