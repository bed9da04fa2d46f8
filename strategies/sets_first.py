"""sets-first: Differs from ``singles-first`` in one habit: lead the largest legal set (two pairs plus filler,
else a pair plus filler; cheapest cards, no trumps while non-trumps remain) from the very first bout.
Seed 002 warns against leading sets of good cards and trumps, not against sets as such.

Every other decision is greedy's (cheapest cover card by card, cheap throw-ins, always exchange the
trump six). The three knobs are the same in all four set-lead strategies (only their defaults differ),
so any habit can be switched on or off in any of them, e.g.
``durak run --rules prostoy_5 --strategy sets-first:sets_when_hand_at_least=99 --strategy greedy``.
Knobs of strategies/_lib.py used: ``SETS_EARLY``, ``DUMP_TALON``, ``DUMP_HAND``.
Settled comparison: ``durak settle singles-vs-triples`` (issue 13 §6).
"""
from numba import njit

from strategies._lib import h_attack

NAME = "sets-first"
DESCRIPTION = "Simple durak: lead the largest set of cheap cards from the first bout."
FAMILIES = ("prostoy_5", "prostoy_6")
PARAMS = {
    "sets_from_start": (1.0, 0.0, 1.0, "1: lead the largest set of cheap cards from the first bout; 0: lead one card "
                        "unless a rule below says otherwise"),
    "sets_when_talon_at_most": (-1.0, -1.0, 36.0, "lead the largest set once the talon holds at most this many "
                                "cards (-1: never)"),
    "sets_when_hand_at_least": (99.0, 1.0, 99.0, "lead the largest set while your hand holds at least this many "
                                "cards (99: never)"),
}


@njit(_nrt=False)
def _k(p):
    # greedy's defence and throw-ins; DUMP_TALON = p[1], DUMP_HAND = p[2], SETS_EARLY = p[0]
    return (-1.0, -1.0, p[1], p[2], p[0], 99.0, 9.0, 9.0, 0.0, 99.0, 99.0, 0.0, 0.0, 0.0,
            8.0, 1.0, -1.0, 1.0, 0.0, 0.0)


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return h_attack(obs, _k(params))
