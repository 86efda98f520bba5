"""The seed-003 line codec: the original's command grammar, parameters, dialogue answers,
the seed's strings byte for byte, and a fuzz test that no line makes the parser raise."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.errors import ProtocolError
from service.protocol import renaissance as wire
from service.protocol.framing import FrameError, LineFramer
from service.protocol.renaissance import Command


@pytest.mark.parametrize(("line", "expected"), [
    ("Move resources -1 -2", Command("moveresources", ("1", "2"))),
    ("move resources -1 -2", Command("moveresources", ("1", "2"))),
    ("movere sources-1-2", Command("moveresources", ("1", "2"))),
    ("MOVERESOURCES -1 -2", Command("moveresources", ("1", "2"))),
    ("Buy resources -line/column", Command("buyresources", ("line/column",))),
    ("Buy resources -line -2", Command("buyresources", ("line", "2"))),
    ("Buy production card -1 -3", Command("buyproductioncard", ("1", "3"))),
    ("Activate leader card -1", Command("activateleadercard", ("1",))),
    ("Activate card production -2", Command("activatecardproduction", ("2",))),
    ("Standard Production", Command("standardproduction")),
    ("End turn", Command("endturn")),
    ("view -card market", Command("view", ("cardmarket",))),
    ("", Command("")),
    ("---", Command("", ("", "", ""))),
    ("\tEnd\tturn ", Command("endturn")),
])
def test_commands_are_parsed_as_the_original_did(line: str, expected: Command) -> None:
    assert wire.parse_command(line) == expected


@pytest.mark.parametrize(("params", "expected"), [
    (("line", "2"), ("row", 2)), (("line2",), ("row", 2)), (("LINE", "3"), ("row", 3)),
    (("row", "1"), ("row", 1)), (("column", "4"), ("column", 4)), (("col4",), ("column", 4)),
    (("column", "1"), ("column", 1)),
])
def test_market_lines(params: tuple[str, ...], expected: tuple[str, int]) -> None:
    assert wire.market_line(params) == expected


def error_of(call: object, *args: object) -> str:
    with pytest.raises(ProtocolError) as caught:
        call(*args)  # type: ignore[operator]
    assert caught.value.code.startswith("protocol/")
    return caught.value.message


@pytest.mark.parametrize(("params", "text"), [
    (("line", "x"), "Not a number"), (("line", "4"), "Index out of bounds"),
    (("column", "5"), "Index out of bounds"), (("column", "0"), "Index out of bounds"),
    (("2",), "Select either a column or a line"), (("diagonal", "1"), "Select either a column or a line"),
    (("line/column",), "Select either a column or a line"), ((), "Missing parameter(s)"),
    (("line",), "Missing parameter(s)"), (("line", "-1"), "Not a number"),
    (("line", "²"), "Not a number"), (("line", "9999999"), "Not a number"),
])
def test_bad_market_lines_get_the_seed_strings(params: tuple[str, ...], text: str) -> None:
    assert error_of(wire.market_line, params) == text


def test_numbers_and_bounds() -> None:
    assert wire.numbers(("1", "3", "x"), 2) == [1, 3]
    assert error_of(wire.numbers, ("1",), 2) == "Missing parameter(s)"
    assert error_of(wire.numbers, ("1", ""), 2) == "Missing parameter(s)"
    assert error_of(wire.numbers, ("a", "1"), 2) == "Not a number"
    assert error_of(wire.numbers, ("1.5",), 1) == "Not a number"
    assert error_of(wire.in_range, 4, 1, 3) == "Index out of bounds"
    assert wire.in_range(3, 1, 3) == 3


@pytest.mark.parametrize(("line", "expected"), [
    ("Warehouse depot", ("warehouse", None)), ("warehousedepot", ("warehouse", None)),
    ("Extra depot", ("extra", None)), ("STRONGBOX", ("strongbox", None)),
    ("coin", (None, "coin")), ("coin warehouse depot", ("warehouse", "coin")),
    ("shield strongbox", ("strongbox", "shield")), ("stone extradepot", ("extra", "stone")),
    ("strongbox servant", ("strongbox", "servant")), ("nowhere", (None, None)), ("", (None, None)),
])
def test_payment_answers(line: str, expected: tuple[str | None, str | None]) -> None:
    assert wire.split_payment(line) == expected


def test_resources_and_choice_lines() -> None:
    assert wire.resource(" Coin ") == "coin" and wire.resource("gold") is None
    assert wire.choices("transform", "discard") == (
        "Please insert one of the following commands:  transform, discard,")


def test_the_seed_strings_byte_for_byte() -> None:
    seed = {wire.INSERT_NICKNAME: "Insert a nickname",
            wire.INSERT_PLAYERS: "Insert number of Players (1-4)",
            wire.WHAT_TO_DO: "What do you want to do?",
            wire.RESOURCE_MOVED: "Resource moved successfully",
            wire.CHOOSE_VALID_LINES: "Choose valid warehouse lines to switch",
            wire.CANT_SWITCH: "Can't switch these lines",
            wire.RESOURCES_BOUGHT: "Resources bought", wire.FAITH_INCREASED: "Faith increased",
            wire.TRANSFORM_OR_DISCARD: "Select if you want to transform or discard the white marble",
            wire.CONVERT_INTO: "Select the resource you want to convert the marble into",
            wire.STANDARD_START: "You can activate this standard production, select where you "
                                 "want to take the resources from",
            wire.CHOOSE_OUTPUT: "Now choose a resource to get from production",
            wire.STANDARD_DONE: "Standard production finished",
            wire.VALID_PRODUCTION_LOCATION:
                "Select a valid resource location (Warehouse depot or Extra depot)",
            wire.CARD_PRODUCTION_START:
                "You can activate this production, select where you want to take resources from",
            wire.PRODUCTION_DONE: "Production activated and finished",
            wire.CAN_BUY: "You can buy the selected card, please choose resources to use",
            wire.NOT_IN_WAREHOUSE: "This resource isn't available in your Warehouse depot",
            wire.NOT_IN_STRONGBOX: "This resource isn't available in your Strongbox",
            wire.VALID_LOCATION: "Select a valid location (Warehouse depot, Extra depot or Strongbox)",
            wire.NO_CARDS_LEFT: "There are no cards left on the selected pile",
            wire.UNABLE_TO_ACTIVATE: "Unable to activate this card", wire.END: "End"}
    for constant, text in seed.items():
        assert constant == text


@given(st.text(max_size=200))
def test_no_text_makes_the_parser_raise(line: str) -> None:
    command = wire.parse_command(line)
    assert " " not in command.name and command.name == command.name.casefold()
    for param in command.params:
        try:
            wire.number(param)
        except ProtocolError as exc:
            assert exc.message == "Not a number"
    try:
        wire.market_line(command.params)
    except ProtocolError as exc:
        assert exc.message in {"Not a number", "Index out of bounds", "Missing parameter(s)",
                               "Select either a column or a line"}
    wire.split_payment(line)
    wire.resource(line)


@given(st.binary(max_size=3000), st.integers(min_value=1, max_value=50))
def test_no_bytes_make_the_framer_raise(data: bytes, cut: int) -> None:
    framer = LineFramer(max_line=wire.MAX_LINE)
    frames = [f for i in range(0, len(data), cut) for f in framer.feed(data[i:i + cut])]
    for frame in frames:
        if isinstance(frame, FrameError):
            assert frame.code in {"protocol/bad_encoding", "protocol/frame_too_long"}
        else:
            assert "\n" not in frame and len(frame.encode()) <= wire.MAX_LINE
            wire.parse_command(frame)
