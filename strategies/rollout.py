"""rollout: a search player. At every lead it samples what it cannot see and plays each candidate out.

The lead is the decision that shapes a bout, so that is where it searches: it deals the unseen
cards (everything not in its hand, the discard, or known to be in a hand) at random to the
other hands (keeping the cards everybody saw them pick up) and to the talon (the face-up trump
card stays at the bottom), `samples` times. For each candidate lead (every distinct card as a
single, plus expert's own choice, which may be a set), it plays the deal to the end on the
compiled core with `greedy` in every seat — the fast playout policy — from exactly the position
after that lead (search's `evaluate`), and scores +1 when its side escapes, 0 for a draw (a playout cut
off as a cycle too), -1 as the fool. The best
average wins (ties: expert's choice). The same sampled deals serve every candidate, so the
comparison between candidates is paired. Covers, throw-ins, transfers and the trump-six exchange
are expert's.

Idea: Monte Carlo determinized search ("perfect information Monte Carlo"), as used for card games
with hidden information (Ginsberg's GIB for bridge; Long et al. 2010 on why it works in trick games).
`durak bench` reports its strength and games/s at the default budget.
"""
import numpy as np
from numba import njit

from sim.core.lib import O_HAND, attack_ok, bit, lowest, stack_i64
from strategies import expert as _expert
from strategies import search as _search

NAME = "rollout"
DESCRIPTION = "Search player: samples hidden cards, plays every candidate lead out with greedy, picks the best."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "samples": (12.0, 1.0, 512.0, "how many guesses of the cards it cannot see it plays out per lead (more: "
                "stronger and slower)"),
    "candidates": (8.0, 1.0, 36.0, "how many one-card leads it tries (lowest first), besides expert's choice"),
}
WHOLE_PARAMS = tuple(PARAMS)

NCAND = 37  # expert's lead and at most 36 single cards
NTALLY = NCAND * 3
EXPERT = _expert.PLAYOUT  # expert's parameters: its tuned values, the endgame solver capped


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    hand = obs[O_HAND]
    mine = _expert.attack(obs, legal, EXPERT, rng)
    samples = np.int64(params[0]) if params[0] >= 1 else 12
    max_cand = np.int64(params[1]) if params[1] >= 1 else 8
    cands = stack_i64(NCAND)
    cands[:] = 0
    cands[0] = mine  # legal (attack_ok), so within the limit in simple durak too
    nc = 1
    m = hand
    while m and nc <= max_cand:
        c = lowest(m)
        m &= m - 1
        if bit(c) != mine and attack_ok(obs, hand, bit(c)):  # zanudny / tryoshka restrict singles
            cands[nc] = bit(c)
            nc += 1
    if nc == 1:
        return mine
    # search's paired evaluation with greedy playouts; the best mean score (+1 escaped, 0 drew, -1 fool)
    tally = stack_i64(NTALLY).reshape((NCAND, 3))
    tally[:] = 0
    if _search.evaluate(obs, cands, nc, samples, 0, rng, tally) == 0:
        return mine
    best = 0
    for j in range(1, nc):
        if tally[j, 0] - tally[j, 2] > tally[best, 0] - tally[best, 2]:
            best = j
    return cands[best]


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    return _expert.cover(obs, legal, EXPERT, rng)


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    return _expert.throw_in(obs, legal, EXPERT, rng)


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    return _expert.transfer(obs, legal, EXPERT, rng)


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return _expert.exchange(obs, legal, EXPERT, rng)

