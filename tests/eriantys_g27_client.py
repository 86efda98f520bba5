"""A scripted seed-004 client for tests: writeUTF frames, PONG on its own, random legal play."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import LengthFramer, Message, Pair, Typed

TIMEOUT = 15.0
END_TYPES = ("GAMEWINNER", "GAMEWINNERTEAM", "GAMEDRAW")


def right_of(message: Message) -> Typed | None:
    value = message.value
    return value.value.right if value is not None and isinstance(value.value, Pair) else None


def request_name(message: Message) -> str | None:
    value = message.value
    if message.type != "REQUESTACTION" or value is None:
        return None
    left = value.value.left if isinstance(value.value, Pair) else value
    return wire.action_name(left)


class G27Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 name: str = "?") -> None:
        self.reader, self.writer, self.name = reader, writer, name
        self.framer = LengthFramer()
        self.inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self.pings = 0
        self.answer_pings = True
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, name: str = "?") -> G27Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, name)

    async def _read(self) -> None:
        try:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    break
                for frame in self.framer.feed(data):
                    assert isinstance(frame, str), frame
                    message = wire.parse_message(frame)
                    if message.type == "PING":
                        self.pings += 1
                        if self.answer_pings:
                            await self.send(Message("PONG"))
                        continue
                    await self.inbox.put(message)
        except (ConnectionError, OSError):
            pass
        finally:
            await self.inbox.put(None)

    async def send(self, message: Message) -> None:
        self.writer.write(self.framer.encode(wire.format_message(message)))
        await self.writer.drain()

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def recv(self, timeout: float = TIMEOUT) -> Message:
        message = await asyncio.wait_for(self.inbox.get(), timeout)
        if message is None:
            self.inbox.put_nowait(None)
            raise ConnectionError(f"{self.name}: closed by the server")
        return message

    async def expect(self, type_: str, action: str | None = None) -> Message:
        message = await self.recv()
        assert message.type == type_, f"{self.name}: expected {type_}, got {message}"
        if action is not None:
            assert request_name(message) == action, f"{self.name}: expected {action}, got {message}"
        return message

    async def until(self, type_: str, action: str | None = None) -> Message:
        """Skip SENDINFO and turn notices up to the wanted message."""
        while True:
            message = await self.recv()
            if message.type == type_ and (action is None or request_name(message) == action):
                return message
            assert message.type in ("SENDINFO", "OTHER_PLAYER_START_TURN", "CUR_PLAYER_END_TURN"), \
                f"{self.name}: waiting for {type_} {action}, got {message}"

    async def closed(self, timeout: float = TIMEOUT) -> bool:
        while True:
            message = await asyncio.wait_for(self.inbox.get(), timeout)
            if message is None:
                self.inbox.put_nowait(None)
                return True

    async def close(self) -> None:
        self._task.cancel()
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    # --- registration -----------------------------------------------------------------

    async def respond(self, name: str, right: Typed | None = None) -> None:
        await self.send(wire.response(name, right))

    async def register(self, username: str, age: int) -> Message:
        """Answer USERNAMEANDMAGICAGE; returns the server's next message."""
        await self.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
        await self.respond("INSERTEDUSERNAMEANDAGE", Typed(
            wire.USERNAME_AND_AGE, {"username": username, "magicAge": age}))
        return await self.recv()

    async def rules(self, seats: int, expert: bool) -> None:
        await self.respond("CHOSENRULES", Typed(wire.GAME_RULES,
                                                {"numOfPlayers": seats, "expertMode": expert}))

    async def wizard(self, name: str) -> None:
        await self.respond("CHOSENWIZARD", Typed(wire.WIZARD, {"wizard": name}))


@dataclass
class Tally:
    """What a scripted player saw."""

    errors: list[str] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)
    result: Message | None = None
    info: dict[str, Any] = field(default_factory=dict)
    answered: int = 0
    seen: list[str] = field(default_factory=list)


