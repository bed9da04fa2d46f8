"""An exact solver for the two-player throw-in endgame (helper, not a strategy: the name starts with '_').

Once the talon is empty and two players are left, every card is known: the opponent holds every card the
seat to act cannot see. The rest of the deal is then a game of perfect information with three outcomes
(escape +1, draw 0, fool -1), solved here by alpha-beta search over the bouts that follow, under the
plain podkidnoy rules (RUL-10..21: a lead of one rank, covers, throw-ins of the ranks on the table up to
the limit, throw-ins after a take) and in perevodnoy the transfers by laying a card (PER-1, PER-3..5: before
anything is covered, onto an attacker who can face one card more, back and forth, the limit set anew by the new
defender's hand). The search itself is sim/core/solver.py, over the two hands and the table as int64 bitmasks,
with a node budget; a search that runs out of budget answers "unknown". This module reads the observation:
whether the endgame is one it solves, the opponent's hand, and which options to weigh.

Moves the search leaves out because they can never be better (the answer is the same whatever they
would change): taking after having covered part of the table (the hand picked up is the same, the
attacker may throw in more ranks), the order of covers within one round (the attacker does not act
between them), and the order of throw-ins onto a taker (a set of cards is chosen at once).

A transposition table on the caller's stack holds the value (as bounds, the search being fail-soft alpha-beta)
of every bout start (LEAD: the leader's hand and the other's) searched during one decision, shared by all of its
options: the same two hands are reached by many orders of covers, throw-ins and takes.

`solve_choice` is the entry point: given the observation, the kind of decision and the heuristic's own
answer, it returns the answer to play: a proven win if there is one (the heuristic's first), else, when
the heuristic's answer is a proven loss, a proven draw or an answer not proven lost; else the heuristic's.
"""
import numpy as np
from numba import njit

from sim.core.lib import (
    FULL, NO_CARD, O_ATTACKER, O_COVER_TARGET, O_DEFENDER, O_DISCARD, O_HAND, O_HAND_SIZE, O_KNOWN, O_LIMIT, O_N,
    O_NTABLE, O_OUT, O_RULES, O_SEAT, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TAKING, O_TALON, O_TRUMP_SUIT,
    RANK_MASKS, K_ATTACK, K_COVER, K_THROW_IN, K_TRANSFER, lowest, popcount, scratch_i64, stack_i64,
)
from sim.core.rules import (
    MODE_PEREVODNOY, MODE_PODKIDNOY, R_LEAD_SINGLE, R_MAX_ATTACK, R_MODE, R_POGONY_WIN, R_POKAZNOY, R_PROEZDNOY,
    R_SIX_BEATS_ACE, R_THROW_AFTER_TAKE, R_N_TEAMS, R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_TWO_PACKS, R_VARIANT_ANY,
)
from sim.core.solver import DEF, DEF_FRESH, LEAD, THROWT, TTS, UNKNOWN, clear, limit, solve


