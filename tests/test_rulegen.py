"""The rule-configuration generator covers the registry and draws only playable configurations."""
from hypothesis import given, settings

import rulegen as G
from sim.core import rules as R


def test_generator_covers_every_playable_toggle_value():
    pairs = G.covered_pairs()
    want = set()
    for t in R.TOGGLES:
        if t.name in G.SKIPPED:
            continue
        for v in t.values:
            if t.implemented is None or v in t.implemented:
                want.add((t.name, v))
    assert pairs == want
    assert len(pairs) >= 63  # the 28 base toggles' played values, and every played §6 modifier value


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(G.rule_configs())
def test_drawn_configurations_resolve(cfg):
    family, n, toggles, dps = cfg
    r = R.resolve(family, n, toggles)
    assert r.num_players == n and 1 <= dps <= 3
    assert G.config_problem(family, n, toggles, dps) is None
