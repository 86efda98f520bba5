"""Fixed numbers of Eriantys: colours, per-player-count parameters, characters, reason codes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: student colours; a colour's index is its position here (state arrays use it)
COLOURS: tuple[str, ...] = ("green", "red", "yellow", "pink", "blue")
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
#: one-letter codes used by the notation and the text picture
COLOUR_LETTERS: str = "grypb"
Colour = Literal["green", "red", "yellow", "pink", "blue"]

STUDENTS_PER_COLOUR = 26
STUDENTS_TOTAL = 130
ISLANDS = 12
DINING_ROW = 10
COIN_SEATS = (3, 6, 9)
COINS_TOTAL = 20
NO_ENTRY_TILES = 4
TEAM_COLOURS: tuple[str, ...] = ("black", "white", "grey")
WIZARDS: tuple[str, ...] = ("nature", "desert", "cloud", "snow")
#: assistant value -> Mother Nature's maximum move
ASSISTANT_MOVES: dict[int, int] = {v: (v + 1) // 2 for v in range(1, 11)}

#: rule choice 10.3: after the Farmer, tied professors stay with the taker at the end of the turn
FARMER_RETURNS_PROFESSORS = False


@dataclass(frozen=True)
class Params:
    """Numbers that depend on the player count."""

    clouds: int
    per_cloud: int
    entrance: int
    moves: int
    towers: int
    teams: int


PARAMS: dict[int, Params] = {
    2: Params(clouds=2, per_cloud=3, entrance=7, moves=3, towers=8, teams=2),
    3: Params(clouds=3, per_cloud=4, entrance=9, moves=4, towers=6, teams=3),
    4: Params(clouds=4, per_cloud=3, entrance=7, moves=3, towers=8, teams=2),
}


@dataclass(frozen=True)
class CharacterInfo:
    """One character card: stable id 0..11 (standard order), key, printed cost, set-up."""

    id: int
    key: str
    name: str
    cost: int
    students: int = 0
    no_entry: int = 0


CHARACTERS: tuple[CharacterInfo, ...] = (
    CharacterInfo(0, "monk", "Monk", 1, students=4),
    CharacterInfo(1, "farmer", "Farmer", 2),
    CharacterInfo(2, "herald", "Herald", 3),
    CharacterInfo(3, "magic_mailman", "Magic Mailman", 1),
    CharacterInfo(4, "grandma_herbs", "Grandma Herbs", 2, no_entry=4),
    CharacterInfo(5, "centaur", "Centaur", 3),
    CharacterInfo(6, "jester", "Jester", 1, students=6),
    CharacterInfo(7, "knight", "Knight", 2),
    CharacterInfo(8, "mushroom_hunter", "Mushroom Hunter", 3),
    CharacterInfo(9, "minstrel", "Minstrel", 1),
    CharacterInfo(10, "spoiled_princess", "Spoiled Princess", 2, students=4),
    CharacterInfo(11, "thief", "Thief", 3),
)
CHARACTER_BY_KEY: dict[str, CharacterInfo] = {c.key: c for c in CHARACTERS}
CHARACTER_KEYS: tuple[str, ...] = tuple(c.key for c in CHARACTERS)
CharacterKey = Literal[
    "monk", "farmer", "herald", "magic_mailman", "grandma_herbs", "centaur",
    "jester", "knight", "mushroom_hunter", "minstrel", "spoiled_princess", "thief",
]

#: every RulesError reason this game raises (code on the wire: ``rules/<reason>``)
REASONS: dict[str, str] = {
    "game_over": "the game has ended",
    "wrong_phase": "that action belongs to another phase (planning vs action)",
    "not_your_turn": "another seat must act now",
    "card_not_in_hand": "that assistant is not in your hand (already spent)",
    "card_already_played": "another player played that value this round and you hold other cards",
    "students_already_moved": "you have already moved all your students this turn",
    "student_not_in_entrance": "no student of that colour in your entrance",
    "dining_full": "that dining-room row already holds 10 students",
    "no_such_island": "no island group with that index",
    "students_not_moved": "move all your students before Mother Nature",
    "mother_nature_already_moved": "Mother Nature has already moved this turn",
    "bad_mother_nature_distance": "Mother Nature moves 1 to your assistant's value (+2 Mailman)",
    "mother_nature_not_moved": "move Mother Nature before choosing a cloud or ending the turn",
    "no_such_cloud": "no cloud with that index",
    "cloud_already_taken": "that cloud was taken this round",
    "empty_cloud": "that cloud holds no students",
    "cloud_available": "you must take a cloud; one with students is still free",
    "not_expert": "characters and coins exist only in expert mode",
    "character_not_in_play": "that character is not one of this game's three",
    "character_already_used": "you have already used a character this turn",
    "not_enough_coins": "you cannot pay that character's cost",
    "student_not_on_character": "no student of that colour on the character card",
    "no_entry_tiles_exhausted": "Grandma Herbs has no no-entry tile left",
    "bad_swap": "the swap names students you do not have or overfills a dining row",
}
