"""The compiled core: plays complete deals of every family, one strategy per seat.

Private state (hands, talon order) lives in arrays that strategies never receive; the
public state lives in the observation vector ``obs`` (layout ``O_*`` in ``sim.core.lib``),
which is all a strategy sees, with its own hand written in just before it is asked.
The procedure follows ``sim/RULINGS.md`` (RUL-n) and ``../shared/RULES.md``.

This file is also a template: ``sim.core.dispatch`` copies it into a generated module with a
strategy dispatcher for the chosen line-up between the DISPATCH markers, so that the whole
engine is compiled, inlined and cached per line-up (numba does not cache kernels that take
functions as arguments, nor notice edits in other files).
"""
import numpy as np
from numba import njit

from sim.core.lib import (
    K_ATTACK, K_COVER, K_EXCHANGE, K_THROW_IN, K_TRANSFER, NIBBLE_LOW, NO_CARD, O_ATTACKER, O_BOUT,
    O_COVER_TARGET, O_DEALER, O_DEFENDER, O_DISCARD, O_FIRST_BOUT, O_HAND, O_HAND_SIZE, O_KNOWN, O_LIMIT, O_N,
    O_NTABLE, O_OUT, O_RULES, O_SEAT, O_SHOW_LEGAL, O_SIZE, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TAKING,
    O_TALON, O_TEAM, O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TRUMP_SUIT, RANK_MASKS, SHOW, cover_options, lowest,
    popcount, rng_below, rng_next, same_rank_cards, seed_stream, valid_prostoy_set,
)
from sim.core.rules import (
    LATER_IZ_POD, LATER_LEFT_OF_DEALER, LATER_LOWEST_TRUMP, LATER_POD, MODE_PEREVODNOY, MODE_PROSTOY,
    R_ATT_DRAW_NOW, R_EXCHANGE, R_EXCHANGE_WHILE_TRUMP, R_FALLBACK_LOWEST_CARD, R_FIRST_BOUT_MAX,
    R_FIRST_BOUT_UNTIL_DISCARD, R_FIRST_LOWEST_TRUMP, R_HAND, R_LATER_DEALS, R_LEAD_SINGLE, R_MAX_ATTACK, R_MODE,
    R_NEIGHBOURS_GT, R_NPLAYERS, R_N_TEAMS, R_PARTIAL, R_POGONY_SCORING, R_POGONY_WIN, R_POKAZNOY, R_PROEZDNOY,
    R_PROEZDNOY_PER_GAME, R_SETS_SINGLE_OR_PAIR, R_SIX_BEATS_ACE, R_SIZE, R_TEAM0, R_THROW_AFTER_TAKE,
    R_THROW_TIMING, R_TRANSFER_FIRST, R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_TWO_PAIR_SIZE, TIMING_AFTER_ATTACKER,
    TIMING_AFTER_FIRST_COVER, TIMING_ANY_TIME,
)

# --- DISPATCH BEGIN ---
from strategies import greedy as _s0  # noqa: E402
from strategies import random as _s1  # noqa: E402


@njit(cache=True)
def decide(sid, kind, obs, legal, params, rng):
    if sid == 0:
        if kind == 0:
            return _s0.attack(obs, legal, params, rng)
        if kind == 1:
            return _s0.cover(obs, legal, params, rng)
        if kind == 2:
            return _s0.throw_in(obs, legal, params, rng)
        if kind == 3:
            return _s0.transfer(obs, legal, params, rng)
        return _s0.exchange(obs, legal, params, rng)
    if kind == 0:
        return _s1.attack(obs, legal, params, rng)
    if kind == 1:
        return _s1.cover(obs, legal, params, rng)
    if kind == 2:
        return _s1.throw_in(obs, legal, params, rng)
    if kind == 3:
        return _s1.transfer(obs, legal, params, rng)
    return _s1.exchange(obs, legal, params, rng)
# --- DISPATCH END ---


# ---- per-deal record: one int64 row per deal (sim.core.records turns it into named fields) ----
(F_GAME, F_SERIES, F_DEAL, F_DEALER, F_FIRST_ATTACKER, F_FOOL, F_LOSING_TEAM, F_BOUTS, F_EXCHANGE_SEAT,
 F_TRANSFERS, F_POGONY_SEAT, F_LAST_LEAD_SIXES, F_ERROR, F_ERR_SEAT, F_ERR_KIND, F_ERR_VALUE, F_DRAW) = range(17)
