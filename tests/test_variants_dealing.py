"""§6 dealing and drawing modifiers: VAR-PU1 pustoy, VAR-CH1 chukotsky, VAR-NA1 navaleny,
VAR-AL1 albanian, VAR-OT1 otboyny (rulings RUL-50..54).

Referee scenarios (positions + actions, new_deal on a fixed pack), and the compiled core on the same
rules: its deal, its conservation invariant, its sampler, and its decisions against the referee's.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim import referee as R
from sim.core import layout as L
from sim.core.cards import card_name, parse_card, rank_of, suit_of
from sim.core.rules import RulesError, resolve
from sim.referee.game import RefereeError, new_deal, replay
from test_rules_scenarios import A, P, hand

# a fixed pack (top first): rank-major card ints shuffled by a fixed permutation
PACK = [card_name(c) for c in np.random.RandomState(5).permutation(36)]


def deal(family, n, toggles, dealer=0, pack=PACK):
    return new_deal(resolve(family, n, toggles), pack, dealer)


def names(cards):
    return [card_name(c) for c in cards]


def core_deal(family, n, toggles, seed=3):
    from sim.core.machine import Deal
    return Deal(resolve(family, n, toggles), seed, 0)


def core_vs_referee(family, n, toggles, games=4, strategies=("random", "greedy")):
    """The core's whole legal set at every decision against the referee's, and its traces replayed."""
    from core_adapter import check_decisions, check_trace, core_decisions, core_traces
    for strategy in strategies:
        for g in range(games):
            for tr, dec in core_decisions(family, n, toggles, strategy, 17, g, 2):
                check_decisions(tr, dec)
            for tr in core_traces(family, n, toggles, strategy, 17, g, 2):
                replay(tr)
                check_trace(tr)


# ============================================================================================
# VAR-PU1 pustoy (RUL-50)
# ============================================================================================
@pytest.mark.rules("VAR-PU1", "RUL-50")
def test_pustoy_a_hand_with_cards_draws_nothing_an_empty_one_refills():
    pos = P({0: "7C 8D QC", 1: "9H"}, ["7H"], talon="AC KC QD JD 10S 9S 8S 7S 6H AS")
    st = R.load_position("podkidnoy", {"draw_rule": "pustoy"}, pos)
    R.apply(st, A("cover", 1, attack="7H", cover="9H"))  # the defender's last card: the bout ends (POD-L2)
    assert st.table == []
    # бито: the attacker still holds 3 cards and draws nothing; the defender's hand is empty: 6 cards
    assert hand(st, 0) == sorted("7C 8D QC".split())
    assert len(st.hands[1]) == 6 and st.talon_size() == 4
    assert sorted(hand(st, 1)) == sorted("AC KC QD JD 10S 9S".split())


@pytest.mark.rules("VAR-PU1", "RUL-50")
def test_pustoy_refill_to_two():
    pos = P({0: "7C 8D QC", 1: "9H"}, ["7H"], talon="AC KC QD JD 10S 9S 8S 7S 6H AS")
    st = R.load_position("podkidnoy", {"draw_rule": "pustoy", "pustoy_refill_to": 2}, pos)
    R.apply(st, A("cover", 1, attack="7H", cover="9H"))
    assert sorted(hand(st, 1)) == ["AC", "KC"] and st.talon_size() == 8
    # the standard rule refills both hands to six
    st = R.load_position("podkidnoy", {}, pos)
    R.apply(st, A("cover", 1, attack="7H", cover="9H"))
    assert len(st.hands[0]) == 6 and len(st.hands[1]) == 6


@pytest.mark.rules("VAR-PU1", "RUL-50")
def test_pustoy_core_draws_only_into_empty_hands_and_agrees_with_the_referee():
    d = core_deal("podkidnoy", 2, {"variant": "pustoy"})
    draws = 0
    while not d.over:
        bout = int(d.ws[L.O_BOUT])
        talon_before = int(d.ws[L.S_TALON_MASK])
        seat, kind = d.to_act()
        d.apply(min(d.legal_options()) if kind != L.K_ATTACK else max(d.legal_options()))
        if int(d.ws[L.O_BOUT]) != bout:
            for s in range(2):
                h = d.hands()[s]
                drawn = h & talon_before
                # a seat drew only into an empty hand (nothing else in it), and then 6 or the rest of the talon
                assert drawn == 0 or (h & ~drawn) == 0, (bout, s)
                if drawn:
                    draws += 1
                    assert popcount(drawn) == min(6, popcount(talon_before))
        assert d.conserved()
    sizes_before = draws
    assert sizes_before is not None
    core_vs_referee("podkidnoy", 2, {"variant": "pustoy"})
    core_vs_referee("prostoy_5", 3, {"variant": "pustoy", "pustoy_refill_to": 3})


def popcount(x):
    return bin(int(x)).count("1")


# ============================================================================================
# VAR-CH1 chukotsky (RUL-51)
# ============================================================================================
@pytest.mark.rules("VAR-CH1", "RUL-51")
def test_chukotsky_talon_and_trump_card_leave_play_trump_suit_stays():
    st = deal("podkidnoy", 3, {"variant": "chukotsky"})
    assert [len(h) for h in st.hands] == [6, 6, 6]
    assert st.talon == [] and len(st.removed) == 18
    trump = parse_card(PACK[18])
    assert st.trump_card == trump and st.trump_suit == suit_of(trump) and trump == st.removed[-1]
    pos = st.to_position()
    assert pos["trump_card_location"] == "removed_from_play" and len(pos["removed_from_play"]) == 18
    back = R.load_position("podkidnoy", {"variant": "chukotsky"}, pos)
    assert back.card_invariant_problem() is None and back.removed == st.removed


@pytest.mark.rules("VAR-CH1", "RUL-51")
def test_chukotsky_nobody_draws_after_a_bout():
    st = deal("podkidnoy", 2, {"variant": "chukotsky"})
    a, d = st.attacker, st.defender
    c = min(st.hands[a], key=rank_of)
    R.apply(st, A("attack", a, cards=[card_name(c)]))
    R.apply(st, A("take", d))
    while st.result is None and st.table:
        R.apply(st, A("pass", a))
    assert len(st.hands[a]) == 5 and len(st.hands[d]) == 7 and st.talon == []


@pytest.mark.rules("VAR-CH1", "RUL-51")
def test_chukotsky_core_removed_pile_conserved_sampled_and_agreed():
    d = core_deal("podkidnoy", 2, {"variant": "chukotsky"})
    ws = d.ws
    assert ws[L.O_TALON] == 0 and ws[L.O_REMOVED] == 24 and popcount(ws[L.S_REMOVED]) == 24
    assert ws[L.O_REMOVED_KNOWN] == 1 << int(ws[L.O_TRUMP_CARD]) and ws[L.O_TRUMP_IN_TALON] == 0
    assert d.conserved()
    from sim.core.machine import Deal
    s = Deal.sampled(d.rules, d.observe(int(ws[L.O_ACTOR])), seed=1)
    assert s.conserved() and (int(s.ws[L.S_REMOVED]) >> int(ws[L.O_TRUMP_CARD])) & 1
    # the other hand is drawn from the unseen cards, the rest goes to the removed pile
    assert popcount(s.ws[L.S_REMOVED]) == 24
    ws[L.S_REMOVED] &= ws[L.S_REMOVED] - 1  # break conservation: one removed card vanishes
    assert not d.conserved()
    core_vs_referee("podkidnoy", 3, {"variant": "chukotsky"})
    core_vs_referee("prostoy_6", 2, {"variant": "chukotsky"})


# ============================================================================================
# VAR-NA1 navaleny (RUL-52)
# ============================================================================================
@pytest.mark.rules("VAR-NA1", "RUL-52")
def test_navaleny_whole_pack_dealt_last_card_is_trump_lowest_trump_leads():
    st = deal("prostoy_6", 2, {"variant": "navaleny"}, dealer=1)
    assert [len(h) for h in st.hands] == [18, 18] and st.talon == [] and st.removed == []
    last = parse_card(PACK[35])
    assert st.trump_card == last and last in st.hands[1]  # card 36 goes to the dealer (seat 1)
    trumps = [(c, s) for s in range(2) for c in st.hands[s] if suit_of(c) == st.trump_suit]
    assert st.attacker == min(trumps)[1]  # variant=navaleny: the lowest trump leads, even in prostoy
    assert resolve("prostoy_6", 2, {"variant": "navaleny"}).toggles["first_attacker_first_deal"] == "lowest_trump"


@pytest.mark.rules("VAR-NA1", "RUL-52")
def test_navaleny_five_players_extra_card_dealt_on_or_out_of_play():
    st = deal("podkidnoy", 5, {"variant": "navaleny"}, dealer=2)
    assert [len(h) for h in st.hands] == [7, 7, 7, 8, 7]  # the dealer's left neighbour gets the 36th card
    assert st.trump_card == parse_card(PACK[35]) and st.trump_card in st.hands[3]
    st = deal("podkidnoy", 5, {"variant": "navaleny", "navaleny_extra_cards": "out_of_play"}, dealer=2)
    assert [len(h) for h in st.hands] == [7] * 5 and names(st.removed) == [PACK[35]]
    assert st.trump_card == parse_card(PACK[34]) and st.trump_card in st.hands[2]
    st = deal("podkidnoy", 5, {"variant": "navaleny", "navaleny_extra_cards": "out_of_play",
                               "navaleny_trump": "leftover_card"}, dealer=2)
    assert st.trump_card == parse_card(PACK[35]) and st.to_position()["trump_card_location"] == "removed_from_play"


@pytest.mark.rules("VAR-NA1", "RUL-52")
def test_navaleny_core_deal_matches_and_agrees_with_the_referee():
    for tg in ({"variant": "navaleny"}, {"variant": "navaleny", "navaleny_extra_cards": "out_of_play",
                                         "navaleny_trump": "leftover_card"}):
        d = core_deal("podkidnoy", 5, tg)
        st = deal("podkidnoy", 5, tg, dealer=d.dealer, pack=[card_name(c) for c in d.deck])
        assert [sorted(int(c) for c in h) for h in st.hands] == [
            [c for c in range(36) if (h >> c) & 1] for h in d.hands()]
        assert int(d.ws[L.O_TRUMP_CARD]) == st.trump_card and int(d.ws[L.O_ATTACKER]) == st.attacker
        assert d.conserved()
        core_vs_referee("podkidnoy", 5, tg, games=2)
    core_vs_referee("perevodnoy", 2, {"variant": "navaleny"}, games=3)


# ============================================================================================
# VAR-AL1 albanian (RUL-53)
# ============================================================================================
@pytest.mark.rules("VAR-AL1", "RUL-53")
def test_albanian_talon_sorted_high_to_low_trump_card_still_last():
    st = deal("podkidnoy", 2, {"variant": "albansky"})
    face_down, trump = st.talon[:-1], st.talon[-1]
    assert trump == parse_card(PACK[12]) == st.trump_card
    assert [rank_of(c) for c in face_down] == sorted((rank_of(c) for c in face_down), reverse=True)
    # equal ranks keep their order in the shuffled pack
    rest = [parse_card(c) for c in PACK[13:]]
    for r in range(9):
        assert [c for c in face_down if rank_of(c) == r] == [c for c in rest if rank_of(c) == r]
    assert rank_of(face_down[0]) == 8  # an ace on top


@pytest.mark.rules("VAR-AL1", "RUL-53")
def test_albanian_refused_without_a_talon_or_with_otboyny():
    for tg in ({"albanian": True, "deal_rule": "chukotsky"}, {"albanian": True, "deal_rule": "navaleny"},
               {"albanian": True, "otboyny": True}):
        with pytest.raises(RulesError):
            resolve("podkidnoy", 2, tg)


@pytest.mark.rules("VAR-AL1", "RUL-53")
def test_albanian_core_talon_sorted_sampler_too_and_agrees_with_the_referee():
    d = core_deal("podkidnoy", 3, {"variant": "albansky"})
    ws = d.ws
    tal = [int(c) for c in ws[L.S_TALON:L.S_TALON + int(ws[L.S_TEND])]]
    assert tal[-1] == int(ws[L.O_TRUMP_CARD])
    assert [c >> 2 for c in tal[:-1]] == sorted((c >> 2 for c in tal[:-1]), reverse=True)
    from sim.core.machine import Deal
    for seed in range(5):
        s = Deal.sampled(d.rules, d.observe(0), seed=seed)
        st = [int(c) for c in s.ws[L.S_TALON:L.S_TALON + int(s.ws[L.S_TEND])]]
        assert st[-1] == tal[-1] and [c >> 2 for c in st[:-1]] == sorted((c >> 2 for c in st[:-1]), reverse=True)
    core_vs_referee("podkidnoy", 3, {"variant": "albansky"})
    core_vs_referee("prostoy_5", 2, {"variant": "albansky", "trump_six_exchange": True})


# ============================================================================================
# VAR-OT1 otboyny (RUL-54)
# ============================================================================================
OT_POS = dict(hands={0: "7C 8D QC", 1: "9H 10C"}, table=["7H"], talon="AC KC QD 6S")


@pytest.mark.rules("VAR-OT1", "RUL-54")
def test_otboyny_second_discard_goes_into_the_talon_trump_card_stays_last():
    pos = P(OT_POS["hands"], OT_POS["table"], talon=OT_POS["talon"], discard_bouts=1)
    st = R.load_position("podkidnoy", {"otboyny": True}, pos)
    discard_before = len(st.discard)
    R.apply(st, A("cover", 1, attack="7H", cover="9H"))
    ev = R.apply(st, A("pass", 0))
    assert any(e["event"] == "shuffled_into_talon" for e in ev)
    assert len(st.discard) == discard_before and st.discard_bouts == 2
    # 3 face-down + 2 beaten cards, shuffled (order unknown to a position), the trump card 6S last;
    # then the refill: seat 0 draws 3, seat 1 draws 5 -> 8 > 5 + 1: the talon is used up
    assert st.talon == [] and len(st.hands[0]) == 6 and st.trump_card_location == "already_drawn"
    assert parse_card("6S") in st.hands[1]


@pytest.mark.rules("VAR-OT1", "RUL-54")
def test_otboyny_first_discard_and_empty_talon_go_to_the_discard():
    pos = P(OT_POS["hands"], OT_POS["table"], talon=OT_POS["talon"], discard_bouts=0)
    st = R.load_position("podkidnoy", {"otboyny": True}, pos)
    n = len(st.discard)
    R.apply(st, A("cover", 1, attack="7H", cover="9H"))
    R.apply(st, A("pass", 0))
    assert len(st.discard) == n + 2 and st.discard_bouts == 1
    pos = P({0: "7C 8D QC", 1: "9H 10C"}, ["7H"], talon=0, discard_bouts=1)
    st = R.load_position("podkidnoy", {"otboyny": True}, pos)
    n = len(st.discard)
    R.apply(st, A("cover", 1, attack="7H", cover="9H"))
    R.apply(st, A("pass", 0))
    assert len(st.discard) == n + 2 and st.discard_bouts == 2  # no talon left: discarded as usual


@pytest.mark.rules("VAR-OT1", "RUL-54")
def test_otboyny_core_shuffles_recorded_and_replayed_by_the_referee():
    from core_adapter import core_traces
    traces = [tr for g in range(6) for tr in core_traces("podkidnoy", 2, {"variant": "otboyny"}, "greedy", 17, g, 1)]
    shuffled = [tr for tr in traces if tr.get("talon_shuffles")]
    assert shuffled, "greedy 2p podkidnoy should reach a second discard with talon left"
    for tr in shuffled:
        replay(tr)
    # a recorded talon that is not the talon with the discard shuffled in is refused
    tr = dict(shuffled[0])
    bad = [list(t) for t in tr["talon_shuffles"]]
    bad[0][0] = next(c for c in PACK if c not in bad[0])
    tr["talon_shuffles"] = bad
    with pytest.raises((RefereeError, R.ReplayError)):
        replay(tr)
    core_vs_referee("podkidnoy", 3, {"variant": "otboyny"})
    core_vs_referee("prostoy_5", 2, {"variant": "otboyny", "partial_defence": True})


@pytest.mark.rules("VAR-CH1", "VAR-OT1", "RUL-51", "RUL-54")
def test_judge_reads_removed_from_play_and_discard_bouts():
    from sim.referee.judge import format_judgement, judge
    removed = [c for c in PACK if c not in "7C 8D QC 10C 9H 7H".split()]
    doc = {"family": "podkidnoy", "toggles": {"variant": "chukotsky"},
           "position": {"num_players": 2, "trump_suit": removed[-1][-1], "trump_card": removed[-1],
                        "trump_card_location": "removed_from_play", "talon_size": 0,
                        "hands": {"0": ["7C", "8D", "QC"], "1": ["10C", "9H"]}, "attacker": 0, "defender": 1,
                        "table": [{"attack": "7H", "cover": None}], "removed_from_play": removed},
           "action": {"type": "cover", "player": 1, "attack": "7H", "cover": "9H"}}
    out = judge(doc)
    assert out["legal"] and out["position"]["removed_from_play"] == removed
    assert out["position"]["trump_card_location"] == "removed_from_play"
    doc = {"family": "podkidnoy", "toggles": {"variant": "otboyny"},
           "position": P({0: "7C 8D QC", 1: "10C"}, ["7H/9H"], talon=OT_POS["talon"], discard_bouts=1),
           "action": {"type": "pass", "player": 0}}
    out = judge(doc)
    assert out["legal"] and out["events"]["shuffled_into_talon"] == ["7H", "9H"]
    assert "shuffled into the talon" in format_judgement(out) and out["position"]["discard_bouts"] == 2
