"""Every knob strategy's compiled ``_k`` is its named table (``strategies/_knobs.py``'s ``knobs(...)``) with its
parameters put on the knobs they name (``put_params`` / expert's ``put_tuned`` and ``put_capped``), value for value,
index for index; and the knob registry agrees with the index constants the compiled code reads."""
import itertools

import numpy as np
import pytest
from numba import njit

from sim.referee.trace import to_core
from sim.core import dispatch
from sim.core.lib import O_N, O_RULES, O_SIZE
from sim.core.rules import MODE_PEREVODNOY, MODE_PODKIDNOY, MODE_PROSTOY, R_MODE, R_PARTIAL
from strategies import _knobs, _lib, _set_leads
from strategies._lib import BASE, KNOB_NAMES, NK, knobs, put_params

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


@njit
def _put(base, p, pairs):
    return put_params(base, p, pairs)


def _table_of(mod):
    """A strategy's knob table for a parameter vector: its `_k`, or for a strategy whose only decision is a lead
    (attack_with), greedy's table with its parameters put in by its `_PK`."""
    return getattr(mod, "_k", None) or (lambda p: _put(BASE, p, mod._PK))


def rules_obs(family, n, toggles):
    """A blank observation of n players that carries these rules (for the knob and variant lookups, which read only
    the rules and the player count)."""
    from sim.core import rules as R
    v = R.resolve(family, n, toggles).vector()
    obs = np.zeros(O_SIZE, dtype=np.int64)
    obs[O_RULES:O_RULES + len(v)] = v
    obs[O_N] = n
    return obs


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
    p = np.zeros(max(dispatch.MIN_PARAMS, len(values)))
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
    k = _table_of(_set_leads if name not in SIMPLE else mod)
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


# greedy's play as the knob list stood before the registry (index order): the registry must keep every index
_BEFORE = (
    ("TRUMP_LEAD_TALON", -1), ("PAIR_LEAD_TALON", -1), ("DUMP_TALON", -1), ("DUMP_HAND", 99), ("SETS_EARLY", 0),
    ("TAKE_HIGH_TALON", 99), ("HIGH_RANK", 9), ("HIGH_TRUMP_RANK", 9), ("TAKE_MAX_PICKUP", 0), ("LONE_TRUMP", 99),
    ("TAKE_TRUMP_TALON", 99), ("KEEP_ACE", 0), ("TRANSFER", 0), ("THROW_TRUMP_TALON", 0), ("THROW_MAX_RANK", 8),
    ("EXCHANGE_MIN_RANK", 1), ("COUNT", -1), ("COUNT_P", 1), ("ENDGAME", 0), ("MATCH", 0), ("TAKE_HIGH_ATTACK", 99),
    ("AVOID_DRAW", 0), ("ENDGAME_MANY", 0), ("KEEP_PAIR_TALON", 99), ("LEAD_MIN_RANK", 0), ("LEAD_RANK_TALON", 36),
    ("THROW_COVER_MAX_RANK", 8), ("THROW_TAKE_MAX_RANK", 8), ("COVER_TABLE_RANK", -1), ("LEAD_PAIR", -1),
    ("THROW_NEXT_MAX_RANK", 8), ("THROW_NEXT_TAKE_MAX_RANK", 8), ("THROW_FAR_MAX_RANK", 8), ("THROW_ATT_MAX_RANK", 8),
    ("ROLE_TALON", 0), ("ROLE_TALON_MAX", 36), ("COVER_OPEN_STEPS", -1), ("COVER_OPEN_TRUMP_STEPS", -1),
    ("COVER_OPEN_COST", 0), ("COVER_OPEN_EXPECT", 0), ("LEAD_OPEN_STEPS", -1), ("LEAD_OPEN_SIGN", 1), ("TAKE_OPEN", 99),
    ("TAKE_OPEN_TALON", 0), ("TAKE_FIRST_RANK", 99), ("TAKE_FIRST_ACTIVE", 4), ("TAKE_FIRST_DISCARD", 5),
    ("TAKE_FIRST_TABLE", 1), ("ENDGAME_MANY_MAX", 6), ("THROW_TRUMP_ACTIVE", 6), ("TAKE_HIGH_ACTIVE", 99),
    ("ENDGAME_SOLVE", 0), ("ENDGAME_SOLVE_CARDS", 0), ("SET_TRUMP_TALON", -1), ("ROLLOUT_SAMPLES", 0),
    ("ROLLOUT_ACTIVE", 3), ("ROLLOUT_SELF", 0),
)


