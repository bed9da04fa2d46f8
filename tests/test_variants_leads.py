"""§6 lead modifiers (group "leads"): zanudny (VAR-ZA1), tryoshka (VAR-TR1), armenian (VAR-AR1).

Each is ruled on three times: by the referee from a hand-written position (``sim.referee``), by the core's
one lead test ``attack_ok`` on a hand-built observation, and in play (the state machine, the strategies).
The rulings are RUL-40..47 in sim/RULINGS.md.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim import referee as R
from sim.core import layout as L
from sim.core import lib
from sim.core.cards import card_name, parse_card
from sim.core.rules import RulesError, resolve
from tests.test_rules_scenarios import A, P, hand, table_of

ZAN = {"lead_rule": "zanudny"}
ZAN_APART = {"lead_rule": "zanudny", "zanudny_trumps_apart": True}
TRY = {"lead_rule": "tryoshka"}
TRY_SAME = {"lead_rule": "tryoshka", "tryoshka_lead": "same_rank"}
ARM = {"armenian": True}


def verdict(family, toggles, position, action):
    st = R.load_position(family, toggles, position)
    return R.check(st, action)


def mask(text: str) -> int:
    m = 0
    for c in text.split():
        m |= 1 << parse_card(c)
    return m


def obs_for(family, toggles, hand_text, trump="S", limit=6, talon=10, trump_in_talon=1, n=2):
    """A hand-built observation for the core's attack_ok: rules, hand, trump, limit, talon."""
    r = resolve(family, n, toggles)
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    obs[L.O_RULES:L.O_RULES + len(r.vector())] = r.vector()
    obs[L.O_HAND] = mask(hand_text)
    obs[L.O_TRUMP_SUIT] = "CDHS".index(trump)
    obs[L.O_LIMIT] = limit
    obs[L.O_TALON] = talon
    obs[L.O_TRUMP_IN_TALON] = trump_in_talon
    return obs


def core_ok(obs, lead) -> bool:
    a = lead if isinstance(lead, int) else mask(lead)
    return bool(lib.attack_ok(obs, obs[L.O_HAND], np.int64(a)))


# ---- VAR-ZA1 zanudny ------------------------------------------------------------------------------------
@pytest.mark.rules("VAR-ZA1", "RUL-40")
def test_VAR_ZA1_lead_must_be_of_the_highest_rank_referee():
    pos = P({0: "7C KD AH 9S", 1: "6C 8C JD QD 10D 6D"})
    assert verdict("podkidnoy", ZAN, pos, A("attack", 0, cards=["AH"])).legal
    v = verdict("podkidnoy", ZAN, pos, A("attack", 0, cards=["7C"]))
    assert not v.legal and v.rule == "VAR-ZA1"
    assert verdict("podkidnoy", {}, pos, A("attack", 0, cards=["7C"])).legal  # the plain game allows it


@pytest.mark.rules("VAR-ZA1", "RUL-40")
def test_VAR_ZA1_core_attack_ok_highest_rank_and_pairs_of_it():
    obs = obs_for("podkidnoy", ZAN, "7C KD KH AC 9S", trump="S")
    assert core_ok(obs, "AC")
    assert not core_ok(obs, "KD") and not core_ok(obs, "KD KH") and not core_ok(obs, "7C")
    obs = obs_for("podkidnoy", ZAN, "7C KD KH 9S", trump="S")
    assert core_ok(obs, "KD KH") and core_ok(obs, "KH")
    # the trump ace counts like any card (trumps_apart off)
    obs = obs_for("podkidnoy", ZAN, "7C KD AS", trump="S")
    assert core_ok(obs, "AS") and not core_ok(obs, "KD")


