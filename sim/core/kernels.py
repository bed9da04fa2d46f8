"""The deal as a compiled state machine: small kernels over one int64 state array.

The state (layout in ``sim.core.layout``) is the observation prefix ``ws[:O_SIZE]`` followed by
the private part (hands, talon order, where the bout stands). After every kernel the state rests
at a decision: ``ws[O_ACTOR]`` must answer a decision of kind ``ws[O_KIND]`` whose legal cards are
``ws[S_LEGAL]`` (``ws[O_SHOW_LEGAL]`` for showing), or ``ws[O_KIND] == K_NONE`` when the deal is
over. ``apply`` checks an answer with ``option_ok`` (the one test of legality, shared with the
strategies), plays it and every automatic consequence (bout end, refill, players going out, the
result, the next roles) up to the next decision. Any loop that drives ``apply`` plays a deal:
the batch engine with strategies, a search player's playouts, the tests step by step.

The procedure follows ``sim/RULINGS.md`` (RUL-n).

Speed: the kernels on the per-decision path (``apply``, the prostoy bout end, the decisions after a
cover or a throw-in) are ``inline="always"``: numba then inlines them into the deal loop at its own
level. The podkidnoy bout end (``bout._end_throw_bout``, once a bout) is called instead: numba copies an
inlined function's whole scope once per block at every call site, and inlined there it took more than half
of ``advance``'s 30 s compile. Left to LLVM, each of them became a call that passes every array as a seven-word
struct, and the §6 variant code made the functions big enough that LLVM stopped inlining them:
the plain families lost 17% that way (instruction counts under callgrind).

Two packs (VAR-BD1) use the same kernels: where a card can be there twice, a twin mask sits beside the
card mask, and the kernels that move cards take a flag ``two``. It is a constant wherever it is passed
(``apply`` passes False, ``apply_any`` picks True or False from the rules), so after inlining the
compiler drops the branch not taken: a one-pack deal runs no two-pack step.
"""
import numpy as np
from numba import njit

from sim.core.layout import (
    ERR_ILLEGAL, F_ACE_HOLDER, F_DEALER, F_ERR_KIND, F_ERR_SEAT, F_ERR_VALUE, F_ERROR, F_EXCHANGE_SEAT,
    F_FIRST_ATTACKER, F_FOOL, F_LOSING_TEAM, F_OUTCOME, F_PLACE, F_POGONY_SEAT, F_SIX_HOLDER, F_TAKEN,
    F_TRANSFERS, K_ATTACK, K_COVER, K_THROW_IN, K_TRANSFER, NO_CARD, O_ACTOR, O_ATTACKER, O_BOUT,
    O_COVER_TARGET, O_DEALER, O_DEFENDER, O_DISCARD, O_HAND, O_HAND_SIZE, O_KIND, O_KNOWN, O_LIMIT, O_N,
    O_NTABLE, O_OUT, O_POGON_TOP, O_QUIET, O_POGONY, O_POINTS, O_RULES, O_SEAT, O_TABLE_BY, O_SHOW_LEGAL,
    O_SIZE, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK, O_TAKING, O_TALON, O_TEAM, O_TRUMP_CARD,
    O_TRUMP_IN_TALON, O_TRUMP_SUIT, OUT_ESCAPED, PH_BOUT, PH_DEFEND, PH_EXCHANGE, PH_LEAD,
    PH_CHAIN_ANSWER, PH_OVER, PH_PCOVER, PH_THROW, S_CHAIN_ANSWER, S_ANY_DISCARD, S_ATT_DONE,
    S_BASE_LIMIT, S_DECK, S_DECLINED, S_FIRST_ATT, S_HANDS, S_LEAD_MASK, S_LEGAL, S_N_OUT, S_NCOV,
    S_P_ALLCOV, S_P_COVERED, S_P_K, S_P_USED, S_PHASE, S_SHOWED, S_SHOWN_BOUT, S_SHOWN_GAME, S_SKIP_ATT,
    S_TALON, S_TALON_MASK, S_TEND, S_THROW_I, S_TP, SHOW, STATE_SIZE, FROM_TALON, O_DISCARDS, O_REMOVED,
    O_REMOVED_KNOWN, S_OT_RNG, S_REMOVED, T_ATTACK, T_COVER, T_DEAL, T_DEFEND, T_EXCHANGE, T_PASS, T_SHOW,
    T_TAKE, T_THROW_IN, T_TRANSFER)
from sim.core.layout import O_SEAT_TRUMPS, O_TRUMP_UNDER
from sim.core.layout import O_DISCARD2, O_HAND2, O_KNOWN2, S_HANDS2, S_TALON_MASK2
from sim.core.layout import K_SWAP, O_POKER_KEY, O_POKER_OFFERED, PH_SWAP, T_SWAP

from sim.core.lib import (
    FULL, NIBBLE_LOW, RANK_MASKS, cover_options_for, lowest, option_ok, popcount, random_card, rng_next,
    same_rank_cards, swap_cap, trump_of)
from sim.core.lib import multi_add, multi_remove, rng_below, twin_lead_cards
from sim.core.rules import (
    LATER_IZ_POD, LATER_LEFT_OF_DEALER, LATER_LOWEST_TRUMP, LATER_POD, MODE_PEREVODNOY, MODE_PROSTOY,
    R_ATT_DRAW_NOW, R_FALLBACK_LOWEST_CARD, R_FIRST_BOUT_MAX, R_FIRST_BOUT_UNTIL_DISCARD,
    R_FIRST_LOWEST_TRUMP, R_HAND, R_LATER_DEALS, R_MAX_ATTACK, R_MODE, R_N_TEAMS, R_NEIGHBOURS_GT,
    R_NEXT_DEALER_TEAM, R_NPLAYERS, R_PARTIAL, R_POKAZNOY, R_PROEZDNOY, R_PROEZDNOY_PER_GAME,
    R_SCORING_RULE, R_SIZE, R_TEAM0, R_THROW_AFTER_TAKE, R_THROW_TIMING, R_TRANSFER_FIRST,
    TIMING_AFTER_ATTACKER, TIMING_AFTER_FIRST_COVER, TIMING_ANY_TIME, DEAL_CHUKOTSKY, DEAL_NAVALENY,
    R_ALBANIAN, R_DEAL_RULE, R_DEALING_ANY, R_NAVALENY_LEFTOVER_TRUMP, R_NAVALENY_OUT, R_OTBOYNY,
    BOUT_CHINESE, BOUT_ROAD, R_BOUT_RULE)
from sim.core.rules import (
    R_CHANGING_TRUMP, R_FIXED_TRUMP, R_NO_TRUMP, R_OWN_TRUMPS, R_SPADE_TURNUP, R_SPADES_ONLY, R_VARIANT_ANY,
    TURNUP_REDEAL,
)
from sim.core.rules import R_TWO_PACKS
from sim.core.rules import R_POKER, R_POKER_EVERY, R_POKER_EXACT

from sim.core import chain
from sim.core.bout import (
    _ask, _count_in, _count_table, _credit_pogon, _end_bout, _end_throw_bout, _gain2, _next_active, _open_bout, _over,
    _play_out, _refill, _set_hand, _set_hand2, _to_discard, emit, next_opponent, talon_from)

ONE = np.int64(1)


# ---- small pieces ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _prev_active(out, s, n):
    t = s
    for _ in range(n):
        t = t - 1 if t > 0 else n - 1
        if not (out >> t) & 1:
            return t
    return -1


@njit(cache=True, _nrt=False)
def _table_add(ws, card, seat):
    i = ws[O_NTABLE]
    ws[O_TABLE_ATT + i] = card
    ws[O_TABLE_BY + i] = seat
    ws[O_TABLE_COV + i] = -1
    ws[O_TABLE_MASK] |= ONE << card
    ws[O_NTABLE] = i + 1


