"""singles-first: Leads a single card, the cheapest non-trump, every time: the common base of the four set-lead
habits (``sets-first``, ``sets-late``, ``sets-when-loaded``), each of which switches on exactly one
way of leading sets. With every knob at its default this plays greedy's leads.

Every other decision is greedy's (cheapest cover card by card, cheap throw-ins, always exchange the
trump six). The three knobs are the same in all four set-lead strategies (only their defaults differ),
so any habit can be switched on or off in any of them, e.g.
``durak run --rules prostoy_5 --strategy singles-first:sets_when_hand_at_least=99 --strategy greedy``.
Knobs of strategies/_lib.py used: ``SETS_EARLY``, ``DUMP_TALON``, ``DUMP_HAND``.
Settled comparison: ``durak settle singles-vs-triples`` (issue 13 §6).
"""
from numba import njit

from strategies._lib import h_attack

NAME = "singles-first"
DESCRIPTION = "Simple durak: always lead one card, the cheapest (greedy's leads); the base of the set-lead habits."
FAMILIES = ("prostoy_5", "prostoy_6")
PARAMS = {
    "sets_from_start": (0.0, 0.0, 1.0, "1: lead the largest set of cheap cards from the first bout; 0: lead one card "
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
