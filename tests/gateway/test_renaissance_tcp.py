"""Masters of Renaissance (seed 003) over real TCP: whole games for 1-4 players typed with the
seed's lines, the lobby, set-up dialogues, errors, heartbeat, several lobbies, resume, rematch."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from renaissance_client import Player, RenaissanceClient, find_seed, join

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.protocol import renaissance as wire
from service.sessions.dialects.renaissance import RenaissanceConversation
from service.settings import Settings

NICKS = ["ann", "bob", "cid", "dee"]


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


def port_of(client: Any) -> int:
    return client.server.app[LISTENERS]["renaissance"].port


async def lobby(port: int, count: int) -> list[RenaissanceClient]:
    return [await join(port, NICKS[i], count if i == 0 else None) for i in range(count)]


def runtime_of(client: Any) -> Any:
    return next(r for r in client.server.app[HUB].live() if r.game.name == "renaissance")


async def play_all(players: list[Player]) -> list[list[str]]:
    return list(await asyncio.gather(*(p.play() for p in players)))


@pytest.mark.parametrize("count", [2, 3, 4])
async def test_blind_players_finish_a_game_to_the_scores(client: Any, count: int) -> None:
    clients = await lobby(port_of(client), count)
    results = await play_all([Player(c, s, seed=s) for s, c in enumerate(clients)])
    runtime = runtime_of(client)
    assert runtime.status == "finished"
    scores = runtime.state.scores
    assert runtime.version > 10 * count and runtime.state.end_reason
    for lines in results:
        assert len(lines) == count
        assert [line.split(" player: ")[0] for line in lines] == list(wire.PLACES[:count])
        for line in lines:
            nick = line.split("player: ")[1].split(" Points")[0]
            assert line.endswith(f"Points: {scores[NICKS.index(nick)]}")


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The next matches are set up from ``seed`` (the hub draws it from ``secrets``)."""
    import types

    from service.sessions import hub
    monkeypatch.setattr(hub, "secrets", types.SimpleNamespace(randbits=lambda bits: seed))


@pytest.mark.parametrize("win", [True, False])
async def test_a_solo_game_against_lorenzo_is_won_or_lost(
        client: Any, monkeypatch: pytest.MonkeyPatch, win: bool) -> None:
    seed = find_seed(solo_win=win, start=21 if win else 0)
    fixed_seed(monkeypatch, seed)
    solo = await join(port_of(client), "sol", 1)
    player = Player(solo, 0, oracle=lambda: runtime_of(client).state, seed=0)
    [result] = await play_all([player])
    runtime = runtime_of(client)
    assert runtime.status == "finished" and runtime.seed == seed
    points = runtime.state.scores[0]
    assert result == [(wire.YOU_WIN if win else wire.YOU_LOSE).format(points=points)]
    assert runtime.state.end_reason == ("faith_track" if win else "lorenzo_faith") or not win
    tokens = [line for _, _, line in solo.transcript if line.startswith("Lorenzo's token:")]
    assert tokens and all("black cross on" in line for line in tokens)


async def started_pair(client: Any) -> tuple[RenaissanceClient, RenaissanceClient]:
    """ann and bob, set up (ann kept leaders 1 and 2; bob took a coin into line 1)."""
    ann, bob = await lobby(port_of(client), 2)
    for c, answers in ((ann, ["1", "2"]), (bob, ["coin", "1", "1", "2"])):
        prompts = [wire.SELECT_SETUP_RESOURCE, wire.SELECT_SETUP_LINE] if c is bob else []
        for prompt, answer in zip([*prompts, wire.FIRST_LEADER, wire.SECOND_LEADER], answers):
            await c.until(prompt)
            await c.send(answer)
        await c.until(wire.SETUP_COMPLETE)
    return ann, bob


