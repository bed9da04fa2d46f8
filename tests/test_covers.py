"""Simple durak's whole-set defence with take-all (`strategies/_lib._match`, knob MATCH) against a brute force over the core's rules.

The core asks the defender to cover the attack cards one slot after another, each cover legal with what is left in
hand at that moment (under trump_only_if_cannot_follow, prostoy_6's default, a trump only once no card of the suit
beats). `_match` must find a cover for every slot exactly when such an in-order cover exists, and its card for the
slot asked must be legal now and lead to one. Positions are the cover decisions of random legal play.
"""
import random

import numpy as np
import pytest

from sim.core import layout as L
from sim.core import rules as R
from sim.core.lib import cover_options_for, trump_mask
from sim.core.machine import Deal
from strategies import _lib


def _in_order(obs, slots, hand, seat) -> bool:
    """Can the attack cards of `slots` (in the core's order) be covered one by one from `hand`?"""
    if not slots:
        return True
    opts = int(cover_options_for(obs, obs[L.O_TABLE_ATT + slots[0]], np.int64(hand), seat))
    return any(_in_order(obs, slots[1:], hand & ~(1 << c), seat) for c in range(36) if (opts >> c) & 1)


def _cover_decisions(family, toggles, deals, seed):
    rules = R.resolve(family, 2, toggles)
    rnd = random.Random(seed)
    for d in range(deals):
        deal = Deal(rules, seed=seed, series=d)
        while not deal.over:
            seat, kind = deal.to_act()
            if kind == L.K_COVER:
                obs = deal.observe(seat)
                slots = [i for i in range(int(obs[L.O_NTABLE])) if obs[L.O_TABLE_COV + i] < 0]
                if len(slots) >= 2:
                    yield obs, slots, seat, int(deal.ws[L.S_LEGAL])
            deal.apply(rnd.choice(sorted(deal.legal_options())))


@pytest.mark.rules("PR6-D1", "VAR-TR1")
@pytest.mark.parametrize("family,toggles", [("prostoy_6", {"lead_rule": "tryoshka"}), ("prostoy_6", {}),
                                            ("prostoy_5", {"trump_only_if_cannot_follow": "true",
                                                           "partial_defence": "false", "lead_rule": "tryoshka"})])
def test_whole_set_defence_covers_exactly_the_sets_the_core_lets_it_cover(family, toggles):
    seen = coverable = 0
    for obs, slots, seat, legal in _cover_decisions(family, toggles, deals=150, seed=11):
        hand = int(obs[L.O_HAND])
        tgt = int(obs[L.O_COVER_TARGET])
        m = int(_lib._match(obs, np.int64(hand), trump_mask(obs), np.int64(tgt)))
        exists = _in_order(obs, slots, hand, seat)
        seen += 1
        coverable += exists
        assert (m >= 0) == exists, (m, slots, hand)
        if m >= 0:
            assert (legal >> m) & 1 and _in_order(obs, slots[1:], hand & ~(1 << m), seat)
    assert seen >= 50 and 0 < coverable < seen  # the decisions seen include sets that can and cannot be covered


@pytest.mark.rules("VAR-CH1", "VAR-NA1")
@pytest.mark.parametrize("toggles,known", [({}, True), ({"deal_rule": "chukotsky"}, False),
                                           ({"deal_rule": "navaleny", "navaleny_extra_cards": "out_of_play"}, True)])
def test_the_endgame_knows_every_card_only_when_none_went_out_of_play_unseen(toggles, known):
    """`_lib.is_endgame2` (ENDGAME's "every card known": the other hand is every card not seen) holds with two players
    and the talon empty, but not when cards were put out of play face down: the other hand need not hold them
    (chukotsky; navaleny deals the whole pack at two players, leaving none out)."""
    rules = R.resolve("podkidnoy", 2, toggles)
    rnd = random.Random(5)
    seen = 0
    for d in range(40):
        deal = Deal(rules, seed=3, series=d)
        while not deal.over:
            seat, kind = deal.to_act()
            obs = deal.observe(seat)
            if obs[L.O_TALON] == 0:
                seen += 1
                assert bool(_lib.is_endgame2(obs)) == known
            deal.apply(rnd.choice(sorted(deal.legal_options())))
    assert seen > 100
