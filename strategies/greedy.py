"""greedy: the plain baseline every other implementation can reproduce exactly.

Attack with one card, the lowest-ranked non-trump (the lowest trump if only trumps are
left). Cover with the cheapest card that beats: the lowest higher card of the suit, else
the lowest trump; take when nothing beats. Throw in one card at a time, the lowest-ranked
legal non-trump, a trump only once the talon is empty. Never transfers. Always exchanges
the trump six. Equal ranks are ordered C < D < H < S. (Issue "The game core", item 6.)

Against cycles (issue 14): once ``obs[O_QUIET]`` reaches 12 (twelve bouts in a row ended with no
card discarded and none drawn: the cards are going round), it leads and throws in a card chosen by
a hash of the public position instead (``vary_pick`` of ``strategies/_lib.py``; a throw-in may then
also be a pass). Before that point its play is exactly the plain rule above.
"""
import numpy as np
from numba import njit

from sim.core.lib import NIBBLE_LOW, NO_CARD, O_HAND, O_TABLE_MASK, O_TALON, O_TRUMP_SUIT, bit, lowest, popcount
from strategies._lib import nth_card, restless, vary_pick

NAME = "greedy"
DESCRIPTION = "Baseline: lowest non-trump single lead, cheapest cover, cheap throw-ins, never transfers."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
PARAMS = {}


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    hand = obs[O_HAND]
    if restless(obs):
        return bit(nth_card(hand, vary_pick(obs, popcount(hand), 1)))
    plain = hand & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT])
    return bit(lowest(plain if plain else hand))


@njit(_nrt=False)
def cover(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    # legal already holds only cards that beat the target; same-suit first, trumps after
    target_suit_cards = legal & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT])
    if target_suit_cards:
        return lowest(target_suit_cards)
    return lowest(legal)


@njit(_nrt=False)
def throw_in(obs, legal, params, rng):
    if legal and restless(obs):
        i = vary_pick(obs, popcount(legal) + 1, 3 + popcount(obs[O_TABLE_MASK]))
        return nth_card(legal, i) if i < popcount(legal) else np.int64(NO_CARD)
    plain = legal & ~(NIBBLE_LOW << obs[O_TRUMP_SUIT])
    if plain:
        return lowest(plain)
    if legal and obs[O_TALON] == 0:
        return lowest(legal)
    return np.int64(NO_CARD)


@njit(_nrt=False)
def transfer(obs, legal, params, rng):
    return np.int64(NO_CARD)


@njit(_nrt=False)
def exchange(obs, legal, params, rng):
    return np.int64(1)
