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
from eriantys_g27_client import GOLDEN, frame_shapes  # noqa: E402

#: shapes the recordings cannot hold, each read as the recorded shape it stands for: no draw was
#: recorded (GAMEDRAW carries a Player[] as GAMEWINNERTEAM does), no 4-player normal game (its
#: players are "team"), no Thief (its REDUCIBLECOLOR is a Color[] as COLORARRAY), no Princess,
#: Merchant or Standard Bearer request (their keys are those of the recorded Monk and Herbalist)
ALIASES = {"GAMEDRAW": "GAMEWINNERTEAM", "=team": "=teamExpert",
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
#: index of Mother Nature's island
INFOMAP = ".value.value$.infomap"
EXTRA = {
    "SENDINFO": [[INFOMAP, "=" + keys] for keys in (
        "CHARACTERCARDARRAY,DININGROOMARRAY", "CHARACTERCARDARRAY,DININGROOMARRAY,GLOBALPROFESSORTABLE",
        "GLOBALPROFESSORTABLE", "DININGROOMARRAY", "CHARACTERCARDARRAY,ISLANDARRAY,MOTHERNATURE")],
    "INFOMAP:PLAYERARRAY": [["$.players[].player$.assistantDeck$.assistantDeck[]", "empty"]],
    "INFOMAP:GLOBALPROFESSORTABLE": [
        ["$.professorLocations$.players[].player$.assistantDeck$.assistantDeck[]", "empty"]],
    "INFOMAP:MODEL": [["$.characterCards$.characterCards[].card$.students$.colors[]", "str"]],
    "GAMEWINNER": [[".value.value$.assistantDeck$.assistantDeck[]", "empty"]],
    "GAMEWINNERTEAM": [[".value.value$.players[].player$.assistantDeck$.assistantDeck[]", "empty"]],
}


def build(folder: Path) -> dict[str, object]:
    groups: dict[str, set[tuple[str, str]]] = {}
    for path in sorted(folder.glob("original-*.jsonl.gz")):
        for line in gzip.open(path, "rt"):
            record = json.loads(line)
            if record.get("dir") != "S>C":
                continue
            for group, paths in frame_shapes(record["text"]).items():
                groups.setdefault(group, set()).update(paths)
    for group, extra in EXTRA.items():
        groups[group].update((path, kind) for path, kind in extra)
    return {"groups": {k: sorted(v) for k, v in sorted(groups.items())}, "aliases": ALIASES}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(build(Path(sys.argv[1])), indent=1) + "\n")