BAD_LINES = [
    ("fly away", wire.WRONG_COMMAND),
    ("Move resources -a -2", "Not a number"),
    ("Move resources -1 -7", "Choose valid warehouse lines to switch"),
    ("Move resources -2 -2", "Choose valid warehouse lines to switch"),
    ("Move resources", "Missing parameter(s)"),
    ("Buy resources -line -9", "Index out of bounds"),
    ("Buy resources -column -0", "Index out of bounds"),
    ("Buy resources -2", "Select either a column or a line"),
    ("Buy resources -line -x", "Not a number"),
    ("Buy production card -4 -1", "Index out of bounds"),
    ("Buy production card -1 -x", "Not a number"),
    ("Buy production card -3 -1", "No level 2 card active"),
    ("Buy production card -2 -1", "No level 1 card active"),
    ("Buy production card -1 -1", "Not enough resources"),
    ("Activate leader card -3", "Index out of bounds"),
    ("Activate leader card -x", "Not a number"),
    ("Activate leader card -1", "Unable to activate this card"),
    ("Activate card production -4", "Index out of bounds"),
    ("Activate card production -1", "You don't have any active production card in this slot"),
    ("Leader production -1", "Not a valid leader of productions card"),
    ("Standard Production", "Not enough resources"),
    ("End turn", wire.ACTION_NEEDED),
    ("view -nothing", "not a valid parameter"),
]


async def test_bad_lines_get_the_seed_strings_and_change_nothing(client: Any) -> None:
    ann, bob = await started_pair(client)
    await ann.until(wire.WHAT_TO_DO)
    runtime = runtime_of(client)
    version, snapshot = runtime.version, runtime.game.dump_state(runtime.state)
    for line, answer in BAD_LINES:
        await ann.send(line)
        assert await ann.line() == answer, line
        assert await ann.line() == wire.WHAT_TO_DO, line
    await bob.until("Now it's ann's turn")
    await bob.send("Buy resources -line -1")
    assert await bob.line() == wire.NOT_YOUR_TURN
    assert runtime.version == version and runtime.game.dump_state(runtime.state) == snapshot
    await ann.send("view -personal board -2")
    lines = await ann.until(wire.PRINTED)
    assert lines[0] == "Personal board of bob" and lines[1] == "Warehouse depot line 1: 1 coin"


async def test_a_market_dialogue_with_wrong_answers_then_the_seed_replies(client: Any) -> None:
    ann, bob = await started_pair(client)
    await ann.until(wire.WHAT_TO_DO)
    runtime = runtime_of(client)
    row = runtime.state.market[4:8]
    await ann.send("buy RESOURCES -line 2")
    reds = sum(1 for m in row if m == "red")
    stored = [m for m in row if m not in ("red", "white")]
    for _ in range(reds):
        assert await ann.line() == wire.FAITH_INCREASED
    for n in range(len(stored)):
        current = await ann.line()
        assert current.startswith("Current resource: ")
        assert await ann.line() == wire.WHERE_TO_INSERT
        await ann.send("nowhere")
        assert await ann.line() == wire.choices("warehousedepot", "extradepot", "discard")
        assert await ann.line() == wire.WHERE_TO_INSERT
        await ann.send("extra depot")
        assert await ann.line() == wire.NO_DEPOT_LEADER
        assert await ann.line() == wire.WHERE_TO_INSERT
        await ann.send("Warehouse depot" if n == 0 else "discard")
        if n == 0:
            assert await ann.line() == wire.SELECT_LINE
            await ann.send("x")
            assert await ann.line() == wire.INSERT_VALID_NUMBER
            assert await ann.line() == wire.SELECT_LINE
            await ann.send("3")
        else:
            assert await ann.line() == wire.RESOURCE_DISCARDED
    assert await ann.line() == wire.RESOURCES_BOUGHT
    assert await ann.line() == wire.WHAT_TO_DO
    await ann.send("End turn")
    assert await ann.line() == wire.END
    assert await ann.line() == "Now it's bob's turn"
    assert await bob.until(wire.WHAT_TO_DO)
    if stored:
        assert runtime.state.players[0].depots[2][1] == 1


