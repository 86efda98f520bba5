"""Dolphins & Foxes over real TCP: raw seed-002 lines, two players and their viewers."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import LineClient

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.games.dolphinfox import GAME, DolphinFoxState
from service.games.dolphinfox.board import decode_board
from service.settings import Settings


@pytest.fixture
async def server(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    yield client.server.app


def port_of(app: Any) -> int:
    return app[LISTENERS]["dolphinfox"].port


def state_from(board_line: str, moves: int = 0) -> DolphinFoxState:
    board = board_line.split(" ", 1)[1]
    size = int(len(board) ** 0.5)
    terrain, units = decode_board(board, size)
    return DolphinFoxState(size=size, terrain=terrain, max_moves=200, units=units, moves=moves,
                           start_rows=(1, size))


async def join_all(port: int) -> tuple[LineClient, LineClient, LineClient, LineClient, str, str]:
    """Two viewers then two players join; returns them, the dolphin's key and the first board."""
    viewer_d, viewer_f = await LineClient.connect(port), await LineClient.connect(port)
    await viewer_d.send("QCJ")
    assert await viewer_d.recv() == "CQT D"
    await viewer_f.send("QCJ")
    assert await viewer_f.recv() == "CQT F"
    dolphin, fox = await LineClient.connect(port), await LineClient.connect(port)
    await dolphin.send("PCJ")
    assert await dolphin.recv() == "CPT D"
    key = (await dolphin.expect("CPK ")).split(" ", 1)[1]
    await fox.send("PCJ")
    assert await fox.recv() == "CPT F"
    await fox.expect("CPK ")
    assert await fox.recv() == "BFN"
    assert await dolphin.recv() == "BDN"
    board = await viewer_d.expect("BEB ")
    await viewer_f.expect("BGB ")
    return dolphin, fox, viewer_d, viewer_f, key, board


async def test_two_players_and_viewers_play_a_full_match(server: Any) -> None:
    dolphin, fox, viewer_d, viewer_f, _, board = await join_all(port_of(server))
    players, viewers = (dolphin, fox), (viewer_d, viewer_f)
    mirror = state_from(board)  # the test's own copy of the position, moved by the rules
    rng = random.Random(3)
    for turn in range(200):
        team = turn % 2
        move = rng.choice(GAME.legal_actions(mirror, team))
        GAME.apply(mirror, team, move)
        await players[team].send(f"{'DF'[team]}BM {move.r1} {move.c1} {move.r2} {move.c2}")
        for viewer, code in zip(viewers, "EG"):
            assert await viewer.recv() == f"B{code}B {GAME.board(mirror)}"
        assert await viewers[team].recv() == f"B{'EG'[team]}N"
        assert await players[team].recv() == f"B{'DF'[team]}N"
        if GAME.outcome(mirror):
            break
    assert GAME.outcome(mirror) is not None
    for code, client in zip("DFEG", (dolphin, fox, viewer_d, viewer_f)):
        assert await client.recv() == f"C{code}S"
    runtime = server[HUB].live()[0]
    assert runtime.status == "finished"
    assert GAME.dump_state(runtime.state)["units"] == GAME.dump_state(mirror)["units"]
    assert len(await server[HUB].store.actions(runtime.id)) == runtime.version


async def test_failed_move_tells_the_viewer_and_frees_the_player(server: Any) -> None:
    dolphin, fox, viewer_d, viewer_f, _, _ = await join_all(port_of(server))
    await dolphin.send("DBM 1 1 3 3")
    assert (await dolphin.recv()).startswith("CDF rules/not_adjacent")
    assert await dolphin.recv() == "BDN"
    assert await viewer_d.recv() == "BEF"
    assert await viewer_d.recv() == "BEN"
    await fox.send("DBM 1 1 1 2")
    assert (await fox.recv()).startswith("CFF protocol/wrong_sender")
    await fox.send("FBR")
    await viewer_f.expect("BGB ")
    assert server[HUB].live()[0].version == 0


