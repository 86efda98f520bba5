"""A scripted seed-000 (eriantys-g13) client for tests and the docs transcript.

It plays from what the server sends (boards, decks, clouds), never from engine state.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Sequence
from typing import Any

from clients import LineClient

TIMEOUT = 20.0
COLOURS = ("Green", "Red", "Yellow", "Pink", "Blue")
DINING = 123


class G13Client:
    def __init__(self, line: LineClient, nickname: str,
                 transcript: list[str] | None = None) -> None:
        self.line = line
        self.nickname = nickname
        self.inbox: list[dict[str, Any]] = []
        self.end: dict[str, Any] | None = None
        self.transcript = transcript

    @classmethod
    async def connect(cls, port: int, nickname: str,
                      transcript: list[str] | None = None) -> G13Client:
        return cls(await LineClient.connect(port), nickname, transcript)

    # --- wire --------------------------------------------------------------------------

    async def send(self, kind: str, **fields: Any) -> str:
        identifier = str(uuid.uuid4())
        await self.send_raw(json.dumps({"type": kind, "identifier": identifier, **fields}))
        return identifier

    async def send_raw(self, line: str) -> None:
        if self.transcript is not None:
            self.transcript.append(f"{self.nickname} -> {line}")
        await self.line.send(line)

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message from the server that is not a ping."""
        while True:
            text = await self.line.recv(timeout)
            message = json.loads(text)
            if message["type"] == "PingSMSG" and message["parentIdentifier"] is None:
                continue
            if self.transcript is not None:
                self.transcript.append(f"{self.nickname} <- {text}")
            if message["type"] == "AnsEndGameMsg":
                self.end = message
            return message

    async def answer(self, identifier: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The answer to ``identifier`` (other messages are kept in the inbox)."""
        for i, message in enumerate(self.inbox):
            if message["parentIdentifier"] == identifier:
                return self.inbox.pop(i)
        while True:
            message = await self.recv(timeout)
            if message.get("parentIdentifier") == identifier:
                return message
            self.inbox.append(message)

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        return await self.answer(await self.send(kind, **fields))

    async def close(self) -> None:
        await self.line.close()

    # --- lobby -------------------------------------------------------------------------

    async def login(self) -> dict[str, Any]:
        answer = await self.call("LoginMsg", name=self.nickname)
        assert answer["type"] == "AnswIfAllowedMsg", answer
        return answer

    async def create(self, players: int, expert: bool) -> None:
        assert (await self.login())["status"] == "VALID"
        created = await self.call("AskIfGameCreatedMsg")
        assert created["type"] == "AnsGameCreatedMsg"
        answer = await self.call("NewGameMsg", numPlayers=players, modExpert=expert)
        assert answer == {**answer, "type": "BooleanCheckMsg", "status": "OK"}, answer

    async def join(self) -> str:
        """Log in and send GameStartedMsg (joins the oldest waiting game); its identifier."""
        assert (await self.login())["status"] == "VALID"
        created = await self.call("AskIfGameCreatedMsg")
        assert created == {**created, "type": "AnsGameCreatedMsg", "status": "INVALID"}
        return await self.send("GameStartedMsg")


class Bot:
    """Plays a whole game for one client, choosing moves at random from what it is shown."""

    def __init__(self, client: G13Client, seed: int, characters: bool = True,
                 stop_after: int | None = None, prefer_new: set[int] | None = None) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.characters = characters
        self.stop_after = stop_after  # commands before the bot stops (for kill tests)
        self.prefer_new = prefer_new  # shared set of played CCs: try the others first, always
        self.actions = 0  # game commands sent and answered
        self.applied = 0  # of which the server applied an action (its version moved)
        self.played: list[int] = []  # CC numbers played successfully

    async def run(self, wait_kind: str = "FirstPlayerTurnMsg",
                  first: dict[str, Any] | None = None) -> dict[str, Any]:
        """Play until the end of the game; returns AnsEndGameMsg."""
        answer = first or await self.client.call(wait_kind)
        while True:
            if answer["type"] == "AnsEndGameMsg":
                return answer
            if answer["type"] in ("AnsFirstPlayerTurnMsg", "AnsNewOrderMsg"):
                answer = await self._planning(answer)
            elif answer["type"] == "AnsAskCAMsg":
                answer = await self._action_turn(answer)
            elif answer["type"] == "AnsNewTurnMsg":
                answer = await self.client.call("NewOrderMsg")
            else:
                raise AssertionError(f"unexpected {answer}")

    async def _planning(self, answer: dict[str, Any]) -> dict[str, Any]:
        fresh = [c for c in answer["dca"] if c not in answer["playedCards"]] or answer["dca"]
        decided = await self._action("TurnDecidedMsg", card=self.rng.choice(fresh))
        assert decided["type"] == "AnsTurnDecidedMsg", decided
        return await self.client.call("AskCAMsg")

    async def _action(self, kind: str, **fields: Any) -> dict[str, Any]:
        if self.stop_after is not None and self.actions >= self.stop_after:
            raise StopPlaying
        answer = await self.client.call(kind, **fields)
        assert answer["type"] != "ErrorMsg", (kind, fields, answer)
        self.actions += 1
        if answer["type"] in APPLIED:
            self.applied += 1
        return answer

    async def _action_turn(self, answer: dict[str, Any]) -> dict[str, Any]:
        board = answer["generalBoard"]
        eager = self.prefer_new is not None
        if (answer["modexp"] and self.characters and board["turn"]["characterUsed"] is None
                and (eager or self.rng.random() < 0.6)):
            board = await self._try_character(board, answer["characterCards"])
            if board["phase"] == "over":
                return await self._end()
        n = board["turn"]["studentsMoved"] + 1
        while board["turn"]["studentsToMove"] > 0:
            colour, location = self._student(board)
            moved = await self._action(f"MoveStudent{n}Msg", colour=colour, location=location)
            assert moved["type"] == f"AnsMoveStudent{n}Msg", moved
            board, n = moved["generalBoard"], n + 1
        clouds = board["clouds"]
        if not board["turn"]["motherNatureMoved"]:  # (it has when we resume after it)
            steps = self.rng.randint(1, board["turn"]["maxSteps"])
            stepped = await self._action("NumStepMNMsg", steps=steps)
            if stepped["type"] == "AnsEndGameMsg":
                return stepped
            assert stepped["type"] == "AnsNumStepMNMsg", stepped
            clouds = stepped["clouds"]
        free = [c["cloud"] for c in clouds if not c["taken"] and sum(c["students"].values())]
        if free:
            took = await self._action("CloudMsg", cloud=self.rng.choice(free))
            assert took["type"] == "AnsCloudMsg", took
        else:
            self.applied += 1  # CheckTurnEndedMsg ends the turn (no cloud left to take)
        return await self.client.call("CheckTurnEndedMsg")

    async def _end(self) -> dict[str, Any]:
        while self.client.end is None:
            await self.client.recv()
        return self.client.end

    def _me(self, board: dict[str, Any]) -> dict[str, Any]:
        return next(s for s in board["schoolBoards"] if s["name"] == self.client.nickname)

    def _student(self, board: dict[str, Any]) -> tuple[str, int]:
        me = self._me(board)
        colour = self.rng.choice([c for c, n in me["entrance"].items() for _ in range(n)])
        if me["diningRoom"][colour] < 10 and self.rng.random() < 0.7:
            return colour, DINING
        return colour, self.rng.randrange(len(board["islands"]))

    async def _try_character(self, board: dict[str, Any],
                             cards: list[dict[str, Any]]) -> dict[str, Any]:
        coins = self._me(board)["coins"]
        affordable = [c for c in cards if c["cost"] <= coins]
        if not affordable:
            return board
        fresh = [c for c in affordable if c["number"] not in (self.prefer_new or ())]
        card = self.rng.choice(fresh or affordable)
        asked = await self._action("CCMsg", card=card["number"])
        if asked["type"] == "AnsPlayAfterCCMsg":
            self._played(card["number"])
            return asked["generalBoard"]
        assert asked["type"] == f"AnsCC{card['number']}Msg", asked
        arguments = self.arguments(card["number"], asked["characterCard"], board)
        done = await self._action(f"CC{card['number']}Msg", **arguments)
        if done["type"] == "AnsPlayAfterCCMsg":
            self._played(card["number"])
            return done["generalBoard"]
        assert done["type"] == f"AnsCC{card['number']}Msg" and done["error"], done
        cancelled = await self.client.call("CannotPlayCCMsg")
        assert cancelled["type"] == "AnsPlayAfterNotCCMsg", cancelled
        return cancelled["generalBoard"]

    def _played(self, number: int) -> None:
        self.played.append(number)
        if self.prefer_new is not None:
            self.prefer_new.add(number)

    def arguments(self, number: int, card: dict[str, Any], board: dict[str, Any]) -> dict[str, Any]:
        me, rng = self._me(board), self.rng
        on_card = [c for c, n in card.get("students", {}).items() if n] or ["Green"]
        entrance = [c for c, n in me["entrance"].items() if n] or ["Green"]
        island = rng.randrange(len(board["islands"]))
        if number == 1:
            return {"isl": island, "stud": rng.choice(on_card)}
        if number in (3, 5):
            return {"isl": island}
        if number == 7:
            swap = rng.random() < 0.7
            return {"students": [rng.choice(on_card)] if swap else [],
                    "entrancestud": [rng.choice(entrance)] if swap else []}
        if number == 10:  # one student for one of another colour (a colour swapped with
            # itself changes nothing and is refused), or no swap at all
            dining = me["diningRoom"]
            pairs = [(e, d) for e in entrance for d in dining
                     if e != d and dining[d] and dining.get(e, 0) < 10]
            e, d = pairs[0] if pairs else (None, None)
            return {"entrancestud": [e] if e else [], "diningstud": [d] if d else []}
        if number == 11:
            return {"color": rng.choice(on_card)}
        return {"color": rng.choice(COLOURS)}


#: answers that mean an action was applied
APPLIED = {"AnsTurnDecidedMsg", "AnsNumStepMNMsg", "AnsCloudMsg", "AnsPlayAfterCCMsg",
           "AnsEndGameMsg", *(f"AnsMoveStudent{n}Msg" for n in range(1, 5))}


class StopPlaying(Exception):
    """The bot reached ``stop_after``."""


async def start_game(port: int, players: int, expert: bool,
                     transcript: list[str] | None = None,
                     names: tuple[str, ...] = ("ada", "bruno", "carla", "dario")
                     ) -> list[G13Client]:
    """One creator and ``players - 1`` joiners; returns once all got AnsGameStartedMsg."""
    clients = [await G13Client.connect(port, names[i], transcript) for i in range(players)]
    for started in await start_table(clients, expert):
        assert started["type"] == "AnsGameStartedMsg", started
        assert started["nicknames"] == list(names[:players])
    return clients


async def start_table(clients: Sequence[Any], expert: bool) -> list[Any]:
    """``clients[0]`` creates a game for all of ``clients`` and the others join it; the answer
    each gets to GameStartedMsg. Any g13 client (JSON or Java) takes these steps alike."""
    await clients[0].create(len(clients), expert)
    waits = [await clients[0].send("GameStartedMsg")]
    for client in clients[1:]:
        waits.append(await client.join())
    return [await client.answer(wait) for client, wait in zip(clients, waits)]


def next_wait(board: dict[str, Any], me: str) -> str:
    """The wait a player sends after (re)joining a running game, read off the board."""
    mine = next(s for s in board["schoolBoards"] if s["name"] == me)
    if board["phase"] == "planning":
        return "AskCAMsg" if mine["playedCard"] else "FirstPlayerTurnMsg"
    order = board["actionOrder"]
    return "AskCAMsg" if order.index(me) >= order.index(board["turn"]["name"]) else (
        "CheckTurnEndedMsg")


async def rejoin(port: int, nickname: str, transcript: list[str] | None = None
                 ) -> tuple[G13Client, dict[str, Any], str, dict[str, Any] | None]:
    """Log in again: AnsGameStartedMsg, GameStateMsg, and the pending request if it is ours.

    Returns the client, the board, the wait to send and the pending request (or None).
    """
    client = await G13Client.connect(port, nickname, transcript)
    login = await client.login()
    assert login["status"] == "VALID", login
    started = await client.answer(login["parentIdentifier"])
    assert started["type"] == "AnsGameStartedMsg", started
    state = await client.answer(login["parentIdentifier"])
    assert state["type"] == "GameStateMsg", state
    board = state["generalBoard"]
    pending = None
    if board["toAct"] == [nickname]:
        pending = await client.answer(login["parentIdentifier"])
        assert pending["type"] in ("AnsFirstPlayerTurnMsg", "AnsNewOrderMsg", "AnsAskCAMsg")
    return client, board, next_wait(board, nickname), pending


async def run_until_stop(bots: Sequence[Any], waits: list[str] | None = None) -> None:
    """Run the bots (a ``Bot`` or a Java one: both raise StopPlaying) until one reaches its
    ``stop_after``; cancel the others."""
    tasks = [asyncio.create_task(b.run(*(waits[i:i + 1] if waits else ())))
             for i, b in enumerate(bots)]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        error = task.exception()
        assert isinstance(error, StopPlaying), error or f"a bot finished: {task.result()}"


async def play_all(clients: list[G13Client], seed: int, characters: bool = True) -> list[Bot]:
    bots = [Bot(c, seed * 10 + i, characters) for i, c in enumerate(clients)]
    ends = await asyncio.gather(*(b.run() for b in bots))
    assert all(e["winner"] == ends[0]["winner"] for e in ends)
    return bots