async def test_heartbeat_pings_every_interval_and_drops_the_silent(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RenaissanceConversation, "ping_interval", 0.05)
    monkeypatch.setattr(RenaissanceConversation, "silence_limit", 1.0)  # slack for a loaded CI
    port = port_of(client)
    silent = await RenaissanceClient.open(port, "silent")
    assert await silent.recv() == wire.INSERT_NICKNAME
    assert await silent.recv() == wire.PING
    assert await silent.closed(timeout=5)
    lively = await RenaissanceClient.open(port, "lively")
    assert await lively.line() == wire.INSERT_NICKNAME
    for _ in range(40):  # answering pongs keeps it alive well past the silence limit
        await lively.recv()
        await lively.send(wire.PONG)
    await lively.send("lively")
    assert await lively.line() == wire.INSERT_PLAYERS


async def test_several_lobbies_fill_in_order_and_nicknames_are_unique(client: Any) -> None:
    port = port_of(client)
    first = await join(port, "ann", 3)
    again = await RenaissanceClient.open(port, "again")
    assert await again.line() == wire.INSERT_NICKNAME
    await again.send("ANN")
    assert await again.line() == wire.INSERT_VALID_NICKNAME
    await again.send("   ")
    assert await again.line() == wire.INSERT_VALID_NICKNAME
    await again.send("bob")
    assert await again.line() == "You are in the waiting lobby: 2 of 3 players"
    await again.send("hello")
    assert await again.line() == wire.NOTHING_TO_DO
    await join(port, "cid", None)  # the last seat of ann's lobby: told at once that all are in
    for c in (first, again):
        assert wire.ALL_CONNECTED in await c.until(wire.ALL_CONNECTED)
    other = await RenaissanceClient.open(port, "dee")
    await other.line()
    await other.send("dee")
    assert await other.line() == wire.INSERT_PLAYERS  # no lobby waits: dee opens one
    await other.send("x")
    assert await other.line() == wire.INSERT_VALID_NUMBER
    assert await other.line() == wire.INSERT_PLAYERS
    await other.send("5")
    assert await other.line() == wire.INSERT_PLAYERS
    await other.send("2")
    assert await other.line() == "You are in the waiting lobby: 1 of 2 players"
    assert len([r for r in client.server.app[HUB].live() if r.game.name == "renaissance"]) == 2


def placeable_column(state: Any) -> int:
    from service.games.renaissance import catalog as K
    from service.games.renaissance.market import line_cells
    for index in range(1, K.COLUMNS + 1):
        if any(state.market[i] in K.MARBLE_RESOURCE for i in line_cells("column", index)):
            return index
    raise AssertionError(f"no column of {state.market} holds a resource")


async def test_a_dropped_player_resumes_at_the_same_point(client: Any) -> None:
    ann, bob = await started_pair(client)
    await ann.until(wire.WHAT_TO_DO)
    # a column holding a resource to place (the seed is random: one of only white and red
    # marbles would ask nothing)
    column = placeable_column(runtime_of(client).state)
    await ann.send(f"Buy resources -column -{column}")
    first = await ann.until(wire.WHERE_TO_INSERT)
    await ann.close()
    assert await bob.until("ann disconnected, the game waits for them")
    runtime = runtime_of(client)
    version = runtime.version
    back = await RenaissanceClient.open(port_of(client), "ann")
    await back.line()
    await back.send("ann")
    assert await back.line() == "Welcome back ann, your game goes on"
    seen = await back.until(wire.WHERE_TO_INSERT)  # the same placement, asked again
    assert [line for line in first if line.startswith("Current")][-1] in seen
    assert any(line.startswith("Personal board of ann") for line in seen)
    assert "ann is back" in await bob.until("ann is back")
    assert runtime.version == version


