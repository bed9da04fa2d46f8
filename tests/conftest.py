"""Suite-wide set-up: the library's line-ups play on a few shared engines (sim.core.dispatch.shared_engines), so a
cold run of the suite compiles each once instead of once per line-up: one for every strategy that costs little to
compile, and one for the search players and the learned one with expert, random and greedy (their opponents in the
tests). Those three engines cost minutes each: apart, 538, 586 and 387 CPU-s cold, but they share expert's code, so
together they cost little more than the largest. Set here at import, before any engine is built, so that workers and
the CLI's subprocesses inherit it."""
import os
from pathlib import Path

import pytest

from sim.core import dispatch

HEAVY = ("search", "rollout", "learned")
QUICK = sorted(n for n, p in dispatch.discover().items() if Path(p).parent == dispatch.BUILTIN_DIR and n not in HEAVY)
GROUPS = [QUICK, sorted(HEAVY + ("expert", "random", "greedy"))]
os.environ.setdefault(dispatch.SHARED_ENV, ";".join(",".join(g) for g in GROUPS))


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
