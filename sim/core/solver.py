"""The exact search of a two-player throw-in endgame over bitmasks (the solver strategies/_endgame.py drives).

Once the talon is empty and two players are left every card is known, and the rest of the deal is a game of
perfect information with three outcomes (the leader escapes +1, draw 0, the leader is the fool -1). `solve` is a
fail-soft alpha-beta from one node over the bouts that follow (plain podkidnoy rules, and the perevodnoy
transfers by laying a card), iterative on an explicit stack of frames on the caller's stack, with a node budget
(UNKNOWN when it runs out) and an optional transposition table of bout starts that the options of one decision
share. strategies/_endgame.py says which moves it leaves out and why.

Trusted code outside the strategies' sandbox, like sim.core.nn: it sees only hands as bitmasks and its own
buffers, never an observation, so it is compiled without the bounds checks every strategy function carries.
Without them, and with the frame steps inlined into the loop, the same search visits the same nodes in about
two thirds of the time (research/strength/solver_speed.py measures it).
"""
import numpy as np
from numba import njit

from sim.core.lib import RANK_MASKS, at, beaters, lowest, popcount, same_rank_cards, scratch_i64

# phases of the search: LEAD, THROW, THROWT are the attacker's (max), DEF and DEF_FRESH the defender's (min)
LEAD, DEF_FRESH, DEF, THROW, THROWT = 0, 1, 2, 3, 4
UNKNOWN = -9  # a value the budget did not allow to find
# one frame of the explicit stack (the search is iterative: numba's cache cannot hold recursive functions)
PH, A, D, T, U, NT, LIM, AL, BE, BEST, I1, I2, NEG, OPT0, AL0, BE0, TR = range(17)
FS = 17
MAXD = 96  # frames; a deeper line answers UNKNOWN
BUF = MAXD * FS
# the transposition table: values of bout starts (LEAD: the leader's hand a, the other's d) already searched in
# this decision, as bounds [lo, hi] for the leader; TTN entries of (a, d, lo, hi), on the caller's stack, then a
# bitmap of the entries in use (TTW words), so that emptying the table clears 16 words, not 1,024 entries (a decision
# of a small endgame searches a few dozen nodes: clearing every entry cost more than the search)
TTN = 1024
TTW = TTN // 64
TTS = 4 * TTN + TTW
NOVAL = -5



