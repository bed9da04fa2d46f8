"""xp: `expert` with up to 7 of its knobs changed, for the leave-one-out table (results/strength/habits.py).

Parameters (i0, v0, ..., i6, v6): set knob number i_k of strategies/_lib.py (KNOB_NAMES order) to v_k on
top of expert's tuned table for the family and player count (old=1: on top of its one table per family from
before issue 14); i_k = -1: unused. Not part of the library (it lives here and
is loaded with --strategy-path results/strength/knobs)."""
import numpy as np
from numba import njit

from strategies._lib import end_answer, end_attack, h_attack, h_cover, h_exchange, h_throw_in, h_transfer
from strategies import expert as X
from sim.core.lib import K_COVER, K_THROW_IN, O_RULES
from sim.core.rules import MODE_PEREVODNOY, MODE_PODKIDNOY, R_MODE, R_PARTIAL

NAME = "xp"
DESCRIPTION = "expert with some knobs of strategies/_lib.py changed (experiments)"
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
PARAMS = {}
for _i in range(7):
    PARAMS[f"i{_i}"] = (-1.0, -1.0, 60.0, "knob index")
    PARAMS[f"v{_i}"] = (0.0, -99.0, 1e6, "value")

PARAMS["old"] = (0.0, 0.0, 1.0, "1: start from expert's one table per family from before issue 14 (K_P5, K_P6_OLD, "
                 "K_POD, K_PER), not from today's tables")
Q = np.full(16, -99.0)  # expert's own parameters: all at their tuned values


@njit(_nrt=False)
def _base(obs, p):
    if p[14] > 0:
        mode = obs[O_RULES + R_MODE]
        if mode == MODE_PEREVODNOY:
            return X.K_PER
        if mode == MODE_PODKIDNOY:
            return X.K_POD
        return X.K_P5 if obs[O_RULES + R_PARTIAL] else X.K_P6_OLD
    return X._k(obs, Q)


@njit(_nrt=False)
def _k(obs, p):
    b = _base(obs, p)
    return (_v(b, p, 0), _v(b, p, 1), _v(b, p, 2), _v(b, p, 3), _v(b, p, 4), _v(b, p, 5), _v(b, p, 6), _v(b, p, 7),
            _v(b, p, 8), _v(b, p, 9), _v(b, p, 10), _v(b, p, 11), _v(b, p, 12), _v(b, p, 13), _v(b, p, 14),
            _v(b, p, 15), _v(b, p, 16), _v(b, p, 17), _v(b, p, 18), _v(b, p, 19), _v(b, p, 20), _v(b, p, 21),
            _v(b, p, 22), _v(b, p, 23), _v(b, p, 24), _v(b, p, 25), _v(b, p, 26), _v(b, p, 27), _v(b, p, 28),
            _v(b, p, 29), _v(b, p, 30), _v(b, p, 31), _v(b, p, 32), _v(b, p, 33), _v(b, p, 34),
            _v(b, p, 35), _v(b, p, 36), _v(b, p, 37),
            _v(b, p, 38), _v(b, p, 39), _v(b, p, 40), _v(b, p, 41),
            _v(b, p, 42), _v(b, p, 43), _v(b, p, 44), _v(b, p, 45), _v(b, p, 46),
            _v(b, p, 47), _v(b, p, 48), _v(b, p, 49), _v(b, p, 50),
            _v(b, p, 51), _v(b, p, 52))  # NK = 53 (strategies/_lib.py)


@njit(_nrt=False)
def _v(b, p, j):
    for i in range(7):
        if p[2 * i] == j:
            return p[2 * i + 1]
    return b[j]


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    k = _k(obs, params)
    return end_attack(obs, k, h_attack(obs, k))


@njit(_nrt=False)
def cover(obs, legal, params, rng):
    k = _k(obs, params)
    return end_answer(obs, legal, k, K_COVER, h_cover(obs, legal, k))


@njit(_nrt=False)
def throw_in(obs, legal, params, rng):
    k = _k(obs, params)
    return end_answer(obs, legal, k, K_THROW_IN, h_throw_in(obs, legal, k))


@njit(_nrt=False)
def transfer(obs, legal, params, rng):
    return h_transfer(obs, legal, _k(obs, params))


@njit(_nrt=False)
def exchange(obs, legal, params, rng):
    return h_exchange(obs, _k(obs, params))
