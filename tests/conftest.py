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