F_OUTCOME, F_PLACE, F_TAKEN = 17, 23, 29
F_UNFINISHED = 35
F_SIX_HOLDER = 36  # the seat dealt the six of trumps (-1: it is the face-up card)
F_ACE_HOLDER = 37  # the seat dealt the ace of trumps (-1: it is the face-up card)
F_FOOL_CARDS = 38  # cards left in the losing hand(s) at the end
F_SIZE = 39
OUT_ESCAPED, OUT_DREW, OUT_FOOL = 0, 1, 2
ERR_ILLEGAL = 1
MAX_BOUTS = 1000  # RUL-22: a deal still going after this many bouts is recorded as unfinished

# ---- trace codes: (code, player, a, b) per action --------------------------------------------
T_ATTACK, T_COVER, T_TAKE, T_THROW_IN, T_PASS, T_TRANSFER, T_SHOW, T_EXCHANGE, T_DEFEND, T_DEAL = range(1, 11)
TRACE_CAP = 60000

# ---- workspace: one int64 array, obs first (ws[:O_SIZE] is what strategies get), then the private
# state. Performance: numba passes every array argument as a 7-word struct, and the hot functions
# below are only inlined by LLVM when small, so the core works on this one array plus scalars.
WS_HANDS = O_SIZE
WS_TALON = WS_HANDS + 6  # the talon in draw order; the trump card (if any) last
WS_DECK = WS_TALON + 36  # the shuffled pack, kept for traces
WS_SIZE = WS_DECK + 36


@njit(cache=True, _nrt=False)
def _emit(trace, tn, code, player, a, b):
    i = tn[0]
    if i < trace.shape[0]:
        trace[i, 0] = code
        trace[i, 1] = player
        trace[i, 2] = a
        trace[i, 3] = b
    tn[0] = i + 1


@njit(cache=True, _nrt=False)
def _set_hand(ws, s, m):
    ws[WS_HANDS + s] = m
    ws[O_HAND_SIZE + s] = popcount(m)


@njit(cache=True, _nrt=False)
def _play_out_card(ws, s, c):
    _set_hand(ws, s, ws[WS_HANDS + s] & ~(np.int64(1) << c))
    ws[O_KNOWN + s] &= ~(np.int64(1) << c)


@njit(cache=True, _nrt=False)
def _draw(ws, s, hand_size, tp, tend):
    """Refill seat s to hand_size from talon position tp (the trump card comes last). Returns the new tp."""
    h = ws[WS_HANDS + s]
    k = popcount(h)
    while k < hand_size and tp < tend:
        c = ws[WS_TALON + tp]
        tp += 1
        h |= np.int64(1) << c
        k += 1
        if tp == tend:
            ws[O_TRUMP_IN_TALON] = 0
            ws[O_KNOWN + s] |= np.int64(1) << c
    ws[WS_HANDS + s] = h
    ws[O_HAND_SIZE + s] = k
    ws[O_TALON] = tend - tp
    return tp


# Seat arithmetic: step and wrap instead of `% n` (an integer division each, hot in every bout).
@njit(cache=True, _nrt=False)
def _next_active(out, s, n):
    """The next active seat clockwise from s (s itself last)."""
    t = s
    for _ in range(n):
        t += 1
        if t == n:
            t = 0
        if not (out >> t) & 1:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _prev_active(out, s, n):
    t = s
    for _ in range(n):
        t = t - 1 if t > 0 else n - 1
        if not (out >> t) & 1:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _next_opponent(ws, out, s, n):
    """RUL-5: the next active player clockwise of another team (anyone else without teams)."""
    ts = ws[O_TEAM + s]
    t = s
    for _ in range(n - 1):
        t += 1
        if t == n:
            t = 0
        if not (out >> t) & 1 and ws[O_TEAM + t] != ts:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _fail(rec, seat, kind, value):
    rec[F_ERROR] = ERR_ILLEGAL
    rec[F_ERR_SEAT] = seat
    rec[F_ERR_KIND] = kind
    rec[F_ERR_VALUE] = value


@njit(cache=True, _nrt=False)
def _ask(ws, obs, sids, params, srng, seat, kind, legal):
    """Ask seat's strategy: obs (= ws[:O_SIZE]) gets the seat's own hand written in first."""
    ws[O_SEAT] = seat
    ws[O_HAND] = ws[WS_HANDS + seat]
    return decide(sids[seat], kind, obs, legal, params[seat], srng)


@njit(cache=True, _nrt=False)
def _table_add(ws, n_att, card):
    ws[O_TABLE_ATT + n_att] = card
    ws[O_TABLE_COV + n_att] = -1
    ws[O_TABLE_MASK] |= np.int64(1) << card
    ws[O_NTABLE] = n_att + 1


