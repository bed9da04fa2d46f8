"""strategies/_rollout.py (expert's ROLLOUT_SAMPLES): with few players left and the talon empty, the
option whose imagined games (greedy in every seat) end best for the seat, checked against the same games played
here through the Deal API, option by option, on real positions where nothing is hidden from the seat
(podkidnoy with three players in, simple durak with two or three)."""
import functools

import numpy as np
import pytest

from sim.core import layout as L
from sim.core import rules as R
from sim.core.lib import O_N, O_OUT, O_TALON, RANK_MASKS
from sim.core.machine import Deal
from strategies import expert as X
from strategies import greedy as G
from strategies import _lib as H
from strategies._lib import KNOB_NAMES, knobs, unseen
from strategies._rollout import rollout_choice, rollout_here

pytestmark = pytest.mark.slow  # the rollouts compile for a minute: the slow tier

GF = (G.attack, G.cover, G.throw_in, G.transfer, G.exchange)
ZERO = np.zeros(16)
OWN = {L.K_ATTACK: lambda o, lg, k: H.h_attack(o, k), L.K_COVER: H.h_cover, L.K_THROW_IN: H.h_throw_in}


def _greedy_to_end(d, me, own=None):
    """Play d out with greedy in every seat (seat me by the knob table `own` if given: ROLLOUT_SELF); +1 / 0 / -1
    for seat me (escaped, drew, fool)."""
    rng = np.zeros(1, dtype=np.uint64)
    while not d.over:
        seat, kind = d.to_act()
        obs, legal = d.observe(seat), np.int64(d.ws[L.S_LEGAL])
        if own is not None and seat == me and kind in OWN:
            a = OWN[kind](obs, legal, own)
        else:
            a = GF[kind](obs, legal, ZERO, rng)
        assert d.apply(int(a))
    rec = d.result()
    if rec[L.F_UNFINISHED]:
        return 0
    o = int(rec[L.F_OUTCOME + me])
    return 1 if o == L.OUT_ESCAPED else (-1 if o == L.OUT_FOOL else 0)


def _positions(family, n, want):
    """Decisions of real deals (greedy playing) where the rollout plays (podkidnoy: three players in; simple durak:
    two or three), the talon empty, more than one option and every card placed for the seat to act (nothing
    hidden: a rollout's guesses are exact)."""
    rules = R.resolve(family, n)
    rng = np.zeros(1, dtype=np.uint64)
    out = []
    fewest = 3 if family == "podkidnoy" else 2
    for i in range(400):
        d = Deal(rules, 7, i)
        while not d.over and len(out) < want:
            seat, kind = d.to_act()
            obs = d.observe(seat)
            if (kind in (L.K_ATTACK, L.K_COVER, L.K_THROW_IN) and obs[O_TALON] == 0
                    and fewest <= obs[O_N] - bin(int(obs[O_OUT])).count("1") <= 3 and unseen(obs) == 0
                    and len(d.legal_options()) > 1):
                out.append((rules, Deal.from_state(rules, d.ws), seat, kind))
                break
            assert d.apply(int(GF[kind](obs, np.int64(d.ws[L.S_LEGAL]), ZERO, rng)))
        if len(out) >= want:
            break
    return out


def _options(d, kind, first):
    """The options the rollout tries (its docstring): leads of any single, and in podkidnoy any whole rank held
    twice or more, in simple durak any pair (the two lowest of a rank) or two pairs with any one card; any legal
    cover / throw-in card, take / pass."""
    legal = d.legal_options()
    if kind != L.K_ATTACK:
        return legal
    hand = int(d.ws[L.S_HANDS + d.to_act()[0]])
    cards = [c for c in range(36) if (hand >> c) & 1]
    mine = {1 << c for c in cards}
    if d.rules.family == "podkidnoy":
        mine |= {hand & int(m) for m in RANK_MASKS}
    else:
        ranks = [[c for c in cards if c >> 2 == r] for r in range(9)]
        pairs = [(1 << x[0]) | (1 << x[1]) for x in ranks if len(x) >= 2]
        groups = [p for p in pairs] + [p | q for i, p in enumerate(pairs) for q in pairs[i + 1:]]
        mine |= {g | (1 << c) for g in groups for c in cards if not (g >> c) & 1}
    return {a for a in mine if a in legal} | {first}


