"""The core's state kernels stepped one decision at a time (sim.core.machine.Deal)."""
import random

import numpy as np
import pytest

from sim.core import layout as L
from sim.core import rules as R
from sim.core.machine import Deal

CONFIGS = [("podkidnoy", 2, {}), ("podkidnoy", 4, {"others_throw_in_timing": "any_time"}),
           ("perevodnoy", 3, {"proezdnoy": True}), ("prostoy_5", 3, {}), ("prostoy_6", 2, {"partial_defence": False})]


@pytest.mark.parametrize("family,n,toggles", CONFIGS)
def test_random_walks_end_with_every_card_accounted_for(family, n, toggles):
    rules = R.resolve(family, n, toggles)
    rnd = random.Random(5)
    for seed in range(30):
        d = Deal(rules, seed)
        steps = 0
        while not d.over:
            opts = d.legal_options()
            assert opts, f"no legal option at {d.to_act()}"
            assert d.apply(rnd.choice(sorted(opts)))
            steps += 1
            assert steps < 20000
        rec = d.result()
        assert rec[L.F_INVARIANT] == 0 and rec[L.F_ERROR] == 0
        assert rec[L.F_UNFINISHED] or rec[L.F_DRAW] or rec[L.F_FOOL] >= 0 or rec[L.F_LOSING_TEAM] >= 0


def test_an_illegal_answer_stops_the_deal_with_the_error_recorded():
    d = Deal(R.resolve("podkidnoy", 2), 3)
    seat, kind = d.to_act()
    hand = d.hands()[seat]
    bad = (~hand) & ((1 << 36) - 1) & -((~hand) & ((1 << 36) - 1))  # a card not in the hand
    assert not d.apply(bad)
    rec = d.result()
    assert rec[L.F_ERROR] == L.ERR_ILLEGAL and rec[L.F_ERR_SEAT] == seat and rec[L.F_ERR_KIND] == kind
    assert d.over


def test_conservation_check_catches_a_duplicated_card():
    """The run-time invariant counts a bout that ends with a card in two hands (it can fail)."""
    d = Deal(R.resolve("podkidnoy", 2), 1)
    assert d.conserved()
    h0 = int(d.ws[L.S_HANDS])
    c = (h0 & -h0)
    d.ws[L.S_HANDS + 1] |= c  # the same card now also in seat 1's hand
    d.ws[L.O_HAND_SIZE + 1] += 1
    assert not d.conserved()
    rnd = random.Random(0)
    while not d.over and d.result()[L.F_BOUTS] == 0 and d.ws[L.O_BOUT] == 0:
        d.apply(rnd.choice(sorted(d.legal_options())))
    assert d.result()[L.F_INVARIANT] >= 1


def test_observation_holds_nothing_hidden():
    """observe() writes the public prefix and the seat's own hand: no other hand, no talon order."""
    d = Deal(R.resolve("podkidnoy", 3), 2)
    hands = d.hands()
    for seat in range(3):
        obs = d.observe(seat)
        assert obs.shape == (L.O_SIZE,)
        assert obs[L.O_HAND] == hands[seat]
        others = [h for s, h in enumerate(hands) if s != seat]
        for v in obs:
            assert int(v) not in others or int(v) == 0


def test_state_can_be_entered_mid_bout_from_a_copy():
    """A copy of the state taken at any decision plays on exactly like the original."""
    rules = R.resolve("perevodnoy", 3)
    d = Deal(rules, 9)
    rnd = random.Random(2)
    for _ in range(7):
        d.apply(rnd.choice(sorted(d.legal_options())))
    e = Deal(rules, 9)
    e.ws[:] = d.ws
    e.rec[:] = d.rec
    moves = []
    while not d.over:
        m = rnd.choice(sorted(d.legal_options()))
        moves.append(m)
        d.apply(m)
    for m in moves:
        assert e.to_act() is not None
        e.apply(m)
    assert np.array_equal(d.result(), e.result())


@pytest.mark.parametrize("family,n,toggles", CONFIGS)
def test_a_seat_observation_completed_by_sampling_is_a_consistent_state(family, n, toggles):
    """Entering at any decision from one seat's information set: the sampled state keeps every card
    that seat knows where it is, has the same decision pending with the same options, and plays on."""
    rules = R.resolve(family, n, toggles)
    rnd = random.Random(11)
    checked = 0
    for seed in range(12):
        d = Deal(rules, seed)
        while not d.over:
            if rnd.random() < 0.3:
                seat, kind = d.to_act()
                obs = d.observe(seat)
                s = Deal.sampled(rules, obs, seed=rnd.randrange(1 << 30))
                assert s.conserved()
                assert s.to_act() == (seat, kind)
                assert s.legal_options() == d.legal_options()
                assert s.hands()[seat] == d.hands()[seat]
                for t in range(n):  # cards everybody saw in a hand stay there
                    assert s.hands()[t] & int(obs[L.O_KNOWN + t]) == int(obs[L.O_KNOWN + t])
                    assert bin(s.hands()[t]).count("1") == bin(d.hands()[t]).count("1")
                while not s.over:
                    s.apply(rnd.choice(sorted(s.legal_options())))
                assert s.result()[L.F_INVARIANT] == 0
                checked += 1
            d.apply(rnd.choice(sorted(d.legal_options())))
    assert checked > 20
