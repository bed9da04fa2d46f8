"""Greedy against greedy, two players, as a fixed loop over bitsets: bout after bout with the deal in registers.

The batch engine plays a bout decision by decision: it asks the dispatcher, applies the answer and works out who
is asked next, with the state in memory. When both seats play the library's baseline (``strategies/greedy.py``)
in a plain two-player throw-in game (podkidnoy, or perevodnoy, where greedy never transfers), none of that is
needed: the attacker leads his lowest non-trump, the defender covers with the cheapest card that beats or
takes, the attacker throws in his lowest card of a rank on the table (a trump only once the talon is empty)
until he has none or the limit is reached; the table is taken or discarded, both refill, the roles pass on.
``greedy_bouts`` plays that, the way the C reference does, and hands the deal back to the core's kernels
(``sim.core.bout``, ``kernels.advance``) wherever something else may happen: the deal's end, the trump-six
exchange, a position going round (``QUIET_VARY``, where greedy varies its play), ``MAX_BOUTS``.

The kernels stay the rules' one authority; this loop must agree with them and with greedy's own functions.
tests/test_greedy_bout.py plays the same deals both ways over random two-player rule sets and requires the
same state at every hand-back and the same records, word for word. Compiled only into a specialised engine
whose every seat is greedy (``sim.core.dispatch``), where ``eligible`` folds to a constant.
"""
import numpy as np
from numba import njit

from sim.core.bout import ONE, _end_bout, cards_conserved, draw_to
from sim.core.kernels import advance
from sim.core.layout import (
    F_INVARIANT, F_TAKEN, K_ATTACK, MAX_BOUTS, O_ATTACKER, O_BOUT, O_DEFENDER, O_DISCARD, O_FIRST_BOUT,
    O_HAND_SIZE, O_KIND, O_KNOWN, O_LIMIT, O_NTABLE, O_QUIET, O_TABLE_MASK, O_TAKING, O_TALON, O_TRUMP_IN_TALON,
    O_TRUMP_SUIT, O_TRUMP_UNDER, PH_BOUT, S_ANY_DISCARD, S_BASE_LIMIT, S_HANDS, S_LEAD_MASK, S_OPENER, S_PHASE,
    S_SKIP_ATT, S_TALON_MASK, S_TEND, S_TP,
)
from sim.core.lib import NIBBLE_LOW, RANK_MASKS, cover_options, lowest, popcount, same_rank_cards
from sim.core.rules import (
    MODE_PROSTOY, R_EXCHANGE, R_FIRST_BOUT_MAX, R_FIRST_BOUT_UNTIL_DISCARD, R_HAND, R_MAX_ATTACK, R_MODE,
    R_N_TEAMS, R_NEIGHBOURS_GT, R_NPLAYERS, R_POGONY_WIN, R_SIX_BEATS_ACE, R_THROW_AFTER_TAKE,
    R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_VARIANT_ANY,
)

QUIET_VARY = 12  # bouts in a row without a discard or a draw after which greedy varies its play (strategies/_lib)


@njit(cache=True, _nrt=False, inline="always")
def eligible(rv):
    """The plain two-player throw-in bout, the only one ``greedy_bouts`` plays: no §6 modifier (scoring, chain
    beating and two packs are modifiers too), and a neighbours-only rule never applies to two players."""
    return (rv[R_NPLAYERS] == 2 and rv[R_N_TEAMS] == 2 and rv[R_MODE] != MODE_PROSTOY and rv[R_VARIANT_ANY] == 0
            and (rv[R_NEIGHBOURS_GT] == 0 or rv[R_NEIGHBOURS_GT] >= 2))


