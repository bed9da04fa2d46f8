"""The engine with the rules compiled in (sim.core.specialise) plays the same games as the general engine.

For the same seed every per-game record must be the same bit for bit, for every family and any rule
configuration, whatever the strategies: both engines run the same kernels' text, one with the rules read at
run time, one with them folded in as constants. Each rule set costs a compile of its own engine, so the
default tier checks the benchmark's podkidnoy; the slow tier every family (expert in two),
and random configurations from the fuzzer's space.
"""
from __future__ import annotations

import ast
import random

import numpy as np
import pytest

from rulegen import random_config
from sim.core import dispatch, specialise
from sim.core.rules import FAMILIES, resolve
from sim.experiments import batch
from sim.experiments.batch import Runner, make_lineup

QUICK = ("greedy", "random")  # compiled into one engine per rule set (Runner(also=...))


def _compare(rules, lineups, also, series=400, deals=2, seed=11, kind="specialised"):
    """Play every line-up on the general engine and on `kind` (specialised or lean); return the games compared
    (asserts they are the same)."""
    games = 0
    for names in lineups:
        seats = make_lineup(rules, names)
        g = Runner(rules, seats, also=also)
        s = Runner(rules, seats, also=also, specialised=kind)
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


@pytest.mark.parametrize("family,n,toggles,kind", [
    ("podkidnoy", 2, {}, "specialised"),
    ("podkidnoy", 2, {}, "lean"),
    pytest.param("perevodnoy", 3, {"proezdnoy": True, "throw_in_after_take": False}, "specialised",
                 marks=pytest.mark.slow),
    pytest.param("perevodnoy", 3, {"proezdnoy": True, "throw_in_after_take": False}, "lean", marks=pytest.mark.slow),
    pytest.param("prostoy_5", 4, {}, "specialised", marks=pytest.mark.slow),
])
def test_same_games(family, n, toggles, kind):
    rules = resolve(family, n, toggles)
    assert _compare(rules, _lineups(rules, QUICK), QUICK, kind=kind) == 2 * 400 * 2


def test_lean_is_the_fold_without_the_inlining():
    """The lean engine folds the rules like the specialised one, and differs only in leaving the hot kernels
    where they are; with one pack the two-pack flag folds away too (nothing of two packs is compiled)."""
    rv = resolve("podkidnoy", 2).vector()
    src = ("@njit(cache=True)\ndef advance(ws, two):\n    if two:\n        return 2\n    return 1\n"
           "@njit(cache=True)\ndef begin(ws):\n    advance(ws, False)\n")
    hot, lean = specialise.fold(src, rv), specialise.fold(src, rv, hot=False)
    assert "inline='always'" in hot and "_advance_outlined" in hot
    assert "inline" not in lean and "_outlined" not in lean
    assert "return 2" not in lean and "return 2" not in hot
    two = resolve("podkidnoy", 2, {"two_packs": True}).vector()
    assert "return 2" in specialise.fold(src, two, hot=False)
    assert specialise.package_name(rv) != specialise.package_name(rv, hot=False)


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


def test_choice_says_why(monkeypatch, tmp_path):
    rules = resolve("podkidnoy", 2)
    seats = make_lineup(rules, ["greedy"])
    monkeypatch.setenv("DURAK_ENGINE", "general")
    assert batch.engine_choice(rules, seats, 10**9) == ("general", "general engine, as asked")  # no loop there
    monkeypatch.delenv("DURAK_ENGINE")
    kind, why = batch.engine_choice(rules, seats, batch.SPECIALISE_GAMES, engine="auto")
    assert kind == "specialised" and why.startswith("specialised engine: ")
    # a cold cache: line-ups that share engines (the tests') keep the general one, a lone run takes the lean
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert batch.engine_choice(rules, seats, 1000)[0] == ("general" if dispatch.shared_engines() else "lean")
    monkeypatch.delenv(dispatch.SHARED_ENV, raising=False)
    assert batch.engine_choice(rules, seats, 1000) == ("lean", "lean engine: the quickest to compile on a cold "
                                                               "cache; greedy's bouts in one loop")
    random_too = make_lineup(rules, ["greedy", "random"])
    assert batch.engine_choice(rules, random_too, 1000) == ("lean", "lean engine: the quickest to compile on a "
                                                                    "cold cache")
    with pytest.raises(batch.ExperimentError):
        batch.engine_choice(rules, seats, 10, engine="fast")


# one player count per family (2 to 5 over the four) and expert in the two families whose strategies read the
# most rules: each case is a compile of its own (about a minute with greedy and random, three with expert)
FAMILY_CASES = [("prostoy_5", 5, ("greedy", "random")), ("prostoy_6", 3, ("greedy", "random")),
                ("podkidnoy", 4, ("greedy", "expert")), ("perevodnoy", 2, ("greedy", "expert"))]


def test_every_family_has_a_slow_case():
    assert sorted(f for f, _, _ in FAMILY_CASES) == sorted(FAMILIES)


@pytest.mark.slow
@pytest.mark.parametrize("family,n,names", FAMILY_CASES, ids=[f"{f}-{n}p" for f, n, _ in FAMILY_CASES])
def test_same_games_families(family, n, names):
    rules = resolve(family, n)
    assert _compare(rules, _lineups(rules, names), tuple(dict.fromkeys(names + ("random",))), series=1000) > 0


@pytest.mark.slow
@pytest.mark.parametrize("k", range(4))
def test_same_games_random_rules(k):
    family, n, toggles, deals = random_config(random.Random(1000 + k))
    rules = resolve(family, n, toggles)
    names = ("greedy", "random")
    assert _compare(rules, _lineups(rules, names), names, series=1500, deals=deals) > 0


@pytest.mark.slow
@pytest.mark.parametrize("family,n,toggles", [("perevodnoy", 4, {"two_packs": True}),
                                              ("podkidnoy", 3, {"variant": "kitaisky"})], ids=["two-packs", "variant"])
def test_same_games_two_packs_and_a_variant(family, n, toggles):
    """The fuzzer's configurations draw neither two packs (the engine's second entry point) nor a §6 variant."""
    rules = resolve(family, n, toggles)
    assert _compare(rules, _lineups(rules, QUICK), QUICK, series=600) > 0