async def test_finished_players_rematch(client: Any) -> None:
    clients = await lobby(port_of(client), 2)
    await play_all([Player(c, s, seed=s) for s, c in enumerate(clients)])
    old = runtime_of(client).id
    for c in clients:
        assert await c.line() == wire.REMATCH_OFFER
    await clients[0].send("rematch")
    assert await clients[0].line() == wire.REMATCH_WAIT
    await clients[1].send("Rematch")
    for c in clients:
        assert await c.line() == wire.ALL_CONNECTED
    new = max(r.id for r in client.server.app[HUB].live())
    assert new != old
    results = await play_all([Player(c, s, seed=s + 5) for s, c in enumerate(clients)])
    assert all(len(lines) == 2 for lines in results)


async def quick_turn(c: RenaissanceClient) -> None:
    """Take row 1, throw everything away, end the turn."""
    await c.until(wire.WHAT_TO_DO)
    await c.send("Buy resources -line -1")
    while (line := await c.line()) != wire.RESOURCES_BOUGHT:
        if line in (wire.WHERE_TO_INSERT, wire.TRANSFORM_OR_DISCARD):
            await c.send("discard")
    await c.until(wire.WHAT_TO_DO)
    await c.send("End turn")
    assert await c.line() == wire.END


async def test_standard_production_dialogue_with_every_answer_checked(client: Any) -> None:
    clients = await lobby(port_of(client), 4)
    bonus = {1: ["coin", "1"], 2: ["coin", "1"], 3: ["coin", "1", "stone", "2"]}
    for seat, c in enumerate(clients):
        for answer in [*bonus.get(seat, []), "1", "2"]:
            line = await c.line()
            while line not in (wire.SELECT_SETUP_RESOURCE, wire.SELECT_SETUP_LINE,
                               wire.FIRST_LEADER, wire.SECOND_LEADER):
                line = await c.line()
            await c.send(answer)
        await c.until(wire.SETUP_COMPLETE)
    for c in clients[:3]:
        await quick_turn(c)
    dee = clients[3]
    await dee.until(wire.WHAT_TO_DO)
    runtime = runtime_of(client)
    before = runtime.version
    await dee.send("standard production")
    exchange = [
        (wire.STANDARD_START, None), (wire.SELECT_DEPOT, "cellar"),
        (wire.VALID_PRODUCTION_LOCATION, None), (wire.SELECT_DEPOT, "Strongbox"),
        (wire.SELECT_RESOURCE, "coin"), (wire.NOT_IN_STRONGBOX, None),
        (wire.SELECT_DEPOT, "Extra depot"), (wire.SELECT_RESOURCE, "stone"),
        (wire.WRONG_RESOURCE, None), (wire.SELECT_DEPOT, "Warehouse depot"),
        (wire.SELECT_RESOURCE, "gold"), (wire.VALID_RESOURCE, None),
        (wire.SELECT_DEPOT, "Warehouse depot"), (wire.SELECT_RESOURCE, "Servant"),
        (wire.NOT_IN_WAREHOUSE, None), (wire.SELECT_DEPOT, "coin warehouse depot"),
        (wire.RESOURCE_TAKEN, None), (wire.SELECT_DEPOT, "warehousedepot"),
        (wire.SELECT_RESOURCE, "STONE"), (wire.RESOURCE_TAKEN, None),
        (wire.CHOOSE_OUTPUT, "faith"), (wire.VALID_RESOURCE, None),
        (wire.CHOOSE_OUTPUT, "shield"), (wire.STANDARD_DONE, None), (wire.WHAT_TO_DO, None),
    ]
    for expected, answer in exchange:
        assert await dee.line() == expected
        if answer is not None:
            assert runtime.version == before  # nothing is applied before the dialogue ends
            await dee.send(answer)
    me = runtime.state.players[3]
    assert runtime.version == before + 1 and me.strongbox == [0, 0, 1, 0] and not any(
        n for _, n in me.depots)
    await dee.send("Standard Production")
    assert await dee.line() == wire.PRODUCTION_ALREADY_USED
    assert await dee.line() == wire.WHAT_TO_DO
    await dee.send("buy resources -line -1")
    assert await dee.line() == wire.ACTION_ALREADY_DONE


