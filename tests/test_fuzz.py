"""Fuzzing the core against the referee's decision procedure over random rule configurations.

For hypothesis-drawn configurations (``tests/rulegen.py``) the core plays a few series with
``random`` and with ``greedy`` seats; each deal's trace is walked by the referee
(``sim.referee.decisions.walk_trace``): at EVERY action the acting seat and decision kind must be
the referee's ``to_act`` and the answer must be in the referee's ``legal_options``.

Default run: a fixed, derandomized budget. Soak: ``DURAK_FUZZ_EXAMPLES=2000 pytest -m soak
tests/test_fuzz.py`` (the soak test is skipped unless the variable is set and is deselected by
default). ``DURAK_FUZZ_KNOWN_BUGS=1`` also draws the configurations of known core bugs
(``core_adapter.known_core_bug``), which the default run leaves out.

Limits of the trace walk (lifted by ``test_core_legal_sets_equal_the_referees`` once the core exposes
its decisions through ``core_adapter.core_decisions``): only the answers the core chose are checked,
not the sets it offered; and declines that leave no trace (keeping the trump six, not transferring,
prostoy covers before a take-all) are inferred, so a referee that offers a transfer too often
(e.g. without PER-3) is not noticed here.
"""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings

from core_adapter import (STRATEGIES, check_decisions, check_trace, core_decisions, core_runner, core_traces,
                          known_core_bug, repro)
from rulegen import rule_configs
from sim.referee.decisions import DecisionError

QUICK_EXAMPLES = 30  # the default tier (seconds); the slow tier runs FULL_EXAMPLES of each
FULL_EXAMPLES = 300
GAMES = 2  # series per strategy and configuration
SEED = 4242
SOAK_EXAMPLES = int(os.environ.get("DURAK_FUZZ_EXAMPLES", "0") or 0)
WITH_KNOWN_BUGS = os.environ.get("DURAK_FUZZ_KNOWN_BUGS", "") not in ("", "0")


def fuzz_config(family, n, toggles, dps, games=GAMES, seed=SEED):
    for strategy in STRATEGIES:
        for g in range(games):
            traces = core_traces(family, n, toggles, strategy, seed, g, dps)
            for d, tr in enumerate(traces):
                try:
                    check_trace(tr)
                except DecisionError as e:
                    raise AssertionError(f"{e}\n  reproduce: {repro(family, n, toggles, strategy, seed, g, dps, d)}")


def fuzz_legal_sets(family, n, toggles, dps, games=GAMES, seed=SEED):
    """The legal SET at every decision (needs the state-machine core: core_adapter.core_decisions)."""
    for strategy in STRATEGIES:
        for g in range(games):
            streams = core_decisions(family, n, toggles, strategy, seed, g, dps)
            for d, (tr, decisions) in enumerate(streams):
                try:
                    check_decisions(tr, decisions)
                except DecisionError as e:
                    raise AssertionError(f"{e}\n  reproduce: {repro(family, n, toggles, strategy, seed, g, dps, d)}")


def _run(cfg):
    family, n, toggles, dps = cfg
    if not WITH_KNOWN_BUGS:
        assume(known_core_bug(family, n, toggles) is None)
    fuzz_config(family, n, toggles, dps)


_SETTINGS = dict(derandomize=True, deadline=None, database=None, print_blob=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@settings(max_examples=QUICK_EXAMPLES, **_SETTINGS)
@given(rule_configs())
def test_core_follows_the_referee_procedure(cfg):
    _run(cfg)


@pytest.mark.slow
@settings(max_examples=FULL_EXAMPLES, **_SETTINGS)
@given(rule_configs())
def test_core_follows_the_referee_procedure_full(cfg):
    _run(cfg)


@pytest.mark.soak
@pytest.mark.skipif(not SOAK_EXAMPLES, reason="set DURAK_FUZZ_EXAMPLES to soak")
@settings(max_examples=max(SOAK_EXAMPLES, 1), **_SETTINGS)
@given(rule_configs())
def test_soak_core_follows_the_referee_procedure(cfg):
    _run(cfg)


def _legal_sets(cfg):
    family, n, toggles, dps = cfg
    if not WITH_KNOWN_BUGS:
        assume(known_core_bug(family, n, toggles) is None)
    fuzz_legal_sets(family, n, toggles, dps)


@settings(max_examples=QUICK_EXAMPLES, **_SETTINGS)
@given(rule_configs())
def test_core_legal_sets_equal_the_referees(cfg):
    _legal_sets(cfg)


@pytest.mark.slow
@settings(max_examples=FULL_EXAMPLES, **_SETTINGS)
@given(rule_configs())
def test_core_legal_sets_equal_the_referees_full(cfg):
    _legal_sets(cfg)


SERIES = 8  # series per chunk in the chunk test


@settings(max_examples=QUICK_EXAMPLES, **_SETTINGS)
@given(rule_configs())
def test_a_series_plays_the_same_in_any_chunk(cfg):
    """A chunk's later series start from the state its previous deal left (the engine does not clear it between
    series: a deal sets what it reads), so the records of SERIES series played in one chunk must equal those of
    each series played alone on a fresh state, word for word. The referee walks traces, which play a series alone:
    this is what checks that no deal reads what an earlier one left."""
    family, n, toggles, dps = cfg
    for strategy in STRATEGIES:
        run = core_runner(family, n, toggles, strategy)
        together = run.play_raw(SEED, 0, SERIES, dps)
        alone = np.concatenate([run.play_raw(SEED, s, 1, dps) for s in range(SERIES)])
        assert np.array_equal(together, alone), (
            f"{strategy}: records differ in fields {sorted(set(np.nonzero(together != alone)[1].tolist()))}; "
            f"reproduce: Runner(resolve({family!r}, {n}, {toggles!r}), ...).play_raw({SEED}, 0, {SERIES}, {dps})")


# ---- regression cases: configurations the fuzzing found ----------------------------------
BUG_NEIGHBOURS = ("podkidnoy", 6, {"teams": "3v3", "throw_in_neighbours_only_if_players_gt": 2,
                                   "others_throw_in_timing": "after_attacker"}, 1)


@pytest.mark.rules("RUL-16", "RUL-17", "HR-3")
def test_regression_neighbours_only_attacker_counts_as_finished():
    """Found by the fuzzing before the state-machine core: with neighbours-only throw-in a main attacker
    who is no neighbour of the defender (6 players, 3v3) was skipped before he was marked finished, so
    with after_attacker nobody else was asked and the bout ended early (205 of 300 deals disagreed)."""
    family, n, toggles, dps = BUG_NEIGHBOURS
    for strategy in STRATEGIES:
        for g in (0, 11):
            check_trace(core_traces(family, n, toggles, strategy, 11, g, dps)[0])
            for tr, decisions in core_decisions(family, n, toggles, strategy, 11, g, dps):
                check_decisions(tr, decisions)
