"""One deal as an object, stepped from Python: the state kernels with a small, uniform API.

For tests, `durak play`-style tools and notebooks; the batch engine drives the same kernels in
compiled code. Options are the core's integer answers: an attack is a card bitmask, a cover,
throw-in or transfer is a card (or ``NO_CARD`` = take / pass / no transfer), a show is
``SHOW + card``, an exchange is 0 or 1, a swap (VAR-PO1) a mask of 0..2 hand cards.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import kernels as K
from sim.core.bout import conserved
from sim.core import layout as L
from sim.core.lib import attack_ok, rng_below, seed_stream, swap_ok
from sim.core.rules import Rules


def deck_size(rules: Rules) -> int:
    """Cards in the pack: 72 with two packs (VAR-BD1), else 36."""
    return 72 if rules.toggles.get("two_packs") else 36


def _twin_leads(ws, sets) -> set:
    """Two packs (RUL-83): every legal lead that adds twins (bits TWIN_LEAD + suit) to a lead of `sets`."""
    ws = np.array(ws, dtype=np.int64, copy=True)
    ws[L.O_HAND2] = ws[L.S_HANDS2 + ws[L.O_ACTOR]]  # the attacker's twins (the core sets them when he answers)
    twins = int(ws[L.O_HAND2])
    out = set()
    for m in sets:
        if m <= 0 or m >= 1 << 36 or not m & twins:
            continue
        r = (m & -m).bit_length() - 1 >> 2
        suits = [s for s in range(4) if (m & twins) >> (4 * r + s) & 1]
        for k in range(1, 1 << len(suits)):
            tw = sum(1 << suits[i] for i in range(len(suits)) if k >> i & 1)
            a = m | tw << L.TWIN_LEAD
            if attack_ok(ws, ws[L.S_LEGAL], np.int64(a)):
                out.add(a)
    return out


@njit(cache=True)
def _attack_sets(ws, out):
    """Every legal attack set of the pending attack decision, written to out; returns the count."""
    hand = ws[L.S_LEGAL]
    cards = np.zeros(36, dtype=np.int64)
    m = 0
    for c in range(36):
        if (hand >> c) & 1:
            cards[m] = c
            m += 1
    lim = ws[L.O_LIMIT]
    if lim > 6:
        lim = 6
    count = 0
    # subsets of at most `lim` cards, by index combinations
    idx = np.zeros(7, dtype=np.int64)
    for k in range(1, lim + 1):
        if k > m:
            break
        for i in range(k):
            idx[i] = i
        while True:
            mask = np.int64(0)
            for i in range(k):
                mask |= np.int64(1) << cards[idx[i]]
            if attack_ok(ws, hand, mask):
                if count < out.shape[0]:
                    out[count] = mask
                count += 1
            j = k - 1
            while j >= 0 and idx[j] == m - k + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for i in range(j + 1, k):
                idx[i] = idx[i - 1] + 1
    if attack_ok(ws, hand, L.FROM_TALON):  # armenian: the top talon card (RUL-45)
        if count < out.shape[0]:
            out[count] = L.FROM_TALON
        count += 1
    return count


def swap_options(obs, hand: int) -> list[int]:
    """Every legal swap answer (VAR-PO1): masks of up to two hand cards, by the core's own test."""
    cards = [c for c in range(36) if (hand >> c) & 1]
    masks = [0] + [1 << c for c in cards] + [(1 << a) | (1 << b) for i, a in enumerate(cards) for b in cards[i + 1:]]
    return [m for m in masks if swap_ok(obs, np.int64(hand), np.int64(m))]


def series(rules: Rules, seed: int = 0, series: int = 0, deals: int = 1):
    """The deals of one series as the batch engine plays them (same cards, dealers and first
    attackers for the same seed): yields each Deal; play it to the end before taking the next."""
    rv = rules.vector()
    n = rules.num_players
    drng = np.zeros(1, dtype=np.uint64)
    seed_stream(drng, np.int64(seed), np.int64(series), np.int64(0))
    dealer = int(rng_below(drng, n))
    prev_fool = -1
    for d in range(deals):
        deal = Deal(rules, _drng=drng, _dealer=dealer, _index=d, _prev_fool=prev_fool)
        yield deal
        if not deal.over or deal.rec[L.F_ERROR]:
            return
        dealer, prev_fool = (int(x) for x in K.after_deal(rv, deal.rec, np.int64(dealer)))


