"""The seed-003 wire format (Masters of Renaissance): one plain-text line per message, sans I/O.

Client lines are parsed as the original server did: every space is removed, the rest is
split on ``-``, the first part is the command name and the others are its parameters.
Unlike the original, names are compared without case, so ``Move resources -1 -2``,
``move resources -1 -2`` and ``moveresources-1-2`` are one command. Answers inside a
dialogue ("Select a depot", ...) are compared lower-cased with the spaces removed
(``Warehouse depot`` is ``warehousedepot``).

Every text the server sends is a constant here (the seed's strings byte for byte, the
original's measured strings where the seed is silent, and Tavolo's own lines where both
are silent; docs/protocols/renaissance.md lists which is which).
"""

from __future__ import annotations

from dataclasses import dataclass

from service.errors import ProtocolError

#: the longest line a client may send, in bytes (the framer skips longer ones)
MAX_LINE = 1024
#: the longest number a parameter may hold (a longer one is "Not a number")
MAX_DIGITS = 6
RESOURCES = ("coin", "stone", "servant", "shield")

# --- the lobby (seed) ---------------------------------------------------------------
INSERT_NICKNAME = "Insert a nickname"
INSERT_PLAYERS = "Insert number of Players (1-4)"
# measured (HEAD / e79440a) where the seed is silent
INSERT_VALID_NICKNAME = "Insert a valid nickname"
INSERT_VALID_NUMBER = "Insert a valid number"
NOTHING_TO_DO = "Nothing to do here, wait for the game to start"
ALL_CONNECTED = "All players connected"
# Tavolo
WAITING_LOBBY = "You are in the waiting lobby: {joined} of {seats} players"
WELCOME_BACK = "Welcome back {nickname}, your game goes on"

# --- set-up (HEAD's texts) -------------------------------------------------------------
SEAT_TEXTS = (
    "You're the first player so you're not gonna receive any resource or faith point",
    "You're the second player so you can choose a resource to add to your warehouse depot",
    "You're the third player so you can choose a resource to add to your warehouse depot, "
    "increased faith points by one",
    "You're the fourth player so you can choose two resources to add to your warehouse depot, "
    "increased faith points by one",
)
SELECT_SETUP_RESOURCE = "select now the resource: coin, stone, servant or shield"
SELECT_SETUP_LINE = "Select in which line to insert the chosen resource"
SELECT_TWO_LEADERS = "Select 2 of these 4 cards"
FIRST_LEADER = "Send the number of the first card"
SECOND_LEADER = "Send the number of the second card"
SETUP_COMPLETE = "Setup complete"
WAIT_FOR_SETUP = "Wait for the other players to complete their setup"

# --- the turn ----------------------------------------------------------------------------
WHAT_TO_DO = "What do you want to do?"
NOT_YOUR_TURN = "Wait for you turn, in the meanwhile you can call only view methods"  # sic (HEAD)
TURN_OF = "Now it's {nickname}'s turn"  # Tavolo
END = "End"
WRONG_COMMAND = ("You inserted a wrong command. These are the valid commands: move resources, "
                 "buy resources, buy production card, activate leader card, discard leader card, "
                 "activate card production, leader production, standard production, view, end turn.")
NOT_A_NUMBER = "Not a number"
INDEX_OUT_OF_BOUNDS = "Index out of bounds"
MISSING_PARAMETERS = "Missing parameter(s)"
ACTION_ALREADY_DONE = "Action already done"
ACTION_NEEDED = "You have to do an action before ending your turn"  # Tavolo
NOT_A_VALID_PARAMETER = "not a valid parameter"
PRINTED = "Printed"

# --- move resources (seed) ---------------------------------------------------------------
RESOURCE_MOVED = "Resource moved successfully"
CHOOSE_VALID_LINES = "Choose valid warehouse lines to switch"
CANT_SWITCH = "Can't switch these lines"

