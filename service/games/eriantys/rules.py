"""Core mechanics shared by actions and characters: dining, professors, influence, rounds."""

from __future__ import annotations

from typing import Any

from service.games.eriantys.constants import (
    ASSISTANT_MOVES, COIN_SEATS, COLOURS, TEAM_COLOURS,
)
from service.games.eriantys.state import Group, State, draw

Events = list[dict[str, Any]]


# --- dining room and professors -------------------------------------------------


def seat_student(state: State, seat: int, colour: int, events: Events) -> None:
    """Put a student in ``seat``'s dining room (caller checked the row), then coin and professor."""
    dining = state.players[seat].dining
    dining[colour] += 1
    if state.expert and dining[colour] in COIN_SEATS and state.reserve > 0:
        state.reserve -= 1
        state.players[seat].coins += 1
        events.append({"type": "coin_gained", "seat": seat})
    update_professor(state, colour, seat, events)


def update_professor(state: State, colour: int, actor: int, events: Events) -> None:
    """Re-check one professor after dining counts of ``colour`` changed on ``actor``'s turn."""
    counts = [p.dining[colour] for p in state.players]
    holder = state.professors[colour]
    if holder >= 0:
        top = max(counts)
        if counts[holder] == 0 and top == 0:
            _give(state, colour, -1, events)
            holder = -1
        elif counts[holder] < top:
            holder = counts.index(top)  # rule 10.4: first seat among the tied leaders
            _give(state, colour, holder, events)
    if holder == actor or counts[actor] == 0:
        return
    others = max(c for s, c in enumerate(counts) if s != actor)
    farmer = state.character_used == "farmer"
    if counts[actor] > others or (farmer and counts[actor] >= others):
        _give(state, colour, actor, events)


def _give(state: State, colour: int, seat: int, events: Events) -> None:
    previous = state.professors[colour]
    state.professors[colour] = seat
    if seat < 0:
        events.append({"type": "professor_returned", "color": COLOURS[colour], "from": previous})
    else:
        events.append({"type": "professor_taken", "seat": seat, "color": COLOURS[colour],
                       "from": previous if previous >= 0 else None})


# --- influence, towers, merging --------------------------------------------------


def influence(state: State, group: Group, actor: int) -> list[int]:
    """Influence of every team on ``group`` with the acting player's character modifiers."""
    scores = [0] * state.params.teams
    used = state.character_used
    ignored = state.mushroom if used == "mushroom_hunter" else -1
    for colour in range(5):
        holder = state.professors[colour]
        if holder >= 0 and colour != ignored:
            scores[state.team(holder)] += group.students[colour]
    if group.team >= 0 and used != "centaur":
        scores[group.team] += group.towers
    if used == "knight":
        scores[state.team(actor)] += 2
    return scores


def resolve(state: State, index: int, actor: int, events: Events) -> None:
    """Resolve a group as if Mother Nature stopped there (also the Herald)."""
    group = state.groups[index]
    if group.no_entry > 0:
        group.no_entry -= 1
        for card in state.characters:
            if card.key == "grandma_herbs":
                card.no_entry += 1
        events.append({"type": "no_entry_returned", "island": index})
        return
    scores = influence(state, group, actor)
    top = max(scores)
    if scores.count(top) != 1:
        return
    winner = scores.index(top)
    if winner == group.team:
        return
    _place_towers(state, index, winner, events)
    if state.towers[winner] == 0:
        merge(state, index, events)
        end_game(state, "last_tower", events, winner_team=winner)
        return
    merge(state, index, events)
    if len(state.groups) <= 3:
        end_game(state, "three_groups", events)


def _place_towers(state: State, index: int, team: int, events: Events) -> None:
    group = state.groups[index]
    if group.team >= 0:
        state.towers[group.team] += group.towers
        events.append({"type": "towers_returned", "team": group.team, "island": index,
                       "count": group.towers})
    count = min(len(group.tiles), state.towers[team])  # rule 10.7: place what you have
    state.towers[team] -= count
    group.towers = count
    group.team = team
    events.append({"type": "tower_placed", "team": team, "tower": TEAM_COLOURS[team],
                   "island": index, "count": count})


