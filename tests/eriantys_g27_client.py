"""A seed-004 test client that behaves as the original group-27 client.

It answers in the original's forms (SELECTEDCLOUD, ENDTHISTURN with no right side, Mother
Nature's move as the index of the island reached, studentIndex as a slot of the COLORARRAY, the
two-step Jester and Bard) and reads frames only the way the original's adapters do: every frame
is checked against the shapes the original server was recorded sending (``golden``), and the
game is followed in a model built from ``SENDINFO {MODEL}`` and changed by the deltas, as the
original's ``VirtualController`` does. It never looks at anything the original could not read.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import J, LengthFramer, Message, Pair, Typed

#: how long a reply may take: a ceiling for a loaded machine (a CI runner shared with others),
#: never a wait; every wait here ends at its event (a frame, a close, a PONG)
TIMEOUT = 60.0
END_TYPES = ("GAMEWINNER", "GAMEWINNERTEAM", "GAMEDRAW")
COLOURS = ("RED", "YELLOW", "GREEN", "PINK", "BLUE")
GOLDEN = Path(__file__).parent / "protocol" / "test_eriantys_g27_golden.json"


# --- reading frames as the original's adapters do ---------------------------------------------

def lift(value: Any) -> Any:
    """Decoded JSON with every nested JSON text decoded too (``"none"``, ``"MONKFIRST"`` stay)."""
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in '{["' or text in ("true", "false") or text.lstrip("-").isdigit():
            try:
                return lift(json.loads(value))
            except ValueError:
                return value
        return value
    if isinstance(value, dict):
        return {k: lift(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lift(v) for v in value]
    return value


def shape_paths(value: Any, path: str, out: dict[str, set[tuple[str, str]]], group: str) -> None:
    """(path, type) pairs of a raw frame; ``$`` marks JSON text, ``=x`` a class or key literal.
    InfoMap entries go to their own group ``INFOMAP:<KEY>`` (the adapter reads them by key)."""
    bucket = out.setdefault(group, set())
    if isinstance(value, dict):
        if "infomap" in value and isinstance(value["infomap"], list):
            keys = [e.get("key") for e in value["infomap"] if isinstance(e, dict)]
            bucket.add((path + ".infomap", "=" + ",".join(sorted(map(str, keys)))))
            for entry in value["infomap"]:
                shape_paths(entry.get("value"), "", out, f"INFOMAP:{entry.get('key')}")
            return
        for key, item in value.items():
            if key in ("type", "action") and isinstance(item, str):
                bucket.add((f"{path}.{key}", "=" + item))
            else:
                shape_paths(item, f"{path}.{key}", out, group)
        return
    if isinstance(value, list):
        if not value:
            bucket.add((path + "[]", "empty"))
        for item in value:
            shape_paths(item, path + "[]", out, group)
        return
    if isinstance(value, str):
        inner = lift(value)
        if inner is value or isinstance(inner, str):
            bucket.add((path, "str" if inner is value else "jstr"))
        else:
            shape_paths(json.loads(value), path + "$", out, group)
        return
    kind = "bool" if isinstance(value, bool) else type(value).__name__
    bucket.add((path, {"NoneType": "null"}.get(kind, kind)))


def frame_kind(data: dict[str, Any]) -> str:
    """SENDINFO, GAMESTART, ... or ``REQUESTACTION <action>``."""
    kind = str(data.get("type"))
    if kind in ("REQUESTACTION", "RESPONSEACTION"):
        tuple_ = json.loads(data["value"]["value"])
        kind += " " + json.loads(tuple_["left"]["value"])["action"]
    return kind


def moment(text: str, sender: str) -> str:
    """A frame as one step of a conversation: ``S SENDINFO <keys>``, ``C RESPONSEACTION <name>``."""
    data = json.loads(text)
    kind = frame_kind(data)
    if kind == "SENDINFO":
        keys = [e["key"] for e in json.loads(data["value"]["value"])["infomap"]]
        kind += " " + ",".join(sorted(keys))
    return f"{sender} {kind}"


def frame_shapes(text: str) -> dict[str, set[tuple[str, str]]]:
    data = json.loads(text)
    out: dict[str, set[tuple[str, str]]] = {}
    shape_paths(data, "", out, frame_kind(data))
    return out


class Golden:
    """The shapes the original server sent, by message kind and by InfoMap key."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.groups = {k: {tuple(p) for p in v} for k, v in data["groups"].items()}
        self.aliases: dict[str, str] = data["aliases"]
        self.replies = set(data["replies"]) | set(data["reply_differences"])

    @classmethod
    def load(cls, path: Path = GOLDEN) -> Golden:
        return cls(json.loads(path.read_text()))

    def reply_problems(self, moments: list[str]) -> list[str]:
        """Answers followed by a frame the original never sent right after such an answer."""
        pairs = {f"{a} -> {b}" for a, b in zip(moments, moments[1:])
                 if a.startswith("C ") and b.startswith("S ")}
        return sorted(pairs - self.replies)

    def problems(self, text: str) -> list[str]:
        """What in this frame the original never sent (empty when it reads like the original)."""
        out = []
        for group, paths in frame_shapes(text).items():
            known = self.groups.get(self.aliases.get(group, group))
            if known is None:
                out.append(f"{group}: never sent by the original")
                continue
            for path, kind in sorted(paths):
                if (path, self.aliases.get(kind, kind)) not in known:
                    out.append(f"{group}: {path} {kind}")
        return out


