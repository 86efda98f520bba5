"""Nobody learns what the rules hide, on any channel (issue 17).

Seeded playouts of every game and seat count through a real server: each player and a
spectator keep everything the server gives them — every canonical message (``state``,
``update``, ``caught_up`` of a fresh watch or resume) and every HTTP route about the match
(detail, actions, moves, positions, export, the match list), with their own credentials. After
every action an oracle per game lists the hidden values of the state as each viewer stands:
the match seed; Eriantys's generator state (the bag's future); Renaissance's deck order below
each top card, Lorenzo's token pile and every leader in a hand or set aside that is not the
viewer's own. None of them may be in anything the viewer received, at any version.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from clients import CanonicalClient
from renaissance_client import Player, join
from service.app import create_app
from service.games.renaissance import catalog as RK
from service.gateway.keys import HUB, LISTENERS
from service.protocol import renaissance as rwire
from service.sessions.dialects.renaissance import text as rtext
from service.settings import Settings
from service.tools.databases import fresh_database

Client = TestClient[Any, Any]

#: (game, seats, options): every game at every seat count it takes
TABLES = [
    ("dolphinfox", 2, {"size": 6, "units": 2, "max_moves": 40}),
    *[("eriantys", n, {}) for n in (2, 3, 4)],
    *[("renaissance", n, {}) for n in (1, 2, 3, 4)],
    *[("santorini", n, {}) for n in (2, 3)],
]
STEPS = 45
#: every how many actions the HTTP routes and fresh catch-ups are read
CHECK_EVERY = 9
ENDED = ("finished", "aborted")


@pytest.fixture
async def client(aiohttp_client: Any, tmp_path: Any) -> Any:
    # what reaches a viewer does not depend on the database: SQLite keeps the suite short
    url, cleanup = await fresh_database("sqlite", tmp_path)
    try:
        yield await aiohttp_client(create_app(Settings.for_tests(url)))
    finally:
        await cleanup()


class Recorder(CanonicalClient):
    """A canonical client that keeps every message it receives."""

    def __init__(self, ws: Any) -> None:
        super().__init__(ws)
        self.received: list[Any] = []

    async def next(self, timeout: float = 30.0) -> dict[str, Any]:
        message = await super().next(timeout)
        self.received.append(message)
        return message


@dataclass
class Viewer:
    """One person at the table (a seat) or beside it (``seat`` None), and what they got."""

    seat: int | None
    ws: Recorder
    http: list[tuple[str, Any]] = field(default_factory=list)
    checked: int = 0  # how many of ws.received the oracle has read already

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.ws.token}"} if self.seat is not None else {}

    def payloads(self) -> Iterator[tuple[str, Any]]:
        yield from (("ws", m) for m in self.ws.received)
        yield from self.http


# --- the oracle ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Secrets:
    """What ``viewer`` may not know now. ``tokens``: strings that must appear in no payload's
    JSON text; ``runs``: lists of ids (orders) that no list in a payload may equal;
    ``leaders`` / ``cards``: ids that may appear in no leader / development-card position."""

    tokens: frozenset[str]
    runs: tuple[tuple[int, ...], ...] = ()
    leaders: frozenset[int] = frozenset()
    cards: frozenset[int] = frozenset()


def secrets_of(game: str, seed: int, snapshot: dict[str, Any], viewer: int | None,
               dealt: dict[int, set[int]] | None = None) -> Secrets:
    """``dealt``: every leader each seat was dealt (those set aside leave the state)."""
    tokens = {str(seed)}
    if game == "eriantys":
        rng = int(snapshot["rng"], 16)
        tokens |= {snapshot["rng"], str(rng)}
    if game != "renaissance":
        return Secrets(frozenset(tokens))
    below_tops = [deck[:-1] for deck in snapshot["decks"] if len(deck) > 1]
    runs = tuple(tuple(d) for d in below_tops) + tuple(
        tuple(seq) for seq in (snapshot.get("tokens") or [],) if len(seq) > 1)
    shown = {ld for p in snapshot["players"] for ld, st in zip(p["leaders"], p["status"])
             if st == "active"}
    dealt = dealt or {s: set(p["leaders"]) | set(p["dealt"])
                      for s, p in enumerate(snapshot["players"])}
    own = dealt[viewer] if viewer is not None else set()
    every = set().union(*dealt.values())
    return Secrets(frozenset(tokens), runs, frozenset(every - shown - own),
                   frozenset(c for d in below_tops for c in d))


LEADER_LISTS = ("leaders", "dealt", "active_leaders")
WORDS = re.compile(r"\bleaders?=([\d,]+)")
#: a leader named in words (``update.said``, the web's move log): "leader 12 (discount, coin)"
SAID = re.compile(r"\bleader (\d+)\b")


def _ids(items: Any) -> Iterator[int]:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, int):
            yield item
        elif isinstance(item, dict) and isinstance(item.get("id"), int):
            yield item["id"]


def leaks(payload: Any, secrets: Secrets) -> list[str]:
    """Every hidden value found in ``payload`` (an empty list: none)."""
    text = json.dumps(payload)
    found = [f"token {t}" for t in secrets.tokens if re.search(rf"(?<![\w]){re.escape(t)}(?![\w])", text)]
    for node in _walk(payload):
        if isinstance(node, list) and tuple(node) in secrets.runs:
            found.append(f"an order {node}")
        if not isinstance(node, dict):
            continue
        leaders = set(_ids([node["leader"]] if "leader" in node else []))
        for key in LEADER_LISTS:
            leaders |= set(_ids(node.get(key)))
        for words in (v for v in node.values() if isinstance(v, str)):  # the move list's text
            for run in WORDS.findall(words):
                leaders |= {int(x) for x in run.split(",") if x}
        for said in (v for v in node.values() if isinstance(v, list)):  # update.said
            for sentence in (x for x in said if isinstance(x, str)):
                leaders |= {int(x) for x in SAID.findall(sentence)}
        found += [f"leader {ld} in {node}" for ld in leaders & secrets.leaders]
        if {"id", "level", "color", "vp"} <= set(node) and node["id"] in secrets.cards:
            found.append(f"card {node['id']} below the top of its deck")
    return found


def _walk(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


# --- the table ----------------------------------------------------------------------------


async def seated(client: Client, game: str, seats: int, options: dict[str, Any]
                 ) -> tuple[list[Viewer], Viewer, int]:
    players = []
    for n in range(seats):
        ws = Recorder(await client.ws_connect("/ws"))
        await ws.hello(f"{game[:4]}{seats}p{n}")
        players.append(ws)
    created = await players[0].call({"type": "create", "game": game, "seats": seats,
                                     "options": options})
    assert created["type"] == "ok", created
    match_id = created["result"]["match_id"]
    viewers = [Viewer(created["result"]["seat"], players[0])]
    for ws in players[1:]:
        joined = await ws.call({"type": "join", "match_id": match_id})
        assert joined["type"] == "ok", joined
        viewers.append(Viewer(joined["result"]["seat"], ws))
    spectator = Recorder(await client.ws_connect("/ws"))
    await spectator.hello(None)
    assert (await spectator.call({"type": "watch", "match_id": match_id}))["type"] == "ok"
    return viewers, Viewer(None, spectator), match_id


async def read_http(client: Client, viewer: Viewer, match_id: int, version: int,
                    status: str) -> None:
    """Every HTTP route about the match, read as ``viewer`` (kept unless it is refused)."""
    paths = [f"/api/matches/{match_id}", f"/api/matches/{match_id}/actions",
             f"/api/matches/{match_id}/moves", f"/api/matches/{match_id}/at/{version}",
             f"/api/matches/{match_id}/at/{max(version - 3, 0)}", "/api/matches?limit=20",
             f"/api/matches/{match_id}/export"]
    for path in paths:
        response = await client.get(path, headers=viewer.headers())
        body = await response.json()
        if path.endswith("/export"):
            if status in ENDED:
                continue  # a match that is over may be exported whole (README, "What others see")
            assert response.status == 409 and body["error"]["code"] == "session/match_not_over"
        else:
            assert response.status == 200, (path, body)
        viewer.http.append((path, body))


async def catch_up_afresh(viewer: Viewer, match_id: int) -> None:
    """A ``watch`` (spectator) or ``resume`` (player) from version 0: its ``caught_up``."""
    kind = "watch" if viewer.seat is None else "resume"
    answer = await viewer.ws.call({"type": kind, "match_id": match_id, "since": 0})
    assert answer["type"] == "ok", answer


def check(game: str, seed: int, snapshot: dict[str, Any], viewers: list[Viewer],
          dealt: dict[int, set[int]]) -> None:
    """Nothing any viewer holds shows a value hidden from it now. (What is hidden now was
    hidden at every earlier version too, so everything received so far is read again.)"""
    for viewer in viewers:
        secrets = secrets_of(game, seed, snapshot, viewer.seat, dealt)
        for channel, payload in viewer.payloads():
            found = leaks(payload, secrets)
            assert not found, (f"{game}: seat {viewer.seat} learnt {found[:3]} through {channel}: "
                               f"{json.dumps(payload)[:400]}")


def dealt_leaders(runtime: Any) -> dict[int, set[int]]:
    """Each seat's four leaders as dealt (Renaissance, before anyone chose): empty elsewhere."""
    if runtime.game.name != "renaissance":
        return {}
    return {s: set(p.dealt) | set(p.leaders) for s, p in enumerate(runtime.state.players)}


