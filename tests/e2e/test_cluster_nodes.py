"""A cluster of real ``serve`` processes over one PostgreSQL database and the NATS bus.

Players of one match on different nodes play it to the end through the canonical protocol
(every game) and through the seed dialects (Santorini, Masters of Renaissance, Dolphins &
Foxes), while a watcher on a third node sees every version once and in order. Then the node
that owns a match is SIGKILLed mid-match, or drained with SIGTERM: the match goes on through
the other nodes, no acknowledged action is lost, and ``matches replay`` reproduces it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from clients import CanonicalClient, LineClient, newest_match_replays, play_everywhere, run_cli
from databases_or_skip import fresh_or_skip
from engines_or_skip import engine_url, reachable
from renaissance_client import Player, join
from santorini_client import SantoriniClient, Table, find_seed

from service.tools.process import ServerProcess

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.asyncio(loop_scope="module")]

DIALECTS = ("santorini", "renaissance", "dolphinfox")
NATS = engine_url("nats")
#: what each game's canonical players choose: whatever ends the game soonest of the legal
#: actions (Renaissance: throw resources away, so the other side's faith ends it)
ENDING_KINDS = {"renaissance": ("choose_leaders", "take_bonus_resource", "discard_resource",
                                "convert_white_marble", "end_turn")}
OPTIONS = {"dolphinfox": {"size": 4, "units": 1, "max_moves": 40}, "eriantys": {"expert": True}}


class Cluster:
    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.nodes: dict[str, ServerProcess] = {}

    def node(self, name: str) -> ServerProcess:
        return ServerProcess(self.database_url, DIALECTS,
                             ("--cluster-bus", NATS, "--node-id", name))

    async def start(self, *names: str) -> None:
        for name in names:  # one at a time: the first one migrates the database
            self.nodes[name] = await self.node(name).start()

    def http(self, name: str) -> str:
        return f"http://127.0.0.1:{self.nodes[name].ports['http']}"

    async def stop(self) -> None:
        for node in self.nodes.values():
            await node.kill()


@contextlib.asynccontextmanager
async def running(directory: Path, *names: str) -> AsyncIterator[Cluster]:
    """A cluster of the nodes ``names`` over a fresh database; every node killed after."""
    await reachable("nats")
    async with fresh_or_skip("postgres", directory) as url:
        cluster = Cluster(url)
        try:
            await cluster.start(*names)
            yield cluster
        finally:
            await cluster.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    async with running(tmp_path_factory.mktemp("cluster"), "a", "b", "c") as started:
        yield started


@pytest_asyncio.fixture(loop_scope="module")
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


async def canonical(session: aiohttp.ClientSession, base: str, nickname: str | None = None,
                    token: str | None = None) -> CanonicalClient:
    client = CanonicalClient(await session.ws_connect(base + "/ws"))
    await client.hello(nickname, token)
    return client


def chooser(game: str, rng: random.Random) -> Any:
    kinds = ENDING_KINDS.get(game)

    def choose(actions: list[dict[str, Any]]) -> dict[str, Any]:
        for kind in kinds or ():
            fitting = [a for a in actions if a["type"] == kind]
            if fitting:
                return rng.choice(fitting)
        if kinds:
            return rng.choice([a for a in actions if a["type"] == "take_from_market"])
        return rng.choice(actions)
    return choose


async def watched_versions(watcher: CanonicalClient, first: int, last: int) -> list[int]:
    seen = [first]
    while seen[-1] < last:
        seen.append((await watcher.wait_for("update", timeout=60))["version"])
    return seen


@pytest.mark.parametrize("game", ["santorini", "eriantys", "renaissance", "dolphinfox"])
async def test_canonical_players_on_two_nodes_and_a_watcher_on_a_third(
        cluster: Cluster, session: aiohttp.ClientSession, game: str) -> None:
    ann = await canonical(session, cluster.http("a"), f"ann-{game}")
    bob = await canonical(session, cluster.http("b"), f"bob-{game}")
    created = await ann.call({"type": "create", "game": game, "seats": 2,
                              **({"options": OPTIONS[game]} if game in OPTIONS else {})})
    assert created["type"] == "ok", created
    match_id = created["result"]["match_id"]
    assert (await bob.call({"type": "join", "match_id": match_id}))["type"] == "ok"
    latest = await bob.wait_for("state", status="active", timeout=60)
    watcher = await canonical(session, cluster.http("c"))
    assert (await watcher.call({"type": "watch", "match_id": match_id}))["type"] == "ok"
    first = (await watcher.wait_for("state", timeout=60))["version"]
    latest = await play_everywhere([ann, bob], match_id, latest, chooser(game, random.Random(5)))
    assert latest["status"] == "finished" and latest["outcome"] is not None
    seen = await watched_versions(watcher, first, latest["version"])
    assert seen == list(range(first, latest["version"] + 1))  # each version once, in order
    replay = run_cli("matches", "replay", str(match_id), "--database-url", cluster.database_url)
    assert replay.returncode == 0 and "snapshot matches" in replay.stdout, replay.stdout


class ClusterTable(Table):
    """The seed-001 table, each player starting a turn once its own connection said it is
    theirs (actualPlayer), as the original client does: its node's copy of the match may be
    a bus hop behind the node where the other player just moved."""

    async def setup(self) -> None:
        await super().setup()  # it waits for the first actualPlayer
        self.told = True

    async def turn(self) -> None:
        if not self.told:
            await self.clients[self.mirror.current].wait_for("actualPlayer")
        self.told = False
        await super().turn()


async def test_santorini_seed_clients_on_two_nodes(cluster: Cluster) -> None:
    clients = []
    for node, nick in (("a", "sa"), ("b", "sb")):
        client = await SantoriniClient.connect(cluster.nodes[node].ports["santorini"])
        answer = await client.join(nick, 2)
        assert answer["validNick"] and answer["lobbyState"], answer
        clients.append(client)
    table = ClusterTable(clients, seed=find_seed(2, False))
    await table.play()
    for seat, client in enumerate(clients):  # each hears its own result, on its own node
        await client.wait_for("youWin" if seat == table.mirror.winner else "youLose")


async def test_renaissance_seed_clients_on_two_nodes(cluster: Cluster) -> None:
    first = await join(cluster.nodes["b"].ports["renaissance"], "ra", 2)
    second = await join(cluster.nodes["c"].ports["renaissance"], "rb", None)
    results = await asyncio.gather(Player(first, 0, seed=1).play(), Player(second, 1, seed=2).play())
    assert all(len(lines) == 2 for lines in results)
    assert results[0] == results[1]  # both hear the same final ranking


async def dolphinfox_player(port: int) -> tuple[LineClient, str, str]:
    client = await LineClient.connect(port)
    await client.send("PCJ")
    team = (await client.expect("CPT ")).split(" ")[1]
    key = (await client.expect("CPK ")).split(" ", 1)[1]
    return client, team, key


async def test_dolphinfox_seed_clients_on_two_nodes_and_a_viewer_on_a_third(
        cluster: Cluster) -> None:
    first, team1, _ = await dolphinfox_player(cluster.nodes["a"].ports["dolphinfox"])
    second, team2, _ = await dolphinfox_player(cluster.nodes["b"].ports["dolphinfox"])
    assert {team1, team2} == {"D", "F"}
    for client, team in ((first, team1), (second, team2)):
        assert await client.recv(timeout=30) == f"B{team}N"
    match_id = max(int(m["id"]) for m in await matches(cluster, "dolphinfox"))
    viewer = await LineClient.connect(cluster.nodes["c"].ports["dolphinfox"])
    await viewer.send(f"QCJ {match_id}")
    assert (await viewer.recv(timeout=30)).startswith("CQT")
    assert (await viewer.expect("BEB ", timeout=30))
    await first.close()
    await second.close()
    await viewer.close()


async def matches(cluster: Cluster, game: str) -> list[dict[str, Any]]:
    import json
    listing = run_cli("matches", "list", "--json", "--game", game, "--database-url",
                      cluster.database_url)
    assert listing.returncode == 0, listing.stderr
    return json.loads(listing.stdout)  # type: ignore[no-any-return]


async def test_the_owner_is_killed_mid_match_and_the_match_goes_on(
        tmp_path: Path, session: aiohttp.ClientSession) -> None:
    async with running(tmp_path, "k1", "k2", "k3") as cluster:
        ann = await canonical(session, cluster.http("k1"), "kann")
        bob = await canonical(session, cluster.http("k2"), "kbob")
        created = await ann.call({"type": "create", "game": "eriantys", "seats": 2,
                                  "options": {"expert": True}})
        match_id = created["result"]["match_id"]
        await bob.call({"type": "join", "match_id": match_id})
        latest = await bob.wait_for("state", status="active", timeout=60)
        watcher = await canonical(session, cluster.http("k3"))
        await watcher.call({"type": "watch", "match_id": match_id})
        first = (await watcher.wait_for("state", timeout=60))["version"]
        rng = random.Random(9)
        latest = await play_everywhere([ann, bob], match_id, latest, rng.choice, moves=20)
        acknowledged = latest["version"]
        await cluster.nodes["k1"].kill()  # the owner: no shutdown code runs

        ann = await canonical(session, cluster.http("k3"), token=ann.token)  # ann comes back
        resumed = await ann.call({"type": "resume", "match_id": match_id,
                                  "since": latest["version"]})
        assert resumed["type"] == "ok", resumed
        assert resumed["result"]["version"] >= acknowledged  # nothing acknowledged is lost
        await ann.wait_for("state", timeout=60)
        latest = await play_everywhere([ann, bob], match_id, latest, rng.choice)
        assert latest["status"] == "finished"
        seen = await watched_versions(watcher, first, latest["version"])
        assert seen == list(range(first, latest["version"] + 1))
        await cluster.nodes["k2"].terminate()
        await cluster.nodes["k3"].terminate()
        assert not any(node.tracebacks for node in cluster.nodes.values()), \
            [line for node in cluster.nodes.values() for line in node.output[-40:]]
        await cluster.stop()
        newest_match_replays(cluster.database_url)


async def test_a_draining_node_hands_its_match_over_and_nobody_sees_an_error(
        tmp_path: Path, session: aiohttp.ClientSession) -> None:
    async with running(tmp_path, "d1", "d2") as cluster:
        ann = await canonical(session, cluster.http("d1"), "dann")
        bob = await canonical(session, cluster.http("d2"), "dbob")
        created = await ann.call({"type": "create", "game": "santorini", "seats": 2})
        match_id = created["result"]["match_id"]
        await bob.call({"type": "join", "match_id": match_id})
        latest = await bob.wait_for("state", status="active", timeout=60)
        rng = random.Random(2)
        latest = await play_everywhere([ann, bob], match_id, latest, rng.choice, moves=6)
        assert await cluster.nodes["d1"].terminate() == 0  # SIGTERM: the owner drains
        closed = await ann.ws.receive(timeout=30)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 1012, closed
        ann = await canonical(session, cluster.http("d2"), token=ann.token)
        resumed = await ann.call({"type": "resume", "match_id": match_id,
                                  "since": latest["version"]})
        assert resumed["type"] == "ok", resumed
        await ann.wait_for("state", timeout=60)
        latest = await play_everywhere([ann, bob], match_id, latest, rng.choice)
        assert latest["status"] == "finished"
        for client in (ann, bob):
            assert not [m for m in client.inbox if m.get("type") == "error"], client.inbox
        await cluster.stop()
        newest_match_replays(cluster.database_url)


async def test_seed_002_players_rejoin_on_another_node_after_the_owner_is_killed(
        tmp_path: Path) -> None:
    """Dolphins & Foxes (seed 002): the match opened on k1 (its owner), its fox plays from k2
    and a viewer watches from k3; k1 is SIGKILLed after a few moves (one more sent, not
    acknowledged); the dolphin rejoins on k3 with its key, as after a restart, and the match
    finishes with every acknowledged move."""
    from test_kill_restart import board_state, move, resume

    from service.games.dolphinfox import GAME
    rng = random.Random(21)
    async with running(tmp_path, "k1", "k2", "k3") as cluster:
        viewer = await LineClient.connect(cluster.nodes["k3"].ports["dolphinfox"])
        await viewer.send("QCJ")  # the next match, whichever node opens it
        assert await viewer.recv(timeout=30) == "CQT D"
        dolphin, team_d, key_d = await dolphinfox_player(cluster.nodes["k1"].ports["dolphinfox"])
        fox, team_f, _ = await dolphinfox_player(cluster.nodes["k2"].ports["dolphinfox"])
        assert (team_d, team_f) == ("D", "F")
        assert await dolphin.recv(timeout=30) == "BDN" and await fox.recv(timeout=30) == "BFN"
        mirror = board_state(await viewer.expect("BEB ", timeout=30))
        players = [dolphin, fox]
        for turn in range(8):
            team = turn % 2
            mv = rng.choice(GAME.legal_actions(mirror, team))
            await move(players[team], team, mv)
            assert await players[team].recv(timeout=30) == f"B{'DF'[team]}N"  # acknowledged
            GAME.apply(mirror, team, mv)
        in_flight = rng.choice(GAME.legal_actions(mirror, 0))
        await move(dolphin, 0, in_flight)  # may or may not survive
        await cluster.nodes["k1"].kill()

        dolphin, board_d = await resume(cluster.nodes["k3"].ports["dolphinfox"], key_d, "D")
        after = board_state(board_d)
        saved = after.units != mirror.units
        if saved:  # the in-flight move was saved before the kill
            GAME.apply(mirror, 0, in_flight)
        assert after.units == mirror.units  # every acknowledged move is there
        players = [dolphin, fox]
        for turn in range(1 if saved else 0, 400):
            team = turn % 2
            mv = rng.choice(GAME.legal_actions(mirror, team))
            await move(players[team], team, mv)
            GAME.apply(mirror, team, mv)
            assert await players[team].recv(timeout=30) == f"B{'DF'[team]}N"
            if GAME.outcome(mirror) is not None:
                break
        assert GAME.outcome(mirror) is not None
        await cluster.stop()
        newest_match_replays(cluster.database_url)