@njit(cache=True, _nrt=False)
def _offer_exchange(ws, obs, tp, tend, n, sids, params, srng, rec, trace, tn, tracing):
    """RUL-9: the trump-six holder may swap it for the face-up trump card. Returns False on an illegal answer."""
    if tend - tp < (1 if ws[O_RULES + R_EXCHANGE_WHILE_TRUMP] else 2):
        return True
    six = ws[O_TRUMP_SUIT]  # rank 0 of the trump suit
    tc = ws[WS_TALON + tend - 1]
    if tc == six:
        return True
    for h in range(n):
        if (ws[WS_HANDS + h] >> six) & 1:
            a = _ask(ws, obs, sids, params, srng, h, K_EXCHANGE, np.int64(1))
            if a != 0 and a != 1:
                _fail(rec, h, K_EXCHANGE, a)
                return False
            if a == 1:
                _set_hand(ws, h, (ws[WS_HANDS + h] & ~(np.int64(1) << six)) | (np.int64(1) << tc))
                ws[O_KNOWN + h] = (ws[O_KNOWN + h] & ~(np.int64(1) << six)) | (np.int64(1) << tc)
                ws[WS_TALON + tend - 1] = six
                ws[O_TRUMP_CARD] = six
                rec[F_EXCHANGE_SEAT] = h
                if tracing:
                    _emit(trace, tn, T_EXCHANGE, h, six, tc)
            return True
    return True


@njit(cache=True, _nrt=False)
def _team_count(ws, out, n):
    """Teams (players, without teams) with an active member; a bitmask of their ids."""
    team_left = np.int64(0)
    for s in range(n):
        if not (out >> s) & 1:
            team_left |= np.int64(1) << ws[O_TEAM + s]
    return team_left