# --- buy resources (seed, then HEAD) -----------------------------------------------------
RESOURCES_BOUGHT = "Resources bought"
FAITH_INCREASED = "Faith increased"
TRANSFORM_OR_DISCARD = "Select if you want to transform or discard the white marble"
CONVERT_INTO = "Select the resource you want to convert the marble into"
LINE_OR_COLUMN = "Select either a column or a line"
CURRENT_RESOURCE = "Current resource: {resource}"
WHERE_TO_INSERT = ("Select where you want to insert the new resource (warehouse depot or extra depot) "
                   "or if you want to discard it")
SELECT_LINE = "Select a line to insert the resource into"
LINE_FULL = "This line is already full"
LINE_OTHER_RESOURCE = "This line already has a different resource"
RESOURCE_IN_OTHER_LINE = "This resource has already been inserted in another line"
NO_DEPOT_LEADER = "You don't have any leader card of depot"
RESOURCE_DISCARDED = "Resource discarded"  # Tavolo
WHITE_DISCARDED = "White marble discarded"
PLEASE_INSERT = "Please insert one of the following commands:  {choices}"

# --- productions (seed) ------------------------------------------------------------------
STANDARD_START = ("You can activate this standard production, select where you want to take the "
                  "resources from")
CHOOSE_OUTPUT = "Now choose a resource to get from production"
STANDARD_DONE = "Standard production finished"
VALID_PRODUCTION_LOCATION = "Select a valid resource location (Warehouse depot or Extra depot)"
VALID_RESOURCE = "Select a valid resource"
CARD_PRODUCTION_START = "You can activate this production, select where you want to take resources from"
RESOURCE_TAKEN = "Resource taken"
PRODUCTION_DONE = "Production activated and finished"
NO_CARD_IN_SLOT = "You don't have any active production card in this slot"
PRODUCTION_ALREADY_USED = "You have already activated this production"
NOT_ENOUGH_FOR_PRODUCTION = "You have not enough resource to activate this production"
LEADER_PRODUCTION_START = "You can activate this production"
NOT_A_PRODUCTION_LEADER = "Not a valid leader of productions card"
LEADER_PRODUCTION_DONE = "Production activated!"
SELECT_DEPOT = "Select a depot"
SELECT_RESOURCE = "Select a resource"

# --- buy production card (seed) -------------------------------------------------------
CAN_BUY = "You can buy the selected card, please choose resources to use"
RESOURCE_USED = "Resource used"
SELECT_POSITION = "Select a position to insert the card in"
CARD_INSERTED = "Card inserted in the selected slot"
NOT_IN_WAREHOUSE = "This resource isn't available in your Warehouse depot"
NOT_REQUIRED = "This resource isn't required"
VALID_RESOURCE_NAMED = "Select a valid resource (Coin, Stone, Servant or Shield)"
WRONG_RESOURCE = "Wrong resource"
ALREADY_EMPTY = "Already empty"
NOT_IN_STRONGBOX = "This resource isn't available in your Strongbox"
VALID_LOCATION = "Select a valid location (Warehouse depot, Extra depot or Strongbox)"
NO_CARDS_LEFT = "There are no cards left on the selected pile"
NO_MORE_SPACE = "No more space"
NO_LEVEL_1 = "No level 1 card active"
NO_LEVEL_2 = "No level 2 card active"
NOT_ENOUGH_RESOURCES = "Not enough resources"  # HEAD
CANT_INSERT_HERE = "You can't insert the card in this slot"  # Tavolo

# --- leader cards (seed, then HEAD) ---------------------------------------------------
CARD_ACTIVATED = "Card activated"
UNABLE_TO_ACTIVATE = "Unable to activate this card"
CARD_ALREADY_ACTIVE = "Card already activated"
CARD_DISCARDED = "Card number {n} discarded"
CANT_DISCARD = "Chosen card can't be discarded"