# --- the connection ----------------------------------------------------------------------------

def right_of(message: Message) -> Typed | None:
    value = message.value
    return value.value.right if value is not None and isinstance(value.value, Pair) else None


def request_name(message: Message) -> str | None:
    value = message.value
    if message.type != "REQUESTACTION" or value is None or not isinstance(value.value, Pair):
        return None
    return wire.action_name(value.value.left)


def fields_of(typed: Typed | None) -> dict[str, Any]:
    """An InfoMap's entries, each lifted as the original's InfoMap adapter reads it."""
    if typed is None or typed.cls != wire.INFO_MAP:
        return {}
    return {e["key"]: lift(e["value"]) for e in typed.value["infomap"]}


class G27Client:
    golden: Golden | None = None

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 name: str = "?") -> None:
        self.reader, self.writer, self.name = reader, writer, name
        self.framer = LengthFramer()
        self.inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self.pings = 0
        self.answer_pings = True
        self.moments: list[str] = []  # every frame but pings, both ways (see ``moment``)
        self.strange: list[str] = []  # what the original client could not have read
        if G27Client.golden is None:
            G27Client.golden = Golden.load()
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
                    await self._take(frame)
        except (ConnectionError, OSError):
            pass
        finally:
            await self.inbox.put(None)

    async def _take(self, frame: str) -> None:
        message = wire.parse_message(frame)
        if message.type == "PING":
            self.pings += 1
            if self.answer_pings:
                await self.send(Message("PONG"))
            return
        self.moments.append(moment(frame, "S"))
        assert self.golden is not None
        self.strange += [f"{self.name}: {p}" for p in self.golden.problems(frame)]
        await self.inbox.put(message)

    async def send(self, message: Message) -> None:
        text = wire.format_message(message)
        if message.type not in ("PING", "PONG"):
            self.moments.append(moment(text, "C"))
        self.writer.write(self.framer.encode(text))
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

    async def silent(self) -> bool:
        """The server sent nothing (but pings) before its answer to a PING of ours: it handles
        a link's frames in order, so nothing we sent before the PING had a reply, and the link
        is open. An event, not a time: as right on a loaded machine as on a quiet one."""
        await self.send(Message("PING"))
        try:
            message = await self.recv()
        except ConnectionError:
            return False
        return message.type == "PONG"

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


# --- the model the original client keeps ----------------------------------------------------------

#: SENDINFO keys that replace a GameModel field whole
MODEL_FIELDS = {"ISLANDARRAY": "islands", "CLOUDARRAY": "cloudTiles",
                "MOTHERNATURE": "motherNaturePosition", "PLAYERARRAY": "players",
                "CHARACTERCARDARRAY": "characterCards", "COINPOOL": "coinPool"}


class ClientModel:
    """The original client's GameModel: created by MODEL, changed by the delta keys."""

    def __init__(self) -> None:
        self.data: dict[str, Any] | None = None

    def apply(self, fields: dict[str, Any]) -> None:
        if "MODEL" in fields:
            self.data = fields["MODEL"]
        assert self.data is not None, f"SENDINFO {sorted(fields)} before any MODEL"
        d = self.data
        for key, value in fields.items():
            if key in MODEL_FIELDS:
                d[MODEL_FIELDS[key]] = value
            elif key == "ENTRANCEARRAY":
                for player, entrance in zip(self.players(), value):
                    player["schoolBoard"]["entrance"] = entrance
            elif key == "ENTRANCE":
                self.players()[value["left"]["value"]]["schoolBoard"]["entrance"] = \
                    value["right"]["value"]
            elif key == "GLOBALPROFESSORTABLE":
                owners = value["professorLocations"]["players"]
                d["globalProfessorTable"] = [
                    {"color": c, "playerID": o["player"]["playerID"] if o["isPresent"] else "none"}
                    for c, o in zip(COLOURS, owners)]
            elif key == "DININGROOMARRAY":
                for player, dining in zip(self.players(), value):
                    player["schoolBoard"]["diningRoom"] = dining

    def players(self) -> list[dict[str, Any]]:
        assert self.data is not None
        return [w["player"] for w in self.data["players"]["players"] if w["isPresent"]]

    def islands(self) -> list[dict[str, Any]]:
        assert self.data is not None
        return self.data["islands"]["islands"]

    def mother_nature(self) -> int:
        assert self.data is not None
        return int(self.data["motherNaturePosition"])

    def clouds(self) -> list[list[str]]:
        assert self.data is not None
        return [c["colors"] for c in self.data["cloudTiles"]["cloudTiles"]]

    def me(self, username: str) -> dict[str, Any]:
        return next(p for p in self.players() if p["username"] == username)


