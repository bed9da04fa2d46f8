"""Rollouts inside a heuristic: expert's endgames (helper, not a strategy: the name starts with '_').

With the talon empty and three players left in podkidnoy (two or three in simple durak), little is hidden: at 6
players the seat to act cannot place 0-4 cards (a median of 2; the rest it holds, saw discarded or saw taken). A
few guesses of those cards, and every option played out to the end, tell the options apart well: search deciding
only there gains +4.2 points over expert in 6-player podkidnoy, with 128 guesses or with 4, with greedy's imagined
games as with expert's (results/strength/multi/phases.md). ``ROLLOUT_SAMPLES`` and ``ROLLOUT_ACTIVE``
(strategies/_lib.py) turn it on; strategies/expert.py has what it is worth.

Who plays the imagined games: greedy in every other seat. The seat itself plays greedy too, or with
``ROLLOUT_SELF`` its own knob table (rollouts off). That is the classic policy rollout: an option is judged by how
the heuristic itself would go on from it. Judged by greedy's play, options that the heuristic handles better later
look worse than they are. It gained in every cell tried (strategies/expert.py).

Nothing allocates (the engine is compiled without NRT): the work arrays live on the caller's stack. The imagined
games run with rollouts off, so the rollout never calls itself. Deterministic: the guesses draw from the game's own
`rng`.
"""
import numpy as np
from numba import njit

from sim.core.kernels import apply_any, sample_hidden
from sim.core.layout import (
    F_OUTCOME, F_SIZE, F_UNFINISHED, K_ATTACK, K_COVER, K_THROW_IN, K_TRANSFER, O_ACTOR, O_KIND, OUT_ESCAPED, OUT_FOOL,
    S_HANDS, S_LEGAL, STATE_SIZE,
)
from sim.core.lib import (
    O_HAND, O_N, O_OUT, O_RULES, O_SEAT, O_SIZE, O_TALON, RANK_MASKS, attack_ok, lowest, popcount, stack_i64,
)
from sim.core.rules import MODE_PEREVODNOY, MODE_PROSTOY, R_MODE, R_SIZE, R_TWO_PACKS, R_VARIANT_ANY
from strategies import greedy as _greedy
from strategies._features import add_option, lowest_pair, take_or_cover
from strategies._lib import ROLLOUT_SELF, h_attack, h_cover, h_throw_in, restless, unseen

MAXC = 48  # options tried at most: a lead of any single or whole rank, a cover by any card or a take, ...


@njit(_nrt=False)
def rollout_here(obs, samples, most):
    """The knob on, talon empty, one pack, no §6 variant, at most `most` players in (at least three in podkidnoy:
    two are the exact solver's)."""
    mode = obs[O_RULES + R_MODE]
    if samples <= 0 or mode == MODE_PEREVODNOY or obs[O_TALON] != 0:
        return False
    if obs[O_RULES + R_VARIANT_ANY] != 0 or obs[O_RULES + R_TWO_PACKS] != 0 or restless(obs):  # going round: varied play
        return False
    active = obs[O_N] - popcount(obs[O_OUT])
    return (3 if mode != MODE_PROSTOY else 2) <= active <= most


@njit(_nrt=False)
def _options(obs, kind, legal, first, cands):
    """The options tried: `first` (the heuristic's answer) first; leads: every single, then in podkidnoy every whole
    rank held twice or more, in simple durak every pair (the two lowest of a rank) with any one card and every two
    pairs with any one card; covers / throw-ins: take / pass and every legal card."""
    nc = add_option(cands, 0, first)
    if kind == K_ATTACK:
        hand = obs[O_HAND]
        m = hand
        while m:
            c = lowest(m)
            m &= m - 1
            if attack_ok(obs, hand, np.int64(1) << c):
                nc = add_option(cands, nc, np.int64(1) << c)
        if obs[O_RULES + R_MODE] != MODE_PROSTOY:
            for r in range(9):
                s = hand & RANK_MASKS[r]
                if popcount(s) >= 2 and attack_ok(obs, hand, s):
                    nc = add_option(cands, nc, s)
            return nc
        for r in range(9):
            p = lowest_pair(hand, r)
            if p == 0:
                continue
            for r2 in range(r, 9):
                q = np.int64(0) if r2 == r else lowest_pair(hand, r2)
                if r2 != r and q == 0:
                    continue
                rest = hand & ~p & ~q
                while rest:
                    c = lowest(rest)
                    rest &= rest - 1
                    a = p | q | (np.int64(1) << c)
                    if attack_ok(obs, hand, a):
                        nc = add_option(cands, nc, a)
        return nc
    nc = take_or_cover(cands, nc, legal)
    return nc


