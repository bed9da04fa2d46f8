"""Search in ONE seat among greedy players: log search's and expert's answers at each of search's decisions,
and play variants where search decides only some decision kinds (expert the rest), to see which kind matters.

    python -m research.strength.multi.log_search podkidnoy 6 600 KINDS   # KINDS: e.g. attack,cover,throw_in

Writes the log to results/strength/multi/log_FAMILY_N_KINDS_SEED.npz.
"""
import os
import sys
import time

import numpy as np

from research import RESULTS
from sim.core import layout as L
from sim.core import rules as R
from sim.core.lib import O_HAND, O_HAND_SIZE, O_TALON, O_ATTACKER, O_DEFENDER, O_OUT, O_TAKING, O_TABLE_MASK, O_TRUMP_SUIT, popcount
from sim.core.machine import Deal
from sim.experiments.strength import mean_interval
from strategies import expert as X, greedy as G, search as S

ACT = tuple(int(v) for v in os.environ.get("ACT", "0,9").split(","))
XF = (X.attack, X.cover, X.throw_in, X.transfer, X.exchange)
GF = (G.attack, G.cover, G.throw_in, G.transfer, G.exchange)


def play(family, n, deals, kinds, seed=5, samples=128, log=None, me_strat=None, act=None, xparams=None, which=1):
    """act: (fewest, most) players still in for search to decide (default ACT); xparams: expert's parameters
    (default search's playout table, S.EXPERT; np.full(16, -99.0) for expert's own tables)."""
    act = ACT if act is None else act
    xp = S.EXPERT if xparams is None else xparams
    rules = R.resolve(family, n)
    params = np.zeros(16)
    params[:3] = (samples, 10, which)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    zero = np.zeros(16)
    fools = np.zeros(2)
    diffs = []
    for i in range(deals):
        me = i % n
        d = Deal(rules, seed, i)
        first_out = []
        while not d.over:
            seat, kind = d.to_act()
            obs = d.observe(seat)
            legal = np.int64(d.ws[L.S_LEGAL])
            if seat != me:
                a = GF[kind](obs, legal, zero, rng)
            else:
                e = XF[kind](obs, legal, xp, rng)
                kn = L.KIND_NAMES[kind]
                nact = n - popcount(int(obs[O_OUT]))
                if kn in kinds and act[0] <= nact <= act[1]:
                    a = S.decide(obs, kind, legal, params, rng, e)
                else:
                    a = e
                if log is not None and kn in kinds:
                    log.append((kind, int(e), int(a), i, me, obs.copy()))
                if False:
                    log.append(dict(deal=i, kind=kn, talon=int(obs[O_TALON]), hand=popcount(int(obs[O_HAND])),
                                    sizes=[int(obs[O_HAND_SIZE + s]) for s in range(n)], me=me,
                                    att=int(obs[O_ATTACKER]), dfn=int(obs[O_DEFENDER]), out=int(obs[O_OUT]),
                                    taking=int(obs[O_TAKING]), table=int(obs[O_TABLE_MASK]), hand_m=int(obs[O_HAND]),
                                    trump=int(obs[O_TRUMP_SUIT]), expert=int(e), search=int(a), legal=int(legal)))
            if not d.apply(int(a)):
                raise RuntimeError("illegal")
        rec = d.result()
        fool = [int(rec[L.F_OUTCOME + s]) == L.OUT_FOOL for s in range(n)]
        dd = (sum(fool) - fool[me]) / (n - 1) - fool[me]
        diffs.append(dd)
        fools[0] += fool[me]
        fools[1] += (sum(fool) - fool[me]) / (n - 1)
    x = np.array(diffs)
    m, _, hi = mean_interval(x)
    return m, hi - m, 100 * fools / deals, x


if __name__ == "__main__":
    fam, n, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    kinds = sys.argv[4].split(",") if len(sys.argv) > 4 else ["attack", "cover", "throw_in", "transfer"]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    log = []
    t = time.time()
    m, h, f, x = play(fam, n, deals, kinds, seed, log=log)
    print(f"{fam} {n}p ACT={ACT} seed={seed} kinds={kinds}: diff {m:+.1f} +-{h:.1f}  fool me/greedy {f[0]:.1f}/{f[1]:.1f}  {time.time()-t:.0f}s")
    out = RESULTS / "strength" / "multi" / f"log_{fam}_{n}_{'-'.join(kinds)}_{seed}.npz"
    np.savez_compressed(str(out), kind=np.array([l[0] for l in log]),
                        expert=np.array([l[1] for l in log]), search=np.array([l[2] for l in log]),
                        deal=np.array([l[3] for l in log]), me=np.array([l[4] for l in log]),
                        obs=np.array([l[5] for l in log]), x=x)
