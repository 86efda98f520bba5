"""Masters of Renaissance's events in words, for one viewer (``Game.describe``).

Depots, slots, market rows and columns and card levels are numbered as on the board (from 1);
leaders are named by their card (number, kind and resource: "leader 7 (extra depot, coin)"),
development cards by level, colour and number. Hidden choices stay hidden: the leaders a player
kept are named only to that player (from its own action: the ``leaders_chosen`` event names
none), and a leader discarded by someone else is "a leader" (``events_seen_by`` takes its id
out before these sentences are written).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.describing import Event, Teller, amounts, and_list, plural, told, words

from . import catalog as K

REASONS = {
    "seventh_card": "a seventh development card was bought",
    "faith_track": "a faith marker reached the end of the track",
    "lorenzo_faith": "his black cross reached the end of the faith track",
    "lorenzo_cards": "every development card of one colour is gone from the grid",
}
PRODUCTIONS = {"base": "the base production"}


def leader(number: Any) -> str:
    info = K.LEADERS.get(number) if isinstance(number, int) else None
    if info is None:
        return f"leader {number}"
    return f"leader {number} ({words(info.kind)}, {K.RESOURCES[info.resource]})"


def card(number: int | None, level: Any = None, colour: Any = None) -> str:
    info = K.CARDS.get(number) if isinstance(number, int) else None
    if info is not None:
        level, colour = info.level, info.colour
    return f"a level {level} {colour} card" + (f" (card {number})" if number is not None else "")


def depot(where: Any) -> str:
    return "the extra depot" if where == "extra" else f"depot {where}"


def paid(payment: Mapping[str, Mapping[str, int]] | None) -> str:
    total: dict[str, int] = {}
    for part in (payment or {}).values():
        for resource, n in part.items():
            total[resource] = total.get(resource, 0) + n
    return amounts(total)


def production(key: str) -> str:
    if key.startswith("slot"):
        return f"the card in slot {key[4:]}"
    if key.startswith("leader"):
        return f"the production of {leader(int(key[6:]))}"
    return PRODUCTIONS.get(key, words(key))


def describe(events: list[Event], viewer: int | None, *, action: dict[str, Any] | None,
             actor: int | None, names: Mapping[int, str] | None,
             label: Callable[[int], str]) -> list[str]:
    """``action`` (as ``viewer`` may see it) names the leaders its own chooser kept."""
    t = Teller(viewer, names, label)
    return told(_line(t, e, action, actor) for e in events)


def _line(t: Teller, e: Event, action: dict[str, Any] | None,  # noqa: C901 - one per type
          actor: int | None) -> str | None:
    kind, seat = e.get("type"), e.get("seat")
    who = t.who(seat)
    if kind == "leaders_chosen":
        kept = action.get("leaders") if action and action.get("type") == "choose_leaders" \
            and actor == seat == t.viewer else None
        return f"{who} kept {and_list([leader(n) for n in kept])}" if kept \
            else f"{who} kept two leaders"
    if kind == "bonus_resource_taken":
        return f"{who} took a starting {e['resource']} into {depot(e['depot'])}"
    if kind == "game_started":
        first = e.get("first", 0)
        plays = "you play" if first == t.viewer else f"{t.name(first)} plays"
        return f"Set-up is over: {plays} first"
    if kind == "resources_taken":
        got = dict(e.get("pending") or {})
        white = e.get("pending_white") or 0
        extra = f" and {plural(white, 'white marble')} to convert" if white else ""
        return (f"{who} took market {e['line']} {e['index']}: "
                f"{and_list(e.get('marbles', []))} marbles ({amounts(got)} to place{extra})")
    if kind == "white_marble_converted":
        return f"{who} turned a white marble into a {e['resource']}"
    if kind == "resource_placed":
        return f"{who} put a {e['resource']} in {depot(e['depot'])}"
    if kind == "resource_discarded":
        return f"{who} discarded a {e['resource']}: everyone else gains 1 faith"
    if kind == "depots_swapped":
        return f"{who} swapped depots {e['first']} and {e['second']}"
    if kind == "resources_moved":
        return (f"{who} moved {plural(e['count'], e['resource'])} from {depot(e['source'])} "
                f"to {depot(e['target'])}")
    if kind == "card_bought":
        return (f"{who} bought {card(e.get('card'), e.get('level'), e.get('color'))} into slot "
                f"{e['slot']}, paying {paid(e.get('paid'))}")
    if kind == "production_run":
        faith = f" and {plural(e['faith'], 'faith point')}" if e.get("faith") else ""
        return (f"{who} ran {production(e['production'])}: paid {paid(e.get('paid'))}, "
                f"gained {amounts(e.get('gained') or {})}{faith}")
    if kind == "leader_activated":
        return f"{who} activated {leader(e['leader'])}"
    if kind == "leader_discarded":
        named = leader(e["leader"]) if "leader" in e else "a leader"
        return f"{who} discarded {named} and gained 1 faith"
    if kind == "faith_moved":
        mover = "Lorenzo" if e.get("lorenzo") else who
        return f"{mover} moved to space {e['to']} of the faith track"
    if kind == "vatican_report":
        flipped = [t.them(s) for s in e.get("flipped", [])]
        turned = f"favour tile turned face up for {and_list(flipped)}" if flipped \
            else "nobody turned a favour tile up"
        return f"Vatican report {e['report']}: {turned}"
    if kind == "token_revealed":
        if e.get("color"):
            cards = plural(len(e.get("removed", [])), f"{e['color']} card")
            return f"Lorenzo's token: he discarded {cards} from the grid"
        shuffle = ", then shuffled his tokens" if e.get("shuffle") else ""
        steps = plural(e.get("steps", 0), "space")
        return f"Lorenzo's token: his black cross moves {steps}{shuffle}"
    if kind == "last_round_triggered":
        why = REASONS.get(e.get("reason", ""), words(e.get("reason", "")))
        return f"Last round: {why} ({t.them(seat)})"
    if kind == "game_ended":
        why = REASONS.get(e.get("reason", ""), words(e.get("reason", "")))
        winners = list(e.get("winners") or [])
        head = ("Draw between " + and_list([t.name(s) for s in winners])) if e.get("draw") \
            else ("Lorenzo wins" if not winners and e.get("reason", "").startswith("lorenzo")
                  else t.wins(winners))
        scores = e.get("scores") or []
        points = "; points: " + ", ".join(f"{t.them(s)} {p}" for s, p in enumerate(scores)) \
            if scores else ""
        return f"{head}: {why}{points}"
    if kind == "turn_ended":
        return f"{who} ended {'your' if seat == t.viewer else 'their'} turn"
    return None  # turn_started: the status line says whose turn it is


def outcome_events(outcome: dict[str, Any]) -> list[Event]:
    """The outcome as the event that told it (``Game.outcome_events``)."""
    return [{"type": "game_ended", "reason": outcome.get("reason", ""),
             "winners": list(outcome.get("winners") or []), "draw": bool(outcome.get("draw")),
             "scores": list((outcome.get("detail") or {}).get("scores") or [])}]
