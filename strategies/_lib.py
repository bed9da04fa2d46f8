"""Shared compiled heuristics for the strategy library (not a strategy: the name starts with '_').

Every heuristic strategy of ``strategies/`` is a thin file that calls the five ``h_*``
functions below with a *knob tuple*: a ``UniTuple(float64, NK)``, the strategy's constant table (built
with ``knobs(...)`` from ``BASE``, greedy's play) with a few knobs set from its own ``params`` by
``put_params`` (expert: ``put_tuned`` and ``put_capped``; one knob: ``put``). One knob tuple type means numba
compiles each ``h_*`` function once for the whole library, so an engine holding every strategy compiles about as
fast as one holding a single heuristic strategy. Nothing here allocates (the engine is compiled without
NRT): hands and sets are int64 card bitmasks (bit ``rank*4 + suit``, see ``sim.core.lib``).

Knobs: the registry ``strategies/_knobs.py`` declares every knob once (name, greedy's default, range, the value
that switches it off, its meaning; ``python -m strategies._knobs`` prints the table) and generates the index
constants used below (``k[DUMP_TALON]``), ``NK``, ``BASE``, ``KNOB_NAMES`` and ``knobs()``, all re-exported here.
A new knob means one line there and its use here, and no change in any strategy file. How expert's values were
found: ``results/strength/expert-tuning.md``.

Varied play against cycles (not a knob, every ``h_*`` function): once ``obs[O_QUIET]`` (bouts in a
row that ended with no card discarded and none drawn) reaches ``QUIET_VARY``, the position is going
round; the seat then leads a single card, throws in a card or passes, chosen by a hash of the public
position (bout number, seat, own hand), covers whenever it can (with such a card) and never transfers.
A deterministic habit would repeat the same cycle until RUL-22 stops the deal after 1,000 bouts
(results/strength/unfinished.md: before this, expert's 3-player prostoy_5 left 5% of deals unfinished).
"""
import numpy as np
from numba import njit
from numba.core import cgutils, types
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import intrinsic

from sim.core.lib import (
    FULL, NIBBLE_LOW, NO_CARD, O_ATTACKER, O_BOUT, O_DEFENDER, O_DISCARD, O_HAND, O_HAND_SIZE, O_KNOWN, O_LIMIT, O_N, O_NTABLE,
    O_OUT, O_QUIET, O_RULES, O_SEAT, O_SHOW_LEGAL, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TAKING, O_TALON,
    O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TRUMP_SUIT, O_COVER_TARGET, RANK_MASKS, SHOW, attack_ok, beaters_for, bit,
    cover_options_for, stack_i64,
    lowest, mix64, popcount, trump_mask, trump_of, variant_lead, zanudny_cards,
)

from sim.core.greedy_bout import QUIET_VARY  # noqa: F401  (where greedy varies its play: one value, the core's)
from sim.core.layout import K_ATTACK, O_REMOVED, O_REMOVED_KNOWN
from strategies._endgame import solvable, solve_choice
from sim.core.lib import swap_cap
from sim.core.rules import R_POKER_EXACT, R_PUSTOY, R_TRUMP_ONLY_IF_CANNOT_FOLLOW
from sim.core.rules import LEAD_ZANUDNY, R_LEAD_RULE, MODE_PEREVODNOY, MODE_PROSTOY, R_MODE, R_LEAD_SINGLE, R_PARTIAL, \
    R_SETS_SINGLE_OR_PAIR, \
    R_TWO_PAIR_SIZE
from strategies._knobs import *  # noqa: F401,F403  (the index constants, NK, BASE, KNOB_NAMES, knobs)


# ---- a constant knob table with a few knobs set at run time (the strategies' `_k`) ---------------
# A strategy's `_k(params)` is its table (a module-level tuple built with `knobs(...)`; numba freezes it as a constant)
# with some knobs replaced by its parameters, as constant (parameter index, knob index) pairs, e.g.
# `put_params(BASE, p, ((0, DUMP_TALON), (1, DUMP_HAND)))`. Tuples are values: nothing is allocated (no NRT).
@njit(_nrt=False)
def put(k, i, v):
    """The knob tuple ``k`` with knob ``i`` set to ``v`` (``i`` may be a run-time value but must lie in
    [0, NK): it is not checked)."""
    return tuple_setitem(k, i, v)