@pytest.mark.rules("VAR-ZA1", "RUL-40")
def test_VAR_ZA1_simple_durak_set_needs_only_contain_a_top_card():
    pos = P({0: "7C 7D AH 9S 10D", 1: "6C 8C JD QD 10H 6D"})
    assert verdict("prostoy_6", ZAN, pos, A("attack", 0, cards=["7C", "7D", "AH"])).legal
    v = verdict("prostoy_6", ZAN, pos, A("attack", 0, cards=["7C", "7D", "9S"]))
    assert not v.legal and v.rule == "VAR-ZA1"
    obs = obs_for("prostoy_6", ZAN, "7C 7D AH 9S 10D")
    assert core_ok(obs, "7C 7D AH") and not core_ok(obs, "7C 7D 9S") and core_ok(obs, "AH")


@pytest.mark.rules("VAR-ZA1", "RUL-41")
def test_VAR_ZA1_trumps_apart_takes_the_highest_non_trump_rank():
    pos = P({0: "7C KD AS", 1: "6C 8C JD QD 10D 6D"}, trump="S")
    assert not verdict("podkidnoy", ZAN_APART, pos, A("attack", 0, cards=["AS"])).legal
    assert verdict("podkidnoy", ZAN_APART, pos, A("attack", 0, cards=["KD"])).legal
    assert not verdict("podkidnoy", ZAN, pos, A("attack", 0, cards=["KD"])).legal
    only_trumps = P({0: "7S KS", 1: "6C 8C JD QD 10D 6D"}, trump="S")
    assert verdict("podkidnoy", ZAN_APART, only_trumps, A("attack", 0, cards=["KS"])).legal
    assert not verdict("podkidnoy", ZAN_APART, only_trumps, A("attack", 0, cards=["7S"])).legal
    obs = obs_for("podkidnoy", ZAN_APART, "7C KD AS", trump="S")
    assert core_ok(obs, "KD") and not core_ok(obs, "AS") and not core_ok(obs, "7C")
    obs = obs_for("podkidnoy", ZAN_APART, "7S KS", trump="S")
    assert core_ok(obs, "KS") and not core_ok(obs, "7S")


@pytest.mark.rules("VAR-ZA1")
def test_VAR_ZA1_throw_ins_are_not_restricted():
    pos = P({0: "7C 7D AH", 1: "6C 8C JD QD 9D 6D"}, ["7H/10H"])
    assert verdict("podkidnoy", ZAN, pos, A("throw_in", 0, cards=["7C"])).legal


# ---- VAR-TR1 tryoshka -----------------------------------------------------------------------------------
@pytest.mark.rules("VAR-TR1", "RUL-42")
def test_VAR_TR1_opens_with_exactly_three_any_cards():
    pos = P({0: "7C KD AH 9S 10C", 1: "6C 8C JD QD 10D 6D"})
    assert verdict("podkidnoy", TRY, pos, A("attack", 0, cards=["7C", "KD", "AH"])).legal
    for bad in (["7C"], ["7C", "KD"], ["7C", "KD", "AH", "9S"]):
        v = verdict("podkidnoy", TRY, pos, A("attack", 0, cards=bad))
        assert not v.legal and v.rule == "VAR-TR1", bad
    obs = obs_for("podkidnoy", TRY, "7C KD AH 9S 10C")
    assert core_ok(obs, "7C KD AH") and not core_ok(obs, "7C KD") and not core_ok(obs, "7C")


@pytest.mark.rules("VAR-TR1", "RUL-42")
def test_VAR_TR1_fewer_cards_when_the_attacker_or_the_defender_holds_fewer():
    two = P({0: "7C KD", 1: "6C 8C JD QD 10D 6D"})
    assert verdict("podkidnoy", TRY, two, A("attack", 0, cards=["7C", "KD"])).legal
    assert not verdict("podkidnoy", TRY, two, A("attack", 0, cards=["7C"])).legal
    short_defender = P({0: "7C KD AH 9S", 1: "6C 8C"}, talon=0)
    assert verdict("podkidnoy", TRY, short_defender, A("attack", 0, cards=["7C", "KD"])).legal
    assert not verdict("podkidnoy", TRY, short_defender, A("attack", 0, cards=["7C", "KD", "AH"])).legal
    prostoy_short = P({0: "7C KD AH 9S", 1: "6C 8C"}, talon=0)
    assert verdict("prostoy_6", TRY, prostoy_short, A("attack", 0, cards=["7C", "KD"])).legal
    assert not verdict("prostoy_6", TRY, prostoy_short, A("attack", 0, cards=["7C", "KD", "AH"])).legal
    assert core_ok(obs_for("podkidnoy", TRY, "7C KD"), "7C KD")
    assert core_ok(obs_for("podkidnoy", TRY, "7C KD AH 9S", limit=2), "7C KD")
    assert not core_ok(obs_for("podkidnoy", TRY, "7C KD AH 9S", limit=2), "7C KD AH")


