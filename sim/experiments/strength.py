"""Strength of a player against another: fool-rate difference with a 95% interval, seats rotated.

`head_to_head(family, n, spec, opp, games)` plays `games` deals, the tested strategy in each seat
in turn (games / n per seat, the other seats `opp`), and returns its fool rate, the opponents' mean
fool rate per seat, their difference in points (opponent minus tested: positive = tested is
stronger) with a 95% normal interval over deals, and games/s. `deal_diffs(...)` gives the same difference
deal by deal, so two tested strategies played on the same deals compare paired (`mean_interval(a - b)`).
`decision_timing(...)` measures the search player's milliseconds per searched decision (decisions with more
than one option), one core.
"""
from __future__ import annotations

import math
import time

import numpy as np

from sim.core import dispatch
from sim.core import layout as L
from sim.core import rules as R
from sim.core.machine import Deal
from sim.experiments import backends, tasks
from sim.experiments.batch import make_lineup
from sim.experiments.paired import rotate
from sim.experiments.stats import Z95

CHUNK = 8192  # series per task of deal_diffs


def diff_interval(fs: int, fo: int, games: int, n: int):
    """Mean per deal of d = 1[opponent seat is the fool]/(n-1) - 1[tested seat is the fool] and its
    95% interval (points). fs: deals the tested seat lost; fo: deals an opponent seat lost."""
    a, b = fs / games, fo / games
    k = n - 1
    mean = b / k - a
    var = a + b / (k * k) - mean * mean
    half = Z95 * math.sqrt(max(var, 0.0) / games)
    return 100 * mean, 100 * (mean - half), 100 * (mean + half)


def head_to_head(family: str, n: int, spec: str, opp: str, games: int, seed: int = 1, threads: int = 1,
                 toggles=None) -> dict:
    rules = R.resolve(family, n, toggles or {})
    per = max(1, games // n)
    fs = fo = g = draws = unfinished = 0
    t0 = time.perf_counter()
    for k in range(n):
        lineup = [opp] * n
        lineup[k] = spec
        t = tasks.run(rules, lineup, games=per, seed=seed, threads=threads).tally
        fs += int(t.fool[k])
        fo += int(t.fool.sum() - t.fool[k])
        g += t.finished
        draws += t.draws
        unfinished += t.unfinished
    dt = time.perf_counter() - t0
    d, lo, hi = diff_interval(fs, fo, g, n)
    return {"family": family, "players": n, "tested": spec, "opponent": opp, "games": g, "seed": seed,
            "tested_fool": fs / g, "opponent_fool_per_seat": fo / g / (n - 1), "draws": draws / g,
            "unfinished": unfinished, "diff_points": d, "diff_lo": lo, "diff_hi": hi,
            "seconds": dt, "games_per_s": g / dt, "threads": threads}


def _chunk_diffs(job):
    """One task of deal_diffs: (d, unfinished) per deal of series [s0, s0 + m), the tested strategy in seat k."""
    chunk, k, n = job
    recs = tasks.play_chunk(chunk)["records"]
    fool = recs["outcome"][:, :n] == 2
    unf = recs["unfinished"].astype(bool)
    d = (fool.sum(axis=1) - fool[:, k]) / (n - 1) - fool[:, k]
    return np.where(unf, 0.0, d), unf


def deal_diffs(family: str, n: int, spec: str, opp: str, games: int, seed: int = 1, threads: int = 1,
               paths=(), also=(), toggles=None, chunk: int = CHUNK):
    """Per-deal fool-rate differences of `spec` against `opp`, seats rotated, for paired comparisons.

    With per = games // n, `spec` sits in seat k (the line-up [spec, opp, ...] turned k seats, paired.rotate) for
    series k * per ... (k + 1) * per - 1, `opp` in the other seats. Per deal
    d = (opponent seats that are the fool) / (n - 1) - [spec's seat is the fool], 0 for an unfinished deal
    (RUL-22); its mean is the fool-rate difference head_to_head reports (positive: spec is stronger), here over
    every deal played. A deal depends on the seed and its series index only, so two specs run with the same
    (family, n, opp, games, seed) meet the same deals in the same seats: their arrays are paired deal by deal,
    and mean_interval(a - b) is a's paired gain over b with its 95% interval. `paths`: extra strategy folders;
    `also`: strategies to compile into the same engines. Runs on the active backend (threads unless inside
    backends.use(...)). Returns (d, unfinished): n * per floats and bools, in series order.
    """
    rules = R.resolve(family, n, toggles or {})
    per = games // n
    jobs = []
    for k in range(n):
        lu = tasks.lineup(rules, make_lineup(rules, rotate([spec] + [opp] * (n - 1), k), paths), paths, also)
        for s0 in range(0, per, chunk):
            # seat k plays series k*per ...: the rotation covers different deals, the same for every spec
            jobs.append((tasks.Chunk(lu, seed, k * per + s0, min(chunk, per - s0), records=True), k, n))
    pool = backends.pool(threads)
    try:
        outs = list(backends.stream(pool, _chunk_diffs, jobs))
    finally:
        pool.close()
    if not outs:
        return np.zeros(0), np.zeros(0, dtype=bool)
    return np.concatenate([o[0] for o in outs]), np.concatenate([o[1] for o in outs])


def mean_interval(x) -> tuple[float, float, float]:
    """(mean, low, high) in points of per-deal values x (deal_diffs, or a paired a - b): 95% normal interval
    over deals, NaN bounds with fewer than two deals."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    h = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return 100 * m, 100 * (m - h), 100 * (m + h)


def decision_timing(family: str, n: int = 2, samples: int = 24, candidates: int = 10, playout: int = 0,
                    decisions: int = 200, seed: int = 3) -> dict:
    """Play deals with search in every seat (from Python, one core) and time each searched decision."""
    S, X = dispatch.module("search"), dispatch.module("expert")
    rules = R.resolve(family, n)
    params = dispatch.params_vector(dispatch.info("search"), (samples, candidates, playout))
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    fns = (X.attack, X.cover, X.throw_in, X.transfer, X.exchange)
    times, by_kind = [], {}
    deal_seed = seed
    # compile outside the clock
    d = Deal(rules, deal_seed)
    while len(times) < decisions:
        d = Deal(rules, deal_seed)
        deal_seed += 1
        while not d.over and len(times) < decisions:
            seat, kind = d.to_act()
            obs = d.observe(seat)
            legal = np.int64(d.ws[L.S_LEGAL])
            first = fns[kind](obs, legal, S.EXPERT, rng)
            cands = np.zeros(S.MAXC, dtype=np.int64)
            nc = S.candidates(obs, kind, legal, first, cands, candidates)
            t0 = time.perf_counter()
            a = S.decide(obs, kind, legal, params, rng, first)
            dt = time.perf_counter() - t0
            if nc > 1:
                times.append(dt)
                if len(times) > 5:  # the first calls compile
                    by_kind.setdefault(L.KIND_NAMES[kind], []).append(dt)
            if not d.apply(int(a)):
                raise RuntimeError(f"search answered illegally: kind {kind}, answer {a}")
    times = np.array(times[5:])
    return {"family": family, "samples": samples, "candidates": candidates, "playout": playout,
            "decisions": len(times), "ms_mean": float(1000 * times.mean()),
            "ms_p95": float(1000 * np.percentile(times, 95)),
            "decisions_per_s": float(1 / times.mean()),
            "ms_by_kind": {k: round(1000 * float(np.mean(v)), 2) for k, v in by_kind.items()}}
