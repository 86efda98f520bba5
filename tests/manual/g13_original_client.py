"""Play the group-13 *original* CLI client against Tavolo (a manual check, not run by CI).

Needs a JDK (17), JavaFX 11 (Debian: ``apt-get install openjfx``) and the original's classes,
compiled from LorenzoForgia/ing-sw-2022-Forgia-Falasca-Ferreri @ dee7429 (``src/main``):

    javac --release 11 -d OUT --module-path /usr/share/openjfx/lib \\
          --add-modules javafx.controls,javafx.fxml -cp "/usr/share/openjfx/lib/*" $(find src/main -name '*.java')
    G13_CLASSES=OUT:src/main/resources python tests/manual/g13_original_client.py 3 true

It starts a Tavolo server process (fresh SQLite), then PLAYERS original clients, and answers
their prompts from cycles of plausible inputs (colours, "sala", small step counts, clouds 0..3,
assistants in turn; "no" to character cards unless CC=si), until every client prints the end of
the game. KILL_AT=N SIGKILLs the second client after N inputs and starts it again with the same
nickname (add KILL_SERVER=1 to SIGKILL and restart the server and every client). The whole
console goes to ``g13-original-PLAYERS-EXPERT.log``.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from service.tools.process import ServerProcess  # noqa: E402

FX = os.environ.get("JAVAFX_LIB", "/usr/share/openjfx/lib")
CLASSPATH = f"{os.environ.get('G13_CLASSES', 'out')}:{FX}/*"
NAME = "eriantys-g13-java"
COLOURS = ["Green", "Red", "Yellow", "Pink", "Blue"]
CARDS = ["Uno", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette", "Otto", "Nove", "Dieci"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Driver:
    """One original client process and the answers typed into it."""

    def __init__(self, name: str, port: int, players: int, expert: str, first: int,
                 log: Any) -> None:
        self.name, self.port, self.players, self.expert = name, port, players, expert
        self.log, self.card = log, first
        self.colour = itertools.cycle(COLOURS)
        self.cloud = itertools.cycle(["0", "1", "2", "3"])
        self.steps = itertools.cycle(["1", "1", "2", "1", "3"])
        self.island = itertools.cycle(["1", "2", "3", "0"])
        self.cc_number = itertools.cycle([str(n) for n in range(1, 13)])
        self.coins, self.cards = 0, []  # type: tuple[int, list[tuple[int, int]]]
        self.last: str | None = None
        self.done, self.inputs = False, 0
        self.proc: asyncio.subprocess.Process | None = None

    def see(self, line: str) -> None:
        """Remember the coins and the character cards the board shows."""
        if found := re.search(r"Monete spendibili:(\d+)", line):
            self.coins, self.cards = int(found.group(1)), []
        if found := re.search(r"CARTA PERSONAGGIO:(\d+)\s+Costo:(\d+)", line):
            self.cards.append((int(found.group(1)), int(found.group(2))))

    def affordable(self) -> list[str]:
        """Cards surely affordable (one coin more than printed, in case they were used)."""
        return [str(n) for n, cost in self.cards if cost + 1 <= self.coins]

    def answer(self, line: str) -> str | None:  # noqa: C901 (one prompt table)
        if line.startswith("|"):
            self.see(line)
            return None  # a picture, not a prompt
        low = line.lower()
        table = [
            ("digitare GUI", "cli"), ("Digitare indirizzo IP", "127.0.0.1"),
            ("Digitare numero di Porta", str(self.port)), ("Inserisci il tuo nickname", self.name),
            ("numero di giocatori", str(self.players)), ("odalità esperta", self.expert),
        ]
        for prompt, reply in table:
            if prompt in line:
                return reply
        if "carta assistente valida" in line or "Gioca una carta assistente" in line:
            self.card += 1
            return CARDS[self.card % 10]
        if "Vuoi giocare una carta personaggio" in line:
            # the original client takes no "no" back after a card it cannot play: say "si"
            # only for a card surely affordable
            return "si" if os.environ.get("CC") == "si" and self.affordable() else "no"
        if "numero della carta personaggio" in line or "non è sul tavolo" in line or (
                "monete" in line and "Riprova" in line):
            return (self.affordable() or [next(self.cc_number)])[0]
        if "sala/isola" in line:
            return "sala" if next(self.steps) != "3" else "isola"
        if "Su quale isola" in line or "numero dell'isola" in line:
            return next(self.island)
        if "colore" in low and ("scegli" in low or "invalido" in line or "Errore" in line) or (
                "Scegli lo studente" in line):
            return next(self.colour)
        if "quanti passi di madre natura" in low or "Numero passi invalido" in line:
            return next(self.steps)
        if "numero della nuvola" in line or "Numero nuvola invalido" in line:
            return next(self.cloud)
        if "quanti studenti" in low:
            return "1"
        if "Errore: Inserire numero corretto" in line or "Riprova" in line:
            return self.answer(self.last) if self.last and self.last != line else None
        return None

    async def run(self) -> None:
        self.proc = proc = await asyncio.create_subprocess_exec(
            "java", "-cp", CLASSPATH, "it.polimi.ingsw.Client.Client",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        assert proc.stdout is not None and proc.stdin is not None
        while raw := await proc.stdout.readline():
            line = ANSI.sub("", raw.decode(errors="replace")).rstrip()
            self.log.write(f"[{self.name}] {line}\n")
            self.done = self.done or "Il gioco è terminato" in line
            reply = self.answer(line)
            if reply is not None:
                self.last, self.inputs = line, self.inputs + 1
                self.log.write(f"[{self.name}] >>> {reply}\n")
                proc.stdin.write((reply + "\n").encode())
                await proc.stdin.drain()
        self.log.write(f"[{self.name}] EOF rc={await proc.wait()}\n")


async def main(players: int, expert: str) -> bool:
    database = f"sqlite+aiosqlite:///{Path.cwd()}/g13-original-{time.time_ns()}.db"
    server = await ServerProcess(database, dialects=(NAME,)).start()
    port = server.ports[NAME]
    log = open(f"g13-original-{players}-{expert}.log", "w", buffering=1)
    drivers = [Driver(f"orig{i}", port, players, expert, 3 * i, log) for i in range(players)]
    tasks = []
    try:
        for driver in drivers:
            tasks.append(asyncio.create_task(driver.run()))
            await asyncio.sleep(3.0 if driver is drivers[0] else 1.5)
        deadline = time.time() + float(os.environ.get("LIMIT", "300"))
        kill_at = int(os.environ.get("KILL_AT", "0"))
        while time.time() < deadline and not all(d.done for d in drivers):
            await asyncio.sleep(0.2)
            if kill_at and drivers[1].inputs >= kill_at:
                kill_at = 0
                port = await kill_and_restart(server, drivers, players, expert, log, tasks, port)
        return all(d.done for d in drivers)
    finally:
        print("every client saw the end:", [d.done for d in drivers],
              "inputs:", [d.inputs for d in drivers])
        for driver in drivers:
            if driver.proc is not None and driver.proc.returncode is None:
                driver.proc.kill()
        await server.kill()


async def kill_and_restart(server: ServerProcess, drivers: list[Driver], players: int,
                           expert: str, log: Any, tasks: list[Any], port: int) -> int:
    everyone = os.environ.get("KILL_SERVER") == "1"
    victims = list(drivers) if everyone else [drivers[1]]
    for victim in victims:
        assert victim.proc is not None
        victim.proc.kill()
        await victim.proc.wait()
        log.write(f"*** {victim.name} SIGKILLed after {victim.inputs} inputs\n")
    if everyone:
        await server.kill()
        await server.start()
        port = server.ports[NAME]
        log.write(f"*** server SIGKILLed and started again on port {port}\n")
    for i, victim in enumerate(list(drivers)):
        if victim in victims:
            drivers[i] = Driver(victim.name, port, players, expert, victim.card, log)
            tasks.append(asyncio.create_task(drivers[i].run()))
            await asyncio.sleep(1.0)
    return port


if __name__ == "__main__":
    sys.exit(0 if asyncio.run(main(int(sys.argv[1]), sys.argv[2])) else 1)