@pytest.mark.parametrize("game, seats, options", TABLES,
                         ids=[f"{g}-{n}p" for g, n, _ in TABLES])
async def test_nobody_learns_what_the_rules_hide(client: Client, game: str, seats: int,
                                                 options: dict[str, Any]) -> None:
    players, spectator, match_id = await seated(client, game, seats, options)
    viewers = [*players, spectator]
    runtime = await client.server.app[HUB].get(match_id)
    rng = random.Random(f"{game}/{seats}")
    by_seat = {p.seat: p for p in players}
    version, hidden_seen = 0, 0
    dealt = dealt_leaders(runtime)
    for step in range(STEPS):
        if runtime.status != "active":
            break
        seat = rng.choice(runtime.to_act())
        actor = by_seat[seat].ws
        legal = (await actor.call({"type": "legal", "match_id": match_id}))["result"]["actions"]
        action = rng.choice(legal)
        hidden_seen += action["type"] in ("choose_leaders", "discard_leader")
        ack = await actor.call({"type": "act", "match_id": match_id, "action": action,
                                "version": version, "client_id": f"step-{step}"})
        assert ack["type"] == "ack", (action, ack)
        version = ack["version"]
        for viewer in viewers:
            await viewer.ws.wait_for("update", match_id=match_id, version=version)
        if step % CHECK_EVERY == 0 or runtime.status != "active":
            for viewer in viewers:
                await catch_up_afresh(viewer, match_id)
                await read_http(client, viewer, match_id, version, runtime.status)
        check(game, runtime.seed, runtime.game.dump_state(runtime.state), viewers, dealt)
    if game == "renaissance":
        assert hidden_seen >= seats, "the playout never chose or discarded a leader"


