"""SIGKILL a Santorini server mid-game, restart it on the same database, and finish the game.

The players come back through addPlayer with their nicknames; no acknowledged step may be
lost, and `matches replay` must pass. SQLite and PostgreSQL, a real server process.
"""

from __future__ import annotations


import pytest
from clients import newest_match_replays
from santorini_client import SantoriniClient, Table, find_seed

from service.games.santorini import GAME
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow

NICKS = ["ann", "bob", "cid"]




def board_of(field: list[list[dict[str, object]]]) -> list[tuple[object, ...]]:
    return [(c.get("player"), c["height"], c["lastBlock"]) for row in field for c in row]  # no null keys


def board_of_mirror(table: Table) -> list[tuple[object, ...]]:
    st = table.mirror
    out = []
    for c in range(25):
        w = st.worker_at(c)
        last = "DOME" if st.domes[c] else ("GROUND" if st.blocks[c] == 0 else f"LEVEL_{st.blocks[c]}")
        out.append((None if w is None else table.nick(st.owner(w)), st.blocks[c] + int(st.domes[c]), last))
    return out



async def test_sigkill_mid_game_loses_no_acknowledged_step(database_url: str) -> None:
    server = await ServerProcess(database_url, dialects=("santorini",)).start()
    try:
        port = server.ports["santorini"]
        clients = []
        for nick in NICKS:
            c = await SantoriniClient.connect(port)
            assert (await c.join(nick, 3))["validNick"] is True
            clients.append(c)
        table = Table(clients, seed=find_seed(3, False, 20))
        await table.setup()
        for _ in range(5):
            await table.turn()
        number = await table.start_turn()  # acknowledged by its workerViewUpdate
        in_flight = await table.send_step()  # sent, never acknowledged
        mover = table.mirror.current
        await server.kill()
        for c in clients:
            await c.close()

        await server.start()
        port = server.ports["santorini"]
        order = [s for s in range(3) if s != mover] + [mover]  # the one mid-turn comes back last
        back: dict[int, SantoriniClient] = {}
        for seat in order:
            c = await SantoriniClient.connect(port)
            answer = await c.join(NICKS[seat], 3)
            assert answer["validNick"] is True and answer["lobbyState"] is True
            assert await c.expect("setPickedCards") == {"playerNickname": "ann"}
            field = (await c.expect("battlefieldUpdate"))["cellMatrix"]
            back[seat] = c
        table.clients = [back[s] for s in range(3)]
        if board_of(field) != board_of_mirror(table):  # then the in-flight step was saved
            GAME.apply(table.mirror, mover, in_flight)
            table.actions += 1
        assert board_of(field) == board_of_mirror(table)
        mine = back[mover]
        st = table.mirror
        if st.phase != "over":
            assert (await mine.wait_for("actualPlayer"))["playerNickname"] == table.nick(st.current)
        if st.current == mover and st.turn_number == number and st.phase != "over":
            assert (await mine.wait_for("setStartTurnResponse"))["playerNickname"] == NICKS[mover]
            assert (await mine.wait_for("workerViewUpdate"))["workerView"] == table.expected_mask(mover)
            await table.rest_of_turn(number)
        await table.finish()
        outcomes = [(await _result(c))["action"] for c in table.clients]
        assert sorted(outcomes) == ["youLose", "youLose", "youWin"]
        assert outcomes[table.mirror.winner] == "youWin"
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)


async def _result(client: SantoriniClient) -> dict[str, object]:
    while True:
        message = await client.next()
        if message["action"] in ("youWin", "youLose"):
            return message