# --- the end (HEAD) ------------------------------------------------------------------
PLACES = ("First", "Second", "Third", "Fourth")
LEADERBOARD = "{place} player: {nickname} Points: {points}"
YOU_WIN = "You win! Total Points: {points}"
YOU_LOSE = "You lose! Total Points: {points}"
GAME_OVER = "Game over"  # HEAD: "Game over, server shutting down"; Tavolo does not shut down
REMATCH_OFFER = "Type rematch to play again with the same players, or new game to start another one"
REMATCH_WAIT = "Waiting for the other players to accept the rematch"
PLAYER_AWAY = "{nickname} disconnected, the game waits for them"
PLAYER_BACK = "{nickname} is back"

PING = "ping"
PONG = "pong"


@dataclass(frozen=True)
class Command:
    """A typed command: its name (spaces removed, lower case) and its parameters."""

    name: str
    params: tuple[str, ...] = ()


def compact(line: str) -> str:
    """A line as the original compared it: spaces (and tabs) removed."""
    return "".join(line.split())


def answer(line: str) -> str:
    """A dialogue answer as the original compared it: lower case, spaces removed."""
    return compact(line).casefold()


def parse_command(line: str) -> Command:
    """``Move resources -1 -2`` -> Command("moveresources", ("1", "2")); never raises."""
    name, *params = compact(line).split("-")
    return Command(name.casefold(), tuple(params))


def number(text: str) -> int:
    """A parameter that must be a (non-negative, short) decimal number."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        raise ProtocolError(NOT_A_NUMBER, code="protocol/not_a_number")
    return int(text)


def numbers(params: tuple[str, ...], count: int) -> list[int]:
    """The first ``count`` parameters as numbers (``Missing parameter(s)`` if fewer)."""
    if len(params) < count or any(not p for p in params[:count]):
        raise ProtocolError(MISSING_PARAMETERS, code="protocol/missing_parameters")
    return [number(p) for p in params[:count]]


def in_range(value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise ProtocolError(INDEX_OUT_OF_BOUNDS, code="protocol/out_of_bounds")
    return value


def market_line(params: tuple[str, ...]) -> tuple[str, int]:
    """``-line -2`` / ``-line 2`` / ``-column -4`` (also ``row``, ``col``): ("row"|"column", 1-based)."""
    if not params or not params[0]:
        raise ProtocolError(MISSING_PARAMETERS, code="protocol/missing_parameters")
    head = params[0].casefold()
    word = head.rstrip("0123456789")
    digits = head[len(word):] or (params[1] if len(params) > 1 else "")
    kind = {"line": "row", "row": "row", "column": "column", "col": "column"}.get(word)
    if kind is None:
        raise ProtocolError(LINE_OR_COLUMN, code="protocol/line_or_column")
    if not digits:
        raise ProtocolError(MISSING_PARAMETERS, code="protocol/missing_parameters")
    return kind, in_range(number(digits), 1, 3 if kind == "row" else 4)


#: location answers (compacted, lower case) -> location
LOCATIONS = {"warehousedepot": "warehouse", "warehouse": "warehouse", "extradepot": "extra",
             "extra": "extra", "strongbox": "strongbox"}


def split_payment(text: str) -> tuple[str | None, str | None]:
    """A payment answer: a location, a resource, or both in one line in either order
    (``coin warehouse depot``, as the plain-text original read it). (None, None) otherwise."""
    text = answer(text)
    if text in LOCATIONS:
        return LOCATIONS[text], None
    if text in RESOURCES:
        return None, text
    for resource in RESOURCES:
        for where, location in LOCATIONS.items():
            if text in (resource + where, where + resource):
                return location, resource
    return None, None


def resource(text: str) -> str | None:
    word = answer(text)
    return word if word in RESOURCES else None


def choices(*options: str) -> str:
    """HEAD's "Please insert one of the following commands:  a, b," line."""
    return PLEASE_INSERT.format(choices="".join(f"{o}, " for o in options).rstrip(" "))
