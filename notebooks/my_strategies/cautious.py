"""cautious: greedy, but never covers with a trump while the talon still has more than 6 cards."""
import numpy as np
from numba import njit

from sim.core.lib import NIBBLE_LOW, NO_CARD, O_TALON, O_TRUMP_SUIT, lowest

NAME = "cautious"
DESCRIPTION = "Greedy that takes rather than trump while the talon is large."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
PARAMS = {"talon_above": (6.0, 0.0, 36.0, "take rather than trump while the talon holds more than this")}


@njit(cache=True)
def cover(obs, legal, params, rng):
    trumps = NIBBLE_LOW << obs[O_TRUMP_SUIT]
    plain = legal & ~trumps
    if plain:
        return lowest(plain)          # the cheapest card of the suit
    if legal and obs[O_TALON] <= params[0]:
        return lowest(legal)          # the cheapest trump, only late in the game
    return np.int64(NO_CARD)          # otherwise take
