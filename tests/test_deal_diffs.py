"""sim.experiments.strength.deal_diffs: per-deal fool-rate differences, seats rotated, paired across specs."""
import math

import numpy as np
import pytest

from sim.core import rules as R
from sim.experiments import batch
from sim.experiments.stats import Z95
from sim.experiments.strength import deal_diffs, mean_interval
from sim.core.records import to_records

FAM, N, GAMES, SEED = "prostoy_5", 2, 600, 4


def _by_hand(spec, opp):
    """The same deals played seat block by seat block straight on a Runner: spec in seat k for series
    k * per ... (k + 1) * per - 1."""
    rules = R.resolve(FAM, N)
    per = GAMES // N
    d, unf = [], []
    for k in range(N):
        lineup = [opp] * N
        lineup[k] = spec
        recs = to_records(batch.Runner(rules, batch.make_lineup(rules, lineup)).play_raw(SEED, k * per, per))
        fool = recs["outcome"][:, :N] == 2
        u = recs["unfinished"].astype(bool)
        d.append(np.where(u, 0.0, fool[:, 1 - k].astype(float) - fool[:, k]))
        unf.append(u)
    return np.concatenate(d), np.concatenate(unf)


def test_deal_diffs_is_the_seat_blocks_deal_by_deal_whatever_the_chunks():
    want, want_unf = _by_hand("random", "greedy")
    for chunk in (7, 8192):  # many tasks or one per seat: the same deals in the same order
        d, unf = deal_diffs(FAM, N, "random", "greedy", GAMES, seed=SEED, threads=2, chunk=chunk)
        assert d.shape == (GAMES,) and np.array_equal(d, want) and np.array_equal(unf, want_unf)
    # random is much weaker than greedy: its seat is the fool far more often than greedy's
    assert mean_interval(d)[2] < -20


def test_two_specs_on_the_same_deals_pair_up():
    """A spec against itself differs from deal to deal only by who is the fool; the same spec twice is the
    same array (paired gain exactly 0), and a different spec changes some deals, not their order."""
    a, _ = deal_diffs(FAM, N, "greedy", "greedy", GAMES, seed=SEED, threads=1)
    b, _ = deal_diffs(FAM, N, "greedy", "greedy", GAMES, seed=SEED, threads=2)
    assert np.array_equal(a, b) and mean_interval(a - b)[:2] == (0.0, 0.0)
    c, _ = deal_diffs(FAM, N, "random", "greedy", GAMES, seed=SEED, threads=2)
    assert 0 < np.count_nonzero(c - a) < GAMES
    other, _ = deal_diffs(FAM, N, "greedy", "greedy", GAMES, seed=SEED + 1, threads=2)
    assert not np.array_equal(other, a)  # another seed, other deals


def test_mean_interval_is_the_normal_95_interval_in_points():
    m, lo, hi = mean_interval(np.array([1.0, -1.0, 0.0, 0.0]))
    half = 100 * Z95 * math.sqrt(2 / 3) / 2  # sample sd sqrt(2/3), 4 deals
    assert m == 0.0 and lo == pytest.approx(-half) and hi == pytest.approx(half)
    m, lo, hi = mean_interval(np.array([0.5]))
    assert m == 50.0 and math.isnan(lo) and math.isnan(hi)
