"""Issue 25: a canonical ``id`` is accepted only if the encoder can echo it as ``re`` (a signed
64-bit integer, or a string of Unicode text); anything else is ``protocol/bad_message``
without ``re``, and no string with a lone surrogate gets past the parser at all."""

from __future__ import annotations

import json

import pytest

from service.errors import ProtocolError
from service.protocol import canonical as msg
from service.protocol.jsonwire import lone_surrogates, valid_text

#: the reproductions of the issue, and the edges of the rule
UNECHOABLE = [
    '{"type":"ping","id":18446744073709551616}',
    '{"type":"ping","id":"\\ud800"}',
    '{"type":"ping","id":9223372036854775808}',
    '{"type":"ping","id":-9223372036854775809}',
    '{"type":"ping","id":"ok\\udfff"}',
    '{"type":"ping","id":"\\udc00\\ud800"}',  # a pair in the wrong order is two lone halves
    '{"type":"nope","id":18446744073709551616}',  # no valid message: the same, no re
    '{"type":"nope","id":"\\ud800"}',
]


@pytest.mark.parametrize("text", UNECHOABLE)
def test_an_id_the_encoder_cannot_echo_is_a_bad_message_without_re(text: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        msg.parse_client(text)
    assert refused.value.code == "protocol/bad_message"
    error = msg.Error(re=refused.value.details.get("re"), code=refused.value.code,
                      message=refused.value.message)
    assert "re" not in json.loads(msg.encode(error))  # and the answer itself encodes


@pytest.mark.parametrize("value", [2**63 - 1, -(2**63), 0, -1, "x", "", "😀", "\\ud800", "é" * 500])
def test_every_echoable_id_comes_back_as_it_went(value: int | str) -> None:
    ping = msg.parse_client(json.dumps({"type": "ping", "id": value}))
    assert json.loads(msg.encode(msg.Pong(re=ping.id)))["re"] == value


def test_an_escaped_surrogate_pair_is_one_character_not_a_lone_surrogate() -> None:
    ping = msg.parse_client('{"type":"ping","id":"\\ud83d\\ude00"}')
    assert ping.id == "😀"


def test_a_lone_surrogate_anywhere_is_refused_but_a_good_id_is_echoed() -> None:
    with pytest.raises(ProtocolError) as refused:
        msg.parse_client('{"type":"create","id":5,"game":"dolphinfox","options":{"\\udc00":1}}')
    assert refused.value.code == "protocol/bad_message" and refused.value.details["re"] == 5
    with pytest.raises(ProtocolError) as bad_too:
        msg.parse_client('{"type":"act","id":"a","match_id":1,"client_id":"c",'
                         '"action":{"type":"move","say":["\\ud800"]}}')
    assert bad_too.value.details["re"] == "a"


def test_a_bad_message_echoes_only_what_the_rule_allows() -> None:
    assert msg.correlation_of({"id": 2**63 - 1}) == 2**63 - 1
    assert msg.correlation_of({"id": 2**63}) is None
    assert msg.correlation_of({"id": True}) is None
    assert msg.correlation_of({"id": "\ud800"}) is None
    assert msg.correlation_of({"id": "x" * msg.MAX_ECHOED_ID}) == "x" * msg.MAX_ECHOED_ID
    assert msg.correlation_of({"id": "x" * (msg.MAX_ECHOED_ID + 1)}) is None


def test_server_messages_cannot_carry_an_unechoable_re() -> None:
    with pytest.raises(ValueError):
        msg.Pong(re=2**64)
    with pytest.raises(ValueError):
        msg.Pong(re="\ud800")


def test_lone_surrogates_looks_only_where_an_escape_was() -> None:
    assert lone_surrogates('["\\ud800"]', ["\ud800"])
    assert lone_surrogates(b'{"\\uDBFF":1}', {"\udbff": 1})
    assert not lone_surrogates('["\\\\ud800"]', ["\\ud800"])  # an escaped backslash, then text
    assert not lone_surrogates('["\\ud83d\\ude00"]', ["😀"])
    assert not valid_text("\ud800") and valid_text("😀")
