"""greedy: the plain baseline every other implementation can reproduce exactly.

Attack with one card, the lowest-ranked non-trump (the lowest trump if only trumps are
left). Cover with the cheapest card that beats: the lowest higher card of the suit, else
the lowest trump; take when nothing beats. Throw in one card at a time, the lowest-ranked
legal non-trump, a trump only once the talon is empty. Never transfers. Always exchanges
the trump six. Poker swap (VAR-PO1): gives its lowest non-trumps of rank 6 to 9 (two at most) to the talon. Equal ranks are ordered C < D < H < S.
Under the §6 lead modifiers: zanudny, the lowest card of the highest rank (a non-trump if one is
eligible); tryoshka, its cheapest cards (non-trumps first); armenian, never the talon card.

Against cycles: once ``obs[O_QUIET]`` reaches 12 (twelve bouts in a row ended with no
card discarded and none drawn: the cards are going round), it leads and throws in a card chosen by
a hash of the public position instead (``vary_pick`` of ``strategies/_lib.py``; a throw-in may then
also be a pass). Before that point its play is exactly the plain rule above.
"""
import numpy as np
from numba import njit

from sim.core.lib import (NIBBLE_LOW, NO_CARD, O_HAND, O_QUIET, O_RULES, O_TABLE_MASK, O_TALON, O_TRUMP_SUIT, bit,
                          lowest, popcount, trump_mask, variant_lead)
from sim.core.rules import R_LEAD_RULE, R_VARIANT_ANY
from strategies._lib import QUIET_VARY, SWAP_MAX_RANK, h_swap, nth_card, restless, vary_pick

NAME = "greedy"
DESCRIPTION = "Baseline: lowest non-trump single lead, cheapest cover, cheap throw-ins, never transfers."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {}


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    if obs[O_QUIET] >= QUIET_VARY or obs[O_RULES + R_VARIANT_ANY] != 0:
        return _attack_varied(obs)
    hand = obs[O_HAND]
    plain = hand & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT])
    return bit(lowest(plain if plain else hand))


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    # legal already holds only cards that beat the target; same-suit first, trumps after
    target_suit_cards = legal & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT] if obs[O_RULES + R_VARIANT_ANY] == 0
                                  else trump_mask(obs))
    if target_suit_cards:
        return lowest(target_suit_cards)
    return lowest(legal)


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    if obs[O_QUIET] >= QUIET_VARY or obs[O_RULES + R_VARIANT_ANY] != 0:
        return _throw_in_varied(obs, legal)
    plain = legal & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT])
    if plain:
        return lowest(plain)
    if legal and obs[O_TALON] == 0:
        return lowest(legal)
    return np.int64(NO_CARD)


# ---- under a §6 modifier or once the position is going round (kept out of the fast path above) ----
@njit(_nrt=False)
def _attack_varied(obs):
    hand = obs[O_HAND]
    if obs[O_RULES + R_LEAD_RULE] != 0:  # zanudny / tryoshka: the cheapest legal lead (never the talon card)
        return variant_lead(obs, hand)
    if restless(obs):  # against cycles: a varied single card
        return bit(nth_card(hand, vary_pick(obs, popcount(hand), 1)))
    plain = hand & ~trump_mask(obs)
    return bit(lowest(plain if plain else hand))


@njit(_nrt=False)
def _throw_in_varied(obs, legal):
    if legal and restless(obs):
        i = vary_pick(obs, popcount(legal) + 1, 3 + popcount(obs[O_TABLE_MASK]))
        return nth_card(legal, i) if i < popcount(legal) else np.int64(NO_CARD)
    plain = legal & ~trump_mask(obs)
    if plain:
        return lowest(plain)
    if legal and obs[O_TALON] == 0:
        return lowest(legal)
    return np.int64(NO_CARD)


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    return np.int64(NO_CARD)


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return np.int64(1)


@njit(cache=True, _nrt=False)
def swap(obs, legal, params, rng):
    return h_swap(obs, legal, SWAP_MAX_RANK)
