"""A client that speaks seed 000's original wire (eriantys-g13-java) as the original client does.

It opens an ObjectOutputStream (header first), writes each command as ``writeObject; flush;
reset``, reads answers from the server's ObjectInputStream, ignores pings, and, like the
original CLI, decides what to send next from the *class* of each answer and the model objects
it carries (never from engine state). Every answer it reads is kept in ``received`` so tests
can compare their shapes with the recordings.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

from clients import TcpClient
from eriantys_g13_client import (  # noqa: F401 (run_until_stop: for the Java tests too)
    StopPlaying, run_until_stop, start_table,
)

from service.protocol.eriantys_g13_java_classes import G, REGISTRY
from service.protocol.javaser import MAGIC, JavaStreamError, JEnum, JObject, StreamReader
from service.protocol.javaser_writer import StreamWriter

TIMEOUT = 20.0
M = "it.polimi.ingsw.Model."
DINING = 123
COLOURS = ("Green", "Red", "Yellow", "Pink", "Blue")
CARDS = ("Uno", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette", "Otto", "Nove", "Dieci")


def colour(name: str) -> JEnum:
    return JEnum(M + "Color", name)


def short(obj: JObject) -> str:
    return obj.cls[len(G):] if obj.cls.startswith(G) else obj.cls


class JavaG13Client(TcpClient):
    timeout = TIMEOUT

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 nickname: str) -> None:
        super().__init__(reader, writer)
        self.nickname = nickname
        self.stream = StreamReader(REGISTRY)
        self.out = StreamWriter(REGISTRY)
        self.pending: list[Any] = []
        self.inbox: list[JObject] = []
        self.received: list[JObject] = []
        self.end: JObject | None = None
        self.pings = 0
        #: identifier -> class of every command sent
        self.sent: dict[str, str] = {}

    @classmethod
    async def connect(cls, port: int, nickname: str) -> JavaG13Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(MAGIC)  # new ObjectOutputStream(...)
        await writer.drain()
        return cls(reader, writer, nickname)

    # --- wire --------------------------------------------------------------------------

    async def send(self, kind: str, **fields: Any) -> str:
        identifier = uuid.uuid4()
        self.sent[str(identifier)] = kind
        await self.send_object(JObject(G + kind, {"identifier": identifier, **fields}))
        return str(identifier)

    async def send_object(self, obj: JObject) -> None:
        self.writer.write(self.out.message(obj))
        await self.writer.drain()

    async def read_object(self, timeout: float = TIMEOUT) -> Any:
        while not self.pending:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                raise ConnectionError("closed by the server")
            self.pending.extend(self.stream.feed(data))
        item = self.pending.pop(0)
        if isinstance(item, JavaStreamError):
            raise AssertionError(f"the server's stream is bad: {item.code} {item.message}")
        return item

    async def recv(self, timeout: float = TIMEOUT) -> JObject:
        """The next answer that is not a ping."""
        while True:
            obj = await self.read_object(timeout)
            assert isinstance(obj, JObject) and REGISTRY.is_a(obj.cls, G + "AnswerMsg"), obj
            self.received.append(obj)
            if short(obj) == "PingSMSG":
                self.pings += 1
                continue
            if short(obj) == "AnsEndGameMsg":
                self.end = obj
            return obj

    async def answer(self, identifier: str, timeout: float = TIMEOUT) -> JObject:
        """The answer to ``identifier``; the end of the game answers whatever is pending."""
        for i, obj in enumerate(self.inbox):
            if str(obj["parentIdentifier"]) == identifier or short(obj) == "AnsEndGameMsg":
                return self.inbox.pop(i)
        while True:
            obj = await self.recv(timeout)
            if str(obj["parentIdentifier"]) == identifier or short(obj) == "AnsEndGameMsg":
                return obj
            self.inbox.append(obj)

    async def call(self, kind: str, **fields: Any) -> JObject:
        return await self.answer(await self.send(kind, **fields))

    def pairs(self) -> set[tuple[str, str]]:
        """(command class, answer class) of every answer received to a command sent."""
        return {(self.sent[str(o["parentIdentifier"])], short(o)) for o in self.received
                if str(o["parentIdentifier"]) in self.sent}

    # --- lobby ---------------------------------------------------------------------------

    async def login(self) -> str:
        answer = await self.call("LoginMsg", name=self.nickname)
        assert short(answer) == "AnswIfAllowedMsg", answer
        return str(answer["MoveStatus"].name)

    async def create(self, players: int, expert: bool) -> None:
        assert await self.login() == "VALID"
        created = await self.call("AskIfGameCreatedMsg")
        assert short(created) == "AnsGameCreatedMsg" and created["MoveStatus"].name == "VALID"
        answer = await self.call("NewGameMsg", numPlayers=players, modExpert=expert)
        assert short(answer) == "BooleanCheckMsg" and answer["MoveStatus"].name == "OK", answer

    async def join(self) -> str:
        """Log in, learn that a game exists, send GameStartedMsg; its identifier."""
        assert await self.login() == "VALID"
        created = await self.call("AskIfGameCreatedMsg")
        assert short(created) == "AnsGameCreatedMsg" and created["MoveStatus"].name == "INVALID"
        return await self.send("GameStartedMsg")


def me_in(players: list[JObject], nickname: str) -> JObject:
    return next(p for p in players if p["NickName"] == nickname)


class JavaBot:
    """Plays one seat to the end by the answers' classes, choosing at random."""

    def __init__(self, client: JavaG13Client, seed: int, characters: bool = True,
                 stop_after: int | None = None, prefer_new: set[int] | None = None) -> None:
        self.client, self.rng = client, random.Random(seed)
        self.characters = characters
        self.stop_after = stop_after
        #: shared set of character numbers played: always try one, the others first
        self.prefer_new = prefer_new
        self.actions = 0
        self.applied = 0  # commands whose answer says the server applied an action
        self.played: list[int] = []

    async def run(self, first: str = "FirstPlayerTurnMsg") -> JObject:
        answer = await self.client.call(first)
        while True:
            kind = short(answer)
            if kind == "AnsEndGameMsg":
                return answer
            answer = await self._step(kind, answer)

    async def _step(self, kind: str, answer: JObject) -> JObject:
        if kind in ("AnsFirstPlayerTurnMsg", "AnsNewOrderMsg"):
            return await self._planning(answer)
        if kind == "AnsTurnDecidedMsg":
            return await self.client.call("AskCAMsg")
        if kind == "AnsAskCAMsg":
            return await self._action_turn(answer)
        if kind.startswith("AnsMoveStudent"):
            return await self._moves(answer, int(kind[len("AnsMoveStudent"):-3]) + 1)
        if kind == "AnsNumStepMNMsg":
            return await self._cloud(answer)
        if kind == "AnsCloudMsg":
            return await self.client.call("CheckTurnEndedMsg")
        if kind == "AnsNewTurnMsg":
            return await self.client.call("NewOrderMsg")
        raise AssertionError(f"unexpected {kind}: {answer}")

    async def _act(self, kind: str, **fields: Any) -> JObject:
        if self.stop_after is not None and self.actions >= self.stop_after:
            raise StopPlaying
        self.actions += 1
        answer = await self.client.call(kind, **fields)
        if short(answer) in APPLIED:
            self.applied += 1
        return answer

    async def _planning(self, answer: JObject) -> JObject:
        played = {c.name for c in answer["CAplayed"]}
        deck = [c.name for c in answer["dca"]["Cards"]]
        for name in [c for c in deck if c not in played] + deck:
            decided = await self._act("TurnDecidedMsg", c=JEnum(M + "CardAssistant", name))
            if short(decided) != "AnsTurnDecidedExcMsg":
                assert short(decided) in ("AnsTurnDecidedMsg", "AnsEndGameMsg"), decided
                return decided if short(decided) == "AnsEndGameMsg" else (
                    await self.client.call("AskCAMsg"))
        raise AssertionError("no assistant card was accepted")

    async def _action_turn(self, answer: JObject) -> JObject:
        start = 1
        eager = self.prefer_new is not None
        if answer["modexp"] and self.characters and (eager or self.rng.random() < 0.6):
            after = await self._try_character(answer)
            if after is not None:
                if short(after) == "AnsEndGameMsg":
                    return after
                start = after.fields.get("countmodexpview", after.fields.get("countmoexpview", 1))
                answer = after
        return await self._moves(answer, start)

    def _mine(self, answer: JObject) -> JObject:
        return me_in(answer["players"], self.client.nickname)

    async def _moves(self, answer: JObject, n: int) -> JObject:
        total = 4 if len(answer["players"]) == 3 else 3
        while n <= total:
            me = self._mine(answer)
            board = me["MySchoolBoard"]
            islands = len(answer["generalBoard"]["Islands"])
            for _ in range(20):
                choice = self.rng.choice([c.name for c in board["Entrance"]])
                row = len(board["diningRoom"]["DiningRoom"][COLOURS.index(choice)])
                where = DINING if row < 10 and self.rng.random() < 0.7 else (
                    self.rng.randrange(islands))
                moved = await self._act(f"MoveStudent{n}Msg", s=colour(choice), l=where)
                if short(moved) != f"AnsColorExc{n}Msg":
                    break
            assert short(moved) in (f"AnsMoveStudent{n}Msg", "AnsEndGameMsg"), moved
            if short(moved) == "AnsEndGameMsg":
                return moved
            answer, n = moved, n + 1
        return await self._mother_nature(answer)

    async def _mother_nature(self, answer: JObject) -> JObject:
        me = self._mine(answer)
        most = (CARDS.index(me["CA"].name) + 2) // 2
        stepped = await self._act("NumStepMNMsg", step=self.rng.randint(1, most))
        if short(stepped) == "AnsNumStepExcMsg":  # (the Magic Mailman is not counted here)
            stepped = await self._act("NumStepMNMsg", step=1)
        assert short(stepped) in ("AnsNumStepMNMsg", "AnsEndGameMsg"), stepped
        return stepped

    async def _cloud(self, answer: JObject) -> JObject:
        clouds = [c["Numid"] for c in answer["cloudTiles"] if c["stud"]] or [0]
        self.rng.shuffle(clouds)
        for number in clouds:
            took = await self._act("CloudMsg", cloud=number)
            if short(took) != "AnsNumCloudExcMsg":
                assert short(took) in ("AnsCloudMsg", "AnsEndGameMsg"), took
                return took
        raise AssertionError("no cloud was accepted")

    async def _try_character(self, answer: JObject) -> JObject | None:
        coins = self._mine(answer)["NumberCoins"]
        cards = [c for c in answer["characterCards"] if c["Coins"] <= coins]
        if not cards:
            return None
        fresh = [c for c in cards if c["Name"] not in (self.prefer_new or ())]
        card = self.rng.choice(fresh or cards)
        number = card["Name"]
        asked = await self._act("CCMsg", numcard=number)
        kind = short(asked)
        if kind == "AnsPlayAfterCCMsg":
            self._played(number)
            return asked
        if kind != f"AnsCC{number}Msg":
            assert kind in ("AnsPlayerAlrUsedCCExcMsg", "AnsNotEnoughCoinsExcMsg"), asked
            return None
        done = await self._act(f"CC{number}Msg", **self.arguments(number, asked, answer))
        if short(done) == "AnsPlayAfterCCMsg":
            self._played(number)
            return done
        assert short(done) == f"AnsCC{number}ExcMsg", done
        return await self._act("CannotPlayCCMsg")

    def _played(self, number: int) -> None:
        self.played.append(number)
        if self.prefer_new is not None:
            self.prefer_new.add(number)

    def arguments(self, number: int, asked: JObject, answer: JObject) -> dict[str, Any]:
        rng, board = self.rng, self._mine(answer)["MySchoolBoard"]
        card = asked.fields.get("characterCard")
        on_card = [c.name for c in (card.fields.get("choosenStudent")
                                    or card.fields.get("studentOnCard") or [])] if card else []
        on_card = on_card or ["Green"]
        entrance = [c.name for c in board["Entrance"]] or ["Green"]
        island = rng.randrange(len(answer["generalBoard"]["Islands"]))
        if number == 1:
            return {"isl": island, "stud": colour(rng.choice(on_card))}
        if number in (3, 5):
            return {"isl": island}
        if number == 7:
            return {"students": [colour(rng.choice(on_card))],
                    "entrancestud": [colour(rng.choice(entrance))]}
        if number == 10:  # one student for one of another colour (a colour swapped with
            # itself changes nothing and is refused), or no swap at all
            dining = board["diningRoom"]["DiningRoom"]  # per colour, its row's students
            pairs = [(e, d) for e in entrance for d in COLOURS
                     if e != d and dining[COLOURS.index(d)] and len(dining[COLOURS.index(e)]) < 10]
            return {"entrancestud": [colour(e) for e, _ in pairs[:1]],
                    "diningstud": [colour(d) for _, d in pairs[:1]]}
        return {"color": colour(rng.choice(on_card if number == 11 else list(COLOURS)))}


#: answers that mean the command's action was applied (and saved) before it was sent
APPLIED = {"AnsTurnDecidedMsg", "AnsNumStepMNMsg", "AnsCloudMsg", "AnsPlayAfterCCMsg",
           *(f"AnsMoveStudent{n}Msg" for n in range(1, 5))}


async def start_game(port: int, players: int, expert: bool,
                     names: tuple[str, ...] = ("ada", "bruno", "carla", "dario")
                     ) -> list[JavaG13Client]:
    """One creator and ``players - 1`` joiners; returns once all got AnsGameStartedMsg."""
    clients = [await JavaG13Client.connect(port, names[i]) for i in range(players)]
    for started in await start_table(clients, expert):
        assert short(started) == "AnsGameStartedMsg", started
        assert started["nickname"] == list(names[:players])
    return clients


async def play_all(clients: list[JavaG13Client], seed: int,
                   characters: bool = True) -> list[JObject]:
    bots = [JavaBot(c, seed * 10 + i, characters) for i, c in enumerate(clients)]
    ends = await asyncio.gather(*(b.run() for b in bots))
    assert all(e["winner"] == ends[0]["winner"] for e in ends)
    return ends
