"""The seed-004 new-game lobbies: the first player sets the rules, everybody picks a wizard.

A lobby gathers its players before the match exists, because the match's options (wizards per
seat, the first player by magic age) are only known once everyone is in. One ``G27Lobby`` per hub
(see :func:`lobby_for`); it also keeps the usernames connected right now.
"""

from __future__ import annotations

import bisect
import logging
from dataclasses import dataclass, field
from typing import Protocol

from service.errors import SessionError
from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27_values import WIZARDS
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord

log = logging.getLogger(__name__)

GAME_NAME = "eriantys"


class LobbyClient(Protocol):
    """What a lobby needs from a conversation."""

    def ask_rules(self) -> None: ...

    def ask_wizard(self) -> None: ...

    def enter_game(self, runtime: MatchRuntime, seat: int) -> None: ...

    def begin_game(self) -> None: ...

    def lobby_moved(self, lobby: NewLobby, ask: str) -> None: ...


@dataclass(eq=False)
class Member:
    client: LobbyClient
    player: PlayerRecord
    username: str
    age: int
    wizard: str | None = None


@dataclass(eq=False)
class NewLobby:
    members: list[Member] = field(default_factory=list)
    seats: int | None = None  # None while the first player has not chosen the rules
    expert: bool = True
    starting: bool = False

    def free_wizards(self) -> list[str]:
        taken = {m.wizard for m in self.members}
        return [w for w in WIZARDS if w not in taken]

    def full(self) -> bool:
        return self.seats is not None and len(self.members) >= self.seats


class G27Lobby:
    def __init__(self, hub: Hub, dialect: str) -> None:
        self.hub = hub
        self.dialect = dialect
        #: the client holding each username connected now (by its case-folded key)
        self.names: dict[str, object] = {}
        self.lobbies: list[NewLobby] = []
        self._shown: dict[str, str] = {}  # key -> the username as its holder wrote it
        self._sorted: list[str] = []  # those usernames in order, as the greeting lists them
        self._greeting: str | None = None  # the greeting of the names connected now

    # --- usernames connected now ------------------------------------------------------

    def greeting(self) -> str:
        """The formatted USERNAMEANDMAGICAGE request: the usernames connected now, as many as
        one frame holds. Built once per change of the connected names, in one pass."""
        if self._greeting is None:
            self._greeting = wire.username_request(self._sorted)
        return self._greeting

    def claim(self, username: str, client: object) -> bool:
        """Hold a name for ``client``; a connection left open after its game ended (as the
        original leaves them) gives the name up to a new login."""
        key = username.casefold()
        holder = self.names.get(key)
        if holder is not None and holder is not client:
            if getattr(holder, "stage", None) not in ("over", "released"):
                return False
            getattr(holder, "release")()
        self._unlist(key)
        self.names[key], self._shown[key] = client, username
        bisect.insort(self._sorted, username)
        return True

    def release(self, username: str, client: object) -> None:
        key = username.casefold()
        if self.names.get(key) is client:
            del self.names[key]
            self._unlist(key)

    def _unlist(self, key: str) -> None:
        shown = self._shown.pop(key, None)
        if shown is not None:
            del self._sorted[bisect.bisect_left(self._sorted, shown)]
        self._greeting = None

    # --- new lobbies ----------------------------------------------------------------------

    def enter(self, member: Member) -> tuple[NewLobby, str]:
        """Put a player in a lobby; says what to ask: ``rules``, ``wizard`` or nothing (queued)."""
        for lobby in self.lobbies:
            if lobby.seats is not None and not lobby.full() and not lobby.starting:
                lobby.members.append(member)
                return lobby, "wizard"
        for lobby in self.lobbies:
            if lobby.seats is None:
                lobby.members.append(member)  # waits for the rules of the first player
                return lobby, "queued"
        lobby = NewLobby([member])
        self.lobbies.append(lobby)
        return lobby, "rules"

    def set_rules(self, lobby: NewLobby, seats: int, expert: bool) -> None:
        lobby.seats, lobby.expert = seats, expert
        overflow = lobby.members[seats:]
        del lobby.members[seats:]
        for member in lobby.members[1:]:
            member.client.ask_wizard()
        for member in overflow:  # more were queued than the rules allow: they go on
            self._reroute(member)

    def _reroute(self, member: Member) -> None:
        lobby, ask = self.enter(member)
        member.client.lobby_moved(lobby, ask)

    async def choose_wizard(self, lobby: NewLobby, member: Member, wizard: str) -> None:
        if wizard not in lobby.free_wizards():
            raise SessionError(f"the wizard {wizard} is not available", code="session/wizard_taken")
        member.wizard = wizard
        if lobby.full() and all(m.wizard for m in lobby.members) and not lobby.starting:
            await self._start(lobby)

    def leave(self, lobby: NewLobby, member: Member) -> None:
        if member not in lobby.members or lobby.starting:
            return
        was_first = lobby.members[0] is member
        lobby.members.remove(member)
        if not lobby.members:
            self.lobbies.remove(lobby)
        elif was_first and lobby.seats is None:
            lobby.members[0].client.ask_rules()  # the next one decides the rules

    async def _start(self, lobby: NewLobby) -> None:
        lobby.starting = True
        self.lobbies.remove(lobby)
        members = lobby.members
        oldest = max(range(len(members)), key=lambda i: (members[i].age, -i))
        options = {"expert": lobby.expert, "first_player": oldest,
                   "wizards": [str(m.wizard).lower() for m in members]}
        runtime, _ = await self.hub.create(GAME_NAME, options, seats=len(members),
                                           dialect=self.dialect)
        for seat, member in enumerate(members):
            await self.hub.join(runtime.id, member.player, seat)
        log.info("eriantys-g27: match %s started for %s", runtime.id,
                 [m.username for m in members])
        for seat, member in enumerate(members):
            member.client.enter_game(runtime, seat)
        for member in members:
            member.client.begin_game()


def lobby_for(hub: Hub, dialect: str) -> G27Lobby:
    """The one lobby of this dialect on this hub (lives in the hub, dropped with it)."""
    return hub.dialect_state(dialect, lambda: G27Lobby(hub, dialect))
