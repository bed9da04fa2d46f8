"""An exact solver for the two-player throw-in endgame (helper, not a strategy: the name starts with '_').

Once the talon is empty and two players are left, every card is known: the opponent holds every card the
seat to act cannot see. The rest of the deal is then a game of perfect information with three outcomes
(escape +1, draw 0, fool -1), solved here by alpha-beta search over the bouts that follow, under the
plain podkidnoy rules (RUL-10..21: a lead of one rank, covers, throw-ins of the ranks on the table up to
the limit, throw-ins after a take) and in perevodnoy the transfers by laying a card (PER-1, PER-3..5: before
anything is covered, onto an attacker who can face one card more, back and forth, the limit set anew by the new
defender's hand). Nothing allocates (the engine is compiled without NRT): the whole
position is a handful of int64 bitmasks passed down the recursion, with a node budget; a search that runs
out of budget answers "unknown".

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

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from sim.core.lib import (
    FULL, NIBBLE_LOW, NO_CARD, O_ATTACKER, O_COVER_TARGET, O_DEFENDER, O_DISCARD, O_HAND, O_HAND_SIZE, O_KNOWN, O_LIMIT, O_N,
    O_NTABLE, O_OUT, O_RULES, O_SEAT, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TAKING, O_TALON, O_TRUMP_SUIT,
    RANK_MASKS, K_ATTACK, K_COVER, K_THROW_IN, K_TRANSFER, lowest, popcount,
)
from sim.core.rules import (
    MODE_PEREVODNOY, MODE_PODKIDNOY, R_LEAD_SINGLE, R_MAX_ATTACK, R_MODE, R_POGONY_WIN, R_POKAZNOY, R_PROEZDNOY,
    R_SIX_BEATS_ACE, R_THROW_AFTER_TAKE, R_N_TEAMS, R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_TWO_PACKS, R_VARIANT_ANY,
)

# phases of the search: LEAD, THROW, THROWT are the attacker's (max), DEF and DEF_FRESH the defender's (min)
LEAD, DEF_FRESH, DEF, THROW, THROWT = 0, 1, 2, 3, 4
UNKNOWN = -9  # a value the budget did not allow to find
# one frame of the explicit stack (the search is iterative: numba's cache cannot hold recursive functions)
PH, A, D, T, U, NT, LIM, AL, BE, BEST, I1, I2, NEG, OPT0, AL0, BE0, TR = range(17)
FS = 17
MAXD = 96  # frames; a deeper line answers UNKNOWN
BUF = MAXD * FS
# the transposition table: values of bout starts (LEAD: the leader's hand a, the other's d) already searched in
# this decision, as bounds [lo, hi] for the leader; TTN entries of (a, d, lo, hi), on the caller's stack
TTN = 1024
TTS = 4 * TTN
NOVAL = -5


@intrinsic
def _stack_i64(typingctx, n):
    """A 1-d int64 array of n (a literal) elements on the caller's stack: scratch memory without NRT."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value
    arrty = types.Array(types.int64, 1, "C")

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        ptr = cgutils.alloca_once(builder, ir.ArrayType(i64, size))
        data = builder.bitcast(ptr, i64.as_pointer())
        ary = context.make_array(arrty)(context, builder)
        itemsize = context.get_constant(types.intp, 8)
        context.populate_array(ary, data=data, shape=[context.get_constant(types.intp, size)], strides=[itemsize],
                               itemsize=itemsize, meminfo=None)
        return ary._getvalue()
    return arrty(n), codegen


@njit(_nrt=False, inline="always")
def _beat(c, ts, hand):
    """Cards of `hand` that beat c (plain rules, trump suit ts)."""
    s = c & 3
    m = (NIBBLE_LOW << s) & ~((np.int64(2) << c) - 1)
    if s != ts:
        m |= NIBBLE_LOW << ts
    return m & hand


@njit(_nrt=False, inline="always")
def _ranks(t):
    """Every card of the ranks present in t."""
    x = (t | (t >> 1) | (t >> 2) | (t >> 3)) & NIBBLE_LOW
    return x * 15


@njit(_nrt=False, inline="always")
def _limit(defender, maxa):
    """A bout's limit on attack cards: the defender's hand, at most the rules' maximum (maxa < 0: singles only)."""
    nd = popcount(defender)
    mx = maxa if maxa > 0 else -maxa
    return nd if nd < mx else mx


