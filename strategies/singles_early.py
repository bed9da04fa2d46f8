"""singles-early: lead single cards while the talon is large, sets (triples, fives) afterwards.

Simple durak only. The first half of the design card's pair (its twin is ``dump-triples-late``):
seed 002 says "Ходить лучше с одной карты, чем с троек" (lead one card rather than a triple), and
common table wisdom says a set led early gives the defender a full hand of fresh cards to cover
with. So: while the talon holds more than ``talon_above`` cards, lead the cheapest single card
(non-trump while any is left); from then on lead the largest legal set of cheap cards (two pairs
plus filler, else a pair plus filler), falling back to a single. Sets never include trumps while
non-trumps remain. Every other decision is greedy's (cheapest cover card by card, always exchange).

Sweep: ``durak run --rules prostoy_5 --strategy singles-early:talon_above=T --strategy greedy``.
``talon_above=-1`` = singles always (greedy's leads; the talon never holds -1 cards or fewer);
``talon_above=36`` = sets from the first bout. For one habit per strategy see ``singles-first``,
``sets-first``, ``sets-late`` and ``sets-when-loaded``.
"""
from numba import njit

from strategies._lib import BASE, DUMP_TALON, attack_with

NAME = "singles-early"
DESCRIPTION = "Simple durak: single-card leads while the talon is large, largest sets after."
FAMILIES = ("prostoy_5", "prostoy_6")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "talon_above": (6.0, -1.0, 36.0, "lead one card while the talon holds more than this many cards, your largest "
                    "set (triple, five) from then on (-1: always one card; 36: sets from the first bout)"),
}
WHOLE_PARAMS = tuple(PARAMS)


# greedy's knobs, with DUMP_TALON = p[0] (talon_above)
_PK = ((0, DUMP_TALON),)


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return attack_with(obs, BASE, params, _PK)