def _pairs_intrinsic(mode):
    """``k`` with knob j set from p[i] for every (i, j) in ``pairs``, as straight-line code: one stack copy of ``k``,
    one load and store per pair, no loop (a loop of ``tuple_setitem`` copies the whole tuple per pair: 2.5-5 times
    slower for expert's parameters). ``mode`` "set": k[j] = p[i]; "tuned": the same where p[i] > -50; "cap":
    k[j] = min(k[j], p[i]) where p[i] > -50. A pair whose i lies past the end of ``p`` sets nothing (a shorter
    vector leaves its last parameters out)."""
    def typer(typingctx, k, p, pairs):
        ok = (isinstance(k, types.UniTuple) and k.dtype == types.float64 and isinstance(p, types.Array)
              and p.dtype == types.float64 and p.ndim == 1 and isinstance(pairs, types.UniTuple)
              and isinstance(pairs.dtype, types.UniTuple) and pairs.dtype.count == 2
              and isinstance(pairs.dtype.dtype, types.Integer))
        if not ok:
            return None

        def codegen(context, builder, signature, args):
            tup, arr, prs = args
            aty, pty = signature.args[1], signature.args[2]
            ity = pty.dtype.dtype
            stack = cgutils.alloca_once(builder, tup.type)
            builder.store(tup, stack)
            ary = context.make_array(aty)(context, builder, value=arr)
            size = cgutils.unpack_tuple(builder, ary.shape, 1)[0]
            low = context.get_constant(types.float64, -50.0)
            for m in range(pty.count):
                pair = builder.extract_value(prs, m)
                i, j = builder.extract_value(pair, 0), builder.extract_value(pair, 1)
                i = context.cast(builder, i, ity, types.intp)
                with builder.if_then(builder.icmp_signed("<", i, size), likely=True):
                    raw = builder.load(cgutils.get_item_pointer(context, builder, aty, ary, [i]))
                    ptr = builder.gep(stack, [j.type(0), j], inbounds=True)
                    v = raw
                    if mode != "set":
                        old = builder.load(ptr)
                        if mode == "cap":
                            v = builder.select(builder.fcmp_ordered("<", raw, old), raw, old)
                        v = builder.select(builder.fcmp_ordered(">", raw, low), v, old)
                    builder.store(v, ptr)
            return builder.load(stack)
        return k(k, p, pairs), codegen
    typer.__name__ = typer.__qualname__ = {"set": "put_params", "tuned": "put_tuned", "cap": "put_capped"}[mode]
    return intrinsic(typer)


# put_params(k, p, pairs): ``k`` with knob j set to p[i] for every (i, j) in ``pairs`` (a constant tuple of
# (param index, knob index) pairs; p a float64 parameter vector). put_tuned(k, p, pairs): the same, but a parameter
# left at expert's TUNED (-99; anything <= -50) keeps the table's value. put_capped(k, p, pairs): knob j becomes at
# most p[i] (TUNED: no cap). Knob indices are not checked; a parameter index past the end of p sets nothing.
put_params = _pairs_intrinsic("set")
put_tuned = _pairs_intrinsic("tuned")
put_capped = _pairs_intrinsic("cap")


# ---- small card helpers ------------------------------------------------------------------------
TABLE_SLOTS = 12  # attack slots on the table (layout's TABLE_ATT): the covers' search keeps one entry a slot
MATCH_NODES = 512  # the most covers _cover_in_order tries (sets of at most six cards: a few dozen in practice)


@njit(_nrt=False)
def restless(obs):
    return obs[O_QUIET] >= QUIET_VARY


@njit(_nrt=False)
def vary_pick(obs, n, salt):
    """An index in [0, n) from a hash of the public position and the own hand (no generator needed)."""
    z = mix64(np.uint64(obs[O_BOUT] * 64 + obs[O_SEAT] * 8 + salt) ^ mix64(np.uint64(obs[O_HAND])))
    return np.int64(z % np.uint64(n))


@njit(_nrt=False)
def nth_card(mask, i):
    m = mask
    for _ in range(i):
        m &= m - 1
    return lowest(m)


@njit(_nrt=False)
def trumps_of(obs):
    """The observing seat's trumps (its own under own_trumps; none without a trump suit)."""
    return trump_mask(obs)


@njit(_nrt=False)
def value(c, trump):
    """Cheap-to-dear order: non-trumps by rank (0..8), then trumps (9..17)."""
    return (c >> 2) + (9 if (c & 3) == trump else 0)


@njit(_nrt=False)
def cheapest(mask, tr):
    """The cheapest card of a mask (lowest non-trump, else lowest trump); -1 if empty."""
    if mask == 0:
        return np.int64(-1)
    plain = mask & ~tr
    if plain:
        return lowest(plain)
    return lowest(mask)


@njit(_nrt=False)
def trump_ace(obs):
    return trump_mask(obs) & RANK_MASKS[8]


@njit(_nrt=False)
def n_active(obs):
    return obs[O_N] - popcount(obs[O_OUT])


@njit(_nrt=False)
def next_active(obs, s):
    """The next seat after s clockwise that still plays."""
    n = obs[O_N]
    t = s
    for _ in range(n):
        t = t + 1 if t + 1 < n else 0
        if not (obs[O_OUT] >> t) & 1:
            return t
    return s


@njit(_nrt=False)
def unseen(obs):
    """Cards whose place the seat to move does not know: not in its hand, not discarded, not on the
    table, not known in another hand, not the face-up trump card under the talon or out of play."""
    me = obs[O_SEAT]
    m = FULL & ~obs[O_HAND] & ~obs[O_DISCARD] & ~obs[O_TABLE_MASK]
    for s in range(obs[O_N]):
        if s != me:
            m &= ~obs[O_KNOWN + s]
    if obs[O_TRUMP_IN_TALON]:
        m &= ~(np.int64(1) << obs[O_TRUMP_CARD])
    return m & ~obs[O_REMOVED_KNOWN]  # VAR-CH1/NA1: the trump card turned and put out of play


@njit(_nrt=False)
def p_cannot_beat(obs, card, seat, hidden):
    """Chance that `seat` holds no card beating `card`, if the unknown part of its hand is a uniform
    draw from `hidden` (exact with two players and an empty talon)."""
    b = beaters_for(obs, card, seat)
    kn = obs[O_KNOWN + seat]
    if b & kn:
        return 0.0
    nb = popcount(b & hidden)
    if nb == 0:
        return 1.0
    h = obs[O_HAND_SIZE + seat] - popcount(kn)
    u = popcount(hidden)
    p = 1.0
    for i in range(h):
        if u - nb - i <= 0:
            return 0.0
        p *= (u - nb - i) / (u - i)
    return p


