"""Paired, seat-rotated strength against an opponent: per-deal fool-rate differences (helper, not a strategy).

`deal_diffs(family, n, spec, opp, games, seed)` plays `games` deals: spec in seat k for deals
k*games/n ... (the other seats `opp`), the same deals whatever spec is (the deal depends on the seed
and the series index only). Per deal d = (opponent seats that are the fool) / (n - 1) - [spec's seat
is the fool]; its mean is the fool-rate difference of head_to_head (positive: spec is stronger).
Two specs on the same (family, n, opp, games, seed) are paired deal by deal: `paired(a, b)` gives the
mean of a - b with a 95% interval.
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from sim.core import dispatch
from sim.core import rules as R
from sim.core.records import to_records
from sim.experiments import batch

Z95 = 1.959963984540054
CHUNK = 8192
_RUNNERS = {}
ALSO = ("expert", "greedy")
PATHS = []  # extra strategy folders (experiments)


def _runner(rules, lineup):
    key = (rules.family, rules.num_players, tuple(lineup))
    if key not in _RUNNERS:
        seats = batch.make_lineup(rules, list(lineup), PATHS)
        _RUNNERS[key] = batch.Runner(rules, seats, PATHS, also=ALSO)
    return _RUNNERS[key]


def deal_diffs(family, n, spec, opp, games, seed=11, threads=2):
    """(d per deal, unfinished per deal), seats rotated (games // n deals per seat)."""
    rules = R.resolve(family, n)
    per = games // n
    jobs = []
    for k in range(n):
        lu = [opp] * n
        lu[k] = spec
        r = _runner(rules, lu)
        for s0 in range(0, per, CHUNK):
            # seat k plays series k*per ... so the rotation covers different deals, the same for every spec
            jobs.append((r, k, k * per + s0, min(CHUNK, per - s0)))

    def play(job):
        r, k, s0, m = job
        recs = to_records(r.play_raw(seed, s0, m))
        fool = recs["outcome"][:, :n] == 2
        unf = recs["unfinished"].astype(bool)
        d = (fool.sum(axis=1) - fool[:, k]) / (n - 1) - fool[:, k]
        d = np.where(unf, 0.0, d)
        return d, unf

    with ThreadPoolExecutor(threads) as ex:
        outs = list(ex.map(play, jobs))
    return np.concatenate([o[0] for o in outs]), np.concatenate([o[1] for o in outs])


def mean_ci(x):
    m = float(x.mean())
    h = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return 100 * m, 100 * (m - h), 100 * (m + h)


def fmt(t):
    return f"**{t[0]:+.1f}** [{t[1]:+.1f}, {t[2]:+.1f}]"


def warm_all():
    """One engine for the whole library except the slow searchers (compiled once)."""
    return sorted(x for x in dispatch.discover() if x not in ("search", "rollout"))
