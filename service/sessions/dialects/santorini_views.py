"""What a Santorini match looks like in seed-001 messages: cells, players, deck, colours, masks.

Pure functions of a runtime's state (no I/O), used by the santorini conversation.
"""

from __future__ import annotations

import random
from typing import Any

from service.games.santorini import gods as godlib
from service.games.santorini.board import SIZE, cell, xy
from service.games.santorini.rules import god, mask, step_cells, step_kind, wire_step
from service.games.santorini.state import PLAY, SELECT, State
from service.games.santorini.views import last_block
from service.protocol import santorini as wire
from service.sessions.match import MatchRuntime

COLOURS = ("BLUE", "BROWN", "GREY")

#: (seat, nickname as that client spelled it): the receiving client, named as it names itself
#: (the original compares names with its own spelling, case-sensitively)
Own = tuple[int, str]

#: the original's card types (Divinities.json); gods outside its deck read by their kind of power
CARD_TYPES: dict[str, str] = {
    "APOLLO": "MOVEMENT", "ARTEMIS": "MOVEMENT", "ATHENA": "MOVEMENT", "ATLAS": "BUILD",
    "DEMETER": "BUILD", "HEPHAESTUS": "BUILD", "MINOTAUR": "MOVEMENT", "PAN": "MOVEMENT",
    "PROMETHEUS": "MOVEMENT", "ARES": "BUILDING", "CHRONUS": "WIN", "HESTIA": "BUILDING",
    "TRITON": "MOVEMENT", "ZEUS": "BUILDING", "HERA": "WIN", "LIMUS": "BUILDING",
    "MEDUSA": "BUILDING", "POSEIDON": "BUILDING", "CHARON": "MOVEMENT", "HYPNUS": "MOVEMENT",
    "APHRODITE": "MOVEMENT",
}


def colours(runtime: MatchRuntime) -> list[str]:
    """Seat -> colour: a permutation of BLUE, BROWN, GREY drawn from the match seed (stable
    across restarts; the original drew them at random)."""
    return random.Random(runtime.seed).sample(COLOURS, len(COLOURS))


def nickname(runtime: MatchRuntime, seat: int, own: Own | None = None) -> str:
    if own is not None and own[0] == seat:
        return own[1]
    return runtime.seats[seat].nickname or f"seat{seat}"


def card(name: str) -> wire.Card:
    power = godlib.GODS[name]
    return wire.Card(cardName=name, cardType=CARD_TYPES.get(name, "MOVEMENT"),  # type: ignore[arg-type]
                     chooseBasic=power.choose_basic,
                     numberOfPlayersAllowed=max(power.players), cardEffect=power.text)


def deck(runtime: MatchRuntime) -> wire.DeckResponse:
    """The deck offered to a lobby of this size (the original skims it by lobby size)."""
    kind = getattr(runtime.options, "deck", "original")
    names = godlib.deck(kind, len(runtime.seats))
    return wire.DeckResponse(deck=wire.Deck(listOfCards=[card(n) for n in names]))


def cells(runtime: MatchRuntime, own: Own | None = None) -> list[list[wire.Cell]]:
    st: State = runtime.state
    palette = colours(runtime)
    matrix = []
    for x in range(SIZE):
        row = []
        for y in range(SIZE):
            c = cell(x, y)
            w = st.worker_at(c)
            owner = None if w is None else st.owner(w)
            row.append(wire.Cell(
                player=None if owner is None else nickname(runtime, owner, own),
                workerColor=None if owner is None else palette[owner],  # type: ignore[arg-type]
                height=st.blocks[c] + int(st.domes[c]),
                lastBlock=last_block(st, c)))  # type: ignore[arg-type]
        matrix.append(row)
    return matrix


def battlefield(runtime: MatchRuntime, own: Own | None = None) -> wire.BattlefieldUpdate:
    return wire.BattlefieldUpdate(cellMatrix=cells(runtime, own))


def players(runtime: MatchRuntime, own: Own | None = None) -> wire.PlayersResponse:
    """The players in card-choice order (the god player, who takes the last card, comes last),
    as the original listed them."""
    st: State = runtime.state
    palette = colours(runtime)
    seats = list(range(len(runtime.seats)))
    order = seats[1:] + seats[:1] if st.gods_enabled else seats
    return wire.PlayersResponse(players=[
        wire.PlayerInfo(playerNickname=nickname(runtime, s, own), color=palette[s],  # type: ignore[arg-type]
                        card=st.gods[s] if s < len(st.gods) else None)
        for s in order])


def board_updates(events: list[dict[str, Any]], board_events: frozenset[str]) -> int:
    """How many battlefieldUpdate messages an action's events make: one per worker that moved
    (Apollo's swap and Minotaur's push move two), else one for any other change of the board."""
    moved = {e.get("worker") for e in events if e.get("type") in ("worker_moved", "worker_forced")}
    if moved:
        return len(moved)
    return int(any(e.get("type") in board_events for e in events))


def may_choose_basic(st: State, seat: int) -> bool:
    return st.gods_enabled and god(st, seat).choose_basic


def saved_basic(runtime: MatchRuntime, seat: int) -> bool:
    """Whether ``seat`` plays the turn under way as a basic one: the choice is saved with the
    match (``dialect_data``) under the number of the turn it was made for."""
    st = runtime.state
    saved = runtime.dialect_data.get("santorini") or {}
    return (st.phase == PLAY and st.current == seat
            and saved.get("basic_turn") == st.turn_number)


def atlas_domes(st: State, seat: int, basic: bool) -> bool:
    """Atlas' god turn builds domes (playStep has no room for a choice); a basic turn blocks."""
    return st.gods_enabled and st.gods[seat] == "ATLAS" and not basic


def first_step(st: State, seat: int, basic: bool) -> str:
    """The step a turn starts with, as setStartTurnResponse names it."""
    if basic or not st.gods_enabled:
        return "MOVE"
    return wire_step(god(st, seat).first_step(st, seat))


def current_step(st: State, seat: int, turn_number: int) -> str:
    """The wire step ``seat`` is on, or END when its turn ``turn_number`` is over."""
    if st.phase != PLAY or st.turn is None or st.current != seat or st.turn_number != turn_number:
        return "END"
    return wire_step(st.turn.step)


def worker_view(st: State, seat: int, basic: bool) -> list[list[bool]]:
    """The 5x5 mask of the current step's targets (all false before a selection)."""
    if st.phase != PLAY or st.turn is None or st.current != seat or st.turn.step == SELECT:
        return mask({})
    options = step_cells(st, seat)
    if step_kind(st.turn.step) == "build" and st.gods_enabled and st.gods[seat] == "ATLAS":
        wanted = atlas_domes(st, seat, basic)
        options = {c: d for c, d in options.items() if wanted in d or st.blocks[c] == 3}
    return mask(options)


def step_action(st: State, seat: int, x: int, y: int, basic: bool) -> dict[str, Any]:
    """The engine action a playStep on (x, y) stands for at the current step."""
    assert st.turn is not None
    kind = step_kind(st.turn.step)
    if kind == "build":
        return {"type": "build", "x": x, "y": y, "dome": atlas_domes(st, seat, basic)}
    return {"type": kind, "x": x, "y": y}


def worker_at_end(st: State, worker: int | None, fallback: tuple[int, int]) -> tuple[int, int]:
    """Where the turn's worker stands now (playStepResponse's x, y)."""
    if worker is None or worker >= len(st.workers) or st.workers[worker] is None:
        return fallback
    return xy(st.pos(worker))