# --- a player ------------------------------------------------------------------------------------

@dataclass
class Tally:
    """What a scripted player saw."""

    characters: list[str] = field(default_factory=list)
    result: Message | None = None
    answered: int = 0
    repeated: int = 0  # requests asked again with nothing in between (an answer refused)
    seen: list[str] = field(default_factory=list)
    keys: list[tuple[str, ...]] = field(default_factory=list)


class Bot:
    """Plays as the original client would, choosing at random among what it was offered."""

    def __init__(self, client: G27Client, rng: random.Random, character_odds: float = 0.3) -> None:
        self.client, self.rng, self.odds = client, rng, character_odds
        self.tally = Tally()
        self.model = ClientModel()
        self._events: dict[str, asyncio.Event] = {}
        self._last: Message | None = None

    def _event(self, type_: str) -> asyncio.Event:
        return self._events.setdefault(type_, asyncio.Event())

    async def saw(self, type_: str, timeout: float = TIMEOUT) -> None:
        """Wait until this bot has received a message of ``type_``."""
        await asyncio.wait_for(self._event(type_).wait(), timeout)

    async def play(self, stop_after: int | None = None) -> Tally:
        """Play until the game ends (GAMEWINNER ...) or ``stop_after`` answers."""
        while stop_after is None or self.tally.answered < stop_after:
            message = await self.client.recv()
            self.tally.seen.append(message.type)
            self._event(message.type).set()
            if message.type == "SENDINFO":
                self.see(message)
            elif message.type in END_TYPES:
                self.tally.result = message
                return self.tally
            elif message.type == "REQUESTACTION":
                if self._last is not None and message == self._last:
                    self.tally.repeated += 1
                self._last = message
                await self.answer(message)
                self.tally.answered += 1
        return self.tally

    def see(self, message: Message) -> None:
        fields = fields_of(message.value)
        self.tally.keys.append(tuple(fields))
        self.model.apply(fields)
        self._last = None

    @property
    def username(self) -> str:
        return self.client.name

    async def answer(self, message: Message) -> None:
        name = str(request_name(message))
        right = right_of(message)
        fields = fields_of(right)
        cards = fields.get("CHARACTERCARDARRAY", {}).get("characterCards", [])
        if cards and self.rng.random() < self.odds:
            card = self.rng.choice(cards)["card"]["character"]
            self.tally.characters.append(card)
            await self.client.respond("CHOSENCHARACTER", Typed(wire.CHARACTER, {"character": card}))
            return
        base = name.replace("ORPLAYCARD", "")
        await getattr(self, "_" + base.lower())(right, fields)

    async def _playassistantcard(self, right: Typed | None, fields: dict[str, Any]) -> None:
        assert right is not None and right.cls == wire.ASSISTANT_ARRAY
        card = self.rng.choice(lift(right.value)["assistantDeck"])
        await self.client.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, card))

    async def _movestudent(self, right: Typed | None, fields: dict[str, Any]) -> None:
        colours = fields["COLORARRAY"]["colors"]
        mine = self.model.me(self.username)["schoolBoard"]["entrance"]["students"]["colors"]
        assert colours == mine, f"{self.username}: COLORARRAY {colours} is not my entrance {mine}"
        index = self.rng.randrange(len(colours))
        room = fields["BOOLARRAY"][COLOURS.index(colours[index])]
        if room and self.rng.random() < 0.6:
            info: dict[str, Any] = {"toDiningRoom": True, "studentIndex": index}
        else:
            island = self.rng.randrange(len(self.model.islands()))
            info = {"toDiningRoom": False, "islandNum": island, "studentIndex": index}
        await self.client.respond("MOVESTUDENTINFO", Typed(wire.MOVE_STUDENT_INFO, info))

    async def _movemothernature(self, right: Typed | None, fields: dict[str, Any]) -> None:
        reach = fields["MNPOSSIBLEMOVEMENTS"]["islands"]
        islands, here = self.model.islands(), self.model.mother_nature()
        k = self.rng.randint(1, len(reach))
        target = (here + k) % len(islands)  # as ViewCLI.requestMotherNatureMovement
        assert reach[k - 1] == islands[target], f"{self.username}: MNPOSSIBLEMOVEMENTS vs model"
        await self.client.respond("CHOSENMOTHERNATUREMOVEMENT", Typed(wire.INTEGER, target))

    async def _choosecloud(self, right: Typed | None, fields: dict[str, Any]) -> None:
        offered = fields["CLOUDARRAY"] if fields else lift(right.value)  # type: ignore[union-attr]
        full = [n for n, c in enumerate(self.model.clouds()) if c]
        assert [c["colors"] for c in offered["cloudTiles"]] == [self.model.clouds()[n] for n in full]
        await self.client.respond("SELECTEDCLOUD", Typed(wire.INTEGER, self.rng.choice(full)))

    async def _endturn(self, right: Typed | None, fields: dict[str, Any]) -> None:
        await self.client.respond("ENDTHISTURN")

    async def _charactercardeffect(self, right: Typed | None, fields: dict[str, Any]) -> None:
        answer = character_answer(fields, self.model, self.username, self.rng)
        await self.client.respond("CHOSENFIELDSMAP", wire.info_map(answer))