def test_registry_agrees_with_the_index_constants():
    """Each knob's index constant (in _knobs and as _lib re-exports it for the compiled code) is its place in the
    registry; KNOB_NAMES, BASE and NK follow the registry; every entry is well formed; and the indices and greedy's
    values are those the knob list had before the registry (appending a knob is fine, moving one is not)."""
    assert NK == len(_knobs.KNOBS) == len(KNOB_NAMES) == len(set(KNOB_NAMES))
    for i, kn in enumerate(_knobs.KNOBS):
        assert getattr(_knobs, kn.name) == i and getattr(_lib, kn.name) == i, kn.name
        assert KNOB_NAMES[i] == kn.name and BASE[i] == kn.default and _knobs.KNOB[kn.name] is kn
        assert kn.low <= kn.default <= kn.high, kn.name
        assert kn.off is None or kn.low <= kn.off <= kn.high, kn.name
        assert kn.meaning and "\n" not in kn.meaning and "issue" not in kn.meaning.lower(), kn.name
        assert not kn.whole or all(float(x).is_integer() for x in (kn.default, kn.low, kn.high)), kn.name
    assert [(n, float(v)) for n, v in _BEFORE] == list(zip(KNOB_NAMES, BASE))[:len(_BEFORE)]
    assert all(kn.name in _knobs.knob_table() for kn in _knobs.KNOBS)


@pytest.mark.parametrize("name", sorted(SIMPLE) + ["expert"])
def test_library_tables_lie_in_the_registry_ranges(name):
    mod = _module(name)
    tables = list(mod.TABLES.values()) if name == "expert" else [
        v for v in vars(mod).values() if isinstance(v, tuple) and len(v) == NK]
    assert tables, name
    for t in tables:
        for kn, v in zip(_knobs.KNOBS, t):
            assert kn.low <= v <= kn.high and (not kn.whole or float(v).is_integer()), (name, kn.name, v)


def test_expert_tables_and_tuned_params():
    X = _module("expert")
    fams = {(MODE_PODKIDNOY, 0): "podkidnoy", (MODE_PEREVODNOY, 0): "perevodnoy", (MODE_PROSTOY, 1): "prostoy_5",
            (MODE_PROSTOY, 0): "prostoy_6"}
    tables = {key: {n: X.table(fam, n) for n in range(2, 7)} for key, fam in fams.items()}
    assert sorted((f, n) for f, ns in X.TABLES for n in ns) == sorted((f, n) for f in X.FAMILIES for n in range(2, 7))
    to_knob = {name: knob for name, knob, *_ in X._P}
    assert list(to_knob) == list(X.PARAMS) and set(X.CAPS) < set(to_knob)
    rng = np.random.default_rng(4)
    vectors = [[X.TUNED] * len(to_knob)] + _vectors(X.PARAMS)[1:]
    vectors += [[X.TUNED if rng.random() < 0.5 else v for v in vec] for vec in vectors[1:]]
    for (mode, partial), per_n in tables.items():
        for n, vec in itertools.product(per_n, vectors):
            obs = np.zeros(O_SIZE, dtype=np.int64)
            obs[O_RULES + R_MODE], obs[O_RULES + R_PARTIAL], obs[O_N] = mode, partial, n
            named = dict(zip(X.PARAMS, vec))
            t = per_n[n]
            want = knobs(t, **{to_knob[p]: v for p, v in named.items() if v != X.TUNED and p not in X.CAPS})
            want = knobs(want, **{to_knob[p]: min(t[KNOB_NAMES.index(to_knob[p])], v) for p, v in named.items()
                                  if v != X.TUNED and p in X.CAPS})
            _same(X._k(obs, _p(vec)), want)
            if n == 2:  # a vector of the first 16 only leaves the caps out
                _same(X._k(obs, _p(vec[:16])), knobs(want, **{to_knob[p]: t[KNOB_NAMES.index(to_knob[p])]
                                                              for p in X.CAPS}))


