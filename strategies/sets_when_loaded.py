"""sets-when-loaded: Seed 002's whole conditional rule: singles while the talon is big, the largest set once the hand
holds 7 cards or more («Когда от частых приемов накопится на руках много карт, тогда выгоднее ходить
с троек и пятерок») or the talon is down to 3. Differs from ``sets-late`` in exactly one habit
(the loaded-hand trigger), from ``singles-first`` in two.

Every other decision is greedy's (cheapest cover card by card, cheap throw-ins, always exchange the
trump six). The three knobs are the same in all four set-lead strategies (only their defaults differ),
so any habit can be switched on or off in any of them, e.g.
``durak run --rules prostoy_5 --strategy sets-when-loaded:sets_when_hand_at_least=99 --strategy greedy``.
The body is ``strategies/_set_leads.py``.
Settled comparison: ``durak settle singles-vs-triples``.
"""
from strategies._set_leads import WHOLE_PARAMS, attack, params  # noqa: F401  (attack: the set-lead body; params: the knobs)

NAME = "sets-when-loaded"
DESCRIPTION = "Simple durak: singles early, sets once the hand is loaded (7+) or the talon is low (002)."
FAMILIES = ("prostoy_5", "prostoy_6")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = params(sets_from_start=0.0, sets_when_talon_at_most=3.0, sets_when_hand_at_least=7.0)
