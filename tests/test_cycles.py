"""No library line-up cycles: the public O_QUIET counter and the varied play it triggers.

O_QUIET counts the bouts in a row that ended with no card discarded and none drawn; the strategy helpers
(strategies/_lib.py) and greedy vary their play once it reaches QUIET_VARY. Before that, expert left 5% of
3-player prostoy_5 deals unfinished (RUL-22: 1,000 bouts); results/strength/unfinished.md has the table.
"""
import random

import numpy as np
import pytest

from sim.core import layout as L
from sim.core import rules as R
from sim.core.machine import Deal
from sim.experiments import batch, tasks
from strategies import _lib


@pytest.mark.parametrize("family,n", [("prostoy_5", 3), ("podkidnoy", 4), ("perevodnoy", 3)])
def test_quiet_counts_bouts_without_a_discard_or_a_draw(family, n):
    """Replay random deals: after every bout, O_QUIET is 0 when the discard grew or the talon shrank, else
    one more than before the bout."""
    rules = R.resolve(family, n)
    rnd = random.Random(3)
    seen_quiet = 0
    for seed in range(20):
        d = Deal(rules, seed)
        obs = d.observe(0)
        bout, quiet = int(obs[L.O_BOUT]), int(obs[L.O_QUIET])
        disc, talon = int(obs[L.O_DISCARD]), int(obs[L.O_TALON])
        assert quiet == 0
        while not d.over:
            assert d.apply(rnd.choice(sorted(d.legal_options())))
            if d.over:
                break
            obs = d.observe(0)
            if int(obs[L.O_BOUT]) != bout:
                fresh = int(obs[L.O_DISCARD]) != disc or int(obs[L.O_TALON]) != talon
                assert int(obs[L.O_QUIET]) == (0 if fresh else quiet + 1)
                seen_quiet = max(seen_quiet, int(obs[L.O_QUIET]))
            bout, quiet = int(obs[L.O_BOUT]), int(obs[L.O_QUIET])
            disc, talon = int(obs[L.O_DISCARD]), int(obs[L.O_TALON])
    assert seen_quiet >= 1  # the counter did move


def test_quiet_is_public_and_sampled_states_keep_it():
    """O_QUIET sits in the observation prefix (every seat sees the same value)."""
    assert L.O_QUIET < L.O_SIZE
    d = Deal(R.resolve("podkidnoy", 3), 1)
    assert len({int(d.observe(s)[L.O_QUIET]) for s in range(3)}) == 1


@pytest.mark.parametrize("family,n,lineup", [
    ("prostoy_5", 3, ["expert"] * 3),  # 5.1% unfinished before (1,029 of 20,000)
    ("prostoy_5", 3, ["advice-002"] * 3),  # 13% before
    ("podkidnoy", 3, ["advice-002"] * 3),  # 2.3% before
])
def test_library_line_ups_that_cycled_now_finish(family, n, lineup):
    t = tasks.run(R.resolve(family, n), lineup, games=4000, seed=1, threads=1).tally
    assert t.unfinished == 0


def test_varied_choice_is_legal_and_depends_on_the_bout():
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    obs[L.O_HAND] = 0b1011_0000_0110
    picks = set()
    for b in range(40):
        obs[L.O_BOUT] = b
        i = _lib.vary_pick(obs, 5, 1)
        assert 0 <= i < 5
        picks.add(int(i))
        c = _lib.nth_card(obs[L.O_HAND], i % 5)
        assert (obs[L.O_HAND] >> c) & 1
    assert len(picks) >= 3
