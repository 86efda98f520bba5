"""A seed-001 (Santorini) test client and a table driver that plays whole games over the wire.

The driver keeps its own copy of the game (``mirror``), decides every engine action with a
seeded policy (so the same seed gives the same game offline and over TCP), sends the
original's messages for it, and checks the answers against the mirror.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from service.games.santorini import GAME
from service.games.santorini.actions import Build, ChooseGod, PickGods, PlaceWorkers, SelectWorker, Skip
from service.games.santorini.state import OVER, PLAY, State

TIMEOUT = 10.0


class SantoriniClient:
    """One TCP connection; answers pings by itself (unless told not to) and keeps an inbox."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 auto_pong: bool = True) -> None:
        self.reader, self.writer = reader, writer
        self.auto_pong = auto_pong
        self.nick = ""
        self.pings = 0
        self.inbox: list[dict[str, Any]] = []
        #: every action received but pings, in order of arrival
        self.log: list[str] = []
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, auto_pong: bool = True) -> SantoriniClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, auto_pong)

    async def _read(self) -> None:
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                message = json.loads(line)
                if message.get("action") == "ping":
                    self.pings += 1
                    if self.auto_pong:
                        await self.send("pong")
                    continue
                self.log.append(message["action"])
                self.queue.put_nowait(message)
        except (ConnectionError, OSError):
            pass
        finally:
            self.queue.put_nowait(None)

    async def send(self, action: str, data: dict[str, Any] | None = None) -> None:
        obj: dict[str, Any] = {"action": action}
        if data:
            obj["data"] = data
        self.writer.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")
        await self.writer.drain()

    async def send_raw(self, raw: bytes) -> None:
        self.writer.write(raw)
        await self.writer.drain()

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self.inbox:
            return self.inbox.pop(0)
        message = await asyncio.wait_for(self.queue.get(), timeout)
        if message is None:
            self.queue.put_nowait(None)
            raise ConnectionError("closed by the server")
        return message

    async def expect(self, action: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The very next message must be ``action``; returns its data."""
        message = await self.next(timeout)
        assert message["action"] == action, f"{self.nick}: expected {action}, got {message}"
        return message.get("data", {})

    async def wait_for(self, action: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first ``action`` message (others stay in the inbox, in order); returns its data."""
        for i, message in enumerate(self.inbox):
            if message["action"] == action:
                return self.inbox.pop(i).get("data", {})
        kept: list[dict[str, Any]] = []
        try:
            while True:
                message = await asyncio.wait_for(self.queue.get(), timeout)
                if message is None:
                    self.queue.put_nowait(None)
                    raise ConnectionError(f"{self.nick}: closed while waiting for {action}")
                if message["action"] == action:
                    return message.get("data", {})
                kept.append(message)
        finally:
            self.inbox.extend(kept)

    def seen(self, action: str) -> bool:
        return any(m["action"] == action for m in self.inbox)

    async def closed(self, timeout: float = TIMEOUT) -> bool:
        await asyncio.wait_for(self.task, timeout)
        return True

    async def close(self) -> None:
        self.task.cancel()
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    async def join(self, nick: str, size: int) -> dict[str, Any]:
        self.nick = nick
        await self.send("addPlayer", {"playerNickname": nick, "lobbySize": size})
        return await self.wait_for("addPlayerResponse")


# --- the policy: the same choices offline and over the wire --------------------------------


def wire_legal(st: State, seat: int) -> list[Any]:
    """Legal actions a seed-001 client can express in a god turn (Atlas builds domes)."""
    atlas = st.gods_enabled and st.gods[seat] == "ATLAS"
    out = []
    for a in GAME.legal_actions(st, seat) or []:
        if isinstance(a, Build) and a.dome != atlas:
            continue
        if a.type == "force":
            continue
        out.append(a)
    return out


def decide(st: State, seat: int, rng: random.Random) -> Any:
    legal = wire_legal(st, seat)
    if st.phase == PLAY and st.turn is not None and st.turn.step != "SELECT":
        legal = [a for a in legal if not isinstance(a, SelectWorker)]
        skips = [a for a in legal if isinstance(a, Skip)]
        if skips and rng.random() < 0.5:
            return skips[0]
        legal = [a for a in legal if not isinstance(a, Skip)] or legal
    elif st.phase == PLAY:
        legal = [a for a in legal if isinstance(a, SelectWorker)]
    return rng.choice(legal)


def simulate(seats: int, seed: int, limit: int = 600) -> tuple[State, int]:
    """The game the driver would play with this seed, offline; (final state, actions)."""
    rng = random.Random(seed)
    st = GAME.setup(seats, GAME.parse_options({"deck": "original"}), 0)
    for n in range(limit):
        if st.phase == OVER:
            return st, n
        seat = st.current
        GAME.apply(st, seat, decide(st, seat, rng))
    return st, limit


def find_seed(seats: int, want_elimination: bool, start: int = 0) -> int:
    for seed in range(start, start + 2000):
        st, n = simulate(seats, seed)
        if st.phase != OVER:
            continue
        if not want_elimination or (st.out_order and st.winner is not None):
            return seed
    raise AssertionError("no seed found")


# --- the table: several clients, one mirror ---------------------------------------------------


class Table:
    def __init__(self, clients: list[SantoriniClient], seed: int) -> None:
        self.clients = clients
        self.rng = random.Random(seed)
        self.mirror = GAME.setup(len(clients), GAME.parse_options({"deck": "original"}), 0)
        self.actions = 0

    def nick(self, seat: int) -> str:
        return self.clients[seat].nick

    async def setup(self) -> None:
        st = self.mirror
        for c in self.clients:
            assert (await c.wait_for("setPickedCards")) == {"playerNickname": self.nick(0)}
        god = self.clients[0]
        await god.send("getDeck")
        deck = (await god.wait_for("getDeckResponse"))["deck"]["listOfCards"]
        pick = decide(st, 0, self.rng)
        assert isinstance(pick, PickGods)
        assert set(pick.gods) <= {c["cardName"] for c in deck}
        await god.send("setPickedCards", {"cards": list(pick.gods)})
        GAME.apply(st, 0, pick)
        for seat in range(1, len(self.clients)):
            client = self.clients[seat]
            offered = (await client.wait_for("setPlayerCard"))["cards"]
            assert offered == list(st.offered)
            choice = decide(st, seat, self.rng)
            assert isinstance(choice, ChooseGod)
            await client.send("setPlayerCard", {"playerNickname": client.nick, "card": choice.god})
            GAME.apply(st, seat, choice)
        assert (await god.wait_for("setPlayerCard"))["cards"] == [st.gods[0]]
        await god.send("setPlayerCard", {"playerNickname": god.nick, "card": st.gods[0]})
        for seat, client in enumerate(self.clients):
            assert (await client.wait_for("setWorkersPosition")) == {"workersID": [2 * seat, 2 * seat + 1]}
            place = decide(st, seat, self.rng)
            assert isinstance(place, PlaceWorkers)
            await client.send("setWorkersPosition", {"playerNickname": client.nick, "workersPosition": [
                {"workerID": 2 * seat + k, "x": p.x, "y": p.y} for k, p in enumerate(place.positions)]})
            GAME.apply(st, seat, place)
            for each in self.clients:  # every placement is broadcast
                await each.wait_for("battlefieldUpdate")
        # like the original, only the player whose turn it is hears actualPlayer
        assert (await self.clients[0].wait_for("actualPlayer")) == {"playerNickname": self.nick(0)}

    async def turn(self) -> None:
        """One whole turn of the current player, checked message by message."""
        number = await self.start_turn()
        await self.rest_of_turn(number)

    async def start_turn(self) -> int:
        """setStartTurn and selectWorker for the current player; returns the turn number."""
        st = self.mirror
        seat = st.current
        client = self.clients[seat]
        await client.send("setStartTurn", {"playerNickname": client.nick, "basicTurn": False})
        started = await client.wait_for("setStartTurnResponse")
        assert started["playerNickname"] == client.nick and started["basicTurn"] is False
        select = decide(st, seat, self.rng)
        await client.send("selectWorker", {"playerNickname": client.nick, "x": select.x, "y": select.y})
        GAME.apply(st, seat, select)
        assert (await client.wait_for("workerViewUpdate"))["workerView"] == self.expected_mask(seat)
        return st.turn_number

    async def send_step(self) -> Any:
        """Send the next step of the current turn (not yet applied to the mirror)."""
        st = self.mirror
        client = self.clients[st.current]
        action = decide(st, st.current, self.rng)
        if isinstance(action, Skip):
            await client.send("skipStep")
        else:
            await client.send("playStep", {"x": action.x, "y": action.y})
        return action

    async def rest_of_turn(self, number: int) -> None:
        st = self.mirror
        seat = st.current
        client = self.clients[seat]
        while st.phase != OVER and st.current == seat and st.turn_number == number:
            action = await self.send_step()
            GAME.apply(st, seat, action)
            self.actions += 1
            over = st.phase == OVER or st.current != seat or st.turn_number != number
            expected = "END" if over else _wire_step(st)
            if isinstance(action, Skip):
                assert (await client.wait_for("skipStepResponse"))["currentStep"] == expected
            else:
                assert (await client.wait_for("playStepResponse"))["nextStep"] == expected
            if not over:
                assert (await client.wait_for("workerViewUpdate"))["workerView"] == self.expected_mask(seat)

    def expected_mask(self, seat: int) -> list[list[bool]]:
        grid = [[False] * 5 for _ in range(5)]
        for a in wire_legal(self.mirror, seat):
            if not isinstance(a, (SelectWorker, Skip)):
                grid[a.x][a.y] = True
        return grid

    async def play(self, limit: int = 600) -> None:
        await self.setup()
        await self.finish(limit)

    async def finish(self, limit: int = 600) -> None:
        while self.mirror.phase != OVER:
            assert self.actions < limit, "the game did not end"
            await self.turn()


def _wire_step(st: State) -> str:
    from service.games.santorini.rules import wire_step

    assert st.turn is not None
    return wire_step(st.turn.step)


# --- a client that behaves as the original Santorini CLI ------------------------------------


class Dropped(Exception):
    """The scripted original client reached the point where it was told to drop."""


class _Wait:
    """The original's WaitObject: a notification that came before the wait is not lost, and
    two notifications before one wait count once."""

    def __init__(self) -> None:
        self.used = asyncio.Event()

    def notify(self) -> None:
        self.used.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self.used.wait(), TIMEOUT)
        self.used.clear()