async def test_bad_lines_get_errors_and_harm_no_one(server: Any) -> None:
    port = port_of(server)
    dolphin, fox, viewer_d, _, _, _ = await join_all(port)
    rogue = await LineClient.connect(port)
    for line, code in [("XYZ", "protocol/unknown_sender"), ("PC", "protocol/bad_header"),
                       ("DBM 1 2", "protocol/bad_move"), ("PCX", "protocol/wrong_sender"),
                       ("DBQ", "protocol/unknown_type")]:
        await rogue.send(line)
        assert (await rogue.recv()).split(" ")[1] == code
    await rogue.send("x" * 5000)
    assert (await rogue.recv()).split(" ")[1] == "protocol/frame_too_long"
    await rogue.send("DBM 1 1 1 2")
    assert (await rogue.recv()).split(" ")[1] == "protocol/not_a_player"
    await dolphin.send("DBM a b c d")
    assert (await dolphin.recv()).split(" ")[1] == "protocol/bad_move"
    await dolphin.send("DBR")
    await viewer_d.expect("BEB ")  # the match is unharmed


async def test_a_flood_of_bad_frames_is_dropped(server: Any) -> None:
    rogue = await LineClient.connect(port_of(server))
    for _ in range(30):
        rogue.writer.write(b"garbage\n")
    await rogue.writer.drain()
    assert await rogue.closed()


async def test_a_client_that_never_reads_is_dropped(aiohttp_client: Any, database_url: str) -> None:
    app = (await aiohttp_client(create_app(Settings.for_tests(database_url, outbox=64)))).server.app
    port = port_of(app)
    dolphin, fox, viewer_d, viewer_f, _, _ = await join_all(port)  # all kept open
    sleepy = socket.socket()  # a second dolphin viewer that stops reading after its team
    sleepy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sleepy.connect(("127.0.0.1", port))
    sleepy.sendall(b"QCJ\n")
    runtime = app[HUB].live()[0]
    while len(runtime.listeners()) < 5:
        await asyncio.sleep(0.01)
    for _ in range(20000):  # refreshes fill the socket buffers, then the outbox
        for _ in range(32):  # bursts smaller than the outbox: the reading viewer keeps up
            await dolphin.send("DBR")
        for _ in range(32):
            assert (await viewer_d.recv()).startswith("BEB ")
        if len(runtime.listeners()) == 4:
            break
    assert len(runtime.listeners()) == 4
    await dolphin.send("DBR")
    await viewer_d.expect("BEB ")
    sleepy.close()


async def test_resume_key_takes_the_seat_back(server: Any) -> None:
    port = port_of(server)
    dolphin, fox, viewer_d, _, key, _ = await join_all(port)
    await dolphin.close()
    back = await LineClient.connect(port)
    await back.send(f"PCJ {key}")
    assert await back.recv() == "CPT D"
    assert (await back.recv()).startswith("BDB ")
    assert await back.recv() == "BDN"
    await back.send("DBR")
    await viewer_d.expect("BEB ")
    stranger = await LineClient.connect(port)
    await stranger.send("PCJ not-a-key")
    assert await stranger.recv() == "CPT R"


async def test_a_viewer_never_joins_a_match_that_finished_meanwhile(server: Any) -> None:
    hub = server[HUB]
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, _ = await hub.create("dolphinfox", {"size": 4, "units": 1, "max_moves": 2},
                                  player=alice, dialect="dolphinfox")
    await hub.join(runtime.id, bob)
    listed_while_active = await hub.store.list_matches(game="dolphinfox", status="active")
    for seat, player in ((0, alice), (1, bob)):
        move = GAME.legal_actions(runtime.state, seat)[0]
        await runtime.act(player.id, GAME.dump_action(move))
    assert runtime.status == "finished"
    real_list = hub.store.list_matches

    async def stale_list(**kwargs: Any) -> Any:  # the listing was taken before the match ended
        return listed_while_active if kwargs.get("status") == "active" else await real_list(**kwargs)

    hub.store.list_matches = stale_list
    viewer = await LineClient.connect(port_of(server))
    await viewer.send("QCJ")
    assert await viewer.recv() == "CQT D"
    assert runtime.listeners() == []  # it went to a new waiting match instead
    assert any(r.status == "waiting" and r.listeners() for r in hub.live())


