"""How much is decided after the talon runs low: from the first decision with talon <= T of expert-vs-greedy deals,
the deal is played on twice, once with expert as it is and once with `search` (SAMPLES samples, expert playouts) in
expert's seat; the paired difference is what better play from there gains (points of fool-rate difference).

    python -m research.strength.endgame_probe podkidnoy 0 400 1     # T = 0: the endgame (every card known: 1 sample)
"""
import sys, time
import numpy as np
from sim.core import layout as L
from sim.core import rules as R
from sim.core.machine import Deal
from sim.core.lib import O_TALON
from sim.experiments.strength import mean_interval
from strategies import expert as X, greedy as G, search as S

XF = (X.attack, X.cover, X.throw_in, X.transfer, X.exchange)
GF = (G.attack, G.cover, G.throw_in, G.transfer, G.exchange)
rng = np.zeros(1, dtype=np.uint64); rng[0] = 12345
EX = S.EXPERT


def step(params, d, me, mode):
    seat, kind = d.to_act()
    obs = d.observe(seat)
    legal = np.int64(d.ws[L.S_LEGAL])
    if seat == me:
        a = XF[kind](obs, legal, EX, rng)
        if mode == 1:
            a = S.decide(obs, kind, legal, params, rng, a)
    else:
        a = GF[kind](obs, legal, EX, rng)
    assert d.apply(int(a))


def score(d, me):
    rec = d.result()
    o = rec[L.F_OUTCOME:L.F_OUTCOME + 2]
    # +1 greedy fool, -1 expert fool
    return (1 if o[1 - me] == L.OUT_FOOL else 0) - (1 if o[me] == L.OUT_FOOL else 0)


def main():
    fam, T, ndeals, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rules = R.resolve(fam, 2)
    params = np.zeros(16); params[:3] = (samples, 10, 1)
    t0 = time.time()
    reached = 0; sa = []; sb = []
    for i in range(ndeals):
        me = i % 2
        d = Deal(rules, 29_000 + i // 2)  # same deal both seats
        while not d.over and d.ws[O_TALON] > T:
            step(params, d, me, 0)
        if d.over:
            sa.append(score(d, me)); sb.append(sa[-1]); continue
        reached += 1
        d2 = Deal.from_state(rules, d.ws)
        while not d.over:
            step(params, d, me, 0)
        while not d2.over:
            step(params, d2, me, 1)
        sa.append(score(d, me)); sb.append(score(d2, me))
    sa = np.array(sa); sb = np.array(sb); diff = sb - sa
    gain, _, hi = mean_interval(diff)  # paired: the same deal from the same position
    print(f"{fam} T={T} deals={ndeals} reached={reached} expert {100*sa.mean():+.1f} search-from-there {100*sb.mean():+.1f} "
          f"gain {gain:+.2f} +- {hi - gain:.2f}  changed={np.count_nonzero(diff)} ({time.time()-t0:.0f}s)")


if __name__ == "__main__":
    main()
