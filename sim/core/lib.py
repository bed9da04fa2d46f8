"""Compiled building blocks shared by the core and by strategies.

Hands are int64 bitmasks over the 36 cards (bit ``rank*4 + suit``; 36 bits fit a signed
int64, so the hot loop never mixes signed and unsigned arithmetic). Everything here is a
small ``@njit(inline='always')`` function or a named constant; the observation layout
``O_*`` is the whole of what a strategy may read.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic


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
    O_TAKING, O_TALON, O_TEAM, O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TRUMP_SUIT, SHOW, FROM_TALON,
)
from sim.core.layout import O_HAND2, O_KNOWN2, O_DISCARD2, TWIN_LEAD  # noqa: E402,F401  (two packs, VAR-BD1)
from sim.core.layout import O_SEAT_TRUMPS, O_TRUMP_UNDER  # noqa: E402
from sim.core.layout import K_SWAP  # noqa: E402,F401

from sim.core.rules import (  # noqa: E402
    LEAD_TRYOSHKA, LEAD_ZANUDNY, MODE_PROSTOY, R_ARMENIAN, R_KOROLEVSKY, R_KOROLEVSKY_ANY_ACE, R_LEAD_RULE,
    R_LEAD_SINGLE, R_MODE, R_OWN_TRUMPS, R_SETS_SINGLE_OR_PAIR, R_SIX_BEATS_ACE, R_SPADES_ONLY,
    R_TRUMP_ONLY_IF_CANNOT_FOLLOW, R_TRYOSHKA_SAME_RANK, R_TWO_PAIR_SIZE, R_VARIANT_ANY, R_ZANUDNY_TRUMPS_APART,
)
from sim.core.rules import R_TWO_PACKS  # noqa: E402
from sim.core.rules import R_POKER_EXACT  # noqa: E402


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count (one POPCNT instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(context.cast(builder, args[0], sig.args[0], types.int64))
    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zeros, 64 for 0 (one TZCNT instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.cttz(v, ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen



def _stack(dtype, width, zeroed=True):
    @intrinsic
    def stack(typingctx, n):
        """A 1-d array of n (a literal) elements on the caller's stack: scratch memory without NRT."""
        if not isinstance(n, types.IntegerLiteral):
            return None
        size = n.literal_value
        arrty = types.Array(dtype, 1, "C")

        def codegen(context, builder, signature, args):
            elt = context.get_value_type(dtype)
            if zeroed:  # numba's alloca_once zero-fills the whole array at every call of the function
                ptr = cgutils.alloca_once(builder, ir.ArrayType(elt, size))
            else:
                with builder.goto_entry_block():
                    ptr = builder.alloca(ir.ArrayType(elt, size))
            data = builder.bitcast(ptr, elt.as_pointer())
            ary = context.make_array(arrty)(context, builder)
            itemsize = context.get_constant(types.intp, width)
            context.populate_array(ary, data=data, shape=[context.get_constant(types.intp, size)],
                                   strides=[itemsize], itemsize=itemsize, meminfo=None)
            return ary._getvalue()
        return arrty(n), codegen
    return stack


stack_i64 = _stack(types.int64, 8)  # stack_i64(N): N int64 on the caller's stack (N a literal)
stack_f64 = _stack(types.float64, 8)
stack_u64 = _stack(types.uint64, 8)  # a random stream's word
# stack_i64 without the zero fill, for the library's code that writes every word before it reads it: the endgame
# solver's frames (13 KB) and its transposition table (33 KB), whose fills at every solve were 14% of search's time.
# Not for strategies (strategies/README.md offers stack_i64): unfilled, an array holds whatever an earlier call left.
scratch_i64 = _stack(types.int64, 8, zeroed=False)

@njit(cache=True, _nrt=False)
def popcount(x):
    """Cards in a mask (masks are never negative)."""
    return _ctpop(x)


@njit(cache=True, _nrt=False, inline="always")
def at(i):
    """An index known not to be negative, as unsigned: numba then indexes without the wraparound test (a negative
    index counts from the end) it adds to every signed index. In the hot loops that test costs registers: the
    solver ran 1.5x faster without it."""
    return np.uint64(i)


@njit(cache=True, _nrt=False)
def lowest(x):
    """Index of the lowest card in a non-empty mask: lowest rank, suit order C<D<H<S (0 for an empty mask,
    as the De Bruijn table this replaced gave)."""
    return _cttz(x) & 63


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