@njit(cache=True, _nrt=False)
def play_deal(rv, ws, sids, params, srng, tend, first_att, rec, trace, tn, tracing, out0=0, bout0=0, forced=0,
              discarded=False):
    """Play one deal from a dealt position (talon ws[WS_TALON:WS_TALON+tend]) until a fool or a draw.
    Fills rec; returns nothing. A search player starts it mid-deal: `out0` seats already out, bout
    number `bout0`, `discarded` (a bout has ended in a discard), and `forced` as the first lead."""
    obs = ws[:O_SIZE]
    # the rules, read once (stores into ws would otherwise force a reload of every flag)
    n = rv[R_NPLAYERS]
    mode = rv[R_MODE]
    hand_size = rv[R_HAND]
    six_ace = rv[R_SIX_BEATS_ACE] != 0
    only_if = rv[R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0
    n_teams = rv[R_N_TEAMS]
    exchange_on = rv[R_EXCHANGE] != 0
    partial = rv[R_PARTIAL] != 0
    att_draw_now = rv[R_ATT_DRAW_NOW] != 0
    single_or_pair = rv[R_SETS_SINGLE_OR_PAIR] != 0
    two_pair_size = rv[R_TWO_PAIR_SIZE]
    max_attack = rv[R_MAX_ATTACK]
    fb = rv[R_FIRST_BOUT_MAX]
    fb_until_discard = rv[R_FIRST_BOUT_UNTIL_DISCARD] != 0
    lead_single = rv[R_LEAD_SINGLE] != 0
    timing = rv[R_THROW_TIMING]
    throw_after_take = rv[R_THROW_AFTER_TAKE] != 0
    gt = rv[R_NEIGHBOURS_GT]
    neighbours_only = gt > 0 and n > gt
    transfer_first = rv[R_TRANSFER_FIRST] != 0
    proezdnoy = rv[R_PROEZDNOY] != 0
    proezdnoy_per_game = rv[R_PROEZDNOY_PER_GAME] != 0
    pokaznoy = rv[R_POKAZNOY] != 0
    pogony_win = rv[R_POGONY_WIN] != 0
    pogony_scoring = rv[R_POGONY_SCORING] != 0
    trump = ws[O_TRUMP_SUIT]
    tp = 0  # talon position: cards tp..tend-1 are still to be drawn
    out = np.int64(out0)
    n_out = popcount(out)
    n_left = popcount(_team_count(ws, out, n))
    att = first_att
    dfn = _next_opponent(ws, out, att, n)
    any_discard = discarded
    shown_game = np.int64(0)
    bout = bout0
    rec[F_FIRST_ATTACKER] = att
    rec[F_FOOL] = -1
    rec[F_LOSING_TEAM] = -1
    rec[F_EXCHANGE_SEAT] = -1
    rec[F_POGONY_SEAT] = -1
    for s in range(6):  # rec arrives zeroed (play_series)
        rec[F_OUTCOME + s] = OUT_ESCAPED if s < n else -1
    while True:
        if bout >= MAX_BOUTS:
            rec[F_UNFINISHED] = 1
            rec[F_BOUTS] = bout
            return
        ws[O_BOUT] = bout
        ws[O_FIRST_BOUT] = 1 if bout == 0 else 0
        ws[O_ATTACKER] = att
        ws[O_DEFENDER] = dfn
        ws[O_TAKING] = 0
        ws[O_NTABLE] = 0
        ws[O_TABLE_MASK] = 0
        ws[O_SHOW_LEGAL] = 0
        if exchange_on and tp < tend:
            if not _offer_exchange(ws, obs, tp, tend, n, sids, params, srng, rec, trace, tn, tracing):
                return
        opener = att
        taking = False
        n_cov = 0
        lead_mask = np.int64(0)
        if mode == MODE_PROSTOY:
            # ---- simple durak: one set, one defence (RUL-11..13) ----
            cap = ws[O_HAND_SIZE + dfn]
            if cap > 6:
                cap = 6
            ws[O_LIMIT] = cap
            ha = ws[WS_HANDS + att]
            a = forced if forced != 0 and bout == bout0 else _ask(ws, obs, sids, params, srng, att, K_ATTACK, ha)
            if (a & ~ha) != 0 or not valid_prostoy_set(a, single_or_pair, two_pair_size, cap):
                _fail(rec, att, K_ATTACK, a)
                return
            lead_mask = a
            m = a
            k = 0
            while m:
                c = lowest(m)
                m &= m - 1
                _table_add(ws, k, c)
                k += 1
            _set_hand(ws, att, ha & ~a)
            ws[O_KNOWN + att] &= ~a
            if tracing:
                _emit(trace, tn, T_ATTACK, att, a, 0)
            if att_draw_now:
                tp = _draw(ws, att, hand_size, tp, tend)
            covered = np.int64(0)
            used = np.int64(0)
            all_cov = True
            for i in range(k):
                ac = ws[O_TABLE_ATT + i]
                legal = cover_options(ac, ws[WS_HANDS + dfn], trump, six_ace, only_if)
                ws[O_COVER_TARGET] = i
                cv = _ask(ws, obs, sids, params, srng, dfn, K_COVER, legal)
                if cv == NO_CARD:
                    all_cov = False
                    if not partial:
                        break
                    continue
                if cv < 0 or cv >= 36 or not (legal >> cv) & 1:
                    _fail(rec, dfn, K_COVER, cv)
                    return
                ws[O_TABLE_COV + i] = cv
                ws[O_TABLE_MASK] |= np.int64(1) << cv
                _set_hand(ws, dfn, ws[WS_HANDS + dfn] & ~(np.int64(1) << cv))
                covered |= np.int64(1) << ac
                used |= np.int64(1) << cv
            if not all_cov and not partial:
                # RUL-12 take-all: covers come back, the defender takes the attack
                _set_hand(ws, dfn, ws[WS_HANDS + dfn] | used)
                covered = np.int64(0)
                used = np.int64(0)
            take = a & ~covered
            if tracing:
                for i in range(k):
                    if (covered >> ws[O_TABLE_ATT + i]) & 1:
                        _emit(trace, tn, T_DEFEND, dfn, ws[O_TABLE_ATT + i], ws[O_TABLE_COV + i])
                _emit(trace, tn, T_DEFEND, dfn, -1, take)
            ws[O_KNOWN + dfn] &= ~used
            if take:
                taking = True
                _set_hand(ws, dfn, ws[WS_HANDS + dfn] | take)
                ws[O_KNOWN + dfn] |= take
                rec[F_TAKEN + dfn] += popcount(take)
            if covered:
                ws[O_DISCARD] |= covered | used
                any_discard = True
            if not att_draw_now:
                tp = _draw(ws, att, hand_size, tp, tend)
            tp = _draw(ws, dfn, hand_size, tp, tend)
        else:
            # ---- podkidnoy / perevodnoy (RUL-14..19) ----
            limit = max_attack
            if fb > 0 and ((not any_discard) if fb_until_discard else (bout == 0)):
                if fb < limit:
                    limit = fb
            base_limit = limit
            dl = ws[O_HAND_SIZE + dfn]
            if dl < limit:
                limit = dl
            ws[O_LIMIT] = limit
            ha = ws[WS_HANDS + att]
            a = forced if forced != 0 and bout == bout0 else _ask(ws, obs, sids, params, srng, att, K_ATTACK, ha)
            k = popcount(a)
            if (a == 0 or (a & ~ha) != 0 or k > limit
                    or popcount(same_rank_cards(a) & NIBBLE_LOW) != 1 or (lead_single and k != 1)):
                _fail(rec, att, K_ATTACK, a)
                return
            lead_mask = a
            m = a
            i = 0
            while m:
                c = lowest(m)
                m &= m - 1
                _table_add(ws, i, c)
                i += 1
            _set_hand(ws, att, ha & ~a)
            ws[O_KNOWN + att] &= ~a
            if tracing:
                _emit(trace, tn, T_ATTACK, att, a, 0)
            shown_bout = np.int64(0)
            showed_players = np.int64(0)
            # With any_time the first throw round (the attacker skipped) comes before the defender answers.
            skip_attacker = timing == TIMING_ANY_TIME
            while True:
                # the defender answers every uncovered card: transfer, cover, or take
                while not skip_attacker and ws[O_NTABLE] > n_cov and not taking:
                    n_att = ws[O_NTABLE]
                    if mode == MODE_PEREVODNOY and n_cov == 0 and (bout > 0 or transfer_first):
                        rk = same_rank_cards(ws[O_TABLE_MASK])
                        nd = _next_opponent(ws, out, dfn, n)
                        if popcount(rk & NIBBLE_LOW) == 1 and nd >= 0 and nd != dfn:
                            hd = ws[WS_HANDS + dfn]
                            lay = hd & rk if ws[O_HAND_SIZE + nd] >= n_att + 1 else np.int64(0)
                            show = np.int64(0)
                            if ws[O_HAND_SIZE + nd] >= n_att:
                                if proezdnoy and trump >= 0:
                                    tr = hd & rk & (NIBBLE_LOW << trump)
                                    if proezdnoy_per_game:
                                        tr &= ~shown_game
                                    elif (showed_players >> dfn) & 1:
                                        tr = np.int64(0)
                                    show |= tr
                                if pokaznoy:
                                    show |= hd & rk & ~shown_bout
                            if lay | show:
                                ws[O_SHOW_LEGAL] = show
                                tcard = _ask(ws, obs, sids, params, srng, dfn, K_TRANSFER, lay)
                                ws[O_SHOW_LEGAL] = 0
                                if tcard != NO_CARD:
                                    if tcard >= SHOW and tcard < SHOW + 36 and (show >> (tcard - SHOW)) & 1:
                                        c = tcard - SHOW
                                        shown_bout |= np.int64(1) << c
                                        shown_game |= np.int64(1) << c
                                        showed_players |= np.int64(1) << dfn
                                        ws[O_KNOWN + dfn] |= np.int64(1) << c
                                        if tracing:
                                            _emit(trace, tn, T_SHOW, dfn, c, nd)
                                    elif tcard >= 0 and tcard < 36 and (lay >> tcard) & 1:
                                        _play_out_card(ws, dfn, tcard)
                                        _table_add(ws, n_att, tcard)
                                        if tracing:
                                            _emit(trace, tn, T_TRANSFER, dfn, tcard, nd)
                                    else:
                                        _fail(rec, dfn, K_TRANSFER, tcard)
                                        return
                                    rec[F_TRANSFERS] += 1
                                    att = dfn
                                    dfn = nd
                                    ws[O_ATTACKER] = att
                                    ws[O_DEFENDER] = dfn
                                    limit = base_limit
                                    if ws[O_HAND_SIZE + dfn] < limit:
                                        limit = ws[O_HAND_SIZE + dfn]
                                    ws[O_LIMIT] = limit
                                    continue
                    tgt = n_cov
                    ac = ws[O_TABLE_ATT + tgt]
                    legal = cover_options(ac, ws[WS_HANDS + dfn], trump, six_ace, only_if)
                    ws[O_COVER_TARGET] = tgt
                    cv = _ask(ws, obs, sids, params, srng, dfn, K_COVER, legal)
                    if cv == NO_CARD:
                        taking = True
                        ws[O_TAKING] = 1
                        if tracing:
                            _emit(trace, tn, T_TAKE, dfn, 0, 0)
                        break
                    if cv < 0 or cv >= 36 or not (legal >> cv) & 1:
                        _fail(rec, dfn, K_COVER, cv)
                        return
                    _play_out_card(ws, dfn, cv)
                    ws[O_TABLE_COV + tgt] = cv
                    ws[O_TABLE_MASK] |= np.int64(1) << cv
                    n_cov += 1
                    if tracing:
                        _emit(trace, tn, T_COVER, dfn, ac, cv)
                if taking and not throw_after_take:
                    break
                # ---- one throw-in round (RUL-16/17): the attacker, then clockwise; the first
                # card thrown in ends the round. Written inline: as a function it was a call
                # with ~80 argument words per round.
                thrower = -1
                n_att = ws[O_NTABLE]
                if n_att < limit:
                    ranks = same_rank_cards(ws[O_TABLE_MASK])
                    left_nb = -1
                    right_nb = -1
                    if neighbours_only:
                        left_nb = _next_active(out, dfn, n)
                        right_nb = _prev_active(out, dfn, n)
                    team_d = ws[O_TEAM + dfn]
                    att_done = skip_attacker
                    c = att
                    for i in range(n):
                        if i > 0:
                            c += 1
                            if c == n:
                                c = 0
                        if c == dfn or (out >> c) & 1 or ws[O_TEAM + c] == team_d:
                            continue
                        if left_nb >= 0 and c != left_nb and c != right_nb:
                            continue
                        legal = ws[WS_HANDS + c] & ranks
                        if i == 0:
                            if skip_attacker:
                                continue
                            if legal == 0:
                                att_done = True
                                continue
                        else:
                            if timing == TIMING_AFTER_ATTACKER and not att_done:
                                break
                            if timing == TIMING_AFTER_FIRST_COVER and n_cov == 0 and not taking:
                                break
                            if legal == 0:
                                continue
                        t = _ask(ws, obs, sids, params, srng, c, K_THROW_IN, legal)
                        if t == NO_CARD:
                            if tracing:
                                _emit(trace, tn, T_PASS, c, 0, 0)
                            if i == 0:
                                att_done = True
                            continue
                        if t < 0 or t >= 36 or not (legal >> t) & 1:
                            _fail(rec, c, K_THROW_IN, t)
                            return
                        _play_out_card(ws, c, t)
                        _table_add(ws, n_att, t)
                        if tracing:
                            _emit(trace, tn, T_THROW_IN, c, t, 0)
                        thrower = c
                        break
                if skip_attacker:  # after the any_time round the defender answers in any case
                    skip_attacker = False
                    continue
                if thrower < 0:
                    break
            tm = ws[O_TABLE_MASK]
            if taking:
                _set_hand(ws, dfn, ws[WS_HANDS + dfn] | tm)
                ws[O_KNOWN + dfn] |= tm
                rec[F_TAKEN + dfn] += popcount(tm)
            else:
                ws[O_DISCARD] |= tm
                any_discard = True
            # RUL-18: opener first, then clockwise, the defender last
            if tp < tend:
                s = opener
                for i in range(n):
                    if s != dfn and not (out >> s) & 1:
                        tp = _draw(ws, s, hand_size, tp, tend)
                    s += 1
                    if s == n:
                        s = 0
                tp = _draw(ws, dfn, hand_size, tp, tend)
        ws[O_NTABLE] = 0
        ws[O_TABLE_MASK] = 0
        bout += 1
        # ---- who is out, is the deal over (RUL-20/21) ----
        # Nobody goes out while the talon has cards (everyone has just drawn), so all of this is
        # skipped in most bouts.
        out_before = out
        newly = 0
        if tp == tend:
            for s in range(n):
                if not (out >> s) & 1 and ws[WS_HANDS + s] == 0:
                    out |= np.int64(1) << s
                    rec[F_PLACE + s] = n_out + 1
            ws[O_OUT] = out
            newly = popcount(out & ~out_before)
            if newly:
                n_left = popcount(_team_count(ws, out, n))
        pog = -1
        if pogony_win and n - popcount(out) == 2:
            w = 0
            for s in range(n):
                hs = ws[WS_HANDS + s]
                if not (out >> s) & 1 and (hs & RANK_MASKS[0]) == hs and popcount(hs) == 2:
                    pog = s
                    w += 1
            if w != 1:
                pog = -1
        if n_left <= 1 or pog >= 0:
            rec[F_BOUTS] = bout
            if pogony_scoring:
                rec[F_LAST_LEAD_SIXES] = popcount(lead_mask & RANK_MASKS[0])
            team_left = _team_count(ws, out, n)
            if pog >= 0:
                rec[F_POGONY_SEAT] = pog
                out |= np.int64(1) << pog
                rec[F_PLACE + pog] = n_out + 1
                n_left = 1
                team_left = _team_count(ws, out, n)
            if n_left == 0:
                # RUL-21: whoever was still in at the final bout drew; in teams, the whole team
                rec[F_DRAW] = 1
                drew_teams = np.int64(0)
                for s in range(n):
                    if not (out_before >> s) & 1:
                        drew_teams |= np.int64(1) << ws[O_TEAM + s]
                for s in range(n):
                    if (drew_teams >> ws[O_TEAM + s]) & 1:
                        rec[F_OUTCOME + s] = OUT_DREW
            else:
                lt = lowest(team_left)
                rec[F_LOSING_TEAM] = lt
                for s in range(n):
                    if ws[O_TEAM + s] == lt:
                        rec[F_OUTCOME + s] = OUT_FOOL
                        if not (out >> s) & 1:
                            rec[F_PLACE + s] = n
                            rec[F_FOOL_CARDS] += popcount(ws[WS_HANDS + s])
                            if rec[F_FOOL] < 0:
                                rec[F_FOOL] = s
            return
        n_out += newly
        # ---- next attacker and defender (RUL-6, RUL-5) ----
        if taking:
            att = _next_active(out, dfn, n)
            if att == dfn:
                att = -1
        elif not (out >> dfn) & 1:
            att = dfn
        else:
            att = -1
            if n_teams < n:
                t = dfn
                for i in range(n - 1):
                    t += 1
                    if t == n:
                        t = 0
                    if not (out >> t) & 1 and ws[O_TEAM + t] == ws[O_TEAM + dfn]:
                        att = t
                        break
            if att < 0:
                att = _next_active(out, dfn, n)
        dfn = _next_opponent(ws, out, att, n)


@njit(cache=True, _nrt=False)
def deal_cards(rv, drng, ws, dealer):
    """RUL-2: shuffle, deal one at a time from the dealer's left, turn the trump card.
    Returns the talon length (the talon is ws[WS_TALON:WS_TALON + length], trump card last)."""
    n = rv[R_NPLAYERS]
    h = rv[R_HAND]
    for i in range(36):
        ws[WS_DECK + i] = i
    # Fisher-Yates; each 64-bit draw gives two 32-bit multiply-shift indices
    i = 35
    while i > 0:
        r = rng_next(drng)
        j = np.int64(((r >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        tmp = ws[WS_DECK + i]
        ws[WS_DECK + i] = ws[WS_DECK + j]
        ws[WS_DECK + j] = tmp
        i -= 1
        if i > 0:
            j = np.int64(((r & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            tmp = ws[WS_DECK + i]
            ws[WS_DECK + i] = ws[WS_DECK + j]
            ws[WS_DECK + j] = tmp
            i -= 1
    for s in range(6):
        ws[WS_HANDS + s] = 0
    s = dealer
    for i in range(n * h):
        s += 1
        if s == n:
            s = 0
        ws[WS_HANDS + s] |= np.int64(1) << ws[WS_DECK + i]
    for s in range(6):
        ws[O_HAND_SIZE + s] = popcount(ws[WS_HANDS + s]) if s < n else 0
        ws[O_KNOWN + s] = 0
    dealt = n * h
    if dealt < 36:
        tc = ws[WS_DECK + dealt]
        k = 0
        for i in range(dealt + 1, 36):
            ws[WS_TALON + k] = ws[WS_DECK + i]
            k += 1
        ws[WS_TALON + k] = tc
        tend = k + 1
        ws[O_TRUMP_IN_TALON] = 1
    else:
        tc = ws[WS_DECK + 35]  # RUL-2: shown for trump, stays in the dealer's hand
        tend = 0
        ws[O_TRUMP_IN_TALON] = 0
        ws[O_KNOWN + dealer] = np.int64(1) << tc
    ws[O_TRUMP_CARD] = tc
    ws[O_TRUMP_SUIT] = tc & 3
    ws[O_TALON] = tend
    return tend


@njit(cache=True, _nrt=False)
def _first_attacker(rv, ws, dealer, first_deal, prev_fool):
    """RUL-7."""
    n = rv[R_NPLAYERS]
    rule = LATER_LOWEST_TRUMP if rv[R_FIRST_LOWEST_TRUMP] else LATER_LEFT_OF_DEALER
    if not first_deal:
        rule = rv[R_LATER_DEALS]
        if prev_fool < 0 and (rule == LATER_POD or rule == LATER_IZ_POD):
            rule = LATER_LEFT_OF_DEALER
    if rule == LATER_POD:
        return (prev_fool - 1 + n) % n
    if rule == LATER_IZ_POD:
        return (prev_fool + 1) % n
    if rule == LATER_LOWEST_TRUMP:
        trump = ws[O_TRUMP_SUIT]
        best = 99
        who = -1
        for s in range(n):
            t = ws[WS_HANDS + s] & (NIBBLE_LOW << trump)
            if t:
                c = lowest(t)
                if c < best:
                    best = c
                    who = s
        if who >= 0:
            return who
        if rv[R_FALLBACK_LOWEST_CARD]:
            best = 99
            for s in range(n):
                if ws[WS_HANDS + s]:
                    c = lowest(ws[WS_HANDS + s])
                    if c < best:
                        best = c
                        who = s
            return who
    return (dealer + 1) % n


@njit(cache=True, _nrt=False)
def play_series(rv, sids, params, seed, series, n_deals, recs, row0, deck_out, trace, tn, tracing, ws, rngs):
    """Play deals row0.. of one series: the same seats, the dealer and first attacker passed on (RUL-7/8).
    ws is a preallocated int64 workspace of WS_SIZE, rngs a uint64[2] pair of generators."""
    n = rv[R_NPLAYERS]
    ws[:O_SIZE] = 0
    for i in range(R_SIZE):
        ws[O_RULES + i] = rv[i]
    ws[O_N] = n
    for s in range(6):
        ws[O_TEAM + s] = rv[R_TEAM0 + s] if s < n else -1
    drng = rngs[0:1]
    srng = rngs[1:2]
    seed_stream(drng, seed, series, 0)
    seed_stream(srng, seed, series, 1)
    dealer = rng_below(drng, n)
    prev_fool = -1
    for d in range(n_deals):
        rec = recs[row0 + d]
        rec[:] = 0
        rec[F_GAME] = series * n_deals + d
        rec[F_SERIES] = series
        rec[F_DEAL] = d
        rec[F_DEALER] = dealer
        ws[O_DEALER] = dealer
        ws[O_OUT] = 0
        ws[O_DISCARD] = 0
        tend = deal_cards(rv, drng, ws, dealer)
        if tracing:
            for i in range(36):
                deck_out[d, i] = ws[WS_DECK + i]
        rec[F_SIX_HOLDER] = -1
        rec[F_ACE_HOLDER] = -1
        for s in range(n):
            if (ws[WS_HANDS + s] >> ws[O_TRUMP_SUIT]) & 1:
                rec[F_SIX_HOLDER] = s
            if (ws[WS_HANDS + s] >> (32 + ws[O_TRUMP_SUIT])) & 1:
                rec[F_ACE_HOLDER] = s
        fa = _first_attacker(rv, ws, dealer, d == 0, prev_fool)
        if tracing:
            _emit(trace, tn, T_DEAL, dealer, fa, d)
        play_deal(rv, ws, sids, params, srng, tend, fa, rec, trace, tn, tracing)
        if rec[F_ERROR]:
            return
        # RUL-8: the fool deals next; after a draw the same dealer; in teams the first loser from the dealer
        lt = rec[F_LOSING_TEAM]
        prev_fool = rec[F_FOOL] if rv[R_N_TEAMS] == n else -1  # no single fool in a team game
        if lt >= 0:
            if rec[F_FOOL] >= 0 and rv[R_N_TEAMS] == n:
                dealer = rec[F_FOOL]
            else:
                for i in range(n):
                    s = (dealer + i) % n
                    if rv[R_TEAM0 + s] == lt:
                        dealer = s
                        break


@njit(nogil=True, cache=True)
def play_batch(rv, sids, params, seed, series0, n_series, n_deals, recs):
    """Series series0 .. series0+n_series-1; recs has n_series*n_deals rows. Releases the GIL:
    the batch runner runs chunks on threads, and each series' seed makes the split irrelevant."""
    deck_out = np.zeros((1, 36), dtype=np.int64)
    trace = np.zeros((1, 4), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    rngs = np.zeros(2, dtype=np.uint64)
    for k in range(n_series):
        play_series(rv, sids, params, seed, series0 + k, n_deals, recs, k * n_deals, deck_out, trace, tn, False,
                    ws, rngs)


@njit(nogil=True, cache=True)
def play_traced(rv, sids, params, seed, series, n_deals, recs, deck_out, trace, tn):
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    rngs = np.zeros(2, dtype=np.uint64)
    play_series(rv, sids, params, seed, series, n_deals, recs, 0, deck_out, trace, tn, True, ws, rngs)
