"""The learned player: the options it weighs, its features, its shipped network, and the pipeline that makes it."""
import numpy as np
import pytest

from sim.core import layout as L
from sim.core import rules as R
from sim.core.machine import Deal
from sim.experiments import strength
from strategies import expert as X
from strategies import greedy as G
from strategies._features import MAXC, NF, NP, OPTION, POSITION, cannot_beat, option, options, position

CELLS = [("podkidnoy", 2, {}), ("perevodnoy", 3, {"pokaznoy": "true"}), ("prostoy_5", 4, {}),
         ("prostoy_6", 3, {}), ("podkidnoy", 4, {"teams": "2v2"}), ("perevodnoy", 6, {}),
         ("podkidnoy", 3, {"variant": "tryoshka"}), ("prostoy_5", 2, {"variant": "zanudny"})]
XP = np.full(16, X.TUNED)


def _decisions(family, n, toggles, deals=6, seed=3, with_legal=False, by=X):
    """(obs, kind, legal, answer[, every legal answer]) at every decision of a few deals played by `by` (a strategy
    module: expert, or greedy in the default tier, where expert's own functions would cost two to three minutes of
    compile; the engines hold sealed copies of their own). Greedy ignores expert's parameters XP."""
    fns = (by.attack, by.cover, by.throw_in, by.transfer, by.exchange, by.swap)
    rules = R.resolve(family, n, toggles)
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(deals):
        d = Deal(rules, seed, i)
        while not d.over:
            seat, kind = d.to_act()
            obs = d.observe(seat)
            legal = np.int64(d.ws[L.S_LEGAL])
            first = fns[kind](obs, legal, XP, rng)
            yield (obs, kind, legal, first) + ((set(d.legal_options()),) if with_legal else ())
            assert d.apply(int(first))


@pytest.mark.parametrize("family,n,toggles", CELLS, ids=[f"{f}-{n}-{t}" for f, n, t in CELLS])
def test_options_are_legal_distinct_and_every_answer_but_leads(family, n, toggles):
    """The options the learned player and search weigh (one function, _features.options): expert's answer first,
    no option twice, every one legal; every legal answer of a cover, throw-in, transfer or exchange, and every
    legal single-card lead up to the cap (break it: drop the transfers by showing, and the perevodnoy cells fail)."""
    a = np.zeros(MAXC, dtype=np.int64)
    seen = 0
    for obs, kind, legal, first, every in _decisions(family, n, toggles, with_legal=True, by=G):
        k = options(obs, kind, legal, first, a, 10)
        got = [int(x) for x in a[:k]]
        assert got[0] == first and len(set(got)) == k, (kind, got)
        assert set(got) <= every, (kind, set(got) - every)
        if kind == L.K_ATTACK:
            singles = [o for o in sorted(o for o in every if o & (o - 1) == 0) if o != first]
            assert set(singles[:10 - 1]) <= set(got), (singles, got)
        elif kind != L.K_SWAP:
            assert set(got) == every, (kind, every - set(got))
        seen += k > 1
    assert seen > 20


@pytest.mark.parametrize("family,n,toggles", CELLS[:4], ids=[f"{f}-{n}" for f, n, _ in CELLS[:4]])
def test_features_are_bounded_and_mark_the_heuristic_answer(family, n, toggles):
    """Every feature is finite and of order one (within [-3, 4]); the position block is the same for every option; 'heuristic'
    is 1 for expert's answer only; 'none' marks take / pass / keep."""
    cands = np.zeros(MAXC, dtype=np.int64)
    x = np.zeros(NF)
    for obs, kind, legal, first in _decisions(family, n, toggles, deals=3, by=G):
        k = options(obs, kind, legal, first, cands, 10)
        pc = np.zeros(36)
        sure = cannot_beat(obs, pc)
        position(obs, kind, x, sure)
        pos = x[:NP].copy()
        for j in range(k):
            option(obs, kind, legal, cands[j], first, x, pc, sure)
            assert np.all(np.isfinite(x)) and x.min() >= -3 and x.max() <= 4, dict(zip(POSITION + OPTION, x))
            assert np.array_equal(x[:NP], pos)
            assert x[NP + OPTION.index("heuristic")] == (cands[j] == first)
            none = cands[j] == L.NO_CARD if kind in (L.K_COVER, L.K_THROW_IN, L.K_TRANSFER) else None
            if none is not None:
                assert x[NP + OPTION.index("none")] == none


def test_the_shipped_network_matches_its_digest():
    """The parameters in strategies/_learned_model.py are the ones their META names (a hand edit fails this)."""
    from sim.learn import train as T
    from strategies import _learned_model as M
    assert M.W1.shape == (M.GROUPS, M.HIDDEN, NF)
    if M.META.get("trained"):
        assert T.digest(M.W1, M.B1, M.W2, M.B2, M.MARGIN) == M.META["digest"]
        assert M.META["decisions"] > 0 and M.META["data_seeds"]


