"""Honest statistics, verified: interval coverage, false positives, and what pairing buys."""

from sim.experiments import batch
from sim.core import rules as R
from sim.experiments.compare import Arm, Comparison
from sim.core.records import to_records
from sim.experiments.stats import wilson


def test_wilson_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0 and 0.27 < hi < 0.28  # textbook: 0 of 10 -> [0, 0.278]
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.404) < 1e-3 and abs(hi - 0.596) < 1e-3


def test_95_percent_intervals_cover_the_true_rate_about_95_percent(runner_for):
    """400 small experiments (300 games) against a 1,000,000-game reference run."""
    r = runner_for("podkidnoy", 2, strategies=("greedy", "random"))
    ref = to_records(r.play_raw(seed=99, series0=0, n_series=1_000_000))
    p_true = float((ref["outcome"][:, 1] == 2).mean())  # random's fool rate
    small = to_records(r.play_raw(seed=7, series0=0, n_series=400 * 300))
    fools = (small["outcome"][:, 1] == 2).reshape(400, 300).sum(axis=1)
    lo, hi = wilson(fools, 300)
    coverage = float(((lo <= p_true) & (p_true <= hi)).mean())
    # 400 experiments: the standard error of the coverage is ~1.1 points
    assert 0.915 <= coverage <= 0.985, coverage


def _arm(label, family="podkidnoy", n=2, toggles=None, strategies=("random",)):
    rules = R.resolve(family, n, toggles or {})
    return Arm(label, rules, batch.make_lineup(rules, strategies))


def test_compare_of_identical_rule_sets_on_the_same_deals_finds_nothing():
    c = Comparison(_arm("A"), _arm("B"), seed=3, games=20_000, threads=1).run()
    df = c.table()
    assert (df["diff"] == 0).all() and not df["significant"].any()
    assert "played identical games" in c.verdict("fool_role0")


def test_compare_false_positive_rate_is_about_five_percent():
    """200 null comparisons (same rules, independent deals): p < 0.05 about 5% of the time."""
    hits = 0
    trials = 200
    for k in range(trials):
        c = Comparison(_arm("A"), _arm("B"), seed=1000 + k, seed_b=5000 + k, games=1000, threads=1,
                       rotate=False).run()
        hits += c.table().loc["fool_role0", "p"] < 0.05
    assert 2 <= hits <= 20, hits  # 5% of 200 = 10, sd ~3.1


def test_pairing_narrows_intervals_and_finds_a_real_effect():
    a = _arm("exchange", "prostoy_5", 2, {"trump_six_exchange": "true"}, ("greedy",))
    b = _arm("no exchange", "prostoy_5", 2, {"trump_six_exchange": "false"}, ("greedy",))
    paired = Comparison(a, b, seed=5, games=100_000).run().table()
    indep = Comparison(a, b, seed=5, seed_b=6, games=100_000).run().table()
    row, irow = paired.loc["first_attacker_fool"], indep.loc["first_attacker_fool"]
    # the same deals make the interval much narrower than independent samples would
    assert row["narrowing"] > 0.3
    assert row["paired_se"] < 0.7 * irow["paired_se"]
    assert abs(irow["narrowing"]) < 0.05  # with independent deals there is nothing to gain
    assert row["significant"]