# ---- the beating relation as the rules vector in an observation (or a state) says ------------------
@njit(cache=True, _nrt=False)
def trump_of(obs, seat):
    """The trump suit that counts for `seat`: its own under own_trumps (VAR-DK1), else the deal's; -1: none."""
    if obs[O_RULES + R_VARIANT_ANY] != 0 and obs[O_RULES + R_OWN_TRUMPS] != 0:
        return obs[O_SEAT_TRUMPS + seat]
    return obs[O_TRUMP_SUIT]


@njit(cache=True, _nrt=False)
def trump_mask(obs):
    """Every card of the trump suit of the seat observing (0 without a trump suit): the safe `NIBBLE_LOW << trump`."""
    t = trump_of(obs, obs[O_SEAT])
    if t < 0:
        return np.int64(0)
    return NIBBLE_LOW << t


@njit(cache=True, _nrt=False)
def _variant_beaters(obs, attack, seat):
    t = trump_of(obs, seat)
    if obs[O_RULES + R_KOROLEVSKY] != 0 and (attack >> 2) == 0:
        # VAR-KO1: a six only by an ace (same suit or trump; any ace by toggle), RUL-33
        if obs[O_RULES + R_KOROLEVSKY_ANY_ACE] != 0:
            m = RANK_MASKS[8]
        else:
            m = np.int64(1) << (32 + (attack & 3))
            if t >= 0:
                m |= np.int64(1) << (32 + t)
    else:
        m = beaters(attack, t, obs[O_RULES + R_SIX_BEATS_ACE] != 0)
    if obs[O_RULES + R_SPADES_ONLY] != 0:  # VAR-PP1: spades only by spades, and spades beat nothing else
        if (attack & 3) == 3:
            m &= SUIT_MASKS[3]
        else:
            m &= ~SUIT_MASKS[3]
    return m


@njit(cache=True, _nrt=False)
def beaters_for(obs, attack, seat):
    """Mask of every card that beats `attack` when `seat` defends, under the rules of the observation
    (or state) `obs`: the plain C-2 relation with HR-1, or the §6 beating modifiers (RUL-30..34)."""
    if obs[O_RULES + R_VARIANT_ANY] == 0:
        return beaters(attack, obs[O_TRUMP_SUIT], obs[O_RULES + R_SIX_BEATS_ACE] != 0)
    return _variant_beaters(obs, attack, seat)


@njit(cache=True, _nrt=False, inline="always")
def cover_options_for(obs, attack, hand, seat):
    """Cards of `hand` that `seat` may cover `attack` with (RUL-10 and the §6 beating modifiers)."""
    if obs[O_RULES + R_VARIANT_ANY] == 0:
        return cover_options(attack, hand, obs[O_TRUMP_SUIT], obs[O_RULES + R_SIX_BEATS_ACE] != 0,
                             obs[O_RULES + R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0)
    m = _variant_beaters(obs, attack, seat) & hand
    t = trump_of(obs, seat)
    if obs[O_RULES + R_TRUMP_ONLY_IF_CANNOT_FOLLOW] != 0 and (attack & 3) != t and t >= 0:
        if m & SUIT_MASKS[attack & 3]:
            m &= ~SUIT_MASKS[t]  # no trump while a card of the suit beats it (a non-trump ace of korolevsky may)
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
def _plain_attack_ok(obs, hand, a):
    """The family's own lead test (RUL-11, RUL-14/15)."""
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
def zanudny_cards(obs, hand):
    """VAR-ZA1 (RUL-40/41): the cards of `hand` of its highest rank; with zanudny_trumps_apart the
    highest rank of its non-trumps (of its trumps when it holds nothing else)."""
    pool = hand
    if obs[O_RULES + R_ZANUDNY_TRUMPS_APART] != 0 and obs[O_TRUMP_SUIT] >= 0:
        plain = hand & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT])
        if plain:
            pool = plain
    if pool == 0:
        return np.int64(0)
    return pool & (np.int64(0xF) << (highest(pool) & ~3))


@njit(cache=True, _nrt=False)
def max_same_rank(hand):
    """The most cards of one rank in hand."""
    best = 0
    for r in range(9):
        k = popcount(hand & RANK_MASKS[r])
        if k > best:
            best = k
    return best


@njit(cache=True, _nrt=False)
def tryoshka_size(obs, hand):
    """VAR-TR1 (RUL-42/43): the size every lead must have: 3, or fewer when the attacker holds fewer
    (with same_rank: fewer of one rank) or the bout's limit (O_LIMIT) allows fewer."""
    k = popcount(hand)
    if obs[O_RULES + R_TRYOSHKA_SAME_RANK] != 0:
        k = max_same_rank(hand)
    if k > 3:
        k = 3
    if k > obs[O_LIMIT]:
        k = obs[O_LIMIT]
    return k


