"""random: a uniformly random legal choice at every decision.

Reaches the odd corners of the rules, which is why the referee replays its games. For a
simple-durak set it draws the set size uniformly among the legal sizes, then a random
pair (or two) and random filler cards; every other decision is uniform over the legal
options including take / pass / no transfer (and the poker swap, VAR-PO1, uniform over its legal masks).
"""
import numpy as np
from numba import njit

from sim.core.lib import (
    FROM_TALON, NO_CARD, O_HAND, swap_ok, O_LIMIT, O_RULES, O_SHOW_LEGAL, RANK_MASKS, SHOW, attack_ok, bit, lowest,
    popcount, random_card, rng_below, talon_lead_ok, tryoshka_size, zanudny_cards,
)
from sim.core.rules import (
    LEAD_TRYOSHKA, LEAD_ZANUDNY, MODE_PROSTOY, R_LEAD_RULE, R_MODE, R_SETS_SINGLE_OR_PAIR, R_TRYOSHKA_SAME_RANK,
    R_TWO_PAIR_SIZE, R_VARIANT_ANY,
)

NAME = "random"
DESCRIPTION = "Uniformly random legal move at every decision (the floor any strategy must beat)."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {}


@njit(cache=True, _nrt=False)
def _random_pair(rng, hand):
    """Two random cards of one rank, uniformly over all such pairs in hand."""
    total = 0
    for r in range(9):
        k = popcount(hand & RANK_MASKS[r])
        total += k * (k - 1) // 2
    if total == 0:
        return np.int64(0)
    pick = rng_below(rng, total)
    for r in range(9):
        m = hand & RANK_MASKS[r]
        k = popcount(m)
        p = k * (k - 1) // 2
        if pick < p:
            a = random_card(rng, m)
            b = random_card(rng, m & ~bit(a))
            return bit(a) | bit(b)
        pick -= p
    return np.int64(0)


@njit(cache=True, _nrt=False)
def _prostoy_attack(obs, hand, rng):
    cap = obs[O_LIMIT]
    rules = O_RULES
    n = popcount(hand)
    two = obs[rules + R_TWO_PAIR_SIZE]
    pairs = 0
    for r in range(9):
        pairs += popcount(hand & RANK_MASKS[r]) // 2
    # the legal set sizes: 1, then 2 (single_or_pair) or 3 and the two-pair size
    ns = 1
    s2 = 0
    s3 = 0
    if obs[rules + R_SETS_SINGLE_OR_PAIR]:
        if pairs >= 1 and cap >= 2:
            s2 = 2
            ns += 1
    else:
        if pairs >= 1 and cap >= 3 and n >= 3:
            s2 = 3
            ns += 1
        if pairs >= 2 and cap >= two and n >= two:
            s3 = two
            ns += 1
    pick = rng_below(rng, ns)
    k = 1 if pick == 0 else (s2 if (pick == 1 and s2 > 0) else s3)
    if k == 1:
        return bit(random_card(rng, hand))
    s = _random_pair(rng, hand)
    if k == two and k > 3:
        s |= _random_pair(rng, hand & ~s)
    while popcount(s) < k:
        s |= bit(random_card(rng, hand & ~s))
    return s


@njit(cache=True, _nrt=False)
def _random_k(rng, pool, k):
    """k random cards of pool."""
    s = np.int64(0)
    while popcount(s) < k and pool & ~s:
        s |= bit(random_card(rng, pool & ~s))
    return s


@njit(cache=True, _nrt=False)
def _variant_attack(obs, hand, rng):
    """A random lead under the §6 lead modifiers (0: none applies, play the family's own lead)."""
    if talon_lead_ok(obs) and rng_below(rng, 4) == 0:  # armenian: the top talon card, one time in four
        return np.int64(FROM_TALON)
    rule = obs[O_RULES + R_LEAD_RULE]
    if rule == LEAD_TRYOSHKA:
        k = tryoshka_size(obs, hand)
        if obs[O_RULES + R_TRYOSHKA_SAME_RANK] == 0:
            return _random_k(rng, hand, k)
        ranks = np.int64(0)
        for r in range(9):
            if popcount(hand & RANK_MASKS[r]) >= k:
                ranks |= bit(r)
        return _random_k(rng, hand & RANK_MASKS[random_card(rng, ranks)], k)
    if rule == LEAD_ZANUDNY and obs[O_RULES + R_MODE] == MODE_PROSTOY:
        for _ in range(16):
            s = _prostoy_attack(obs, hand, rng)
            if attack_ok(obs, hand, s):
                return s
        return bit(random_card(rng, zanudny_cards(obs, hand)))
    return np.int64(0)


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    hand = obs[O_HAND]
    if obs[O_RULES + R_VARIANT_ANY] != 0:
        s = _variant_attack(obs, hand, rng)
        if s != 0:
            return s
    if obs[O_RULES + R_MODE] == MODE_PROSTOY:
        s = _prostoy_attack(obs, hand, rng)
        return s if attack_ok(obs, hand, s) else bit(random_card(rng, hand))
    # uniform over the legal sets of one rank, as the core's attack_ok defines them
    total = 0
    for r in range(9):
        m = hand & RANK_MASKS[r]
        sub = m
        while sub:
            if attack_ok(obs, hand, sub):
                total += 1
            sub = (sub - 1) & m
    pick = rng_below(rng, total)
    for r in range(9):
        m = hand & RANK_MASKS[r]
        sub = m
        while sub:
            if attack_ok(obs, hand, sub):
                if pick == 0:
                    return sub
                pick -= 1
            sub = (sub - 1) & m
    return bit(lowest(hand))


@njit(cache=True, _nrt=False)
def _card_or_none(rng, legal):
    k = rng_below(rng, popcount(legal) + 1)
    if k == 0:
        return np.int64(NO_CARD)
    m = legal
    for _ in range(k - 1):
        m &= m - 1
    return lowest(m)


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    return _card_or_none(rng, legal)


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    return _card_or_none(rng, legal)


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    show = obs[O_SHOW_LEGAL]
    k = rng_below(rng, popcount(legal) + popcount(show) + 1)
    if k == 0:
        return np.int64(NO_CARD)
    if k <= popcount(legal):
        m = legal
        for _ in range(k - 1):
            m &= m - 1
        return lowest(m)
    m = show
    for _ in range(k - 1 - popcount(legal)):
        m &= m - 1
    return lowest(m) + SHOW


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return rng_below(rng, 2)


@njit(cache=True, _nrt=False)
def _swap_nth(obs, legal, pick):
    """The pick-th legal swap answer (none, then one card, then two) or, with pick < 0, their number."""
    k = 0
    if swap_ok(obs, legal, np.int64(0)):
        if k == pick:
            return np.int64(0)
        k += 1
    m1 = legal
    while m1:
        c1 = lowest(m1)
        m1 &= m1 - 1
        if swap_ok(obs, legal, bit(c1)):
            if k == pick:
                return bit(c1)
            k += 1
        m2 = m1
        while m2:
            a = bit(c1) | bit(lowest(m2))
            m2 &= m2 - 1
            if swap_ok(obs, legal, a):
                if k == pick:
                    return a
                k += 1
    return np.int64(k)


@njit(cache=True, _nrt=False)
def swap(obs, legal, params, rng):
    """VAR-PO1: uniform over the legal masks (none, one card, two cards; swap_ok decides)."""
    total = _swap_nth(obs, legal, np.int64(-1))
    return _swap_nth(obs, legal, rng_below(rng, total))
