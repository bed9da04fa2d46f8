"""Every knob strategy's compiled ``_k`` is its named table (``strategies/_lib.py``'s ``knobs(...)``) with its
parameters put on the knobs they name (``put_params`` / expert's ``put_tuned``), value for value, index for index."""
import itertools

import numpy as np
import pytest

from sim.referee.trace import to_core
from sim.core import dispatch
from sim.core.lib import O_N, O_RULES, O_SIZE
from sim.core.rules import MODE_PEREVODNOY, MODE_PODKIDNOY, MODE_PROSTOY, R_MODE, R_PARTIAL
from sim.experiments import batch
from strategies import _set_leads
from strategies._lib import BASE, KNOB_NAMES, NK, knobs

# strategy -> (its table: knobs changed from BASE, parameter name -> the knob it sets)
SIMPLE = {
    "counting": (dict(ENDGAME=1), dict(p="COUNT_P", talon_at_most="COUNT")),
    "singles-early": ({}, dict(talon_above="DUMP_TALON")),
    "dump-triples-late": ({}, dict(talon_at_most="DUMP_TALON", hand_at_least="DUMP_HAND")),
    "advice-002": (dict(HIGH_TRUMP_RANK=0), dict(
        dump_talon="DUMP_TALON", hand_at_least="DUMP_HAND", take_high_talon="TAKE_HIGH_TALON", high_rank="HIGH_RANK",
        exchange_min_rank="EXCHANGE_MIN_RANK", trump_lead_talon="TRUMP_LEAD_TALON",
        trump_throw_talon="THROW_TRUMP_TALON", take_max_pickup="TAKE_MAX_PICKUP", endgame="ENDGAME",
        whole_set_defence="MATCH", take_high_attack="TAKE_HIGH_ATTACK", avoid_draw="AVOID_DRAW",
        endgame_many="ENDGAME_MANY")),
    "tactics": (dict(TAKE_HIGH_TALON=10, TAKE_MAX_PICKUP=2, COUNT_P=0.9999), dict(
        trump_lead_talon="TRUMP_LEAD_TALON", take_trump_talon="TAKE_TRUMP_TALON", transfer="TRANSFER",
        pair_lead_talon="PAIR_LEAD_TALON", keep_trump_ace="KEEP_ACE", lone_trump_rank="LONE_TRUMP", endgame="ENDGAME",
        keep_pair_talon="KEEP_PAIR_TALON")),
}
SET_LEADS = dict(sets_from_start="SETS_EARLY", sets_when_talon_at_most="DUMP_TALON",
                 sets_when_hand_at_least="DUMP_HAND")


def _module(name):
    return dispatch.load_module(dispatch.info(name).path)


def _vectors(params):
    """Defaults, every low end, every high end, and a few whole values in range."""
    rng = np.random.default_rng(3)
    lo = [v[1] for v in params.values()]
    hi = [v[2] for v in params.values()]
    out = [[v[0] for v in params.values()], lo, hi]
    out += [[float(rng.integers(int(a), int(b) + 1)) for a, b in zip(lo, hi)] for _ in range(4)]
    return out


def _p(values):
    p = np.zeros(batch.N_PARAMS)
    p[:len(values)] = values
    return p


