"""The end of a bout and of a deal: take or discard, the refill from the talon, players going out, the
fool and the scores, and the small steps every bout is built of (emit a traced action, ask the next
decision, open a bout).

Both the standard bout (``sim.core.kernels``) and the chain bout (``sim.core.chain``) close with these
kernels, so they sit below both. Two packs (VAR-BD1) use the ``*2`` twins: see ``sim.core.kernels``.
"""
import numpy as np
from numba import njit

from sim.core.layout import (
    F_BOUTS, F_DRAW, F_FOOL, F_FOOL_CARDS, F_INVARIANT, F_LAST_LEAD_SIXES, F_LOSING_TEAM, F_OUTCOME,
    F_PLACE, F_POGON_TOP, F_POGONY, F_POGONY_SEAT, F_POINTS, F_SCORE_TIE, F_SCORE_WIN, F_TAKEN,
    F_UNFINISHED, K_EXCHANGE, K_NONE, MAX_BOUTS, O_ACTOR, O_ATTACKER, O_BOUT, O_COVER_TARGET, O_DEFENDER,
    O_DISCARD, O_FIRST_BOUT, O_HAND_SIZE, O_KIND, O_KNOWN, O_NTABLE, O_OUT, O_POGON_TOP, O_QUIET,
    O_POGONY, O_POINTS, O_RULES, O_TABLE_BY, O_SHOW_LEGAL, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK,
    O_TAKING, O_TALON, O_TEAM, O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TRUMP_SUIT, OUT_DREW, OUT_FOOL, PH_BOUT,
    PH_EXCHANGE, PH_LEAD, PH_OVER, S_ANY_DISCARD, S_DECLINED, S_HANDS, S_LEAD_MASK, S_LEGAL, S_N_OUT,
    S_NCOV, S_OPENER, S_PHASE, S_SHOWED, S_SHOWN_BOUT, S_TALON, S_TALON_MASK, S_TEND, S_TP, O_DISCARDS,
    O_REMOVED, S_OT_RNG, S_REMOVED, T_RESHUFFLE)
from sim.core.layout import O_TRUMP_UNDER
from sim.core.layout import O_DISCARD2, O_KNOWN2, S_HANDS2, S_TALON_MASK2
from sim.core.lib import FULL, RANK_MASKS, lowest, mix64, popcount
from sim.core.lib import multi_add, multi_remove
from sim.core.rules import (
    R_EXCHANGE, R_EXCHANGE_WHILE_TRUMP, R_HAND, R_N_TEAMS, R_NPLAYERS, R_POGONY_SCORING, R_POGONY_WIN,
    R_SCORING_RULE, SCORE_POGONNY, R_OTBOYNY, R_PUSTOY, R_PUSTOY_REFILL)
from sim.core.rules import R_BIG_LOSS_AT, R_TWO_PACKS

ONE = np.int64(1)


@njit(cache=True, _nrt=False, inline="always")
def emit(trace, tn, code, player, a, b):
    i = tn[0]
    if i < trace.shape[0]:
        trace[i, 0] = code
        trace[i, 1] = player
        trace[i, 2] = a
        trace[i, 3] = b
    tn[0] = i + 1


@njit(cache=True, _nrt=False)
def _set_hand(ws, s, m):
    ws[S_HANDS + s] = m
    ws[O_HAND_SIZE + s] = popcount(m)


@njit(cache=True, _nrt=False)
def _play_out(ws, s, c):
    _set_hand(ws, s, ws[S_HANDS + s] & ~(ONE << c))
    ws[O_KNOWN + s] &= ~(ONE << c)


@njit(cache=True, _nrt=False, inline="always")
def _draw(ws, s, hand_size):
    """Refill seat s to hand_size from the talon (the face-up trump card comes last)."""
    h, k, tp, tm = draw_to(ws, ws[S_HANDS + s], ws[O_KNOWN + s], ws[S_TP], ws[S_TALON_MASK], hand_size)
    ws[S_HANDS + s] = h
    ws[O_HAND_SIZE + s] = popcount(h)
    ws[O_KNOWN + s] = k
    ws[S_TP] = tp
    ws[S_TALON_MASK] = tm
    ws[O_TALON] = ws[S_TEND] - tp