@njit(_nrt=False)
def _push(buf, fb, ph, a, d, t, u, nt, lim, al, be, neg, ts, maxa, per):
    """Open a frame at buf[fb:]: a node of the search with its move iterator at the start. per: perevodnoy, where a
    defender facing a table with nothing covered yet may transfer (TR)."""
    if (ph == DEF or ph == DEF_FRESH) and u == 0:
        ph = THROW  # every card covered: the attacker throws in or passes
    buf[fb + PH] = ph
    buf[fb + A] = a
    buf[fb + D] = d
    buf[fb + T] = t
    buf[fb + U] = u
    buf[fb + NT] = nt
    buf[fb + AL] = al
    buf[fb + BE] = be
    buf[fb + NEG] = neg
    buf[fb + I1] = 0
    buf[fb + I2] = 0
    buf[fb + OPT0] = 0
    buf[fb + BEST] = -2
    buf[fb + AL0] = al
    buf[fb + BE0] = be
    buf[fb + TR] = 1 if per and ph == DEF_FRESH and t == u else 0
    if ph == LEAD:
        lim = _limit(d, maxa)
        buf[fb + I1] = -1
    elif ph == THROW:
        buf[fb + I1] = a & _ranks(t) if nt < lim else np.int64(0)
    elif ph == THROWT:
        ok = a & _ranks(t)
        buf[fb + U] = ok
        buf[fb + I1] = ok
    else:
        opts = _beat(lowest(u), ts, d)
        buf[fb + I1] = opts
        buf[fb + OPT0] = opts
        buf[fb + I2] = 0 if opts else 1
        buf[fb + BEST] = 2
    buf[fb + LIM] = lim


@njit(_nrt=False)
def _next(buf, fb, ts, maxa, per):
    """Advance frame fb to its next move: (0, 0) a child frame was opened at fb + FS; (1, v) the move ends
    the deal with value v for this frame's attacker; (2, 0) no move left."""
    ph = buf[fb + PH]
    a = buf[fb + A]
    d = buf[fb + D]
    t = buf[fb + T]
    u = buf[fb + U]
    nt = buf[fb + NT]
    lim = buf[fb + LIM]
    al = buf[fb + AL]
    be = buf[fb + BE]
    cb = fb + FS
    if ph == LEAD:
        r = buf[fb + I1]
        s = buf[fb + I2]
        while True:
            if s == 0:
                r += 1
                if r >= 9:
                    buf[fb + I1] = r
                    return 2, np.int64(0)
                s = a & RANK_MASKS[r]
                continue
            m = a & RANK_MASKS[r]
            cur = s
            s = (s - 1) & m
            k = popcount(cur)
            if k <= lim and (maxa > 0 or k == 1):
                buf[fb + I1] = r
                buf[fb + I2] = s
                _push(buf, cb, DEF_FRESH, a & ~cur, d, cur, cur, k, lim, al, be, 0, ts, maxa, per)
                return 0, np.int64(0)
    if ph == DEF or ph == DEF_FRESH:
        if buf[fb + I2] == 0:
            m = buf[fb + I1]
            if m:
                b = lowest(m)
                buf[fb + I1] = m & (m - 1)
                bb = np.int64(1) << b
                _push(buf, cb, DEF, a, d & ~bb, t | bb, u & ~(np.int64(1) << lowest(u)), nt, lim, al, be, 0, ts,
                      maxa, per)
                return 0, np.int64(0)
            buf[fb + I2] = 1
        if buf[fb + I2] == 1:
            buf[fb + I2] = 2
            if ph == DEF_FRESH or buf[fb + OPT0] == 0:  # taking after covering part of it never helps
                _push(buf, cb, THROWT, a, d, t, 0, nt, lim, al, be, 0, ts, maxa, per)
                return 0, np.int64(0)
        if buf[fb + I2] == 2:  # transfers (PER-1, PER-3): a card of the rank led, if the attacker can face one more
            buf[fb + I2] = 3
            buf[fb + I1] = d & _ranks(t) if buf[fb + TR] != 0 and popcount(a) >= nt + 1 else np.int64(0)
        m = buf[fb + I1]
        if m:
            c = lowest(m)
            buf[fb + I1] = m & (m - 1)
            cc = np.int64(1) << c
            # the roles change: the transferrer attacks the old attacker, whose hand sets the new limit
            _push(buf, cb, DEF_FRESH, d & ~cc, a, t | cc, u | cc, nt + 1, _limit(a, maxa), -be, -al, 1, ts, maxa, per)
            return 0, np.int64(0)
        return 2, np.int64(0)
    if ph == THROW:
        if buf[fb + I2] == 0:
            m = buf[fb + I1]
            if m:
                c = lowest(m)
                buf[fb + I1] = m & (m - 1)
                cc = np.int64(1) << c
                _push(buf, cb, DEF_FRESH, a & ~cc, d, t | cc, cc, nt + 1, lim, al, be, 0, ts, maxa, per)
                return 0, np.int64(0)
            buf[fb + I2] = 1
        if buf[fb + I2] == 1:
            buf[fb + I2] = 2
            # pass: the bout ends, the table is discarded, the defender attacks next
            if a == 0:
                return 1, np.int64(0) if d == 0 else np.int64(1)
            if d == 0:
                return 1, np.int64(-1)
            _push(buf, cb, LEAD, d, a, 0, 0, 0, 0, -be, -al, 1, ts, maxa, per)
            return 0, np.int64(0)
        return 2, np.int64(0)
    # THROWT: the defender takes; the attacker adds a set of the ranks on the table (up to the limit)
    if buf[fb + I2] == 1:
        return 2, np.int64(0)
    s = buf[fb + I1]
    ok = u
    room = lim - nt
    while True:
        cur = s
        if s == 0:
            buf[fb + I2] = 1
        else:
            s = (s - 1) & ok
        buf[fb + I1] = s
        if popcount(cur) <= room:
            a2 = a & ~cur
            if a2 == 0:
                return 1, np.int64(1)  # the attacker is out, the taker keeps cards: he is the fool
            _push(buf, cb, LEAD, a2, d | t | cur, 0, 0, 0, 0, al, be, 0, ts, maxa, per)
            return 0, np.int64(0)
        if buf[fb + I2] == 1:
            return 2, np.int64(0)


