"""What the learned player sees of a decision: the options it weighs and the features of each (not a strategy).

`options` lists the answers weighed at a decision, in the order search lists its candidates (the heuristic's own
answer first; covers, throw-ins and transfers: take / pass, every legal card, every show; leads: singles lowest first,
then same-rank sets or simple durak's pair + card sets, at most `cap`). `position` writes the features of the position
(shared by every option: the talon, hand sizes, trumps held and unseen, the family, the decision kind, the seat's role)
and `option` those of one answer (cards played and what they cost, what is picked up, what the hand keeps, the chance
the defender cannot beat a card led or thrown in, whether it is the heuristic's answer). Both read the observation only.
Nothing allocates: buffers are the caller's (sim.core.lib's `stack_i64` / `stack_f64`, arrays on its stack).
"""
import numpy as np
from numba import njit

from sim.core.layout import (
    K_ATTACK, K_COVER, K_EXCHANGE, K_SWAP, K_THROW_IN, K_TRANSFER, NO_CARD, O_ATTACKER, O_COVER_TARGET, O_DEFENDER,
    O_FIRST_BOUT, O_HAND, O_HAND_SIZE, O_KNOWN, O_N, O_NTABLE, O_OUT, O_RULES, O_SEAT,
    O_SHOW_LEGAL, O_TABLE_ATT, O_TABLE_MASK, O_TAKING, O_TALON, O_TEAM, O_TRUMP_CARD, SHOW,
)
from sim.core.lib import (
    FULL, RANK_MASKS, attack_ok, beaters_for, lowest, popcount, same_rank_cards, swap_ok, trump_mask,
)
from sim.core.rules import MODE_PEREVODNOY, MODE_PODKIDNOY, MODE_PROSTOY, R_MODE, R_PARTIAL, R_VARIANT_ANY
from strategies._lib import is_endgame2, p_cannot_beat, unseen

POSITION = ("talon", "talon_empty", "hand", "active", "two_left", "prostoy", "podkidnoy", "perevodnoy", "partial",
            "defender_hand", "fewest_other", "my_trumps", "unseen_trumps", "taking", "table", "k_attack", "k_cover",
            "k_throw_in", "k_transfer", "k_exchange", "k_swap", "unseen", "mean_rank", "first_bout", "teams",
            "defender_mine", "i_attack", "variant", "trump_card_rank", "talon_odd", "opp_known", "opp_known_trumps",
            "my_pairs", "hand_lead", "my_unbeatable", "unseen_high_trumps")
OPTION = ("none", "heuristic", "cards", "low_rank", "high_rank", "trumps_played", "top_trump", "show", "hand_after",
          "trumps_after", "pickup", "pickup_trumps", "pickup_rank", "cover_rank", "trump_on_plain", "unbeatable",
          "rank_on_table", "kept_of_rank", "unseen_of_rank", "lowest_after", "low_after", "out_after", "strength_after",
          "exchange", "trump_ace", "pairs_after", "high_trumps_after", "exposure", "opp_beats_known", "lead_after",
          "unbeatable_after", "given_trumps", "threat_after", "ranks_after")
NP = len(POSITION)
NO = len(OPTION)
NF = NP + NO
MAXC = 96  # at most this many options (search's MAXC)



@njit(_nrt=False)
def add_option(cands, nc, a):
    for j in range(nc):
        if cands[j] == a:
            return nc
    if nc < cands.shape[0]:
        cands[nc] = a
        nc += 1
    return nc


@njit(_nrt=False, inline="always")
def lowest_pair(hand, r):
    """The two lowest cards of rank r in hand (0 if fewer than two)."""
    s = hand & RANK_MASKS[r]
    if popcount(s) < 2:
        return np.int64(0)
    p = np.int64(1) << lowest(s)
    return p | (np.int64(1) << lowest(s & ~p))