FRAGMENTS = ["move resources", "buy resources", "buy production card", "activate leader card",
             "discard leader card", "activate card production", "leader production",
             "standard production", "end turn", "view", "-", "-1", "-2", "-3", "-9", "-line",
             "-column", "-x", " ", "warehouse depot", "extra depot", "strongbox", "discard",
             "transform", "coin", "stone", "servant", "shield", "1", "2", "3", "\u00e9\u00e8",
             "\x00", "\"", "{}", "rematch", "new game", "-card market", "-personal board"]


async def test_random_lines_never_break_the_conversation(
        client: Any, caplog: pytest.LogCaptureFixture) -> None:
    ann, bob = await started_pair(client)
    await ann.until(wire.WHAT_TO_DO)
    rng = random.Random(7)
    for _ in range(150):
        for c in (ann, bob):
            line = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 4)))
            await c.send(line)
            await c.send(wire.PING)
            answers = await c.until(wire.PONG)
            assert not any("internal error" in a for a in answers), (line, answers)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_the_dialect_speaks_over_websocket_and_refuses_long_lines(client: Any) -> None:
    ws = await client.ws_connect("/ws/renaissance")
    assert (await ws.receive_str(timeout=5)) == wire.INSERT_NICKNAME
    await ws.send_str("wes")
    while (answer := await ws.receive_str(timeout=5)) == wire.PING:
        pass
    assert answer == wire.INSERT_PLAYERS
    await ws.close()
    tcp = await RenaissanceClient.open(port_of(client), "long")
    assert await tcp.line() == wire.INSERT_NICKNAME
    await tcp.send("x" * (wire.MAX_LINE + 1))
    assert await tcp.line() == f"a line may hold at most {wire.MAX_LINE} bytes"
    await tcp.send("long")
    assert await tcp.line() == wire.INSERT_PLAYERS


async def test_three_matches_play_at_once(client: Any) -> None:
    port = port_of(client)
    tables = []
    for t in range(3):
        first = await join(port, f"p{t}a", 2)
        tables.append([first, await join(port, f"p{t}b", None)])
    players = [Player(c, s, seed=10 * t + s) for t, table in enumerate(tables)
               for s, c in enumerate(table)]
    results = await play_all(players)
    assert all(len(lines) == 2 for lines in results)
    finished = [r for r in client.server.app[HUB].live() if r.game.name == "renaissance"]
    assert len(finished) == 3 and all(r.status == "finished" for r in finished)
    for t, table in enumerate(tables):
        nicks = {line.split("player: ")[1].split(" ")[0] for line in results[2 * t]}
        assert nicks == {f"p{t}a", f"p{t}b"}


async def test_a_store_failure_while_a_client_leaves_is_logged_not_raised(
        client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Leaving a waiting lobby gives the seat up in the store; with the store away (a test's
    database dropped under it, in CI) that failed inside the connection's task, whose
    exception nobody read ("Task exception was never retrieved", an ERROR in a later test)."""
    from service.errors import StoreError

    async def store_away(*args: Any, **kwargs: Any) -> bool:
        raise StoreError("the database is unavailable", code="store/unavailable")

    monkeypatch.setattr(client.server.app[HUB], "give_up_seat", store_away)
    lonely = await join(port_of(client), "lonely", 2)  # waits in a lobby: leaving gives it up
    handlers = set(client.server.app[LISTENERS]["renaissance"]._handlers)
    assert handlers
    await lonely.close()
    done, waiting = await asyncio.wait(handlers, timeout=60)
    assert not waiting and all(task.exception() is None for task in done)
    assert any("store/unavailable" in r.getMessage() for r in caplog.records
               if r.levelname == "WARNING")
