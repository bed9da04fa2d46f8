"""§6 Покерный: VAR-PO1 poker swap, rulings RUL-55..59.

Referee scenarios (positions + actions), the compiled core's swap decision (offer, answer, talon, KNOWN,
sampler) and its legal sets against the referee's, and the strategies' answers.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim import referee as R
from sim.core import layout as L
from sim.core.cards import card_name, parse_card
from sim.core.rules import RulesError, resolve
from sim.referee import decisions as D
from test_rules_scenarios import A, P, hand
from test_variants_dealing import core_vs_referee

PO = {"poker_swap": True}
# the defender (1) holds six cards and cannot beat 7H; the talon: AH KD 10C, then the face-up 9S
POS = dict(hands={0: "8C 9C 10D JD QH", 1: "6C 7D JC QC KC 8D"}, table=["7H"], talon="AH KD 10C 9S")


def _mask(text):
    m = 0
    for c in text.split():
        m |= 1 << parse_card(c)
    return m


def _talon(st):
    return [card_name(c) for c in st.talon]


@pytest.mark.rules("VAR-PO1", "RUL-55", "RUL-56", "RUL-57")
def test_swap_takes_the_top_cards_and_puts_his_under_the_talon_above_the_trump_card():
    st = R.load_position("podkidnoy", PO, P(**POS))
    assert D.to_act(st) == (1, D.K_SWAP)
    legal = D.legal_options(st)
    assert 0 in legal and _mask("6C") in legal and _mask("6C 7D") in legal
    assert len(legal) == 1 + 6 + 15  # none, any one, any two of six cards
    R.apply(st, A("swap", 1, cards=["7D", "6C"]))
    assert hand(st, 1) == sorted("JC QC KC 8D AH KD".split())
    assert _talon(st) == ["10C", "6C", "7D", "9S"]  # under the talon, lowest first, the trump card last
    assert D.to_act(st) == (1, D.K_COVER)  # offered once: now he beats (AH beats 7H)
    assert parse_card("AH") in D.legal_options(st)
    v = R.check(st, A("swap", 1, cards=[]))
    assert not v.legal and v.rule == "RUL-55"


@pytest.mark.rules("VAR-PO1", "RUL-55")
def test_no_swap_with_seven_cards_or_for_an_attacker_or_after_taking():
    pos = P(hands={0: "8C 9C 10D JD QH", 1: "6C 7D JC QC KC 8D 6D"}, table=["7H"], talon="AH KD 10C 9S")
    st = R.load_position("podkidnoy", PO, pos)
    v = R.check(st, A("swap", 1, cards=["6C"]))
    assert not v.legal and v.rule == "VAR-PO1" and "six cards or fewer" in v.reason
    assert D.to_act(st) == (1, D.K_COVER)  # not offered at all
    st = R.load_position("podkidnoy", PO, P(**dict(POS, hands={0: "8C 9C 10D JD 7C", 1: "6C 7D JC QC KC 8D"})))
    assert not R.check(st, A("swap", 0, cards=["8C"])).legal  # the attacker never beats
    R.apply(st, A("take", 1))
    assert st.table  # the attacker may still throw in 7C
    v = R.check(st, A("swap", 1, cards=["6C"]))
    assert not v.legal and v.rule == "POD-D5"
    # the modifier off: no swap
    st = R.load_position("podkidnoy", {}, P(**POS))
    assert not R.check(st, A("swap", 1, cards=["6C"])).legal and D.to_act(st) == (1, D.K_COVER)


@pytest.mark.rules("VAR-PO1", "RUL-56", "RUL-58")
def test_exactly_two_and_a_small_talon_never_the_trump_card():
    st = R.load_position("podkidnoy", {**PO, "poker_swap_count": "exactly_two"}, P(**POS))
    v = R.check(st, A("swap", 1, cards=["6C"]))
    assert not v.legal and v.rule == "RUL-56"
    assert all(bin(m).count("1") in (0, 2) for m in D.legal_options(st))
    # one face-down card above the face-up trump: one card at most; exactly_two: not offered
    small = dict(POS, talon="AH 9S")
    st = R.load_position("podkidnoy", PO, P(**small))
    v = R.check(st, A("swap", 1, cards=["6C", "7D"]))
    assert not v.legal and v.rule == "RUL-58" and "never taken" in v.reason
    assert max(bin(m).count("1") for m in D.legal_options(st)) == 1
    st = R.load_position("podkidnoy", {**PO, "poker_swap_count": "exactly_two"}, P(**small))
    assert D.to_act(st) == (1, D.K_COVER)
    # only the face-up trump card left: nothing to swap for
    st = R.load_position("podkidnoy", PO, P(**dict(POS, talon="9S")))
    v = R.check(st, A("swap", 1, cards=["6C"]))
    assert not v.legal and v.rule == "RUL-58" and D.to_act(st) == (1, D.K_COVER)


@pytest.mark.rules("VAR-PO1", "RUL-55")
def test_every_cover_offers_again_before_each_cover_first_cover_only_once():
    pos = P(hands={0: "8C 9C 10D JD QH", 1: "6C 7D JC QC KC 8H"}, table=["7H", "7C"], talon="AH KD 10C QS 9S")
    for when, again in (("first_cover", False), ("every_cover", True)):
        st = R.load_position("podkidnoy", {**PO, "poker_swap_when": when}, pos)
        D.apply_option(st, 0)  # declines
        assert D.to_act(st) == (1, D.K_COVER)
        D.apply_option(st, parse_card("8H"))  # 8H beats 7H
        assert D.to_act(st) == (1, D.K_SWAP if again else D.K_COVER)


@pytest.mark.rules("VAR-PO1", "RUL-55", "RUL-12")
def test_simple_durak_swap_once_before_the_one_move_defence():
    pos = P(hands={0: "8C 9C", 1: "6C 7D JC"}, table=["7H", "7S"], talon="AH KD 10C QS 9S")
    st = R.load_position("prostoy_6", {**PO, "poker_swap_when": "every_cover"}, pos)
    assert D.to_act(st) == (1, D.K_SWAP)
    D.apply_option(st, _mask("6C 7D"))
    assert hand(st, 1) == ["AH", "JC", "KD"]
    assert D.to_act(st) == (1, D.K_COVER)
    D.apply_option(st, parse_card("AH"))
    assert D.to_act(st) == (1, D.K_COVER)  # the second cover of the same defence: no second offer


@pytest.mark.rules("VAR-PO1", "RUL-57", "RUL-59")
def test_core_swap_moves_the_cards_clears_known_and_keeps_conservation():
    from sim.core.machine import Deal
    rules = resolve("podkidnoy", 2, {"variant": "pokerny"})
    for seed in range(40):
        d = Deal(rules, seed, 0)
        while not d.over and d.to_act()[1] != L.K_SWAP:
            d.apply(min(d.legal_options(), key=lambda a: (a < 0, a)))
        if d.over:
            continue
        seat = d.to_act()[0]
        ws = d.ws
        d.ws[L.O_KNOWN + seat] |= 1 << int(ws[L.O_TRUMP_CARD])  # pretend the table knew a card of his
        hand0 = int(ws[L.S_HANDS + seat])
        tp, tend = int(ws[L.S_TP]), int(ws[L.S_TEND])
        top2 = [int(c) for c in ws[L.S_TALON + tp:L.S_TALON + tp + 2]]
        if int(ws[L.O_TALON]) - int(ws[L.O_TRUMP_IN_TALON]) < 2:
            continue
        give = [c for c in range(36) if hand0 >> c & 1][-2:]
        assert d.apply(sum(1 << c for c in give))
        ws = d.ws
        tal = [int(c) for c in ws[L.S_TALON + int(ws[L.S_TP]):L.S_TALON + int(ws[L.S_TEND])]]
        assert tal[-3:] == sorted(give) + [int(ws[L.O_TRUMP_CARD])] and len(tal) == tend - tp
        assert int(ws[L.S_HANDS + seat]) == (hand0 & ~sum(1 << c for c in give)) | sum(1 << c for c in top2)
        assert int(ws[L.O_KNOWN + seat]) == 0 and d.conserved()
        # the sampler deals the given cards like any unseen card, and every sample conserves the cards
        for s in range(5):
            x = Deal.sampled(rules, d.observe(1 - seat), seed=s)
            assert x.conserved() and x.to_act() == d.to_act()
        return
    pytest.fail("no swap was offered in 40 deals")


@pytest.mark.rules("VAR-PO1", "RUL-55", "RUL-58")
def test_core_legal_sets_and_traces_agree_with_the_referee():
    core_vs_referee("podkidnoy", 2, {"variant": "pokerny"})
    core_vs_referee("perevodnoy", 3, {"variant": "pokerny", "poker_swap_when": "every_cover"}, games=3)
    core_vs_referee("prostoy_5", 2, {"variant": "pokerny", "poker_swap_count": "exactly_two"}, games=3)


@pytest.mark.rules("VAR-PO1", "RUL-59")
def test_refused_combinations_and_the_shuffled_return_not_played_yet():
    with pytest.raises(RulesError, match="albanian"):
        resolve("podkidnoy", 2, {"variant": "pokerny+albansky"})
    with pytest.raises(RulesError, match="no_trump"):
        resolve("podkidnoy", 2, {"variant": "pokerny", "no_trump": True})
    with pytest.raises(RulesError, match="does not play it yet"):
        resolve("podkidnoy", 2, {"variant": "pokerny", "poker_swap_return": "shuffled"})


def test_strategies_answer_the_swap_legally():
    from sim.core import dispatch
    from sim.core.lib import swap_ok
    from sim.core.machine import Deal
    rules = resolve("podkidnoy", 2, {"variant": "pokerny"})
    mods = {n: dispatch.load_module(dispatch.discover()[n]) for n in ("greedy", "expert", "random")}
    rng = np.zeros(1, dtype=np.uint64)
    params = np.full(16, -99.0)
    seen = 0
    for seed in range(30):
        d = Deal(rules, seed, 0)
        while not d.over:
            seat, kind = d.to_act()
            if kind == L.K_SWAP:
                obs = d.observe(seat)
                for name, mod in mods.items():
                    a = int(mod.swap(obs, d.ws[L.S_LEGAL], params, rng))
                    assert swap_ok(obs, d.ws[L.S_LEGAL], a), (name, a)
                seen += 1
            d.apply(min(d.legal_options(), key=lambda a: (a < 0, a)))
    assert seen > 10