@njit(_nrt=False, inline="always")
def _take(buf, fb, v):
    """Fold a child's value into frame fb; True on a cut-off."""
    if buf[fb + PH] == DEF or buf[fb + PH] == DEF_FRESH:
        if v < buf[fb + BEST]:
            buf[fb + BEST] = v
            if v < buf[fb + BE]:
                buf[fb + BE] = v
    else:
        if v > buf[fb + BEST]:
            buf[fb + BEST] = v
            if v > buf[fb + AL]:
                buf[fb + AL] = v
    return buf[fb + AL] >= buf[fb + BE]


@njit(_nrt=False, inline="always")
def _slot(a, d):
    h = a * np.int64(0x7F4A7C159E3779B9) + d * np.int64(0x27D4EB2F165667C5)
    return ((h >> 40) & (TTN - 1)) * 4


@njit(_nrt=False)
def _probe(tt, buf, fb):
    """A LEAD frame just opened at fb: its value if the table settles it (NOVAL if not; the frame's window is
    narrowed to what the table knows)."""
    a = buf[fb + A]
    d = buf[fb + D]
    i = _slot(a, d)
    if tt[i] != a or tt[i + 1] != d:
        return NOVAL
    lo = tt[i + 2]
    hi = tt[i + 3]
    al = buf[fb + AL]
    be = buf[fb + BE]
    if lo == hi or lo >= be:
        return lo
    if hi <= al:
        return hi
    if lo > al:
        buf[fb + AL] = lo
        buf[fb + AL0] = lo
    if hi < be:
        buf[fb + BE] = hi
        buf[fb + BE0] = hi
    return NOVAL


@njit(_nrt=False)
def _store(tt, buf, fb, v):
    """A LEAD frame searched to value v (fail-soft, within its window AL0..BE0): keep what it proves."""
    a = buf[fb + A]
    d = buf[fb + D]
    i = _slot(a, d)
    lo = np.int64(-1)
    hi = np.int64(1)
    if tt[i] == a and tt[i + 1] == d:
        lo = tt[i + 2]
        hi = tt[i + 3]
    if v <= buf[fb + AL0]:
        hi = v if v < hi else hi
    elif v >= buf[fb + BE0]:
        lo = v if v > lo else lo
    else:
        lo = v
        hi = v
    tt[i] = a
    tt[i + 1] = d
    tt[i + 2] = lo
    tt[i + 3] = hi