@njit(cache=True, _nrt=False, inline="always")
def draw_to(ws, h, known, tp, tm, hand_size):
    """The draw itself on a hand `h` and the cards its player is known to hold, the talon's top `tp` and its mask
    `tm`, given and returned as values (the greedy loop keeps them in registers): cards from the top until
    hand_size; whoever takes the face-up trump card is seen taking it (with VAR-SM1, the card under it turns)."""
    tend = ws[S_TEND]
    k = popcount(h)
    while k < hand_size and tp < tend:
        c = ws[S_TALON + tp]
        tp += 1
        h |= ONE << c
        tm &= ~(ONE << c)
        k += 1
        if tp >= tend - 1 and ws[O_TRUMP_IN_TALON] != 0:
            if tp == tend:  # the face-up card: everybody saw who took it
                ws[O_TRUMP_IN_TALON] = 0
                known |= ONE << c
            elif ws[O_TRUMP_UNDER] != 0:  # VAR-SM1 (RUL-35): the face-up trump is taken; the card under it turns
                known |= ONE << c
                nc = ws[S_TALON + tend - 1]
                ws[O_TRUMP_UNDER] = 0
                ws[O_TRUMP_CARD] = nc
                ws[O_TRUMP_SUIT] = nc & 3
    return h, known, tp, tm


@njit(cache=True, _nrt=False, inline="always")
def _refill(rv, ws, s):
    """Refill seat s after a bout (RUL-13/18); VAR-PU1 pustoy: only an empty hand draws, to pustoy_refill_to."""
    if rv[R_PUSTOY] != 0:
        if ws[S_HANDS + s] == 0:
            _draw(ws, s, rv[R_PUSTOY_REFILL])
    else:
        _draw(ws, s, rv[R_HAND])


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
def next_opponent(ws, out, s, n):
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
def _team_left(ws, out, n):
    """Teams (players, without teams) with an active member, as a bitmask of their ids."""
    m = np.int64(0)
    for s in range(n):
        if not (out >> s) & 1:
            m |= ONE << ws[O_TEAM + s]
    return m


@njit(cache=True, _nrt=False, inline="always")
def _ask(ws, seat, kind, legal):
    ws[O_ACTOR] = seat
    ws[O_KIND] = kind
    ws[S_LEGAL] = legal


@njit(cache=True, _nrt=False)
def _over(ws):
    ws[S_PHASE] = PH_OVER
    ws[O_KIND] = K_NONE
    ws[O_ACTOR] = -1
    ws[S_LEGAL] = 0


@njit(cache=True, _nrt=False)
def conserved(ws, n):
    """Every card in exactly one place (hands, talon, discard, table); hand sizes match the hands."""
    if ws[O_RULES + R_TWO_PACKS] != 0:
        return conserved2(ws, n)
    hands = np.int64(0)
    count = 0
    for s in range(n):
        h = ws[S_HANDS + s]
        if popcount(h) != ws[O_HAND_SIZE + s]:
            return False
        hands |= h
        count += popcount(h)
    return cards_conserved(ws, hands, count, ws[S_TALON_MASK], ws[O_DISCARD] | ws[O_TABLE_MASK],
                           popcount(ws[O_DISCARD]) + popcount(ws[O_TABLE_MASK]), ws[S_TEND] - ws[S_TP])


@njit(cache=True, _nrt=False, inline="always")
def cards_conserved(ws, hands, in_hands, talon, played, n_played, talon_left):
    """One pack's conservation test on masks: the hands (their union and how many cards they hold), the talon
    (`talon_left` cards by its pointers), and the cards played (discard and table, `n_played` of them) with the
    cards put out of play cover the pack exactly once."""
    every = hands | talon | played | ws[S_REMOVED]
    count = in_hands + popcount(talon) + n_played + popcount(ws[S_REMOVED])
    return (every == FULL and count == 36 and popcount(talon) == talon_left
            and popcount(ws[S_REMOVED]) == ws[O_REMOVED])


