"""sets-late: Differs from ``singles-first`` in one habit: once the talon holds at most 3 cards, lead the largest
set (seed 002: «Если же остается в колоде две или три карты, то нужно стараться как можно скорее
сбывать свои карты»).

Every other decision is greedy's (cheapest cover card by card, cheap throw-ins, always exchange the
trump six). The three knobs are the same in all four set-lead strategies (only their defaults differ),
so any habit can be switched on or off in any of them, e.g.
``durak run --rules prostoy_5 --strategy sets-late:sets_when_hand_at_least=99 --strategy greedy``.
The body is ``strategies/_set_leads.py``.
Settled comparison: ``durak settle singles-vs-triples``.
"""
from strategies._set_leads import WHOLE_PARAMS, attack, params  # noqa: F401  (attack: the set-lead body; params: the knobs)

NAME = "sets-late"
DESCRIPTION = "Simple durak: singles, then dump triples and fives once the talon is low."
FAMILIES = ("prostoy_5", "prostoy_6")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = params(sets_from_start=0.0, sets_when_talon_at_most=3.0, sets_when_hand_at_least=99.0)
