"""The seed-002 line codec: every client message, every kind of bad line, exact server bytes."""

from __future__ import annotations

import pytest

from service.errors import ProtocolError
from service.protocol import dolphinfox as wire
from service.protocol.dolphinfox import Join, MoveCmd, Refresh

SEED_BOARD = "WWWDWLFGWLLGDWDW"  # the seed's 4x4 example (section 1.4.1)


@pytest.mark.parametrize(("line", "expected"), [
    ("PCJ", Join(viewer=False)),
    ("QCJ", Join(viewer=True)),
    ("PCJ abc123", Join(viewer=False, key="abc123")),
    ("PCJ  abc123 ", Join(viewer=False, key="abc123")),
    ("PCJ ", Join(viewer=False)),
    ("PCJ " + "k" * 128, Join(viewer=False, key="k" * 128)),
    ("DBM 4 1 4 2", MoveCmd("D", 4, 1, 4, 2)),
    ("FBM 8 3 7 3", MoveCmd("F", 8, 3, 7, 3)),
    ("DBM 0 0 0 0", MoveCmd("D", 0, 0, 0, 0)),
    ("FBM 999 1 -1 -999", MoveCmd("F", 999, 1, -1, -999)),
    ("DBM 04 01 004 2", MoveCmd("D", 4, 1, 4, 2)),
    ("DBR", Refresh("D")),
    ("FBR", Refresh("F")),
])
def test_every_valid_client_message_parses(line: str, expected: object) -> None:
    assert wire.parse(line) == expected


def test_a_player_join_is_not_a_viewer_and_has_no_key_by_default() -> None:
    join = wire.parse("PCJ")
    assert isinstance(join, Join) and join.viewer is False and join.key is None


def error_code(line: str) -> str:
    with pytest.raises(ProtocolError) as caught:
        wire.parse(line)
    assert caught.value.message  # a human message always comes with the code
    return caught.value.code


@pytest.mark.parametrize("line", [
    "", "P", "PC", "PCJJ", "DBMM 4 1 4 2", "DB M", " PCJ", "DBM\t4 1 4 2", "PCJ\tkey",
])
def test_a_header_that_is_not_three_letters(line: str) -> None:
    assert error_code(line) == "protocol/bad_header"


@pytest.mark.parametrize("line", [
    "XCJ", "BBM 1 1 1 2", "CBR", "EBR", "GBR", "pcj", "dBM 4 1 4 2", "1CJ", "\u00d0BR",
])
def test_an_unknown_sender(line: str) -> None:
    assert error_code(line) == "protocol/unknown_sender"


@pytest.mark.parametrize("line", ["DBX", "FBB", "DBN", "FBS", "DBT D", "DBF", "DBm 4 1 4 2"])
def test_an_unknown_message_type(line: str) -> None:
    assert error_code(line) == "protocol/unknown_type"


@pytest.mark.parametrize("line", ["DCM 4 1 4 2", "FCR", "DDR", "FEM 1 1 1 2", "DbR"])
def test_moves_and_refreshes_go_to_the_board(line: str) -> None:
    assert error_code(line) == "protocol/bad_addressee"


@pytest.mark.parametrize("line", ["PBM 4 1 4 2", "QBR", "PCR", "QCM 1 1 1 2"])
def test_a_new_player_or_viewer_may_only_join(line: str) -> None:
    assert error_code(line) == "protocol/wrong_sender"


@pytest.mark.parametrize("line", ["PBJ", "QBJ", "DCJ", "FCJ", "DBJ", "PDJ"])
def test_a_join_is_pcj_or_qcj(line: str) -> None:
    assert error_code(line) == "protocol/bad_header"


@pytest.mark.parametrize("line", [
    "QCJ somekey", "QCJ 0", "QCJ 12x", "QCJ -3", "QCJ 2147483648", "QCJ \u0664",
    "PCJ " + "k" * 129, "PCJ key\x00", "PCJ a\x1bb",
])
def test_a_join_key_is_for_players_only_and_short_and_printable(line: str) -> None:
    assert error_code(line) == "protocol/bad_join"


def test_a_viewer_may_name_a_match() -> None:
    assert wire.parse("QCJ 12") == wire.Join(viewer=True, match_id=12)
    assert wire.parse("QCJ") == wire.Join(viewer=True)


@pytest.mark.parametrize("data", [
    "", "4 1 4", "4 1 4 2 5", "a b c d", "4 1 4 x", "4.0 1 4 2", "4 1 4 2 ", " 4 1 4 2",
    "4  1 4 2", "4,1,4,2", "+4 1 4 2", "- 1 4 2", "--4 1 4 2", "1000 1 4 2", "4 1 4 99999999999",
    "1" * 400 + " 1 1 1", "\u0664 1 4 2", "\u00b2 1 4 2", "4 1 4 2\n", "0x4 1 4 2", "1e2 1 1 1",
])
def test_bad_move_data(data: str) -> None:
    for sender in "DF":
        line = f"{sender}BM {data}" if data else f"{sender}BM"
        assert error_code(line) == "protocol/bad_move", line


def test_refresh_data_is_ignored() -> None:
    assert wire.parse("DBR please") == Refresh("D")


# --- server lines ------------------------------------------------------------------


def test_team_announcements_are_the_seed_bytes() -> None:
    assert wire.team_announcement(False, "D") == "CPT D"
    assert wire.team_announcement(False, "F") == "CPT F"
    assert wire.team_announcement(True, "F") == "CQT F"
    assert wire.team_announcement(True, "D") == "CQT D"
    assert wire.team_announcement(False, "R") == "CPT R"


def test_board_fail_and_next_are_the_seed_bytes() -> None:
    assert wire.board("E", SEED_BOARD) == "BEB WWWDWLFGWLLGDWDW"
    assert wire.board("G", "WL" * 8) == "BGB " + "WL" * 8
    assert wire.failed("E") == "BEF"
    assert wire.failed("G") == "BGF"
    assert wire.next_turn("D") == "BDN"
    assert wire.next_turn("E") == "BEN"
    assert wire.next_turn("F") == "BFN"


def test_game_end_comes_from_the_controller() -> None:
    # The seed's example reads "FBS", which contradicts its own header rule (sender C, addressee
    # D or F); the header rule wins.
    assert wire.game_end("F") == "CFS"
    assert wire.game_end("D") == "CDS"
    assert wire.game_end("E") == "CES"


def test_tavolo_extensions() -> None:
    assert wire.resume_key("abc") == "CPK abc"
    assert wire.error("D", "protocol/bad_move", "a move is four integers") == (
        "CDF protocol/bad_move a move is four integers")


@pytest.mark.parametrize("line", ["CPT D", "CQT F", "BEB " + SEED_BOARD, "BEF", "BDN", "CFS"])
def test_server_lines_have_a_three_letter_header_then_optional_data(line: str) -> None:
    header, _, data = line.partition(" ")
    assert len(header) == 3 and header.isupper() and header.isascii()
    assert "\n" not in line and (data == "" or not data.startswith(" "))


def test_a_player_can_resume_with_the_key_it_was_given() -> None:
    key = "Zx9-_abc"
    line = wire.resume_key(key)
    assert wire.parse("PCJ " + line.split(" ", 1)[1]) == Join(viewer=False, key=key)
