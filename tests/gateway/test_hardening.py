"""Regression tests of issue 8 (hardening) over real connections: every bad input gets the
dialect's error answer with a stable code, and the connection lives on."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from clients import CanonicalClient, LineClient
from santorini_client import SantoriniClient
from store_faults import CommitThenFail
from test_dolphinfox_tcp import join_all, state_from

from service.app import create_app
from service.games.dolphinfox import GAME
from service.gateway.keys import HUB, STORE, LISTENERS
from service.gateway.limits import AcceptErrorFilter, ConnectionGate, DescriptorBudget
from service.gateway.tcp import TcpListener
from service.sessions.dialects import DIALECTS
from service.sessions.hub import Hub
from service.store import Store
from service.settings import Settings

UID = "0b9e4c7e-5f0d-4a3e-9a51-4f1c3b7d2a10"
DEEP = "[" * 3000 + "]" * 3000


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def canonical(client: Any) -> CanonicalClient:
    return CanonicalClient(await client.ws_connect("/ws"))


async def line_client(client: Any, dialect: str) -> LineClient:
    return await LineClient.connect(client.server.app[LISTENERS][dialect].port)


async def test_d1_deep_nesting_is_a_bad_frame_on_canonical(client: Any) -> None:
    alice = await canonical(client)
    await alice.ws.send_str(DEEP)
    answer = await alice.next()
    assert answer["type"] == "error" and answer["code"] == "protocol/bad_json"
    assert (await alice.call({"type": "ping"}))["type"] == "pong"  # still connected


async def test_d1_deep_nesting_is_answered_on_g13(client: Any) -> None:
    g13 = await line_client(client, "eriantys-g13")
    await g13.send(DEEP)
    answer = json.loads(await g13.recv())
    assert answer["type"] == "ErrorMsg" and answer["code"] == "protocol/bad_json"
    await g13.send(json.dumps({"type": "PingCMSG", "identifier": UID}))
    assert json.loads(await g13.recv())["type"] == "PingSMSG"
    await g13.close()


async def test_d2_a_boolean_id_gets_an_error_without_re(client: Any) -> None:
    alice = await canonical(client)
    await alice.ws.send_str('{"type":"nope","id":true}')
    answer = await alice.next()
    assert answer["type"] == "error" and answer["code"] == "protocol/bad_message"
    assert "re" not in answer
    assert (await alice.call({"type": "ping"}))["type"] == "pong"


@pytest.mark.parametrize("field,value", [("color", ["Red"]), ("color", {"Red": 1})])
async def test_d3_a_list_or_object_for_a_colour_is_a_bad_colour(client: Any, field: str,
                                                               value: Any) -> None:
    g13 = await line_client(client, "eriantys-g13")
    await g13.send(json.dumps({"type": "LoginMsg", "identifier": UID, "name": "ada"}))
    assert json.loads(await g13.recv())["status"] == "VALID"
    await g13.send(json.dumps({"type": "CC9Msg", "identifier": UID, field: value}))
    answer = json.loads(await g13.recv())
    assert answer["type"] == "ErrorMsg" and answer["code"] == "protocol/bad_colour"
    assert answer["parentIdentifier"] == UID
    await g13.send(json.dumps({"type": "TurnDecidedMsg", "identifier": UID, "card": ["Uno"]}))
    assert json.loads(await g13.recv())["code"] == "protocol/bad_card"
    await g13.close()


# --- D7: nickname-only dialects never reach a token player ------------------------------


async def g13_login(client: Any, name: str) -> tuple[LineClient, str]:
    g13 = await line_client(client, "eriantys-g13")
    await g13.send(json.dumps({"type": "LoginMsg", "identifier": UID, "name": name}))
    answer = json.loads(await g13.recv())
    assert answer["type"] == "AnswIfAllowedMsg"
    return g13, answer["status"]


async def santorini_add(client: Any, name: str) -> tuple[SantoriniClient, bool]:
    santorini = await SantoriniClient.connect(client.server.app[LISTENERS]["santorini"].port)
    await santorini.send("addPlayer", {"playerNickname": name, "lobbySize": 2})
    return santorini, (await santorini.expect("addPlayerResponse"))["validNick"]


async def test_d7_a_canonical_players_name_is_taken_on_santorini_and_g13(client: Any) -> None:
    alice = await canonical(client)
    await alice.hello("alice")
    created = await alice.call({"type": "create", "game": "santorini", "options": {}})
    assert created["type"] == "ok"
    santorini, valid = await santorini_add(client, "alice")
    assert valid is False  # the seat is not taken over
    g13, status = await g13_login(client, "Alice")
    assert status == "INVALID"
    assert client.server.app[HUB].live()[0].seats[0].nickname == "alice"
    await santorini.close()
    await g13.close()


async def test_d7_a_santorini_player_reaches_its_match_from_canonical_and_may_claim_it(
        client: Any) -> None:
    bill, valid = await santorini_add(client, "bill")
    assert valid is True
    match_id = client.server.app[HUB].live()[0].id
    web = await canonical(client)
    welcome = await web.hello("bill")
    assert "token" not in welcome and welcome["player"]["protected"] is False
    assert [m["match_id"] for m in welcome["matches"]] == [match_id]
    await bill.close()
    claim = await canonical(client)
    claimed = await claim.call({"type": "hello", "nickname": "bill", "claim": True})
    assert claimed["type"] == "welcome" and claimed["token"] and claimed["player"]["protected"]
    again, valid = await santorini_add(client, "bill")
    assert valid is False  # from now on only the token reaches bill
    thief = await canonical(client)
    refused = await thief.call({"type": "hello", "nickname": "bill"})
    assert refused["type"] == "error" and refused["code"] == "session/nickname_taken"
    back = await canonical(client)
    assert (await back.hello(token=claimed["token"]))["player"]["nickname"] == "bill"
    await again.close()


async def test_d7_a_protected_or_banned_name_is_taken_on_the_seed_dialects(client: Any) -> None:
    """A password-protected name, and a banned one (which holds no token any more: an operator
    reset it), are refused by Santorini and group 13 in their own words; after the ban is
    lifted a reset name still holds no nickname-only entry."""
    carla = await canonical(client)
    await carla.hello("carla")
    assert (await carla.call({"type": "set_password", "password": "carla's secret"}))["type"] == "ok"
    _, valid = await santorini_add(client, "carla")
    assert valid is False
    _, status = await g13_login(client, "CARLA")
    assert status == "INVALID"
    hub, store = client.server.app[HUB], client.server.app[STORE]
    # a player only ever seen on Santorini, then banned
    eve, valid = await santorini_add(client, "eve")
    assert valid is True
    await eve.close()
    await hub.ban(await store.player_by_nickname("eve"), "cheating", operator="test")
    _, valid = await santorini_add(client, "eve")
    assert valid is False
    _, status = await g13_login(client, "eve")
    assert status == "INVALID"
    refused = await (await canonical(client)).call({"type": "hello", "nickname": "eve"})
    assert refused["code"] == "session/banned"


# --- D13: one nickname rule on every dialect ---------------------------------------------


@pytest.mark.parametrize("look_alike", ["ａｌｉｃｅ", "аӏісе"])
async def test_d13_look_alikes_are_one_name_on_every_dialect(client: Any, look_alike: str) -> None:
    alice = await canonical(client)
    await alice.hello("alice")
    copy = await canonical(client)
    taken = await copy.call({"type": "hello", "nickname": look_alike})
    assert taken["code"] == "session/nickname_taken"
    g13, status = await g13_login(client, look_alike)
    assert status == "INVALID"
    await g13.close()


@pytest.mark.parametrize("bad", ["аlice", "ali\u200bce"])
async def test_d13_mixed_scripts_and_invisible_characters_are_refused(client: Any, bad: str) -> None:
    web = await canonical(client)
    refused = await web.call({"type": "hello", "nickname": bad})
    assert refused["type"] == "error" and refused["code"] == "session/bad_nickname"
    santorini, valid = await santorini_add(client, bad)
    assert valid is False
    await santorini.close()


# --- D11: bounded connections and idle clients --------------------------------------------


async def limited(aiohttp_client: Any, database_url: str, **settings: Any) -> Any:
    return await aiohttp_client(create_app(Settings.for_tests(database_url, **settings)))


async def test_d11_connections_per_address_are_bounded(aiohttp_client: Any, database_url: str) -> None:
    client = await limited(aiohttp_client, database_url, max_connections_per_address=2)
    listener = client.server.app[LISTENERS]["dolphinfox"]
    port = listener.port
    first, second = await LineClient.connect(port), await LineClient.connect(port)
    await first.send("PCJ")
    await first.expect("CPT")
    third = await LineClient.connect(port)
    assert await third.closed()  # shed before any conversation
    await first.close()
    await asyncio.wait(set(listener._handlers), return_when=asyncio.FIRST_COMPLETED)  # first's ends
    await second.send("PCJ")  # the others are served as before
    await second.expect("CPT")
    fourth = await LineClient.connect(port)
    await fourth.send("QCJ")
    await fourth.expect("CQT")
    await second.close()
    await fourth.close()


async def test_d11_websocket_connections_per_address_are_bounded(aiohttp_client: Any,
                                                                 database_url: str) -> None:
    client = await limited(aiohttp_client, database_url, max_connections_per_address=1)
    first = await canonical(client)
    assert (await first.call({"type": "ping"}))["type"] == "pong"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect("/ws")
    assert refused.value.status == 503


async def test_d11_a_silent_client_without_heartbeat_is_closed(aiohttp_client: Any,
                                                               database_url: str) -> None:
    client = await limited(aiohttp_client, database_url, tcp_idle_timeout=0.2)
    quiet = await LineClient.connect(client.server.app[LISTENERS]["dolphinfox"].port)
    await quiet.send("PCJ")
    await quiet.expect("CPT")
    await quiet.expect("CPK")
    assert await quiet.closed()
    assert client.server.app[HUB].live()[0].empty_seats() == [0, 1]  # its lobby seat is freed


def test_d11_near_the_descriptor_limit_connections_are_shed_with_one_log_line(
        caplog: pytest.LogCaptureFixture) -> None:
    budget = DescriptorBudget(reserve=0)
    budget.capacity = 3
    gates = [ConnectionGate(f"g{i}", per_address=100, total=100, budget=budget) for i in range(2)]
    assert gates[0].admit("a") and gates[1].admit("b") and gates[0].admit("c")
    with caplog.at_level(logging.WARNING, logger="service.gateway.limits"):
        assert not any(gates[0].admit("d") for _ in range(10_000))
    assert len(caplog.records) == 1 and "file descriptor" in caplog.records[0].getMessage()
    gates[1].release("b")
    assert gates[0].admit("d")


# --- D6: private matches ------------------------------------------------------------------


async def test_d6_a_private_match_takes_its_invitation_code(client: Any) -> None:
    alice, bob, eve = await canonical(client), await canonical(client), await canonical(client)
    for who, name in ((alice, "alice"), (bob, "bob"), (eve, "eve")):
        await who.hello(name)
    created = await alice.call({"type": "create", "game": "dolphinfox", "private": True,
                                "options": {"size": 4, "units": 1, "max_moves": 12}})
    match_id, invite = created["result"]["match_id"], created["result"]["invite"]
    assert isinstance(invite, str) and len(invite) >= 16
    for attempt in ({}, {"invite": "guess"}):
        refused = await eve.call({"type": "join", "match_id": match_id, **attempt})
        # to an outsider a private match does not exist: the answer to an unused id
        assert refused["type"] == "error" and refused["code"] == "session/no_such_match"
        watched = await eve.call({"type": "watch", "match_id": match_id, **attempt})
        assert watched["code"] == "session/no_such_match"
        unused = await eve.call({"type": "watch", "match_id": 99999})
        assert watched["message"] == unused["message"].replace("99999", str(match_id))
    quick = await eve.call({"type": "quick_join", "game": "dolphinfox",
                            "options": {"size": 4, "units": 1, "max_moves": 12}})
    assert quick["result"]["match_id"] != match_id  # never found by quick join
    viewer = await line_client(client, "dolphinfox")
    await viewer.send("QCJ")
    await viewer.expect("CQT")
    private = await client.server.app[HUB].get(match_id)
    assert [seat for _, seat in private.listeners()] == [0]  # the viewer went elsewhere
    joined = await bob.call({"type": "join", "match_id": match_id, "invite": invite})
    assert joined["type"] == "ok" and joined["result"]["seat"] == 1
    assert (await alice.call({"type": "watch", "match_id": match_id}))["type"] == "ok"  # seated
    await viewer.close()


async def test_d6_public_waiting_matches_are_joined_by_anyone(client: Any) -> None:
    alice, eve = await canonical(client), await canonical(client)
    await alice.hello("alice")
    await eve.hello("eve")
    created = await alice.call({"type": "create", "game": "dolphinfox"})
    joined = await eve.call({"type": "join", "match_id": created["result"]["match_id"]})
    assert joined["type"] == "ok" and "invite" not in created["result"]


async def test_a_client_that_pongs_then_hangs_up_is_let_go_at_once(client: Any) -> None:
    """Found by the socket fuzz run: a cancel swallowed by asyncio.wait_for (Python 3.11)
    kept the heartbeat, and the connection, alive for its whole pong timeout."""
    gone = await LineClient.connect(client.server.app[LISTENERS]["santorini"].port)
    await gone.send('{"action":"pong"}')
    gone.writer.write_eof()
    assert await gone.closed(timeout=5)  # the pong timeout is 10 s, the ping interval 5 s


async def test_d11_a_listener_out_of_descriptors_pauses_and_resumes(store: Store) -> None:
    budget = DescriptorBudget(reserve=0)
    budget.capacity = 1
    listener = TcpListener(Hub(store), DIALECTS["dolphinfox"], outbox=16,
                           gate=ConnectionGate("test", per_address=10, total=10, budget=budget))
    await listener.start("127.0.0.1", 0)
    try:
        first = await LineClient.connect(listener.port)
        await first.send("PCJ")
        await first.expect("CPT")
        waiting = await LineClient.connect(listener.port)  # the kernel queues it
        await waiting.send("PCJ")
        await first.close()  # a descriptor comes free: the listener accepts again
        assert (await waiting.expect("CPT")).startswith("CPT")
        await waiting.close()
    finally:
        await listener.close()


# --- D9: a seed-dialect player learns that its move was saved after all --------------------


async def test_d9_a_dolphinfox_move_saved_despite_a_lost_commit_answer_is_reported_done(
        client: Any) -> None:
    app = client.server.app
    dolphin, fox, viewer_d, viewer_f, _, board = await join_all(app[LISTENERS]["dolphinfox"].port)
    mirror = state_from(board)
    move = GAME.legal_actions(mirror, 0)[0]
    GAME.apply(mirror, 0, move)
    CommitThenFail(app[HUB].store, saved=True)
    await dolphin.send(f"DBM {move.r1} {move.c1} {move.r2} {move.c2}")
    assert (await dolphin.recv()).startswith("CDF store/unknown_outcome")
    assert await dolphin.recv() == "BDN"  # the seed's "your move is answered"
    assert await viewer_d.recv() == "BEF"
    assert await viewer_d.recv() == "BEN"
    # the store answers again: the saved move reaches everyone, and the dolphin hears it is done
    assert await viewer_d.recv() == f"BEB {GAME.board(mirror)}"
    assert await viewer_f.recv() == f"BGB {GAME.board(mirror)}"
    assert await dolphin.recv() == "BDN"
    assert (await app[HUB].get(app[HUB].live()[0].id)).version == 1
    for line_client_ in (dolphin, fox, viewer_d, viewer_f):
        await line_client_.close()


async def test_d11_asyncios_accept_errors_become_one_line(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.get_running_loop()
    others: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _, context: others.append(context))
    quiet = AcceptErrorFilter(loop)
    quiet.install()
    try:
        with caplog.at_level(logging.WARNING, logger="service.gateway.limits"):
            for _ in range(10_000):
                loop.call_exception_handler({"message": AcceptErrorFilter.MESSAGE,
                                             "exception": OSError(24, "Too many open files")})
            loop.call_exception_handler({"message": "something else"})
        assert len(caplog.records) == 1 and "out of file descriptors" in caplog.records[0].getMessage()
        assert [c["message"] for c in others] == ["something else"]
    finally:
        quiet.remove()
        loop.set_exception_handler(None)