@njit(cache=True, _nrt=False)
def greedy_bouts(rv, ws, rec, trace, tn):
    """Play bout after bout as greedy plays both seats, from the pending lead, for as long as the next decision
    is a lead that greedy plays plainly; returns how many (0: nothing done, the state as it was). The deal's
    state lives in registers meanwhile; where a bout may end the deal, or the next one may start otherwise (the
    trump-six exchange, QUIET_VARY, MAX_BOUTS), it is written back and the core's kernels take over
    (``_end_bout``, ``advance``). Untraced runs only: the caller checks."""
    if not eligible(rv) or ws[O_KIND] != K_ATTACK or ws[O_QUIET] >= QUIET_VARY or ws[O_TRUMP_UNDER] != 0:
        return 0
    att = ws[O_ATTACKER]
    dfn = ws[O_DEFENDER]
    h0 = ws[S_HANDS]
    h1 = ws[S_HANDS + 1]
    k0 = ws[O_KNOWN]
    k1 = ws[O_KNOWN + 1]
    tp = ws[S_TP]
    tend = ws[S_TEND]
    talon = ws[S_TALON_MASK]
    discard = ws[O_DISCARD]
    any_discard = ws[S_ANY_DISCARD]
    quiet = ws[O_QUIET]
    bout = ws[O_BOUT]
    limit = ws[O_LIMIT]
    base = ws[S_BASE_LIMIT]
    trump = ws[O_TRUMP_SUIT]
    six = trump  # rank 0 of the trump suit
    plain_cards = ~(NIBBLE_LOW << trump)
    hand = rv[R_HAND]
    after_take = rv[R_THROW_AFTER_TAKE] != 0
    six_ace = rv[R_SIX_BEATS_ACE] != 0
    follow = rv[R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0
    bouts = 0
    while True:
        ha, hd = (h0, h1) if att == 0 else (h1, h0)
        ka, kd = (k0, k1) if att == 0 else (k1, k0)
        # the bout (RUL-14..17): the lowest non-trump lead (else the lowest trump); the defender covers with the
        # cheapest card that beats or takes; the attacker throws in his lowest card of a rank on the table, a
        # trump only once the talon is empty, up to the limit
        plain = ha & plain_cards
        a = lowest(plain if plain else ha)
        lead = ONE << a
        played_a = lead
        played_d = np.int64(0)
        table = lead
        n = np.int64(1)  # cards laid to beat (the table's attack slots)
        ncov = np.int64(0)
        taking = False
        while True:
            if not taking:
                legal = cover_options(a, hd & ~played_d, trump, six_ace, follow)
                if legal == 0:
                    taking = True
                    if not after_take:
                        break
                else:
                    same = legal & plain_cards
                    c = lowest(same if same else legal)
                    played_d |= ONE << c
                    table |= ONE << c
                    ncov += 1
            if n >= limit:
                break
            legal = ha & ~played_a & same_rank_cards(table)
            plain = legal & plain_cards
            if plain:
                a = lowest(plain)
            elif legal and tp == tend:
                a = lowest(legal)
            else:
                break
            played_a |= ONE << a
            table |= ONE << a
            n += 1
        ha &= ~played_a
        ka &= ~played_a
        hd &= ~played_d
        kd &= ~played_d
        # its end (RUL-17/18, bout._end_throw_bout): taken or discarded; the attacker refills, then the defender
        if taking:
            hd |= table
            kd |= table
            rec[F_TAKEN + dfn] += popcount(table)
        else:
            discard |= table
            any_discard = 1
        tp0 = tp
        ha, ka, tp, talon = draw_to(ws, ha, ka, tp, talon, hand)
        hd, kd, tp, talon = draw_to(ws, hd, kd, tp, talon, hand)
        quiet = 0 if not taking or tp != tp0 else quiet + 1
        bouts += 1
        if att == 0:
            h0, h1, k0, k1 = ha, hd, ka, kd
        else:
            h0, h1, k0, k1 = hd, ha, kd, ka
        # a deal that may end here (bout._end_bout: a player out with the talon gone, HR-2's two sixes) ends in
        # the core's kernels
        ends = tp == tend and (ha == 0 or hd == 0)
        if rv[R_POGONY_WIN] != 0:
            ends = ends or _two_sixes(ha) or _two_sixes(hd)
        if ends:
            _write(ws, att, dfn, h0, h1, k0, k1, tp, tend, talon, discard, any_discard, quiet, bout, limit, base, lead,
                   taking)
            _end_bout(rv, ws, rec, taking)
            advance(rv, ws, rec, trace, tn, False)
            return bouts
        # the deal goes on (bout._end_bout): the conservation check, the next attacker and defender
        bout += 1
        if not cards_conserved(ws, h0 | h1, popcount(h0) + popcount(h1), talon, discard, popcount(discard),
                               tend - tp):
            rec[F_INVARIANT] += 1
        if not taking:
            att, dfn = dfn, att
        # the next bout opens (bout._open_bout) in the kernels where greedy would not lead it plainly or the
        # trump-six exchange may be offered
        if (bout >= MAX_BOUTS or quiet >= QUIET_VARY
                or (rv[R_EXCHANGE] != 0 and tp < tend and ws[O_TRUMP_IN_TALON] != 0 and ((h0 | h1) >> six) & 1)):
            _write(ws, att, dfn, h0, h1, k0, k1, tp, tend, talon, discard, any_discard, quiet, bout, limit, base, lead,
                   taking)
            ws[O_NTABLE] = 0
            ws[S_PHASE] = PH_BOUT
            advance(rv, ws, rec, trace, tn, False)
            return bouts
        # kernels._ask_lead: the limit of the bout
        limit = rv[R_MAX_ATTACK]
        fb = rv[R_FIRST_BOUT_MAX]
        if fb > 0 and ((any_discard == 0) if rv[R_FIRST_BOUT_UNTIL_DISCARD] else (bout == 0)):
            if fb < limit:
                limit = fb
        base = limit
        dl = popcount(h1 if att == 0 else h0)
        if dl < limit:
            limit = dl


@njit(cache=True, _nrt=False, inline="always")
def _two_sixes(h):
    """HR-2: a hand of exactly two sixes."""
    return (h & RANK_MASKS[0]) == h and popcount(h) == 2


@njit(cache=True, _nrt=False, inline="always")
def _write(ws, att, dfn, h0, h1, k0, k1, tp, tend, talon, discard, any_discard, quiet, bout, limit, base, lead, taking):
    """The registers of ``greedy_bouts`` back into the state, as the kernels leave it after a bout's end (its lead
    and whether it was taken too)."""
    ws[S_HANDS] = h0
    ws[S_HANDS + 1] = h1
    ws[O_HAND_SIZE] = popcount(h0)
    ws[O_HAND_SIZE + 1] = popcount(h1)
    ws[O_KNOWN] = k0
    ws[O_KNOWN + 1] = k1
    ws[S_TP] = tp
    ws[O_TALON] = tend - tp
    ws[S_TALON_MASK] = talon
    ws[O_DISCARD] = discard
    ws[S_ANY_DISCARD] = any_discard
    ws[O_QUIET] = quiet
    ws[O_BOUT] = bout
    ws[O_FIRST_BOUT] = 1 if bout == 0 else 0
    ws[O_ATTACKER] = att
    ws[O_DEFENDER] = dfn
    ws[S_OPENER] = att
    ws[O_LIMIT] = limit
    ws[S_BASE_LIMIT] = base
    ws[O_TABLE_MASK] = 0
    ws[S_SKIP_ATT] = 0
    ws[S_LEAD_MASK] = lead
    ws[O_TAKING] = 1 if taking else 0
