"""Bringing a client back to its seat in the words the original Santorini client understands.

The original CLI has one path through a game: the lobby answer, ``setPickedCards``, the
deck, the god player's pick, ``setPlayerCard``, ``setWorkersPosition``, then ``actualPlayer``
and the turn. A client that comes back (the same process on a new connection, or a new
process) walks that path again from its start. So the server sends, at once, every prompt
of the path as it was already played (each one wakes the original at the matching wait,
whenever it gets there), and then *absorbs* the answers the client replays for steps that
were already played: the god player's second pick, the confirmation of its own card, a
placement of workers already on the board, and, when its turn is under way, its
``setStartTurn`` and ``selectWorker``. Absorbed replays change nothing and get no answer,
except a placement, answered by the true battlefield (the client drew its workers where it
meant to put them).

Pure functions of a match (no I/O); the conversation keeps the set of replays it expects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.games.santorini.state import CHOOSE, PICK, PLACE, PLAY, SELECT, State
from service.protocol import santorini as wire
from service.sessions.dialects import santorini_views as views
from service.sessions.match import MatchRuntime

#: replays of the set-up (the god player's pick, the own card, the own placement)
PICK_AGAIN, CARD_AGAIN, PLACE_AGAIN = "pick", "card", "place"
#: replays of a turn under way
START_AGAIN, SELECT_AGAIN = "start", "select"
SETUP_REPLAYS = frozenset({PICK_AGAIN, CARD_AGAIN, PLACE_AGAIN})
TURN_REPLAYS = frozenset({START_AGAIN, SELECT_AGAIN})

#: the client message each replay comes as
REPLAY_OF: dict[type[wire.Message], str] = {
    wire.PickCards: PICK_AGAIN, wire.ChooseCard: CARD_AGAIN, wire.PlaceWorkers: PLACE_AGAIN,
    wire.SetStartTurn: START_AGAIN, wire.SelectWorker: SELECT_AGAIN,
}


@dataclass
class Replays:
    """The replays a returning client will send: each is absorbed once, in the order of the path
    (a turn message ends the set-up replays; a step or a new turn ends the turn replays)."""

    kinds: set[str] = field(default_factory=set)
    #: the turn the turn replays belong to
    turn_number: int | None = None

    def expects(self, message: wire.Message, st: State) -> bool:
        """Whether ``message`` is an expected replay (forgetting the replays it makes stale)."""
        kind = REPLAY_OF.get(type(message))
        stepped = isinstance(message, (wire.PlayStep, wire.SkipStep))
        if stepped or kind in TURN_REPLAYS:
            self.kinds -= SETUP_REPLAYS
        if stepped or (self.turn_number is not None
                       and (st.turn_number != self.turn_number or st.phase != PLAY)):
            self.kinds -= TURN_REPLAYS
        return kind is not None and kind in self.kinds

    def absorb(self, message: wire.Message) -> None:
        self.kinds.discard(REPLAY_OF[type(message)])


@dataclass
class CatchUp:
    """What a returning client is sent, and which of its messages will be replays."""

    messages: list[wire.Message] = field(default_factory=list)
    replays: Replays = field(default_factory=Replays)


def catch_up(runtime: MatchRuntime, seat: int, nick: str, absent: set[int]) -> CatchUp:
    """The messages that bring a fresh client at ``seat`` to the present position; ``nick``
    is its nickname as it spelled it (the original compares names case-sensitively)."""
    st = runtime.state
    out = CatchUp()
    own = (seat, nick)
    out.messages.append(wire.PickedCardsRequest(playerNickname=views.nickname(runtime, 0, own)))
    out.messages.append(views.battlefield(runtime, own))
    for other in sorted(absent):
        out.messages.append(wire.PlayerDisconnected(playerNickname=views.nickname(runtime, other)))
    if seat == 0 and st.phase != PICK:
        out.replays.kinds.add(PICK_AGAIN)
    _cards(runtime, seat, out)
    _workers(runtime, seat, out)
    _turn(runtime, seat, nick, out)
    return out


def _cards(runtime: MatchRuntime, seat: int, out: CatchUp) -> None:
    st = runtime.state
    mine = st.gods[seat] if seat < len(st.gods) else None
    if mine is not None:
        out.messages.append(wire.PlayerCardRequest(cards=[mine]))
        out.replays.kinds.add(CARD_AGAIN)
    elif st.phase == CHOOSE and st.current == seat:
        out.messages.append(wire.PlayerCardRequest(cards=list(st.offered)))


def _workers(runtime: MatchRuntime, seat: int, out: CatchUp) -> None:
    st = runtime.state
    placed = seat < len(st.placed) and st.placed[seat]
    if placed or (st.phase == PLACE and st.current == seat):
        out.messages.append(wire.WorkersRequest(workersID=[2 * seat, 2 * seat + 1]))
    if placed:
        out.replays.kinds.add(PLACE_AGAIN)


def _turn(runtime: MatchRuntime, seat: int, nick: str, out: CatchUp) -> None:
    st = runtime.state
    if st.phase != PLAY or st.current != seat:
        return
    out.messages.append(wire.ActualPlayer(playerNickname=nick))
    if st.turn is None or st.turn.step == SELECT:
        return
    basic = views.saved_basic(runtime, seat)
    out.messages.append(wire.StartTurnResponse(
        playerNickname=nick, basicTurn=basic,
        currentStep=views.current_step(st, seat, st.turn_number)))  # type: ignore[arg-type]
    out.messages.append(wire.WorkerView(workerView=views.worker_view(st, seat, basic)))
    out.replays.kinds |= TURN_REPLAYS
    out.replays.turn_number = st.turn_number


__all__ = ["CARD_AGAIN", "CatchUp", "PICK_AGAIN", "PLACE_AGAIN", "REPLAY_OF", "Replays",
           "SELECT_AGAIN", "SETUP_REPLAYS", "START_AGAIN", "TURN_REPLAYS", "catch_up"]