@njit(cache=True, _nrt=False)
def _open_bout(rv, ws, rec):
    """Clear the table and offer the trump-six exchange (RUL-9). True when a decision is pending."""
    bout = ws[O_BOUT]
    if bout >= MAX_BOUTS:  # RUL-22
        rec[F_UNFINISHED] = 1
        rec[F_BOUTS] = bout
        _over(ws)
        return True
    ws[O_FIRST_BOUT] = 1 if bout == 0 else 0
    ws[O_TAKING] = 0
    ws[O_NTABLE] = 0
    ws[O_TABLE_MASK] = 0
    ws[O_SHOW_LEGAL] = 0
    ws[O_COVER_TARGET] = 0
    for i in range(12):
        ws[O_TABLE_ATT + i] = -1
        ws[O_TABLE_COV + i] = -1
        ws[O_TABLE_BY + i] = -1
    ws[S_OPENER] = ws[O_ATTACKER]
    ws[S_NCOV] = 0
    ws[S_SHOWN_BOUT] = 0
    ws[S_SHOWED] = 0
    ws[S_DECLINED] = 0
    ws[S_LEAD_MASK] = 0
    ws[S_PHASE] = PH_LEAD
    tp = ws[S_TP]
    tend = ws[S_TEND]
    if rv[R_EXCHANGE] != 0 and tp < tend and ws[O_TRUMP_IN_TALON] != 0 and ws[O_TRUMP_SUIT] >= 0:
        under = ws[O_TRUMP_UNDER]  # VAR-SM1: the face-up card lies above the hidden one (RUL-35)
        if tend - under - tp >= (1 if rv[R_EXCHANGE_WHILE_TRUMP] else 2):
            six = ws[O_TRUMP_SUIT]  # rank 0 of the trump suit
            if ws[S_TALON + tend - 1 - under] != six:
                for h in range(rv[R_NPLAYERS]):
                    if (ws[S_HANDS + h] >> six) & 1:
                        ws[S_PHASE] = PH_EXCHANGE
                        _ask(ws, h, K_EXCHANGE, ONE)
                        return True
    return False


@njit(cache=True, _nrt=False)
def _credit_pogon(ws, taker, maker, r):
    """RUL-61: one pogon of rank r made by `maker` on `taker`; it counts only against an opponent."""
    if maker >= 0 and maker != taker and ws[O_TEAM + maker] != ws[O_TEAM + taker]:
        ws[O_POGONY + maker] += 1
        if r > ws[O_POGON_TOP + maker]:
            ws[O_POGON_TOP + maker] = r


@njit(cache=True, _nrt=False)
def _pogony_of_take(ws, dfn):
    """RUL-61: every rank of which the taker picks up exactly two attack cards is a pogon, made by the
    player who laid the second of the two (the later table slot)."""
    k = ws[O_NTABLE]
    am = np.int64(0)
    for i in range(k):
        am |= ONE << ws[O_TABLE_ATT + i]
    for r in range(9):
        if popcount(am & RANK_MASKS[r]) == 2:
            i = k - 1
            while (ws[O_TABLE_ATT + i] >> 2) != r:
                i -= 1
            _credit_pogon(ws, dfn, ws[O_TABLE_BY + i], r)


