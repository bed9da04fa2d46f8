"""search: determinized Monte Carlo search at every decision (lead, cover/take, throw-in/pass,
transfer/show, trump-six exchange).

At each decision with more than one option it completes its own observation into a full deal
`samples` times with the core's `sample_hidden` (the cards it cannot see dealt uniformly at random,
consistent with what it saw: cards taken, shown, discarded, transfers, hand sizes). For every
candidate option it applies the option on a copy of each sampled deal and plays the deal to the end
on the compiled kernels with a fast library policy in every seat (`expert` by default, `greedy`
with `playout=0`), scoring +1 when its seat (its team in team games) escapes, 0 for a draw, -1 as the
fool. The same sampled deals serve every candidate (a paired comparison); the best mean wins, ties
go to expert's choice (which is always a candidate and listed first).

Candidates: covers / throw-ins / transfers: every card of `legal` plus NO_CARD (take / pass / no
transfer) and every show of `obs[O_SHOW_LEGAL]`; exchange: 0 and 1; leads: expert's choice, every
single card, whole same-rank sets (podkidnoy / perevodnoy) and pair(s)+one card sets (simple
durak), each tested with the core's `attack_ok`, at most `candidates` of them (expert's first,
then singles from the lowest, then sets). One legal option: answered at once, no search.

Idea: perfect-information Monte Carlo ("determinization"), as in Ginsberg's GIB for bridge; Long
et al. (2010) on why it works in trick-taking games. `strategies/rollout.py` does the same for the
lead only. Deterministic for a given seed: all its randomness comes from the `rng` it is given.
"""
import numpy as np
from numba import njit

from sim.core.kernels import apply_any, apply_packs, sample_hidden  # apply_any: two packs too (VAR-BD1)
from sim.core.layout import O_HAND2, S_HANDS2
from sim.core.layout import (
    F_OUTCOME, F_SIZE, F_UNFINISHED, K_ATTACK, K_COVER, K_EXCHANGE, K_SWAP, K_THROW_IN, K_TRANSFER,
    NO_CARD, O_ACTOR, O_KIND, OUT_DREW, OUT_ESCAPED, S_HANDS, S_LEGAL, STATE_SIZE)
from sim.core.lib import O_HAND, O_RULES, O_SEAT, O_SHOW_LEGAL, O_SIZE, stack_f64, stack_i64, stack_u64
from sim.core.rules import R_SIZE, R_TWO_PACKS
from strategies import expert as _expert
from strategies._features import options as candidates  # the options weighed: one copy, shared with learned
from strategies._lib import solve_here
from strategies import greedy as _greedy

NAME = "search"
DESCRIPTION = "Determinized Monte Carlo search at every decision: samples the hidden cards, plays each option out."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "samples": (128.0, 1.0, 4096.0, "how many guesses of the cards it cannot see it plays out per decision "
                "(more: stronger and slower)"),
    "candidates": (10.0, 1.0, 64.0, "how many leads it tries at most (expert's, then single cards lowest first, "
                   "then sets)"),
    "playout": (1.0, 0.0, 1.0, "how everyone plays in its imagined games: 0 = like greedy (fastest), 1 = like expert "
                "(stronger)"),
}
WHOLE_PARAMS = tuple(PARAMS)

EXPERT = _expert.PLAYOUT  # expert's parameters: its tuned values, the endgame solver capped
MAXC = 96
NPZ = len(EXPERT)
NTALLY = MAXC * 3  # a tally row per candidate: escaped, drew, fool


@njit(cache=True, _nrt=False)
def _policy(kind, obs, legal, pz, srng, which):
    if which == 1:
        if kind == K_ATTACK:
            return _expert.attack(obs, legal, pz, srng)
        if kind == K_COVER:
            return _expert.cover(obs, legal, pz, srng)
        if kind == K_THROW_IN:
            return _expert.throw_in(obs, legal, pz, srng)
        if kind == K_TRANSFER:
            return _expert.transfer(obs, legal, pz, srng)
        if kind == K_SWAP:
            return _expert.swap(obs, legal, pz, srng)
        return _expert.exchange(obs, legal, pz, srng)
    if kind == K_ATTACK:
        return _greedy.attack(obs, legal, pz, srng)
    if kind == K_COVER:
        return _greedy.cover(obs, legal, pz, srng)
    if kind == K_THROW_IN:
        return _greedy.throw_in(obs, legal, pz, srng)
    if kind == K_TRANSFER:
        return _greedy.transfer(obs, legal, pz, srng)
    if kind == K_SWAP:
        return _greedy.swap(obs, legal, pz, srng)
    return _greedy.exchange(obs, legal, pz, srng)


@njit(cache=True, _nrt=False)
def playout(rv, ws, rec, trace, tn, pz, srng, which):
    """Play a full state to the end with one policy in every seat. False if an answer was illegal."""
    if rv[R_TWO_PACKS] != 0:
        return _playout_two_packs(rv, ws, rec, trace, tn, pz, srng, which)
    return _playout(rv, ws, rec, trace, tn, pz, srng, which, False)