@njit(_nrt=False)
def best_unbeatable(obs, cand, seat, thr):
    """The card of `cand` the defender is least likely to beat, if that chance is >= thr (cheaper
    cards win ties); -1 otherwise."""
    hidden = unseen(obs)
    trump = trump_of(obs, obs[O_SEAT])
    best = np.int64(-1)
    bs = -1.0
    m = cand
    while m:
        c = lowest(m)
        m &= m - 1
        p = p_cannot_beat(obs, c, seat, hidden)
        if p >= thr:
            s = p - 0.001 * value(c, trump)
            if s > bs:
                bs = s
                best = c
    return best


@njit(_nrt=False)
def is_endgame2(obs):
    """Two players left and the talon empty: every card is known (the other hand holds every card not seen), unless
    cards were put out of play unseen (chukotsky, navaleny's out_of_play: VAR-CH1, VAR-NA1), which the other hand
    may or may not hold."""
    return obs[O_TALON] == 0 and n_active(obs) == 2 and obs[O_REMOVED] <= popcount(obs[O_REMOVED_KNOWN])


# ---- simple-durak sets ----------------------------------------------------------------------------
@njit(_nrt=False)
def _cheap_pair(pool, tr):
    """The cheapest two cards of one rank in pool (non-trump ranks first); 0 if none."""
    best = np.int64(0)
    bv = 999
    for r in range(9):
        m = pool & RANK_MASKS[r]
        if popcount(m) >= 2:
            a = cheapest(m, tr)
            b = cheapest(m & ~bit(a), tr)
            v = r + (9 if (bit(a) | bit(b)) & tr else 0)
            if v < bv:
                bv = v
                best = bit(a) | bit(b)
    return best


@njit(_nrt=False)
def build_set(pool, hand, must, size, single_or_pair, tr):
    """A legal simple-durak set of exactly `size` cards from pool (plus `must`, a card that has to be
    in it, -1 for none): the cheapest pair(s) and the cheapest fillers. 0 if impossible."""
    s = np.int64(0)
    need_pairs = 1 if size <= 3 else 2
    if single_or_pair:
        need_pairs = 1
    avail = pool & ~(bit(must) if must >= 0 else np.int64(0))
    if must >= 0:
        mates = hand & RANK_MASKS[must >> 2] & ~bit(must)
        mp = mates & pool
        if mp == 0:
            mp = mates
        if mp:
            s = bit(must) | bit(cheapest(mp, tr))
            need_pairs -= 1
            avail &= ~s
    for _ in range(need_pairs):
        p = _cheap_pair(avail, tr)
        if p == 0:
            return np.int64(0)
        s |= p
        avail &= ~p
    if must >= 0 and not (s >> must) & 1:
        s |= bit(must)
    while popcount(s) < size:
        c = cheapest(avail, tr)
        if c < 0:
            return np.int64(0)
        s |= bit(c)
        avail &= ~bit(c)
    if popcount(s) != size:
        return np.int64(0)
    return s


@njit(_nrt=False)
def largest_set(obs, pool, hand, must, tr):
    """The largest legal set (two-pair size, then 3 / a pair) from pool; 0 if none."""
    cap = obs[O_LIMIT]
    if obs[O_RULES + R_SETS_SINGLE_OR_PAIR]:
        if cap >= 2:
            return build_set(pool, hand, must, 2, True, tr)
        return np.int64(0)
    tp = obs[O_RULES + R_TWO_PAIR_SIZE]
    if cap >= tp:
        s = build_set(pool, hand, must, tp, False, tr)
        if s:
            return s
    if cap >= 3:
        return build_set(pool, hand, must, 3, False, tr)
    return np.int64(0)


# ---- decisions ----------------------------------------------------------------------------------------
@njit(_nrt=False)
def talon_left(obs):
    """The talon as the knobs read it ("cards left to draw": how much refilling is still to come). VAR-PU1
    pustoy refills only an empty hand, so a hand plays as in the endgame whatever the talon holds: 0 (a
    defender who takes while the talon is large would otherwise take forever, RUL-22)."""
    if obs[O_RULES + R_PUSTOY] != 0:
        return 0
    return obs[O_TALON]


@njit(_nrt=False)
def _lead_pool(obs, k, hand, tr):
    pool = hand
    if talon_left(obs) > k[TRUMP_LEAD_TALON] and hand & ~tr:
        pool = hand & ~tr
    if k[KEEP_ACE] > 0 and pool & ~trump_ace(obs):
        pool &= ~trump_ace(obs)
    if obs[O_RULES + R_LEAD_RULE] == LEAD_ZANUDNY:  # VAR-ZA1: lead from the highest rank
        z = zanudny_cards(obs, hand)
        pool = pool & z if pool & z else z
    return pool


@njit(_nrt=False)
def covers_all(obs, att, hand, seat):
    """Can `seat` cover every card of `att` from `hand` (strongest attack card first, cheapest beater each)?"""
    trump = trump_of(obs, seat)
    tr = NIBBLE_LOW << trump if trump >= 0 else np.int64(0)
    avail = hand
    todo = att
    while todo:
        best = np.int64(-1)
        bv = -1
        t = todo
        while t:
            c = lowest(t)
            t &= t - 1
            v = value(c, trump)
            if v > bv:
                bv = v
                best = c
        todo &= ~bit(best)
        opts = beaters_for(obs, best, seat) & avail
        if opts == 0:
            return False
        avail &= ~bit(cheapest(opts, tr))
    return True


