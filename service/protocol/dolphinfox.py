"""The seed-002 wire format: ``HHH[ data]`` lines, sans I/O.

Header letters: sender, addressee, type. Codes: B board, C controller,
D/E dolphin player/viewer, F/G fox player/viewer, P/Q new player/viewer.
Types: B board, F fail, J join, M move, N next, R refresh, S end, T team.

Tavolo extensions (strict clients may ignore them):
``CPK <key>`` after ``CPT D|F`` hands the player a resume key; ``PCJ <key>``
takes that seat back; ``QCJ <match id>`` watches that match (a live one). An error answer to the sender is ``C<x>F <code> <text>``
where ``<x>`` is the sender's own letter.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.errors import ProtocolError

SENDERS_TO_SERVER = {"P", "Q", "D", "F"}
PLAYER_CODE = ("D", "F")
VIEWER_CODE = ("E", "G")
MAX_COORD_DIGITS = 3


@dataclass(frozen=True)
class Join:
    """``PCJ`` (player), ``QCJ`` (viewer); ``key`` (players) and ``match_id`` (viewers)
    are Tavolo's extensions."""

    viewer: bool
    key: str | None = None
    match_id: int | None = None


@dataclass(frozen=True)
class MoveCmd:
    sender: str
    r1: int
    c1: int
    r2: int
    c2: int


@dataclass(frozen=True)
class Refresh:
    sender: str


ClientMessage = Join | MoveCmd | Refresh


def parse(line: str) -> ClientMessage:
    """One client line to a message; ProtocolError (with a stable code) when it is not one."""
    header, _, data = line.partition(" ")
    if len(header) != 3:
        raise ProtocolError(f"a header has 3 letters, got {header!r}", code="protocol/bad_header")
    sender, addressee, kind = header
    if sender not in SENDERS_TO_SERVER:
        raise ProtocolError(f"unknown sender {sender!r}", code="protocol/unknown_sender")
    if kind == "J":
        return _parse_join(sender, addressee, data)
    if sender not in PLAYER_CODE:
        raise ProtocolError(f"{sender} may only send J", code="protocol/wrong_sender")
    if addressee != "B":
        raise ProtocolError(f"{kind} messages go to B, not {addressee!r}", code="protocol/bad_addressee")
    if kind == "M":
        return _parse_move(sender, data)
    if kind == "R":
        return Refresh(sender)
    raise ProtocolError(f"unknown message type {kind!r}", code="protocol/unknown_type")


def _parse_join(sender: str, addressee: str, data: str) -> Join:
    if sender not in ("P", "Q") or addressee != "C":
        raise ProtocolError("a join is PCJ or QCJ", code="protocol/bad_header")
    key = data.strip() or None
    if sender == "Q":
        if key is not None and not (key.isascii() and key.isdigit() and 0 < int(key) < 2**31):
            raise ProtocolError("a viewer names a match by its id: QCJ <match id>",
                                code="protocol/bad_join")
        return Join(viewer=True, match_id=None if key is None else int(key))
    if key is not None and (len(key) > 128 or not key.isprintable()):
        raise ProtocolError("a join key is short and printable", code="protocol/bad_join")
    return Join(viewer=False, key=key)


def _parse_move(sender: str, data: str) -> MoveCmd:
    parts = data.split(" ")
    if len(parts) != 4 or not all(_is_int(p) for p in parts):
        raise ProtocolError("a move is four integers: r1 c1 r2 c2", code="protocol/bad_move")
    r1, c1, r2, c2 = (int(p) for p in parts)
    return MoveCmd(sender, r1, c1, r2, c2)


def _is_int(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return digits.isdigit() and digits.isascii() and len(digits) <= MAX_COORD_DIGITS


# --- server lines --------------------------------------------------------------


def team_announcement(viewer: bool, team: str) -> str:
    """``CPT D`` / ``CQT F``; team ``R`` means rejected."""
    return f"C{'Q' if viewer else 'P'}T {team}"


def resume_key(key: str) -> str:
    return f"CPK {key}"


def board(viewer_code: str, encoded: str) -> str:
    return f"B{viewer_code}B {encoded}"


def failed(viewer_code: str) -> str:
    return f"B{viewer_code}F"


def next_turn(code: str) -> str:
    return f"B{code}N"


def game_end(code: str) -> str:
    return f"C{code}S"


def error(code: str, err_code: str, message: str) -> str:
    return f"C{code}F {err_code} {message}"
