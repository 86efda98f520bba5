"""SIGKILL the server in the middle of a match, restart it on the same database, and finish.

No acknowledged move may be lost, and `matches replay` must pass at the end.
Runs on SQLite and on PostgreSQL, with a real server process and raw seed-002 clients.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from clients import LineClient, newest_match_replays

from service.games.dolphinfox import GAME, DolphinFoxState, Move
from service.games.dolphinfox.board import decode_board
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow




def board_state(line: str) -> DolphinFoxState:
    board = line.split(" ", 1)[1]
    size = int(len(board) ** 0.5)
    terrain, units = decode_board(board, size)
    return DolphinFoxState(size=size, terrain=terrain, max_moves=200, units=units,
                           start_rows=(1, size))


async def join(port: int) -> tuple[LineClient, LineClient, LineClient, list[str], str]:
    viewer = await LineClient.connect(port)
    await viewer.send("QCJ")
    assert await viewer.recv() == "CQT D"
    players, keys = [], []
    for team in "DF":
        player = await LineClient.connect(port)
        await player.send("PCJ")
        assert await player.recv() == f"CPT {team}"
        keys.append((await player.expect("CPK ")).split(" ", 1)[1])
        players.append(player)
    for team, player in zip("DF", players):
        assert await player.recv() == f"B{team}N"
    board = await viewer.expect("BEB ")
    return players[0], players[1], viewer, keys, board


async def move(player: LineClient, team: int, mv: Move) -> None:
    await player.send(f"{'DF'[team]}BM {mv.r1} {mv.c1} {mv.r2} {mv.c2}")


async def resume(port: int, key: str, team: str) -> tuple[LineClient, str]:
    player = await LineClient.connect(port)
    await player.send(f"PCJ {key}")
    assert await player.recv() == f"CPT {team}"
    board = await player.expect(f"B{team}B ")
    assert await player.recv() == f"B{team}N"
    return player, board


async def test_sigkill_mid_match_loses_no_acknowledged_move(database_url: str) -> None:
    rng = random.Random(11)
    server = await ServerProcess(database_url).start()
    try:
        dolphin, fox, viewer, keys, board = await join(server.ports["dolphinfox"])
        mirror = board_state(board)  # every acknowledged move is applied here
        players = (dolphin, fox)
        for turn in range(12):
            team = turn % 2
            mv = rng.choice(GAME.legal_actions(mirror, team))
            await move(players[team], team, mv)
            assert await players[team].recv() == f"B{'DF'[team]}N"  # the acknowledgement
            GAME.apply(mirror, team, mv)
        in_flight = rng.choice(GAME.legal_actions(mirror, 0))
        await move(dolphin, 0, in_flight)  # sent, not acknowledged: may or may not survive
        await server.kill()

        await server.start()
        port = server.ports["dolphinfox"]
        dolphin, board_d = await resume(port, keys[0], "D")
        fox, board_f = await resume(port, keys[1], "F")
        assert board_d.split(" ")[1] == board_f.split(" ")[1]
        after_restart = board_state(board_d)
        if after_restart.units != mirror.units:  # then the in-flight move was saved
            GAME.apply(mirror, 0, in_flight)
        assert after_restart.units == mirror.units
        players = (dolphin, fox)
        for turn in range(400):
            team = turn % 2
            legal = GAME.legal_actions(mirror, team)
            mv = rng.choice(legal)
            await move(players[team], team, mv)
            GAME.apply(mirror, team, mv)
            assert await players[team].recv() == f"B{'DF'[team]}N"
            if GAME.outcome(mirror) is not None:
                assert await players[team].recv() == f"C{'DF'[team]}S"
                break
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)



async def test_sigterm_shuts_down_cleanly_with_clients_connected(database_url: str) -> None:
    server = await ServerProcess(database_url).start()
    try:
        dolphin, fox, viewer, _, _ = await join(server.ports["dolphinfox"])
        assert await server.terminate() == 0
        assert await asyncio.wait_for(viewer.closed(), 10)
        assert any("shutting down" in line for line in server.output)
    finally:
        await server.kill()
