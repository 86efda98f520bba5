"""The twelve characters: checks (before any change), effects, and their legal parameters."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from service.games.eriantys import catalog as K
from service.games.eriantys.constants import CHARACTER_BY_KEY, COLOUR_INDEX, DINING_ROW
from service.games.eriantys.rules import Events, resolve, seat_student, update_professor
from service.games.eriantys.state import Character, State, draw, fail


def cost(card: Character) -> int:
    """Printed cost, +1 once the card has been used (rule 10.11: once only)."""
    return CHARACTER_BY_KEY[card.key].cost + (1 if card.used else 0)


def find_card(state: State, key: str) -> Character | None:
    for card in state.characters:
        if card.key == key:
            return card
    return None


def _counts(colours: Any) -> list[int]:
    out = [0] * 5
    for colour in colours:
        out[COLOUR_INDEX[colour]] += 1
    return out


def _within(part: list[int], whole: list[int]) -> bool:
    return all(p <= w for p, w in zip(part, whole))


def _island(state: State, index: int) -> None:
    if index >= len(state.groups):
        raise fail("no_such_island")


# --- checks: raise RulesError, change nothing --------------------------------------


def check(state: State, seat: int, card: Character, action: Any) -> None:
    key = card.key
    player = state.players[seat]
    if key in ("monk", "spoiled_princess"):
        colour = COLOUR_INDEX[action.color]
        if card.students[colour] == 0:
            raise fail("student_not_on_character")
        if key == "monk":
            _island(state, action.island)
        elif player.dining[colour] >= DINING_ROW:
            raise fail("dining_full")
    elif key == "herald":
        _island(state, action.island)
    elif key == "grandma_herbs":
        if card.no_entry == 0:
            raise fail("no_entry_tiles_exhausted")
        _island(state, action.island)
    elif key == "jester":
        taken, given = _counts(a for a, _ in action.swaps), _counts(b for _, b in action.swaps)
        if not (_within(taken, card.students) and _within(given, player.entrance)):
            raise fail("bad_swap")
    elif key == "minstrel":
        _check_minstrel(state, seat, action)


def _check_minstrel(state: State, seat: int, action: Any) -> None:
    player = state.players[seat]
    arriving, leaving = _counts(a for a, _ in action.swaps), _counts(b for _, b in action.swaps)
    if not _minstrel_changes(action.swaps):
        # it changes nothing on the board (and would seat the student again: a coin twice)
        raise fail("bad_swap", "a Minstrel swap exchanges different colours: a colour cannot "
                               "both enter and leave the dining room in one play")
    if not (_within(arriving, player.entrance) and _within(leaving, player.dining)):
        raise fail("bad_swap")
    if any(player.dining[c] - leaving[c] + arriving[c] > DINING_ROW for c in range(5)):
        raise fail("dining_full")


# --- effects -------------------------------------------------------------------------


def _monk(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    colour = COLOUR_INDEX[action.color]
    card.students[colour] -= 1
    state.groups[action.island].students[colour] += 1
    events.append({"type": "student_moved", "seat": seat, "color": action.color,
                   "from": "monk", "to": action.island})
    _refill(state, card, events)


def _refill(state: State, card: Character, events: Events) -> None:
    colour = draw(state)
    if colour >= 0:
        card.students[colour] += 1
    events.append({"type": "character_refilled", "character": card.key,
                   "drawn": colour >= 0})


def _farmer(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    for colour in range(5):
        update_professor(state, colour, seat, events)


def _herald(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    resolve(state, action.island, seat, events)


def _grandma(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    card.no_entry -= 1
    state.groups[action.island].no_entry += 1
    events.append({"type": "no_entry_placed", "island": action.island})


def _jester(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    entrance = state.players[seat].entrance
    for taken, given in action.swaps:
        t, g = COLOUR_INDEX[taken], COLOUR_INDEX[given]
        card.students[t] -= 1
        entrance[t] += 1
        entrance[g] -= 1
        card.students[g] += 1


def _mushroom(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    state.mushroom = COLOUR_INDEX[action.color]


def _minstrel(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    player = state.players[seat]
    for _, leaving in action.swaps:
        colour = COLOUR_INDEX[leaving]
        player.dining[colour] -= 1
        player.entrance[colour] += 1
    for arriving, _ in action.swaps:
        colour = COLOUR_INDEX[arriving]
        player.entrance[colour] -= 1
        seat_student(state, seat, colour, events)
    for _, leaving in action.swaps:
        update_professor(state, COLOUR_INDEX[leaving], seat, events)


def _princess(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    colour = COLOUR_INDEX[action.color]
    card.students[colour] -= 1
    seat_student(state, seat, colour, events)
    _refill(state, card, events)


def _thief(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    colour = COLOUR_INDEX[action.color]
    for other, player in enumerate(state.players):
        n = min(3, player.dining[colour])
        player.dining[colour] -= n
        state.bag[colour] += n
        if n:
            events.append({"type": "students_returned", "seat": other, "color": action.color,
                           "count": n})
    update_professor(state, colour, seat, events)


def _nothing(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    return None


EFFECTS: dict[str, Callable[[State, int, Character, Any, Events], None]] = {
    "monk": _monk, "farmer": _farmer, "herald": _herald, "magic_mailman": _nothing,
    "grandma_herbs": _grandma, "centaur": _nothing, "jester": _jester, "knight": _nothing,
    "mushroom_hunter": _mushroom, "minstrel": _minstrel, "spoiled_princess": _princess,
    "thief": _thief,
}


def pay_and_play(state: State, seat: int, card: Character, action: Any, events: Events) -> None:
    price = cost(card)
    state.players[seat].coins -= price
    state.reserve += price - (0 if card.used else 1)  # first use leaves one coin on the card
    card.used = True
    state.character_used = card.key
    event = {"type": "character_played", "seat": seat, "cost": price,
             **action.model_dump(mode="json", exclude={"type"})}
    events.append(event)
    EFFECTS[card.key](state, seat, card, action, events)


# --- enumeration ------------------------------------------------------------------------


def multisets(counts: list[int], size: int, start: int = 0) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` colours drawn from ``counts`` (as sorted colour tuples)."""
    if size == 0:
        yield ()
        return
    for colour in range(start, 5):
        if counts[colour]:
            counts[colour] -= 1
            for rest in multisets(counts, size - 1, colour):
                yield (colour, *rest)
            counts[colour] += 1