@njit(cache=True, _nrt=False)
def talon_lead_ok(obs):
    """VAR-AR1 (RUL-45/46): may the attacker lead the top card of the talon? Armenian on, and a face-down
    card above the face-up trump card (the trump card itself is never led; with changing_trump, VAR-SM1, the
    hidden card under it is no top card either)."""
    return (obs[O_RULES + R_ARMENIAN] != 0
            and obs[O_TALON] - (1 if obs[O_TRUMP_IN_TALON] != 0 else 0) - obs[O_TRUMP_UNDER] > 0)


# ---- two packs (VAR-BD1, RUL-80..86): a multiset of cards is a pair of masks (m1, m2), m2 the cards held twice
@njit(cache=True, _nrt=False)
def multi_add(m1, m2, c):
    """(m1, m2) with one more copy of card c."""
    b = np.int64(1) << c
    if m1 & b:
        return m1, m2 | b
    return m1 | b, m2


@njit(cache=True, _nrt=False)
def multi_remove(m1, m2, c):
    """(m1, m2) with one copy of card c less (unchanged when it holds none)."""
    b = np.int64(1) << c
    if m2 & b:
        return m1, m2 & ~b
    return m1 & ~b, m2


@njit(cache=True, _nrt=False)
def twin_lead_cards(a):
    """A two-pack lead (RUL-83) -> (the cards led once each, the twins led beside them as card bits)."""
    kinds = a & FULL
    tw = (a >> TWIN_LEAD) & 0xF
    if kinds == 0:
        return kinds, np.int64(0)
    return kinds, tw << (lowest(kinds) & ~3)


@njit(cache=True, _nrt=False)
def _twin_lead_ok(obs, hand, a):
    """RUL-83: a same-rank lead laying both copies of a card: bit TWIN_LEAD + s adds the twin of the led
    card of suit s, which the attacker must hold twice (O_HAND2)."""
    tw = (a >> TWIN_LEAD) & 0xF
    kinds = a & FULL
    if a != (kinds | (tw << TWIN_LEAD)) or kinds == 0 or (kinds & ~hand) != 0:
        return False
    if obs[O_RULES + R_MODE] == MODE_PROSTOY or obs[O_RULES + R_LEAD_SINGLE] != 0:
        return False
    if popcount(same_rank_cards(kinds) & NIBBLE_LOW) != 1:
        return False
    twins = tw << (lowest(kinds) & ~3)
    if (twins & ~kinds) != 0 or (twins & ~obs[O_HAND2]) != 0:
        return False
    return popcount(kinds) + popcount(tw) <= obs[O_LIMIT]


@njit(cache=True, _nrt=False)
def _variant_attack_ok(obs, hand, a):
    """The lead under the §6 lead modifiers (RUL-40..47)."""
    if obs[O_RULES + R_TWO_PACKS] != 0 and (a >> TWIN_LEAD) != 0:
        return _twin_lead_ok(obs, hand, a)
    if a == FROM_TALON:
        return talon_lead_ok(obs)
    rule = obs[O_RULES + R_LEAD_RULE]
    if rule == LEAD_TRYOSHKA:
        if a <= 0 or (a & ~hand) != 0:
            return False
        if popcount(a) != tryoshka_size(obs, hand):
            return False
        return obs[O_RULES + R_TRYOSHKA_SAME_RANK] == 0 or popcount(same_rank_cards(a) & NIBBLE_LOW) == 1
    if not _plain_attack_ok(obs, hand, a):
        return False
    if rule == LEAD_ZANUDNY:
        return (a & zanudny_cards(obs, hand)) != 0
    return True


@njit(cache=True, _nrt=False, inline="always")
def attack_ok(obs, hand, a):
    """Is `a` a legal attack from `hand` now? The one test of a lead, read from the observation
    (rules vector and O_LIMIT), used by the core, by `random` and by the strategy helpers (RUL-11, RUL-14/15;
    the §6 lead modifiers: RUL-40..47)."""
    if obs[O_RULES + R_VARIANT_ANY] != 0:
        return _variant_attack_ok(obs, hand, a)
    return _plain_attack_ok(obs, hand, a)


