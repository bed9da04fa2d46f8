"""Compiled building blocks shared by the core and by strategies.

Hands are int64 bitmasks over the 36 cards (bit ``rank*4 + suit``; 36 bits fit a signed
int64, so the hot loop never mixes signed and unsigned arithmetic). Everything here is a
small ``@njit(inline='always')`` function or a named constant; the observation layout
``O_*`` is the whole of what a strategy may read.
"""
from __future__ import annotations

import numpy as np
from numba import njit


FULL = np.int64((1 << 36) - 1)
NIBBLE_LOW = np.int64(0x111111111)  # bit 4r set for every rank r
SUIT_MASKS = np.array([int(NIBBLE_LOW) << s for s in range(4)], dtype=np.int64)
RANK_MASKS = np.array([0xF << (4 * r) for r in range(9)], dtype=np.int64)

_DEBRUIJN = 0x03F79D71B4CB0A89
DEBRUIJN = np.int64(_DEBRUIJN)
DB_TABLE = np.zeros(64, dtype=np.int64)
for _i in range(64):
    DB_TABLE[((1 << _i) * _DEBRUIJN % (1 << 64)) >> 58] = _i

from sim.core.layout import (  # noqa: E402,F401  (the observation layout strategies read)
    K_ATTACK, K_COVER, K_EXCHANGE, K_NONE, K_THROW_IN, K_TRANSFER, KIND_NAMES, NO_CARD, O_ACTOR, O_ATTACKER, O_BOUT,
    O_COVER_TARGET, O_DEALER, O_DEFENDER, O_DISCARD, O_FIRST_BOUT, O_HAND, O_HAND_SIZE, O_KIND, O_KNOWN, O_LIMIT,
    O_N, O_NTABLE, O_OUT, O_QUIET, O_RULES, O_SEAT, O_SHOW_LEGAL, O_SIZE, O_TABLE_ATT, O_TABLE_COV, O_TABLE_MASK,
    O_TAKING, O_TALON, O_TEAM, O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TRUMP_SUIT, SHOW,
)
from sim.core.rules import (  # noqa: E402
    MODE_PROSTOY, R_LEAD_SINGLE, R_MODE, R_SETS_SINGLE_OR_PAIR, R_TWO_PAIR_SIZE,
)


@njit(cache=True, _nrt=False)
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, _nrt=False)
def lowest(x):
    """Index of the lowest card in a non-empty mask: lowest rank, suit order C<D<H<S."""
    return DB_TABLE[(((x & -x) * DEBRUIJN) >> 58) & 63]


@njit(cache=True, _nrt=False)
def highest(x):
    c = -1
    while x:
        c = lowest(x)
        x &= x - 1
    return c


@njit(cache=True, _nrt=False)
def rank_of(c):
    return c >> 2


@njit(cache=True, _nrt=False)
def suit_of(c):
    return c & 3


@njit(cache=True, _nrt=False)
def bit(c):
    return np.int64(1) << c


@njit(cache=True, _nrt=False)
def same_rank_cards(mask):
    """All 36-card bits of every rank present in mask (the ranks on a table)."""
    r = (mask | (mask >> 1) | (mask >> 2) | (mask >> 3)) & NIBBLE_LOW
    return r * 15


@njit(cache=True, _nrt=False)
def pair_count(mask):
    """Number of disjoint pairs in mask (sum over ranks of count // 2)."""
    p = 0
    m = mask
    while m:
        c = lowest(m)
        k = popcount(m & (np.int64(0xF) << (c & ~3)))
        p += k >> 1
        m &= ~(np.int64(0xF) << (c & ~3))
    return p


@njit(cache=True, _nrt=False)
def beats(attack, cover, trump, six_beats_ace):
    """C-2 plus the trump-six-beats-trump-ace house rule (RUL-10)."""
    sa = attack & 3
    sc = cover & 3
    if sc == sa:
        if cover > attack:
            return True
        return six_beats_ace and sa == trump and (cover >> 2) == 0 and (attack >> 2) == 8
    return sc == trump and trump >= 0


