"""The greedy loop (sim.core.greedy_bout) is greedy's decisions played without asking: the same deals.

Many deals over random two-player throw-in rule sets are played twice from every lead: by `greedy_bouts`, and
decision by decision, greedy's own functions answering through the core's `apply`, for as many bouts as the loop
played. The states where the loop hands the deal back and the records must be the same, word for word, except
the throw-in round's bookkeeping that the next round sets afresh and, once the deal is over, the last bout's
table that nobody reads. Where greedy would play otherwise (a position going round, a §6 modifier, other rules)
the loop must leave the state untouched. The specialised engine that uses it must play the general engine's
games bit for bit.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from rulegen import random_config, without_modifiers
from sim.core import kernels as K
from sim.core import layout as L
from sim.core.greedy_bout import QUIET_VARY, eligible, greedy_bouts
from sim.core.machine import series
from sim.core.rules import resolve
from sim.experiments.batch import Runner, make_lineup
from strategies import greedy

# the throw-in round's bookkeeping: where the round stopped and whether the attacker passed (set afresh at the
# start of every round), and whether the defender declined a transfer (read at the bout's first defence only)
FREE = (L.S_THROW_I, L.S_ATT_DONE, L.S_DECLINED)
# the deal's last table: its slots, covers and the last card asked to be covered
OVER = (*range(L.O_TABLE_ATT, L.O_TABLE_ATT + 12), *range(L.O_TABLE_COV, L.O_TABLE_COV + 12),
        *range(L.O_TABLE_BY, L.O_TABLE_BY + 12), L.S_NCOV, L.O_COVER_TARGET)
ANSWER = {L.K_ATTACK: greedy.attack, L.K_COVER: greedy.cover, L.K_THROW_IN: greedy.throw_in,
          L.K_TRANSFER: greedy.transfer, L.K_EXCHANGE: greedy.exchange, L.K_SWAP: greedy.swap}
PARAMS = np.zeros(16)
RNG = np.zeros(1, dtype=np.uint64)


def _by_decisions(rv, ws, rec):
    """Greedy answers every decision until the bout in progress is over (the next bout's first decision or the
    end of the deal)."""
    bout = ws[L.O_BOUT]
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    trace, tn = np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.int64)
    while ws[L.O_KIND] >= 0 and ws[L.O_BOUT] == bout:
        seat, kind = ws[L.O_ACTOR], ws[L.O_KIND]
        K.observe(ws, seat, obs)
        assert K.apply_any(rv, ws, rec, ANSWER[kind](obs, ws[L.S_LEGAL], PARAMS, RNG), trace, tn, False)


def _check_deals(rules, deals, seed):
    """Play `deals` deals both ways from every lead; returns how many bouts greedy_bouts played."""
    rv = rules.vector()
    trace, tn = np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.int64)
    played = 0
    for deal in series(rules, seed=seed, deals=deals):
        ws, rec = deal.ws, deal.rec
        while ws[L.O_KIND] >= 0:
            ws2, rec2 = ws.copy(), rec.copy()
            bouts = greedy_bouts(rv, ws2, rec2, trace, tn) if ws[L.O_KIND] == L.K_ATTACK else 0
            if bouts == 0:
                assert np.array_equal(ws, ws2) and np.array_equal(rec, rec2), "refused, yet changed the state"
                _by_decisions(rv, ws, rec)
                continue
            played += bouts
            for _ in range(bouts):
                _by_decisions(rv, ws, rec)
            free = FREE + (OVER if ws[L.O_KIND] < 0 else ())
            ws[list(free)] = ws2[list(free)]
            diff = np.flatnonzero(ws != ws2)
            assert diff.size == 0, f"{rules.describe()}, deal {deal.index}: state words {diff.tolist()} differ"
            assert np.array_equal(rec, rec2), f"{rules.describe()}, deal {deal.index}: the records differ"
    return played


def test_same_bouts_as_the_decisions_over_random_rules():
    played = 0
    for k in range(24):
        family, n, toggles, _ = random_config(random.Random(500 + k), families=("podkidnoy", "perevodnoy"),
                                              players=(2,))
        if k % 3:  # two in three without the §6 modifiers the fuzzer draws (greedy_bouts refuses those)
            toggles = without_modifiers(toggles)
        rules = resolve(family, n, toggles)
        played += _check_deals(rules, 40, seed=k)
    assert played > 5000  # most configurations are eligible: a test of the loop, not of the refusal


@pytest.mark.parametrize("family,n,toggles,quiet", [("podkidnoy", 3, {}, 0), ("prostoy_6", 2, {}, 0),
                                                    ("podkidnoy", 2, {"variant": "kitaisky"}, 0),
                                                    ("perevodnoy", 2, {}, QUIET_VARY)])
def test_refuses_other_bouts(family, n, toggles, quiet):
    """Three players, simple durak, a §6 modifier, or a position going round (where greedy varies its play): not
    the bout it plays, so it leaves the state alone."""
    rules = resolve(family, n, toggles)
    rv = rules.vector()
    assert eligible(rv) == (quiet > 0)
    deal = next(series(rules, seed=3))
    while deal.ws[L.O_KIND] not in (L.K_ATTACK, -1):
        _by_decisions(rv, deal.ws, deal.rec)
    deal.ws[L.O_QUIET] = quiet
    ws = deal.ws.copy()
    assert not greedy_bouts(rv, ws, deal.rec.copy(), np.zeros((1, 4), dtype=np.int64), np.zeros(1, dtype=np.int64))
    assert np.array_equal(ws, deal.ws)


def test_the_specialised_greedy_engine_plays_the_same_games():
    """Only an engine whose every seat is greedy plays whole bouts, and it plays the general engine's games."""
    rules = resolve("podkidnoy", 2)
    seats = make_lineup(rules, ["greedy"])
    general, fast = Runner(rules, seats), Runner(rules, seats, specialised="specialised")
    assert fast.engine.GREEDY_BOUTS and not general.engine.GREEDY_BOUTS
    a, b = general.play_raw(17, 0, 3000, 2), fast.play_raw(17, 0, 3000, 2)
    assert np.array_equal(a, b)
