"""dump-triples-late: lead singles, but dump triples and fives late or when the hand has swollen.

Simple durak only. The second half of the design card's pair (its twin is ``singles-early``),
straight from seed 002: "Если же остается в колоде две или три карты, то нужно стараться как
можно скорее сбывать свои карты. Когда от частых приемов накопится на руках много карт, тогда
выгоднее ходить с троек и пятерок" — once the talon is down to ``talon_at_most`` cards, or the hand
holds ``hand_at_least`` cards or more, lead the largest legal set (two pairs plus filler, else a
pair plus filler; cheapest cards, no trumps while non-trumps remain); otherwise lead the cheapest
single. Every other decision is greedy's.

Sweep both thresholds, e.g.
``durak run --rules prostoy_5 --strategy dump-triples-late:talon_at_most=3,hand_at_least=7 --strategy greedy``.
``hand_at_least=99`` turns the hand trigger off (then it equals ``singles-early:talon_above=T``).
"""
from numba import njit

from strategies._lib import BASE, DUMP_HAND, DUMP_TALON, attack_with

NAME = "dump-triples-late"
DESCRIPTION = "Simple durak: singles, but the largest set once the talon is low or the hand is big."
FAMILIES = ("prostoy_5", "prostoy_6")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "talon_at_most": (3.0, -1.0, 36.0, "lead your largest set (triple, five) once the talon holds at most this many "
                      "cards (-1: never)"),
    "hand_at_least": (7.0, 1.0, 99.0, "lead your largest set while your hand holds at least this many cards "
                      "(99: never)"),
}
WHOLE_PARAMS = tuple(PARAMS)


# greedy's knobs, with DUMP_TALON = p[0] (talon_at_most), DUMP_HAND = p[1] (hand_at_least)
_PK = ((0, DUMP_TALON), (1, DUMP_HAND))


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return attack_with(obs, BASE, params, _PK)
