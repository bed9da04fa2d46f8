"""Tuning helper for `expert`: one knob at a time against greedy, seats swapped (not a strategy).

    python -m research.tune FAMILY OPPONENT SPEC [SPEC ...]     # e.g. podkidnoy greedy "expert:knob=value,..."
"""
import sys
import time

from sim.core import dispatch
from sim.core import rules as R
from sim.experiments import tasks
from sim.experiments.stats import wilson

ALL = sorted(dispatch.discover())


def one_engine():
    """Every line-up asks for the whole library: one compiled engine serves every candidate."""
    orig = dispatch.engine_for
    dispatch.engine_for = lambda names, paths=(): orig(list(names) + ALL, paths)


def duel(fam, a, b, games=100_000, seed=11):
    """fool rate of a, fool rate of b, draw rate, over games/2 with each seat order."""
    rules = R.resolve(fam, 2)
    fa = fb = d = n = 0
    for pair, ia in (([a, b], 0), ([b, a], 1)):
        t = tasks.run(rules, pair, games=games // 2, seed=seed, threads=2).tally
        fa += t.fool[ia]; fb += t.fool[1 - ia]; d += t.draws; n += t.finished
    return fa / n, fb / n, d / n, n


if __name__ == "__main__":
    one_engine()
    fam = sys.argv[1]
    opp = sys.argv[2]
    specs = sys.argv[3:]
    for sp in specs:
        t0 = time.time()
        fa, fb, d, n = duel(fam, sp, opp)
        lo, hi = wilson(fa * n, n)
        print(f"{fam:10} {sp:60} fool {fa:.4f} [{lo:.4f},{hi:.4f}] opp {fb:.4f} draw {d:.4f} diff {fb-fa:+.4f}  ({time.time()-t0:.1f}s)", flush=True)