@pytest.mark.rules("VAR-TR1", "RUL-42")
def test_VAR_TR1_replaces_simple_durak_sets_and_throw_ins_follow_table_ranks():
    pos = P({0: "7C KD AH 9S 10C", 1: "6C 8C JD QD 10D 6D"})
    assert verdict("prostoy_6", TRY, pos, A("attack", 0, cards=["7C", "KD", "AH"])).legal  # no pair needed
    assert not verdict("prostoy_6", TRY, pos, A("attack", 0, cards=["7C"])).legal
    assert core_ok(obs_for("prostoy_6", TRY, "7C KD AH 9S 10C"), "7C KD AH")
    table = P({0: "7D KS", 1: "6C 9C JD QD 10D 6D"}, ["7C/8C", "KD", "AH"])
    assert verdict("podkidnoy", TRY, table, A("throw_in", 0, cards=["KS"])).legal


@pytest.mark.rules("VAR-TR1", "RUL-43")
def test_VAR_TR1_same_rank_leads_the_largest_group_up_to_three():
    pos = P({0: "7C 7D KD KH AH", 1: "6C 8C JD QD 10D 6D"})
    assert verdict("podkidnoy", TRY_SAME, pos, A("attack", 0, cards=["7C", "7D"])).legal
    assert not verdict("podkidnoy", TRY_SAME, pos, A("attack", 0, cards=["7C", "KD", "AH"])).legal
    assert not verdict("podkidnoy", TRY_SAME, pos, A("attack", 0, cards=["AH"])).legal
    obs = obs_for("podkidnoy", TRY_SAME, "7C 7D KD KH AH")
    assert core_ok(obs, "KD KH") and not core_ok(obs, "7C KD AH") and not core_ok(obs, "AH")


# ---- VAR-AR1 armenian -----------------------------------------------------------------------------------
@pytest.mark.rules("VAR-AR1", "RUL-45")
def test_VAR_AR1_lead_the_top_talon_card_blind_and_alone():
    pos = P({0: "7C KD", 1: "6C 8C JD QD 10D 6D"}, talon="9H 10S AS")
    talon_lead = A("attack", 0, from_talon=True)
    assert verdict("podkidnoy", ARM, pos, talon_lead).legal
    v = verdict("podkidnoy", {}, pos, talon_lead)
    assert not v.legal and v.rule == "VAR-AR1"
    v = verdict("podkidnoy", ARM, pos, A("attack", 0, from_talon=True, cards=["9H", "7C"]))
    assert not v.legal and v.rule == "RUL-45"
    st = R.load_position("podkidnoy", ARM, pos)
    R.apply(st, talon_lead)
    assert table_of(st) == ["9H"] and hand(st, 0) == ["7C", "KD"] and st.talon_size() == 2
    assert st.card_invariant_problem() is None


