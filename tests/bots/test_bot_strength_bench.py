"""benchmarks/bot_strength.py's arithmetic and pairing: Wilson intervals, the Elo ladder, the
levels it can pair (the landed mcts kept as old-mcts), and one game of each kind it plays."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from service.bots.policies import LEVEL_SPECS

PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bot_strength.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_strength", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_strength"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_wilson_intervals(bench: ModuleType) -> None:
    low, high = bench.wilson(5, 10)
    assert math.isclose(low, 0.2366, abs_tol=1e-3) and math.isclose(high, 0.7634, abs_tol=1e-3)
    low, high = bench.wilson(10, 10)
    assert math.isclose(low, 0.7225, abs_tol=1e-3) and high == 1.0
    assert bench.wilson(0, 20)[0] == 0.0 and bench.wilson(0, 0) == (0.0, 1.0)
    assert bench.interval(15, 20) == "75 % [53-89]"


def test_the_elo_ladder_orders_and_spaces_the_levels(bench: ModuleType) -> None:
    ratings = bench.elo_ladder({("hard", "random"): (95.0, 100), ("easy", "random"): (75.0, 100),
                                ("hard", "easy"): (75.0, 100)})
    assert ratings["random"] == 0.0
    assert ratings["hard"] > ratings["easy"] > 0
    # 75 % is about 190 Elo; the half win and half loss added to each pair pull a little in
    assert 150 < ratings["easy"] < 230 and 300 < ratings["hard"] < 450
    even = bench.elo_ladder({("a", "random"): (5.0, 10)})
    assert math.isclose(even["a"], 0.0, abs_tol=1e-6)
    swept = bench.elo_ladder({("a", "random"): (10.0, 10)})
    assert math.isfinite(swept["a"]) and swept["a"] > 300


def test_the_levels_it_pairs(bench: ModuleType) -> None:
    assert bench.BENCH_LEVELS == ["random", "easy", "medium", "hard", "old-mcts"]
    assert bench.spec_of("random") is None
    assert bench.spec_of("mcts") == LEVEL_SPECS["hard"]
    old = bench.spec_of("old-mcts")
    assert old.share == LEVEL_SPECS["hard"].share and not old.strong


def test_one_game_a_pair_and_one_solo_game(bench: ModuleType) -> None:
    config = next(c for c in bench.CONFIGS if c.name == "santorini 2p without gods")
    result = bench.play(config, 0, bench.Plan("easy", 0.01, None), bench.Plan("random", 0.0, None))
    assert result.won + result.drawn + result.lost == 1 and result.reason
    assert result.strong_seconds and result.random_seconds
    solo = next(c for c in bench.CONFIGS if c.name == "renaissance solo")
    result = bench.play(solo, 3, bench.Plan("hard", 0.01, None))
    assert result.won + result.lost == 1 and result.reason in (
        "seventh_card", "faith_track", "lorenzo_faith", "lorenzo_cards")
    assert len(result.scores) == 1 and result.scores[0] >= 0


def test_the_puzzle_mode_solves_the_suite_s_positions(bench: ModuleType) -> None:
    labels = [p.label for p in bench.puzzle_suite.all_puzzles()]
    assert "dolphinfox: cross (win)" in labels
    assert bench.solve_one("dolphinfox: cross (win)", "medium", 0, 0.01, None)
    assert bench.solve_one("santorini 2p: dome the three (stop)", "old-mcts", 1, 0.0, 20)
