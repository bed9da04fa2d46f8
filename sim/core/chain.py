"""Chain beating (VAR-DR1 Дорожный and VAR-CN1 Китайский): a compiled bout of its own.

In a chain bout every player beats only the TOP card of a chain of single cards. It runs over the same
state array and the same decisions as the core (``sim.core.kernels``), so every strategy plays it
unchanged:

- ``K_ATTACK``: the leader lays one card (``O_LIMIT`` is 1).
- ``K_COVER``: beat the top card (``O_CHAIN_TOP``) with a card of the legal mask, or ``NO_CARD``:
  Дорожный (``bout_rule=chain_road``): the defender takes every card of the chain; the attacker agrees to
  the discard (traced as a pass). Китайский (``chain_chinese``): take the bottom card of the chain.

The chain lies on the table in pairs, bottom first: chain card i is ``O_TABLE_ATT + i // 2`` (i even) or
``O_TABLE_COV + i // 2`` (i odd); ``O_CHAIN_LEN`` cards, the top one ``O_CHAIN_TOP`` laid by ``O_CHAIN_BY``.
``O_ATTACKER`` is the chain's leader; ``O_DEFENDER`` the player the chain is at (Дорожный: the player led at,
for the whole bout). The end of a chain is the podkidnoy bout end (``_end_throw_bout``: take or discard,
refill from the leader clockwise with ``O_DEFENDER`` last, going out, the result, the next roles).

The procedure follows ``sim/RULINGS.md`` RUL-70..RUL-79.
"""
from numba import njit

from sim.core.bout import ONE, _ask, _end_throw_bout, _next_active, _open_bout, _play_out, _set_hand, emit
from sim.core.layout import (
    F_TAKEN, K_ATTACK, NO_CARD, K_COVER, O_ACTOR, O_ATTACKER, O_CHAIN_BY, O_CHAIN_LEN, O_CHAIN_TOP,
    O_COVER_TARGET, O_DEFENDER, O_KIND, O_KNOWN, O_LIMIT, O_N, O_NTABLE, O_OUT, O_TABLE_ATT, O_TABLE_COV,
    O_TABLE_MASK,
    O_TAKING, O_TRUMP_SUIT, PH_BOUT, PH_CHAIN, PH_CHAIN_ANSWER, PH_CHAIN_END, PH_LEAD,
    S_CHAIN_ANSWER, S_HANDS, S_LEAD_MASK, S_PHASE, T_ATTACK,
    T_COVER, T_PASS, T_TAKE,
)
from sim.core.lib import chain_cover_options, lowest, popcount
from sim.core.rules import (
    BOUT_ROAD, R_BOUT_RULE, R_CHINESE_TAKER_LEADS, R_CLUBS_ONLY, R_SIX_BEATS_ACE, R_TEN_ABOVE_KING,
    R_TRUMP_ONLY_IF_CANNOT_FOLLOW,
)


@njit(cache=True, _nrt=False)
def _put(ws, i, c):
    if i & 1:
        ws[O_TABLE_COV + (i >> 1)] = c
    else:
        ws[O_TABLE_ATT + (i >> 1)] = c


@njit(cache=True, _nrt=False)
def _get(ws, i):
    return ws[O_TABLE_COV + (i >> 1)] if i & 1 else ws[O_TABLE_ATT + (i >> 1)]


@njit(cache=True, _nrt=False)
def _push(ws, c, seat):
    k = ws[O_CHAIN_LEN]
    _put(ws, k, c)
    ws[O_TABLE_MASK] |= ONE << c
    ws[O_CHAIN_LEN] = k + 1
    ws[O_NTABLE] = (k + 2) >> 1
    ws[O_CHAIN_TOP] = c
    ws[O_CHAIN_BY] = seat


@njit(cache=True, _nrt=False)
def _take_bottom(ws, seat):
    """RUL-78 (Китайский): the player who does not beat takes the bottom card of the chain."""
    c = _get(ws, 0)
    k = ws[O_CHAIN_LEN]
    for i in range(k - 1):
        _put(ws, i, _get(ws, i + 1))
    _put(ws, k - 1, -1)
    k -= 1
    ws[O_CHAIN_LEN] = k
    ws[O_NTABLE] = (k + 1) >> 1
    ws[O_TABLE_MASK] &= ~(ONE << c)
    _set_hand(ws, seat, ws[S_HANDS + seat] | (ONE << c))
    ws[O_KNOWN + seat] |= ONE << c
    if k == 0:
        ws[O_CHAIN_TOP] = -1
        ws[O_CHAIN_BY] = -1


@njit(cache=True, _nrt=False)
def _ask_lead(ws):
    """RUL-72 / RUL-76: the leader lays one card."""
    ws[O_LIMIT] = 1
    att = ws[O_ATTACKER]
    _ask(ws, att, K_ATTACK, ws[S_HANDS + att])


