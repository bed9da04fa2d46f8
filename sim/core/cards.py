"""Cards of the 36-card pack and their text form.

A card is an integer ``rank * 4 + suit`` (rank 0..8 = 6..A, suit 0..3 = C, D, H, S).
Rank-major order makes the lowest card of a bitmask hand its lowest set bit, with the
fixed suit order C < D < H < S breaking ties, and puts the four cards of one rank in
one nibble: both are what the compiled core relies on.
"""
from __future__ import annotations

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
N_CARDS = 36


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def rank_of(c: int) -> int:
    return c >> 2


def suit_of(c: int) -> int:
    return c & 3


def card_name(c: int) -> str:
    return RANKS[c >> 2] + SUITS[c & 3]


def parse_card(text: str) -> int:
    """'10S' -> card index; raises ValueError naming the bad text."""
    t = str(text).strip().upper()
    if len(t) < 2 or t[-1] not in SUITS or t[:-1] not in RANKS:
        raise ValueError(f"not a card: {text!r} (expected rank 6,7,8,9,10,J,Q,K,A and suit C,D,H,S, e.g. '10S')")
    return card(RANKS.index(t[:-1]), SUITS.index(t[-1]))


def parse_suit(text: str) -> int:
    t = str(text).strip().upper()
    if t not in SUITS:
        raise ValueError(f"not a suit: {text!r} (expected C, D, H or S)")
    return SUITS.index(t)


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


TWIN_LEAD = 37  # as sim.core.layout.TWIN_LEAD


def lead_cards(mask: int) -> list[int]:
    """An attack answer -> its cards in table order: the mask's cards ascending, then (two packs, RUL-83)
    the twins its bits TWIN_LEAD + suit add, ascending."""
    kinds = cards_of(mask)
    tw = (mask >> TWIN_LEAD) & 0xF
    if not tw or not kinds:
        return kinds
    r = kinds[0] >> 2
    return kinds + [r * 4 + s for s in range(4) if tw >> s & 1]
