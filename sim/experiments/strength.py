"""Strength of a player against another: fool-rate difference with a 95% interval, seats rotated.

`head_to_head(family, n, spec, opp, games)` plays `games` deals, the tested strategy in each seat
in turn (games / n per seat, the other seats `opp`), and returns its fool rate, the opponents' mean
fool rate per seat, their difference in points (opponent minus tested: positive = tested is
stronger) with a 95% normal interval over deals, and games/s. `decision_timing(...)` measures the
search player's milliseconds per searched decision (decisions with more than one option), one core.
"""
from __future__ import annotations

import math
import time

import numpy as np

from sim.core import dispatch
from sim.core import layout as L
from sim.core import rules as R
from sim.core.machine import Deal
from sim.experiments import tasks
from sim.experiments.stats import Z95


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
