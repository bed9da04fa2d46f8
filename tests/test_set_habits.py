"""The set-lead habits differ from a common base in exactly the habit named, one knob each."""
import pytest

from sim.core import rules as R
from sim.experiments import batch
from sim.experiments.compare import Arm, Comparison

BASE = "singles-first"
# strategy -> (the strategy it differs from, the one knob that differs)
ONE_KNOB = {"sets-first": (BASE, "sets_from_start"), "sets-late": (BASE, "sets_when_talon_at_most"),
            "sets-when-loaded": ("sets-late", "sets_when_hand_at_least")}


def _params(name):
    import importlib
    return importlib.import_module("strategies." + name.replace("-", "_")).PARAMS


def test_each_habit_differs_from_its_base_in_exactly_the_knob_named():
    for name, (base, knob) in ONE_KNOB.items():
        a, b = _params(name), _params(base)
        assert a.keys() == b.keys(), name
        differ = [k for k in a if a[k][0] != b[k][0]]
        assert differ == [knob], (name, differ)
        assert all(len(v) == 4 and len(v[3]) > 30 for v in a.values())  # every knob says what it changes


def test_every_habit_can_be_switched_off_back_to_the_base():
    off = {"sets_from_start": 0.0, "sets_when_talon_at_most": -1.0, "sets_when_hand_at_least": 99.0}
    for name in ONE_KNOB:
        p = _params(name)
        for k, v in off.items():
            assert p[k][1] <= v <= p[k][2], (name, k)


@pytest.mark.parametrize("family", ["prostoy_5", "prostoy_6"])
def test_singles_first_plays_greedys_game_and_a_habit_changes_it(family):
    """The base leads exactly like greedy: the same deals give the same games; switching one habit on changes them."""
    rules = R.resolve(family, 2)

    def cmp(x, y):
        return Comparison(Arm(x, rules, batch.make_lineup(rules, [x])), Arm(y, rules, batch.make_lineup(rules, [y])),
                          seed=5, games=3000).run().table()

    same = cmp(BASE, "greedy")
    assert (same["diff"] == 0).all() and (same["paired_se"] == 0).all()
    changed = cmp("sets-late", BASE)
    assert (changed["paired_se"] > 0).any()


def test_the_settled_set_lead_question_changes_one_knob_at_a_time_on_two_bases(tmp_path):
    from sim.experiments import settle as S
    Q = S.QUESTIONS["singles-vs-triples"].module  # questions/singles_vs_triples.py
    for base, specs in Q.SET_BASES.items():
        assert list(specs) == Q.SET_HABITS
    for habit, with_, without in Q.SET_STEPS[:3]:  # the last step is the whole 002 rule (two knobs), named so
        a, b = Q.SET_BASES["expert"][with_], Q.SET_BASES["expert"][without]

        def knobs(spec):
            return dict(x.split("=") for x in spec.split(":")[1].split(","))
        ka, kb = knobs(a), knobs(b)
        assert len({k for k in ka.keys() | kb.keys() if ka.get(k, "-99") != kb.get(k, "-99")}) == 1, habit
    folder = S.settle("singles-vs-triples", scale=0.002, root=tmp_path, panel=["greedy", "expert"])
    answer = next(x for x in (folder / "README.md").read_text().splitlines() if x.startswith("**The answer.**"))
    assert "With greedy's play" in answer and "With expert's play" in answer and "Unfinished games" in answer
    assert (folder / "heatmap-prostoy_6-expert.png").exists()
