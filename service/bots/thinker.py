"""Thinking off the event loop: bots choose their moves in worker processes, within a budget.

A move that is not chosen in time (or whose worker failed) is replaced by a random legal
one, chosen on the spot, so a bot never holds its match up for longer than its limit.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from service.bots.policies import LEVELS, NoLegalAction, Request, decide
from service.games.registry import all_games
from service.metrics import BOT_FALLBACKS, BOT_THINK_SECONDS, BOT_WORKER_CPU_SECONDS

log = logging.getLogger(__name__)

#: time a worker gets beyond the budget (start-up, a busy machine) before its move is replaced
GRACE = 5.0
#: the budget buys a fixed search (policies.playouts_for) that takes about the budget on one
#: free core, plus the tactical look; a busy machine may take this many times longer
SLACK = 3.0


#: how often a worker checks that the server that started it is still there (s)
PARENT_CHECK = 0.5


def _start_worker(parent: int) -> None:
    """Workers yield the CPU to the server process (acks come before thinking), and end
    when the server is gone, even when it was killed and could not stop them."""
    try:
        os.nice(5)
    except OSError:  # not allowed here: run at the same priority
        pass
    threading.Thread(target=_end_with_parent, args=(parent,), daemon=True,
                     name="parent watch").start()


def _end_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def decide_measured(request: Request) -> tuple[dict[str, Any], float]:
    """``decide`` in a worker, with the CPU seconds the worker's thread spent on it (its own
    count, which the server process cannot see in ``process_cpu_seconds_total``)."""
    started = time.thread_time()
    move = decide(request)
    return move, time.thread_time() - started


def process_pool(workers: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads and sockets
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                               initargs=(os.getpid(),))


class Thinker:
    """Chooses bot moves on an executor: a search of ``budget`` seconds' worth, given
    ``SLACK`` times the budget plus a grace before a random move replaces it."""

    def __init__(self, executor: Executor, *, budget: float, grace: float = GRACE) -> None:
        self.executor = executor
        self.budget = budget
        self.grace = grace
        self._rng = random.Random()

    async def choose(self, game: str, snapshot: dict[str, Any], seat: int, level: str, *,
                     after_idle: bool = False) -> dict[str, Any]:
        """The move of ``seat``; ``after_idle``: its previous one changed nothing that players
        care about, so this one must, when it can (``Request.after_idle``)."""
        request = Request(game=game, snapshot=snapshot, seat=seat, level=level,
                          budget=self.budget, seed=self._rng.getrandbits(63), after_idle=after_idle)
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        try:
            move, cpu = await asyncio.wait_for(
                loop.run_in_executor(self.executor, decide_measured, request),
                SLACK * self.budget + self.grace)
            BOT_WORKER_CPU_SECONDS.labels(game, level).inc(cpu)
            return move
        except (asyncio.CancelledError, NoLegalAction):
            raise  # nothing to play in this position: no random move would find one either
        except Exception as exc:  # timed out, or the worker broke: never stall the match
            reason = "timeout" if isinstance(exc, TimeoutError) else "failed"
            log.warning("bot %s in %s: no move in time (%s); playing a random one",
                        level, game, type(exc).__name__)
            BOT_FALLBACKS.labels(game=game, reason=reason).inc()
            return decide(Request(game, snapshot, seat, "random", 0.0, request.seed))
        finally:
            BOT_THINK_SECONDS.labels(game, level).observe(time.perf_counter() - started)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def known_level(level: str) -> bool:
    return level in LEVELS


def preset_worker_cpu() -> None:
    """Every game's and level's worker CPU series at 0 from the start (as the other bot
    series, gateway/http_metrics.preset_series): a dashboard sees them before a first move."""
    for game in all_games():
        for level in LEVELS:
            BOT_WORKER_CPU_SECONDS.labels(game.name, level)


preset_worker_cpu()