def test_the_network_plays_under_a_variant_only_where_it_was_shown_to_beat_expert():
    """learned.network_here: always in the plain families; under a variant of expert.HABIT_VARIANTS exactly in the
    cells of NETWORK_VARIANTS (research.strength.learned_variants); under any other §6 modifier never."""
    from strategies import learned as LN
    from tests.test_knob_tables import rules_obs as obs_of
    for name, toggles, families in X.HABIT_VARIANTS:
        for fam in families:
            for n in (2, 3, 4, 6):
                want = any(v == name and f == fam and n in ns for v, f, ns in LN.NETWORK_VARIANTS)
                assert bool(LN.network_here(obs_of(fam, n, toggles))) == want, (name, fam, n)
                assert LN.network_here(obs_of(fam, n, {}))
    assert not LN.network_here(obs_of("podkidnoy", 2, {"variant": "korolevsky"}))


@pytest.mark.slow
def test_where_the_network_does_not_play_learned_plays_experts_answers():
    """Under a variant the network was not shown to play well (tryoshka, prostoy_6, 2 players) learned answers
    expert's answer at every decision (break it: drop the gate in learned.decide and the decisions differ). Slow:
    learned's decision functions cost a minute of compile."""
    from strategies import learned as LN
    lf = (LN.attack, LN.cover, LN.throw_in, LN.transfer, LN.exchange, LN.swap)
    assert not any(v == "tryoshka" and f == "prostoy_6" and 2 in ns for v, f, ns in LN.NETWORK_VARIANTS)
    p = np.full(16, -1.0)
    rng = np.zeros(1, dtype=np.uint64)
    seen = 0
    for obs, kind, legal, first in _decisions("prostoy_6", 2, {"lead_rule": "tryoshka"}, deals=20, seed=4):
        assert lf[kind](obs, legal, p, rng) == first, kind
        seen += 1
    assert seen > 100


@pytest.mark.slow
def test_the_network_waits_for_the_talon_and_the_wider_solver_plays_the_known_endgame():
    """talon_at_most=3: while the talon holds more than 3 cards learned plays expert's answer (break it: drop the
    gate in learned.decide and the network's own answers appear there, as they do at talon_at_most=120); the wider
    endgame solver (endgame_cards=14) changes answers only with the talon empty, and some there in both families
    (break it: ignore endgame_cards and none changes)."""
    from sim.core.lib import O_TALON
    from strategies import learned as LN
    lf = (LN.attack, LN.cover, LN.throw_in, LN.transfer, LN.exchange, LN.swap)
    rng = np.zeros(1, dtype=np.uint64)

    def p(talon, cards, nodes):
        v = np.full(16, -1.0)
        v[:3] = talon, cards, nodes
        return v
    gated, open_, narrow, wide = p(3, 0, 0), p(120, 0, 0), p(0, 0, 0), p(0, 14, 2000)
    late = early_open = 0
    solved = {"podkidnoy": 0, "perevodnoy": 0}
    for family in ("podkidnoy", "perevodnoy"):
        for obs, kind, legal, first in _decisions(family, 2, {}, deals=30, seed=8):
            talon = obs[O_TALON]
            a = lf[kind](obs, legal, gated, rng)
            if talon > 3:
                assert a == first, (family, kind, talon)
                early_open += lf[kind](obs, legal, open_, rng) != first
            else:
                late += a != first
            n, w = lf[kind](obs, legal, narrow, rng), lf[kind](obs, legal, wide, rng)
            if talon > 0:
                assert n == w, (family, kind, talon)
            solved[family] += n != w
    assert early_open > 0 and late > 0 and min(solved.values()) > 0, (early_open, late, solved)


@pytest.mark.slow
def test_learned_beats_greedy():
    """Seats rotated, 4,000 deals of 2-player podkidnoy: the learned player is clearly the stronger."""
    r = strength.head_to_head("podkidnoy", 2, "learned", "greedy", 4000, seed=5, threads=2)
    assert r["diff_lo"] > 10, r


@pytest.mark.slow
def test_a_small_retrain_learns(tmp_path):
    """Label a few dozen deals, fit: the loss falls and the network's own held-out picks (before the margin that
    falls back on expert's answer) lose less value than a uniform pick (break it: shuffle the targets in
    train.run and the regret test fails)."""
    pytest.importorskip("sklearn")
    from sim.learn import data as D
    from sim.learn import train as T
    files = D.generate(tmp_path, 7, plan=(("podkidnoy", 2, {}, 60),), samples=16, share=0.5, threads=2,
                       log=lambda s: None)
    rep = T.run(files, hidden=8, seed=1, write=False, log=lambda s: None, max_iter=30)
    first, last = rep["loss"]["podkidnoy 2 players"]
    assert last < first
    cell = rep["cells"][-1]
    assert cell["decisions"] > 30
    assert cell["network_raw_regret"] < cell["uniform_regret"], cell
    assert cell["network_regret"] <= cell["network_raw_regret"] + 1e-9 or cell["network_regret"] <= cell["expert_regret"]
    again = D.generate(tmp_path, 7, plan=(("podkidnoy", 2, {}, 60),), samples=16, share=0.5, threads=1,
                       log=lambda s: None)
    assert again == files  # kept, not played again
