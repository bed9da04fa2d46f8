"""The engine with the rules compiled in (sim.core.specialise) plays the same games as the general engine.

For the same seed every per-game record must be the same bit for bit, for every family and any rule
configuration, whatever the strategies: both engines run the same kernels' text, one with the rules read at
run time, one with them folded in as constants. Each rule set costs a compile of its own engine, so the
default tier checks a few (the benchmark's podkidnoy among them); the slow tier every family at several
player counts, random configurations from the fuzzer's space, and expert.
"""
from __future__ import annotations

import ast
import random

import numpy as np
import pytest

from rulegen import random_config
from sim.core import specialise
from sim.core.rules import FAMILIES, resolve
from sim.experiments import batch
from sim.experiments.batch import Runner, make_lineup

QUICK = ("greedy", "random")  # compiled into one engine per rule set (Runner(also=...))


def _compare(rules, lineups, also, series=400, deals=2, seed=11):
    """Play every line-up on both engines; return the games compared (asserts they are the same)."""
    games = 0
    for names in lineups:
        seats = make_lineup(rules, names)
        g = Runner(rules, seats, also=also)
        s = Runner(rules, seats, also=also, specialised=True)
        a = g.play_raw(seed, 0, series, deals)
        b = s.play_raw(seed, 0, series, deals)
        assert np.array_equal(a, b), f"{rules.describe()} {names}: the engines disagree"
        games += len(a)
        for k in (0, 7):  # the traces too, action by action
            assert g.trace(seed, k, deals) == s.trace(seed, k, deals)
    return games


def _lineups(rules, names):
    n = rules.num_players
    return [[names[0]], [names[(s % 2)] for s in range(n)]]


@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 2, {}),
    ("perevodnoy", 3, {"proezdnoy": True, "throw_in_after_take": False}),
    ("prostoy_5", 4, {}),
])
def test_same_games(family, n, toggles):
    rules = resolve(family, n, toggles)
    assert _compare(rules, _lineups(rules, QUICK), QUICK) == 2 * 400 * 2


def test_fold_keeps_meaning():
    """The folder replaces rule reads by their values and drops only branches that never run."""
    rv = resolve("podkidnoy", 2).vector()
    src = ("def f(ws):\n"
           "    if _RV[R_MODE] == MODE_PROSTOY:\n        a = 1\n    else:\n        a = 2\n"
           "    b = ws[0] > 0 and _RV[R_POKER] != 0\n"
           "    c = g(ws) and _RV[R_POKER] != 0\n"
           "    d = _RV[R_NPLAYERS] if ws[1] else 0\n"
           "    return a, b, c, d\n")
    out = specialise.fold(src, rv)
    tree = ast.parse(out)
    text = ast.unparse(tree)
    assert "MODE_PROSTOY" not in text and "a = 2" in text and "a = 1" not in text
    assert "b = False" in text  # a pure truth value and a rule that is off
    assert "g(ws) and False" in text  # a call before the constant is kept (it has effects)
    assert "d = 2 if ws[1] else 0" in text


def test_choice_says_why(monkeypatch):
    rules = resolve("podkidnoy", 2)
    seats = make_lineup(rules, ["greedy"])
    monkeypatch.setenv("DURAK_ENGINE", "general")
    assert batch.engine_choice(rules, seats, 10**9) == (False, "general engine, as asked")
    monkeypatch.delenv("DURAK_ENGINE")
    spec, why = batch.engine_choice(rules, seats, batch.SPECIALISE_GAMES, engine="auto")
    assert spec and why.startswith("specialised engine: ")
    with pytest.raises(batch.ExperimentError):
        batch.engine_choice(rules, seats, 10, engine="fast")


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("n", [2, 3, 5])
def test_same_games_families(family, n):
    rules = resolve(family, n)
    names = ("greedy", "expert")
    assert _compare(rules, _lineups(rules, names), names + ("random",), series=1000) > 0


@pytest.mark.slow
@pytest.mark.parametrize("k", range(12))
def test_same_games_random_rules(k):
    family, n, toggles, deals = random_config(random.Random(1000 + k))
    rules = resolve(family, n, toggles)
    names = ("greedy", "random")
    assert _compare(rules, _lineups(rules, names), names, series=1500, deals=deals) > 0
