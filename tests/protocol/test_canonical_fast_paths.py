"""The hot path's shortcuts write and read exactly what the models do (issue 23): an
``update`` and an ``ack`` written without their model, and frames read by orjson first."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.errors import ProtocolError
from service.games.registry import get_game
from service.protocol import canonical as msg
from service.protocol.jsonwire import load_json, read_json


@pytest.mark.parametrize("game_name", ["dolphinfox", "santorini", "eriantys", "renaissance"])
def test_an_update_written_without_the_model_is_the_models_text(game_name: str) -> None:
    game = get_game(game_name)
    rng = random.Random(23)
    state = game.setup(game.min_seats, game.parse_options({}), 42)
    for version in range(1, 40):
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_act(state))[0]
        legal = [game.dump_action(a) for a in game.legal_actions(state, seat)]
        action = rng.choice(legal)
        events = game.apply(state, seat, game.parse_action(action))
        outcome = game.outcome(state)
        for looking in [None, *range(game.min_seats)]:
            fields: dict[str, Any] = dict(
                match_id=3, version=version, seat=seat, action=action, events=events,
                to_act=sorted(game.to_act(state)), status="active",
                view=game.view(state, looking),
                outcome=outcome.to_dict() if outcome else None)
            extras: list[dict[str, Any]] = [
                {}, {"legal": legal, "said": ["moved."]},
                {"said": [], "outcome_said": ["You won."], "clock": {"at": "now", "running": [1]}}]
            for extra in extras:
                assert msg.encode_update(**fields, **extra) == msg.encode(
                    msg.Update(**fields, **extra))


@pytest.mark.parametrize("re", [None, 0, -7, 2**63 - 1, "a", "ünï"])
@pytest.mark.parametrize("duplicate", [False, True])
def test_an_ack_written_without_the_model_is_the_models_text(re: Any, duplicate: bool) -> None:
    fields = dict(re=re, match_id=12, client_id="c-1", version=5, duplicate=duplicate)
    assert msg.encode_ack(**fields) == msg.encode(msg.Ack(**fields))


TEXTS: list[str | bytes] = [
    '{"type":"act","id":7,"match_id":12,"action":{"type":"move","to":4},"client_id":"c"}',
    b'{"type":"act","match_id":1,"action":{},"client_id":"x","version":0}',
    '{"type":"act","match_id":123456789012345678901234567890,"action":{},"client_id":"c"}',
    b'{"id":123456789012345678901234567890}', '{"id":18446744073709551615}',
    '{"id":-9223372036854775808}', '{"id":-9223372036854775809}', '{"id":"123456789012345678901"}',
    '{"a":NaN}', '{"a":Infinity}', '{"a":-Infinity}', '{"a":1e400}', '{"a":-0.0}', '{"a":1E-400}',
    '{"a":"\\ud800"}', '{"a":"\\udc00\\ud800"}', '{"a":"\\ud83d\\ude00"}', '{"a":"\\u0000"}',
    '\ufeff{}', b'\xef\xbb\xbf{}', b'{"a":"\xff"}', '{"a":1,"a":2}', '  [1, 2.5, true, null] ',
    "[" * 40 + "]" * 40, "[" * 20 + "]" * 20, "", "{", '{"a":}', "nul", "1 2", "'a'",
]


@pytest.mark.parametrize("text", TEXTS)
def test_read_json_reads_and_refuses_as_load_json(text: str | bytes) -> None:
    try:
        expected: Any = load_json(text)
    except ProtocolError as exc:
        with pytest.raises(ProtocolError) as refused:
            read_json(text)
        assert refused.value.code == exc.code and refused.value.message == exc.message
        return
    got = read_json(text)
    assert repr(got) == repr(expected)  # the same values and types (1 is not 1.0, nan is nan)


def test_a_frame_parses_the_same_through_the_fast_reader() -> None:
    for text in TEXTS:
        try:
            expected: Any = msg.parse_client(text)
        except ProtocolError as exc:
            expected = (exc.code, exc.message, exc.details)
        assert expected == _parsed_slowly(text)


def _parsed_slowly(text: str | bytes) -> Any:
    """parse_client as it was: json.loads through load_json, then the model."""
    from service.protocol import canonical

    real = canonical.read_json
    canonical.read_json = load_json  # type: ignore[assignment]
    try:
        return msg.parse_client(text)
    except ProtocolError as exc:
        return (exc.code, exc.message, exc.details)
    finally:
        canonical.read_json = real  # type: ignore[assignment]
