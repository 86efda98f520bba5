"""The recorded streams of the original g13 game (``protocol/g13_java_recordings``, from
``shared/reference/g13/recordings``) and what tests compare with them: every object's
value shapes, and which answer class each command class got."""

from __future__ import annotations

import gzip
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

from service.protocol.eriantys_g13_java_classes import G, REGISTRY
from service.protocol.javaser import JEnum, JObject, StreamReader

RECORDINGS = Path(__file__).parent / "protocol" / "g13_java_recordings"
Shapes = dict[tuple[str, str], set[str]]


def recording_files() -> list[Path]:
    return sorted(RECORDINGS.glob("*/*.bin.gz"))


def read_objects(path: Path) -> list[Any]:
    return StreamReader(REGISTRY).feed(gzip.open(path).read())


def kinds(value: Any) -> set[str]:
    """What a value is, as a set of shape words (a list: every kind of item it holds)."""
    if value is None:
        return {"null"}
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"int"}
    if isinstance(value, str):
        return {"String"}
    if isinstance(value, (JEnum, JObject)):
        return {value.cls}
    if isinstance(value, list):
        return {"ArrayList"} | {f"ArrayList<{k}>" for item in value for k in kinds(item)}
    return {type(value).__name__}


def collect(value: Any, into: Shapes, seen: set[int] | None = None) -> Shapes:
    """(class, field) -> the kinds of value it held, over every object reachable."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return into
    if isinstance(value, JObject):
        seen.add(id(value))
        for name, item in value.fields.items():
            into.setdefault((value.cls, name), set()).update(kinds(item))
            collect(item, into, seen)
    elif isinstance(value, list):
        for item in value:
            collect(item, into, seen)
    return into


@cache
def recorded_shapes() -> Shapes:
    shapes: Shapes = {}
    for path in recording_files():
        for obj in read_objects(path):
            collect(obj, shapes)
    return shapes


@cache
def recorded_pairs() -> set[tuple[str, str]]:
    """(command class, answer class) for every recorded answer to a command."""
    pairs: set[tuple[str, str]] = set()
    for c2s in RECORDINGS.glob("*/*.c2s.bin.gz"):
        commands = {str(o["identifier"]): o.cls for o in read_objects(c2s)}
        s2c = c2s.with_name(c2s.name.replace("c2s", "s2c"))
        for answer in read_objects(s2c):
            command = commands.get(str(answer["parentIdentifier"]))
            if command is not None:
                pairs.add((command[len(G):], answer.cls[len(G):]))
    return pairs


def shape_mismatches(objects: list[Any]) -> list[str]:
    """Where objects hold a kind of value the recordings never showed for that field."""
    ours: Shapes = {}
    for obj in objects:
        collect(obj, ours)
    recorded = recorded_shapes()
    out = []
    for (cls, name), found in sorted(ours.items()):
        seen = set().union(*(recorded.get((c, name), set()) for c in siblings(cls)))
        if seen:
            extra = {general(k) for k in found} - {general(k) for k in seen}
            out.extend(f"{cls}.{name}: {k}" for k in sorted(extra))
    return out


def siblings(cls: str) -> list[str]:
    """Classes with the same superclass and fields as ``cls`` (AnsMoveStudent1..4Msg and
    AnsAskCAMsg; AnsColorExcN; ...): what one of them held, the others may."""
    spec = REGISTRY.specs[cls]
    return [s.name for s in REGISTRY.specs.values()
            if (s.superclass, s.fields) == (spec.superclass, spec.fields)]


def general(kind: str) -> str:
    """A kind with each class named by its topmost serializable superclass (CharacterCard10
    -> CharacterCard): the recorded games drew only some of the twelve cards."""
    inner = kind[len("ArrayList<"):-1] if kind.startswith("ArrayList<") else None
    if inner is not None:
        return f"ArrayList<{general(inner)}>"
    chain = REGISTRY.chain(kind)
    return chain[0].name if chain and chain[0].name.startswith("it.") else kind


def by_class(pairs: Any) -> dict[str, set[str]]:
    grouped: dict[str, set[str]] = defaultdict(set)
    for command, answer in pairs:
        grouped[command].add(answer)
    return grouped


def recorded_first_turn(scenario: str) -> JObject:
    """The first AnsFirstPlayerTurnMsg of a recorded game (sent to the first chooser)."""
    for path in sorted((RECORDINGS / scenario).glob("*.s2c.bin.gz")):
        for obj in read_objects(path):
            if obj.cls == G + "AnsFirstPlayerTurnMsg" and obj["CAplayed"] == []:
                return obj
    raise LookupError(scenario)


def start_facts(answer: JObject) -> dict[str, Any]:
    """What an AnsFirstPlayerTurnMsg at the start of a game says that chance does not decide:
    every island, school board, player and deck value but which students lie where."""
    islands, boards, players = answer["is"], answer["sb"], answer["pl"]
    return {
        "islands": [(i["NumberID"], i["size"], i["Tower"], i["ColTower"], i["NumberOfNet"],
                     i["NoEntryTiles"]) for i in islands],
        "mother nature": sum(i["MotherNature"] for i in islands),
        "students per island": sorted(len(i["StudentsInIsland"]) for i in islands),
        "boards": sorted((b["NumberId"], b["NumberOfTower"], b["Student"], len(b["Entrance"]),
                          b["ProfessorTable"], b["colorTower"].name, b["diningRoom"]["DiningRoom"])
                         for b in boards),
        "players": sorted((p["NumberCoins"], p["Turn"], p["nameCharacterCard"],
                           p["turnToPlayCardAssistant"], p["usedCharacterCard"], p["CA"],
                           [c.name for c in p["MyDeck"]["Cards"]],
                           p["MySchoolBoard"] is boards[p["MySchoolBoard"]["NumberId"]])
                          for p in players),
        "deck": [c.name for c in answer["dca"]["Cards"]], "played": answer["CAplayed"],
    }
