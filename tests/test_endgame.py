"""expert's exact two-player endgame (strategies/_endgame.py) against a plain minimax over the core itself.

The minimax steps `sim.core.machine.Deal` through every legal option of every decision (the core's own rules,
checked against the referee elsewhere); the solver has its own compact model of a podkidnoy bout. On every
endgame of at most MAX_CARDS cards in hand reached in real deals (talon empty, both players holding cards), the
solver's value of the position for seat 0 (+1: seat 1 is the fool, 0: draw, -1: seat 0 is the fool) must be the
minimax's. Scoring a bout the defender ends with no cards (the attacker still holding some) as the attacker's win
in the solver makes this fail.
"""
import random

import numpy as np

from sim.core import layout as L
from sim.core import rules as R
from sim.core.lib import O_LIMIT, O_NTABLE, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TALON, O_TRUMP_SUIT
from sim.core.machine import Deal

MAX_CARDS = 4
RULES = R.resolve("podkidnoy", 2)


def _minimax(d, memo):
    if d.over:
        o = d.result()[L.F_OUTCOME:L.F_OUTCOME + 2]
        return int(o[1] == L.OUT_FOOL) - int(o[0] == L.OUT_FOOL)
    key = d.ws.tobytes()
    if key not in memo:
        seat, _ = d.to_act()
        vals = []
        for a in d.legal_options():
            d2 = Deal.from_state(RULES, d.ws)
            assert d2.apply(int(a))
            vals.append(_minimax(d2, memo))
        memo[key] = max(vals) if seat == 0 else min(vals)
    return memo[key]


def _solver(d, tt=None):
    from strategies import _endgame as E
    seat, kind = d.to_act()
    obs = d.observe(seat)
    mine, his = int(d.ws[L.S_HANDS + seat]), int(d.ws[L.S_HANDS + 1 - seat])
    nt = int(obs[O_NTABLE])
    u = 0
    for i in range(nt):
        if obs[O_TABLE_COV + i] < 0:
            u |= 1 << int(obs[O_TABLE_ATT + i])
    best = -5
    if tt is None:
        tt = np.zeros(E.TTS, np.int64)  # one table for every option, as solve_choice shares it
    for a in d.legal_options():
        v = E._option_value(kind, np.int64(a), np.int64(mine), np.int64(his), np.int64(obs[O_TABLE_MASK]),
                            np.int64(u), nt, int(obs[O_LIMIT]), int(obs[O_TRUMP_SUIT]), 6, obs, 10 ** 9, tt)
        assert v != E.UNKNOWN
        best = max(best, int(v))
    return best if seat == 0 else -best


def _endgames(deals, max_cards=MAX_CARDS):
    """Positions of real deals (expert's play with random deviations) where the solver would be asked."""
    from strategies import expert as X
    play = (X.attack, X.cover, X.throw_in, X.transfer, X.exchange)
    q, rng, pick = np.full(16, -99.0), np.zeros(1, dtype=np.uint64), random.Random(5)
    for i in range(deals):
        d = Deal(RULES, 7, i)
        while not d.over:
            seat, kind = d.to_act()
            h = d.hands()
            if (d.ws[O_TALON] == 0 and kind in (L.K_ATTACK, L.K_COVER, L.K_THROW_IN) and h[0] and h[1]
                    and bin(h[0]).count("1") + bin(h[1]).count("1") <= max_cards):
                yield Deal.from_state(RULES, d.ws)
            a = play[kind](d.observe(seat), np.int64(d.ws[L.S_LEGAL]), q, rng)
            if pick.random() < 0.3:
                a = pick.choice(sorted(d.legal_options()))
            d.apply(int(a))


def test_solver_agrees_with_minimax_over_the_core():
    memo, n = {}, 0
    for d in _endgames(40):
        assert _solver(d) == _minimax(Deal.from_state(RULES, d.ws), memo), f"hands {d.hands()}"
        n += 1
    assert n >= 30, f"only {n} endgames reached"


def test_transposition_table_changes_no_value():
    """The solver with its table of searched bout starts against the same search without it, on endgames of up
    to 9 cards (too big for the minimax above). Keying the table on the leader's hand alone makes this fail."""
    from strategies import _endgame as E
    n = 0
    for d in _endgames(12, 9):
        assert _solver(d) == _solver(d, np.zeros(0, np.int64)), f"hands {d.hands()}"
        n += 1
    assert n >= 60, f"only {n} endgames reached"