@njit(cache=True, _nrt=False)
def _score_result(rv, ws, rec, n):
    """RUL-62: the scores into the record, and who won the score: the side (the player, or the team
    summed) with the most cards beaten (ochkovy) or the most pogony, then the highest pogon (pogonny);
    sides still level share the win; nobody wins a score of nothing."""
    pog = rv[R_SCORING_RULE] == SCORE_POGONNY
    best = np.int64(0)
    for s in range(n):
        rec[F_POINTS + s] = ws[O_POINTS + s]
        rec[F_POGONY + s] = ws[O_POGONY + s]
        rec[F_POGON_TOP + s] = ws[O_POGON_TOP + s]
    win = np.int64(0)
    for s in range(n):
        total = np.int64(0)
        top = np.int64(-1)
        for t in range(n):
            if ws[O_TEAM + t] == ws[O_TEAM + s]:
                if pog:
                    total += ws[O_POGONY + t]
                    if ws[O_POGON_TOP + t] > top:
                        top = ws[O_POGON_TOP + t]
                else:
                    total += ws[O_POINTS + t]
        key = total * 16 + top + 1 if pog else total
        if total > 0 and key > best:
            best = key
            win = np.int64(0)
        if total > 0 and key == best:
            win |= ONE << s
    rec[F_SCORE_WIN] = win
    sides = 0
    for s in range(n):
        if (win >> s) & 1:
            first = True
            for t in range(s):
                if ws[O_TEAM + t] == ws[O_TEAM + s]:
                    first = False
            if first:
                sides += 1
    rec[F_SCORE_TIE] = 1 if sides > 1 else 0


@njit(cache=True, _nrt=False)
def _end_throw_bout(rv, ws, rec, trace, tn, tracing, two):
    """RUL-17/18: the table is taken or discarded; everyone refills, the defender last. `two` (a constant
    at every call): two packs (VAR-BD1), where the table's cards move one copy at a time from their slots
    and a taker who reaches big_durak_loss_at cards loses at once, before anybody draws (RUL-82)."""
    n = rv[R_NPLAYERS]
    dfn = ws[O_DEFENDER]
    tm = ws[O_TABLE_MASK]
    taking = ws[O_TAKING] != 0
    tp0 = ws[S_TP]
    if two:
        _table_away2(ws, dfn, rec, taking)
    elif taking:
        if rv[R_SCORING_RULE] != 0:
            _pogony_of_take(ws, dfn)
        _set_hand(ws, dfn, ws[S_HANDS + dfn] | tm)
        ws[O_KNOWN + dfn] |= tm
        rec[F_TAKEN + dfn] += popcount(tm)
    else:
        _to_discard(rv, ws, tm, trace, tn, tracing)
    ws[O_TABLE_MASK] = 0
    if two and taking and rv[R_BIG_LOSS_AT] > 0 and ws[O_HAND_SIZE + dfn] >= rv[R_BIG_LOSS_AT]:
        _big_loss(rv, ws, rec, dfn)
        return
    if ws[S_TP] < ws[S_TEND]:
        out = ws[O_OUT]
        s = ws[S_OPENER]
        for _ in range(n):
            if s != dfn and not (out >> s) & 1:
                if two:
                    _draw2(ws, s, rv[R_HAND])
                else:
                    _refill(rv, ws, s)
            s += 1
            if s == n:
                s = 0
        if two:
            _draw2(ws, dfn, rv[R_HAND])
        else:
            _refill(rv, ws, dfn)
    ws[O_QUIET] = 0 if not taking or ws[S_TP] != tp0 else ws[O_QUIET] + 1
    _end_bout(rv, ws, rec, taking)


