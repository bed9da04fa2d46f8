"""Suite-wide set-up: every line-up of library strategies that costs little to compile plays on one shared
engine (sim.core.dispatch.shared_engine), so a cold run of the suite compiles it once instead of once per
line-up. Set here at import, before any engine is built, so that workers and the CLI's subprocesses inherit it."""
import os
from pathlib import Path

import pytest

from sim.core import dispatch

# the library strategies but the search players and the learned one, whose engines cost minutes of their own
SHARED = sorted(n for n, p in dispatch.discover().items()
                if Path(p).parent == dispatch.BUILTIN_DIR and n not in ("search", "rollout", "learned"))
os.environ.setdefault(dispatch.SHARED_ENV, ",".join(SHARED))


import pytest


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