def merge(state: State, index: int, events: Events) -> None:
    """Join the neighbours of group ``index`` that hold towers of the same team."""
    groups = state.groups
    n = len(groups)
    centre = groups[index]
    left, right = groups[(index - 1) % n], groups[(index + 1) % n]
    joined = [g for g in (left, right) if g is not centre and g.team == centre.team]
    if len(joined) == 2 and left is right:
        joined = [left]
    if not joined:
        return
    mn_group = groups[state.mother_nature]
    for g in joined:
        for c in range(5):
            centre.students[c] += g.students[c]
        centre.towers += g.towers
        centre.no_entry += g.no_entry
    tiles = (left.tiles if left in joined else []) + centre.tiles
    centre.tiles = tiles + (right.tiles if right in joined and right is not left else [])
    state.groups = [g for g in groups if not any(g is j for j in joined)]
    new_index = next(i for i, g in enumerate(state.groups) if g is centre)
    if any(mn_group is j for j in joined):
        mn_group = centre
    state.mother_nature = next(i for i, g in enumerate(state.groups) if g is mn_group)
    events.append({"type": "islands_merged", "island": new_index, "tiles": list(centre.tiles),
                   "groups": len(state.groups)})


# --- end of the game ---------------------------------------------------------------


def team_seats(state: State, team: int) -> list[int]:
    return [s for s in range(state.seats) if state.team(s) == team]


def end_game(state: State, reason: str, events: Events, winner_team: int = -1) -> None:
    state.phase = "over"
    state.end_reason = reason
    if winner_team >= 0:
        teams = [winner_team]
    else:
        teams = ranking_leaders(state)
    state.winners = sorted(s for t in teams for s in team_seats(state, t))
    state.draw = len(teams) > 1
    events.append({"type": "game_ended", "reason": reason, "winners": list(state.winners),
                   "draw": state.draw})


def ranking_leaders(state: State) -> list[int]:
    """Teams with the most towers placed, then the most professors (several = a draw)."""
    start = state.params.towers
    keys = []
    for team in range(state.params.teams):
        profs = sum(1 for h in state.professors if h >= 0 and state.team(h) == team)
        keys.append((start - state.towers[team], profs))
    best = max(keys)
    return [t for t, k in enumerate(keys) if k == best]


# --- rounds and turns --------------------------------------------------------------


def max_steps(state: State, seat: int) -> int:
    bonus = 2 if state.character_used == "magic_mailman" else 0
    return ASSISTANT_MOVES[state.played[seat]] + bonus


def start_round(state: State, events: Events) -> None:
    """Refill the clouds in order (partially when the bag runs short) and open planning."""
    per = state.params.per_cloud
    for cloud in state.clouds:
        for _ in range(per):
            colour = draw(state)
            if colour < 0:
                state.last_round = True
                break
            cloud[colour] += 1
    state.clouds_taken = [False] * len(state.clouds)
    n = state.seats
    state.planning_order = [(state.first_player + i) % n for i in range(n)]
    state.played = [0] * n
    state.phase = "planning"
    events.append({"type": "round_started", "round": state.round,
                   "first_player": state.first_player, "last_round": state.last_round})


def begin_actions(state: State) -> None:
    order = sorted(state.planning_order, key=lambda s: state.played[s])  # stable: first wins ties
    state.action_order = order
    state.turn = 0
    state.phase = "action"
    reset_turn(state)


def reset_turn(state: State) -> None:
    state.moved = 0
    state.mn_moved = False
    state.character_used = ""
    state.mushroom = -1


def finish_turn(state: State, events: Events) -> None:
    seat = state.action_order[state.turn]
    events.append({"type": "turn_ended", "seat": seat})
    state.turn += 1
    reset_turn(state)
    if state.turn < len(state.action_order):
        return
    if state.last_round:
        end_game(state, "bag_empty", events)
    elif any(not p.hand for p in state.players):
        end_game(state, "no_assistants", events)
    else:
        state.first_player = state.action_order[0]
        state.round += 1
        start_round(state, events)


def cloud_available(state: State) -> bool:
    return any(not taken and sum(cloud) > 0
               for cloud, taken in zip(state.clouds, state.clouds_taken))


def students_to_move(state: State, seat: int) -> int:
    """Students still to move this turn (fewer only when the entrance is short)."""
    left = state.params.moves - state.moved
    return min(left, sum(state.players[seat].entrance))