def _same(got, want):
    assert len(got) == NK and len(want) == NK
    assert np.array(got).tobytes() == np.array(want).tobytes(), [
        (i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]


@pytest.mark.parametrize("name", sorted(SIMPLE) + ["sets-first", "sets-late", "sets-when-loaded", "singles-first"])
def test_table_plus_params(name):
    mod = _module(name)
    table, to_knob = SIMPLE.get(name, ({}, SET_LEADS))
    k = _set_leads._k if name not in SIMPLE else mod._k
    assert list(to_knob) == [n for n in mod.PARAMS if n in to_knob]
    for values in _vectors(mod.PARAMS):
        named = dict(zip(mod.PARAMS, values))
        want = dict(table, **{knob: named[n] for n, knob in to_knob.items()})
        if name == "tactics":  # count_known switches counting on from count_talon
            assert set(mod.PARAMS) - set(to_knob) == {"count_known", "count_talon"}
            want["COUNT"] = named["count_talon"] if named["count_known"] > 0 else -1.0
        else:
            assert set(mod.PARAMS) == set(to_knob)
        _same(k(_p(values)), knobs(**want))


def test_base_is_greedy_default():
    assert len(BASE) == NK and knobs() == BASE


def test_expert_tables_and_tuned_params():
    X = _module("expert")
    tables = {
        (MODE_PODKIDNOY, 0): {2: X.K_POD2, 3: X.K_PODM, 4: X.K_POD_4, 5: X.K_POD_56, 6: X.K_POD_56},
        (MODE_PEREVODNOY, 0): {2: X.K_PER2, 3: X.K_PERM, 4: X.K_PER_4, 5: X.K_PER_56, 6: X.K_PER_56},
        (MODE_PROSTOY, 1): {2: X.K_P5_2, 3: X.K_P5_3, 4: X.K_P5_M, 5: X.K_P5_5, 6: X.K_P5_6},
        (MODE_PROSTOY, 0): {2: X.K_P6, 3: X.K_P6_M, 4: X.K_P6_M, 5: X.K_P6_M, 6: X.K_P6_6},
    }
    to_knob = {name: knob for name, knob, *_ in X._P}
    assert list(to_knob) == list(X.PARAMS)
    rng = np.random.default_rng(4)
    vectors = [[X.TUNED] * len(to_knob)] + _vectors(X.PARAMS)[1:]
    vectors += [[X.TUNED if rng.random() < 0.5 else v for v in vec] for vec in vectors[1:]]
    for (mode, partial), per_n in tables.items():
        for n, vec in itertools.product(per_n, vectors):
            obs = np.zeros(O_SIZE, dtype=np.int64)
            obs[O_RULES + R_MODE], obs[O_RULES + R_PARTIAL], obs[O_N] = mode, partial, n
            named = dict(zip(X.PARAMS, vec))
            want = knobs(per_n[n], **{to_knob[p]: v for p, v in named.items() if v != X.TUNED})
            _same(X._k(obs, _p(vec)), want)


def test_xp_pairs_on_expert():
    """research/strength/knobs/xp: knob i_k set to v_k on expert's table; -1, fractions and indices past the last
    knob set nothing; when two pairs name the same knob the first wins."""
    from research.strength.knobs import FOLDER
    from strategies._lib import KNOB_NAMES
    xp = dispatch.load_module(dispatch.info("xp", (FOLDER,)).path)
    X = _module("expert")
    obs = np.zeros(O_SIZE, dtype=np.int64)
    obs[O_RULES + R_MODE], obs[O_N] = MODE_PODKIDNOY, 2
    pairs = [(17, 0.3), (-1, 5.0), (2.5, 7.0), (NK, 1.0), (51, 40.0), (17, 0.8), (0, 3.0)]
    p = _p([x for ij in pairs for x in ij])
    _same(xp._k(obs, p), knobs(X.K_POD2, COUNT_P=0.3, ENDGAME_SOLVE=40, TRUMP_LEAD_TALON=3))
    assert KNOB_NAMES[17] == "COUNT_P" and KNOB_NAMES[51] == "ENDGAME_SOLVE"
    p[14] = 1  # old=1: expert's one table per family from before the per-player-count tables
    _same(xp._k(obs, p), knobs(X.K_POD, COUNT_P=0.3, ENDGAME_SOLVE=40, TRUMP_LEAD_TALON=3))


def test_playout_caps_the_endgame_solver_and_turns_the_rollouts_off():
    """expert.PLAYOUT (search's and rollout's imagined games) is expert's table with the exact endgame solver capped
    at 1,000 nodes and 8 cards (at 2 and 3 players the caps lie above the tables) and no three-player rollouts."""
    X = _module("expert")
    es, esc = KNOB_NAMES.index("ENDGAME_SOLVE"), KNOB_NAMES.index("ENDGAME_SOLVE_CARDS")
    ro = KNOB_NAMES.index("ROLLOUT_SAMPLES")
    for n, table in ((2, X.K_POD2), (3, X.K_PODM), (4, X.K_POD_4), (5, X.K_POD_56), (6, X.K_POD_56)):
        obs = np.zeros(O_SIZE, dtype=np.int64)
        obs[O_RULES + R_MODE], obs[O_N] = MODE_PODKIDNOY, n
        want = knobs(table, ENDGAME_SOLVE=min(table[es], 1000.0), ENDGAME_SOLVE_CARDS=min(table[esc], 8.0),
                     ROLLOUT_SAMPLES=0)
        _same(X._k(obs, X.PLAYOUT), want)
        assert table[ro] == (0 if n == 2 else 2)
        if n <= 3:
            _same(X._k(obs, X.PLAYOUT), knobs(table, ROLLOUT_SAMPLES=0))
        else:
            assert X._k(obs, X.PLAYOUT)[esc] == 8.0 < table[esc]


def test_set_trump_talon_pairs_a_trump_with_a_non_trump_of_its_rank():
    """prostoy_6 at 6 players (K_P6_6: trumps kept out of leads, sets dumped): the non-trumps 8C 9D JS KD AS make no
    pair, so without the knob expert leads a single; with SET_TRUMP_TALON the trump 8H pairs with 8C and the cheapest
    non-trump fills the triple. With a non-trump pair in hand the knob changes nothing."""
    from sim.core import layout as L
    from sim.core.cards import card_name
    from sim.core.machine import Deal
    from strategies._lib import h_attack
    from tests.test_seed_knobs import _position
    X = _module("expert")

    def lead(mine):
        rest = [c for c in (r + s for s in "CDHS" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A"))
                if c not in mine]
        hands = [mine] + [rest[i:i + 6] for i in range(0, 30, 6)]
        rules, ws = to_core("prostoy_6", {"teams": "none"}, _position(6, hands, trump="6H"))
        assert int(ws[L.O_KIND]) == L.K_ATTACK and int(ws[L.O_ACTOR]) == 0
        obs = Deal.from_state(rules, ws).observe(0)
        return [sorted(card_name(c) for c in range(36) if (int(h_attack(obs, k)) >> c) & 1)
                for k in (X.K_P6_6, knobs(X.K_P6_6, SET_TRUMP_TALON=-1))]

    on, off = lead(["8C", "8H", "9D", "JS", "KD", "AS"])
    assert X.K_P6_6[KNOB_NAMES.index("SET_TRUMP_TALON")] == 0
    assert on == ["8C", "8H", "9D"] and off == ["8C"]
    on, off = lead(["8C", "8H", "9D", "JS", "JD", "AS"])
    assert on == off == ["8C", "JD", "JS"]  # a non-trump pair: the same set (cheapest pair, cheapest filler)
