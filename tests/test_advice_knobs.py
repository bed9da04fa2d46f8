"""advice-002 has one knob per habit, each of which can be switched off and changes play where
the habit applies (defaults: the behaviour before the knobs existed)."""
import pytest

from sim.core import rules as R
from sim.experiments import batch
from sim.experiments.experiment import Experiment

# knob=value switching one habit off, the family where it matters, the opponent that reaches the situation
CASES = [("endgame=0", "prostoy_5", "greedy"), ("trump_lead_talon=36", "prostoy_5", "greedy"),
         ("trump_throw_talon=36", "podkidnoy", "greedy"), ("take_max_pickup=0", "prostoy_6", "greedy"),
         ("take_max_pickup=36", "podkidnoy", "greedy"), ("whole_set_defence=0", "prostoy_6", "sets-first")]


def _tally(family, me, other):
    rules = R.resolve(family, 2)
    exp = Experiment(rules, batch.make_lineup(rules, [me, other]), seed=3, games=4000).run()
    t = exp.totals()
    return t["draw_rate"], t["mean_bouts"], t["first_attacker_fool_rate"]


@pytest.mark.parametrize("off,family,other", CASES)
def test_each_advice_habit_can_be_switched_off_and_changes_play(off, family, other):
    assert _tally(family, f"advice-002:{off}", other) != _tally(family, "advice-002", other)


def test_the_defaults_are_the_habits_switched_on():
    from strategies import advice_002 as A
    defaults = {k: v[0] for k, v in A.PARAMS.items()}
    assert defaults["endgame"] == 1 and defaults["whole_set_defence"] == 1
    assert defaults["trump_lead_talon"] == -1 and defaults["trump_throw_talon"] == 0
    assert all(len(v[3]) > 30 for v in A.PARAMS.values())  # each says what it changes


def test_tactics_endgame_is_its_own_knob_not_switched_by_count_known():
    """tactics: count_known used to switch the endgame rule silently; now each has its own knob. In 2-player
    podkidnoy the two overlap (with the talon empty every card is known), so only both off changes play."""
    from strategies import tactics as T
    assert T.PARAMS["endgame"][0] == 1 and "pair_lead_talon" in T.PARAMS["trump_lead_talon"][3]
    base = _tally("podkidnoy", "tactics", "greedy")
    assert _tally("podkidnoy", "tactics:count_known=0", "greedy") != _tally("podkidnoy",
                                                                          "tactics:count_known=0,endgame=0", "greedy")
    assert _tally("podkidnoy", "tactics:count_known=0,endgame=0", "greedy") != base