@njit(_nrt=False)
def leads(obs, hand, first, cands, cap):
    nc = 0
    if first > 0:
        nc = add_option(cands, nc, first)
    m = hand
    while m and nc < cap:
        c = lowest(m)
        m &= m - 1
        if attack_ok(obs, hand, np.int64(1) << c):  # a single is not always legal (zanudny, tryoshka)
            nc = add_option(cands, nc, np.int64(1) << c)
    if nc >= cap:
        return nc
    if obs[O_RULES + R_MODE] != MODE_PROSTOY:
        for r in range(9):
            s = hand & RANK_MASKS[r]
            if popcount(s) >= 2 and attack_ok(obs, hand, s) and nc < cap:
                nc = add_option(cands, nc, s)
            if popcount(s) >= 3 and nc < cap:
                p = lowest_pair(hand, r)
                if attack_ok(obs, hand, p):
                    nc = add_option(cands, nc, p)
        return nc
    for r in range(9):  # simple durak: a pair (the two lowest of a rank) + one card, then two pairs + one card
        p = lowest_pair(hand, r)
        if p == 0:
            continue
        rest = hand & ~p
        while rest and nc < cap:
            c = lowest(rest)
            rest &= rest - 1
            if attack_ok(obs, hand, p | (np.int64(1) << c)):
                nc = add_option(cands, nc, p | (np.int64(1) << c))
    for r in range(9):
        p = lowest_pair(hand, r)
        if p == 0:
            continue
        for r2 in range(r + 1, 9):
            q = lowest_pair(hand, r2)
            if q == 0:
                continue
            rest = hand & ~p & ~q
            while rest and nc < cap:
                c = lowest(rest)
                rest &= rest - 1
                if attack_ok(obs, hand, p | q | (np.int64(1) << c)):
                    nc = add_option(cands, nc, p | q | (np.int64(1) << c))
    return nc


@njit(_nrt=False)
def take_or_cover(cands, nc, legal):
    """Options of a cover or throw-in: take (or pass), then every legal card lowest first."""
    nc = add_option(cands, nc, np.int64(NO_CARD))
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        nc = add_option(cands, nc, np.int64(c))
    return nc


@njit(_nrt=False)
def options(obs, kind, legal, first, cands, cap):
    """The answers weighed at a decision, written to cands; returns how many (first = the heuristic's, listed first)."""
    if kind == K_ATTACK:
        return leads(obs, obs[O_HAND], first, cands, cap)
    nc = add_option(cands, 0, first)
    if kind == K_EXCHANGE:
        nc = add_option(cands, nc, np.int64(0))
        return add_option(cands, nc, np.int64(1))
    if kind == K_SWAP:  # VAR-PO1: no swap, and each lowest-first single and pair of the hand
        nc = add_option(cands, nc, np.int64(0))
        m = legal
        while m and nc < cap:
            c = lowest(m)
            m &= m - 1
            one = np.int64(1) << c
            if swap_ok(obs, legal, one):
                nc = add_option(cands, nc, one)
            if m and swap_ok(obs, legal, one | (np.int64(1) << lowest(m))):
                nc = add_option(cands, nc, one | (np.int64(1) << lowest(m)))
        return nc
    nc = take_or_cover(cands, nc, legal)
    if kind == K_TRANSFER:
        m = obs[O_SHOW_LEGAL]
        while m:
            c = lowest(m)
            m &= m - 1
            nc = add_option(cands, nc, np.int64(c + SHOW))
    return nc


@njit(_nrt=False)
def group(obs):
    """Which network plays: prostoy_5 (partial defence), prostoy_6, podkidnoy, perevodnoy; each for two players (even
    index) and for three to six (odd)."""
    mode = obs[O_RULES + R_MODE]
    f = 2 if mode == MODE_PODKIDNOY else (3 if mode == MODE_PEREVODNOY else (0 if obs[O_RULES + R_PARTIAL] else 1))
    return 2 * f + (1 if obs[O_N] > 2 else 0)


@njit(_nrt=False, inline="always")
def _ranksum(m):
    s = 0
    while m:
        s += lowest(m) >> 2
        m &= m - 1
    return s


@njit(_nrt=False, inline="always")
def _pairs(m):
    p = 0
    for r in range(9):
        if popcount(m & RANK_MASKS[r]) >= 2:
            p += 1
    return p


@njit(_nrt=False)
def opponent(obs):
    """The seat the features weigh cards against: the defender, or the attacker when I defend (-1: none)."""
    dfn = obs[O_DEFENDER]
    return dfn if dfn != obs[O_SEAT] else obs[O_ATTACKER]


@njit(_nrt=False)
def cannot_beat(obs, pc):
    """pc[c]: the chance the opponent cannot beat card c (p_cannot_beat), for every card of my hand and the table,
    once per decision (it is the same for every option); returns the mask of those he surely cannot beat."""
    seat = opponent(obs)
    if seat < 0:
        return np.int64(0)
    hidden = unseen(obs)
    sure = np.int64(0)
    m = obs[O_HAND] | obs[O_TABLE_MASK]
    while m:
        c = lowest(m)
        m &= m - 1
        pc[c] = p_cannot_beat(obs, c, seat, hidden)
        if pc[c] >= 0.999:
            sure |= np.int64(1) << c
    return sure