class OriginalCli:
    """The original CLI's path through a game (CLIController.startGame), with a seeded player at
    the keyboard. It reads only what the original's commands read, waits where the original
    waits, and stops at the first serverError, as the original did. ``drop_at`` names a point
    (``picked``, ``chose``, ``placed``, ``moved``, ``ended``) and how many times to pass it
    before the connection is closed there (``Dropped``)."""

    def __init__(self, port: int, nick: str, size: int, seed: int,
                 drop_at: tuple[str, int] | None = None) -> None:
        self.port, self.nick, self.size = port, nick, size
        self.rng = random.Random(seed)
        self.drop_at = drop_at
        self.passed: dict[str, int] = {}
        self.waits = {name: _Wait() for name in (
            "addPlayerResponse", "setPickedCards", "getDeckResponse", "setPlayerCard",
            "setWorkersPosition", "getPlayersResponse", "getBattlefieldResponse", "actualPlayer",
            "setStartTurnResponse", "workerViewUpdate", "playStepResponse", "skipStepResponse")}
        self.data: dict[str, dict[str, Any]] = {}
        self.battlefield: list[list[dict[str, Any]]] = []
        self.result: str | None = None
        self.finished = asyncio.Event()
        self.ignored: list[str] = []
        #: what went either way, in order (``>`` sent, ``<`` received), for failure messages
        self.trace: list[str] = []
        #: set once the server took the nickname (so tests can seat players in order)
        self.joined = asyncio.Event()

    async def play(self) -> str:
        """Connect and play until youWin/youLose; the result."""
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        reading = asyncio.create_task(self._read(reader))
        flow = asyncio.create_task(self._flow())
        over = asyncio.create_task(self.finished.wait())
        try:
            await asyncio.wait({flow, over}, return_when=asyncio.FIRST_COMPLETED)
            if flow.done() and flow.exception() is not None:
                raise flow.exception()  # type: ignore[misc]
            assert self.result is not None
            return self.result
        finally:
            for task in (flow, over, reading):
                task.cancel()
            self.writer.close()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while line := await reader.readline():
            message = json.loads(line)
            action, data = message["action"], message.get("data", {})
            if action != "ping":
                self.trace.append(f"<{action}")
            if action == "ping":
                await self._send("pong")
            elif action == "serverError":  # the original reports it and closes
                self.result = f"serverError: {data['error']}"
                self.finished.set()
            elif action in ("youWin", "youLose"):
                self.result = action
                self.finished.set()
            elif action in ("battlefieldUpdate", "getBattlefieldResponse"):
                self.battlefield = data["cellMatrix"]
                if action == "getBattlefieldResponse":
                    self.waits[action].notify()
            elif action in self.waits:
                self.data[action] = data
                self.waits[action].notify()
            else:  # the original logs a command it does not know and goes on
                self.ignored.append(action)

    async def _send(self, action: str, data: dict[str, Any] | None = None) -> None:
        obj: dict[str, Any] = {"action": action}
        if data:
            obj["data"] = data
        if action != "pong":
            self.trace.append(f">{action}")
        self.writer.write(json.dumps(obj).encode() + b"\n")
        await self.writer.drain()

    async def _ask(self, action: str, data: dict[str, Any] | None, answer: str) -> dict[str, Any]:
        await self._send(action, data)
        return await self._await(answer)

    async def _await(self, answer: str) -> dict[str, Any]:
        try:
            await self.waits[answer].wait()
        except asyncio.TimeoutError:
            raise AssertionError(f"{self.nick}: no {answer} within {TIMEOUT} s; last: {self.trace[-12:]}") from None
        return self.data.get(answer, {})

    def _checkpoint(self, name: str) -> None:
        self.passed[name] = self.passed.get(name, 0) + 1
        if self.drop_at == (name, self.passed[name]):
            self.writer.close()
            raise Dropped(f"{self.nick} dropped at {name}")

    async def _flow(self) -> None:
        answer = await self._ask("addPlayer", {"playerNickname": self.nick, "lobbySize": self.size},
                                 "addPlayerResponse")
        while not answer["validNick"]:  # the nickname is still in use: type it again
            answer = await self._ask("addPlayer", {"playerNickname": self.nick, "lobbySize": self.size},
                                     "addPlayerResponse")
        self.joined.set()
        await self._cards(answer["lobbySize"])
        await self._workers()
        while True:
            await self._turn()

    async def _cards(self, size: int) -> None:
        god = (await self._await("setPickedCards"))["playerNickname"]
        deck = (await self._ask("getDeck", None, "getDeckResponse"))["deck"]["listOfCards"]
        self.deck = {c["cardName"]: c for c in deck}
        if god == self.nick:
            await self._send("setPickedCards", {"cards": self.rng.sample(sorted(self.deck), size)})
            self._checkpoint("picked")
        cards = (await self._await("setPlayerCard"))["cards"]
        self.card = self.rng.choice(cards)
        await self._send("setPlayerCard", {"playerNickname": self.nick, "card": self.card})
        self._checkpoint("chose")

    async def _workers(self) -> None:
        ids = (await self._await("setWorkersPosition"))["workersID"]
        players = (await self._ask("getPlayers", None, "getPlayersResponse"))["players"]
        # the original finds its colour (and card) by its own spelling, case-sensitively
        assert [p["card"] for p in players if p["playerNickname"] == self.nick] == [self.card], players
        await self._ask("getBattlefield", None, "getBattlefieldResponse")
        free = [(x, y) for x in range(5) for y in range(5) if "player" not in self.battlefield[x][y]]
        spots = self.rng.sample(free, 2)
        for x, y in spots:  # drawn at once on the client's own board, as the original did
            self.battlefield[x][y] = {**self.battlefield[x][y], "player": self.nick}
        await self._send("setWorkersPosition", {"playerNickname": self.nick, "workersPosition": [
            {"workerID": w, "x": x, "y": y} for w, (x, y) in zip(ids, spots)]})
        self._checkpoint("placed")

    async def _turn(self) -> None:
        while (await self._await("actualPlayer"))["playerNickname"] != self.nick:
            pass
        basic = self.deck[self.card]["chooseBasic"] and self.rng.random() < 0.5
        step = (await self._ask("setStartTurn", {"playerNickname": self.nick, "basicTurn": basic},
                                "setStartTurnResponse"))["currentStep"]
        view = await self._select(step)
        while step != "END":
            targets = [(x, y) for x in range(5) for y in range(5) if view[x][y]]
            optional = step in ("MOVE_SPECIAL", "BUILD_SPECIAL", "MOVE_UNTIL", "REMOVE")
            if not targets or (optional and self.rng.random() < 0.4):
                step = (await self._ask("skipStep", None, "skipStepResponse"))["currentStep"]
            else:
                x, y = self.rng.choice(targets)
                step = (await self._ask("playStep", {"x": x, "y": y}, "playStepResponse"))["nextStep"]
                self._checkpoint("moved")
            if step != "END":
                view = (await self._await("workerViewUpdate"))["workerView"]
        self._checkpoint("ended")

    async def _select(self, step: str) -> list[list[bool]]:
        mine = [(x, y) for x in range(5) for y in range(5)
                if self.battlefield[x][y].get("player", "").lower() == self.nick.lower()]  # equalsIgnoreCase
        self.rng.shuffle(mine)
        for x, y in mine * 2:  # an all-false view: choose another worker
            view = (await self._ask("selectWorker", {"playerNickname": self.nick, "x": x, "y": y},
                                    "workerViewUpdate"))["workerView"]
            if any(any(row) for row in view) or step not in ("MOVE", "BUILD"):
                return view
        raise AssertionError(f"{self.nick}: no worker can play")