@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def limit(defender, maxa):
    """A bout's limit on attack cards: the defender's hand, at most the rules' maximum (maxa < 0: singles only)."""
    nd = popcount(defender)
    mx = maxa if maxa > 0 else -maxa
    return nd if nd < mx else mx


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _push(buf, fb, ph, a, d, t, u, nt, lim, al, be, neg, ts, maxa, per):
    """Open a frame at buf[fb:]: a node of the search with its move iterator at the start. per: perevodnoy, where a
    defender facing a table with nothing covered yet may transfer (TR)."""
    if (ph == DEF or ph == DEF_FRESH) and u == 0:
        ph = THROW  # every card covered: the attacker throws in or passes
    buf[at(fb + PH)] = ph
    buf[at(fb + A)] = a
    buf[at(fb + D)] = d
    buf[at(fb + T)] = t
    buf[at(fb + U)] = u
    buf[at(fb + NT)] = nt
    buf[at(fb + AL)] = al
    buf[at(fb + BE)] = be
    buf[at(fb + NEG)] = neg
    buf[at(fb + I1)] = 0
    buf[at(fb + I2)] = 0
    buf[at(fb + OPT0)] = 0
    buf[at(fb + BEST)] = -2
    buf[at(fb + AL0)] = al
    buf[at(fb + BE0)] = be
    buf[at(fb + TR)] = 1 if per and ph == DEF_FRESH and t == u else 0
    if ph == LEAD:
        lim = limit(d, maxa)
        buf[at(fb + I1)] = -1
    elif ph == THROW:
        buf[at(fb + I1)] = a & same_rank_cards(t) if nt < lim else np.int64(0)
    elif ph == THROWT:
        ok = a & same_rank_cards(t)
        buf[at(fb + U)] = ok
        buf[at(fb + I1)] = ok
    else:
        opts = beaters(lowest(u), ts, False) & d  # (plain rules: no six over the ace)
        buf[at(fb + I1)] = opts
        buf[at(fb + OPT0)] = opts
        buf[at(fb + I2)] = 0 if opts else 1
        buf[at(fb + BEST)] = 2
    buf[at(fb + LIM)] = lim


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _next(buf, fb, ts, maxa, per):
    """Advance frame fb to its next move: (0, 0) a child frame was opened at fb + FS; (1, v) the move ends
    the deal with value v for this frame's attacker; (2, 0) no move left."""
    ph = buf[at(fb + PH)]
    a = buf[at(fb + A)]
    d = buf[at(fb + D)]
    t = buf[at(fb + T)]
    u = buf[at(fb + U)]
    nt = buf[at(fb + NT)]
    lim = buf[at(fb + LIM)]
    al = buf[at(fb + AL)]
    be = buf[at(fb + BE)]
    cb = fb + FS
    if ph == LEAD:
        r = buf[at(fb + I1)]
        s = buf[at(fb + I2)]
        while True:
            if s == 0:
                r += 1
                if r >= 9:
                    buf[at(fb + I1)] = r
                    return 2, np.int64(0)
                s = a & RANK_MASKS[at(r)]
                continue
            m = a & RANK_MASKS[at(r)]
            cur = s
            s = (s - 1) & m
            k = popcount(cur)
            if k <= lim and (maxa > 0 or k == 1):
                buf[at(fb + I1)] = r
                buf[at(fb + I2)] = s
                _push(buf, cb, DEF_FRESH, a & ~cur, d, cur, cur, k, lim, al, be, 0, ts, maxa, per)
                return 0, np.int64(0)
    if ph == DEF or ph == DEF_FRESH:
        if buf[at(fb + I2)] == 0:
            m = buf[at(fb + I1)]
            if m:
                b = lowest(m)
                buf[at(fb + I1)] = m & (m - 1)
                bb = np.int64(1) << b
                _push(buf, cb, DEF, a, d & ~bb, t | bb, u & ~(np.int64(1) << lowest(u)), nt, lim, al, be, 0, ts,
                      maxa, per)
                return 0, np.int64(0)
            buf[at(fb + I2)] = 1
        if buf[at(fb + I2)] == 1:
            buf[at(fb + I2)] = 2
            if ph == DEF_FRESH or buf[at(fb + OPT0)] == 0:  # taking after covering part of it never helps
                _push(buf, cb, THROWT, a, d, t, 0, nt, lim, al, be, 0, ts, maxa, per)
                return 0, np.int64(0)
        if buf[at(fb + I2)] == 2:  # transfers (PER-1, PER-3): a card of the rank led, if the attacker can face one more
            buf[at(fb + I2)] = 3
            buf[at(fb + I1)] = d & same_rank_cards(t) if buf[at(fb + TR)] != 0 and popcount(a) >= nt + 1 else np.int64(0)
        m = buf[at(fb + I1)]
        if m:
            c = lowest(m)
            buf[at(fb + I1)] = m & (m - 1)
            cc = np.int64(1) << c
            # the roles change: the transferrer attacks the old attacker, whose hand sets the new limit
            _push(buf, cb, DEF_FRESH, d & ~cc, a, t | cc, u | cc, nt + 1, limit(a, maxa), -be, -al, 1, ts, maxa, per)
            return 0, np.int64(0)
        return 2, np.int64(0)
    if ph == THROW:
        if buf[at(fb + I2)] == 0:
            m = buf[at(fb + I1)]
            if m:
                c = lowest(m)
                buf[at(fb + I1)] = m & (m - 1)
                cc = np.int64(1) << c
                _push(buf, cb, DEF_FRESH, a & ~cc, d, t | cc, cc, nt + 1, lim, al, be, 0, ts, maxa, per)
                return 0, np.int64(0)
            buf[at(fb + I2)] = 1
        if buf[at(fb + I2)] == 1:
            buf[at(fb + I2)] = 2
            # pass: the bout ends, the table is discarded, the defender attacks next
            if a == 0:
                return 1, np.int64(0) if d == 0 else np.int64(1)
            if d == 0:
                return 1, np.int64(-1)
            _push(buf, cb, LEAD, d, a, 0, 0, 0, 0, -be, -al, 1, ts, maxa, per)
            return 0, np.int64(0)
        return 2, np.int64(0)
    # THROWT: the defender takes; the attacker adds a set of the ranks on the table (up to the limit)
    if buf[at(fb + I2)] == 1:
        return 2, np.int64(0)
    s = buf[at(fb + I1)]
    ok = u
    room = lim - nt
    while True:
        cur = s
        if s == 0:
            buf[at(fb + I2)] = 1
        else:
            s = (s - 1) & ok
        buf[at(fb + I1)] = s
        if popcount(cur) <= room:
            a2 = a & ~cur
            if a2 == 0:
                return 1, np.int64(1)  # the attacker is out, the taker keeps cards: he is the fool
            _push(buf, cb, LEAD, a2, d | t | cur, 0, 0, 0, 0, al, be, 0, ts, maxa, per)
            return 0, np.int64(0)
        if buf[at(fb + I2)] == 1:
            return 2, np.int64(0)


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _take(buf, fb, v):
    """Fold a child's value into frame fb; True on a cut-off."""
    if buf[at(fb + PH)] == DEF or buf[at(fb + PH)] == DEF_FRESH:
        if v < buf[at(fb + BEST)]:
            buf[at(fb + BEST)] = v
            if v < buf[at(fb + BE)]:
                buf[at(fb + BE)] = v
    else:
        if v > buf[at(fb + BEST)]:
            buf[at(fb + BEST)] = v
            if v > buf[at(fb + AL)]:
                buf[at(fb + AL)] = v
    return buf[at(fb + AL)] >= buf[at(fb + BE)]


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _slot(a, d):
    h = a * np.int64(0x7F4A7C159E3779B9) + d * np.int64(0x27D4EB2F165667C5)
    return ((h >> 40) & (TTN - 1)) * 4