class Bot:
    """Answers every request with a random choice among the options it was given."""

    def __init__(self, client: G27Client, rng: random.Random, character_odds: float = 0.3) -> None:
        self.client, self.rng, self.odds = client, rng, character_odds
        self.tally = Tally()
        self._avoid_character = False
        self._events: dict[str, asyncio.Event] = {}

    def _event(self, type_: str) -> asyncio.Event:
        return self._events.setdefault(type_, asyncio.Event())

    async def saw(self, type_: str, timeout: float = TIMEOUT) -> None:
        """Wait until this bot has received a message of ``type_``."""
        await asyncio.wait_for(self._event(type_).wait(), timeout)

    async def play(self, stop_after: int | None = None) -> Tally:
        """Play until the game ends (the REMATCH request) or ``stop_after`` answers."""
        while stop_after is None or self.tally.answered < stop_after:
            message = await self.client.recv()
            self.tally.seen.append(message.type)
            self._event(message.type).set()
            if message.type == "SENDINFO":
                fields = wire.read_info_map(message.value)  # type: ignore[arg-type]
                if "ERROR" in fields:
                    self.tally.errors.append(fields["ERROR"])
                    self._avoid_character = True
                self.tally.info.update(fields)
            elif message.type in END_TYPES:
                self.tally.result = message
            elif request_name(message) == "REMATCH":
                return self.tally
            elif message.type == "REQUESTACTION":
                await self.answer(message)
                self.tally.answered += 1
        return self.tally

    async def answer(self, message: Message) -> None:
        name = request_name(message)
        right = right_of(message)
        fields = wire.read_info_map(right) if right is not None and right.cls == wire.INFO_MAP else {}
        if name and name.endswith("ORPLAYCARD") or (name == "ENDTURN" and fields):
            if not self._avoid_character and self.rng.random() < self.odds:
                card = self.rng.choice(fields["CHARACTERCARDARRAY"])
                self.tally.characters.append(card["character"])
                await self.client.respond("CHOSENCHARACTER", Typed(
                    wire.CHARACTER, {"character": card["character"]}))
                return
        self._avoid_character = False
        base = (name or "").replace("ORPLAYCARD", "")
        await getattr(self, "_" + base.lower())(right, fields)

    async def _playassistantcard(self, right: Typed | None, fields: dict[str, Any]) -> None:
        assert right is not None
        card = self.rng.choice(right.value)
        await self.client.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, card))

    async def _movestudent(self, right: Typed | None, fields: dict[str, Any]) -> None:
        index = self.rng.randrange(len(fields["ENTRANCE"]))
        colour = fields["ENTRANCE"][index]
        dining = fields["DININGROOM"][colour] < 10 and self.rng.random() < 0.6
        info = {"toDiningRoom": dining, "islandNum": self.rng.randrange(fields["ISLANDCOUNT"]),
                "studentIndex": index}
        await self.client.respond("MOVESTUDENTINFO", Typed(wire.MOVE_STUDENT_INFO, info))

    async def _movemothernature(self, right: Typed | None, fields: dict[str, Any]) -> None:
        steps = self.rng.randint(1, fields["MAXMOTHERNATUREMOVEMENT"])
        await self.client.respond("CHOSENMOTHERNATUREMOVEMENT", Typed(wire.INTEGER, steps))

    async def _choosecloud(self, right: Typed | None, fields: dict[str, Any]) -> None:
        cloud = self.rng.choice(fields["CLOUDARRAY"])["index"]
        await self.client.respond("CHOOSECLOUD", Typed(wire.INTEGER, cloud))

    async def _endturn(self, right: Typed | None, fields: dict[str, Any]) -> None:
        await self.client.respond("ENDTHISTURN")

    async def _charactercardeffect(self, right: Typed | None, fields: dict[str, Any]) -> None:
        await self.client.respond("CHOSENFIELDSMAP", wire.info_map(character_fields(fields, self.rng)))


def character_fields(fields: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Random but well-formed answers to a CHARACTERCARDEFFECT request."""
    out: dict[str, Any] = {}
    if fields.get("CARDSTUDENTS"):
        out["STUDENTINDEX"] = rng.randrange(len(fields["CARDSTUDENTS"]))
    if "ISLANDCOUNT" in fields:
        out["ISLANDINDEX"] = rng.randrange(fields["ISLANDCOUNT"])
    if "COLORARRAY" in fields:
        out["MERCHANTCOLOR"] = rng.choice(fields["COLORARRAY"])
    if "REDUCIBLECOLOR" in fields:
        out["REDUCECOLOR"] = rng.choice(fields["REDUCIBLECOLOR"])
    if "MAXMOVEMENTJESTER" in fields:
        n = rng.randint(0, min(3, len(fields["CARDSTUDENTS"]), len(fields["ENTRANCESTUDENTS"])))
        out["CARDSTUDENTINDEX"] = rng.sample(range(len(fields["CARDSTUDENTS"])), n)
        out["ENTRANCESTUDENTINDEX"] = rng.sample(range(len(fields["ENTRANCESTUDENTS"])), n)
    if "MAXMOVEMENTBARD" in fields:
        tables = [c for c, k in fields["DININGROOM"].items() if k > 0]
        n = rng.randint(0, min(2, len(tables), len(fields["ENTRANCESTUDENTS"])))
        out["ENTRANCESTUDENTINDEX"] = rng.sample(range(len(fields["ENTRANCESTUDENTS"])), n)
        out["DININGROOMTABLECOLOR"] = rng.sample(tables, n)
    return out


async def join_game(port: int, seats: int, expert: bool, prefix: str = "p",
                    ages: list[int] | None = None) -> list[G27Client]:
    """Register ``seats`` players into one new lobby; returns them once GAMESTART arrived."""
    ages = ages or list(range(10, 10 + seats))
    clients: list[G27Client] = []
    for i in range(seats):
        client = await G27Client.connect(port, f"{prefix}{i}")
        reply = await client.register(f"{prefix}{i}", ages[i])
        if i == 0:
            assert request_name(reply) == "RULES", reply
            await client.rules(seats, expert)
            reply = await client.recv()
        assert request_name(reply) == "WIZARD", reply
        free = right_of(reply).value["wizards"]  # type: ignore[union-attr]
        await client.wizard(free[0])
        clients.append(client)
    for client in clients:
        await client.expect("GAMESTART")
    return clients