@njit(_nrt=False)
def solvable(obs):
    """Two players left, talon empty, plain podkidnoy or perevodnoy rules (transfers by laying a card only: no
    proezdnoy or pokaznoy shows; no §6 modifier, no two packs, no partnerships)."""
    r = O_RULES
    mode = obs[r + R_MODE]
    if obs[O_TALON] != 0 or obs[r + R_VARIANT_ANY] != 0:
        return False
    if mode != MODE_PODKIDNOY and (mode != MODE_PEREVODNOY or obs[r + R_PROEZDNOY] != 0 or obs[r + R_POKAZNOY] != 0):
        return False
    if obs[r + R_TWO_PACKS] != 0 or obs[r + R_SIX_BEATS_ACE] != 0 or obs[r + R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0:
        return False
    if obs[r + R_THROW_AFTER_TAKE] == 0 or obs[r + R_POGONY_WIN] != 0 or obs[O_TRUMP_SUIT] < 0:
        return False
    n = obs[O_N]
    if obs[r + R_N_TEAMS] != n:  # partnerships: the last two may be partners, and the aim is the team's
        return False
    return n - popcount(obs[O_OUT]) == 2


@njit(_nrt=False)
def _opponent_hand(obs, opp):
    """Every card not in my hand, not discarded, not on the table: the opponent's (talon empty, 2 players)."""
    h = FULL & ~obs[O_HAND] & ~obs[O_DISCARD] & ~obs[O_TABLE_MASK]
    for s in range(obs[O_N]):
        if s != opp and s != obs[O_SEAT]:
            h &= ~obs[O_KNOWN + s]  # (players out hold nothing; kept for safety)
    return h


@njit(_nrt=False)
def solve_choice(obs, kind, legal, first, budget):
    """The answer to play at this decision (see the module docstring); `first` is the heuristic's answer.
    Call only when `solvable(obs)`."""
    me = obs[O_SEAT]
    att = obs[O_ATTACKER]
    dfn = obs[O_DEFENDER]
    opp = dfn if me == att else att
    mine = obs[O_HAND]
    his = _opponent_hand(obs, opp)
    if popcount(his) != obs[O_HAND_SIZE + opp] or mine == 0 or his == 0:
        return first
    ts = obs[O_TRUMP_SUIT]
    maxa = obs[O_RULES + R_MAX_ATTACK]
    if obs[O_RULES + R_LEAD_SINGLE] != 0:
        maxa = -maxa
    t = obs[O_TABLE_MASK]
    nt = obs[O_NTABLE]
    lim = obs[O_LIMIT]
    u = np.int64(0)
    for i in range(nt):
        if obs[O_TABLE_COV + i] < 0:
            u |= np.int64(1) << obs[O_TABLE_ATT + i]
    tt = scratch_i64(TTS)  # clear empties it: an entry is read only where its in-use bit is set
    clear(tt)
    # the options, the heuristic's first
    vf = _option_value(kind, first, mine, his, t, u, nt, lim, ts, maxa, obs, budget, tt)
    if vf == 1 or vf == UNKNOWN:  # a proven win; or too big a position to solve in the budget: the heuristic's
        return first
    best = first
    bv = vf
    if kind == K_ATTACK:
        for r in range(9):
            m = mine & RANK_MASKS[r]
            s = m
            while s:
                k = popcount(s)
                if s != first and k <= lim and (maxa > 0 or k == 1):
                    v = _option_value(kind, s, mine, his, t, u, nt, lim, ts, maxa, obs, budget, tt)
                    if v == 1:
                        return s
                    if _better(v, bv, vf):
                        best = s
                        bv = v
                s = (s - 1) & m
        return best
    # cover / throw-in: each card of legal and NO_CARD (take / pass)
    m = legal
    opt = np.int64(NO_CARD)
    while True:
        if opt != first:
            v = _option_value(kind, opt, mine, his, t, u, nt, lim, ts, maxa, obs, budget, tt)
            if v == 1:
                return opt
            if _better(v, bv, vf):
                best = opt
                bv = v
        if m == 0:
            break
        opt = lowest(m)
        m &= m - 1
    return best


@njit(_nrt=False, inline="always")
def _rank(v):
    """Order of preference: win, draw, unknown, loss."""
    if v == UNKNOWN:
        return 1
    return v + 2 if v >= 0 else 0


@njit(_nrt=False, inline="always")
def _better(v, bv, vf):
    """Switch away from the heuristic's answer (value vf) only when it is a proven loss: to the answer that is
    a proven draw, else not proven lost (unknown); a proven win is taken before this is asked."""
    return vf == -1 and _rank(v) > _rank(bv)


@njit(_nrt=False)
def _option_value(kind, opt, mine, his, t, u, nt, lim, ts, maxa, obs, budget, tt):
    """The value of answer opt for the seat to act (+1 / 0 / -1, UNKNOWN when the budget ran out)."""
    per = obs[O_RULES + R_MODE] == MODE_PEREVODNOY
    if kind == K_ATTACK:
        return solve(DEF_FRESH, mine & ~opt, his, opt, opt, popcount(opt), lim, ts, maxa, budget, tt, per, True)
    if kind == K_TRANSFER:
        if opt == NO_CARD:  # I decline and defend: values are the attacker's, negated
            v = solve(DEF_FRESH, his, mine, t, u, nt, lim, ts, maxa, budget, tt, per, False)
            return v if v == UNKNOWN else -v
        cc = np.int64(1) << opt  # I lay a card of the rank and attack him with the table
        return solve(DEF_FRESH, mine & ~cc, his, t | cc, u | cc, nt + 1, limit(his, maxa), ts, maxa, budget, tt, per,
                    True)
    if kind == K_COVER:  # I defend; values are the attacker's, negated
        if opt == NO_CARD:
            v = solve(THROWT, his, mine, t, 0, nt, lim, ts, maxa, budget, tt, per, True)
        else:
            tgt = obs[O_TABLE_ATT + obs[O_COVER_TARGET]]
            bb = np.int64(1) << opt
            v = solve(DEF, his, mine & ~bb, t | bb, u & ~(np.int64(1) << tgt), nt, lim, ts, maxa, budget, tt, per,
                     True)
        return v if v == UNKNOWN else -v
    # throw-in: I attack
    if opt == NO_CARD:
        if obs[O_TAKING] != 0:
            return solve(LEAD, mine, his | t, 0, 0, 0, 0, ts, maxa, budget, tt, per, True)  # (mine is not empty)
        if his == 0:
            return np.int64(-1)
        v = solve(LEAD, his, mine, 0, 0, 0, 0, ts, maxa, budget, tt, per, True)
        return v if v == UNKNOWN else -v
    cb = np.int64(1) << opt
    if obs[O_TAKING] != 0:
        return solve(THROWT, mine & ~cb, his, t | cb, 0, nt + 1, lim, ts, maxa, budget, tt, per, True)
    return solve(DEF_FRESH, mine & ~cb, his, t | cb, cb, nt + 1, lim, ts, maxa, budget, tt, per, True)
