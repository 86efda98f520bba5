"""The canonical JSON codec: every client message, every way to be wrong, compact answers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from service.errors import ProtocolError
from service.games.registry import get_game
from service.protocol import canonical as msg

VALID: list[tuple[dict[str, Any], type]] = [
    ({"type": "hello", "nickname": "alice"}, msg.Hello),
    ({"type": "hello", "token": "t0k", "id": "h1"}, msg.Hello),
    ({"type": "hello"}, msg.Hello),
    ({"type": "create", "game": "dolphinfox", "options": {"size": 6}, "seats": 2, "seat": 1}, msg.Create),
    ({"type": "join", "match_id": 3, "seat": 0}, msg.Join),
    ({"type": "quick_join", "game": "dolphinfox", "id": 7}, msg.QuickJoin),
    ({"type": "act", "match_id": 3, "action": {"type": "move", "r1": 1, "c1": 1, "r2": 2, "c2": 1},
      "client_id": "c-1", "version": 0}, msg.Act),
    ({"type": "watch", "match_id": 3, "since": 5}, msg.Watch),
    ({"type": "resume", "match_id": 3}, msg.Resume),
    ({"type": "rematch", "match_id": 3}, msg.Rematch),
    ({"type": "leave", "match_id": 3}, msg.Leave),
    ({"type": "legal", "match_id": 3}, msg.Legal),
    ({"type": "ping"}, msg.Ping),
]


@pytest.mark.parametrize(("data", "kind"), VALID, ids=[d["type"] for d, _ in VALID])
def test_each_client_message_type_parses(data: dict[str, Any], kind: type) -> None:
    parsed = msg.parse_client(json.dumps(data))
    assert type(parsed) is kind
    dumped = parsed.model_dump(exclude_none=True)
    assert {k: v for k, v in data.items()} == {k: dumped[k] for k in data}


def test_bytes_parse_like_text() -> None:
    parsed = msg.parse_client(b'{"type":"ping","id":"p"}')
    assert isinstance(parsed, msg.Ping) and parsed.id == "p"


def test_defaults_of_optional_fields() -> None:
    create = msg.parse_client('{"type":"create","game":"dolphinfox"}')
    assert isinstance(create, msg.Create)
    assert (create.options, create.seats, create.seat, create.id) == ({}, None, None, None)


def code_of(text: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        msg.parse_client(text)
    return caught.value


@pytest.mark.parametrize("data", [
    {"type": "shout"}, {"type": "Ping"}, {"type": ""}, {"type": None}, {"type": 1}, {},
    {"nickname": "alice"},
])
def test_unknown_or_missing_type(data: dict[str, Any]) -> None:
    assert code_of(json.dumps(data)).code == "protocol/bad_message"


@pytest.mark.parametrize("data", [
    {"type": "ping", "extra": 1},
    {"type": "hello", "nickname": "al", "passwd": "x"},
    {"type": "join", "match_id": 1, "re": 2},
    {"type": "act", "match_id": 1, "action": {}, "client_id": "c", "seq": 1},
])
def test_extra_fields_are_forbidden(data: dict[str, Any]) -> None:
    error = code_of(json.dumps(data))
    assert error.code == "protocol/bad_message"


@pytest.mark.parametrize("data", [
    {"type": "join", "match_id": "three"},
    {"type": "join", "match_id": [1]},
    {"type": "join", "match_id": 1.5},
    {"type": "join", "match_id": None},
    {"type": "join"},
    {"type": "join", "match_id": 1, "seat": -1},
    {"type": "hello", "nickname": ""},
    {"type": "hello", "nickname": "n" * 33},
    {"type": "hello", "nickname": 5},
    {"type": "create", "game": "dolphinfox", "seats": 0},
    {"type": "create", "game": "dolphinfox", "seats": 9},
    {"type": "create", "game": "dolphinfox", "options": []},
    {"type": "act", "match_id": 1, "action": "move", "client_id": "c"},
    {"type": "act", "match_id": 1, "action": {}, "client_id": ""},
    {"type": "act", "match_id": 1, "action": {}},
    {"type": "act", "match_id": 1, "action": {}, "client_id": "c", "version": -1},
    {"type": "watch", "match_id": 1, "since": -2},
    {"type": "ping", "id": [1]},
    {"type": "ping", "id": 1.5},
])
def test_wrong_field_types_and_values(data: dict[str, Any]) -> None:
    assert code_of(json.dumps(data)).code == "protocol/bad_message"


def test_a_boolean_is_not_a_match_id() -> None:
    assert code_of('{"type":"join","match_id":true}').code == "protocol/bad_message"


def test_the_error_names_the_field() -> None:
    error = code_of('{"type":"join","match_id":"three"}')
    assert "match_id" in error.message


def test_a_bad_message_keeps_its_id_for_the_answer() -> None:
    assert code_of('{"type":"join","id":42}').details.get("re") == 42
    assert code_of('{"type":"nope","id":"x1"}').details.get("re") == "x1"
    assert code_of('{"type":"nope","id":[1]}').details.get("re") is None


@pytest.mark.parametrize("text", ["", "not json", "{", '{"type":"ping"', "{'type':'ping'}", "NaNa",
                                  b"\xff\xfe{}", '{"type":"ping"} {}'])
def test_not_json(text: str | bytes) -> None:
    assert code_of(text).code == "protocol/bad_json"


@pytest.mark.parametrize("text", ["[]", '[{"type":"ping"}]', '"ping"', "1", "null", "true"])
def test_not_an_object(text: str) -> None:
    assert code_of(text).code == "protocol/bad_message"


def test_oversize_message() -> None:
    padding = "x" * msg.MAX_MESSAGE_BYTES
    error = code_of(json.dumps({"type": "create", "game": "dolphinfox", "options": {"p": padding}}))
    assert error.code == "protocol/frame_too_long"
    assert code_of(b" " * (msg.MAX_MESSAGE_BYTES + 1)).code == "protocol/frame_too_long"


def test_a_message_right_at_the_limit_is_read() -> None:
    head = '{"type":"ping"}'
    text = head + " " * (msg.MAX_MESSAGE_BYTES - len(head))
    assert isinstance(msg.parse_client(text), msg.Ping)


def test_the_limit_is_in_bytes_for_text_too() -> None:
    text = json.dumps({"type": "create", "game": "g", "options": {"p": "\u20ac" * 30_000}},
                      ensure_ascii=False)
    assert len(text.encode()) > msg.MAX_MESSAGE_BYTES
    assert code_of(text).code == "protocol/frame_too_long"


# --- server to client ----------------------------------------------------------------


def test_server_messages_are_compact_json_without_null_fields() -> None:
    assert msg.encode(msg.Pong()) == '{"type":"pong"}'
    assert msg.encode(msg.Pong(re=3)) == '{"type":"pong","re":3}'
    assert msg.encode(msg.Error(re="a", code="rules/not_your_turn", message="wait")) == (
        '{"type":"error","re":"a","code":"rules/not_your_turn","message":"wait"}')
    assert msg.encode(msg.Ack(match_id=1, client_id="c", version=4)) == (
        '{"type":"ack","match_id":1,"client_id":"c","version":4,"duplicate":false}')
    assert msg.encode(msg.Ok(re=0)) == '{"type":"ok","re":0,"result":{}}'


def test_a_spectator_state_keeps_you_null_drops_other_nulls_and_keeps_payload_nulls() -> None:
    state = msg.State(match_id=1, game="dolphinfox", version=0, status="waiting",
                      seats=[{"seat": 0, "nickname": None}], you=None, to_act=[],
                      view={"winner": None})
    text = msg.encode(state)
    assert " " not in text and "\n" not in text
    decoded = json.loads(text)
    assert "you" in decoded and decoded["you"] is None  # null there means "a spectator"
    assert "outcome" not in decoded and "rematch_id" not in decoded
    assert decoded["seats"] == [{"seat": 0, "nickname": None}]
    assert decoded["view"] == {"winner": None}


@pytest.mark.parametrize("message", [
    msg.Welcome(re=1, player={"id": 1, "nickname": "al"}, token="t"),
    msg.Update(match_id=1, version=2, seat=0, action={"type": "move"}, events=[], to_act=[0, 1],
               status="active", view={}),
    msg.CaughtUp(match_id=1, since=0, version=2, actions=[{"seq": 1}]),
    msg.Presence(match_id=1, seat=1, present=False),
    msg.RematchNotice(match_id=1, agreed=[0]),
])
def test_every_server_message_carries_its_type_tag_first(message: msg.ServerMessage) -> None:
    text = msg.encode(message)
    decoded = json.loads(text)
    assert text.startswith('{"type":"' + decoded["type"] + '"')
    assert None not in decoded.values()


def test_server_messages_cannot_be_built_with_unknown_fields() -> None:
    with pytest.raises(ValueError):
        msg.Ok(re=1, surprise=True)  # type: ignore[call-arg]


def _pydantic_json(message: msg.ServerMessage) -> Any:
    """The server message as pydantic's JSON mode writes it (nulls out, but ``you``/``level``)."""
    data = message.model_dump(mode="json", exclude_none=True)
    for name in ("you", "level"):
        if name in type(message).model_fields:
            data.setdefault(name, None)
    return data


