"""counting: card counting — attack and throw in what the defender probably cannot beat.

Common tactic of strong players ("remember what has gone out"), made exact: every card shown to
all is accounted for — the discard (cards seen going out), the table, the cards known in each
hand (picked up from the table, the drawn face-up trump, an exchanged card) and the face-up trump
under the talon. The *unseen* set is all 36 minus own hand minus discard minus table minus cards
known in other hands (minus the face-up trump while it lies under the talon). The defender's
unknown cards are treated as a uniform draw from the unseen set, which gives for each candidate
card the chance that he holds none of its beaters (exact with two players and an empty talon).

Attack: lead the one card with the highest such chance if it is >= ``p`` (cheaper cards win ties),
else the cheapest non-trump like greedy; only non-trumps are candidates while any is left (forcing
the defender to take a trump hands him a trump). Throw in the same way among the legal non-trumps
(trumps too once the talon is empty). ``talon_at_most`` limits counting to the late game. Two
players with an empty talon: lead / throw in a surely unbeatable card first, in simple durak inside
the largest set (seed 002's endgame advice). Defence and exchange are greedy's.
"""
from numba import njit

from strategies._lib import COUNT, COUNT_P, h_attack, h_throw_in, knobs, put_params

NAME = "counting"
DESCRIPTION = "Counts every shown card; leads and throws in cards the defender probably cannot beat."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "p": (0.5, 0.0, 1.0, "lead or throw in a card the defender cannot beat with at least this chance (0.5 = "
          "one in two) before the cheapest card"),
    "talon_at_most": (36.0, -1.0, 36.0, "count only from the moment the talon holds at most this many cards "
                      "(36: always; -1: never; the two-player endgame rule holds regardless)"),
}
WHOLE_PARAMS = ("talon_at_most",)


# greedy's knobs with seed 002's two-player endgame rule; counting from the parameters: COUNT_P = p[0] (p),
# COUNT = p[1] (talon_at_most)
K_COUNTING = knobs(ENDGAME=1)
_PK = ((0, COUNT_P), (1, COUNT))


@njit(_nrt=False)
def _k(p):
    return put_params(K_COUNTING, p, _PK)


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return h_attack(obs, _k(params))


@njit(_nrt=False)
def throw_in(obs, legal, params, rng):
    return h_throw_in(obs, legal, _k(params))