@njit(_nrt=False)
def clear(tt):
    for i in range(0, TTS, 4):
        tt[i] = 0
        tt[i + 1] = 0


@njit(_nrt=False, inline="always")
def _done(tt, use, buf, fb):
    """Frame fb is searched: keep a bout start's value in the table; its value for the frame above."""
    v = buf[fb + BEST]
    if use and buf[fb + PH] == LEAD:
        _store(tt, buf, fb, v)
    return -v if buf[fb + NEG] else v


@njit(_nrt=False)
def _run(ph, a, d, t, u, nt, lim, ts, maxa, budget, tt, per, tr0):
    """Alpha-beta from one node (window -1..1): its value for the attacker of that bout, or UNKNOWN. tt: the
    transposition table (TTS int64, shared by every option of a decision; empty: none); per: perevodnoy; tr0 0: the
    defender of the first node has declined to transfer."""
    buf = _stack_i64(BUF)
    use = tt.shape[0] > 0
    _push(buf, 0, ph, a, d, t, u, nt, lim, np.int64(-1), np.int64(1), 0, ts, maxa, per)
    if not tr0:
        buf[TR] = 0
    sp = 0
    left = budget
    while True:
        fb = sp * FS
        code, val = _next(buf, fb, ts, maxa, per)
        left -= 1
        if left < 0:
            return UNKNOWN
        if code == 0:
            if sp + 2 >= MAXD:
                return UNKNOWN
            cf = fb + FS
            if not use or buf[cf + PH] != LEAD:
                sp += 1
                continue
            hv = _probe(tt, buf, cf)
            if hv == NOVAL:
                sp += 1
                continue
            code = 1
            val = -hv if buf[cf + NEG] else hv
        if code == 1:
            if not _take(buf, fb, val):
                continue
        v = _done(tt, use, buf, fb)
        while True:  # the frame is done: fold its value into its parents
            if sp == 0:
                return v
            sp -= 1
            fb = sp * FS
            if not _take(buf, fb, v):
                break
            v = _done(tt, use, buf, fb)


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
    tt = _stack_i64(TTS)
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
        return _run(DEF_FRESH, mine & ~opt, his, opt, opt, popcount(opt), lim, ts, maxa, budget, tt, per, True)
    if kind == K_TRANSFER:
        if opt == NO_CARD:  # I decline and defend: values are the attacker's, negated
            v = _run(DEF_FRESH, his, mine, t, u, nt, lim, ts, maxa, budget, tt, per, False)
            return v if v == UNKNOWN else -v
        cc = np.int64(1) << opt  # I lay a card of the rank and attack him with the table
        return _run(DEF_FRESH, mine & ~cc, his, t | cc, u | cc, nt + 1, _limit(his, maxa), ts, maxa, budget, tt, per,
                    True)
    if kind == K_COVER:  # I defend; values are the attacker's, negated
        if opt == NO_CARD:
            v = _run(THROWT, his, mine, t, 0, nt, lim, ts, maxa, budget, tt, per, True)
        else:
            tgt = obs[O_TABLE_ATT + obs[O_COVER_TARGET]]
            bb = np.int64(1) << opt
            v = _run(DEF, his, mine & ~bb, t | bb, u & ~(np.int64(1) << tgt), nt, lim, ts, maxa, budget, tt, per,
                     True)
        return v if v == UNKNOWN else -v
    # throw-in: I attack
    if opt == NO_CARD:
        if obs[O_TAKING] != 0:
            return _run(LEAD, mine, his | t, 0, 0, 0, 0, ts, maxa, budget, tt, per, True)  # (mine is not empty)
        if his == 0:
            return np.int64(-1)
        v = _run(LEAD, his, mine, 0, 0, 0, 0, ts, maxa, budget, tt, per, True)
        return v if v == UNKNOWN else -v
    cb = np.int64(1) << opt
    if obs[O_TAKING] != 0:
        return _run(THROWT, mine & ~cb, his, t | cb, 0, nt + 1, lim, ts, maxa, budget, tt, per, True)
    return _run(DEF_FRESH, mine & ~cb, his, t | cb, cb, nt + 1, lim, ts, maxa, budget, tt, per, True)
