"""What the original g13 wire (Java serialization) costs per message, timed in-process.

At the start of a seeded 2- and 4-player expert game: writing the largest answer the server
sends (``AnsAskCAMsg``: the whole board, players and character cards) from a seat's view, its
size, and reading it back; and reading one recorded client command (``MoveStudent1Msg``)
through the dialect's framer into the conversation's line.

    python benchmarks/g13_java_codec.py
"""

from __future__ import annotations

import timeit
import uuid

from service.games.registry import get_game
from service.protocol import eriantys_g13_java as javawire
from service.protocol.eriantys_g13_java_classes import G, REGISTRY
from service.protocol.javaser import MAGIC, JEnum, JObject, StreamReader
from service.protocol.javaser_writer import StreamWriter


def per_call_us(function: object, number: int) -> float:
    return 1e6 * min(timeit.repeat(function, number=number, repeat=5)) / number  # type: ignore[arg-type]


def main() -> None:
    game = get_game("eriantys")
    for seats in (2, 4):
        options = game.options_model.model_validate({"expert": True})
        view = game.view(game.setup(seats, options, seed=7), 0)
        nicks = [f"player{s}" for s in range(seats)]
        parent = str(uuid.uuid4())
        frame = javawire.render("AnsAskCAMsg", parent, view, nicks, 0, {}).encode("latin-1")
        write = per_call_us(lambda: javawire.render("AnsAskCAMsg", parent, view, nicks, 0, {}), 200)
        read = per_call_us(lambda: StreamReader(REGISTRY).feed(MAGIC + frame), 200)
        print(f"{seats} players: AnsAskCAMsg {len(frame)} bytes, written from the view in "
              f"{write:.0f} us, read back in {read:.0f} us")
    command = StreamWriter(REGISTRY).message(JObject(G + "MoveStudent1Msg", {
        "identifier": uuid.uuid4(), "l": 123, "s": JEnum("it.polimi.ingsw.Model.Color", "Red")}))
    framed = per_call_us(lambda: javawire.JavaFramer().feed(MAGIC + command), 2000)
    print(f"MoveStudent1Msg {len(command)} bytes, read into the conversation's line in "
          f"{framed:.0f} us")


if __name__ == "__main__":
    main()