@njit(cache=True, _nrt=False, boundscheck=False)
def _probe(tt, buf, fb):
    """A LEAD frame just opened at fb: its value if the table settles it (NOVAL if not; the frame's window is
    narrowed to what the table knows)."""
    a = buf[at(fb + A)]
    d = buf[at(fb + D)]
    i = _slot(a, d)
    if tt[at(i)] != a or tt[at(i + 1)] != d or not _used(tt, i):  # (an unused entry holds anything)
        return NOVAL
    lo = tt[at(i + 2)]
    hi = tt[at(i + 3)]
    al = buf[at(fb + AL)]
    be = buf[at(fb + BE)]
    if lo == hi or lo >= be:
        return lo
    if hi <= al:
        return hi
    if lo > al:
        buf[at(fb + AL)] = lo
        buf[at(fb + AL0)] = lo
    if hi < be:
        buf[at(fb + BE)] = hi
        buf[at(fb + BE0)] = hi
    return NOVAL


@njit(cache=True, _nrt=False, boundscheck=False)
def _store(tt, buf, fb, v):
    """A LEAD frame searched to value v (fail-soft, within its window AL0..BE0): keep what it proves."""
    a = buf[at(fb + A)]
    d = buf[at(fb + D)]
    i = _slot(a, d)
    lo = np.int64(-1)
    hi = np.int64(1)
    if tt[at(i)] == a and tt[at(i + 1)] == d and _used(tt, i):
        lo = tt[at(i + 2)]
        hi = tt[at(i + 3)]
    if v <= buf[at(fb + AL0)]:
        hi = v if v < hi else hi
    elif v >= buf[at(fb + BE0)]:
        lo = v if v > lo else lo
    else:
        lo = v
        hi = v
    tt[at(i)] = a
    tt[at(i + 1)] = d
    tt[at(i + 2)] = lo
    tt[at(i + 3)] = hi
    w, b = _bit(i)
    tt[at(w)] |= np.int64(1) << b


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _bit(i):
    """Where the in-use bit of the entry at word i lies: (the bitmap's word after the entries, the bit in it)."""
    e = i >> 2
    return 4 * TTN + (e >> 6), e & 63


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _used(tt, i):
    """Does the entry at word i hold a position?"""
    w, b = _bit(i)
    return (tt[at(w)] >> b) & 1 != 0


@njit(cache=True, _nrt=False, boundscheck=False)
def clear(tt):
    """Empty a transposition table: no entry in use. A table shorter than TTS is left alone (solve refuses it)."""
    if tt.shape[0] < TTS:
        return
    for w in range(TTW):
        tt[at(4 * TTN + w)] = 0


@njit(cache=True, _nrt=False, boundscheck=False, inline="always")
def _done(tt, use, buf, fb):
    """Frame fb is searched: keep a bout start's value in the table; its value for the frame above."""
    v = buf[at(fb + BEST)]
    if use and buf[at(fb + PH)] == LEAD:
        _store(tt, buf, fb, v)
    return -v if buf[at(fb + NEG)] else v


@njit(cache=True, _nrt=False, boundscheck=False)
def solve(ph, a, d, t, u, nt, lim, ts, maxa, budget, tt, per, tr0):
    """Alpha-beta from one node (window -1..1): its value for the attacker of that bout, or UNKNOWN. tt: the
    transposition table (TTS int64, shared by every option of a decision; empty: none); per: perevodnoy; tr0 0: the
    defender of the first node has declined to transfer."""
    use = tt.shape[0] > 0
    if use and tt.shape[0] < TTS:  # (unchecked indexing below: a table is TTS entries or none)
        return UNKNOWN
    buf = scratch_i64(BUF)  # every frame is written (_push) before it is read
    _push(buf, 0, ph, a, d, t, u, nt, lim, np.int64(-1), np.int64(1), 0, ts, maxa, per)
    if not tr0:
        buf[at(TR)] = 0
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
            if not use or buf[at(cf + PH)] != LEAD:
                sp += 1
                continue
            hv = _probe(tt, buf, cf)
            if hv == NOVAL:
                sp += 1
                continue
            code = 1
            val = -hv if buf[at(cf + NEG)] else hv
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