@njit(cache=True, _nrt=False)
def _ot_below(ws, n):
    """otboyny's own random stream (S_OT_RNG, seeded at the deal): a uniform integer in [0, n)."""
    st = np.uint64(ws[S_OT_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ws[S_OT_RNG] = np.int64(st)
    return np.int64(((mix64(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, _nrt=False, inline="always")
def talon_from(ws, lo, hi, cards):
    """Talon cards lo..hi-1 moved to the front, then the cards of the mask `cards` lowest first; returns how
    many the talon then holds (the caller puts the trump card back after them)."""
    k = 0
    for i in range(lo, hi):
        ws[S_TALON + k] = ws[S_TALON + i]
        k += 1
    m = cards
    while m:
        ws[S_TALON + k] = lowest(m)
        m &= m - 1
        k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def _close_bout(rv, ws, rec):
    """The table is cleared and the bout counted (the conservation check at every bout's end); the bout."""
    ws[O_NTABLE] = 0
    bout = ws[O_BOUT] + 1
    ws[O_BOUT] = bout
    if not conserved(ws, rv[R_NPLAYERS]):
        rec[F_INVARIANT] += 1
    return bout


@njit(cache=True, _nrt=False, inline="always")
def _to_discard(rv, ws, cards, trace, tn, tracing):
    """The beaten cards of a bout go to the discard. VAR-OT1 otboyny (RUL-54): every second bout that
    discards sends them into the talon instead, shuffled with its face-down cards, the trump card still
    last; with no talon left they are discarded as usual."""
    ws[S_ANY_DISCARD] = 1
    if rv[R_OTBOYNY] != 0:
        ws[O_DISCARDS] += 1
        tp = ws[S_TP]
        tend = ws[S_TEND]
        if ws[O_DISCARDS] % 2 == 0 and tp < tend:
            tc = ws[S_TALON + tend - 1]
            k = talon_from(ws, tp, tend - 1, cards)
            i = k - 1
            while i > 0:  # Fisher-Yates over the face-down part
                j = _ot_below(ws, i + 1)
                x = ws[S_TALON + i]
                ws[S_TALON + i] = ws[S_TALON + j]
                ws[S_TALON + j] = x
                i -= 1
            ws[S_TALON + k] = tc
            ws[S_TP] = 0
            ws[S_TEND] = k + 1
            ws[S_TALON_MASK] |= cards
            ws[O_TALON] = k + 1
            if tracing:
                for i in range(k + 1):
                    emit(trace, tn, T_RESHUFFLE, -1, ws[S_TALON + i], i)
            return
    ws[O_DISCARD] |= cards


@njit(cache=True, _nrt=False)
def _end_bout(rv, ws, rec, taking):
    """RUL-20/21: who is out, is the deal over; else the next attacker and defender (RUL-5/6)."""
    n = rv[R_NPLAYERS]
    bout = _close_bout(rv, ws, rec)
    out = ws[O_OUT]
    out_before = out
    n_out = ws[S_N_OUT]
    # nobody goes out while the talon has cards (everyone has just drawn)
    if ws[S_TP] == ws[S_TEND]:
        for s in range(n):
            if not (out >> s) & 1 and ws[S_HANDS + s] == 0:
                out |= ONE << s
                rec[F_PLACE + s] = n_out + 1
        ws[O_OUT] = out
    n_left = popcount(_team_left(ws, out, n))
    pog = -1
    if rv[R_POGONY_WIN] != 0 and n - popcount(out) == 2 and n_left == 2:  # HR-2: two opponents left
        w = 0
        for s in range(n):
            hs = ws[S_HANDS + s]
            if not (out >> s) & 1 and (hs & RANK_MASKS[0]) == hs and popcount(hs) == 2:
                pog = s
                w += 1
        if w != 1:
            pog = -1
    if n_left <= 1 or pog >= 0:
        rec[F_BOUTS] = bout
        if rv[R_SCORING_RULE] != 0:
            _score_result(rv, ws, rec, n)
        if rv[R_POGONY_SCORING] != 0:
            rec[F_LAST_LEAD_SIXES] = popcount(ws[S_LEAD_MASK] & RANK_MASKS[0])
        team_left = _team_left(ws, out, n)
        if pog >= 0:
            rec[F_POGONY_SEAT] = pog
            out |= ONE << pog
            rec[F_PLACE + pog] = n_out + 1
            n_left = 1
            team_left = _team_left(ws, out, n)
        if n_left == 0:
            # RUL-21: whoever was still in at the final bout drew; in teams, the whole team
            rec[F_DRAW] = 1
            drew_teams = np.int64(0)
            for s in range(n):
                if not (out_before >> s) & 1:
                    drew_teams |= ONE << ws[O_TEAM + s]
            for s in range(n):
                if (drew_teams >> ws[O_TEAM + s]) & 1:
                    rec[F_OUTCOME + s] = OUT_DREW
        else:
            _mark_fools(ws, rec, lowest(team_left), out, n)
        _over(ws)
        return
    ws[S_N_OUT] = popcount(out)
    dfn = ws[O_DEFENDER]
    if taking:
        att = _next_active(out, dfn, n)
        if att == dfn:
            att = -1
    elif not (out >> dfn) & 1:
        att = dfn
    else:
        att = -1
        if rv[R_N_TEAMS] < n:
            t = dfn
            for _ in range(n - 1):
                t += 1
                if t == n:
                    t = 0
                if not (out >> t) & 1 and ws[O_TEAM + t] == ws[O_TEAM + dfn]:
                    att = t
                    break
        if att < 0:
            att = _next_active(out, dfn, n)
    ws[O_ATTACKER] = att
    ws[O_DEFENDER] = next_opponent(ws, out, att, n)
    ws[S_PHASE] = PH_BOUT


@njit(cache=True, _nrt=False)
def _set_hand2(ws, s, m1, m2):
    ws[S_HANDS + s] = m1
    ws[S_HANDS2 + s] = m2
    ws[O_HAND_SIZE + s] = popcount(m1) + popcount(m2)


@njit(cache=True, _nrt=False)
def _gain2(ws, s, c, known):
    """One copy of c joins seat s's hand (seen by everybody when `known`)."""
    m1, m2 = multi_add(ws[S_HANDS + s], ws[S_HANDS2 + s], c)
    _set_hand2(ws, s, m1, m2)
    if known:
        k1, k2 = multi_add(ws[O_KNOWN + s], ws[O_KNOWN2 + s], c)
        ws[O_KNOWN + s] = k1
        ws[O_KNOWN2 + s] = k2


@njit(cache=True, _nrt=False)
def _draw2(ws, s, hand_size):
    """_draw with twins: refill seat s to hand_size from the talon (the face-up trump card comes last)."""
    tp = ws[S_TP]
    tend = ws[S_TEND]
    t1 = ws[S_TALON_MASK]
    t2 = ws[S_TALON_MASK2]
    while ws[O_HAND_SIZE + s] < hand_size and tp < tend:
        c = ws[S_TALON + tp]
        tp += 1
        t1, t2 = multi_remove(t1, t2, c)
        seen = tp == tend and ws[O_TRUMP_IN_TALON] != 0  # the face-up card: everybody saw who took it
        if seen:
            ws[O_TRUMP_IN_TALON] = 0
        _gain2(ws, s, c, seen)
    ws[S_TP] = tp
    ws[S_TALON_MASK] = t1
    ws[S_TALON_MASK2] = t2
    ws[O_TALON] = tend - tp


@njit(cache=True, _nrt=False)
def _table_away2(ws, dfn, rec, taking):
    """The table's cards with twins, one by one from their slots: to the taker's hand (seen by all) or
    to the discard."""
    d1 = ws[O_DISCARD]
    d2 = ws[O_DISCARD2]
    got = 0
    for i in range(ws[O_NTABLE]):
        for side in range(2):
            c = ws[O_TABLE_ATT + i] if side == 0 else ws[O_TABLE_COV + i]
            if c < 0:
                continue
            if taking:
                _gain2(ws, dfn, c, True)
                got += 1
            else:
                d1, d2 = multi_add(d1, d2, c)
    if taking:
        rec[F_TAKEN + dfn] += got
    else:
        ws[S_ANY_DISCARD] = 1
        ws[O_DISCARD] = d1
        ws[O_DISCARD2] = d2


@njit(cache=True, _nrt=False)
def _mark_fools(ws, rec, lt, out, n):
    """Team lt lost: each of its seats is a fool; those still in take the last place, and the first of them
    clockwise from seat 0 is the record's fool, the cards they hold its fool's cards."""
    rec[F_LOSING_TEAM] = lt
    for s in range(n):
        if ws[O_TEAM + s] == lt:
            rec[F_OUTCOME + s] = OUT_FOOL
            if not (out >> s) & 1:
                rec[F_PLACE + s] = n
                rec[F_FOOL_CARDS] += popcount(ws[S_HANDS + s]) + popcount(ws[S_HANDS2 + s])
                if rec[F_FOOL] < 0:
                    rec[F_FOOL] = s


@njit(cache=True, _nrt=False)
def _big_loss(rv, ws, rec, s):
    """RUL-82: seat s holds big_durak_loss_at cards or more after taking: the deal ends at once, his side
    loses (he is its fool); everybody else still in escapes, sharing the next place; nobody draws."""
    n = rv[R_NPLAYERS]
    bout = _close_bout(rv, ws, rec)
    rec[F_BOUTS] = bout
    out = ws[O_OUT]
    n_out = ws[S_N_OUT]
    lt = ws[O_TEAM + s]
    _mark_fools(ws, rec, lt, out, n)
    for t in range(n):
        if ws[O_TEAM + t] != lt and not (out >> t) & 1:
            rec[F_PLACE + t] = n_out + 1
    _over(ws)


@njit(cache=True, _nrt=False)
def _count_in(c0, c1, ov, m):
    """A two-bit counter per card (c0 low bit, c1 high bit, ov: a count above 3) plus the cards of m."""
    carry = c0 & m
    c0 ^= m
    ov |= c1 & carry
    c1 ^= carry
    return c0, c1, ov


@njit(cache=True, _nrt=False)
def _count_table(c0, c1, ov, a):
    """_count_in for every card on the table, attacks and covers (a: the workspace or an observation, which
    share the table's indices)."""
    for i in range(a[O_NTABLE]):
        for side in range(2):
            c = a[O_TABLE_ATT + i] if side == 0 else a[O_TABLE_COV + i]
            if c >= 0:
                c0, c1, ov = _count_in(c0, c1, ov, ONE << c)
    return c0, c1, ov


@njit(cache=True, _nrt=False)
def conserved2(ws, n):
    """conserved with two packs: every card exactly twice over hands, talon, discard and table; every twin
    mask inside its mask; hand sizes and the talon masks match."""
    c0 = np.int64(0)
    c1 = np.int64(0)
    ov = np.int64(0)
    for s in range(n):
        h1 = ws[S_HANDS + s]
        h2 = ws[S_HANDS2 + s]
        if (h2 & ~h1) != 0 or popcount(h1) + popcount(h2) != ws[O_HAND_SIZE + s]:
            return False
        if (ws[O_KNOWN2 + s] & ~ws[O_KNOWN + s]) != 0 or (ws[O_KNOWN + s] & ~h1) != 0 \
                or (ws[O_KNOWN2 + s] & ~h2) != 0:
            return False
        c0, c1, ov = _count_in(c0, c1, ov, h1)
        c0, c1, ov = _count_in(c0, c1, ov, h2)
    if (ws[O_DISCARD2] & ~ws[O_DISCARD]) != 0:
        return False
    c0, c1, ov = _count_in(c0, c1, ov, ws[O_DISCARD])
    c0, c1, ov = _count_in(c0, c1, ov, ws[O_DISCARD2])
    t1 = np.int64(0)
    t2 = np.int64(0)
    for i in range(ws[S_TP], ws[S_TEND]):
        c = ws[S_TALON + i]
        if (t2 >> c) & 1:
            return False
        t1, t2 = multi_add(t1, t2, c)
    if t1 != ws[S_TALON_MASK] or t2 != ws[S_TALON_MASK2]:
        return False
    c0, c1, ov = _count_in(c0, c1, ov, t1)
    c0, c1, ov = _count_in(c0, c1, ov, t2)
    c0, c1, ov = _count_table(c0, c1, ov, ws)
    return ov == 0 and c0 == 0 and c1 == FULL