@njit(cache=True, _nrt=False)
def _playout_two_packs(rv, ws, rec, trace, tn, pz, srng, which):
    return _playout(rv, ws, rec, trace, tn, pz, srng, which, True)


@njit(cache=True, _nrt=False, inline="always")
def _playout(rv, ws, rec, trace, tn, pz, srng, which, two):
    """The playout loop; `two` (two packs, VAR-BD1) is a constant at both calls above, so the one-pack
    loop has no two-pack step in it."""
    obs = ws[:O_SIZE]
    while True:
        kind = ws[O_KIND]
        if kind < 0:
            return True
        seat = ws[O_ACTOR]
        ws[O_SEAT] = seat
        ws[O_HAND] = ws[S_HANDS + seat]
        if two:
            ws[O_HAND2] = ws[S_HANDS2 + seat]
        a = _policy(kind, obs, ws[S_LEGAL], pz, srng, which)
        if not apply_packs(rv, ws, rec, a, trace, tn, False, two, True):
            return False


@njit(cache=True, _nrt=False)
def evaluate(obs, cands, nc, samples, which, rng, tally):
    """Play every candidate out on `samples` sampled deals (paired: every candidate sees the same
    deals and the same playout randomness); tally[j, o] counts outcome o (OUT_ESCAPED, OUT_DREW,
    OUT_FOOL) of this seat after candidate j. Returns the number of deals sampled."""
    me = obs[O_SEAT]
    # work arrays on this function's stack (no allocation, so no memory manager and no reference counts
    # anywhere in the playouts); zeroed as np.zeros would
    rv = stack_i64(R_SIZE)
    for i in range(R_SIZE):
        rv[i] = obs[O_RULES + i]
    base = stack_i64(STATE_SIZE)
    base[:] = 0
    ws = stack_i64(STATE_SIZE)
    ws[:] = 0
    rec = stack_i64(F_SIZE)
    rec[:] = 0
    trace = stack_i64(4).reshape((1, 4))
    trace[:] = 0
    tn = stack_i64(1)
    tn[0] = 0
    pz = stack_f64(NPZ)
    for i in range(NPZ):
        pz[i] = EXPERT[i]
    srng = stack_u64(1)
    srng[0] = 0
    done = 0
    for _ in range(samples):
        if not sample_hidden(obs, rng, base):
            continue
        seed = rng[0]
        for j in range(nc):
            for i in range(STATE_SIZE):  # a loop: the slice copy ws[:] = base needs the memory manager
                ws[i] = base[i]
            rec[:] = 0
            for s in range(6):
                rec[F_OUTCOME + s] = OUT_ESCAPED
            srng[0] = seed
            if not apply_any(rv, ws, rec, cands[j], trace, tn, False):
                continue
            if not playout(rv, ws, rec, trace, tn, pz, srng, which):
                continue
            if rec[F_UNFINISHED] != 0:  # RUL-22: a playout still going after MAX_BOUTS bouts (a cycle) is a draw,
                tally[j, OUT_DREW] += 1  # not an escape: else a line that cycles would look like a win
            else:
                tally[j, rec[F_OUTCOME + me]] += 1
        done += 1
    return done


@njit(cache=True, _nrt=False)
def decide(obs, kind, legal, params, rng, first):
    if (kind == K_ATTACK or kind == K_COVER or kind == K_THROW_IN) and solve_here(obs, _expert._k(obs, EXPERT)):
        return first  # expert's answer is the exact endgame solver's (ENDGAME_SOLVE): nothing to sample
    samples = np.int64(params[0]) if params[0] >= 1 else 128
    cap = np.int64(params[1]) if params[1] >= 1 else 10
    which = np.int64(params[2])
    cands = stack_i64(MAXC)
    cands[:] = 0
    nc = candidates(obs, kind, legal, first, cands, cap)
    if nc <= 1:
        return first
    tally = stack_i64(NTALLY).reshape((MAXC, 3))
    tally[:] = 0
    if evaluate(obs, cands, nc, samples, which, rng, tally) == 0:
        return first
    best = 0
    bv = -2.0
    for j in range(nc):
        n = tally[j, 0] + tally[j, 1] + tally[j, 2]
        if n > 0 and (tally[j, 0] - tally[j, 2]) / n > bv:  # +1 escaped, 0 drew, -1 fool
            bv = (tally[j, 0] - tally[j, 2]) / n
            best = j
    return cands[best]


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    return decide(obs, K_ATTACK, legal, params, rng, _expert.attack(obs, legal, EXPERT, rng))


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_COVER, legal, params, rng, _expert.cover(obs, legal, EXPERT, rng))


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_THROW_IN, legal, params, rng, _expert.throw_in(obs, legal, EXPERT, rng))


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    if legal == 0 and obs[O_SHOW_LEGAL] == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_TRANSFER, legal, params, rng, _expert.transfer(obs, legal, EXPERT, rng))


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return decide(obs, K_EXCHANGE, legal, params, rng, _expert.exchange(obs, legal, EXPERT, rng))


@njit(cache=True, _nrt=False)
def swap(obs, legal, params, rng):
    return decide(obs, K_SWAP, legal, params, rng, _expert.swap(obs, legal, EXPERT, rng))
