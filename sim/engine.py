"""The compiled core: plays complete deals of every family, one strategy per seat.

Private state (hands, talon order) lives in arrays that strategies never receive; the
public state lives in the observation vector ``obs`` (layout ``O_*`` in ``sim.lib``),
which is all a strategy sees, with its own hand written in just before it is asked.
The procedure follows ``sim/RULINGS.md`` (RUL-n) and ``../shared/RULES.md``.

This file is also a template: ``sim.dispatch`` copies it into a generated module with a
strategy dispatcher for the chosen line-up between the DISPATCH markers, so that the whole
engine is compiled, inlined and cached per line-up (numba does not cache kernels that take
functions as arguments, nor notice edits in other files).
"""
import numpy as np
from numba import njit

from sim.lib import (
    K_ATTACK, K_COVER, K_EXCHANGE, K_THROW_IN, K_TRANSFER, NIBBLE_LOW, NO_CARD, O_ATTACKER, O_BOUT,
    O_COVER_TARGET, O_DEALER, O_DEFENDER, O_DISCARD, O_FIRST_BOUT, O_HAND, O_HAND_SIZE, O_KNOWN, O_LIMIT, O_N,
    O_NTABLE, O_OUT, O_RULES, O_SEAT, O_SHOW_LEGAL, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TAKING, O_TALON,
    O_TEAM, O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TRUMP_SUIT, RANK_MASKS, SHOW, bit, cover_options, lowest,
    popcount, rng_below, rng_next, same_rank_cards, seed_stream, valid_prostoy_set,
)
from sim.rules import (
    LATER_IZ_POD, LATER_LEFT_OF_DEALER, LATER_LOWEST_TRUMP, LATER_POD, MODE_PEREVODNOY, MODE_PROSTOY,
    R_ATT_DRAW_NOW, R_EXCHANGE, R_EXCHANGE_WHILE_TRUMP, R_FALLBACK_LOWEST_CARD, R_FIRST_BOUT_MAX,
    R_FIRST_BOUT_UNTIL_DISCARD, R_FIRST_LOWEST_TRUMP, R_HAND, R_LATER_DEALS, R_LEAD_SINGLE, R_MAX_ATTACK, R_MODE,
    R_NEIGHBOURS_GT, R_NPLAYERS, R_N_TEAMS, R_PARTIAL, R_POGONY_SCORING, R_POGONY_WIN, R_POKAZNOY, R_PROEZDNOY,
    R_PROEZDNOY_PER_GAME, R_SETS_SINGLE_OR_PAIR, R_SIX_BEATS_ACE, R_SIZE, R_TEAM0, R_THROW_AFTER_TAKE,
    R_THROW_TIMING, R_TRANSFER_FIRST, R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_TWO_PAIR_SIZE, TIMING_AFTER_ATTACKER,
    TIMING_ANY_TIME,
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


# ---- per-deal record: one int64 row per deal (sim.records turns it into named fields) ----
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
# workspace layout: obs first, then the private arrays
WS_HANDS = O_RULES + R_SIZE
WS_TALON = WS_HANDS + 6
WS_TPOS = WS_TALON + 36
WS_DECK = WS_TPOS + 2
WS_PASSES = WS_DECK + 36
WS_SIZE = WS_PASSES + 1


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
def _set_hand(hands, obs, s, m):
    hands[s] = m
    obs[O_HAND_SIZE + s] = popcount(m)


@njit(cache=True, _nrt=False)
def _draw(hands, obs, talon, tpos, s, hand_size):
    """Refill seat s to hand_size from the top of the talon; the trump card comes last."""
    h = hands[s]
    k = popcount(h)
    while k < hand_size and tpos[0] < tpos[1]:
        c = talon[tpos[0]]
        tpos[0] += 1
        h |= np.int64(1) << c
        k += 1
        if tpos[0] == tpos[1]:
            obs[O_TRUMP_IN_TALON] = 0
            obs[O_KNOWN + s] |= np.int64(1) << c
    hands[s] = h
    obs[O_HAND_SIZE + s] = k
    obs[O_TALON] = tpos[1] - tpos[0]


@njit(cache=True, _nrt=False)
def _next_active(out, s, n):
    for i in range(1, n + 1):
        t = (s + i) % n
        if not (out >> t) & 1:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _next_opponent(out, obs, s, n):
    """RUL-5: the next active player clockwise of another team (anyone else without teams)."""
    ts = obs[O_TEAM + s]
    for i in range(1, n):
        t = (s + i) % n
        if not (out >> t) & 1 and obs[O_TEAM + t] != ts:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _prev_active(out, s, n):
    for i in range(1, n + 1):
        t = (s - i + n) % n
        if not (out >> t) & 1:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _fail(rec, seat, kind, value):
    rec[F_ERROR] = ERR_ILLEGAL
    rec[F_ERR_SEAT] = seat
    rec[F_ERR_KIND] = kind
    rec[F_ERR_VALUE] = value


@njit(cache=True, _nrt=False)
def _ask(sids, params, srng, obs, hands, seat, kind, legal):
    obs[O_SEAT] = seat
    obs[O_HAND] = hands[seat]
    return decide(sids[seat], kind, obs, legal, params[seat], srng)


@njit(cache=True, _nrt=False)
def _table_add(obs, n_att, card):
    obs[O_TABLE_ATT + n_att] = card
    obs[O_TABLE_COV + n_att] = -1
    obs[O_TABLE_MASK] |= np.int64(1) << card
    obs[O_NTABLE] = n_att + 1


@njit(cache=True, _nrt=False)
def _offer_exchange(rv, obs, hands, talon, tpos, n, sids, params, srng, rec, trace, tn, tracing):
    """RUL-9: the trump-six holder may swap it for the face-up trump card. Returns False on an illegal answer."""
    if not rv[R_EXCHANGE]:
        return True
    left = tpos[1] - tpos[0]
    if left < (1 if rv[R_EXCHANGE_WHILE_TRUMP] else 2):
        return True
    trump = obs[O_TRUMP_SUIT]
    six = trump  # rank 0 of the trump suit
    tc = talon[tpos[1] - 1]
    if tc == six:
        return True
    for h in range(n):
        if (hands[h] >> six) & 1:
            a = _ask(sids, params, srng, obs, hands, h, K_EXCHANGE, np.int64(1))
            if a != 0 and a != 1:
                _fail(rec, h, K_EXCHANGE, a)
                return False
            if a == 1:
                _set_hand(hands, obs, h, (hands[h] & ~(np.int64(1) << six)) | (np.int64(1) << tc))
                obs[O_KNOWN + h] = (obs[O_KNOWN + h] & ~(np.int64(1) << six)) | (np.int64(1) << tc)
                talon[tpos[1] - 1] = six
                obs[O_TRUMP_CARD] = six
                rec[F_EXCHANGE_SEAT] = h
                if tracing:
                    _emit(trace, tn, T_EXCHANGE, h, six, tc)
            return True
    return True


@njit(cache=True, _nrt=False)
def _play_out_card(hands, obs, s, c):
    _set_hand(hands, obs, s, hands[s] & ~(np.int64(1) << c))
    obs[O_KNOWN + s] &= ~(np.int64(1) << c)


@njit(cache=True, _nrt=False)
def _throw_round(rv, obs, hands, n, out, att, dfn, limit, taking, n_cov, passes, sids, params, srng, rec,
                 trace, tn, tracing, skip_attacker):
    """RUL-16/17: ask throwers in order (attacker, then clockwise). Returns the thrower, -1 if all passed, -2 on error."""
    n_att = obs[O_NTABLE]
    if n_att >= limit:
        return -1
    ranks = same_rank_cards(obs[O_TABLE_MASK])
    timing = rv[R_THROW_TIMING]
    gt = rv[R_NEIGHBOURS_GT]
    left_nb = -1
    right_nb = -1
    if gt > 0 and rv[R_NPLAYERS] > gt:
        left_nb = _next_active(out, dfn, n)
        right_nb = _prev_active(out, dfn, n)
    att_done = skip_attacker
    for i in range(n):
        c = (att + i) % n
        if c == dfn or (out >> c) & 1 or obs[O_TEAM + c] == obs[O_TEAM + dfn]:
            continue
        if left_nb >= 0 and c != left_nb and c != right_nb:
            continue
        legal = hands[c] & ranks
        if i == 0:
            if skip_attacker:
                continue
            if legal == 0:
                att_done = True
                continue
        else:
            if timing == TIMING_AFTER_ATTACKER and not att_done:
                break
            if timing == 0 and n_cov == 0 and not taking:  # after_first_cover
                break
            if legal == 0:
                continue
        a = _ask(sids, params, srng, obs, hands, c, K_THROW_IN, legal)
        if a == NO_CARD:
            passes[0] |= np.int64(1) << c
            if tracing:
                _emit(trace, tn, T_PASS, c, 0, 0)
            if i == 0:
                att_done = True
            continue
        if a < 0 or a >= 36 or not (legal >> a) & 1:
            _fail(rec, c, K_THROW_IN, a)
            return -2
        _play_out_card(hands, obs, c, a)
        _table_add(obs, n_att, a)
        if tracing:
            _emit(trace, tn, T_THROW_IN, c, a, 0)
        return c
    return -1


@njit(cache=True, _nrt=False)
def play_deal(rv, sids, params, srng, obs, hands, talon, tpos, dealer, first_att, rec, trace, tn, tracing, passes):
    """Play one deal from a dealt position until a fool or a draw. Fills rec; returns nothing."""
    n = rv[R_NPLAYERS]
    mode = rv[R_MODE]
    hand_size = rv[R_HAND]
    trump = obs[O_TRUMP_SUIT]
    six_ace = rv[R_SIX_BEATS_ACE] != 0
    only_if = rv[R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0
    n_teams = rv[R_N_TEAMS]
    out = np.int64(0)
    n_out = 0
    att = first_att
    dfn = _next_opponent(out, obs, att, n)
    any_discard = False
    shown_game = np.int64(0)
    bout = 0
    rec[F_FIRST_ATTACKER] = att
    rec[F_FOOL] = -1
    rec[F_LOSING_TEAM] = -1
    rec[F_EXCHANGE_SEAT] = -1
    rec[F_POGONY_SEAT] = -1
    for s in range(6):
        rec[F_OUTCOME + s] = -1
        rec[F_PLACE + s] = 0
        rec[F_TAKEN + s] = 0
    for s in range(n):
        rec[F_OUTCOME + s] = OUT_ESCAPED
    while True:
        if bout >= MAX_BOUTS:
            rec[F_UNFINISHED] = 1
            rec[F_BOUTS] = bout
            return
        obs[O_BOUT] = bout
        obs[O_FIRST_BOUT] = 1 if bout == 0 else 0
        obs[O_ATTACKER] = att
        obs[O_DEFENDER] = dfn
        obs[O_TAKING] = 0
        obs[O_NTABLE] = 0
        obs[O_TABLE_MASK] = 0
        obs[O_SHOW_LEGAL] = 0
        if not _offer_exchange(rv, obs, hands, talon, tpos, n, sids, params, srng, rec, trace, tn, tracing):
            return
        opener = att
        taking = False
        n_cov = 0
        lead_mask = np.int64(0)
        if mode == MODE_PROSTOY:
            # ---- simple durak: one set, one defence (RUL-11..13) ----
            cap = obs[O_HAND_SIZE + dfn]
            if cap > 6:
                cap = 6
            obs[O_LIMIT] = cap
            a = _ask(sids, params, srng, obs, hands, att, K_ATTACK, hands[att])
            if (a & ~hands[att]) != 0 or not valid_prostoy_set(a, rv[R_SETS_SINGLE_OR_PAIR] != 0,
                                                               rv[R_TWO_PAIR_SIZE], cap):
                _fail(rec, att, K_ATTACK, a)
                return
            lead_mask = a
            m = a
            k = 0
            while m:
                c = lowest(m)
                m &= m - 1
                _table_add(obs, k, c)
                k += 1
            _set_hand(hands, obs, att, hands[att] & ~a)
            obs[O_KNOWN + att] &= ~a
            if tracing:
                _emit(trace, tn, T_ATTACK, att, a, 0)
            if rv[R_ATT_DRAW_NOW]:
                _draw(hands, obs, talon, tpos, att, hand_size)
            partial = rv[R_PARTIAL] != 0
            covered = np.int64(0)
            used = np.int64(0)
            all_cov = True
            for i in range(k):
                ac = obs[O_TABLE_ATT + i]
                legal = cover_options(ac, hands[dfn], trump, six_ace, only_if)
                obs[O_COVER_TARGET] = i
                cv = _ask(sids, params, srng, obs, hands, dfn, K_COVER, legal)
                if cv == NO_CARD:
                    all_cov = False
                    if not partial:
                        break
                    continue
                if cv < 0 or cv >= 36 or not (legal >> cv) & 1:
                    _fail(rec, dfn, K_COVER, cv)
                    return
                obs[O_TABLE_COV + i] = cv
                obs[O_TABLE_MASK] |= np.int64(1) << cv
                _set_hand(hands, obs, dfn, hands[dfn] & ~(np.int64(1) << cv))
                covered |= np.int64(1) << ac
                used |= np.int64(1) << cv
            if not all_cov and not partial:
                # RUL-12 take-all: covers come back, the defender takes the attack
                _set_hand(hands, obs, dfn, hands[dfn] | used)
                covered = np.int64(0)
                used = np.int64(0)
            take = a & ~covered
            if tracing:
                for i in range(k):
                    if (covered >> obs[O_TABLE_ATT + i]) & 1:
                        _emit(trace, tn, T_DEFEND, dfn, obs[O_TABLE_ATT + i], obs[O_TABLE_COV + i])
                _emit(trace, tn, T_DEFEND, dfn, -1, take)
            obs[O_KNOWN + dfn] &= ~used
            if take:
                taking = True
                _set_hand(hands, obs, dfn, hands[dfn] | take)
                obs[O_KNOWN + dfn] |= take
                rec[F_TAKEN + dfn] += popcount(take)
            if covered:
                obs[O_DISCARD] |= covered | used
                any_discard = True
            if not rv[R_ATT_DRAW_NOW]:
                _draw(hands, obs, talon, tpos, att, hand_size)
            _draw(hands, obs, talon, tpos, dfn, hand_size)
        else:
            # ---- podkidnoy / perevodnoy (RUL-14..19) ----
            limit = rv[R_MAX_ATTACK]
            fb = rv[R_FIRST_BOUT_MAX]
            if fb > 0 and ((bout == 0) if rv[R_FIRST_BOUT_UNTIL_DISCARD] == 0 else not any_discard):
                if fb < limit:
                    limit = fb
            base_limit = limit
            dl = obs[O_HAND_SIZE + dfn]
            if dl < limit:
                limit = dl
            obs[O_LIMIT] = limit
            a = _ask(sids, params, srng, obs, hands, att, K_ATTACK, hands[att])
            k = popcount(a)
            if (a == 0 or (a & ~hands[att]) != 0 or k > limit
                    or popcount(same_rank_cards(a) & NIBBLE_LOW) != 1 or (rv[R_LEAD_SINGLE] and k != 1)):
                _fail(rec, att, K_ATTACK, a)
                return
            lead_mask = a
            m = a
            i = 0
            while m:
                c = lowest(m)
                m &= m - 1
                _table_add(obs, i, c)
                i += 1
            _set_hand(hands, obs, att, hands[att] & ~a)
            obs[O_KNOWN + att] &= ~a
            if tracing:
                _emit(trace, tn, T_ATTACK, att, a, 0)
            shown_bout = np.int64(0)
            showed_players = np.int64(0)
            passes[0] = 0
            if rv[R_THROW_TIMING] == TIMING_ANY_TIME:
                t = _throw_round(rv, obs, hands, n, out, att, dfn, limit, taking, n_cov, passes, sids, params,
                                 srng, rec, trace, tn, tracing, True)
                if t == -2:
                    return
            while True:
                # the defender answers every uncovered card: transfer, cover, or take
                while obs[O_NTABLE] > n_cov and not taking:
                    n_att = obs[O_NTABLE]
                    if mode == MODE_PEREVODNOY and n_cov == 0 and (bout > 0 or rv[R_TRANSFER_FIRST]):
                        tm = obs[O_TABLE_MASK]
                        rk = same_rank_cards(tm)
                        nd = _next_opponent(out, obs, dfn, n)
                        if popcount(rk & NIBBLE_LOW) == 1 and nd >= 0 and nd != dfn:
                            lay = hands[dfn] & rk if obs[O_HAND_SIZE + nd] >= n_att + 1 else np.int64(0)
                            show = np.int64(0)
                            if obs[O_HAND_SIZE + nd] >= n_att:
                                if rv[R_PROEZDNOY] and trump >= 0:
                                    tr = hands[dfn] & rk & (NIBBLE_LOW << trump)
                                    if rv[R_PROEZDNOY_PER_GAME]:
                                        tr &= ~shown_game
                                    elif (showed_players >> dfn) & 1:
                                        tr = np.int64(0)
                                    show |= tr
                                if rv[R_POKAZNOY]:
                                    show |= hands[dfn] & rk & ~shown_bout
                            if lay | show:
                                obs[O_SHOW_LEGAL] = show
                                tcard = _ask(sids, params, srng, obs, hands, dfn, K_TRANSFER, lay)
                                obs[O_SHOW_LEGAL] = 0
                                if tcard != NO_CARD:
                                    if tcard >= SHOW and tcard < SHOW + 36 and (show >> (tcard - SHOW)) & 1:
                                        c = tcard - SHOW
                                        shown_bout |= np.int64(1) << c
                                        shown_game |= np.int64(1) << c
                                        showed_players |= np.int64(1) << dfn
                                        obs[O_KNOWN + dfn] |= np.int64(1) << c
                                        if tracing:
                                            _emit(trace, tn, T_SHOW, dfn, c, nd)
                                    elif tcard >= 0 and tcard < 36 and (lay >> tcard) & 1:
                                        _play_out_card(hands, obs, dfn, tcard)
                                        _table_add(obs, n_att, tcard)
                                        if tracing:
                                            _emit(trace, tn, T_TRANSFER, dfn, tcard, nd)
                                    else:
                                        _fail(rec, dfn, K_TRANSFER, tcard)
                                        return
                                    rec[F_TRANSFERS] += 1
                                    att = dfn
                                    dfn = nd
                                    obs[O_ATTACKER] = att
                                    obs[O_DEFENDER] = dfn
                                    limit = base_limit
                                    if obs[O_HAND_SIZE + dfn] < limit:
                                        limit = obs[O_HAND_SIZE + dfn]
                                    obs[O_LIMIT] = limit
                                    passes[0] = 0
                                    continue
                    tgt = n_cov
                    ac = obs[O_TABLE_ATT + tgt]
                    legal = cover_options(ac, hands[dfn], trump, six_ace, only_if)
                    obs[O_COVER_TARGET] = tgt
                    cv = _ask(sids, params, srng, obs, hands, dfn, K_COVER, legal)
                    if cv == NO_CARD:
                        taking = True
                        obs[O_TAKING] = 1
                        if tracing:
                            _emit(trace, tn, T_TAKE, dfn, 0, 0)
                        break
                    if cv < 0 or cv >= 36 or not (legal >> cv) & 1:
                        _fail(rec, dfn, K_COVER, cv)
                        return
                    _play_out_card(hands, obs, dfn, cv)
                    obs[O_TABLE_COV + tgt] = cv
                    obs[O_TABLE_MASK] |= np.int64(1) << cv
                    n_cov += 1
                    if tracing:
                        _emit(trace, tn, T_COVER, dfn, ac, cv)
                if taking and not rv[R_THROW_AFTER_TAKE]:
                    break
                t = _throw_round(rv, obs, hands, n, out, att, dfn, limit, taking, n_cov, passes, sids, params,
                                 srng, rec, trace, tn, tracing, False)
                if t == -2:
                    return
                if t < 0:
                    break
            tm = obs[O_TABLE_MASK]
            if taking:
                _set_hand(hands, obs, dfn, hands[dfn] | tm)
                obs[O_KNOWN + dfn] |= tm
                rec[F_TAKEN + dfn] += popcount(tm)
            else:
                obs[O_DISCARD] |= tm
                any_discard = True
            # RUL-18: opener first, then clockwise, the defender last
            for i in range(n):
                s = (opener + i) % n
                if s != dfn and not (out >> s) & 1:
                    _draw(hands, obs, talon, tpos, s, hand_size)
            _draw(hands, obs, talon, tpos, dfn, hand_size)
        obs[O_NTABLE] = 0
        obs[O_TABLE_MASK] = 0
        bout += 1
        # ---- who is out, is the deal over (RUL-20/21) ----
        out_before = out
        if tpos[0] == tpos[1]:
            for s in range(n):
                if not (out >> s) & 1 and hands[s] == 0:
                    out |= np.int64(1) << s
                    rec[F_PLACE + s] = n_out + 1
            obs[O_OUT] = out
        newly = popcount(out & ~out_before)
        team_left = np.int64(0)
        for s in range(n):
            if not (out >> s) & 1:
                team_left |= np.int64(1) << obs[O_TEAM + s]
        n_left = popcount(team_left)
        pog = -1
        if rv[R_POGONY_WIN] and n - popcount(out) == 2:
            w = 0
            for s in range(n):
                if not (out >> s) & 1 and (hands[s] & RANK_MASKS[0]) == hands[s] and popcount(hands[s]) == 2:
                    pog = s
                    w += 1
            if w != 1:
                pog = -1
        if n_left <= 1 or pog >= 0:
            rec[F_BOUTS] = bout
            if rv[R_POGONY_SCORING]:
                rec[F_LAST_LEAD_SIXES] = popcount(lead_mask & RANK_MASKS[0])
            if pog >= 0:
                rec[F_POGONY_SEAT] = pog
                out |= np.int64(1) << pog
                rec[F_PLACE + pog] = n_out + 1
                n_left = 1
                team_left = np.int64(0)
                for s in range(n):
                    if not (out >> s) & 1:
                        team_left |= np.int64(1) << obs[O_TEAM + s]
            if n_left == 0:
                # RUL-21: whoever was still in at the final bout drew; in teams, the whole team
                rec[F_DRAW] = 1
                drew_teams = np.int64(0)
                for s in range(n):
                    if not (out_before >> s) & 1:
                        drew_teams |= np.int64(1) << obs[O_TEAM + s]
                for s in range(n):
                    if (drew_teams >> obs[O_TEAM + s]) & 1:
                        rec[F_OUTCOME + s] = OUT_DREW
            else:
                lt = lowest(team_left)
                rec[F_LOSING_TEAM] = lt
                for s in range(n):
                    if obs[O_TEAM + s] == lt:
                        rec[F_OUTCOME + s] = OUT_FOOL
                        if not (out >> s) & 1:
                            rec[F_PLACE + s] = n
                            rec[F_FOOL_CARDS] += popcount(hands[s])
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
                for i in range(1, n):
                    t = (dfn + i) % n
                    if not (out >> t) & 1 and obs[O_TEAM + t] == obs[O_TEAM + dfn]:
                        att = t
                        break
            if att < 0:
                att = _next_active(out, dfn, n)
        dfn = _next_opponent(out, obs, att, n)


@njit(cache=True, _nrt=False)
def deal_cards(rv, drng, obs, hands, talon, tpos, dealer, deck):
    """RUL-2: shuffle, deal one at a time from the dealer's left, turn the trump card."""
    n = rv[R_NPLAYERS]
    h = rv[R_HAND]
    for i in range(36):
        deck[i] = i
    # Fisher-Yates; each 64-bit draw gives two 32-bit multiply-shift indices
    i = 35
    while i > 0:
        r = rng_next(drng)
        j = np.int64(((r >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
        i -= 1
        if i > 0:
            j = np.int64(((r & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
            i -= 1
    for s in range(n):
        hands[s] = 0
    for s in range(n, 6):
        hands[s] = 0
    for i in range(n * h):
        s = (dealer + 1 + i % n) % n
        hands[s] |= np.int64(1) << deck[i]
    for s in range(6):
        obs[O_HAND_SIZE + s] = popcount(hands[s]) if s < n else 0
        obs[O_KNOWN + s] = 0
    dealt = n * h
    if dealt < 36:
        tc = deck[dealt]
        k = 0
        for i in range(dealt + 1, 36):
            talon[k] = deck[i]
            k += 1
        talon[k] = tc
        tpos[0] = 0
        tpos[1] = k + 1
        obs[O_TRUMP_IN_TALON] = 1
    else:
        tc = deck[35]  # RUL-2: shown for trump, stays in the dealer's hand
        tpos[0] = 0
        tpos[1] = 0
        obs[O_TRUMP_IN_TALON] = 0
        obs[O_KNOWN + dealer] = np.int64(1) << tc
    obs[O_TRUMP_CARD] = tc
    obs[O_TRUMP_SUIT] = tc & 3
    obs[O_TALON] = tpos[1] - tpos[0]


@njit(cache=True, _nrt=False)
def _first_attacker(rv, obs, hands, dealer, first_deal, prev_fool):
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
        trump = obs[O_TRUMP_SUIT]
        best = 99
        who = -1
        for s in range(n):
            t = hands[s] & (NIBBLE_LOW << trump)
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
                if hands[s]:
                    c = lowest(hands[s])
                    if c < best:
                        best = c
                        who = s
            return who
    return (dealer + 1) % n


@njit(cache=True, _nrt=False)
def play_series(rv, sids, params, seed, series, n_deals, recs, row0, deck_out, trace, tn, tracing, ws, rngs):
    """Play deals row0.. of one series: the same seats, the dealer and first attacker passed on (RUL-7/8).
    ws is a preallocated int64 workspace (see _workspace), rngs a uint64[2] pair of generators."""
    n = rv[R_NPLAYERS]
    obs = ws[0:O_RULES + R_SIZE]
    obs[:] = 0
    for i in range(R_SIZE):
        obs[O_RULES + i] = rv[i]
    obs[O_N] = n
    for s in range(6):
        obs[O_TEAM + s] = rv[R_TEAM0 + s] if s < n else -1
    hands = ws[WS_HANDS:WS_HANDS + 6]
    talon = ws[WS_TALON:WS_TALON + 36]
    tpos = ws[WS_TPOS:WS_TPOS + 2]
    deck = ws[WS_DECK:WS_DECK + 36]
    passes = ws[WS_PASSES:WS_PASSES + 1]
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
        obs[O_DEALER] = dealer
        obs[O_OUT] = 0
        obs[O_DISCARD] = 0
        deal_cards(rv, drng, obs, hands, talon, tpos, dealer, deck)
        if tracing:
            for i in range(36):
                deck_out[d, i] = deck[i]
        rec[F_SIX_HOLDER] = -1
        rec[F_ACE_HOLDER] = -1
        for s in range(n):
            if (hands[s] >> obs[O_TRUMP_SUIT]) & 1:
                rec[F_SIX_HOLDER] = s
            if (hands[s] >> (32 + obs[O_TRUMP_SUIT])) & 1:
                rec[F_ACE_HOLDER] = s
        fa = _first_attacker(rv, obs, hands, dealer, d == 0, prev_fool)
        if tracing:
            _emit(trace, tn, T_DEAL, dealer, fa, d)
        play_deal(rv, sids, params, srng, obs, hands, talon, tpos, dealer, fa, rec, trace, tn, tracing, passes)
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