# --- the oracle finds what it looks for -------------------------------------------------------


def test_the_oracle_finds_each_kind_of_hidden_value() -> None:
    secrets = Secrets(frozenset({"123456789012345"}), runs=((4, 9, 7),),
                      leaders=frozenset({3}), cards=frozenset({40}))
    assert leaks({"action": {"type": "choose_leaders", "leaders": [3, 5]}}, secrets)
    assert leaks({"events": [{"type": "leader_discarded", "seat": 1, "leader": 3}]}, secrets)
    assert leaks([{"seq": 1, "text": "   1. seat 1: choose_leaders leaders=5,3"}], secrets)
    assert leaks({"said": ["bob kept leader 3 (discount, coin) and leader 7"]}, secrets)
    assert not leaks({"said": ["bob kept two leaders"]}, secrets)
    assert leaks({"players": [{"dealt": [{"id": 3, "kind": "discount"}]}]}, secrets)
    assert leaks({"seed": 123456789012345}, secrets)
    assert leaks({"decks": [[4, 9, 7]]}, secrets)
    assert leaks({"top": {"id": 40, "level": 1, "color": "green", "vp": 1}}, secrets)
    fine = {"action": {"type": "choose_leaders"}, "leader": 5, "version": 1234567890123456,
            "top": {"id": 41, "level": 1, "color": "green", "vp": 1}, "order": [4, 9]}
    assert leaks(fine, secrets) == []


# --- private matches over HTTP ----------------------------------------------------------------


async def test_a_private_match_is_no_match_to_anyone_without_a_seat_or_its_invitation(
        client: Client) -> None:
    alice, eve = Recorder(await client.ws_connect("/ws")), Recorder(await client.ws_connect("/ws"))
    await alice.hello("alice")
    await eve.hello("eve")
    created = await alice.call({"type": "create", "game": "renaissance", "seats": 2,
                                "private": True})
    match_id, invite = created["result"]["match_id"], created["result"]["invite"]
    routes = [f"/api/matches/{match_id}", f"/api/matches/{match_id}/actions",
              f"/api/matches/{match_id}/moves", f"/api/matches/{match_id}/at/0",
              f"/api/matches/{match_id}/export"]
    outsiders: list[dict[str, str]] = [{}, {"Authorization": f"Bearer {eve.token}"},
                                       {"X-Tavolo-Invite": "not-the-code"}]
    for headers in outsiders:
        for path in routes:
            response = await client.get(path, headers=headers)
            body = await response.json()
            assert response.status == 404 and body["error"]["code"] == "session/no_such_match"
            never = await client.get(path.replace(f"/{match_id}", "/99999"), headers=headers)
            assert (await never.json())["error"]["message"] == body["error"]["message"]
        listed = await (await client.get("/api/matches", headers=headers)).json()
        assert match_id not in [m["id"] for m in listed]
    for headers in ({"Authorization": f"Bearer {alice.token}"}, {"X-Tavolo-Invite": invite}):
        response = await client.get(f"/api/matches/{match_id}", headers=headers)
        assert response.status == 200 and (await response.json())["private"] is True
    by_link = await client.get(f"/api/matches/{match_id}/actions", params={"invite": invite})
    assert by_link.status == 200
    mine = await (await client.get("/api/matches", headers={
        "Authorization": f"Bearer {alice.token}"})).json()
    assert match_id in [m["id"] for m in mine]
    bad = await client.get(f"/api/matches/{match_id}", headers={"Authorization": "Bearer nope"})
    assert bad.status == 401 and (await bad.json())["error"]["code"] == "session/bad_token"