WANT = (("podkidnoy", 6, 24), ("prostoy_5", 6, 8), ("prostoy_6", 6, 8), ("prostoy_5", 2, 6))
N_POSITIONS = sum(w for *_, w in WANT)


@functools.cache
def positions():
    """Found on first use, not at collection: finding them compiles the core, which every worker of the default
    tier (where this module is deselected) would otherwise pay for at start-up."""
    return [p for fam, n, want in WANT for p in _positions(fam, n, want)]


def test_positions_were_found():
    assert len(positions()) == N_POSITIONS
    assert {k for *_, k in positions()} >= {L.K_ATTACK, L.K_COVER, L.K_THROW_IN}
    assert {r.family for r, *_ in positions()} == {"podkidnoy", "prostoy_5", "prostoy_6"}


@pytest.mark.parametrize("own", [0, 1], ids=["greedy", "self"])
@pytest.mark.parametrize("i", range(N_POSITIONS))
def test_rollout_picks_an_option_whose_greedy_game_ends_best(i, own):
    """own=1 (ROLLOUT_SELF): the seat itself plays its imagined games by expert's knob table, rollouts off."""
    rules, d, seat, kind = positions()[i]
    obs = d.observe(seat)
    legal = int(obs[L.O_HAND]) if kind == L.K_ATTACK else int(d.ws[L.S_LEGAL])
    first = int(GF[kind](obs, np.int64(d.ws[L.S_LEGAL]), ZERO, np.zeros(1, dtype=np.uint64)))
    assert rollout_here(obs, 2.0, 3.0)
    k = knobs(X._k(obs, np.full(16, -99.0)), ROLLOUT_SELF=own)
    value = {}
    for a in _options(d, kind, first):
        e = Deal.from_state(rules, d.ws)
        assert e.apply(int(a))
        value[a] = _greedy_to_end(e, seat, k if own else None)  # h_* never roll out (expert's wrapper does)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = 12345
    pick = int(rollout_choice(obs, kind, np.int64(legal), np.int64(first), 2, k, ZERO, rng))
    assert pick in value
    assert value[pick] == max(value.values()), (pick, first, value)
    if value[first] == max(value.values()):
        assert pick == first  # ties go to the heuristic's own answer


def test_rollout_is_off_where_it_does_not_belong_and_in_search_playouts():
    rules, d, seat, kind = positions()[0]
    obs = d.observe(seat)
    assert not rollout_here(obs, 0.0, 3.0)
    for n, table in ((n, X.table("podkidnoy", n)) for n in (3, 4, 6)):
        assert table[KNOB_NAMES.index("ROLLOUT_SAMPLES")] == 2
        o = np.zeros(L.O_SIZE, dtype=np.int64)
        o[:] = obs
        o[L.O_N] = n
        assert X._k(o, X.PLAYOUT)[KNOB_NAMES.index("ROLLOUT_SAMPLES")] == 0  # search's imagined games: off
    assert X.table("podkidnoy", 2)[KNOB_NAMES.index("ROLLOUT_SAMPLES")] == 0
    assert X.table("perevodnoy", 6)[KNOB_NAMES.index("ROLLOUT_SAMPLES")] == 0
    two = obs.copy()
    two[L.O_TALON] = 1
    assert not rollout_here(two, 2.0, 3.0)  # a talon left: too much hidden
    assert knobs(ROLLOUT_SAMPLES=2)[KNOB_NAMES.index("ROLLOUT_SAMPLES")] == 2