@njit(_nrt=False)
def draw_lead(obs, s):
    """Two players left, talon empty (every card known): would leading `s` let both go out together? True
    when s is the whole hand and the defender can cover it with exactly all of his cards."""
    if not is_endgame2(obs) or s != obs[O_HAND]:
        return False
    dfn = obs[O_DEFENDER]
    his = unseen(obs) | obs[O_KNOWN + dfn]
    if popcount(his) != popcount(s) or obs[O_HAND_SIZE + dfn] != popcount(s):
        return False
    return covers_all(obs, s, his, dfn)


@njit(_nrt=False)
def h_attack(obs, k):
    """The planned lead, checked by the core's own attack_ok (the one source of legality)."""
    if restless(obs):
        h = obs[O_HAND]
        c = bit(nth_card(h, vary_pick(obs, popcount(h), 1)))
        if attack_ok(obs, h, c):  # a single card, unless a §6 lead rule (zanudny, tryoshka) forbids it
            return c
        return variant_lead(obs, h)
    s = _plan_attack(obs, k)
    hand = obs[O_HAND]
    if k[AVOID_DRAW] > 0 and popcount(hand) > 1 and draw_lead(obs, s):
        alt = bit(cheapest(hand, trumps_of(obs)))
        if attack_ok(obs, hand, alt):
            return alt
    if attack_ok(obs, hand, s):
        return s
    if obs[O_RULES + R_LEAD_RULE] != 0:  # zanudny / tryoshka: the cheapest legal lead
        return variant_lead(obs, hand)
    return bit(lowest(hand))


@njit(_nrt=False, inline="always")
def attack_with(obs, k, p, pairs):
    """h_attack with the knob table ``k``, the strategy's parameters ``p`` put in by ``pairs`` (as put_params):
    the whole ``attack`` of a strategy that differs from greedy only in its leads' knobs."""
    return h_attack(obs, put_params(k, p, pairs))


@njit(_nrt=False)
def _plan_attack(obs, k):
    hand = obs[O_HAND]
    tr = trumps_of(obs)
    talon = talon_left(obs)
    dfn = obs[O_DEFENDER]
    pool = _lead_pool(obs, k, hand, tr)
    end2 = k[ENDGAME] > 0 and is_endgame2(obs)
    # 002's endgame rule with three or more players left: the card must force the neighbour to take
    endm = k[ENDGAME_MANY] > 0 and talon == 0 and 3 <= n_active(obs) <= k[ENDGAME_MANY_MAX]
    thr = 0.999 if end2 else k[ENDGAME_MANY]
    if obs[O_RULES + R_MODE] == MODE_PROSTOY:
        cap = obs[O_LIMIT]
        if end2 or endm:
            # two players: every card may go (the game ends soon); three or more: no trumps while others are
            # left (the neighbour keeps what he takes, and the next player attacks you)
            src = hand if end2 else pool
            x = best_unbeatable(obs, src, dfn, thr)
            if x >= 0:
                s = largest_set(obs, src, hand, x, tr)
                if s:
                    return s
                return bit(x)
        if end2:
            if popcount(hand) <= cap and largest_set(obs, hand, hand, -1, tr) == hand:
                return hand
        dump = talon <= k[DUMP_TALON] or popcount(hand) >= k[DUMP_HAND] or k[SETS_EARLY] > 0
        if dump:
            s = largest_set(obs, pool, hand, -1, tr)
            if s:
                return s
            if talon <= k[SET_TRUMP_TALON] and pool != hand:
                # no set without trumps: let a trump pair up with a non-trump of its rank
                mix = pool
                for r in range(9):
                    if pool & RANK_MASKS[r]:
                        mix |= hand & RANK_MASKS[r]
                if mix != pool:
                    s = largest_set(obs, mix, hand, -1, tr)
                    if s:
                        return s
        if talon <= k[COUNT]:
            x = best_unbeatable(obs, pool, dfn, k[COUNT_P])
            if x >= 0:
                return bit(x)
        return bit(cheapest(pool, tr))
    # podkidnoy / perevodnoy: one rank
    lead = np.int64(-1)
    plain = pool & ~tr if pool & ~tr else pool  # forcing a take of a trump hands the defender a trump
    if end2 or endm:
        lead = best_unbeatable(obs, plain, dfn, thr)
    if lead < 0 and talon <= k[COUNT]:
        lead = best_unbeatable(obs, plain, dfn, k[COUNT_P])
    if lead < 0 and k[LEAD_MIN_RANK] > 0 and talon > k[LEAD_RANK_TALON]:
        hi = plain & ~tr
        for r in range(np.int64(k[LEAD_MIN_RANK])):
            hi &= ~RANK_MASKS[r]
        if hi:
            lead = lowest(hi)
    if lead < 0 and k[LEAD_PAIR] >= 0 and plain & ~tr:
        c0 = lowest(plain & ~tr)
        for r in range(c0 >> 2, min(9, (c0 >> 2) + np.int64(k[LEAD_PAIR]) + 1)):
            if popcount(hand & RANK_MASKS[r]) >= 2 and plain & ~tr & RANK_MASKS[r]:
                lead = lowest(plain & ~tr & RANK_MASKS[r])
                break
    if lead < 0 and k[LEAD_OPEN_STEPS] >= 0 and plain & ~tr:
        lead = _lead_open(obs, k, plain & ~tr, dfn)
    if lead < 0:
        lead = cheapest(pool, tr)
    s = bit(lead)
    if obs[O_RULES + R_LEAD_SINGLE] or talon > k[PAIR_LEAD_TALON]:
        return s
    more = hand & RANK_MASKS[lead >> 2] & ~s
    if not (bit(lead) & tr) and talon > k[TRUMP_LEAD_TALON]:
        more &= ~tr
    if k[KEEP_ACE] > 0 and talon > 0:
        more &= ~trump_ace(obs)
    cap = obs[O_LIMIT]
    while more and popcount(s) < cap:
        c = cheapest(more, tr)
        s |= bit(c)
        more &= ~bit(c)
    return s


