"""The endgame solver's speed: sim.core.solver as shipped against the same code compiled as strategy code is.

    python -m research.strength.solver_speed [--positions 2000] [--budget 2000] [--seed 1]

Random two-player endgames (both hands of k cards, k = 4..7, the rest discarded; plain podkidnoy and
perevodnoy) are solved from a lead by `solver.solve` twice: as shipped (no bounds checks, the frame steps
`_push` / `_next` inlined into the loop) and recompiled from the same Python source the way the strategies'
sandbox compiles its helpers (bounds checks on, the steps as calls), which is how the solver ran while it
lived in strategies/_endgame.py. Prints microseconds per position for each, and fails if any value differs:
the speed-up must not change a single answer, UNKNOWN (budget spent) included.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from sim.core import solver as S

STEPS = ("_push", "_next", "_probe", "_store", "solve", "clear")


def sandboxed() -> dict:
    """The solver's functions recompiled from their source with bounds checks and no inlining of the steps."""
    ns = dict(vars(S))
    for name in STEPS:
        f = getattr(S, name).py_func
        g = type(f)(f.__code__, ns, name, f.__defaults__, f.__closure__)
        ns[name] = njit(_nrt=False, boundscheck=True)(g)
    return ns


def driver(solve, clear):
    @njit(_nrt=False)
    def go(pos, budget, tt, per, out):
        for i in range(pos.shape[0]):
            clear(tt)
            out[i] = solve(S.LEAD, pos[i, 0], pos[i, 1], 0, 0, 0, 0, pos[i, 2], 6, budget, tt, per, True)
    return go


def endgames(n: int, k: int, seed: int) -> np.ndarray:
    """n random positions: hands of k cards each and a trump suit, as (mine, his, trump suit)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 3), np.int64)
    for i in range(n):
        cards = rng.permutation(36)
        out[i, 0] = sum(1 << int(c) for c in cards[:k])
        out[i, 1] = sum(1 << int(c) for c in cards[k:2 * k])
        out[i, 2] = rng.integers(4)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    ns = sandboxed()
    runs = {"shipped": driver(S.solve, S.clear), "as strategy code": driver(ns["solve"], ns["clear"])}
    tt = np.zeros(S.TTS, np.int64)
    differ = 0
    print("| hands | perevodnoy | unknown | shipped, us | as strategy code, us | speed-up |\n|---|---|---|---|---|---|")
    for k in (4, 5, 6, 7):
        pos = endgames(a.positions, k, a.seed + k)
        for per in (False, True):
            got = {}
            for name, go in runs.items():
                out = np.zeros(len(pos), np.int64)
                go(pos[:2], a.budget, tt, per, out[:2])  # compile
                best = np.inf
                for _ in range(3):
                    t0 = time.perf_counter()
                    go(pos, a.budget, tt, per, out)
                    best = min(best, time.perf_counter() - t0)
                got[name] = (out.copy(), best * 1e6 / len(pos))
            (v1, t1), (v2, t2) = got.values()
            differ += int((v1 != v2).sum())
            print(f"| {k}+{k} | {per} | {int((v1 == S.UNKNOWN).sum())} | {t1:.1f} | {t2:.1f} | {t2 / t1:.2f}x |")
    print(f"positions whose value differs: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