@njit(cache=True, _nrt=False)
def variant_lead(obs, hand):
    """The cheapest legal lead from `hand` under a lead_rule modifier (0 under lead_rule=standard): the
    lowest-valued card of the highest rank (zanudny; non-trumps before trumps), or the tryoshka's
    cheapest cards (same_rank: of the lowest rank that has enough). Used by the strategies."""
    rule = obs[O_RULES + R_LEAD_RULE]
    tr = obs[O_TRUMP_SUIT]
    trumps = (NIBBLE_LOW << tr) & hand if tr >= 0 else np.int64(0)
    if rule == LEAD_ZANUDNY:
        e = zanudny_cards(obs, hand)
        if e & ~trumps:
            return bit(lowest(e & ~trumps))
        return bit(lowest(e)) if e else np.int64(0)
    if rule == LEAD_TRYOSHKA:
        k = tryoshka_size(obs, hand)
        pool = hand
        if obs[O_RULES + R_TRYOSHKA_SAME_RANK] != 0:
            for r in range(9):
                if popcount(hand & RANK_MASKS[r]) >= k:
                    pool = hand & RANK_MASKS[r]
                    break
        s = np.int64(0)
        plain = pool & ~trumps
        tp = pool & trumps
        while popcount(s) < k and (plain | tp):
            if plain:
                c = lowest(plain)
                plain &= plain - 1
            else:
                c = lowest(tp)
                tp &= tp - 1
            s |= bit(c)
        return s
    return np.int64(0)


@njit(cache=True, _nrt=False)
def swap_cap(obs):
    """VAR-PO1 (RUL-58): how many cards the swap may take: two, or fewer when the talon holds fewer face-down
    cards (the face-up trump card is never taken)."""
    k = obs[O_TALON] - obs[O_TRUMP_IN_TALON]
    return k if k < 2 else np.int64(2)


@njit(cache=True, _nrt=False)
def swap_ok(obs, legal, a):
    """VAR-PO1: a swap answer is a mask of hand cards (`legal`), at most swap_cap of them; with
    poker_swap_count=exactly_two none or exactly two (RUL-56)."""
    if a < 0 or (a & ~legal) != 0:
        return False
    k = popcount(a)
    if obs[O_RULES + R_POKER_EXACT] != 0:
        return k == 0 or (k == 2 and swap_cap(obs) >= 2)
    return k <= swap_cap(obs)


@njit(cache=True, _nrt=False, inline="always")
def option_ok(obs, kind, legal, a):
    """Is answer `a` to a decision of `kind` with legal mask `legal` allowed? (the attack: attack_ok)."""
    if kind == K_ATTACK:
        return attack_ok(obs, legal, a)
    if kind == K_EXCHANGE:
        return a == 0 or a == 1
    if kind == K_SWAP:
        return swap_ok(obs, legal, a)
    if a == NO_CARD:
        return True
    if a >= 0 and a < 36:
        return ((legal >> a) & 1) != 0
    if kind == K_TRANSFER and a >= SHOW and a < SHOW + 36:
        return ((obs[O_SHOW_LEGAL] >> (a - SHOW)) & 1) != 0
    return False


# ---- chain beating (VAR-CN1 / VAR-DR1, sim/core/chain.py): its own small branch of the beating relation --------
TEN_ABOVE_KING_KEY = (0, 1, 2, 3, 7, 4, 5, 6, 8)  # rank index 6 7 8 9 10 J Q K A -> order 6 7 8 9 J Q K 10 A
TEN_HIGHER = np.array([sum(0xF << (4 * q) for q in range(9) if TEN_ABOVE_KING_KEY[q] > TEN_ABOVE_KING_KEY[r])
                       for r in range(9)], dtype=np.int64)  # cards of every suit ranking above rank r


@njit(cache=True, _nrt=False)
def chain_cover_options(attack, hand, trump, six_beats_ace, trump_only_if_cannot_follow, ten_above_king, clubs_only):
    """Cards of `hand` that beat `attack` in a chain bout (RUL-77): cover_options, with the ten ranking
    above the king (ten_above_king) and clubs beaten only by higher clubs (clubs_only)."""
    if not ten_above_king and not clubs_only:
        return cover_options(attack, hand, trump, six_beats_ace, trump_only_if_cannot_follow)
    s = attack & 3
    if ten_above_king:
        m = SUIT_MASKS[s] & TEN_HIGHER[attack >> 2]
    else:
        m = SUIT_MASKS[s] & ~((np.int64(2) << attack) - 1)
    if s != trump:
        if trump >= 0 and not (clubs_only and s == 0):
            m |= SUIT_MASKS[trump]
    elif six_beats_ace and (attack >> 2) == 8:
        m |= np.int64(1) << s
    m &= hand
    if trump_only_if_cannot_follow and s != trump and trump >= 0:
        follow = m & SUIT_MASKS[s]
        if follow:
            m = follow
    return m