@njit(cache=True, _nrt=False)
def _ask_beat(rv, ws):
    """The player the chain is at (``O_ACTOR``) beats the top card or does not (RUL-77)."""
    p = ws[O_ACTOR]
    ws[O_COVER_TARGET] = (ws[O_CHAIN_LEN] - 1) >> 1
    _ask(ws, p, K_COVER, chain_cover_options(ws[O_CHAIN_TOP], ws[S_HANDS + p], ws[O_TRUMP_SUIT],
                                             rv[R_SIX_BEATS_ACE] != 0, rv[R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0,
                                             rv[R_TEN_ABOVE_KING] != 0, rv[R_CLUBS_ONLY] != 0))


@njit(cache=True, _nrt=False)
def chain_advance(rv, ws, rec, trace, tn, tracing):
    """``kernels.advance`` for a chain bout: the answer ``kernels.apply`` left (PH_CHAIN_ANSWER), then every
    automatic step up to the next decision."""
    while True:
        ph = ws[S_PHASE]
        if ph == PH_CHAIN_ANSWER:
            chain_apply(rv, ws, rec, ws[O_ACTOR], ws[O_KIND], ws[S_CHAIN_ANSWER], trace, tn, tracing)
            continue
        if ph == PH_BOUT:
            ws[O_CHAIN_LEN] = 0
            ws[O_CHAIN_TOP] = -1
            ws[O_CHAIN_BY] = -1
            if _open_bout(rv, ws, rec):
                return
            ph = PH_LEAD
        if ph == PH_LEAD:
            _ask_lead(ws)
            return
        if ph == PH_CHAIN:
            _ask_beat(rv, ws)
            return
        if ph == PH_CHAIN_END:
            _end_throw_bout(rv, ws, rec, trace, tn, tracing, False)
            continue
        return


@njit(cache=True, _nrt=False)
def _end(ws, dfn, taking):
    ws[O_DEFENDER] = dfn
    ws[O_TAKING] = 1 if taking else 0
    ws[S_PHASE] = PH_CHAIN_END


@njit(cache=True, _nrt=False)
def _at(ws, p):
    ws[O_ACTOR] = p
    ws[S_PHASE] = PH_CHAIN


@njit(cache=True, _nrt=False)
def chain_apply(rv, ws, rec, seat, kind, a, trace, tn, tracing):
    """Play a legal answer of a chain bout (``kernels.apply`` has checked it; ``chain_advance`` goes on)."""
    road = rv[R_BOUT_RULE] == BOUT_ROAD
    n = ws[O_N]
    if kind == K_ATTACK:
        c = lowest(a)
        _play_out(ws, seat, c)
        _push(ws, c, seat)
        ws[S_LEAD_MASK] = a
        if tracing:
            emit(trace, tn, T_ATTACK, seat, a, 0)
        _at(ws, ws[O_DEFENDER])
        return
    if a != NO_CARD:
        top = ws[O_CHAIN_TOP]
        _play_out(ws, seat, a)
        _push(ws, a, seat)
        if tracing:
            emit(trace, tn, T_COVER, seat, top, a)
        if road:  # RUL-72: the attacker and the defender beat in turn
            _at(ws, ws[O_ATTACKER] if seat == ws[O_DEFENDER] else ws[O_DEFENDER])
        elif ws[O_CHAIN_LEN] >= n - popcount(ws[O_OUT]):  # RUL-76: one card per player in: the discard
            _end(ws, seat, False)
        else:
            nxt = _next_active(ws[O_OUT], seat, n)
            ws[O_DEFENDER] = nxt
            _at(ws, nxt)
        return
    if road:
        if seat == ws[O_DEFENDER]:  # RUL-73: he takes every card on the table and loses his turn
            if tracing:
                emit(trace, tn, T_TAKE, seat, 0, 0)
            _end(ws, seat, True)
        else:  # RUL-72: the attacker agrees to the discard; the defender leads next
            if tracing:
                emit(trace, tn, T_PASS, seat, 0, 0)
            _end(ws, ws[O_DEFENDER], False)
        return
    if tracing:
        emit(trace, tn, T_TAKE, seat, 0, 0)
    _take_bottom(ws, seat)
    rec[F_TAKEN + seat] += 1
    if ws[O_CHAIN_LEN] == 0:  # RUL-78: he took the last card: the next player leads (or he)
        _end(ws, seat if rv[R_CHINESE_TAKER_LEADS] != 0 else _next_active(ws[O_OUT], seat, n), False)
    else:
        nxt = _next_active(ws[O_OUT], seat, n)
        ws[O_DEFENDER] = nxt
        _at(ws, nxt)


@njit(cache=True, _nrt=False)
def chain_rest(rv, ws):
    """``kernels._rest_at_decision`` for a chain bout (the hands have been sampled anew)."""
    ph = ws[S_PHASE]
    if ph == PH_LEAD:
        _ask_lead(ws)
    elif ph == PH_CHAIN:
        _ask_beat(rv, ws)