@njit(_nrt=False)
def _lead_open(obs, k, cand, dfn):
    """LEAD_OPEN_STEPS: among the non-trumps at most that many ranks above the cheapest, lead the one whose rank
    the throwers (everyone but me and the defender; in perevodnoy the defender too, who may transfer) hold the
    fewest of (LEAD_OPEN_SIGN 1) or the most of (-1), expected from what was seen; cheaper on ties. LEAD_OPEN_SIGN 2:
    the fewest, counting the defender in every family."""
    me = obs[O_SEAT]
    skip = -1 if obs[O_RULES + R_MODE] == MODE_PEREVODNOY or k[LEAD_OPEN_SIGN] > 1 else dfn
    sign = 1.0 if k[LEAD_OPEN_SIGN] > 1 else k[LEAD_OPEN_SIGN]
    known = others_known(obs, me, skip)
    hid = unseen(obs)
    f = others_share(obs, me, skip, hid)
    c0 = lowest(cand)
    best = c0
    bs = 1e9
    m = cand
    while m:
        a = lowest(m)
        m &= m - 1
        if (a >> 2) - (c0 >> 2) > k[LEAD_OPEN_STEPS]:
            break
        rm = RANK_MASKS[a >> 2]
        sc = sign * (popcount(rm & known) + f * popcount(rm & hid))
        if sc < bs - 1e-9:
            bs = sc
            best = a
    return best


@njit(_nrt=False)
def _expensive(obs, k, c, tr, hand):
    """Is covering with c spending a card worth keeping (knobs HIGH_RANK, HIGH_TRUMP_RANK, LONE_TRUMP)?"""
    if bit(c) & tr:
        if (c >> 2) >= k[HIGH_TRUMP_RANK]:
            return True
        return popcount(hand & tr) == 1 and (c >> 2) >= k[LONE_TRUMP]
    return (c >> 2) >= k[HIGH_RANK]


@njit(_nrt=False)
def _pick_cover(obs, k, legal, tr):
    """Cheapest legal cover: same suit first, then the lowest trump; the trump ace last (KEEP_ACE)."""
    pool = legal
    if k[KEEP_ACE] > 0 and pool & ~trump_ace(obs):
        pool &= ~trump_ace(obs)
    return cheapest(pool, tr)


@njit(_nrt=False)
def _match(obs, hand, tr, target):
    """Simple durak: assign covers to every uncovered attack card, strongest first, each the cheapest
    beater left. Returns the beater for slot `target`, or -1 if some card cannot be covered. Under
    trump_only_if_cannot_follow a trump is legal only once no card of the suit beats (PR6-D1), which depends on
    what is left in hand when the core asks that slot: with take-all, an assignment the core would refuse in its
    order is replaced by `_cover_in_order`'s (else the defender took a set it could cover, e.g. 6S 7D 7S with KS JD
    and trumps)."""
    me = obs[O_SEAT]
    trump = trump_of(obs, me)
    n = obs[O_NTABLE]
    todo = np.int64(0)
    for i in range(n):
        if obs[O_TABLE_COV + i] < 0:
            todo |= np.int64(1) << i
    slots = todo
    asg = stack_i64(TABLE_SLOTS)
    avail = hand
    mine = np.int64(-1)
    while todo:
        bi = -1
        bv = -1
        t = todo
        while t:
            i = lowest(t)
            t &= t - 1
            v = value(obs[O_TABLE_ATT + i], trump)
            if v > bv:
                bv = v
                bi = i
        todo &= ~(np.int64(1) << bi)
        opts = beaters_for(obs, obs[O_TABLE_ATT + bi], me) & avail
        if opts == 0:
            mine = np.int64(-1)
            break
        c = cheapest(opts, tr)
        avail &= ~bit(c)
        asg[bi] = c
        if bi == target:
            mine = c
    if obs[O_RULES + R_TRUMP_ONLY_IF_CANNOT_FOLLOW] == 0 or obs[O_RULES + R_PARTIAL] != 0:
        return mine  # (partial defence: an illegal `mine` is not played, see h_cover, and a slot left stays -1)
    if mine >= 0 and todo == 0:  # the core's order: is each cover legal with what is left in hand at its turn?
        left = hand
        ok = True
        t = slots
        while t:
            i = lowest(t)
            t &= t - 1
            if not (cover_options_for(obs, obs[O_TABLE_ATT + i], left, me) >> asg[i]) & 1:
                ok = False
                break
            left &= ~bit(asg[i])
        if ok:
            return mine
    return _cover_in_order(obs, hand, tr, target, slots)


