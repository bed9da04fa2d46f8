"""xp: `expert` with up to 7 of its knobs changed, for the leave-one-out table (research/strength/habits.py).

Parameters (i0, v0, ..., i6, v6): set knob number i_k of strategies/_lib.py (KNOB_NAMES order) to v_k on
top of expert's tuned table for the family and player count (old=1: on top of its one table per family from
before its per-player-count tables); i_k = -1: unused. Not part of the library: it lives here and is loaded by
path, with --strategy-path research/strength/knobs (research.strength.knobs.FOLDER), never imported as a module."""
import numpy as np
from numba import njit

from strategies._lib import NK, end_answer, end_attack, h_attack, h_cover, h_exchange, h_throw_in, h_transfer, put
from research.strength.knobs._old_tables import K_P5, K_P6_OLD, K_POD, K_PER
from strategies import expert as X
from sim.core.lib import K_ATTACK, K_COVER, K_THROW_IN, O_HAND, O_RULES
from sim.core.rules import MODE_PEREVODNOY, MODE_PODKIDNOY, R_MODE, R_PARTIAL

NAME = "xp"
DESCRIPTION = "expert with some knobs of strategies/_lib.py changed (experiments)"
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
PARAMS = {}
for _i in range(7):
    PARAMS[f"i{_i}"] = (-1.0, -1.0, 60.0, "knob index")
    PARAMS[f"v{_i}"] = (0.0, -99.0, 1e6, "value")

PARAMS["old"] = (0.0, 0.0, 1.0, "1: start from expert's one table per family from before the per-player-count "
                 "tables (_old_tables.py), not from today's tables")
Q = np.full(16, -99.0)  # expert's own parameters: all at their tuned values


@njit(_nrt=False)
def _base(obs, p):
    if p[14] > 0:
        mode = obs[O_RULES + R_MODE]
        if mode == MODE_PEREVODNOY:
            return K_PER
        if mode == MODE_PODKIDNOY:
            return K_POD
        return K_P5 if obs[O_RULES + R_PARTIAL] else K_P6_OLD
    return X._k(obs, Q)


@njit(_nrt=False)
def _k(obs, p):
    k = _base(obs, p)
    for i in range(6, -1, -1):  # backwards: when two pairs name the same knob, the first one's value stays
        j = p[2 * i]
        if 0.0 <= j < NK and j == np.floor(j):  # -1 (unused), a fraction or past the last knob: no knob
            k = put(k, np.int64(j), p[2 * i + 1])
    return k


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    k = _k(obs, params)
    return X.roll(obs, K_ATTACK, obs[O_HAND], k, end_attack(obs, k, h_attack(obs, k)), params, rng)


@njit(_nrt=False)
def cover(obs, legal, params, rng):
    k = _k(obs, params)
    return X.roll(obs, K_COVER, legal, k, end_answer(obs, legal, k, K_COVER, h_cover(obs, legal, k)), params, rng)


@njit(_nrt=False)
def throw_in(obs, legal, params, rng):
    k = _k(obs, params)
    return X.roll(obs, K_THROW_IN, legal, k, end_answer(obs, legal, k, K_THROW_IN, h_throw_in(obs, legal, k)), params,
                  rng)


@njit(_nrt=False)
def transfer(obs, legal, params, rng):
    return h_transfer(obs, legal, _k(obs, params))


@njit(_nrt=False)
def exchange(obs, legal, params, rng):
    return h_exchange(obs, _k(obs, params))
