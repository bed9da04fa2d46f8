"""singles-first: Leads a single card, the cheapest non-trump, every time: the common base of the four set-lead
habits (``sets-first``, ``sets-late``, ``sets-when-loaded``), each of which switches on exactly one
way of leading sets. With every knob at its default this plays greedy's leads.

Every other decision is greedy's (cheapest cover card by card, cheap throw-ins, always exchange the
trump six). The three knobs are the same in all four set-lead strategies (only their defaults differ),
so any habit can be switched on or off in any of them, e.g.
``durak run --rules prostoy_5 --strategy singles-first:sets_when_hand_at_least=99 --strategy greedy``.
The body is ``strategies/_set_leads.py``.
Settled comparison: ``durak settle singles-vs-triples``.
"""
from strategies._set_leads import WHOLE_PARAMS, attack, params  # noqa: F401  (attack: the set-lead body; params: the knobs)

NAME = "singles-first"
DESCRIPTION = "Simple durak: always lead one card, the cheapest (greedy's leads); the base of the set-lead habits."
FAMILIES = ("prostoy_5", "prostoy_6")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = params(sets_from_start=0.0, sets_when_talon_at_most=-1.0, sets_when_hand_at_least=99.0)
