"""Suite-wide set-up: the library's line-ups play on a few shared engines (sim.core.dispatch.shared_engines), so a
cold run of the suite compiles each once instead of once per line-up: one for every strategy that costs little to
compile, and one for the search players and the learned one with expert, random and greedy (their opponents in the
tests). Those three engines cost minutes each: apart, 538, 586 and 387 CPU-s cold, but they share expert's code, so
together they cost little more than the largest. Set here at import, before any engine is built, so that workers and
the CLI's subprocesses inherit it."""
import os
import time
from collections import Counter
from pathlib import Path

import pytest

from sim.core import dispatch

HEAVY = ("search", "rollout", "learned")
QUICK = sorted(n for n, p in dispatch.discover().items() if Path(p).parent == dispatch.BUILTIN_DIR and n not in HEAVY)
GROUPS = [QUICK, sorted(HEAVY + ("expert", "random", "greedy"))]
os.environ.setdefault(dispatch.SHARED_ENV, ";".join(",".join(g) for g in GROUPS))
# durak play compiles the hint's search in the background (minutes on a cold cache, for a hint the tests rarely
# ask for); the one test that asks for a hint is in the slow tier
os.environ.setdefault("DURAK_HINT_WARM", "0")

# The order tests start in, for a cold cache on two workers. One worker first compiles a tier's shared engine (the
# default tier's QUICK one in test_replay, the slow tier's HEAVY one in test_search); the other meanwhile runs what
# needs no shared engine (loadfile: the next files; worksteal: the second half, which opens far from the heavy
# tests), where it would otherwise wait minutes on the engine's compile lock. Then the rest, larger files first,
# and the slow tests of the heavy strategies last (their few long ones first). Only the order changes: a wrong
# entry costs time, never a result.
SHARED_FIRST = ("tests/test_replay.py::test_core_traces_replay_through_the_referee[",
                "tests/test_search.py::test_legal_and_replayed_by_the_referee[")
NO_SHARED_ENGINE = {"test_endgame.py", "test_hint.py", "test_knob_tables.py", "test_layers.py", "test_learned.py",
                    "test_legal_options.py", "test_plain.py", "test_play.py", "test_referee_examples.py",
                    "test_registry.py", "test_rule_coverage.py", "test_rulegen.py", "test_rules_scenarios.py",
                    "test_search.py", "test_seed_knobs.py", "test_state_machine.py", "test_variants_beating.py",
                    "test_variants_leads.py", "test_docs.py", "test_deadline.py"}


def pytest_collection_modifyitems(config, items):
    per_file = Counter(item.nodeid.split("::")[0] for item in items)

    def rank(item):
        path = item.nodeid.split("::")[0]
        heavy = item.get_closest_marker("slow") and any(h in item.nodeid for h in HEAVY)  # they play on HEAVY
        tier = (0 if item.nodeid.startswith(SHARED_FIRST) else 3 if heavy
                else 1 if Path(path).name in NO_SHARED_ENGINE else 2)
        return tier, per_file[path] if tier == 3 else -per_file[path], path
    items.sort(key=rank)  # stable: a file's tests keep their order


# A wall-clock budget for a tier (CI sets it for the slow tier, whose machine has run 3.4 times slower than this
# one): a test that would start after DURAK_TEST_DEADLINE (seconds since the epoch) is skipped with the reason, so the
# run ends with every result it did reach, failures included, instead of being killed with none.
DEADLINE = float(os.environ.get("DURAK_TEST_DEADLINE") or 0)


def pytest_runtest_setup(item):
    if DEADLINE and time.time() > DEADLINE:
        pytest.skip("not started: the tier's time budget (DURAK_TEST_DEADLINE) ran out")


@pytest.fixture(scope="session")
def runner_for():
    """Runner(rules, lineup) cached per configuration: one compiled engine serves them all."""
    from sim.experiments import batch
    from sim.core import rules as R
    cache = {}

    def get(family, n=2, toggles=None, strategies=("greedy",), paths=()):
        key = (family, n, tuple(sorted((toggles or {}).items())), tuple(strategies), tuple(paths))
        if key not in cache:
            rules = R.resolve(family, n, toggles or {})
            cache[key] = batch.Runner(rules, batch.make_lineup(rules, strategies, paths), paths)
        return cache[key]
    return get