@njit(cache=True, _nrt=False)
def beaters(attack, trump, six_beats_ace):
    """Mask of every card that beats `attack`."""
    s = attack & 3
    m = SUIT_MASKS[s] & ~((np.int64(2) << attack) - 1)
    if s != trump:
        if trump >= 0:
            m |= SUIT_MASKS[trump]
    elif six_beats_ace and (attack >> 2) == 8:
        m |= np.int64(1) << s
    return m


@njit(cache=True, _nrt=False)
def cover_options(attack, hand, trump, six_beats_ace, trump_only_if_cannot_follow):
    """Cards of `hand` that may cover `attack` (RUL-10)."""
    m = beaters(attack, trump, six_beats_ace) & hand
    if trump_only_if_cannot_follow and (attack & 3) != trump and trump >= 0:
        follow = m & SUIT_MASKS[attack & 3]
        if follow:
            m = follow
    return m


@njit(cache=True, _nrt=False)
def valid_prostoy_set(mask, single_or_pair, two_pair_size, max_cards):
    """RUL-11: is `mask` a legal simple-durak attack set of at most max_cards cards?"""
    k = popcount(mask)
    if k == 0 or k > max_cards or k > 6:
        return False
    if k == 1:
        return True
    if single_or_pair:
        return k == 2 and popcount(same_rank_cards(mask) & NIBBLE_LOW) == 1
    if k == 3:
        return pair_count(mask) >= 1
    if k == two_pair_size:
        return pair_count(mask) >= 2
    return False


# ---- counter-based random numbers: one stream per (seed, game, purpose) -------------------
@njit(cache=True, _nrt=False)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def seed_stream(state, seed, game, stream):
    """Key a generator by (master seed, game index, stream) alone: independent of threads and chunks."""
    g = np.uint64(game) * np.uint64(4) + np.uint64(stream)
    state[0] = mix64(np.uint64(seed) ^ mix64(g + np.uint64(0x9E3779B97F4A7C15)))


@njit(cache=True, _nrt=False)
def rng_next(state):
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    return mix64(state[0])


@njit(cache=True, _nrt=False)
def rng_below(state, n):
    """Uniform integer in [0, n) for n < 2**31: multiply-shift of 32 random bits, no division."""
    return np.int64(((rng_next(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, _nrt=False)
def random_card(state, mask):
    """A uniformly chosen card of a mask (-1 for an empty mask)."""
    if mask == 0:
        return -1
    k = rng_below(state, popcount(mask))
    m = mask
    for _ in range(k):
        m &= m - 1
    return lowest(m)


@njit(cache=True, _nrt=False)
def attack_ok(obs, hand, a):
    """Is `a` a legal attack from `hand` now? The one test of a lead, read from the observation
    (rules vector and O_LIMIT), used by the core, by `random` and by the strategy helpers (RUL-11, RUL-14/15)."""
    if a <= 0 or (a & ~hand) != 0:
        return False
    lim = obs[O_LIMIT]
    if obs[O_RULES + R_MODE] == MODE_PROSTOY:
        return valid_prostoy_set(a, obs[O_RULES + R_SETS_SINGLE_OR_PAIR] != 0, obs[O_RULES + R_TWO_PAIR_SIZE], lim)
    k = popcount(a)
    if k > lim or popcount(same_rank_cards(a) & NIBBLE_LOW) != 1:
        return False
    return k == 1 or obs[O_RULES + R_LEAD_SINGLE] == 0


@njit(cache=True, _nrt=False)
def option_ok(obs, kind, legal, a):
    """Is answer `a` to a decision of `kind` with legal mask `legal` allowed? (the attack: attack_ok)."""
    if kind == K_ATTACK:
        return attack_ok(obs, legal, a)
    if kind == K_EXCHANGE:
        return a == 0 or a == 1
    if a == NO_CARD:
        return True
    if a >= 0 and a < 36:
        return ((legal >> a) & 1) != 0
    if kind == K_TRANSFER and a >= SHOW and a < SHOW + 36:
        return ((obs[O_SHOW_LEGAL] >> (a - SHOW)) & 1) != 0
    return False