async def test_a_player_gone_before_the_start_is_not_paired(server: Any) -> None:
    port = port_of(server)
    ghost = await LineClient.connect(port)
    await ghost.send("PCJ")
    assert await ghost.recv() == "CPT D"
    await ghost.expect("CPK ")
    await ghost.close()
    runtime = server[HUB].live()[0]
    while runtime.empty_seats() != [0, 1]:  # the server notices the hang-up
        await asyncio.sleep(0.01)
    first, second = await LineClient.connect(port), await LineClient.connect(port)
    await first.send("PCJ")
    assert await first.recv() == "CPT D"  # the ghost's seat, in the same lobby
    await first.expect("CPK ")
    await second.send("PCJ")
    assert await second.recv() == "CPT F"
    await second.expect("CPK ")
    assert await second.recv() == "BFN" and await first.recv() == "BDN"
    assert [s.nickname is not None for s in runtime.seats] == [True, True]


async def _abandoned_and_live(server: Any) -> tuple[Any, LineClient, LineClient]:
    """A match its players left (made through the hub, nobody attached) and a live one."""
    hub = server[HUB]
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    dead, _ = await hub.create("dolphinfox", player=alice, dialect="dolphinfox")
    await hub.join(dead.id, bob)
    assert dead.status == "active" and not dead.listeners()
    port = port_of(server)
    dolphin, fox = await LineClient.connect(port), await LineClient.connect(port)
    await dolphin.send("PCJ")
    assert await dolphin.recv() == "CPT D"
    await fox.send("PCJ")
    assert await fox.recv() == "CPT F"
    await fox.expect("CPK ")
    assert await fox.recv() == "BFN"
    return dead, dolphin, fox


async def test_viewers_attach_only_to_live_matches(server: Any) -> None:
    dead, *players = await _abandoned_and_live(server)  # (held: a dropped client hangs up)
    live = next(r for r in server[HUB].live() if r is not dead and r.status == "active")
    viewer = await LineClient.connect(port_of(server))
    await viewer.send("QCJ")
    assert await viewer.recv() == "CQT D"
    assert await viewer.expect("BEB ") == "BEB " + GAME.board(live.state)
    assert dead.listeners() == [] and len(live.listeners()) == 3


async def test_a_viewer_names_a_live_match(server: Any) -> None:
    dead, *players = await _abandoned_and_live(server)  # (held: a dropped client hangs up)
    live = next(r for r in server[HUB].live() if r is not dead and r.status == "active")
    port = port_of(server)
    first, second = await LineClient.connect(port), await LineClient.connect(port)
    await first.send(f"QCJ {live.id}")
    assert await first.recv() == "CQT D"
    await second.send(f"QCJ {live.id}")
    assert await second.recv() == "CQT F"  # the team still without a viewer
    assert await second.expect("BGB ") == "BGB " + GAME.board(live.state)
    refused = await LineClient.connect(port)
    await refused.send(f"QCJ {dead.id}")
    assert (await refused.recv()).startswith("CQF session/not_live ")
    await refused.send("QCJ 99999")
    assert (await refused.recv()).startswith("CQF session/no_such_match ")
    await refused.send(f"QCJ {live.id}")  # a refused join changed nothing: it may try again
    assert await refused.recv() == "CQT D"


async def test_a_match_ended_outside_the_game_sends_the_end_line(server: Any) -> None:
    dolphin, fox, viewer_d, viewer_f, _, _ = await join_all(port_of(server))
    runtime = next(r for r in server[HUB].live() if r.status == "active")
    await server[HUB].lifecycle.abort(runtime.id)
    for client, line in ((dolphin, "CDS"), (fox, "CFS"), (viewer_d, "CES"), (viewer_f, "CGS")):
        assert await client.expect(line) == line
    await dolphin.send("DBM 1 1 2 1")
    assert (await dolphin.recv()).startswith("CDF session/match_over ")
    assert await dolphin.recv() == "BDN"  # as after any failed move
    await dolphin.send("PCJ")  # the match is over: the connection may join another one
    assert await dolphin.recv() == "CPT D"