@njit(_nrt=False)
def position(obs, kind, x, sure):
    """The position's features into x[0:NP] (sure: cannot_beat's mask)."""
    me = obs[O_SEAT]
    n = obs[O_N]
    talon = obs[O_TALON]
    hand = obs[O_HAND]
    tm = trump_mask(obs)
    out = obs[O_OUT]
    dfn = obs[O_DEFENDER]
    hidden = unseen(obs)
    x[0] = talon / 36.0
    x[1] = 1.0 if talon == 0 else 0.0
    x[2] = popcount(hand) / 12.0
    active = n - popcount(out)
    x[3] = active / 6.0
    x[4] = 1.0 if active == 2 else 0.0
    mode = obs[O_RULES + R_MODE]
    x[5] = 1.0 if mode == MODE_PROSTOY else 0.0
    x[6] = 1.0 if mode == MODE_PODKIDNOY else 0.0
    x[7] = 1.0 if mode == MODE_PEREVODNOY else 0.0
    x[8] = 1.0 if obs[O_RULES + R_PARTIAL] != 0 else 0.0
    x[9] = obs[O_HAND_SIZE + dfn] / 12.0 if dfn >= 0 else 0.0
    few = 36
    teams = False
    for s in range(n):
        if s != me and not (out >> s) & 1 and obs[O_HAND_SIZE + s] < few:
            few = obs[O_HAND_SIZE + s]
        if s != me and obs[O_TEAM + s] == obs[O_TEAM + me]:
            teams = True
    x[10] = (few if few < 36 else 0) / 12.0
    x[11] = popcount(hand & tm) / 9.0
    x[12] = popcount(hidden & tm) / 9.0
    x[13] = 1.0 if obs[O_TAKING] != 0 else 0.0
    x[14] = obs[O_NTABLE] / 6.0
    for k in range(6):
        x[15 + k] = 1.0 if kind == k else 0.0
    x[21] = popcount(hidden) / 36.0
    nh = popcount(hand)
    x[22] = _ranksum(hand) / (8.0 * nh) if nh > 0 else 0.0
    x[23] = 1.0 if obs[O_FIRST_BOUT] != 0 else 0.0
    x[24] = 1.0 if teams else 0.0
    x[25] = 1.0 if dfn >= 0 and obs[O_TEAM + dfn] == obs[O_TEAM + me] else 0.0
    x[26] = 1.0 if obs[O_ATTACKER] == me else 0.0
    x[27] = 1.0 if obs[O_RULES + R_VARIANT_ANY] != 0 else 0.0
    x[28] = (obs[O_TRUMP_CARD] >> 2) / 8.0 if obs[O_TRUMP_CARD] >= 0 else 0.0
    x[29] = 1.0 if talon % 2 == 1 else 0.0
    known = np.int64(0)
    for s in range(n):
        if s != me:
            known |= obs[O_KNOWN + s]
    x[30] = popcount(known) / 6.0
    x[31] = popcount(known & tm) / 3.0
    x[32] = _pairs(hand) / 3.0
    x[33] = (nh - few) / 12.0 if few < 36 else 0.0
    x[34] = popcount(hand & sure) / 6.0
    x[35] = popcount(hidden & tm & (RANK_MASKS[6] | RANK_MASKS[7] | RANK_MASKS[8])) / 3.0


