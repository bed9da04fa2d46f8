"""sets-first: Differs from ``singles-first`` in one habit: lead the largest legal set (two pairs plus filler,
else a pair plus filler; cheapest cards, no trumps while non-trumps remain) from the very first bout.
Seed 002 warns against leading sets of good cards and trumps, not against sets as such.

Every other decision is greedy's (cheapest cover card by card, cheap throw-ins, always exchange the
trump six). The three knobs are the same in all four set-lead strategies (only their defaults differ),
so any habit can be switched on or off in any of them, e.g.
``durak run --rules prostoy_5 --strategy sets-first:sets_when_hand_at_least=99 --strategy greedy``.
The body is ``strategies/_set_leads.py``.
Settled comparison: ``durak settle singles-vs-triples``.
"""
from strategies._set_leads import WHOLE_PARAMS, attack, params  # noqa: F401  (attack: the set-lead body; params: the knobs)

NAME = "sets-first"
DESCRIPTION = "Simple durak: lead the largest set of cheap cards from the first bout."
FAMILIES = ("prostoy_5", "prostoy_6")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = params(sets_from_start=1.0, sets_when_talon_at_most=-1.0, sets_when_hand_at_least=99.0)