@njit(_nrt=False)
def _cover_in_order(obs, hand, tr, target, slots):
    """The cheapest covers (by `value`) of the uncovered slots `slots` (a mask of slot indices), each legal when the
    core asks it, in slot order, with what is left in hand then: a depth-first search, cheaper cards first, of at
    most MATCH_NODES nodes. The card for slot `target`, or -1 when no such cover was found."""
    me = obs[O_SEAT]
    trump = trump_of(obs, me)
    order = stack_i64(TABLE_SLOTS)
    ns = 0
    while slots:
        order[ns] = lowest(slots)
        slots &= slots - 1
        ns += 1
    if ns == 0:
        return np.int64(-1)
    left = stack_i64(TABLE_SLOTS)  # options not yet tried at each depth
    avail = stack_i64(TABLE_SLOTS)  # the hand at each depth
    cost = stack_i64(TABLE_SLOTS)
    pick = stack_i64(TABLE_SLOTS)
    best = np.int64(-1)
    bc = np.int64(1) << 40
    avail[0] = hand
    cost[0] = 0
    left[0] = cover_options_for(obs, obs[O_TABLE_ATT + order[0]], hand, me)
    d = 0
    nodes = 0
    while d >= 0 and nodes < MATCH_NODES:
        if left[d] == 0:
            d -= 1
            continue
        c = cheapest(left[d], tr)
        left[d] &= ~bit(c)
        nodes += 1
        v = cost[d] + value(c, trump)
        if v >= bc:
            continue
        pick[d] = c
        if d + 1 == ns:
            bc = v
            for j in range(ns):
                if order[j] == target:
                    best = pick[j]
            continue
        avail[d + 1] = avail[d] & ~bit(c)
        cost[d + 1] = v
        left[d + 1] = cover_options_for(obs, obs[O_TABLE_ATT + order[d + 1]], avail[d + 1], me)
        d += 1
    return best


@njit(_nrt=False)
def others_known(obs, me, skip):
    """Cards known to be in the hands of the active seats other than me and skip."""
    known = np.int64(0)
    for s in range(obs[O_N]):
        if s != me and s != skip and not (obs[O_OUT] >> s) & 1:
            known |= obs[O_KNOWN + s]
    return known


@njit(_nrt=False)
def others_share(obs, me, skip, hid):
    """The chance that an unseen card is in the hand of an active seat other than me and skip (the unknown
    part of their hands over the unseen cards)."""
    unk = 0
    for s in range(obs[O_N]):
        if s != me and s != skip and not (obs[O_OUT] >> s) & 1:
            unk += obs[O_HAND_SIZE + s] - popcount(obs[O_KNOWN + s])
    return unk / max(popcount(hid), 1)


@njit(_nrt=False)
def _cover_open(obs, k, legal, c, tr):
    """COVER_OPEN_STEPS: among covers of c's kind (plain / trump) at most that many ranks dearer than c, the one
    whose rank leaves the others the fewest cards to throw in (cards of the rank not in this hand, not discarded,
    not on the table, not the face-up trump; none if the rank is on the table already); cheaper on ties."""
    tm = obs[O_TABLE_MASK]
    gone = obs[O_HAND] | obs[O_DISCARD] | tm | obs[O_REMOVED_KNOWN]
    if obs[O_TRUMP_IN_TALON]:
        gone |= np.int64(1) << obs[O_TRUMP_CARD]
    me = obs[O_SEAT]
    known = others_known(obs, me, -1)
    hid = unseen(obs)
    f = others_share(obs, me, -1, hid)
    kind = tr if bit(c) & tr else ~tr
    steps = k[COVER_OPEN_TRUMP_STEPS] if bit(c) & tr else k[COVER_OPEN_STEPS]
    alt = legal & kind
    if k[KEEP_ACE] > 0:
        alt &= ~trump_ace(obs)
    alt |= bit(c)  # c itself always counts (its score is what TAKE_OPEN judges, whatever the steps)
    best = c
    bs = 1e9
    while alt:
        a = lowest(alt)
        alt &= alt - 1
        if a != c and ((a >> 2) - (c >> 2) > steps or (a >> 2) < (c >> 2)):
            continue
        rm = RANK_MASKS[a >> 2]
        if tm & rm:
            opens = 0.0
        elif k[COVER_OPEN_EXPECT] > 0:
            opens = popcount(rm & known) + f * popcount(rm & hid)
        else:
            opens = float(popcount(rm & ~gone))
        opens += k[COVER_OPEN_COST] * ((a >> 2) - (c >> 2))
        if opens < bs:
            bs = opens
            best = a
    return best, bs


@njit(_nrt=False)
def _take_first(obs, k, a, tr):
    """TAKE_FIRST_*: take the first card(s) of a bout early in a many-player deal (see the module docstring)."""
    if obs[O_RULES + R_LEAD_RULE] == LEAD_ZANUDNY or (bit(a) & tr) or (a >> 2) < k[TAKE_FIRST_RANK]:
        return False
    if n_active(obs) < k[TAKE_FIRST_ACTIVE] or popcount(obs[O_DISCARD]) > k[TAKE_FIRST_DISCARD]:
        return False
    n = obs[O_NTABLE]
    if n > k[TAKE_FIRST_TABLE]:
        return False
    for i in range(n):
        if obs[O_TABLE_COV + i] >= 0:
            return False
    return True