def character_answer(fields: dict[str, Any], model: ClientModel, username: str,
                     rng: random.Random) -> dict[str, Any]:
    """A CHOSENFIELDSMAP as the original client writes one (ints as JSON text, colours bare)."""
    step = fields["CHARACTERVALUE"]
    islands = len(model.islands())
    if step == "MONKFIRST":
        return {"STUDENTINDEX": J(rng.randrange(len(fields["CARDSTUDENTS"]["colors"]))),
                "ISLANDINDEX": J(rng.randrange(islands))}
    if step == "PRINCESSFIRST":
        return {"STUDENTINDEX": J(rng.randrange(len(fields["CARDSTUDENTS"]["colors"])))}
    if step in ("HERBALISTFIRST", "STANDARD_BEARERFIRST"):
        return {"ISLANDINDEX": J(rng.randrange(islands))}
    if step == "MERCHANTFIRST":
        return {"MERCHANTCOLOR": rng.choice(fields["COLORARRAY"]["colors"])}
    if step == "THIEFFIRST":
        return {"REDUCECOLOR": rng.choice(fields["REDUCIBLECOLOR"]["colors"])}
    if step == "JESTERFIRST":
        return {"MOVEMENTJESTER": J(rng.randint(1, fields["MAXMOVEMENTJESTER"]))}
    if step == "JESTERSECOND":
        return {"ENTRANCESTUDENTINDEX": J(rng.randrange(len(fields["ENTRANCESTUDENTS"]["colors"]))),
                "CARDSTUDENTINDEX": J(rng.randrange(len(fields["CARDSTUDENTS"]["colors"])))}
    if step == "BARDFIRST":
        board = model.me(username)["schoolBoard"]
        possible = bard_swaps(board["entrance"]["students"]["colors"],
                              board["diningRoom"]["studentCounters"])
        return {"MOVEMENTBARD": J(min(len(possible), rng.randint(1, fields["MAXMOVEMENTBARD"])))}
    assert step == "BARDSECOND", step
    colour = rng.choice(fields["BARDSWAPPABLESTUDENTS"]["colors"])
    bools = next(e["bools"] for e in fields["BARDSWAPMAP"] if e["color"] == colour)
    table = rng.choice([COLOURS[t] for t, ok in enumerate(bools) if ok])
    entrance = fields["ENTRANCE"]["right"]["value"]["students"]["colors"]
    return {"ENTRANCESTUDENTINDEX": J(entrance.index(colour)), "DININGROOMTABLECOLOR": table}


def bard_swaps(entrance: list[str], dining: list[int]) -> list[tuple[str, str]]:
    """Entrance colour and dining table pairs the Bard could swap (at most one per colour)."""
    return [(c, COLOURS[t]) for c in dict.fromkeys(entrance) for t in range(5)
            if dining[t] > 0 and COLOURS[t] != c and dining[COLOURS.index(c)] < 10][:2]


async def opening(client: G27Client, expert: bool) -> dict[str, Any]:
    """The SENDINFOs after GAMESTART of a new match, as the original: MODEL, (expert) the coins
    given, the clouds filled. Returns the MODEL."""
    first = fields_of((await client.expect("SENDINFO")).value)
    assert list(first) == ["MODEL"], list(first)
    if expert:
        given = fields_of((await client.expect("SENDINFO")).value)
        assert list(given) == ["PLAYERARRAY", "CHARACTERCARDARRAY", "COINPOOL"], list(given)
    assert list(fields_of((await client.expect("SENDINFO")).value)) == ["CLOUDARRAY"]
    return dict(first["MODEL"])


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