@njit(_nrt=False)
def _greedy_answer(kind, obs, legal, params, rng):
    if kind == K_ATTACK:
        return _greedy.attack(obs, legal, params, rng)
    if kind == K_COVER:
        return _greedy.cover(obs, legal, params, rng)
    if kind == K_THROW_IN:
        return _greedy.throw_in(obs, legal, params, rng)
    if kind == K_TRANSFER:  # (not in podkidnoy)
        return _greedy.transfer(obs, legal, params, rng)
    return _greedy.exchange(obs, legal, params, rng)


@njit(_nrt=False)
def _own_answer(kind, obs, legal, k, params, rng):
    """The seat's own later decisions in an imagined game: the knob heuristics on its table `k` (the h_* functions;
    rollouts are expert's wrapper, so none run here), or greedy's where the heuristic has no such kind here."""
    if kind == K_ATTACK:
        return h_attack(obs, k)
    if kind == K_COVER:
        return h_cover(obs, legal, k)
    if kind == K_THROW_IN:
        return h_throw_in(obs, legal, k)
    return _greedy_answer(kind, obs, legal, params, rng)


@njit(_nrt=False)
def rollout_choice(obs, kind, legal, first, samples, k, params, rng):
    """The option with the best mean outcome for this seat (+1 escaped, 0 drew or unfinished, -1 fool) over
    `samples` guesses of the hidden cards, every option played out on the same guesses; `first` on ties. In the
    imagined games greedy plays every seat, the seat itself too unless ROLLOUT_SELF (then its own knobs `k`)."""
    own = k[ROLLOUT_SELF] > 0
    cands = stack_i64(MAXC)
    nc = _options(obs, kind, legal, first, cands)
    if nc <= 1:
        return first
    score = stack_i64(MAXC)
    tried = stack_i64(MAXC)
    for j in range(nc):
        score[j] = 0
        tried[j] = 0
    rv = stack_i64(R_SIZE)
    for i in range(R_SIZE):
        rv[i] = obs[O_RULES + i]
    base = stack_i64(STATE_SIZE)
    ws = stack_i64(STATE_SIZE)
    rec = stack_i64(F_SIZE)
    flat = stack_i64(4)
    trace = flat.reshape((1, 4))
    tn = stack_i64(1)
    me = obs[O_SEAT]
    if unseen(obs) == 0:
        samples = 1  # nothing hidden: every guess is the same deal, and greedy's games are deterministic
    for _ in range(samples):
        if not sample_hidden(obs, rng, base):
            continue
        for j in range(nc):
            for i in range(STATE_SIZE):
                ws[i] = base[i]
            for i in range(F_SIZE):
                rec[i] = 0
            tn[0] = 0
            if not apply_any(rv, ws, rec, cands[j], trace, tn, False):
                continue
            ok = True
            while ws[O_KIND] >= 0:  # to the end: greedy, the seat itself by k if ROLLOUT_SELF
                seat = ws[O_ACTOR]
                ws[O_SEAT] = seat
                ws[O_HAND] = ws[S_HANDS + seat]
                if own and seat == me:
                    a = _own_answer(ws[O_KIND], ws[:O_SIZE], ws[S_LEGAL], k, params, rng)
                else:
                    a = _greedy_answer(ws[O_KIND], ws[:O_SIZE], ws[S_LEGAL], params, rng)
                if not apply_any(rv, ws, rec, a, trace, tn, False):
                    ok = False
                    break
            if not ok:
                continue
            tried[j] += 1
            if rec[F_UNFINISHED] == 0:
                o = rec[F_OUTCOME + me]
                score[j] += 1 if o == OUT_ESCAPED else (-1 if o == OUT_FOOL else 0)
    best = -1
    bv = -2.0
    for j in range(nc):
        if tried[j] > 0 and score[j] / tried[j] > bv:
            bv = score[j] / tried[j]
            best = j
    return first if best < 0 else cands[best]