@njit(_nrt=False)
def h_cover(obs, legal, k):
    if legal == 0:
        return np.int64(NO_CARD)
    if restless(obs):
        return nth_card(legal, vary_pick(obs, popcount(legal), 2 + obs[O_COVER_TARGET]))
    hand = obs[O_HAND]
    tr = trumps_of(obs)
    talon = talon_left(obs)
    tgt = obs[O_COVER_TARGET]
    a = obs[O_TABLE_ATT + tgt]
    early = talon >= k[TAKE_HIGH_TALON] or n_active(obs) >= k[TAKE_HIGH_ACTIVE]
    if early and (a >> 2) >= k[TAKE_HIGH_ATTACK]:
        # 002, read as written: rather take than cover a high card led at you (partial defence: leave it)
        return np.int64(NO_CARD)
    if obs[O_RULES + R_MODE] == MODE_PROSTOY:
        partial = obs[O_RULES + R_PARTIAL] != 0
        if not partial and tgt == 0 and early and k[TAKE_HIGH_ATTACK] < 9:
            # take-all: judge the whole set before the first cover
            for i in range(obs[O_NTABLE]):
                if (obs[O_TABLE_ATT + i] >> 2) >= k[TAKE_HIGH_ATTACK]:
                    return np.int64(NO_CARD)
        c = _pick_cover(obs, k, legal, tr)
        if k[MATCH] > 0:
            m = _match(obs, hand, tr, tgt)
            if m >= 0 and (legal >> m) & 1:
                c = m
            elif not partial:
                return np.int64(NO_CARD)  # the set cannot be covered: take at once
        n = obs[O_NTABLE]
        if not partial:
            if tgt == 0 and n <= k[TAKE_MAX_PICKUP] and early:
                # judge the whole set once, before the first cover
                t = hand
                for i in range(n):
                    opts = beaters_for(obs, obs[O_TABLE_ATT + i], obs[O_SEAT]) & t
                    if opts == 0:
                        return np.int64(NO_CARD)
                    ci = _match(obs, t, tr, i) if k[MATCH] > 0 else cheapest(opts, tr)
                    if ci < 0:
                        return np.int64(NO_CARD)
                    if _expensive(obs, k, ci, tr, hand):
                        return np.int64(NO_CARD)
                    if (bit(obs[O_TABLE_ATT + i]) & tr) and talon >= k[TAKE_TRUMP_TALON]:
                        return np.int64(NO_CARD)
            return c
        if early and k[TAKE_MAX_PICKUP] >= 1 and _expensive(obs, k, c, tr, hand):
            return np.int64(NO_CARD)  # partial defence: taking this card picks up this card only
        if (bit(a) & tr) and talon >= k[TAKE_TRUMP_TALON]:
            return np.int64(NO_CARD)
        return c
    if k[TAKE_FIRST_RANK] < 9 and _take_first(obs, k, a, tr):
        return np.int64(NO_CARD)
    c = _pick_cover(obs, k, legal, tr)
    if k[COVER_TABLE_RANK] >= 0 and c >= 0:
        tm = obs[O_TABLE_MASK]
        ranks = np.int64(0)
        for r in range(9):
            if tm & RANK_MASKS[r]:
                ranks |= RANK_MASKS[r]
        kind = tr if bit(c) & tr else ~tr
        alt = legal & ranks & kind
        if k[KEEP_ACE] > 0:
            alt &= ~trump_ace(obs)
        if alt:
            a2 = lowest(alt)
            if (a2 >> 2) - (c >> 2) <= k[COVER_TABLE_RANK]:
                c = a2
    if k[COVER_OPEN_STEPS] >= 0 and c >= 0:  # (COVER_OPEN_TRUMP_STEPS only with it); the take rules below judge
        c, opens = _cover_open(obs, k, legal, c, tr)  # this card (judging the cheapest instead: -1.7 points, 2p pod.)
        if opens >= k[TAKE_OPEN] and talon >= k[TAKE_OPEN_TALON] and obs[O_RULES + R_LEAD_RULE] != LEAD_ZANUDNY:
            return np.int64(NO_CARD)
    pickup = popcount(obs[O_TABLE_MASK])
    # zanudny: a high card taken to save a cover comes straight back as a forced high lead, and two such
    # players holding more than a hand each take in turn for ever (RUL-22); cover instead
    save = obs[O_RULES + R_LEAD_RULE] != LEAD_ZANUDNY
    if save and pickup <= k[TAKE_MAX_PICKUP]:
        if (bit(a) & tr) and talon >= k[TAKE_TRUMP_TALON]:
            return np.int64(NO_CARD)
        if early and _expensive(obs, k, c, tr, hand):
            return np.int64(NO_CARD)
    if k[KEEP_ACE] > 0 and c == lowest(trump_ace(obs)) and talon > 0 and pickup <= 2:
        return np.int64(NO_CARD)
    return c