@njit(_nrt=False)
def option(obs, kind, legal, a, first, x, pc, sure):
    """The features of answer `a` into x[NP:NF] (first: the heuristic's answer; pc, sure: cannot_beat's)."""
    me = obs[O_SEAT]
    hand = obs[O_HAND]
    tm = trump_mask(obs)
    hidden = unseen(obs)
    dfn = obs[O_DEFENDER]
    for i in range(NP, NF):
        x[i] = 0.0
    played = np.int64(0)  # the cards this answer lays (or swaps away)
    picked = np.int64(0)  # the cards it picks up
    none = False
    show = False
    if kind == K_ATTACK:
        played = a & FULL
    elif kind == K_EXCHANGE:
        none = a == 0
        x[NP + 23] = 1.0 if a == 1 else 0.0
    elif kind == K_SWAP:
        played = a & FULL
        none = a == 0
    elif a == NO_CARD:
        none = True
        if kind == K_COVER:  # take: the table (simple durak, partial: the card answered stays uncovered)
            if obs[O_RULES + R_MODE] == MODE_PROSTOY and obs[O_RULES + R_PARTIAL] != 0:
                picked = np.int64(1) << obs[O_TABLE_ATT + obs[O_COVER_TARGET]]
            else:
                picked = obs[O_TABLE_MASK]
    elif a >= SHOW:
        show = True
        played = np.int64(0)
    else:
        played = np.int64(1) << a
    x[NP + 0] = 1.0 if none else 0.0
    x[NP + 1] = 1.0 if a == first else 0.0
    np_ = popcount(played)
    x[NP + 2] = np_ / 6.0
    if played:
        x[NP + 3] = (lowest(played) >> 2) / 8.0
        hi = 0
        m = played
        while m:
            hi = lowest(m) >> 2
            m &= m - 1
        x[NP + 4] = hi / 8.0
        pt = played & tm
        x[NP + 5] = popcount(pt) / 3.0
        if pt:
            top = 0
            m = pt
            while m:
                top = lowest(m) >> 2
                m &= m - 1
            x[NP + 6] = (top + 1) / 9.0
            x[NP + 24] = 1.0 if top == 8 else 0.0
    x[NP + 7] = 1.0 if show else 0.0
    after = (hand & ~played) | picked
    if kind == K_SWAP:
        after = hand
    x[NP + 8] = popcount(after) / 12.0
    x[NP + 9] = popcount(after & tm) / 9.0
    npk = popcount(picked)
    x[NP + 10] = npk / 12.0
    x[NP + 11] = popcount(picked & tm) / 6.0
    x[NP + 12] = _ranksum(picked) / (8.0 * npk) if npk > 0 else 0.0
    if kind == K_COVER and played:
        c = lowest(played)
        att = obs[O_TABLE_ATT + obs[O_COVER_TARGET]]
        x[NP + 13] = (c >> 2) / 8.0
        x[NP + 14] = 1.0 if (played & tm) != 0 and ((np.int64(1) << att) & tm) == 0 else 0.0
    if played and (kind == K_ATTACK or kind == K_THROW_IN) and dfn >= 0 and dfn != me:
        p = 1.0
        m = played
        while m:
            c = lowest(m)
            m &= m - 1
            p = min(p, pc[c])  # (dfn is the opponent)
        x[NP + 15] = p
    if played and kind != K_SWAP:
        c = lowest(played)
        rk = RANK_MASKS[c >> 2]
        x[NP + 16] = 1.0 if obs[O_TABLE_MASK] & rk else 0.0
        x[NP + 17] = popcount(after & rk) / 3.0
        x[NP + 18] = popcount(hidden & rk) / 3.0
    if after:
        x[NP + 19] = (lowest(after) >> 2) / 8.0
        x[NP + 20] = popcount(after & ~tm & (RANK_MASKS[0] | RANK_MASKS[1] | RANK_MASKS[2])) / 6.0
        na = popcount(after)
        x[NP + 22] = (_ranksum(after) + 9 * popcount(after & tm)) / (17.0 * na)
    else:
        x[NP + 19] = 1.0
        x[NP + 21] = 1.0
    x[NP + 25] = _pairs(after) / 3.0
    x[NP + 26] = popcount(after & tm & (RANK_MASKS[6] | RANK_MASKS[7] | RANK_MASKS[8])) / 3.0
    others = hidden
    for s in range(obs[O_N]):
        if s != me:
            others |= obs[O_KNOWN + s]
    if kind == K_COVER or kind == K_TRANSFER:  # the cards the others may still throw in on the table's ranks
        table = obs[O_TABLE_MASK] | played
        x[NP + 27] = popcount(others & same_rank_cards(table) & ~table) / 6.0
    if played and dfn >= 0 and dfn != me and (kind == K_ATTACK or kind == K_THROW_IN):
        c = lowest(played)
        x[NP + 28] = 1.0 if beaters_for(obs, c, dfn) & obs[O_KNOWN + dfn] else 0.0
        x[NP + 31] = popcount(played & tm) / 3.0 if obs[O_TAKING] != 0 else 0.0
    few = 36
    for s in range(obs[O_N]):
        if s != me and not (obs[O_OUT] >> s) & 1 and obs[O_HAND_SIZE + s] < few:
            few = obs[O_HAND_SIZE + s]
    x[NP + 29] = (popcount(after) - few) / 12.0 if few < 36 else 0.0
    opp = dfn if dfn != me else obs[O_ATTACKER]
    x[NP + 30] = popcount(after & sure) / 6.0 if kind != K_SWAP and opp >= 0 else 0.0
    if opp >= 0 and kind != K_SWAP:  # the opponent's cards this hand could not beat: known ones, and every unseen
        theirs = obs[O_KNOWN + opp]  # card once two are left and the talon is empty (then his hand is all of them,
        if is_endgame2(obs):  # unless cards went out of play unseen)
            theirs |= hidden
        k = 0
        m = theirs
        while m:
            c = lowest(m)
            m &= m - 1
            if beaters_for(obs, c, me) & after == 0:
                k += 1
        x[NP + 32] = k / 6.0
    r = 0
    for q in range(9):
        if after & RANK_MASKS[q]:
            r += 1
    x[NP + 33] = r / 6.0