@pytest.mark.rules("VAR-AR1", "RUL-46")
def test_VAR_AR1_never_the_face_up_trump_card():
    only_trump = P({0: "7C KD", 1: "6C 8C JD QD 10D 6D"}, talon="AS")
    v = verdict("podkidnoy", ARM, only_trump, A("attack", 0, from_talon=True))
    assert not v.legal and v.rule == "RUL-46"
    empty = P({0: "7C KD", 1: "6C 8C JD QD 10D 6D"}, talon=0)
    assert not verdict("podkidnoy", ARM, empty, A("attack", 0, from_talon=True)).legal
    assert core_ok(obs_for("podkidnoy", ARM, "7C KD", talon=2), L.FROM_TALON)
    assert not core_ok(obs_for("podkidnoy", ARM, "7C KD", talon=1), L.FROM_TALON)
    assert not core_ok(obs_for("podkidnoy", ARM, "7C KD", talon=0, trump_in_talon=0), L.FROM_TALON)
    assert not core_ok(obs_for("podkidnoy", {}, "7C KD", talon=5), L.FROM_TALON)


@pytest.mark.rules("VAR-AR1", "VAR-SM1", "RUL-46", "RUL-35")
def test_VAR_AR1_with_changing_trump_not_the_face_up_card_above_the_hidden_one():
    # the talon: the face-up 6C, and under it the hidden 8H: nothing face down lies above the trump card
    sm = {**ARM, "changing_trump": True}
    pos = P({0: "7C KD", 1: "6D 8C JD QD 10D 9D"}, talon="6C 8H", trump="C")
    pos.update(trump_card="6C", card_under_trump=True)
    v = verdict("prostoy_5", sm, pos, A("attack", 0, from_talon=True))
    assert not v.legal and v.rule == "RUL-46"
    obs = obs_for("prostoy_5", sm, "7C KD", talon=2)
    obs[L.O_TRUMP_UNDER] = 1
    assert not core_ok(obs, L.FROM_TALON)
    obs[L.O_TALON] = 3
    assert core_ok(obs, L.FROM_TALON)


@pytest.mark.rules("VAR-AR1", "RUL-47")
def test_VAR_AR1_combinations_zanudny_free_tryoshka_refused():
    pos = P({0: "7C KD AH", 1: "6C 8C JD QD 10D 6D"}, talon="9H 10S AS")
    assert verdict("podkidnoy", {**ARM, **ZAN}, pos, A("attack", 0, from_talon=True)).legal
    assert core_ok(obs_for("podkidnoy", {**ARM, **ZAN}, "7C KD AH", talon=3), L.FROM_TALON)
    with pytest.raises(RulesError, match="tryoshka"):
        resolve("podkidnoy", 2, {**ARM, **TRY})


@pytest.mark.rules("VAR-AR1", "RUL-45")
def test_VAR_AR1_core_plays_the_talon_card_and_the_referee_replays_it():
    from sim.core.machine import Deal
    from sim.referee.trace import decode_actions
    r = resolve("podkidnoy", 2, ARM)
    d = Deal(r, seed=3, series=0)
    seat, kind = d.to_act()
    assert kind == L.K_ATTACK and L.FROM_TALON in d.legal_options()
    tp = int(d.ws[L.S_TP])
    top = int(d.ws[L.S_TALON + tp])
    before = d.hands()[seat]
    talon = int(d.ws[L.O_TALON])
    assert d.apply(L.FROM_TALON)
    assert int(d.ws[L.O_TABLE_ATT]) == top and d.hands()[seat] == before
    assert int(d.ws[L.O_TALON]) == talon - 1 and d.conserved()
    acts = decode_actions(d.trace[:int(d.tn[0])])[0]
    assert acts[-1] == {"type": "attack", "player": seat, "cards": [card_name(top)], "from_talon": True}


# ---- strategies -----------------------------------------------------------------------------------------
@pytest.mark.rules("VAR-ZA1", "VAR-TR1")
def test_greedy_leads_legally_under_zanudny_and_tryoshka():
    from strategies import greedy
    z = obs_for("podkidnoy", ZAN, "7C KD KH AS AC", trump="S")
    assert int(greedy.attack(z, 0, np.zeros(1), np.zeros(1, dtype=np.uint64))) == mask("AC")
    t = obs_for("podkidnoy", TRY, "7C KD KH AS 6S 9D", trump="S")
    assert int(greedy.attack(t, 0, np.zeros(1), np.zeros(1, dtype=np.uint64))) == mask("7C 9D KD")