@njit(cache=True, _nrt=False)
def fail(ws, rec, seat, kind, value):
    rec[F_ERROR] = ERR_ILLEGAL
    rec[F_ERR_SEAT] = seat
    rec[F_ERR_KIND] = kind
    rec[F_ERR_VALUE] = value
    _over(ws)


# ---- dealing --------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def new_series(rv, ws):
    """Clear the state and write the rules and seats into it, before a series. The batch engine clears once per
    chunk (engine._chunk): its later series go on from the previous deal's end, as a series' later deals do."""
    n = rv[R_NPLAYERS]
    ws[:] = 0
    for i in range(R_SIZE):
        ws[O_RULES + i] = rv[i]
    ws[O_N] = n
    for s in range(6):
        ws[O_TEAM + s] = rv[R_TEAM0 + s] if s < n else -1
    _over(ws)


@njit(cache=True, _nrt=False, inline="always")
def _shuffle(drng, ws, size):
    """Fisher-Yates over S_DECK (`size` 36, or 72 for two packs, RUL-81: each card id twice); each 64-bit
    draw gives two 32-bit multiply-shift indices."""
    for i in range(size):
        ws[S_DECK + i] = i if i < 36 else i - 36
    i = size - 1
    while i > 0:
        r = rng_next(drng)
        j = np.int64(((r >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        tmp = ws[S_DECK + i]
        ws[S_DECK + i] = ws[S_DECK + j]
        ws[S_DECK + j] = tmp
        i -= 1
        if i > 0:
            j = np.int64(((r & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            tmp = ws[S_DECK + i]
            ws[S_DECK + i] = ws[S_DECK + j]
            ws[S_DECK + j] = tmp
            i -= 1


@njit(cache=True, _nrt=False, inline="always")
def _deal_hands(rv, ws, dealer, total):
    """RUL-2: `total` cards one at a time clockwise from the dealer's left. Returns `total`."""
    n = rv[R_NPLAYERS]
    for s in range(6):
        ws[S_HANDS + s] = 0
    s = dealer
    for i in range(total):
        s += 1
        if s == n:
            s = 0
        ws[S_HANDS + s] |= ONE << ws[S_DECK + i]
    for s in range(6):
        ws[O_HAND_SIZE + s] = popcount(ws[S_HANDS + s]) if s < n else 0
        ws[O_KNOWN + s] = 0
    return total


@njit(cache=True, _nrt=False, inline="always")
def _lay_talon(rv, ws, dealer, dealt):
    """RUL-2: the next card is turned for trump and lies under the rest of the talon (a 6 x 6 deal
    shows the dealer's last card instead). Returns the trump card."""
    tm = np.int64(0)
    if dealt < 36:
        tc = ws[S_DECK + dealt]
        k = 0
        for i in range(dealt + 1, 36):
            ws[S_TALON + k] = ws[S_DECK + i]
            tm |= ONE << ws[S_DECK + i]
            k += 1
        ws[S_TALON + k] = tc
        tm |= ONE << tc
        tend = k + 1
        ws[O_TRUMP_IN_TALON] = 1
    else:
        tc = ws[S_DECK + 35]  # RUL-2: shown for trump, stays in the dealer's hand
        tend = 0
        ws[O_TRUMP_IN_TALON] = 0
        ws[O_KNOWN + dealer] = ONE << tc
    ws[S_TP] = 0
    ws[S_TEND] = tend
    ws[S_TALON_MASK] = tm
    ws[O_TALON] = tend
    return tc


@njit(cache=True, _nrt=False)
def _turn_trump(rv, ws, tc):
    """The trump card and suit (C-3)."""
    ws[O_TRUMP_CARD] = tc
    ws[O_TRUMP_SUIT] = tc & 3


@njit(cache=True, _nrt=False)
def _deal_navaleny(rv, ws, dealer):
    """VAR-NA1 (RUL-52): the whole pack one at a time from the dealer's left; with out_of_play the cards
    that do not split evenly are put out of play (face down, or face up for trump with leftover_card);
    the trump is the last card dealt, shown and kept in that hand. Returns the trump card."""
    n = rv[R_NPLAYERS]
    total = 36
    if rv[R_NAVALENY_OUT] != 0:
        total = 36 - 36 % n
    _deal_hands(rv, ws, dealer, total)
    rem = np.int64(0)
    for i in range(total, 36):
        rem |= ONE << ws[S_DECK + i]
    ws[S_REMOVED] = rem
    ws[O_REMOVED] = 36 - total
    if total < 36 and rv[R_NAVALENY_LEFTOVER_TRUMP] != 0:
        tc = ws[S_DECK + total]
        ws[O_REMOVED_KNOWN] = ONE << tc
    else:
        tc = ws[S_DECK + total - 1]  # dealt last, to the seat `total` places left of the dealer
        ws[O_KNOWN + (dealer + total) % n] = ONE << tc
    ws[S_TP] = 0
    ws[S_TEND] = 0
    ws[S_TALON_MASK] = 0
    ws[O_TALON] = 0
    ws[O_TRUMP_IN_TALON] = 0
    return tc


@njit(cache=True, _nrt=False)
def _sort_talon(ws, start, stop):
    """VAR-AL1 (RUL-53): talon cards start..stop-1 by rank, highest first; equal ranks keep their order."""
    for i in range(start + 1, stop):
        x = ws[S_TALON + i]
        j = i - 1
        while j >= start and (ws[S_TALON + j] >> 2) < (x >> 2):
            ws[S_TALON + j + 1] = ws[S_TALON + j]
            j -= 1
        ws[S_TALON + j + 1] = x


@njit(cache=True, _nrt=False)
def _deal_variant(rv, drng, ws, dealer):
    """The deal under the §6 dealing modifiers (VAR-NA1, VAR-CH1, VAR-AL1, VAR-OT1). Returns the trump card."""
    ws[S_REMOVED] = 0
    ws[O_REMOVED] = 0
    ws[O_REMOVED_KNOWN] = 0
    ws[O_DISCARDS] = 0
    ws[O_POKER_KEY] = 0
    ws[O_POKER_OFFERED] = 0
    if rv[R_DEAL_RULE] == DEAL_NAVALENY:
        tc = _deal_navaleny(rv, ws, dealer)
    else:
        dealt = _deal_hands(rv, ws, dealer, rv[R_NPLAYERS] * rv[R_HAND])
        tc = _lay_talon(rv, ws, dealer, dealt)
        if rv[R_DEAL_RULE] == DEAL_CHUKOTSKY and ws[S_TEND] > 0:
            # VAR-CH1 (RUL-51): the talon and the face-up trump card leave play; the trump suit stays
            ws[S_REMOVED] = ws[S_TALON_MASK]
            ws[O_REMOVED] = ws[S_TEND]
            ws[O_REMOVED_KNOWN] = ONE << tc
            ws[S_TALON_MASK] = 0
            ws[S_TEND] = 0
            ws[O_TALON] = 0
            ws[O_TRUMP_IN_TALON] = 0
        elif rv[R_ALBANIAN] != 0 and ws[S_TEND] > 1:
            _sort_talon(ws, 0, ws[S_TEND] - 1)
    if rv[R_OTBOYNY] != 0:
        ws[S_OT_RNG] = np.int64(rng_next(drng))
    return tc


@njit(cache=True, _nrt=False)
def _lay_talon_variant(rv, ws, dealer, dealt):
    """The talon under the beating modifiers. no_trump (RUL-30): no card is turned, the whole rest of the
    pack is the talon (top first) and nothing is shown. changing_trump (RUL-35): the card after the turned
    one lies face down under it, so the talon is the rest, then the turned card, then that hidden card.
    Returns the turned card (-1: none)."""
    if rv[R_NO_TRUMP] != 0:
        tm = np.int64(0)
        k = 0
        for i in range(dealt, 36):
            ws[S_TALON + k] = ws[S_DECK + i]
            tm |= ONE << ws[S_DECK + i]
            k += 1
        ws[S_TP] = 0
        ws[S_TEND] = k
        ws[S_TALON_MASK] = tm
        ws[O_TALON] = k
        ws[O_TRUMP_IN_TALON] = 0
        return -1
    if rv[R_CHANGING_TRUMP] != 0 and dealt + 1 < 36:
        tc = ws[S_DECK + dealt]
        tm = np.int64(0)
        k = 0
        for i in range(dealt + 2, 36):
            ws[S_TALON + k] = ws[S_DECK + i]
            tm |= ONE << ws[S_DECK + i]
            k += 1
        ws[S_TALON + k] = tc
        ws[S_TALON + k + 1] = ws[S_DECK + dealt + 1]
        tm |= (ONE << tc) | (ONE << ws[S_DECK + dealt + 1])
        ws[S_TP] = 0
        ws[S_TEND] = k + 2
        ws[S_TALON_MASK] = tm
        ws[O_TALON] = k + 2
        ws[O_TRUMP_IN_TALON] = 1
        ws[O_TRUMP_UNDER] = 1
        return tc
    return _lay_talon(rv, ws, dealer, dealt)


@njit(cache=True, _nrt=False)
def _turn_trump_variant(rv, ws, tc, dealer):
    """The trump suit under the beating modifiers (RUL-30..34): none, a fixed suit, a turned spade under
    spades_only_by_spades (no trump), and each seat's own suit."""
    suit = tc & 3 if tc >= 0 else -1
    if rv[R_FIXED_TRUMP] >= 0:
        suit = rv[R_FIXED_TRUMP]
    elif rv[R_SPADES_ONLY] != 0 and suit == 3:
        suit = -1  # spade_turnup_resolution=no_trump (redeal never leaves a turned spade)
    ws[O_TRUMP_CARD] = tc
    ws[O_TRUMP_SUIT] = suit
    n = rv[R_NPLAYERS]
    for s in range(6):
        ws[O_SEAT_TRUMPS + s] = 0
    if rv[R_OWN_TRUMPS] != 0:
        s = dealer if rv[R_OWN_TRUMPS] == 2 else (dealer + 1) % n
        for i in range(n):
            ws[O_SEAT_TRUMPS + s] = (suit + i) & 3
            s = s + 1 if s + 1 < n else 0


@njit(cache=True, _nrt=False)
def deal(rv, drng, ws, dealer):
    """RUL-2: shuffle, deal one at a time from the dealer's left, turn the trump card."""
    if rv[R_VARIANT_ANY] == 0:
        _shuffle(drng, ws, 36)
        dealt = _deal_hands(rv, ws, dealer, rv[R_NPLAYERS] * rv[R_HAND])
        tc = _lay_talon(rv, ws, dealer, dealt)
        _turn_trump(rv, ws, tc)
    else:
        ws[O_TRUMP_UNDER] = 0
        while True:
            if rv[R_TWO_PACKS] != 0:  # VAR-BD1: two packs (RUL-80/81)
                tc = _deal_two_packs(rv, drng, ws, dealer)
                break
            _shuffle(drng, ws, 36)
            if rv[R_DEALING_ANY] != 0:
                tc = _deal_variant(rv, drng, ws, dealer)
            else:
                dealt = _deal_hands(rv, ws, dealer, rv[R_NPLAYERS] * rv[R_HAND])
                tc = _lay_talon_variant(rv, ws, dealer, dealt)
            # RUL-31: a turned spade under spades_only_by_spades with redeal: shuffle and deal again
            if not (rv[R_SPADES_ONLY] != 0 and rv[R_FIXED_TRUMP] < 0 and rv[R_SPADE_TURNUP] == TURNUP_REDEAL
                    and tc >= 0 and (tc & 3) == 3):
                break
        _turn_trump_variant(rv, ws, tc, dealer)
        if rv[R_BOUT_RULE] == BOUT_CHINESE:  # RUL-75: spades are always trumps
            ws[O_TRUMP_SUIT] = 3
    ws[O_DEALER] = dealer
    ws[O_OUT] = 0
    ws[O_DISCARD] = 0
    for s in range(6):  # the scores of the scoring variants (VAR-PG1, VAR-OC1) start afresh every deal
        ws[O_POINTS + s] = 0
        ws[O_POGONY + s] = 0
        ws[O_POGON_TOP + s] = -1


@njit(cache=True, _nrt=False)
def first_attacker(rv, ws, dealer, first_deal, prev_fool):
    """RUL-7."""
    n = rv[R_NPLAYERS]
    rule = LATER_LOWEST_TRUMP if rv[R_FIRST_LOWEST_TRUMP] else LATER_LEFT_OF_DEALER
    if not first_deal:
        rule = rv[R_LATER_DEALS]
        if prev_fool < 0 and (rule == LATER_POD or rule == LATER_IZ_POD):
            rule = LATER_LEFT_OF_DEALER
    if rv[R_BOUT_RULE] != 0:  # RUL-71 / RUL-75
        rule = LATER_LOWEST_TRUMP if rv[R_BOUT_RULE] == BOUT_ROAD else LATER_LEFT_OF_DEALER
    if rule == LATER_POD:
        return (prev_fool - 1 + n) % n
    if rule == LATER_IZ_POD:
        return (prev_fool + 1) % n
    if rule == LATER_LOWEST_TRUMP and rv[R_TWO_PACKS] != 0:
        return _lowest_trump2(rv, ws, dealer)
    if rule == LATER_LOWEST_TRUMP:
        best = 99
        who = -1
        for s in range(n):
            trump = trump_of(ws, s)  # own_trumps: each player's own (RUL-34); none: nobody holds a trump
            t = ws[S_HANDS + s] & (NIBBLE_LOW << trump) if trump >= 0 else np.int64(0)
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
                if ws[S_HANDS + s]:
                    c = lowest(ws[S_HANDS + s])
                    if c < best:
                        best = c
                        who = s
            return who
    return (dealer + 1) % n


@njit(cache=True, _nrt=False, inline="always")
def begin(rv, ws, rec, first_att, out, bout, discarded, trace, tn, tracing):
    """Start play from a dealt (or sampled) position: `first_att` leads bout `bout`, seats in `out`
    have gone out, `discarded` says whether a bout has ended in a discard. Rests at the first decision."""
    n = rv[R_NPLAYERS]
    ws[O_OUT] = out
    ws[O_BOUT] = bout
    ws[O_ATTACKER] = first_att
    ws[O_DEFENDER] = next_opponent(ws, out, first_att, n)
    ws[S_N_OUT] = popcount(out)
    ws[S_ANY_DISCARD] = 1 if discarded else 0
    ws[O_QUIET] = 0
    ws[S_SHOWN_GAME] = 0
    ws[S_FIRST_ATT] = first_att
    ws[S_PHASE] = PH_BOUT
    rec[F_FIRST_ATTACKER] = first_att
    rec[F_FOOL] = -1
    rec[F_LOSING_TEAM] = -1
    rec[F_EXCHANGE_SEAT] = -1
    rec[F_POGONY_SEAT] = -1
    for s in range(6):
        rec[F_OUTCOME + s] = OUT_ESCAPED if s < n else -1
    advance(rv, ws, rec, trace, tn, tracing)


@njit(cache=True, _nrt=False, inline="always")
def start_deal(rv, drng, ws, rec, dealer, d, prev_fool, trace, tn, tracing):
    """Deal number d of a series (RUL-2), record who was dealt the trump six and ace, find the first
    attacker (RUL-7) and rest at the first decision. The one way a deal starts, for the batch engine and
    for a deal stepped from Python (sim.core.machine)."""
    rec[F_DEALER] = dealer
    deal(rv, drng, ws, dealer)
    record_holders(ws, rec, rv[R_NPLAYERS])
    fa = first_attacker(rv, ws, dealer, d == 0, prev_fool)
    if tracing:
        emit(trace, tn, T_DEAL, dealer, fa, d)
    begin(rv, ws, rec, fa, 0, 0, False, trace, tn, tracing)


@njit(cache=True, _nrt=False)
def after_deal(rv, rec, dealer):
    """(next dealer, previous fool) for the series' next deal (RUL-7/8); no single fool in a team game."""
    prev_fool = rec[F_FOOL] if rv[R_N_TEAMS] == rv[R_NPLAYERS] else -1
    return next_dealer(rv, rec, dealer), prev_fool


# ---- the next decision ------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _ask_lead(rv, ws):
    att = ws[O_ATTACKER]
    dfn = ws[O_DEFENDER]
    dl = ws[O_HAND_SIZE + dfn]
    if rv[R_MODE] == MODE_PROSTOY:
        limit = dl if dl < 6 else 6
    else:
        limit = rv[R_MAX_ATTACK]
        fb = rv[R_FIRST_BOUT_MAX]
        if fb > 0 and ((ws[S_ANY_DISCARD] == 0) if rv[R_FIRST_BOUT_UNTIL_DISCARD] else (ws[O_BOUT] == 0)):
            if fb < limit:
                limit = fb
        ws[S_BASE_LIMIT] = limit
        if dl < limit:
            limit = dl
    ws[O_LIMIT] = limit
    _ask(ws, att, K_ATTACK, ws[S_HANDS + att])


@njit(cache=True, _nrt=False, inline="always")
def _transfer_options(rv, ws, dfn, nd):
    """RUL-19: (cards that may be laid, cards that may be shown) to pass the attack to nd."""
    n_att = ws[O_NTABLE]
    rk = same_rank_cards(ws[O_TABLE_MASK])
    hd = ws[S_HANDS + dfn]
    lay = hd & rk if ws[O_HAND_SIZE + nd] >= n_att + 1 else np.int64(0)
    if rv[R_TWO_PACKS] != 0 and n_att >= ws[S_BASE_LIMIT]:
        lay = np.int64(0)  # RUL-85: with two packs a rank can fill the table; a laid transfer card is one more
    show = np.int64(0)
    if ws[O_HAND_SIZE + nd] >= n_att:
        trump = trump_of(ws, dfn)
        if rv[R_PROEZDNOY] != 0 and trump >= 0:
            tr = hd & rk & (NIBBLE_LOW << trump)
            if rv[R_PROEZDNOY_PER_GAME] != 0:
                tr &= ~ws[S_SHOWN_GAME]
            elif (ws[S_SHOWED] >> dfn) & 1:
                tr = np.int64(0)
            show |= tr
        if rv[R_POKAZNOY] != 0:
            show |= hd & rk & ~ws[S_SHOWN_BOUT]
    return lay, show


@njit(cache=True, _nrt=False, inline="always")
def _defender_decision(rv, ws):
    """The defender's pending answer (transfer, then cover or take). True when one is asked."""
    dfn = ws[O_DEFENDER]
    ncov = ws[S_NCOV]
    if ws[S_SKIP_ATT] != 0 or ws[O_NTABLE] <= ncov or ws[O_TAKING] != 0:
        return False
    if (rv[R_MODE] == MODE_PEREVODNOY and ncov == 0 and ws[S_DECLINED] == 0
            and (ws[O_BOUT] > 0 or rv[R_TRANSFER_FIRST] != 0)):
        n = rv[R_NPLAYERS]
        out = ws[O_OUT]
        nd = next_opponent(ws, out, dfn, n)
        if popcount(same_rank_cards(ws[O_TABLE_MASK]) & NIBBLE_LOW) == 1 and nd >= 0 and nd != dfn:
            lay, show = _transfer_options(rv, ws, dfn, nd)
            if lay | show:
                ws[O_SHOW_LEGAL] = show
                _ask(ws, dfn, K_TRANSFER, lay)
                return True
    if rv[R_VARIANT_ANY] != 0 and rv[R_POKER] != 0 and _poker_ask(rv, ws):
        return True
    ac = ws[O_TABLE_ATT + ncov]
    ws[O_COVER_TARGET] = ncov
    _ask(ws, dfn, K_COVER, cover_options_for(ws, ac, ws[S_HANDS + dfn], dfn))
    return True


@njit(cache=True, _nrt=False, inline="always")
def _thrower_decision(rv, ws):
    """Continue the throw-in round (RUL-16/17) from seat index S_THROW_I. True when someone is asked;
    False when the round ended with nobody throwing in."""
    n = rv[R_NPLAYERS]
    if ws[O_NTABLE] >= ws[O_LIMIT]:
        return False
    out = ws[O_OUT]
    att = ws[O_ATTACKER]
    dfn = ws[O_DEFENDER]
    ranks = same_rank_cards(ws[O_TABLE_MASK])
    gt = rv[R_NEIGHBOURS_GT]
    left_nb = -1
    right_nb = -1
    if gt > 0 and n > gt:
        left_nb = _next_active(out, dfn, n)
        right_nb = _prev_active(out, dfn, n)
    team_d = ws[O_TEAM + dfn]
    timing = rv[R_THROW_TIMING]
    skip = ws[S_SKIP_ATT] != 0
    att_done = ws[S_ATT_DONE] != 0
    taking = ws[O_TAKING] != 0
    i = ws[S_THROW_I]
    c = att + i
    if c >= n:
        c -= n
    while i < n:
        if c != dfn and not (out >> c) & 1 and ws[O_TEAM + c] != team_d:
            legal = ws[S_HANDS + c] & ranks
            if left_nb >= 0 and c != left_nb and c != right_nb:
                legal = np.int64(0)  # HR-3: not the defender's neighbour; an attacker so placed has finished
            if i == 0:
                if not skip:
                    if legal == 0:
                        att_done = True
                    else:
                        ws[S_ATT_DONE] = 1 if att_done else 0
                        ws[S_THROW_I] = i
                        _ask(ws, c, K_THROW_IN, legal)
                        return True
            else:
                if timing == TIMING_AFTER_ATTACKER and not att_done:
                    return False
                if timing == TIMING_AFTER_FIRST_COVER and ws[S_NCOV] == 0 and not taking:
                    return False
                if legal != 0:
                    ws[S_ATT_DONE] = 1 if att_done else 0
                    ws[S_THROW_I] = i
                    _ask(ws, c, K_THROW_IN, legal)
                    return True
        i += 1
        c += 1
        if c == n:
            c = 0
    return False


@njit(cache=True, _nrt=False)
def advance(rv, ws, rec, trace, tn, tracing):
    """Play every automatic step until a decision is pending or the deal is over."""
    if rv[R_BOUT_RULE] != 0:  # chain beating: a bout of its own (sim/core/chain.py)
        chain.chain_advance(rv, ws, rec, trace, tn, tracing)
        return
    while True:
        ph = ws[S_PHASE]
        if ph == PH_BOUT:
            if _open_bout(rv, ws, rec):
                return
            ph = PH_LEAD
        if ph == PH_LEAD:
            _ask_lead(rv, ws)
            return
        if ph == PH_EXCHANGE or ph == PH_OVER or ph == PH_SWAP:
            return
        if ph == PH_PCOVER:
            i = ws[S_NCOV]
            if i < ws[S_P_K]:
                if i == 0 and rv[R_VARIANT_ANY] != 0 and rv[R_POKER] != 0 and _poker_ask(rv, ws):
                    return
                dfn = ws[O_DEFENDER]
                ws[O_COVER_TARGET] = i
                _ask(ws, dfn, K_COVER, cover_options_for(ws, ws[O_TABLE_ATT + i], ws[S_HANDS + dfn], dfn))
                return
            _end_prostoy_bout(rv, ws, rec, trace, tn, tracing)
            continue
        if ph == PH_DEFEND:
            if _defender_decision(rv, ws):
                return
            if ws[O_TAKING] != 0 and rv[R_THROW_AFTER_TAKE] == 0:
                if rv[R_TWO_PACKS] != 0:
                    _end_throw_bout2(rv, ws, rec, trace, tn, tracing)
                else:
                    _end_throw_bout(rv, ws, rec, trace, tn, tracing, False)
                continue
            ws[S_THROW_I] = 0
            ws[S_ATT_DONE] = ws[S_SKIP_ATT]
            ws[S_PHASE] = PH_THROW
            ph = PH_THROW
        if ph == PH_THROW:
            if _thrower_decision(rv, ws):
                return
            if ws[S_SKIP_ATT] != 0:  # after the any_time round the defender answers in any case
                ws[S_SKIP_ATT] = 0
                ws[S_PHASE] = PH_DEFEND
                continue
            if rv[R_TWO_PACKS] != 0:
                _end_throw_bout2(rv, ws, rec, trace, tn, tracing)
            else:
                _end_throw_bout(rv, ws, rec, trace, tn, tracing, False)


# ---- applying an answer -----------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def apply_packs(rv, ws, rec, a, trace, tn, tracing, two, checked):
    """Play answer `a` to the pending decision and advance to the next one. An illegal answer
    stops the deal with the error in `rec` and returns False. `two` (two packs, VAR-BD1) is a constant
    at every call: the answers that move cards then play out one copy (RUL-83), and the branch not taken
    is compiled away, so one pack pays nothing for two. `checked` (a constant too): test the answer with
    option_ok first; only an engine whose strategies are all the library's, which answer from the legal
    mask the core computed, leaves it out."""
    kind = ws[O_KIND]
    seat = ws[O_ACTOR]
    if kind < 0:
        return False
    if two:
        ws[O_HAND2] = ws[S_HANDS2 + seat]  # the attack's twin test reads the actor's twins
    if checked and not option_ok(ws, kind, ws[S_LEGAL], a):
        fail(ws, rec, seat, kind, a)
        return False
    if rv[R_BOUT_RULE] != 0:  # chain beating: `advance` plays the answer (sim/core/chain.py)
        ws[S_CHAIN_ANSWER] = a
        ws[S_PHASE] = PH_CHAIN_ANSWER
    elif kind == K_ATTACK:
        if two:
            _apply_attack2(rv, ws, seat, a, trace, tn, tracing)
        else:
            _apply_attack(rv, ws, seat, a, trace, tn, tracing)
    elif kind == K_COVER:
        _apply_cover(rv, ws, rec, seat, a, trace, tn, tracing, two)
    elif kind == K_THROW_IN:
        if a == NO_CARD:
            if tracing:
                emit(trace, tn, T_PASS, seat, 0, 0)
            if ws[S_THROW_I] == 0:
                ws[S_ATT_DONE] = 1
            ws[S_THROW_I] += 1
        else:
            if two:
                _play_out2(ws, seat, a)
            else:
                _play_out(ws, seat, a)
            _table_add(ws, a, seat)
            if tracing:
                emit(trace, tn, T_THROW_IN, seat, a, 0)
            ws[S_SKIP_ATT] = 0
            ws[S_PHASE] = PH_DEFEND
    elif kind == K_TRANSFER:
        if rv[R_MODE] == MODE_PEREVODNOY:  # asked only there: with the rules compiled in, no other family has it
            _apply_transfer(rv, ws, rec, seat, a, trace, tn, tracing, two)
    elif kind == K_SWAP:
        if rv[R_VARIANT_ANY] != 0 and rv[R_POKER] != 0:  # asked only with poker_swap (VAR-PO1)
            _apply_swap(rv, ws, seat, a, trace, tn, tracing)
    else:
        if a == 1:
            six = ws[O_TRUMP_SUIT]
            tend = ws[S_TEND] - ws[O_TRUMP_UNDER]
            tc = ws[S_TALON + tend - 1]
            _set_hand(ws, seat, (ws[S_HANDS + seat] & ~(ONE << six)) | (ONE << tc))
            ws[O_KNOWN + seat] = (ws[O_KNOWN + seat] & ~(ONE << six)) | (ONE << tc)
            ws[S_TALON + tend - 1] = six
            ws[S_TALON_MASK] = (ws[S_TALON_MASK] & ~(ONE << tc)) | (ONE << six)
            ws[O_TRUMP_CARD] = six
            rec[F_EXCHANGE_SEAT] = seat
            if tracing:
                emit(trace, tn, T_EXCHANGE, seat, six, tc)
        ws[S_PHASE] = PH_LEAD
    advance(rv, ws, rec, trace, tn, tracing)
    return True


@njit(cache=True, _nrt=False, inline="always")
def apply(rv, ws, rec, a, trace, tn, tracing):
    """`apply_packs` with one pack: the batch engine's hot loop (two-pack deals have a loop of their own)."""
    return apply_packs(rv, ws, rec, a, trace, tn, tracing, False, True)


@njit(cache=True, _nrt=False)
def apply_one(rv, ws, rec, a, trace, tn, tracing):
    """`apply_packs` for one pack, checked, as a call: compiled and cached once here, so that an engine holding a
    user's strategy (sim.core.dispatch) recompiles only its loop and the strategies after an edit, not the rules
    too (about a third of an edit-and-run). A call per decision costs such an engine about a tenth of its speed;
    the library's engines inline `apply_packs` instead."""
    return apply_packs(rv, ws, rec, a, trace, tn, tracing, False, True)


@njit(cache=True, _nrt=False)
def apply_two(rv, ws, rec, a, trace, tn, tracing):
    """`apply_one` for two packs (VAR-BD1)."""
    return apply_packs(rv, ws, rec, a, trace, tn, tracing, True, True)


@njit(cache=True, _nrt=False)
def apply_any(rv, ws, rec, a, trace, tn, tracing):
    """`apply_packs` for every rule set, one pack or two (VAR-BD1): for the drivers that may meet either
    (the machine, hints, rollout)."""
    if rv[R_TWO_PACKS] != 0:
        return apply_packs(rv, ws, rec, a, trace, tn, tracing, True, True)
    return apply_packs(rv, ws, rec, a, trace, tn, tracing, False, True)


@njit(cache=True, _nrt=False, inline="always")
def _apply_attack(rv, ws, att, a, trace, tn, tracing):
    from_talon = 0
    if a == FROM_TALON:  # RUL-45: the top card of the talon, led blind (never the face-up trump card)
        tp = ws[S_TP]
        c = ws[S_TALON + tp]
        ws[S_TP] = tp + 1
        ws[S_TALON_MASK] &= ~(ONE << c)
        ws[O_TALON] = ws[S_TEND] - tp - 1
        a = ONE << c
        from_talon = 1
    ws[S_LEAD_MASK] = a
    m = a
    k = 0
    while m:
        _table_add(ws, lowest(m), att)
        m &= m - 1
        k += 1
    if from_talon == 0:
        _set_hand(ws, att, ws[S_HANDS + att] & ~a)
        ws[O_KNOWN + att] &= ~a
    if tracing:
        emit(trace, tn, T_ATTACK, att, a, from_talon)
    if rv[R_MODE] == MODE_PROSTOY:
        if rv[R_ATT_DRAW_NOW] != 0:
            _refill(rv, ws, att)
        ws[S_P_K] = k
        ws[S_P_COVERED] = 0
        ws[S_P_USED] = 0
        ws[S_P_ALLCOV] = 1
        ws[S_NCOV] = 0
        ws[S_PHASE] = PH_PCOVER
    else:
        ws[S_SKIP_ATT] = 1 if rv[R_THROW_TIMING] == TIMING_ANY_TIME else 0
        ws[S_PHASE] = PH_DEFEND


@njit(cache=True, _nrt=False)
def _apply_cover(rv, ws, rec, dfn, a, trace, tn, tracing, two):
    if rv[R_MODE] == MODE_PROSTOY:
        i = ws[S_NCOV]
        if a == NO_CARD:
            ws[S_P_ALLCOV] = 0
            ws[S_NCOV] = i + 1 if rv[R_PARTIAL] != 0 else ws[S_P_K]  # take-all: nothing more is asked
            return
        ws[O_TABLE_COV + i] = a
        ws[O_TABLE_MASK] |= ONE << a
        _play_out(ws, dfn, a)
        ws[S_P_COVERED] |= ONE << ws[O_TABLE_ATT + i]
        ws[S_P_USED] |= ONE << a
        ws[S_NCOV] = i + 1
        return
    if a == NO_CARD:
        ws[O_TAKING] = 1
        if tracing:
            emit(trace, tn, T_TAKE, dfn, 0, 0)
        return
    tgt = ws[S_NCOV]
    if two:
        _play_out2(ws, dfn, a)
    else:
        _play_out(ws, dfn, a)
    ws[O_TABLE_COV + tgt] = a
    ws[O_TABLE_MASK] |= ONE << a
    ws[S_NCOV] = tgt + 1
    if rv[R_SCORING_RULE] != 0:  # VAR-OC1 / RUL-60: every cover beats a card, whatever the bout's end
        ws[O_POINTS + dfn] += 1
    if tracing:
        emit(trace, tn, T_COVER, dfn, ws[O_TABLE_ATT + tgt], a)


@njit(cache=True, _nrt=False)
def _apply_transfer(rv, ws, rec, dfn, a, trace, tn, tracing, two):
    ws[O_SHOW_LEGAL] = 0
    if a == NO_CARD:
        ws[S_DECLINED] = 1
        return
    n = rv[R_NPLAYERS]
    nd = next_opponent(ws, ws[O_OUT], dfn, n)
    if a >= SHOW:
        c = a - SHOW
        # RUL-19: with both house rules on, a show counts as pokaznoy first (each card once per bout)
        # and uses up the proezdnoy right only when pokaznoy does not allow it
        if rv[R_POKAZNOY] == 0 or (ws[S_SHOWN_BOUT] >> c) & 1:
            ws[S_SHOWN_GAME] |= ONE << c
            ws[S_SHOWED] |= ONE << dfn
        ws[S_SHOWN_BOUT] |= ONE << c
        ws[O_KNOWN + dfn] |= ONE << c
        if tracing:
            emit(trace, tn, T_SHOW, dfn, c, nd)
    else:
        if two:
            _play_out2(ws, dfn, a)  # one copy (RUL-83)
        else:
            _play_out(ws, dfn, a)
        _table_add(ws, a, dfn)
        if tracing:
            emit(trace, tn, T_TRANSFER, dfn, a, nd)
    rec[F_TRANSFERS] += 1
    ws[O_ATTACKER] = dfn
    ws[O_DEFENDER] = nd
    limit = ws[S_BASE_LIMIT]
    if ws[O_HAND_SIZE + nd] < limit:
        limit = ws[O_HAND_SIZE + nd]
    ws[O_LIMIT] = limit


# ---- VAR-PO1 poker_swap (RUL-55..59) --------------------------------------------------------
@njit(cache=True, _nrt=False)
def _poker_ask(rv, ws):
    """RUL-55/58: offer the defender the swap before a cover decision: once per bout per defender
    (first_cover; simple durak's one-move defence always so), or before every cover decision (every_cover),
    while he holds 1..6 cards and the talon has a face-down card (two with exactly_two). True when asked."""
    dfn = ws[O_DEFENDER]
    k = ws[O_HAND_SIZE + dfn]
    need = 2 if rv[R_POKER_EXACT] != 0 else 1
    if k > 6 or k < need or swap_cap(ws) < need:
        return False
    key = 1 + ws[O_BOUT] * 16
    if rv[R_POKER_EVERY] != 0 and rv[R_MODE] != MODE_PROSTOY:
        key += ws[S_NCOV]
    if ws[O_POKER_KEY] != key:
        ws[O_POKER_KEY] = key
        ws[O_POKER_OFFERED] = 0
    if (ws[O_POKER_OFFERED] >> dfn) & 1:
        return False
    ws[O_POKER_OFFERED] |= ONE << dfn
    ws[S_PHASE] = PH_SWAP
    _ask(ws, dfn, K_SWAP, ws[S_HANDS + dfn])
    return True


@njit(cache=True, _nrt=False)
def _apply_swap(rv, ws, seat, a, trace, tn, tracing):
    """RUL-57..59: the defender gives the cards of `a` and takes as many from the top of the talon; his
    go face down under the talon, above the face-up trump card, lowest first. Nobody sees them, so what
    the table knew of his hand is forgotten (O_KNOWN)."""
    taken = np.int64(0)
    if a != 0:
        tp = ws[S_TP]
        tend = ws[S_TEND]
        trump_in = ws[O_TRUMP_IN_TALON]
        tc = ws[S_TALON + tend - 1]
        k = popcount(a)
        for i in range(k):
            taken |= ONE << ws[S_TALON + tp + i]
        j = talon_from(ws, tp + k, tend - trump_in, a)
        if trump_in != 0:
            ws[S_TALON + j] = tc
            j += 1
        ws[S_TP] = 0
        ws[S_TEND] = j
        ws[S_TALON_MASK] = (ws[S_TALON_MASK] & ~taken) | a
        _set_hand(ws, seat, (ws[S_HANDS + seat] & ~a) | taken)
        ws[O_KNOWN + seat] = 0
    if tracing:
        emit(trace, tn, T_SWAP, seat, a, taken)
    ws[S_PHASE] = PH_PCOVER if rv[R_MODE] == MODE_PROSTOY else PH_DEFEND


# ---- the end of a bout ----------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _end_prostoy_bout(rv, ws, rec, trace, tn, tracing):
    """RUL-11..13: covered pairs go to the discard, the rest is taken; both draw."""
    dfn = ws[O_DEFENDER]
    att = ws[O_ATTACKER]
    k = ws[S_P_K]
    covered = ws[S_P_COVERED]
    used = ws[S_P_USED]
    if ws[S_P_ALLCOV] == 0 and rv[R_PARTIAL] == 0:
        # RUL-12 take-all: covers come back (everybody has seen them), the defender takes the attack;
        # their table slots are cleared so no view shows a cover that is back in his hand
        _set_hand(ws, dfn, ws[S_HANDS + dfn] | used)
        ws[O_KNOWN + dfn] |= used
        ws[O_TABLE_MASK] &= ~used
        for i in range(k):
            ws[O_TABLE_COV + i] = -1
        covered = np.int64(0)
        used = np.int64(0)
    take = ws[S_LEAD_MASK] & ~covered
    tp0 = ws[S_TP]
    if tracing:
        for i in range(k):
            if (covered >> ws[O_TABLE_ATT + i]) & 1:
                emit(trace, tn, T_DEFEND, dfn, ws[O_TABLE_ATT + i], ws[O_TABLE_COV + i])
        emit(trace, tn, T_DEFEND, dfn, -1, take)
    taking = take != 0
    if taking:
        _set_hand(ws, dfn, ws[S_HANDS + dfn] | take)
        ws[O_KNOWN + dfn] |= take
        rec[F_TAKEN + dfn] += popcount(take)
    if rv[R_SCORING_RULE] != 0:
        # RUL-60: the pairs that stand go to the discard; a take-all defence beat nothing (RUL-12)
        ws[O_POINTS + dfn] += popcount(covered)
        if taking:  # RUL-61: the attack is all the attacker's
            for r in range(9):
                if popcount(take & RANK_MASKS[r]) == 2:
                    _credit_pogon(ws, dfn, att, r)
    if covered:
        _to_discard(rv, ws, covered | used, trace, tn, tracing)
    ws[O_TABLE_MASK] = 0
    if rv[R_ATT_DRAW_NOW] == 0:
        _refill(rv, ws, att)
    _refill(rv, ws, dfn)
    ws[O_QUIET] = 0 if covered or ws[S_TP] != tp0 else ws[O_QUIET] + 1
    _end_bout(rv, ws, rec, taking)


# ---- views ------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def observe(ws, seat, obs):
    """Write what `seat` may know into `obs` (a buffer the caller owns): the public prefix and its hand."""
    for i in range(O_SIZE):
        obs[i] = ws[i]
    obs[O_SEAT] = seat
    obs[O_HAND] = ws[S_HANDS + seat]
    obs[O_HAND2] = ws[S_HANDS2 + seat]


@njit(cache=True, _nrt=False)
def sample_hidden(obs, rng, ws):
    """Complete one seat's observation into a full state: the cards that seat cannot see dealt at
    random to the other hands (beside the cards everybody saw them take or show) and to the talon
    (the face-up trump card stays last), uniformly among the deals consistent with what it saw.
    The state rests at the observation's pending decision. Returns False when no deal fits."""
    if obs[O_RULES + R_TWO_PACKS] != 0:
        return _sample_hidden2(obs, rng, ws)
    for i in range(O_SIZE):
        ws[i] = obs[i]
    me = obs[O_SEAT]
    n = obs[O_N]
    hand = obs[O_HAND]
    unseen = FULL & ~hand & ~obs[O_DISCARD] & ~obs[O_TABLE_MASK]
    trump_in = obs[O_TRUMP_IN_TALON] != 0
    tc = obs[O_TRUMP_CARD]
    if trump_in:
        unseen &= ~(ONE << tc)
    unseen &= ~obs[O_REMOVED_KNOWN]
    for s in range(n):
        if s != me:
            unseen &= ~obs[O_KNOWN + s]
    for s in range(6):
        ws[S_HANDS + s] = 0
    ws[S_HANDS + me] = hand
    for s in range(n):
        if s == me:
            continue
        h = obs[O_KNOWN + s]
        for _ in range(obs[O_HAND_SIZE + s] - popcount(h)):
            if unseen == 0:
                return False
            c = random_card(rng, unseen)
            h |= ONE << c
            unseen &= ~(ONE << c)
        ws[S_HANDS + s] = h
    rem = obs[O_REMOVED_KNOWN]
    for _ in range(obs[O_REMOVED] - popcount(rem)):  # cards out of play face down (VAR-CH1, VAR-NA1)
        if unseen == 0:
            return False
        c = random_card(rng, unseen)
        rem |= ONE << c
        unseen &= ~(ONE << c)
    ws[S_REMOVED] = rem
    if popcount(unseen) != obs[O_TALON] - (1 if trump_in else 0):
        return False
    k = 0
    tm = np.int64(0)
    while unseen:
        c = random_card(rng, unseen)
        unseen &= ~(ONE << c)
        ws[S_TALON + k] = c
        tm |= ONE << c
        k += 1
    if obs[O_RULES + R_ALBANIAN] != 0:
        _sort_talon(ws, 0, k)  # VAR-AL1: the face-down talon lies sorted, equal ranks in random order
    if trump_in:
        if obs[O_TRUMP_UNDER] != 0 and k > 0:  # VAR-SM1: a hidden card lies under the face-up one
            ws[S_TALON + k] = ws[S_TALON + k - 1]
            ws[S_TALON + k - 1] = tc
        else:
            ws[S_TALON + k] = tc
        tm |= ONE << tc
        k += 1
    ws[S_TP] = 0
    ws[S_TEND] = k
    ws[S_TALON_MASK] = tm
    if obs[O_RULES + R_OTBOYNY] != 0:
        ws[S_OT_RNG] = np.int64(rng_next(rng))  # VAR-OT1: future shuffles are unknown too
    _rest_at_decision(ws)
    return True


@njit(cache=True, _nrt=False)
def _rest_at_decision(ws):
    """Recompute the pending decision's legal mask from the (new) hands."""
    rv = ws[O_RULES:O_RULES + R_SIZE]
    ph = ws[S_PHASE]
    if rv[R_BOUT_RULE] != 0:
        chain.chain_rest(rv, ws)
    elif ph == PH_EXCHANGE:
        ws[S_LEGAL] = ONE
    elif ph == PH_SWAP:
        ws[S_LEGAL] = ws[S_HANDS + ws[O_DEFENDER]]
    elif ph == PH_LEAD:
        _ask_lead(rv, ws)
    elif ph == PH_PCOVER:
        dfn = ws[O_DEFENDER]
        i = ws[S_NCOV]
        ws[S_LEGAL] = cover_options_for(ws, ws[O_TABLE_ATT + i], ws[S_HANDS + dfn], dfn)
    elif ph == PH_DEFEND:
        _defender_decision(rv, ws)
    elif ph == PH_THROW:
        _thrower_decision(rv, ws)


@njit(cache=True, _nrt=False)
def new_state():
    return np.zeros(STATE_SIZE, dtype=np.int64)


@njit(cache=True, _nrt=False)
def record_holders(ws, rec, n):
    """Who was dealt the six and the ace of trumps (-1: the face-up card)."""
    rec[F_SIX_HOLDER] = -1
    rec[F_ACE_HOLDER] = -1
    if ws[O_TRUMP_SUIT] < 0:  # no trump suit (VAR-NT1, RUL-30)
        return
    for s in range(n):
        if (ws[S_HANDS + s] >> ws[O_TRUMP_SUIT]) & 1:
            rec[F_SIX_HOLDER] = s
        if (ws[S_HANDS + s] >> (32 + ws[O_TRUMP_SUIT])) & 1:
            rec[F_ACE_HOLDER] = s


@njit(cache=True, _nrt=False)
def next_dealer(rv, rec, dealer):
    """RUL-8: the fool deals next; after a draw the same dealer. In a team game, ``loser`` (000: the last
    with cards deals): the first member of the losing team still holding cards, clockwise from the dealer;
    ``team_any_loser`` (rozaliev): the first member of the losing team, out or not, clockwise from the dealer."""
    n = rv[R_NPLAYERS]
    lt = rec[F_LOSING_TEAM]
    if lt >= 0:
        if rec[F_FOOL] >= 0 and rv[R_N_TEAMS] == n:
            return rec[F_FOOL]
        for i in range(n):
            s = (dealer + i) % n
            # F_PLACE n marks a seat still holding cards at the end (RUL-21)
            if rv[R_TEAM0 + s] == lt and (rv[R_NEXT_DEALER_TEAM] or rec[F_PLACE + s] == n):
                return s
    return dealer


# ---- two packs (VAR-BD1, RUL-80..86): twin masks beside the card masks, self-contained ---------------


@njit(cache=True, _nrt=False)
def _play_out2(ws, s, c):
    """One copy of c leaves seat s's hand; everybody's knowledge of that hand loses one copy of c (the
    copies are identical, so a known copy may be the one played)."""
    m1, m2 = multi_remove(ws[S_HANDS + s], ws[S_HANDS2 + s], c)
    _set_hand2(ws, s, m1, m2)
    k1, k2 = multi_remove(ws[O_KNOWN + s], ws[O_KNOWN2 + s], c)
    ws[O_KNOWN + s] = k1
    ws[O_KNOWN2 + s] = k2


@njit(cache=True, _nrt=False)
def _deal_two_packs(rv, drng, ws, dealer):
    """RUL-81: shuffle the 72 cards, deal hand_size each one at a time from the dealer's left, turn the next
    card for trump under the talon. Returns the trump card."""
    n = rv[R_NPLAYERS]
    _shuffle(drng, ws, 72)
    for s in range(6):
        ws[S_HANDS + s] = 0
        ws[S_HANDS2 + s] = 0
        ws[O_HAND_SIZE + s] = 0
        ws[O_KNOWN + s] = 0
        ws[O_KNOWN2 + s] = 0
    total = n * rv[R_HAND]
    s = dealer
    for i in range(total):
        s += 1
        if s == n:
            s = 0
        _gain2(ws, s, ws[S_DECK + i], False)
    tc = ws[S_DECK + total]
    t1 = np.int64(0)
    t2 = np.int64(0)
    k = 0
    for i in range(total + 1, 72):
        c = ws[S_DECK + i]
        ws[S_TALON + k] = c
        t1, t2 = multi_add(t1, t2, c)
        k += 1
    ws[S_TALON + k] = tc
    t1, t2 = multi_add(t1, t2, tc)
    ws[S_TP] = 0
    ws[S_TEND] = k + 1
    ws[S_TALON_MASK] = t1
    ws[S_TALON_MASK2] = t2
    ws[O_TALON] = k + 1
    ws[O_TRUMP_IN_TALON] = 1
    ws[O_DISCARD2] = 0
    ws[O_HAND2] = 0
    ws[S_REMOVED] = 0
    ws[O_REMOVED] = 0
    ws[O_REMOVED_KNOWN] = 0
    return tc


@njit(cache=True, _nrt=False)
def _lowest_trump2(rv, ws, dealer):
    """RUL-84: the lowest trump leads; both copies of it dealt to two players: the first of them clockwise
    from the dealer's left. Nobody with a trump: no_trump_in_hands_fallback (the lowest card, same tie rule)."""
    n = rv[R_NPLAYERS]
    trump = ws[O_TRUMP_SUIT]
    for pool in range(2):
        best = 99
        who = -1
        for i in range(n):
            s = (dealer + 1 + i) % n
            h = ws[S_HANDS + s]
            if pool == 0:
                h &= NIBBLE_LOW << trump
            if h:
                c = lowest(h)
                if c < best:
                    best = c
                    who = s
        if who >= 0:
            return who
        if rv[R_FALLBACK_LOWEST_CARD] == 0:
            break
    return (dealer + 1) % n


@njit(cache=True, _nrt=False)
def _apply_attack2(rv, ws, att, a, trace, tn, tracing):
    """A lead with two packs (RUL-83): the cards of the mask once each, then the twins its bits
    TWIN_LEAD.. name, in that order on the table."""
    kinds, twins = twin_lead_cards(a)
    ws[S_LEAD_MASK] = a
    for part in range(2):
        m = kinds if part == 0 else twins
        while m:
            c = lowest(m)
            _table_add(ws, c, att)
            _play_out2(ws, att, c)
            m &= m - 1
    if tracing:
        emit(trace, tn, T_ATTACK, att, a, 0)
    ws[S_SKIP_ATT] = 1 if rv[R_THROW_TIMING] == TIMING_ANY_TIME else 0
    ws[S_PHASE] = PH_DEFEND


@njit(cache=True, _nrt=False)
def _end_throw_bout2(rv, ws, rec, trace, tn, tracing):
    """`_end_throw_bout` with two packs, compiled apart so that the one-pack `advance` stays as small."""
    _end_throw_bout(rv, ws, rec, trace, tn, tracing, True)


@njit(cache=True, _nrt=False)
def _pick_copy(rng, u1, u2):
    """A uniformly chosen copy of the multiset (u1, u2) (-1 when empty)."""
    k1 = popcount(u1)
    k = rng_below(rng, k1 + popcount(u2))
    m = u1 if k < k1 else u2
    if k >= k1:
        k -= k1
    for _ in range(k):
        m &= m - 1
    return lowest(m) if m else -1


@njit(cache=True, _nrt=False)
def _sample_hidden2(obs, rng, ws):
    """sample_hidden with two packs: the unseen copies (two of every card less those the seat sees: its
    hand, the discard, the table, the face-up trump card and the copies seen in other hands) dealt at random."""
    for i in range(O_SIZE):
        ws[i] = obs[i]
    me = obs[O_SEAT]
    n = obs[O_N]
    # the seen copies, counted per card in (c0, c1)
    c0 = np.int64(0)
    c1 = np.int64(0)
    ov = np.int64(0)
    for m in (obs[O_HAND], obs[O_HAND2], obs[O_DISCARD], obs[O_DISCARD2]):
        c0, c1, ov = _count_in(c0, c1, ov, m)
    c0, c1, ov = _count_table(c0, c1, ov, obs)
    trump_in = obs[O_TRUMP_IN_TALON] != 0
    tc = obs[O_TRUMP_CARD]
    if trump_in:
        c0, c1, ov = _count_in(c0, c1, ov, ONE << tc)
    for s in range(n):
        if s != me:
            c0, c1, ov = _count_in(c0, c1, ov, obs[O_KNOWN + s])
            c0, c1, ov = _count_in(c0, c1, ov, obs[O_KNOWN2 + s])
    if ov != 0 or (c1 & c0) != 0:
        return False
    # unseen copies: 2 - seen: none seen -> both (u1, u2); one seen -> u1 only
    u1 = FULL & ~c1
    u2 = FULL & ~c1 & ~c0
    for s in range(6):
        ws[S_HANDS + s] = 0
        ws[S_HANDS2 + s] = 0
    ws[S_HANDS + me] = obs[O_HAND]
    ws[S_HANDS2 + me] = obs[O_HAND2]
    for s in range(n):
        if s == me:
            continue
        h1 = obs[O_KNOWN + s]
        h2 = obs[O_KNOWN2 + s]
        for _ in range(obs[O_HAND_SIZE + s] - popcount(h1) - popcount(h2)):
            c = _pick_copy(rng, u1, u2)
            if c < 0:
                return False
            u1, u2 = multi_remove(u1, u2, c)
            h1, h2 = multi_add(h1, h2, c)
        ws[S_HANDS + s] = h1
        ws[S_HANDS2 + s] = h2
    ws[S_REMOVED] = 0
    if popcount(u1) + popcount(u2) != obs[O_TALON] - (1 if trump_in else 0):
        return False
    k = 0
    t1 = np.int64(0)
    t2 = np.int64(0)
    while u1:
        c = _pick_copy(rng, u1, u2)
        u1, u2 = multi_remove(u1, u2, c)
        ws[S_TALON + k] = c
        t1, t2 = multi_add(t1, t2, c)
        k += 1
    if trump_in:
        ws[S_TALON + k] = tc
        t1, t2 = multi_add(t1, t2, tc)
        k += 1
    ws[S_TP] = 0
    ws[S_TEND] = k
    ws[S_TALON_MASK] = t1
    ws[S_TALON_MASK2] = t2
    _rest_at_decision(ws)
    return True