class Deal:
    """A deal in progress: `to_act()`, `legal_options()`, `apply(option)`, `result()`."""

    def __init__(self, rules: Rules, seed: int = 0, series: int = 0, *, _drng=None, _dealer=None, _index=0,
                 _prev_fool=-1):
        self.rules = rules
        self.rv = rules.vector()
        self.ws = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.rec = np.zeros(L.F_SIZE, dtype=np.int64)
        self.trace = np.zeros((L.TRACE_CAP, 4), dtype=np.int64)
        self.tn = np.zeros(1, dtype=np.int64)
        K.new_series(self.rv, self.ws)
        n = rules.num_players
        if _drng is None:  # the first deal of series `series`
            _drng = np.zeros(1, dtype=np.uint64)
            seed_stream(_drng, np.int64(seed), np.int64(series), np.int64(0))
            _dealer = int(rng_below(_drng, n))
        self.dealer = _dealer
        self.previous_fool = _prev_fool
        self.index = _index
        K.start_deal(self.rv, _drng, self.ws, self.rec, np.int64(self.dealer), np.int64(_index),
                     np.int64(_prev_fool), self.trace, self.tn, True)
        self.deck = [int(c) for c in self.ws[L.S_DECK:L.S_DECK + deck_size(self.rules)]]

    @classmethod
    def from_state(cls, rules: Rules, ws: np.ndarray) -> "Deal":
        """A deal that continues from a copy of a state (any decision of any family)."""
        d = cls.__new__(cls)
        d.rules, d.rv = rules, rules.vector()
        d.ws = np.array(ws, dtype=np.int64, copy=True)
        d.rec = np.zeros(L.F_SIZE, dtype=np.int64)
        d.trace = np.zeros((L.TRACE_CAP, 4), dtype=np.int64)
        d.tn = np.zeros(1, dtype=np.int64)
        d.deck, d.dealer = None, int(ws[L.O_DEALER])
        return d

    @classmethod
    def sampled(cls, rules: Rules, obs: np.ndarray, seed: int = 0) -> "Deal":
        """A deal that continues from one seat's observation, the cards it cannot see drawn at random
        consistently with what it has seen (a determinization, for search and hints)."""
        ws = np.zeros(L.STATE_SIZE, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        seed_stream(rng, np.int64(seed), np.int64(0), np.int64(3))
        if not K.sample_hidden(np.asarray(obs, dtype=np.int64), rng, ws):
            raise ValueError("no deal of the hidden cards fits this observation")
        return cls.from_state(rules, ws)

    def to_act(self):
        """(seat, kind) of the pending decision, or None when the deal is over."""
        kind = int(self.ws[L.O_KIND])
        return None if kind < 0 else (int(self.ws[L.O_ACTOR]), kind)

    def legal_options(self) -> frozenset:
        kind = int(self.ws[L.O_KIND])
        if kind < 0:
            return frozenset()
        legal = int(self.ws[L.S_LEGAL])
        if kind == L.K_ATTACK:
            out = np.zeros(1 << 16, dtype=np.int64)
            k = _attack_sets(self.ws, out)
            if k > len(out):
                out = np.zeros(k, dtype=np.int64)
                k = _attack_sets(self.ws, out)
            sets = {int(x) for x in out[:k]}
            if self.rules.toggles.get("two_packs"):  # RUL-83: leads laying both copies of a card
                sets |= _twin_leads(self.ws, sets)
            return frozenset(sets)
        if kind == L.K_EXCHANGE:
            return frozenset((0, 1))
        if kind == L.K_SWAP:
            return frozenset(swap_options(self.ws, legal))
        opts = {c for c in range(36) if (legal >> c) & 1} | {L.NO_CARD}
        if kind == L.K_TRANSFER:
            show = int(self.ws[L.O_SHOW_LEGAL])
            opts |= {L.SHOW + c for c in range(36) if (show >> c) & 1}
        return frozenset(opts)

    def apply(self, option: int) -> bool:
        return bool(K.apply_any(self.rv, self.ws, self.rec, np.int64(option), self.trace, self.tn, True))

    def observe(self, seat: int) -> np.ndarray:
        obs = np.zeros(L.O_SIZE, dtype=np.int64)
        K.observe(self.ws, np.int64(seat), obs)
        return obs

    def hands(self) -> list[int]:
        return [int(h) for h in self.ws[L.S_HANDS:L.S_HANDS + self.rules.num_players]]

    def conserved(self) -> bool:
        return bool(conserved(self.ws, np.int64(self.rules.num_players)))

    @property
    def over(self) -> bool:
        return int(self.ws[L.O_KIND]) < 0

    def result(self) -> np.ndarray:
        return self.rec.copy()