def test_a_variant_sets_back_its_habits_and_nothing_else():
    """expert.HABIT_VARIANTS: the compiled `_variant_on` says which variant a rules vector plays (exactly that one, and
    none in the plain family), and `_k` puts VARIANT_TABLES' knobs on the family's table under that variant only, below
    the parameters (a parameter still sets its knob)."""
    X = _module("expert")
    for v, (name, toggles, families) in enumerate(X.HABIT_VARIANTS):
        for fam, n in itertools.product(families, (2, 3, 4, 6)):
            for tog, on in ((toggles, True), ({}, False)):
                obs = rules_obs(fam, n, tog)
                assert [bool(X._variant_on(obs, u)) for u in range(len(X.HABIT_VARIANTS))] == \
                    [on and u == v for u in range(len(X.HABIT_VARIANTS))], (name, fam, n, on)
                back = next((d for (vn, f, ns), d in X.VARIANT_TABLES.items()
                             if on and vn == name and f == fam and n in ns), {})
                _same(X._k(obs, X.params()), knobs(X.table(fam, n), **back))
                _same(X._k(obs, X.params(count=5)), knobs(X.table(fam, n), **{**back, "COUNT": 5}))
    assert all(name in [v[0] for v in X.HABIT_VARIANTS] and set(d) <= set(KNOB_NAMES)
               for (name, _, _), d in X.VARIANT_TABLES.items())


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
    _same(xp._k(obs, p), knobs(X.table("podkidnoy", 2), COUNT_P=0.3, ENDGAME_SOLVE=40, TRUMP_LEAD_TALON=3))
    assert KNOB_NAMES[17] == "COUNT_P" and KNOB_NAMES[51] == "ENDGAME_SOLVE"
    p[14] = 1  # old=1: expert's one table per family from before the tuning rounds (K_POD in expert-tuning.md)
    k_pod = knobs(COUNT=3, COUNT_P=0.9, ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=12, HIGH_RANK=9,
                  HIGH_TRUMP_RANK=4, EXCHANGE_MIN_RANK=1)
    _same(xp._k(obs, p), knobs(k_pod, COUNT_P=0.3, ENDGAME_SOLVE=40, TRUMP_LEAD_TALON=3))


def test_playout_caps_the_endgame_solver_and_turns_the_rollouts_off():
    """expert.PLAYOUT (search's and rollout's imagined games) is expert's table with the exact endgame solver capped
    at 1,000 nodes and 8 cards (at 2 and 3 players the caps lie above the tables) and no three-player rollouts."""
    X = _module("expert")
    es, esc = KNOB_NAMES.index("ENDGAME_SOLVE"), KNOB_NAMES.index("ENDGAME_SOLVE_CARDS")
    ro = KNOB_NAMES.index("ROLLOUT_SAMPLES")
    for n, table in ((n, X.table("podkidnoy", n)) for n in range(2, 7)):
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
    """prostoy_6 at 6 players (expert's table: trumps kept out of leads, sets dumped): the non-trumps 8C 9D JS KD AS make no
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
                for k in (X.table("prostoy_6", 6), knobs(X.table("prostoy_6", 6), SET_TRUMP_TALON=-1))]

    on, off = lead(["8C", "8H", "9D", "JS", "KD", "AS"])
    assert X.table("prostoy_6", 6)[KNOB_NAMES.index("SET_TRUMP_TALON")] == 0
    assert on == ["8C", "8H", "9D"] and off == ["8C"]
    on, off = lead(["8C", "8H", "9D", "JS", "JD", "AS"])
    assert on == off == ["8C", "JD", "JS"]  # a non-trump pair: the same set (cheapest pair, cheapest filler)
