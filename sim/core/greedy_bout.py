"""The greedy player's whole bout as one loop over bitsets, for an engine in which every seat plays greedy.

The batch engine plays a bout decision by decision: it asks the dispatcher, checks and applies the answer
and works out who is asked next, reading the rules from the state each time. When both seats play the
library's baseline (``strategies/greedy.py``) in a two-player throw-in game (podkidnoy, or perevodnoy,
where greedy never transfers) the bout needs none of that: the attacker leads his lowest non-trump, the
defender covers with the cheapest card that beats or takes, the attacker throws in his lowest matching
non-trump (a trump once the talon is empty) until he has none, the limit is reached or the cover fails.
``greedy_bouts`` plays that with the hands in registers and leaves the state as the decisions would have
left it, then closes the bout with the core's own kernels (``_end_throw_bout``, ``advance``).

It must be the same player as greedy's own functions: tests/test_greedy_bout.py plays the same bouts through
this loop and through the decisions and requires the same state and records, word for word. Where greedy
plays differently (a §6 modifier, a position going round, ``QUIET_VARY``) or the rules are not the plain
two-player bout, it stops and the engine asks the decisions as usual. Compiled only into a
specialised engine (``sim.core.dispatch``), where ``eligible`` folds to a constant.
"""
import numpy as np
from numba import njit

from sim.core.bout import ONE, _end_throw_bout
from sim.core.kernels import advance
from sim.core.layout import (
    K_ATTACK, O_ATTACKER, O_COVER_TARGET, O_DEFENDER, O_HAND_SIZE, O_KIND, O_KNOWN, O_LIMIT, O_NTABLE, O_QUIET,
    O_TABLE_ATT,
    O_TABLE_BY, O_TABLE_COV, O_TABLE_MASK, O_TAKING, O_TALON, O_TRUMP_SUIT, S_HANDS, S_LEAD_MASK, S_NCOV,
    S_SKIP_ATT,
)
from sim.core.lib import NIBBLE_LOW, cover_options, lowest, popcount, same_rank_cards
from sim.core.rules import (
    MODE_PROSTOY, R_MODE, R_NEIGHBOURS_GT, R_NPLAYERS, R_SIX_BEATS_ACE, R_THROW_AFTER_TAKE,
    R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_VARIANT_ANY,
)

QUIET_VARY = 12  # bouts in a row without a discard or a draw after which greedy varies its play (strategies/_lib)


@njit(cache=True, _nrt=False, inline="always")
def eligible(rv):
    """The plain two-player throw-in bout, the only one ``greedy_bout`` plays: no §6 modifier (scoring, chain
    beating and two packs are modifiers too), and a neighbours-only rule never applies to two players."""
    return (rv[R_NPLAYERS] == 2 and rv[R_MODE] != MODE_PROSTOY and rv[R_VARIANT_ANY] == 0
            and (rv[R_NEIGHBOURS_GT] == 0 or rv[R_NEIGHBOURS_GT] >= 2))


@njit(cache=True, _nrt=False)
def greedy_bout(rv, ws, rec, trace, tn):
    """One bout (``greedy_bouts`` stopped after it); False, the state untouched, where greedy plays otherwise."""
    if not eligible(rv) or ws[O_KIND] != K_ATTACK or ws[O_QUIET] >= QUIET_VARY:
        return False
    _bout(rv, ws, rec, trace, tn)
    return True


@njit(cache=True, _nrt=False)
def greedy_bouts(rv, ws, rec, trace, tn):
    """Play bout after bout as greedy plays both seats, each from its lead to the next decision, for as long as
    the pending decision is a lead that greedy plays plainly; returns how many (0: nothing done, the state as it
    was). Untraced runs only: the caller checks."""
    if not eligible(rv):
        return 0
    k = 0
    while ws[O_KIND] == K_ATTACK and ws[O_QUIET] < QUIET_VARY:
        _bout(rv, ws, rec, trace, tn)
        k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def _bout(rv, ws, rec, trace, tn):
    """One bout from the pending lead: played, ended (``_end_throw_bout``) and advanced to the next decision."""
    att = ws[O_ATTACKER]
    dfn = ws[O_DEFENDER]
    ha = ws[S_HANDS + att]
    hd = ws[S_HANDS + dfn]
    trump = ws[O_TRUMP_SUIT]
    plain_cards = ~(NIBBLE_LOW << trump)
    limit = ws[O_LIMIT]
    talon_empty = ws[O_TALON] == 0
    after_take = rv[R_THROW_AFTER_TAKE] != 0
    six_ace = rv[R_SIX_BEATS_ACE] != 0
    follow = rv[R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0
    # the lead: the lowest non-trump, else the lowest trump
    plain = ha & plain_cards
    a = lowest(plain if plain else ha)
    ws[S_LEAD_MASK] = ONE << a
    played_a = ONE << a
    played_d = np.int64(0)
    table = ONE << a
    ws[O_TABLE_ATT] = a
    ws[O_TABLE_BY] = att
    ws[O_TABLE_COV] = -1
    n = np.int64(1)  # cards laid to beat (the table's attack slots)
    ncov = np.int64(0)
    taking = False
    while True:
        if not taking:  # the defender answers the uncovered card: the cheapest card that beats, else he takes
            ws[O_COVER_TARGET] = ncov
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
                ws[O_TABLE_COV + ncov] = c
                ncov += 1
        # the attacker throws in (the only other player): his lowest card of a rank on the table
        if n >= limit:
            break
        legal = ha & ~played_a & same_rank_cards(table)
        plain = legal & plain_cards
        if plain:
            a = lowest(plain)
        elif legal and talon_empty:
            a = lowest(legal)
        else:
            break
        played_a |= ONE << a
        table |= ONE << a
        ws[O_TABLE_ATT + n] = a
        ws[O_TABLE_BY + n] = att
        ws[O_TABLE_COV + n] = -1
        n += 1
    ha &= ~played_a
    hd &= ~played_d
    ws[S_HANDS + att] = ha
    ws[O_HAND_SIZE + att] = popcount(ha)
    ws[O_KNOWN + att] &= ~played_a
    ws[S_HANDS + dfn] = hd
    ws[O_HAND_SIZE + dfn] = popcount(hd)
    ws[O_KNOWN + dfn] &= ~played_d
    ws[O_TABLE_MASK] = table
    ws[O_NTABLE] = n
    ws[S_NCOV] = ncov
    ws[O_TAKING] = 1 if taking else 0
    ws[S_SKIP_ATT] = 0
    _end_throw_bout(rv, ws, rec, trace, tn, False, False)
    advance(rv, ws, rec, trace, tn, False)