@njit(_nrt=False)
def h_throw_in(obs, legal, k):
    if legal == 0:
        return np.int64(NO_CARD)
    if restless(obs):
        i = vary_pick(obs, popcount(legal) + 1, 3 + popcount(obs[O_TABLE_MASK]))
        return nth_card(legal, i) if i < popcount(legal) else np.int64(NO_CARD)
    tr = trumps_of(obs)
    talon = talon_left(obs)
    hand = obs[O_HAND]
    dfn = obs[O_DEFENDER]
    ok = legal
    if talon > k[THROW_TRUMP_TALON] or n_active(obs) > k[THROW_TRUMP_ACTIVE]:
        ok &= ~tr
    if talon > k[DUMP_TALON]:
        lim = np.int64(k[THROW_MAX_RANK])
        m = np.int64(0)
        for r in range(9):
            if r <= lim:
                m |= RANK_MASKS[r]
        ok &= m | tr
    if k[KEEP_ACE] > 0 and talon > 0:
        ok &= ~trump_ace(obs)
    if talon >= k[KEEP_PAIR_TALON]:
        # 001: keep a pair back for your own next lead rather than throw it in
        for r in range(9):
            if popcount(hand & RANK_MASKS[r]) >= 2:
                ok &= ~RANK_MASKS[r]
    if n_active(obs) >= 3 and k[ROLE_TALON] <= talon <= k[ROLE_TALON_MAX]:
        # three or more players: the thrower's seat relative to the defender (see THROW_NEXT_MAX_RANK & co.)
        me = obs[O_SEAT]
        if me == obs[O_ATTACKER]:
            lim = k[THROW_ATT_MAX_RANK]
        elif me == next_active(obs, dfn):
            lim = k[THROW_NEXT_TAKE_MAX_RANK] if obs[O_TAKING] else k[THROW_NEXT_MAX_RANK]
        else:
            lim = k[THROW_FAR_MAX_RANK]
        if lim < 0:
            return np.int64(NO_CARD)
        for r in range(np.int64(lim) + 1, 9):
            ok &= ~(RANK_MASKS[r] & ~tr)
    if obs[O_TAKING]:
        if talon > 0 and k[THROW_TAKE_MAX_RANK] < 8:
            for r in range(np.int64(k[THROW_TAKE_MAX_RANK]) + 1, 9):
                ok &= ~(RANK_MASKS[r] & ~tr)
        return cheapest(ok, tr)
    if talon > k[DUMP_TALON] and k[THROW_COVER_MAX_RANK] < 8:
        for r in range(np.int64(k[THROW_COVER_MAX_RANK]) + 1, 9):
            ok &= ~(RANK_MASKS[r] & ~tr)
    if k[ENDGAME] > 0 and is_endgame2(obs):
        x = best_unbeatable(obs, ok, dfn, 0.999)
        if x >= 0:
            return x
    if talon <= k[COUNT]:
        x = best_unbeatable(obs, ok, dfn, k[COUNT_P])
        if x >= 0:
            return x
    return cheapest(ok, tr)


@njit(_nrt=False)
def h_transfer(obs, legal, k):
    mode = k[TRANSFER]
    if mode <= 0 or restless(obs):
        return np.int64(NO_CARD)
    tr = trumps_of(obs)
    show = obs[O_SHOW_LEGAL]
    if show:
        return cheapest(show, tr) + SHOW
    plain = legal & ~tr
    if plain:
        return lowest(plain)
    if mode >= 2 and legal:
        return lowest(legal)
    return np.int64(NO_CARD)


@njit(_nrt=False)
def h_exchange(obs, k):
    return np.int64(1) if (obs[O_TRUMP_CARD] >> 2) >= k[EXCHANGE_MIN_RANK] else np.int64(0)


# ---- poker_swap (VAR-PO1): which cards to give to the talon ----------------------------------
SWAP_MAX_RANK = 3  # give away non-trumps of rank index <= this (6 7 8 9). Greedy head to head, podkidnoy 2p,
# 100k rotated games each (95% intervals +-0.3 points), fool rates: up to 9 vs up to 7: 43.6% vs 46.3%; up to 8 vs
# up to 7: 44.0% vs 45.8%; up to 10 vs up to 7: 43.9% vs 46.1%; sixes only vs up to 7: 47.1% vs 43.1%;
# up to 7 vs never swapping: 39.3% vs 51.2%


@njit(cache=True, _nrt=False)
def h_swap(obs, legal, max_rank):
    """The lowest non-trumps of rank index <= max_rank, as many as the swap may take (swap_cap: two, or
    what the face-down talon holds); with poker_swap_count=exactly_two two of them or none. A random
    talon card is worth more than a low card that is no trump."""
    from_rank = np.int64(0)
    for r in range(int(max_rank) + 1):
        from_rank |= RANK_MASKS[r]
    low = legal & from_rank & ~trump_mask(obs)
    cap = swap_cap(obs)
    out = np.int64(0)
    k = 0
    while low and k < cap:
        c = lowest(low)
        low &= low - 1
        out |= np.int64(1) << c
        k += 1
    if obs[O_RULES + R_POKER_EXACT] != 0 and k != 2:
        return np.int64(0)
    return out


# ---- the exact two-player endgame (ENDGAME_SOLVE) ----------------------------------------------------
@njit(_nrt=False)
def solve_here(obs, k):
    """ENDGAME_SOLVE is on, the endgame is one _endgame solves, and both hands are small enough."""
    if k[ENDGAME_SOLVE] <= 0 or restless(obs) or not solvable(obs):
        return False
    me = obs[O_SEAT]
    opp = obs[O_DEFENDER] if me == obs[O_ATTACKER] else obs[O_ATTACKER]
    return popcount(obs[O_HAND]) + obs[O_HAND_SIZE + opp] <= k[ENDGAME_SOLVE_CARDS]


@njit(_nrt=False)
def end_attack(obs, k, first):
    """The lead: `first` (h_attack's), or the endgame solver's (ENDGAME_SOLVE)."""
    if not solve_here(obs, k):
        return first
    a = solve_choice(obs, K_ATTACK, obs[O_HAND], first, np.int64(k[ENDGAME_SOLVE]))
    return a if attack_ok(obs, obs[O_HAND], a) else first


@njit(_nrt=False)
def end_answer(obs, legal, k, kind, first):
    """A cover / take (kind K_COVER) or throw-in / pass (K_THROW_IN): `first`, or the endgame solver's."""
    if legal == 0 or not solve_here(obs, k):
        return first
    return solve_choice(obs, kind, legal, first, np.int64(k[ENDGAME_SOLVE]))