def options(state: State, seat: int, card: Character) -> list[Any]:
    """Every legal parameter set of ``card`` for ``seat`` (coins already checked)."""
    key, player = card.key, state.players[seat]
    islands = range(len(state.groups))
    if key == "monk":
        return [K.MONK[(c, i)] for c in range(5) if card.students[c] for i in islands]
    if key in ("herald", "grandma_herbs"):
        if key == "grandma_herbs" and card.no_entry == 0:
            return []
        return [K.ISLAND_CARDS[(key, i)] for i in islands]
    if key in ("mushroom_hunter", "thief"):
        return [K.COLOUR_CARDS[(key, c)] for c in range(5)]
    if key == "spoiled_princess":
        return [K.COLOUR_CARDS[(key, c)] for c in range(5)
                if card.students[c] and player.dining[c] < DINING_ROW]
    if key == "jester":
        return _swaps(key, card.students, player.entrance, 3)
    if key == "minstrel":
        return [a for a in _swaps(key, player.entrance, player.dining, 2)
                if _minstrel_fits(player.dining, a.swaps) and _minstrel_changes(a.swaps)]
    return [K.PLAIN[key]]


def _swaps(key: str, first: list[int], second: list[int], most: int) -> list[Any]:
    table = K.SWAPS[key]
    out: list[Any] = []
    for size in range(most + 1):
        seconds = list(multisets(list(second), size))
        for a in multisets(list(first), size):
            out.extend(table[(a, b)] for b in seconds)
    return out


def _minstrel_changes(swaps: tuple[tuple[str, str], ...]) -> bool:
    """No colour both enters and leaves the dining room (that would change nothing)."""
    return not {a for a, _ in swaps} & {b for _, b in swaps}


def _minstrel_fits(dining: list[int], swaps: tuple[tuple[str, str], ...]) -> bool:
    after = list(dining)
    for arriving, leaving in swaps:
        after[COLOUR_INDEX[arriving]] += 1
        after[COLOUR_INDEX[leaving]] -= 1
    return max(after) <= DINING_ROW