async def test_the_leaders_a_player_keeps_reach_only_that_player_on_every_http_route(
        client: Client) -> None:
    """The issue's reproduction: after both players chose their leaders, neither the other
    player nor a stranger reads which ones from the actions, moves, detail or replay."""
    players, spectator, match_id = await seated(client, "renaissance", 2, {})
    runtime = await client.server.app[HUB].get(match_id)
    for viewer in players:
        dealt = runtime.state.players[viewer.seat].dealt
        kept = [dealt[0], dealt[1]]
        ack = await viewer.ws.call({"type": "act", "match_id": match_id, "client_id": "keep",
                                    "action": {"type": "choose_leaders", "leaders": kept}})
        assert ack["type"] == "ack", ack
    for path in ("actions", "moves"):
        for viewer in [*players, spectator]:
            response = await client.get(f"/api/matches/{match_id}/{path}", headers=viewer.headers())
            rows = await response.json()
            for row in rows:
                whole = row["seat"] == viewer.seat
                text = json.dumps(row)
                named = '"leaders":' in text or "leaders=" in text
                assert named == whole, (viewer.seat, row)


async def test_operators_export_a_live_match_through_the_admin_api(aiohttp_client: Any,
                                                                   tmp_path: Any) -> None:
    url, cleanup = await fresh_database("sqlite", tmp_path)
    token = "operator-token-0123456789"
    try:
        client = await aiohttp_client(create_app(Settings.for_tests(url, admin_token=token)))
        players, _, match_id = await seated(client, "renaissance", 2, {})
        seed = (await client.server.app[HUB].get(match_id)).seed
        path = f"/api/admin/matches/{match_id}/export"
        refused = await client.get(path, headers=players[0].headers())
        assert refused.status == 401
        exported = await client.get(path, headers={"Authorization": f"Bearer {token}"})
        assert exported.status == 200 and (await exported.json())["seed"] == seed
    finally:
        await cleanup()


# --- the seed dialects --------------------------------------------------------------------------


async def test_the_renaissance_text_dialect_never_names_a_leader_of_another_hand(
        client: Client) -> None:
    """Two seed-003 clients play (keeping and discarding leaders) and then ask for every board
    and their leader cards: neither transcript describes a leader the other kept, discarded or
    set aside, nor holds the seed. (The other seed dialects carry games that hide no choice;
    their pictures come from the same views and notices.)"""
    port = client.server.app[LISTENERS]["renaissance"].port
    clients = [await join(port, "tex0", 2), await join(port, "tex1", None)]
    runtime = next(r for r in client.server.app[HUB].live() if r.game.name == "renaissance")
    dealt = dealt_leaders(runtime)
    players = [Player(c, s, oracle=lambda: runtime.state, seed=s) for s, c in enumerate(clients)]
    tasks = [asyncio.create_task(p.play()) for p in players]

    def both_discarded() -> bool:
        return all("discarded" in p.status for p in runtime.state.players)

    async with asyncio.timeout(120):  # an event, not a timing: the oracle discards early
        while not both_discarded() and not all(t.done() for t in tasks):
            await asyncio.wait(tasks, timeout=0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    idle = next(s for s in (0, 1) if s != runtime.state.current)
    for command in ("View -personalboard -1", "View -personalboard -2", "View -leadercards"):
        await clients[idle].send(command)
        while await clients[idle].line(30) != rwire.PRINTED:
            pass
    for seat, c in enumerate(clients):
        other = dealt[1 - seat] - {ld for ld, st in zip(runtime.state.players[1 - seat].leaders,
                                                      runtime.state.players[1 - seat].status)
                                   if st == "active"}
        said = "\n".join(line for _, way, line in c.transcript if way == "S->C")
        for lid in other:
            described = rtext.leader(1, RK.LEADERS[lid]).split(": ", 1)[1]
            assert described not in said, (seat, lid, described)
        assert str(runtime.seed) not in said
    mine = "\n".join(line for _, way, line in clients[idle].transcript if way == "S->C")
    kept = [ld for ld in runtime.state.players[idle].leaders]
    assert all(rtext.leader(1, RK.LEADERS[ld]).split(": ", 1)[1] in mine for ld in kept)
