"""Rulings of sim/RULINGS.md checked by what the engine and the referee do.

Every test carries ``@pytest.mark.rules(...)`` with the rule ids it exercises; tests/test_rule_coverage.py
reads those tags.
"""
from __future__ import annotations

import pytest

from sim import referee as R
from sim.core.rules import resolve

T22 = [[0, 2], [1, 3]]


def _team_end(next_dealer):
    """Seats 0 and 2 against 1 and 3. Seat 1 went out in bout 10; 2 leads his last card, 7H, at 3, who
    covers it and keeps 6C: team {0, 2} is out, team {1, 3} loses with only seat 3 holding cards."""
    pos = {"num_players": 4, "seats_clockwise": [0, 1, 2, 3], "trump_suit": "S", "trump_card": "AS",
           "trump_card_location": "already_drawn", "talon_size": 0, "talon_order_top_to_bottom": None,
           "hands": {"0": [], "1": [], "2": [], "3": ["9H", "6C"]}, "attacker": 2, "defender": 3,
           "table": [{"attack": "7H", "cover": None}], "first_bout": False, "dealer": 0,
           "out_players": [0, 1], "teams": T22, "bout_number": 12, "out_bouts": {"0": 9, "1": 10}}
    st = R.load_position("podkidnoy", {"teams": "2v2", "next_dealer": next_dealer}, pos)
    R.apply(st, {"type": "cover", "player": 3, "attack": "7H", "cover": "9H"})
    assert st.result is not None and st.result["losing_team"] == 1
    return st.result


@pytest.mark.rules("RUL-8", "TEAM-3")
def test_RUL_8_referee_team_loser_is_the_member_still_holding_cards():
    # loser (000: «Последний с картами проигрывает и сдаёт»): seat 1 is out, so seat 3 deals
    assert _team_end("loser")["next_dealer"] == 3


@pytest.mark.rules("RUL-8", "TEAM-3")
def test_RUL_8_referee_team_any_loser_is_the_first_member_of_the_losing_team():
    # team_any_loser (rozaliev): any member of the losing team; the first clockwise from the dealer (0) is 1
    assert _team_end("team_any_loser")["next_dealer"] == 1


def _expected_next_dealer(tr, how):
    res, n, dealer = tr["result"], tr["num_players"], tr["dealer"]
    if res["fool"] is not None:
        return res["fool"]
    if res["losing_team"] is None:
        return dealer
    team = {s: k for k, members in enumerate(resolve(tr["family"], n, tr["toggles"]).teams) for s in members}
    for i in range(n):
        s = (dealer + i) % n
        if team[s] == res["losing_team"] and (how == "team_any_loser" or res["places"][s] == n):
            return s
    raise AssertionError("no member of the losing team")


@pytest.mark.rules("RUL-8", "PR6-T1", "TEAM-3")
@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 4, {"teams": "2v2"}), ("prostoy_6", 6, {"teams": "pairs_if_even"}),
])
def test_RUL_8_core_series_next_dealer_follows_the_toggle(runner_for, family, n, toggles):
    """The compiled core passes the deal on as RUL-8 says for both values, the referee agrees, and the two
    values do pick different dealers in some series (a member of the losing team went out early)."""
    differ = 0
    for how in ("loser", "team_any_loser"):
        r = runner_for(family, n, {**toggles, "next_dealer": how}, strategies=("random",))
        for g in range(30):
            traces = r.trace(seed=5, series=g, deals=3)
            for a, b in zip(traces, traces[1:]):
                want = _expected_next_dealer(a, how)
                assert b["dealer"] == want, (how, a["result"], a["dealer"])
                assert R.replay(a)["next_dealer"] == want
                other = _expected_next_dealer(a, "loser" if how == "team_any_loser" else "team_any_loser")
                differ += other != want
    assert differ > 0, "the two next_dealer values never disagreed: the test has no power"


@pytest.mark.rules("RUL-12", "PR6-D2")
def test_RUL_12_core_take_all_returns_covers_known_and_leaves_no_stale_cover_slot():
    """Take-all (partial_defence=false): covers the defender laid before a card stood come back to his hand
    with the attack cards, are known to everybody, and no table cover slot keeps showing them."""
    import random

    from sim.core import layout as L
    from sim.core import machine

    rules = resolve("prostoy_6", 2, {})
    rng = random.Random(7)
    returned = 0
    for seed in range(60):
        d = machine.Deal(rules, seed=seed)
        while not d.over:
            used_before, dfn = int(d.ws[L.S_P_USED]), int(d.ws[L.O_DEFENDER])
            table_before = int(d.ws[L.O_TABLE_MASK])
            opts = sorted(d.legal_options())
            covers = [o for o in opts if o != L.NO_CARD]
            # cover while possible, then leave one standing now and then: the case RUL-12 is about
            d.apply(rng.choice(covers) if covers and rng.random() < 0.8 else rng.choice(opts))
            hands = d.hands()
            slots = [int(x) for x in d.ws[L.O_TABLE_COV:L.O_TABLE_COV + 12] if x >= 0]
            assert not any((h >> c) & 1 for h in hands for c in slots), "a cover slot shows a card in a hand"
            if table_before and int(d.ws[L.O_TABLE_MASK]) == 0 and used_before and \
                    (hands[dfn] & used_before) == used_before:
                returned += 1
                assert int(d.ws[L.O_KNOWN + dfn]) & used_before == used_before
    assert returned > 0, "no take-all with covers happened: the test has no power"
