"""Check strategies/_endgame.py against a plain minimax over the engine (Deal.legal_options / apply) on endgames
reached in real deals: python -m research.strength.endgame_check DEALS MAXCARDS (slow: the minimax is Python)."""
import sys, random
import numpy as np
from functools import lru_cache
from sim.core import layout as L, rules as R
from sim.core.machine import Deal
from sim.core.lib import O_TALON, O_HAND, O_TABLE_MASK, O_NTABLE, O_LIMIT, O_TABLE_COV, O_TABLE_ATT, O_TRUMP_SUIT, O_SEAT
from strategies import expert as X
from strategies import _endgame as E
rules = R.resolve("podkidnoy", 2)
XF = (X.attack, X.cover, X.throw_in, X.transfer, X.exchange)
Q = np.full(16, -99.0); rng = np.zeros(1, dtype=np.uint64)
memo = {}
def ref(d):
    """value for seat 0"""
    if d.over:
        o = d.result()[L.F_OUTCOME:L.F_OUTCOME+2]
        return (1 if o[1] == L.OUT_FOOL else 0) - (1 if o[0] == L.OUT_FOOL else 0)
    key = d.ws.tobytes()
    if key in memo: return memo[key]
    seat, kind = d.to_act()
    vals = []
    for a in d.legal_options():
        d2 = Deal.from_state(rules, d.ws)
        assert d2.apply(int(a))
        vals.append(ref(d2))
    v = max(vals) if seat == 0 else min(vals)
    memo[key] = v
    return v

def solver_value(d):
    seat, kind = d.to_act()
    obs = d.observe(seat)
    me = seat; opp = 1 - seat
    mine = int(obs[O_HAND]); his = int(d.ws[L.S_HANDS + opp])
    t = int(obs[O_TABLE_MASK]); nt = int(obs[O_NTABLE]); lim = int(obs[O_LIMIT])
    u = 0
    for i in range(nt):
        if obs[O_TABLE_COV + i] < 0: u |= 1 << int(obs[O_TABLE_ATT + i])
    best = -5
    for a in d.legal_options():
        v = E._option_value(kind, np.int64(a), np.int64(mine), np.int64(his), np.int64(t), np.int64(u), nt, lim,
                            int(obs[O_TRUMP_SUIT]), 6, obs, 10**9)
        assert v != E.UNKNOWN
        best = max(best, v)
    return best if seat == 0 else -best, seat


def main():
    random.seed(1)
    n = mism = 0
    for i in range(int(sys.argv[1])):
        d = Deal(rules, 7, i)
        maxcards = int(sys.argv[2])
        while not d.over:
            seat, kind = d.to_act()
            if d.ws[O_TALON] == 0 and kind in (0, 1, 2) and sum(d.hands()) and sum(bin(h).count("1") for h in d.hands()) <= maxcards and random.random() < 0.5:
                if d.hands()[0] and d.hands()[1]:
                    r = ref(Deal.from_state(rules, d.ws))
                    s, _ = solver_value(d)
                    n += 1
                    if n % 20 == 0: print(n, flush=True)
                    if r != s:
                        mism += 1
                        print("MISMATCH", i, kind, r, s, d.hands(), flush=True)
            obs = d.observe(seat)
            a = XF[kind](obs, np.int64(d.ws[L.S_LEGAL]), Q, rng)
            if random.random() < 0.3:
                a = random.choice(sorted(d.legal_options()))
            d.apply(int(a))
    print("checked", n, "mismatches", mism, flush=True)


if __name__ == "__main__":
    main()
