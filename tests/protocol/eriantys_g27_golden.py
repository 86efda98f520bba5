"""Build ``test_eriantys_g27_golden.json``: the shapes the original group-27 server sent.

Run ``python tests/protocol/eriantys_g27_golden.py DIR`` with DIR holding the recorded original
conversations (``original-*.jsonl.gz``, one JSON object per line; ``text`` is a frame). Every
server frame is cut into (path, type) pairs by ``eriantys_g27_client.frame_shapes``; the file keeps
their union per message kind and per InfoMap key, and the aliases for what the recordings lack.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from eriantys_g27_client import GOLDEN, frame_shapes, moment  # noqa: E402

#: shapes the recordings cannot hold, each read as the recorded shape it stands for: no 4-player
#: normal game (its players are "team"), no Thief (its REDUCIBLECOLOR is a Color[] as COLORARRAY), no Princess,
#: Merchant or Standard Bearer request (their keys are those of the recorded Monk and Herbalist)
ALIASES = {"=team": "=teamExpert",
           "INFOMAP:REDUCIBLECOLOR": "INFOMAP:COLORARRAY",
           "=CARDSTUDENTS,CHARACTERCARDPOSITION,CHARACTERVALUE":
           "=CARDSTUDENTS,CHARACTERCARDPOSITION,CHARACTERVALUE,ISLANDARRAY",
           "=CHARACTERVALUE,COLORARRAY": "=CHARACTERVALUE,ISLANDARRAY",
           "=CHARACTERVALUE,REDUCIBLECOLOR": "=CHARACTERVALUE,ISLANDARRAY"}


#: shapes the recordings do not hold because no recorded game reached that moment, added by hand:
#: a character's students in a MODEL sent after the start (recorded MODELs were sent before the
#: cards were filled), and a winner whose assistant deck is empty (no recorded game ended on the
#: last assistant), and the SENDINFOs of effects no recorded game played: the Princess (her card
#: refilled, a student seated), the Farmer, the Thief, and a Standard Bearer whose merge moves the
#: index of Mother Nature's island; and a SENDINFO too big for a frame (the original's own came
#: within 9 KB of the limit), which goes as two: the biggest value alone after the rest
INFOMAP = ".value.value$.infomap"
SPLIT = ("COINPOOL,DININGROOMARRAY,ENTRANCEARRAY,GLOBALPROFESSORTABLE", "ENTRANCEARRAY")
EXTRA = {
    "SENDINFO": [[INFOMAP, "=" + keys] for keys in (
        "CHARACTERCARDARRAY,DININGROOMARRAY", "CHARACTERCARDARRAY,DININGROOMARRAY,GLOBALPROFESSORTABLE",
        "GLOBALPROFESSORTABLE", "DININGROOMARRAY", "CHARACTERCARDARRAY,ISLANDARRAY,MOTHERNATURE",
        *SPLIT)],
    "INFOMAP:PLAYERARRAY": [["$.players[].player$.assistantDeck$.assistantDeck[]", "empty"]],
    "INFOMAP:GLOBALPROFESSORTABLE": [
        ["$.professorLocations$.players[].player$.assistantDeck$.assistantDeck[]", "empty"]],
    "INFOMAP:MODEL": [["$.characterCards$.characterCards[].card$.students$.colors[]", "str"]],
    "GAMEWINNER": [[".value.value$.assistantDeck$.assistantDeck[]", "empty"]],
    "GAMEWINNERTEAM": [[".value.value$.players[].player$.assistantDeck$.assistantDeck[]", "empty"]],
}


#: what Tavolo answers differently at a moment, and why (see docs/protocols/eriantys-g27.md)
REPLIES = {
    "C RESPONSEACTION CHOSENCHARACTER -> S REQUESTACTION CHARACTERCARDEFFECT":
        "Tavolo plays a character in one action: the payment is shown with its effect",
    "C RESPONSEACTION CHOSENFIELDSMAP -> S SENDINFO CHARACTERCARDARRAY,COINPOOL,PLAYERARRAY":
        "the same: the payment, then the effect, once the last answer is in",
    "C RESPONSEACTION SELECTEDCLOUD -> S REQUESTACTION ENDTURN":
        "while a character may still be played the cloud is taken with ENDTHISTURN",
    "C RESPONSEACTION ENDTHISTURN -> S SENDINFO CLOUDARRAY,ENTRANCE":
        "the same: the cloud taken with the end of the turn",
    "C RESPONSEACTION ENDTHISTURN -> S GAMEWINNER":
        "no recorded game ended on a turn's end; a last turn whose end changes nothing "
        "shown is followed by the result at once",
    "C RESPONSEACTION ENDTHISTURN -> S GAMEWINNERTEAM":
        "no recorded game ended on a turn's end; a last turn whose end changes nothing "
        "shown is followed by the result at once",
    "C RESPONSEACTION ENDTHISTURN -> S GAMEDRAW":
        "no recorded game ended on a turn's end; a last turn whose end changes nothing "
        "shown is followed by the result at once",
}


def replies(lines: list[tuple[str, str, str]]) -> set[str]:
    """``C x -> S y``: what a player was sent right after each of its answers."""
    out = set()
    for (who, kind, _), (who2, next_kind, _) in zip(lines, lines[1:]):
        if who == who2 and kind.startswith("C ") and next_kind.startswith("S "):
            out.add(f"{kind} -> {next_kind}")
    return out


def draw(players: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """No draw was recorded: GAMEDRAW carries a ``Player[]`` as PLAYERARRAY's value does."""
    body = {(".value.value" + path, kind) for path, kind in players}
    return body | {(".type", "=GAMEDRAW"), (".value.type", "=[Lit.polimi.ingsw.common.model.Player;")}


def build(folder: Path) -> dict[str, object]:
    groups: dict[str, set[tuple[str, str]]] = {}
    answered: set[str] = set()
    for path in sorted(folder.glob("original-*.jsonl.gz")):
        streams: dict[str, list[tuple[str, str, str]]] = {}
        for line in gzip.open(path, "rt"):
            record = json.loads(line)
            text = record.get("text")
            if text is None or json.loads(text)["type"] in ("PING", "PONG"):
                continue
            kind = moment(text, record["dir"][0])
            streams.setdefault(record["who"], []).append((record["who"], kind, text))
            if record["dir"] == "S>C":
                for group, paths in frame_shapes(text).items():
                    groups.setdefault(group, set()).update(paths)
        for lines in streams.values():
            answered |= replies(lines)
    for group, extra in EXTRA.items():
        groups[group].update((path, kind) for path, kind in extra)
    groups["GAMEDRAW"] = draw(groups["INFOMAP:PLAYERARRAY"])
    return {"groups": {k: sorted(v) for k, v in sorted(groups.items())}, "aliases": ALIASES,
            "replies": sorted(answered), "reply_differences": REPLIES}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(build(Path(sys.argv[1])), indent=1) + "\n")