@pytest.mark.parametrize("game_name", ["dolphinfox", "santorini", "eriantys", "renaissance"])
def test_updates_and_states_of_real_games_encode_as_pydantic_would(game_name: str) -> None:
    """``encode`` writes the model's values with orjson directly: every view, action and
    event of seeded games must come out as pydantic's JSON mode would have written it."""
    game = get_game(game_name)
    rng = random.Random(11)
    for number in range(3):
        seats = game.min_seats + number % (game.max_seats - game.min_seats + 1)
        state = game.setup(seats, game.parse_options({}), 100 + number)
        for version in range(1, 60):
            if game.outcome(state) is not None:
                break
            seat = sorted(game.to_act(state))[0]
            action = game.dump_action(rng.choice(game.legal_actions(state, seat)))
            events = game.apply(state, seat, game.parse_action(action))
            outcome = game.outcome(state)
            for looking in [None, *range(seats)]:
                for message in (
                    msg.Update(match_id=1, version=version, seat=seat, action=action,
                               events=events, to_act=sorted(game.to_act(state)),
                               status="active", view=game.view(state, looking),
                               outcome=outcome.to_dict() if outcome else None),
                    msg.State(match_id=1, game=game_name, version=version, status="active",
                              seats=[{"seat": s, "nickname": None} for s in range(seats)],
                              you=looking, to_act=sorted(game.to_act(state)),
                              view=game.view(state, looking)),
                ):
                    assert json.loads(msg.encode(message)) == _pydantic_json(message)


def test_other_server_messages_encode_as_pydantic_would() -> None:
    for message in (
        msg.Welcome(re=1, player={"id": 1, "nickname": "al", "protected": True}, token=None),
        msg.Ok(re="x", result={"match_id": 3, "seat": None, "agreed": [0, 1]}),
        msg.Ack(re=2, match_id=1, client_id="c", version=4, duplicate=True),
        msg.Error(re=None, code="rules/x", message="no", details={"version": 3}),
        msg.CaughtUp(match_id=1, since=0, version=2, actions=[{"seq": 1, "seat": 0}]),
        msg.Presence(match_id=1, seat=1, present=False, nickname="al"),
        msg.RematchNotice(match_id=1, agreed=[0], new_match_id=None),
        msg.EndedNotice(match_id=1, status="aborted", outcome={"winners": []}),
        msg.StandInNotice(match_id=1, seat=2, level=None, nickname="cy"),
        msg.LobbyNotice(matches=[{"match_id": 1, "free": [1]}]),
        msg.Pong(re=7),
    ):
        assert json.loads(msg.encode(message)) == _pydantic_json(message)
